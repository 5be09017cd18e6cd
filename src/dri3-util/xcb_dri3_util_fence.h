/*
 * xcb_dri3_util_fence.h: futex-page fences (libxcb-dri3-util; included by
 * <xcb/xcb_dri3_util.h>, whose overview gives the library's rules for
 * errors and names).
 *
 * Objects: a fence (xcb_dri3_util_fence_t) is made with _create or
 * _import, or from a server's SYNC fence with _from_server; it is
 * triggered, reset and waited for any number of times, handed to the
 * server with _to_server, and freed with _destroy.  A watcher
 * (xcb_dri3_util_fence_watcher_t) lets a main loop learn of triggers
 * through one fd; it borrows the fences it watches.
 *
 * A fence is one page of shared memory (a memfd) holding a 32-bit futex
 * word at offset 0, in libxshmfence's layout, because that is how the X
 * server maps the fds that DRI3 FenceFromFD hands it:
 *      0  not triggered
 *      1  triggered
 *     -1  not triggered, and somebody sleeps in the kernel waiting for it
 * The fences therefore work both ways with the server and with any process
 * that uses libxshmfence on the same fd.
 *
 * Triggering a fence that nobody waits for, resetting it, querying it and
 * waiting on a fence that is already triggered are plain atomic operations:
 * they make no system call.  The exact rule: a trigger makes one system call
 * (a FUTEX_WAKE) when it replaces a value other than 0 and 1, else none.  A
 * wait of this library leaves -1 only while it sleeps: when it gives up
 * (timeout, -EPIPE, an error) or a watcher stops watching the fence, it
 * turns -1 back into 0 and wakes the other sleepers, if any, which mark
 * the word again.  -1 outlives a sleeper only when the sleeper's process
 * dies asleep (or a libxshmfence waiter with no timeout is still there).
 *
 * A value other than 0, 1 and -1 (which no party should write) reads as
 * "not triggered": waits sleep until it changes, and a trigger replaces it
 * and wakes them.
 *
 * All functions are thread-safe: any number of threads may trigger, reset,
 * query and wait on the same fence at once.  Destroying a fence while
 * another thread still uses it is the caller's bug, as with free().
 *
 * fork(): fences work in both processes after a fork() (the page is
 * shared, which is the point).  A watcher does not: its thread exists in
 * the parent only.  In the child, a watcher's functions refuse to work
 * (see each one) and never touch the parent's eventfd; destroying it there
 * frees the child's copy only.
 *
 * "A futex refusal" below is the errno of futex(2) where a sandbox forbids
 * the call itself (EPERM or ENOSYS), passed on as a negative value.
 */
#ifndef XCB_DRI3_UTIL_FENCE_H
#define XCB_DRI3_UTIL_FENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A fence on a shared futex page, as the X server and libxshmfence use.
 *
 * The object of xcb_dri3_util_fence_create(), _import() and
 * _from_server(): opaque, freed with xcb_dri3_util_fence_destroy().  Its
 * page is in libxshmfence's layout (see the top of
 * <xcb/xcb_dri3_util_fence.h>), which the X server maps.
 *
 * See also xcb_dri3_util_fence_create(), xcb_dri3_util_fence_wait(),
 * xcb_dri3_util_fence_to_server(), xcb_dri3_util_fence_watcher_t(3).
 */
typedef struct xcb_dri3_util_fence xcb_dri3_util_fence_t;

/* ---- fences ------------------------------------------------------------ */

/*
 * Create a fence on a fresh futex page.  Creates a fence: a memfd page
 * (close-on-exec, sealed against shrinking, so that no process can truncate it
 * under a mapping) holding one 32-bit futex word at offset 0, in the layout of
 * libxshmfence, which is what the X server uses on the fds that DRI3
 * FenceFromFD hands it.  The word reads 0 when the fence is not triggered, 1
 * when it is, and -1 when it is not triggered and somebody sleeps on it.
 *
 * The fence starts triggered if triggered is true.  Hand it to the X server
 * with xcb_dri3_util_fence_to_server(), and free it with
 * xcb_dri3_util_fence_destroy().
 *
 * Triggering a fence that nobody waits for, resetting and querying it, and
 * waiting on a triggered fence make no system call.  All the fence functions
 * are thread-safe.
 *
 * Returns a new fence, or NULL with errno set (by memfd_create(2),
 * ftruncate(2), fcntl(2) or mmap(2)).
 *
 * See also xcb_dri3_util_fence_import(), xcb_dri3_util_fence_trigger(),
 * xcb_dri3_util_fence_wait(), xcb_dri3_util_fence_to_server().
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_create(bool triggered);

/*
 * Make a fence of a page from the X server or another process.  Maps the futex
 * word at offset 0 of fd and returns a fence for it: the fd of a DRI3
 * FDFromFence reply, a page made by libxshmfence's xshmfence_alloc_shm()
 * (exactly 4 bytes long), or a fence of this library in another process.  Any
 * file of at least 4 bytes that can be mapped shared, read-write, will do, a
 * regular file included.
 *
 * The function takes ownership of fd, whatever the outcome: on failure the fd
 * is closed; on success it belongs to the fence and is marked close-on-exec.
 *
 * A page that another process truncates after the import makes the next access
 * to the word fault; pages made by xcb_dri3_util_fence_create() are sealed
 * against that.
 *
 * Returns a new fence, or NULL with errno set to EBADF (fd is not open),
 * ENODEV (not a regular file: a pipe, a socket, a directory), EINVAL (smaller
 * than the futex word), EACCES (not open for reading and writing), or what
 * mmap(2) reported (EPERM for a memfd sealed against writing).
 *
 * See also xcb_dri3_util_fence_create(), xcb_dri3_util_fence_from_server(),
 * xcb_dri3_util_fence_destroy().
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_import(int fd);

/*
 * Trigger a fence.  Marks the fence triggered and wakes every waiter, in this
 * process or any other (libxshmfence's waiters, and so the X server's,
 * included).  When nobody waits, this is one atomic instruction and no system
 * call.
 *
 * Returns 0, -EINVAL if fence is NULL, or, where a sandbox forbids futex(2)
 * itself, its error (-EPERM or -ENOSYS).  A wake-up call is made when the word
 * held anything but 0 or 1: -1 (a sleeper), or a value no party should write,
 * behind which a sleeper may hide.
 *
 * See also xcb_dri3_util_fence_reset(), xcb_dri3_util_fence_wait().
 */
int xcb_dri3_util_fence_trigger(xcb_dri3_util_fence_t *fence);

/*
 * Make a triggered fence untriggered.  Returns a triggered fence to the
 * untriggered state; a fence that is not triggered is left as it is.  Never
 * makes a system call.  Does nothing when fence is NULL.
 *
 * Reset a fence only when no party can still be about to wait for its previous
 * trigger, or that party will miss it.
 *
 * See also xcb_dri3_util_fence_trigger(), xcb_dri3_util_fence_is_triggered().
 */
void xcb_dri3_util_fence_reset(xcb_dri3_util_fence_t *fence);

/*
 * Tell whether a fence is triggered.  Looks at the fence's futex word.  Never
 * makes a system call.
 *
 * Returns true if the fence is triggered; false if it is not, or holds a value
 * that no party should write (neither 0, 1 nor -1), or fence is NULL.
 *
 * See also xcb_dri3_util_fence_wait().
 */
bool xcb_dri3_util_fence_is_triggered(const xcb_dri3_util_fence_t *fence);

/*
 * The file descriptor of a fence.  Returns the fd of the fence's page.  It
 * still belongs to the fence: do not close it.  To hand it to somebody who
 * closes what they get, such as a libxcb request function, pass a dup(2) of it
 * (better, fcntl(fd, F_DUPFD_CLOEXEC, 0)).
 *
 * Returns the fd, or -1 if fence is NULL.
 *
 * See also xcb_dri3_util_fence_to_server().
 */
int xcb_dri3_util_fence_fd(const xcb_dri3_util_fence_t *fence);

/*
 * Free a fence.  Unmaps the fence's page and closes its fd.  NULL is allowed
 * and does nothing.  No other thread may still use the fence, and it must not
 * be in a watcher (see xcb_dri3_util_fence_watcher_remove()).  A copy of the
 * page that the X server or another process holds stays valid.
 *
 * See also xcb_dri3_util_fence_create(), xcb_dri3_util_fence_import().
 */
void xcb_dri3_util_fence_destroy(xcb_dri3_util_fence_t *fence);

/* ---- waiting ----------------------------------------------------------- */

/*
 * Wait until a fence is triggered.  Waits until the fence is triggered, or
 * until timeout_ns nanoseconds have passed.  A timeout of 0 only looks; a
 * negative one waits for ever.
 *
 * The timeout becomes an absolute CLOCK_MONOTONIC deadline at the start, so
 * signals that interrupt the wait, after which it resumes by itself, do not
 * extend it.  A fence that is already triggered costs no system call.
 *
 * Before it sleeps, the wait watches the word for a moment (64 pause
 * instructions, about 2 microseconds; only where the process may run on more
 * than one CPU): a trigger from a process running on another CPU then costs
 * neither side a system call.  Where that does not pay (8 spins in a row on
 * a fence saw no trigger), the waits on that fence spin before one wait in
 * 16 only, until a spin pays again.
 *
 * Returns 0 once the fence is triggered, -ETIMEDOUT when the deadline passed
 * first, -EINVAL if fence is NULL, or, where a sandbox forbids futex(2)
 * itself, its error (-EPERM or -ENOSYS).  A wait that gives up turns its -1
 * mark back into 0 (waking any other sleeper, which marks the word again), so
 * the next uncontended trigger makes no system call.
 *
 * See also xcb_dri3_util_fence_wait_many(), xcb_dri3_util_fence_wait_conn(),
 * xcb_dri3_util_fence_watcher_create().
 */
int xcb_dri3_util_fence_wait(xcb_dri3_util_fence_t *fence, int64_t timeout_ns);

/* The most fences one xcb_dri3_util_fence_wait_many() takes (the kernel's
 * limit for one futex_waitv). */
#define XCB_DRI3_UTIL_WAIT_MANY_MAX 128

/*
 * Wait for any or all of several fences.  Waits until any (wait_all false) or
 * every (wait_all true) fence of fences[0..n-1] is triggered, with the timeout
 * rules of xcb_dri3_util_fence_wait().  When waiting for any, *which (unless
 * which is NULL) receives on success the index of a triggered fence, the
 * lowest one if several were triggered before the call.  At most
 * XCB_DRI3_UTIL_WAIT_MANY_MAX (128) fences.
 *
 * The wait sleeps on all the fences at once with the kernel's futex_waitv()
 * (Linux 5.16).  Where that is missing, or when the environment variable
 * XCB_DRI3_UTIL_NO_FUTEX_WAITV=1 was set at the first wait, waiting for all
 * waits for each fence in turn (no extra latency), and waiting for any sleeps
 * on one fence in slices of at most 1 ms, checking all of them between slices:
 * a trigger of another fence is then seen within about 1 ms.
 *
 * Returns 0, -ETIMEDOUT when the deadline passed first, -EINVAL when fences or
 * one of its first n entries is NULL or n is 0, -E2BIG when n is above the
 * limit, or, where a sandbox forbids futex(2) itself, its error (-EPERM or
 * -ENOSYS).  Without futex_waitv (the kernel answers ENOSYS, or a seccomp
 * profile answers EPERM) the call falls back to sleeping on one fence at a
 * time.
 *
 * See also xcb_dri3_util_fence_wait(), xcb_dri3_util_fence_watcher_create().
 */
int xcb_dri3_util_fence_wait_many(xcb_dri3_util_fence_t *const *fences, size_t n,
                                  bool wait_all, int64_t timeout_ns, size_t *which);

/*
 * Wait for a fence unless the X server dies.  Waits like
 * xcb_dri3_util_fence_wait(), but gives up as soon as the connection c has an
 * error or its socket hangs up: a dead server never triggers the fence.  The
 * socket is only polled for hang-up, never read; it belongs to libxcb.
 *
 * Cost: a futex cannot be polled together with a socket, so the wait sleeps on
 * the fence in slices of at most 4 ms and checks the connection between them.
 * A trigger still wakes the waiter at once; a dead server is noticed within
 * about 4 ms; a long wait wakes about 250 times a second.  No thread is
 * created.
 *
 * Returns 0 once the fence is triggered, -ETIMEDOUT when the deadline passed
 * first, -EPIPE when the connection is broken, -EINVAL if fence or c is NULL,
 * or, where a sandbox forbids futex(2) itself, its error (-EPERM or -ENOSYS).
 *
 * See also xcb_dri3_util_fence_wait(), xcb_connection_has_error().
 */
int xcb_dri3_util_fence_wait_conn(xcb_dri3_util_fence_t *fence, xcb_connection_t *c,
                                  int64_t timeout_ns);

/* ---- the server's side -------------------------------------------------- */

/*
 * Make a fence known to the X server.  Sends DRI3 FenceFromFD with a new SYNC
 * fence id, a close-on-exec dup of the fence's fd and the fence's current
 * state, and waits for the server's verdict (one round trip).  drawable picks
 * the screen.  The fence stays the caller's; the server and the client then
 * share the page, and a trigger on either side is seen on the other.  The
 * server's fence is destroyed with xcb_sync_destroy_fence().
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).  When the server does not
 * answer in time, the SYNC fence it may still make is destroyed after the fact
 * (a checked DestroyFence whose error is swallowed).
 *
 * Returns the new fence id, or XCB_NONE on failure.  Then *err (unless err is
 * NULL) holds the X error, which the caller frees, or NULL with errno set:
 * EINVAL when c or fence is NULL, ENOTSUP when the server has no DRI3, EPIPE
 * when the connection is broken, ETIMEDOUT when the server did not answer in
 * time, ECANCELED when the scope's cancel fd turned readable, or the error of
 * the dup.
 *
 * See also xcb_dri3_util_fence_from_server(), xcb_dri3_fence_from_fd().
 */
xcb_sync_fence_t xcb_dri3_util_fence_to_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                               xcb_dri3_util_fence_t *fence,
                                               xcb_generic_error_t **err);

/*
 * Get the page behind an X server fence.  Sends DRI3 FDFromFence for the SYNC
 * fence sync_fence (which the server must have made from a futex page, as
 * xcb_sync_create_fence() does), waits for the reply and imports its fd with
 * xcb_dri3_util_fence_import().  The reply's fds are always taken and closed
 * or kept, never leaked.
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).  The fd of a reply that
 * comes after the call gave up is closed when it comes.
 *
 * Returns a new fence, or NULL on failure.  Then *err (unless err is NULL)
 * holds the X error, which the caller frees, or NULL with errno set: EINVAL
 * when c is NULL, ENOTSUP when the server has no DRI3, EPIPE when the
 * connection is broken, ETIMEDOUT when the server did not answer in time,
 * ECANCELED when the scope's cancel fd turned readable, EPROTO when the reply
 * did not carry exactly one fd, or an error of xcb_dri3_util_fence_import().
 *
 * See also xcb_dri3_util_fence_to_server(), xcb_dri3_fd_from_fence().
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_from_server(xcb_connection_t *c,
                                                       xcb_drawable_t drawable,
                                                       xcb_sync_fence_t sync_fence,
                                                       xcb_generic_error_t **err);

/* ---- waiting from a main loop ------------------------------------------- */

/*
 * A thread that turns fence triggers into a pollable fd for a main loop.
 *
 * A watcher lets a poll()/epoll/GLib main loop learn that fences
 * triggered, without blocking the loop's thread: the loop watches one fd,
 * an eventfd that turns readable when at least one watched fence has
 * triggered, and then collects the triggered fences.  Watching is
 * one-shot: a collected or removed fence is no longer watched.
 *
 * Cost: one thread per watcher (named "xcb-fence-watch"), created with the
 * watcher, asleep in the
 * kernel on all the watched futex words at once (futex_waitv) and woken
 * only by a trigger or a change to the set.  A trigger reaches the main
 * loop after one futex wake-up, one eventfd write and the loop's own
 * wake-up: a few microseconds.  Memory: the thread's stack (the system
 * default, typically 8 MiB of address space, little of it touched) and a
 * few dozen bytes per fence.
 *
 * Without futex_waitv (see xcb_dri3_util_fence_wait_many()) the thread can
 * sleep on one word only.  With no fence to watch it sleeps until the set
 * changes, and with one fence until that fence triggers or the set changes:
 * no wake-up at all meanwhile.  With two or more it sleeps on the first and
 * looks at the others every 1 ms (a trigger of another fence is seen within
 * about 1 ms; 1 000 wake-ups a second while it waits).
 *
 * A watcher holds at most XCB_DRI3_UTIL_WATCHER_MAX fences (the kernel's
 * limit for one futex_waitv, less the watcher's own control word).  The
 * fences are borrowed: each must outlive its time in the watcher.  The
 * watcher's functions are thread-safe.
 */
typedef struct xcb_dri3_util_fence_watcher xcb_dri3_util_fence_watcher_t;

/* The most fences one watcher holds (see xcb_dri3_util_fence_watcher_t). */
#define XCB_DRI3_UTIL_WATCHER_MAX 127

/*
 * Learn of fence triggers from a main loop.  A futex cannot be polled.  A
 * watcher lets a poll(2), epoll(7) or GLib main loop learn that fences
 * triggered without blocking its thread: the loop polls one fd
 * (xcb_dri3_util_fence_watcher_fd()), an eventfd that is readable while
 * triggered fences wait to be collected, and collects them with
 * xcb_dri3_util_fence_watcher_collect().  Fences are added with a user pointer
 * and reported once (one-shot).
 *
 * Cost: one thread per watcher, started here with every signal blocked, asleep
 * in the kernel on all the watched futex words at once (futex_waitv()) and
 * woken only by a trigger or by a change to the set.  A trigger reaches the
 * loop after one futex wake-up, one eventfd write and the loop's own wake-up,
 * a few microseconds.  Memory: the thread's stack (the system default, mostly
 * untouched) and a few dozen bytes per fence.  Without futex_waitv() the
 * thread looks at the fences every 1 ms instead.
 *
 * A watcher holds at most XCB_DRI3_UTIL_WATCHER_MAX (127) fences.  The fences
 * are borrowed: each must outlive its time in the watcher.  The watcher's
 * functions are thread-safe.
 *
 * Returns a new watcher, or NULL with errno set: ENOMEM, EMFILE or ENFILE (the
 * eventfd), EAGAIN (the thread, which is named "xcb-fence-watch").
 *
 * See also xcb_dri3_util_fence_watcher_fd(),
 * xcb_dri3_util_fence_watcher_add(), xcb_dri3_util_fence_watcher_remove(),
 * xcb_dri3_util_fence_watcher_collect(),
 * xcb_dri3_util_fence_watcher_destroy().
 */
xcb_dri3_util_fence_watcher_t *xcb_dri3_util_fence_watcher_create(void);

/*
 * The fd a main loop polls for a watcher.  Returns the watcher's eventfd
 * (close-on-exec, non-blocking), to be polled for reading.  It stays readable
 * while triggered fences wait to be collected.  It belongs to the watcher: do
 * not read or close it.
 *
 * Returns the fd, or -1 if watcher is NULL.
 *
 * See also xcb_dri3_util_fence_watcher_create(),
 * xcb_dri3_util_fence_watcher_collect().
 */
int xcb_dri3_util_fence_watcher_fd(const xcb_dri3_util_fence_watcher_t *watcher);

/*
 * Watch a fence.  Watches fence until it triggers; user is what
 * xcb_dri3_util_fence_watcher_collect() returns for it.  A fence that is
 * already triggered is reported too.  The fence must stay alive until it is
 * collected or removed.
 *
 * Returns 0, -EEXIST if the fence is already in the watcher, -E2BIG if the
 * watcher is full, -EINVAL if watcher or fence is NULL, -ECHILD in a process
 * forked after the watcher was made (its thread lives in the parent only).
 *
 * See also xcb_dri3_util_fence_watcher_create(),
 * xcb_dri3_util_fence_watcher_remove().
 */
int xcb_dri3_util_fence_watcher_add(xcb_dri3_util_fence_watcher_t *watcher,
                                    xcb_dri3_util_fence_t *fence, void *user);

/*
 * Stop watching a fence.  Stops watching fence, whether it triggered (and was
 * not collected yet) or not.  Once this returns the watcher no longer touches
 * the fence, which may then be destroyed.
 *
 * Returns 0, -ENOENT if the fence was not in the watcher, -EINVAL if watcher
 * or fence is NULL, -ECHILD in a process forked after the watcher was made.
 *
 * See also xcb_dri3_util_fence_watcher_add().
 */
int xcb_dri3_util_fence_watcher_remove(xcb_dri3_util_fence_watcher_t *watcher,
                                       xcb_dri3_util_fence_t *fence);

/*
 * Take the fences that triggered.  Stores the user pointers of up to max
 * triggered fences in users, and stops watching those fences.  The watcher's
 * fd stays readable while more remain.  Never blocks.
 *
 * Returns how many pointers were stored; 0 when watcher or users is NULL, and
 * in a process forked after the watcher was made (which never touches the
 * parent's fd).
 *
 * See also xcb_dri3_util_fence_watcher_fd(),
 * xcb_dri3_util_fence_watcher_add().
 */
size_t xcb_dri3_util_fence_watcher_collect(xcb_dri3_util_fence_watcher_t *watcher,
                                           void **users, size_t max);

/*
 * Free a watcher.  Stops and joins the watcher's thread, closes its fd and
 * frees it.  The fences it watched are left alone.  NULL is allowed and does
 * nothing.  The fences still watched are left untriggered and unmarked (a -1
 * the thread left on a word is turned back into 0).  In a process forked after
 * the watcher was made, it frees that process's copy only: there is no thread
 * to stop there, and the parent's eventfd is left alone.
 *
 * See also xcb_dri3_util_fence_watcher_create().
 */
void xcb_dri3_util_fence_watcher_destroy(xcb_dri3_util_fence_watcher_t *watcher);

#ifdef __cplusplus
}
#endif

#endif
