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
 * Create a fence on a fresh futex page.
 *
 * Creates a fence on a fresh memfd page (close-on-exec, sealed against
 * shrinking, so that no process can truncate it under a mapping), in the
 * triggered state if triggered is true.
 *
 * Returns NULL with errno set on
 * failure.
 *
 * See also xcb_dri3_util_fence_import(), xcb_dri3_util_fence_trigger(),
 * xcb_dri3_util_fence_wait(), xcb_dri3_util_fence_to_server().
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_create(bool triggered);

/*
 * Make a fence of a page from the X server or another process.
 *
 * Makes a fence of a page that some other party made: the X server (the fd
 * of a DRI3 FDFromFence reply), libxshmfence's xshmfence_alloc_shm(), or a
 * fence of this library in another process.  Any file of at least 4 bytes
 * that can be mapped shared, read-write, will do (libxshmfence's pages are
 * exactly 4 bytes; where memfd is missing it uses a regular file).
 *
 * Takes ownership of fd, whatever the outcome: on failure the fd is closed.
 * On success it is marked close-on-exec.
 *
 * Returns NULL with errno set to
 *   EBADF   fd is not an open file descriptor
 *   ENODEV  fd is not a regular file (a pipe, a socket, a device...)
 *   EINVAL  the file is smaller than the futex word
 *   EACCES  fd was not opened for reading and writing
 * or to what mmap() reported (EPERM for a memfd sealed against writing).
 * A page that another process truncates after the import makes the next
 * access fault (SIGBUS); our own pages are sealed against that.
 *
 * See also xcb_dri3_util_fence_create(), xcb_dri3_util_fence_from_server(),
 * xcb_dri3_util_fence_destroy().
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_import(int fd);

/*
 * Triggers the fence and wakes every waiter, in this process or any other.
 * No system call unless somebody waits (the exact rule is at the top).
 *
 * Returns 0, -EINVAL if fence is NULL, or a futex refusal
 * when a wake-up was needed.
 *
 * See also xcb_dri3_util_fence_reset(), xcb_dri3_util_fence_wait().
 */
int xcb_dri3_util_fence_trigger(xcb_dri3_util_fence_t *fence);

/*
 * Returns a triggered fence to the untriggered state; does nothing to a
 * fence that is not triggered.  Never makes a system call.  Does nothing
 * when fence is NULL.
 *
 * See also xcb_dri3_util_fence_trigger(), xcb_dri3_util_fence_is_triggered().
 */
void xcb_dri3_util_fence_reset(xcb_dri3_util_fence_t *fence);

/*
 * True if the fence is triggered; false if fence is NULL.  Never makes a
 * system call.
 *
 * See also xcb_dri3_util_fence_wait().
 */
bool xcb_dri3_util_fence_is_triggered(const xcb_dri3_util_fence_t *fence);

/*
 * The fence's fd, still owned by the fence (do not close it).  To hand it
 * to somebody who will close it, such as a libxcb request, pass a dup().
 * -1 if fence is NULL.
 *
 * See also xcb_dri3_util_fence_to_server().
 */
int xcb_dri3_util_fence_fd(const xcb_dri3_util_fence_t *fence);

/*
 * Unmaps the page and closes the fd.  NULL is allowed.
 *
 * See also xcb_dri3_util_fence_create(), xcb_dri3_util_fence_import().
 */
void xcb_dri3_util_fence_destroy(xcb_dri3_util_fence_t *fence);

/* ---- waiting ----------------------------------------------------------- */

/*
 * Waits until the fence is triggered.  timeout_ns is relative: 0 only
 * tests, a negative value waits forever.  The deadline is an absolute
 * CLOCK_MONOTONIC time, so signals that interrupt the wait (it resumes by
 * itself) do not extend it.
 *
 * Returns 0 once triggered, -ETIMEDOUT when the
 * deadline passed first, -EINVAL if fence is NULL, or a futex refusal.  No system call when the fence is triggered.
 *
 * Before it sleeps, the wait watches the word for a moment (64 pause
 * instructions, about 2 us; only where the process may run on more than
 * one CPU): a trigger from a process running on another CPU then costs
 * neither side a system call.  Where that does not pay (8 spins in a row
 * on a fence saw no trigger), the waits on that fence spin before one wait
 * in 16 only, until a spin pays again.
 *
 * See also xcb_dri3_util_fence_wait_many(), xcb_dri3_util_fence_wait_conn(),
 * xcb_dri3_util_fence_watcher_create().
 */
int xcb_dri3_util_fence_wait(xcb_dri3_util_fence_t *fence, int64_t timeout_ns);

/* The most fences one xcb_dri3_util_fence_wait_many() takes (the kernel's
 * limit for one futex_waitv). */
#define XCB_DRI3_UTIL_WAIT_MANY_MAX 128

/*
 * Wait for any or all of several fences.
 *
 * Waits for any (wait_all false) or every (wait_all true) fence of the
 * array fences[0..n-1], with the same timeout rules as
 * xcb_dri3_util_fence_wait().
 *
 * Returns 0, -ETIMEDOUT, -EINVAL when n is 0
 * or fences or one of fences[0..n-1] is NULL, -E2BIG when
 * n > XCB_DRI3_UTIL_WAIT_MANY_MAX, or a futex refusal.  When
 * waiting for any, *which (if which is not NULL) receives on success the
 * index of a triggered fence (the lowest one, if several were triggered
 * before the call).
 *
 * Uses the kernel's futex_waitv (Linux 5.16).  Where it is missing (the
 * kernel answers ENOSYS, or a seccomp profile that does not know the call
 * answers EPERM; either is remembered for the life of the process), or when
 * the environment variable XCB_DRI3_UTIL_NO_FUTEX_WAITV=1 was set at the
 * first wait, waiting for
 * every fence waits for each in turn, with no extra latency, and waiting
 * for any sleeps on one fence in slices of at most 1 ms and checks all of
 * them between slices: a trigger of another fence is then seen within
 * about 1 ms.
 *
 * See also xcb_dri3_util_fence_wait(), xcb_dri3_util_fence_watcher_create().
 */
int xcb_dri3_util_fence_wait_many(xcb_dri3_util_fence_t *const *fences, size_t n,
                                  bool wait_all, int64_t timeout_ns, size_t *which);

/*
 * Wait for a fence unless the X server dies.
 *
 * Waits like xcb_dri3_util_fence_wait(), but gives up with -EPIPE as soon
 * as the X connection c has an error or its socket hangs up (a dead server
 * never triggers the fence).  It never reads the socket, which belongs to
 * libxcb.
 *
 * Returns 0, -ETIMEDOUT, -EPIPE, -EINVAL when fence or c is NULL,
 * or a futex refusal.
 *
 * Cost: the futex is not pollable, so the wait sleeps on the fence in
 * slices of at most 4 ms and checks the connection between them (one
 * poll() with a zero timeout).  A trigger still wakes the waiter at once; a
 * dead server is noticed within about 4 ms; a long wait makes about 250
 * wake-ups a second.  No thread is created.
 *
 * See also xcb_dri3_util_fence_wait(), xcb_connection_has_error().
 */
int xcb_dri3_util_fence_wait_conn(xcb_dri3_util_fence_t *fence, xcb_connection_t *c,
                                  int64_t timeout_ns);

/* ---- the server's side -------------------------------------------------- */

/*
 * Make a fence known to the X server.
 *
 * Makes the fence known to the X server as a new SYNC fence (DRI3
 * FenceFromFD, with a dup of the fence's fd and its current state) and
 * returns the new id; the fence stays the caller's.  drawable picks the
 * screen.  This makes a round trip, to report the server's error, bounded
 * by the connection's timeout (xcb_dri3_util_set_timeout(); the probe's
 * round trips, on a connection's first call, included): on failure it
 * returns XCB_NONE and sets *err (if err is not NULL) to the X error,
 * which the caller frees, or to NULL with errno set when no X error is to
 * blame (EINVAL: c or fence is NULL; ENOTSUP: the server has no DRI3;
 * EPIPE: the connection has an error; ETIMEDOUT: no answer in time, and
 * the SYNC fence the server may still make is destroyed after the fact;
 * ECANCELED: the cancel fd of the caller's scope, see
 * xcb_dri3_util_wait_scope_push(); EMFILE or ENFILE: the dup).
 *
 * See also xcb_dri3_util_fence_from_server(), xcb_dri3_fence_from_fd().
 */
xcb_sync_fence_t xcb_dri3_util_fence_to_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                               xcb_dri3_util_fence_t *fence,
                                               xcb_generic_error_t **err);

/*
 * Get the page behind an X server fence.
 *
 * Asks the X server for the page behind SYNC fence sync_fence (DRI3
 * FDFromFence; the server must have created it from a futex page, as
 * xcb_sync_create_fence does) and imports it.  One round trip, bounded as
 * for xcb_dri3_util_fence_to_server().
 *
 * Returns NULL on failure with *err
 * (if err is not NULL) set as there, or to NULL with errno set (EINVAL: c
 * is NULL; ENOTSUP, EPIPE, ETIMEDOUT, ECANCELED as there (a late reply's
 * fd is closed when it comes); EPROTO: the reply did not carry exactly
 * one fd; or an error of xcb_dri3_util_fence_import()).
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
 * Creates a watcher and its thread.  NULL with errno set on failure:
 * ENOMEM, EMFILE or ENFILE (the eventfd), EAGAIN (the thread).
 *
 * See also xcb_dri3_util_fence_watcher_fd(),
 * xcb_dri3_util_fence_watcher_add(), xcb_dri3_util_fence_watcher_remove(),
 * xcb_dri3_util_fence_watcher_collect(),
 * xcb_dri3_util_fence_watcher_destroy().
 */
xcb_dri3_util_fence_watcher_t *xcb_dri3_util_fence_watcher_create(void);

/*
 * The fd to poll for reading (an eventfd, close-on-exec, non-blocking),
 * owned by the watcher.  It stays readable while triggered fences wait to
 * be collected; do not read it yourself.  -1 if watcher is NULL.
 *
 * See also xcb_dri3_util_fence_watcher_create(),
 * xcb_dri3_util_fence_watcher_collect().
 */
int xcb_dri3_util_fence_watcher_fd(const xcb_dri3_util_fence_watcher_t *watcher);

/*
 * Watch a fence.
 *
 * Watches fence until it triggers; user is what
 * xcb_dri3_util_fence_watcher_collect() will return for it.  A fence that
 * is already triggered is reported as well.
 *
 * Returns 0, -EEXIST if the
 * fence is already watched, -E2BIG if the watcher is full, -EINVAL if
 * watcher or fence is NULL, -ECHILD in a process forked after the watcher
 * was made (see the top).
 *
 * See also xcb_dri3_util_fence_watcher_create(),
 * xcb_dri3_util_fence_watcher_remove().
 */
int xcb_dri3_util_fence_watcher_add(xcb_dri3_util_fence_watcher_t *watcher,
                                    xcb_dri3_util_fence_t *fence, void *user);

/*
 * Stop watching a fence.
 *
 * Stops watching fence, whether it triggered or not; once this returns the
 * watcher no longer touches the fence, which may then be destroyed.
 *
 * Returns 0, -ENOENT if the fence was not watched, -EINVAL if watcher or
 * fence is NULL, -ECHILD in a forked child (see the top).
 *
 * See also xcb_dri3_util_fence_watcher_add().
 */
int xcb_dri3_util_fence_watcher_remove(xcb_dri3_util_fence_watcher_t *watcher,
                                       xcb_dri3_util_fence_t *fence);

/*
 * Take the fences that triggered.
 *
 * Stores the user pointers of up to max triggered fences in users, stops
 * watching those fences, and returns how many it stored.  The watcher's fd
 * stays readable while more remain.  Never blocks.
 *
 * Returns 0 when watcher
 * or users is NULL, and in a forked child (see the top).
 *
 * See also xcb_dri3_util_fence_watcher_fd(),
 * xcb_dri3_util_fence_watcher_add().
 */
size_t xcb_dri3_util_fence_watcher_collect(xcb_dri3_util_fence_watcher_t *watcher,
                                           void **users, size_t max);

/*
 * Free a watcher.
 *
 * Stops and joins the thread, closes the fd and frees the watcher; the
 * watched fences are left alone (and not marked as waited for).  NULL is
 * allowed.  In a forked child it frees the child's copy only.
 *
 * See also xcb_dri3_util_fence_watcher_create().
 */
void xcb_dri3_util_fence_watcher_destroy(xcb_dri3_util_fence_watcher_t *watcher);

#ifdef __cplusplus
}
#endif

#endif
