/*
 * xcb_dri3_util.h: helpers for DRI3 clients.
 *
 * Installed as <xcb/xcb_dri3_util.h>; pkg-config name xcb-dri3-util.
 *
 * Fences
 * ------
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
 * Errors are reported as negative errno values where a function returns an
 * int, and through errno where it returns a pointer.  The futex system
 * calls behind the waits and wake-ups cannot fail on a valid fence in a
 * process that may use futex(2) at all; where a sandbox forbids futex(2)
 * itself (which also breaks pthreads), its errno (EPERM or ENOSYS) is
 * passed on as a negative value, as noted below with "a futex refusal".
 * Every call that makes a round trip may also fail with EPROTO where the
 * server breaks the protocol: it answers later requests and never the
 * call's own (the errors listed with each call come in addition).
 */
#ifndef XCB_DRI3_UTIL_H
#define XCB_DRI3_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/sync.h>

/* The bounded wait every round trip of the library goes through, and its
 * per-connection timeout (1 s by default). */
#include "xcb_dri3_util_wait.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xcb_dri3_util_fence xcb_dri3_util_fence_t;

/* ---- fences ------------------------------------------------------------ */

/*
 * Creates a fence on a fresh memfd page (close-on-exec, sealed against
 * shrinking, so that no process can truncate it under a mapping), in the
 * triggered state if triggered is true.  Returns NULL with errno set on
 * failure.
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_create(bool triggered);

/*
 * Makes a fence of a page that some other party made: the X server (the fd
 * of a DRI3 FDFromFence reply), libxshmfence's xshmfence_alloc_shm(), or a
 * fence of this library in another process.  Any file of at least 4 bytes
 * that can be mapped shared, read-write, will do (libxshmfence's pages are
 * exactly 4 bytes; where memfd is missing it uses a regular file).
 *
 * Takes ownership of fd, whatever the outcome: on failure the fd is closed.
 * On success it is marked close-on-exec.  Returns NULL with errno set to
 *   EBADF   fd is not an open file descriptor
 *   ENODEV  fd is not a regular file (a pipe, a socket, a device...)
 *   EINVAL  the file is smaller than the futex word
 *   EACCES  fd was not opened for reading and writing
 * or to what mmap() reported (EPERM for a memfd sealed against writing).
 * A page that another process truncates after the import makes the next
 * access fault (SIGBUS); our own pages are sealed against that.
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_import(int fd);

/*
 * Triggers the fence and wakes every waiter, in this process or any other.
 * No system call unless somebody waits (the exact rule is at the top).
 * Returns 0, -EINVAL if fence is NULL, or a futex refusal (see the top)
 * when a wake-up was needed.
 */
int xcb_dri3_util_fence_trigger(xcb_dri3_util_fence_t *fence);

/*
 * Returns a triggered fence to the untriggered state; does nothing to a
 * fence that is not triggered.  Never makes a system call.  Does nothing
 * when fence is NULL.
 */
void xcb_dri3_util_fence_reset(xcb_dri3_util_fence_t *fence);

/* True if the fence is triggered; false if fence is NULL.  Never makes a
 * system call. */
bool xcb_dri3_util_fence_is_triggered(const xcb_dri3_util_fence_t *fence);

/*
 * The fence's fd, still owned by the fence (do not close it).  To hand it
 * to somebody who will close it, such as a libxcb request, pass a dup().
 * -1 if fence is NULL.
 */
int xcb_dri3_util_fence_fd(const xcb_dri3_util_fence_t *fence);

/* Unmaps the page and closes the fd.  NULL is allowed. */
void xcb_dri3_util_fence_destroy(xcb_dri3_util_fence_t *fence);

/* ---- waiting ----------------------------------------------------------- */

/*
 * Waits until the fence is triggered.  timeout_ns is relative: 0 only
 * tests, a negative value waits forever.  The deadline is an absolute
 * CLOCK_MONOTONIC time, so signals that interrupt the wait (it resumes by
 * itself) do not extend it.  Returns 0 once triggered, -ETIMEDOUT when the
 * deadline passed first, -EINVAL if fence is NULL, or a futex refusal
 * (see the top).  No system call when the fence is triggered.
 *
 * Before it sleeps, the wait watches the word for a moment (64 pause
 * instructions, about 2 us; only where the process may run on more than
 * one CPU): a trigger from a process running on another CPU then costs
 * neither side a system call.  Where that does not pay (8 spins in a row
 * on a fence saw no trigger), the waits on that fence spin before one wait
 * in 16 only, until a spin pays again.
 */
int xcb_dri3_util_fence_wait(xcb_dri3_util_fence_t *fence, int64_t timeout_ns);

/* The most fences one xcb_dri3_util_fence_wait_many() takes (the kernel's
 * limit for one futex_waitv). */
#define XCB_DRI3_UTIL_WAIT_MANY_MAX 128

/*
 * Waits for any (wait_all false) or every (wait_all true) fence of the
 * array fences[0..n-1], with the same timeout rules as
 * xcb_dri3_util_fence_wait().  Returns 0, -ETIMEDOUT, -EINVAL when n is 0
 * or fences or one of fences[0..n-1] is NULL, -E2BIG when
 * n > XCB_DRI3_UTIL_WAIT_MANY_MAX, or a futex refusal (see the top).  When
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
 */
int xcb_dri3_util_fence_wait_many(xcb_dri3_util_fence_t *const *fences, size_t n,
                                  bool wait_all, int64_t timeout_ns, size_t *which);

/*
 * Waits like xcb_dri3_util_fence_wait(), but gives up with -EPIPE as soon
 * as the X connection c has an error or its socket hangs up (a dead server
 * never triggers the fence).  It never reads the socket, which belongs to
 * libxcb.  Returns 0, -ETIMEDOUT, -EPIPE, -EINVAL when fence or c is NULL,
 * or a futex refusal (see the top).
 *
 * Cost: the futex is not pollable, so the wait sleeps on the fence in
 * slices of at most 4 ms and checks the connection between them (one
 * poll() with a zero timeout).  A trigger still wakes the waiter at once; a
 * dead server is noticed within about 4 ms; a long wait makes about 250
 * wake-ups a second.  No thread is created.
 */
int xcb_dri3_util_fence_wait_conn(xcb_dri3_util_fence_t *fence, xcb_connection_t *c,
                                  int64_t timeout_ns);

/* ---- the server's side -------------------------------------------------- */

/*
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
 */
xcb_sync_fence_t xcb_dri3_util_fence_to_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                               xcb_dri3_util_fence_t *fence,
                                               xcb_generic_error_t **err);

/*
 * Asks the X server for the page behind SYNC fence sync_fence (DRI3
 * FDFromFence; the server must have created it from a futex page, as
 * xcb_sync_create_fence does) and imports it.  One round trip, bounded as
 * for xcb_dri3_util_fence_to_server().  Returns NULL on failure with *err
 * (if err is not NULL) set as there, or to NULL with errno set (EINVAL: c
 * is NULL; ENOTSUP, EPIPE, ETIMEDOUT, ECANCELED as there (a late reply's
 * fd is closed when it comes); EPROTO: the reply did not carry exactly
 * one fd; or an error of xcb_dri3_util_fence_import()).
 */
xcb_dri3_util_fence_t *xcb_dri3_util_fence_from_server(xcb_connection_t *c,
                                                       xcb_drawable_t drawable,
                                                       xcb_sync_fence_t sync_fence,
                                                       xcb_generic_error_t **err);

/* ---- waiting from a main loop ------------------------------------------- */

/*
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

#define XCB_DRI3_UTIL_WATCHER_MAX 127

/* Creates a watcher and its thread.  NULL with errno set on failure:
 * ENOMEM, EMFILE or ENFILE (the eventfd), EAGAIN (the thread). */
xcb_dri3_util_fence_watcher_t *xcb_dri3_util_fence_watcher_create(void);

/*
 * The fd to poll for reading (an eventfd, close-on-exec, non-blocking),
 * owned by the watcher.  It stays readable while triggered fences wait to
 * be collected; do not read it yourself.  -1 if watcher is NULL.
 */
int xcb_dri3_util_fence_watcher_fd(const xcb_dri3_util_fence_watcher_t *watcher);

/*
 * Watches fence until it triggers; user is what
 * xcb_dri3_util_fence_watcher_collect() will return for it.  A fence that
 * is already triggered is reported as well.  Returns 0, -EEXIST if the
 * fence is already watched, -E2BIG if the watcher is full, -EINVAL if
 * watcher or fence is NULL, -ECHILD in a process forked after the watcher
 * was made (see the top).
 */
int xcb_dri3_util_fence_watcher_add(xcb_dri3_util_fence_watcher_t *watcher,
                                    xcb_dri3_util_fence_t *fence, void *user);

/*
 * Stops watching fence, whether it triggered or not; once this returns the
 * watcher no longer touches the fence, which may then be destroyed.
 * Returns 0, -ENOENT if the fence was not watched, -EINVAL if watcher or
 * fence is NULL, -ECHILD in a forked child (see the top).
 */
int xcb_dri3_util_fence_watcher_remove(xcb_dri3_util_fence_watcher_t *watcher,
                                       xcb_dri3_util_fence_t *fence);

/*
 * Stores the user pointers of up to max triggered fences in users, stops
 * watching those fences, and returns how many it stored.  The watcher's fd
 * stays readable while more remain.  Never blocks.  Returns 0 when watcher
 * or users is NULL, and in a forked child (see the top).
 */
size_t xcb_dri3_util_fence_watcher_collect(xcb_dri3_util_fence_watcher_t *watcher,
                                           void **users, size_t max);

/*
 * Stops and joins the thread, closes the fd and frees the watcher; the
 * watched fences are left alone (and not marked as waited for).  NULL is
 * allowed.  In a forked child it frees the child's copy only.
 */
void xcb_dri3_util_fence_watcher_destroy(xcb_dri3_util_fence_watcher_t *watcher);

/* ======================================================================== *
 * Buffers, the DRM device, formats and explicit sync
 * ======================================================================== *
 *
 * Conventions of this part: functions that return a pointer return NULL,
 * those that return an X id return XCB_NONE, and those that return an int
 * return a negative errno on failure; errno is set in every case.  Where a
 * function takes xcb_generic_error_t **err, *err (when err is not NULL)
 * receives the server's X error when the server refused the request (the
 * caller frees it) and NULL otherwise; errno is then EIO.
 *
 * No function of this part sends a request to an extension the server
 * lacks (libxcb would shut the connection down): each consults the probe
 * below and fails with ENOTSUP, having sent nothing, when the extension or
 * version it needs is missing.  EPIPE means the connection has an error.
 *
 * Every function that makes round trips is bounded as a whole (its
 * probe, modifier query and request share one deadline) by the
 * connection's timeout, 1 s unless xcb_dri3_util_set_timeout() changed
 * it (xcb_dri3_util_wait.h), and by the caller's scope: it fails with
 * ETIMEDOUT when the server does not answer in time, and with ECANCELED
 * when the scope's cancel fd turns readable.  The answer that comes later
 * is taken in and freed (its fds closed) by a later call, and what the
 * request may still create on the server (a pixmap, a fence, a syncobj)
 * is freed after the fact, its error kept out of the event queue.  The
 * functions that only send (device_set_in_use, syncobj_free,
 * present_synced) wait only for the probe, on a connection's first call,
 * and can then fail the same way.
 */

/* DRM's "no explicit modifier" and "linear" modifiers (drm_fourcc.h). */
#define XCB_DRI3_UTIL_MOD_INVALID 0x00ffffffffffffffULL
#define XCB_DRI3_UTIL_MOD_LINEAR 0ULL

/* ---- the probe ---------------------------------------------------------- */

/*
 * What the server offers, as xcb_dri3_util_probe() found it.  A version
 * is 0.0 when its extension is missing.  DRI3 and Present were asked for
 * 1.4; the others for the newest version this library knows (SYNC 3.1,
 * XFixes 6.0, MIT-SHM whatever the server has).
 */
typedef struct xcb_dri3_util_caps {
    bool fd_passing;            /* a local Unix socket: fds can travel */
    bool dri3, present, sync, xfixes, shm;
    uint32_t dri3_major, dri3_minor;
    uint32_t present_major, present_minor;
    uint32_t sync_major, sync_minor;
    uint32_t xfixes_major, xfixes_minor;
    uint32_t shm_major, shm_minor;
    bool shm_pixmaps;           /* MIT-SHM's shared pixmaps */
    /* Present's capabilities (XCB_PRESENT_CAPABILITY_*) of the first
     * screen's root window; 0 without Present */
    uint32_t present_caps;
    uint32_t reserved[8];       /* zero; room to grow without a new ABI */
} xcb_dri3_util_caps_t;

/*
 * Finds out what the server offers and fills *caps.  The first call on a
 * connection makes two round trips, each sending every request before it
 * waits for any reply: the QueryExtension requests of the five extensions
 * (none where libxcb already knows the answer) with a GetInputFocus (whose
 * reply, waited for with a bound, proves theirs are in), then, together,
 * the version requests of those present and Present's QueryCapabilities;
 * no request goes to a missing extension.  Both round trips together are
 * bounded by the connection's timeout (see the part's conventions).  The
 * result is cached per connection: later calls, and every helper of this
 * library, use it without a round trip.  A probe that failed is not
 * cached: the next call probes again.  Thread-safe.
 *
 * The cache is keyed on the connection; call
 * xcb_dri3_util_probe_forget() before xcb_disconnect() when a program
 * opens and closes many connections.
 *
 * Returns 0, -EPIPE (the connection has or gets an error), -ETIMEDOUT,
 * -ECANCELED, -EPROTO (the server skipped an answer), -ENOMEM.
 */
int xcb_dri3_util_probe(xcb_connection_t *c, xcb_dri3_util_caps_t *caps);

/* Drops what the library keeps for c: the probe's answer, the modifier
 * lists, and the waits' timeout and abandoned requests (late answers that
 * have come are freed now; those still to come stay libxcb's). */
void xcb_dri3_util_probe_forget(xcb_connection_t *c);

/* ---- buffers -------------------------------------------------------------- */

/*
 * A buffer: 1 to 4 planes of {fd, stride, offset} with a size, a DRM
 * fourcc and a modifier; the buffer owns the fds (several planes may share
 * one fd).  Dma-bufs from a GPU driver and memfds for software rendering
 * are both buffers.  Not thread-safe: one thread at a time per buffer.
 */
typedef struct xcb_dri3_util_buffer xcb_dri3_util_buffer_t;

/*
 * A linear buffer on a fresh memfd (close-on-exec, sealed against
 * shrinking), zero-filled, for software rendering.  fourcc is a one-plane
 * RGB format (XRGB8888, ARGB8888, RGB565, XRGB2101010, ...: see
 * xcb_dri3_util_fourcc_to_depth()); rows are aligned to 64 bytes.
 * NULL with errno EINVAL (zero size, or a fourcc that is not a known
 * one-plane format), ENOMEM, or memfd_create()'s error.
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_memfd(uint16_t width, uint16_t height,
                                                          uint32_t fourcc);

/*
 * Makes a buffer of n_planes fds with their strides and offsets (a GPU
 * renderer's dma-bufs).  Takes ownership of every fd whatever the outcome
 * (on failure they are closed; the same fd may appear for several planes).
 * Each plane the format defines must
 *   - fit in its fd: offset + stride * rows within the fd's size.  The
 *     size of memfds and files (fstat) and of dma-bufs (lseek SEEK_END)
 *     is known, and an empty fd has size 0, in which nothing fits; only
 *     a dma-buf whose kernel cannot tell its size is taken on trust;
 *   - hold a row per stride: stride >= width * bytes per pixel of that
 *     plane (chroma planes: their subsampled width);
 *   - be aligned to its pixels: offset and stride multiples of 4 for
 *     32-bit pixels, 8 for 64-bit, 2 for 16-bit (none for 8- and 24-bit).
 * The extra planes of a modifier (compression data) must start inside
 * their fd.  NULL with errno EINVAL (zero size, unknown fourcc, n_planes
 * not 1..4, fewer planes than the format has, a plane that breaks a rule
 * above, a pipe or socket), EBADF (an fd that is not open), ENOMEM.
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_import(uint16_t width, uint16_t height,
                                                    uint32_t fourcc, uint64_t modifier,
                                                    unsigned n_planes, const int *fds,
                                                    const uint32_t *strides,
                                                    const uint32_t *offsets);

/*
 * Creates a pixmap of the buffer (drawable picks the screen; on DRI3 1.2
 * and later it must be a window).  DRI3 >= 1.2: PixmapFromBuffers, with
 * the buffer's modifier when the server lists it for the window or the
 * screen (GetSupportedModifiers, cached per window, depth and bpp), and
 * with XCB_DRI3_UTIL_MOD_INVALID for a linear one-plane buffer when it
 * does not.  DRI3 1.0/1.1: PixmapFromBuffer.  Sends dups: the buffer stays
 * usable.  Waits for the server's answer (a checked request), so a refusal
 * comes back here and the connection stays usable.
 *
 * The buffer's layout passed xcb_dri3_util_buffer_import()'s checks
 * (every buffer does), so the server is never handed planes that do not
 * fit their fds.
 *
 * Returns the pixmap, or XCB_NONE with errno: EIO (the server refused,
 * *err says why), EOPNOTSUPP (what the server's version cannot express:
 * several planes, a modifier, an offset or a stride beyond 16 bits on 1.0;
 * a modifier the server does not list on 1.2; nothing was sent), EINVAL
 * (a buffer with a fourcc of no X depth), ENOTSUP (no DRI3), EPIPE,
 * ETIMEDOUT or ECANCELED (see the part's conventions; the pixmap that the
 * server may still make is freed with a checked FreePixmap, so neither it
 * nor an error of it is left behind).
 */
xcb_pixmap_t xcb_dri3_util_buffer_to_pixmap(xcb_connection_t *c, xcb_drawable_t drawable,
                                            const xcb_dri3_util_buffer_t *buf,
                                            xcb_generic_error_t **err);

/*
 * The buffer behind a pixmap: BuffersFromPixmap on DRI3 >= 1.2,
 * BufferFromPixmap on 1.0.  The reply's fds become the buffer's; fds it
 * cannot use are closed.  The fourcc follows from the pixmap's depth and
 * bpp.  The server's layout must pass xcb_dri3_util_buffer_import()'s
 * checks.  NULL with errno: EIO (X error in *err), EPROTO (the reply's
 * plane count, sizes or fds do not add up, or its layout breaks import's
 * rules: a plane beyond its fd, an empty fd, a stride shorter than a
 * row, a misaligned plane), EINVAL (a depth and bpp of no known fourcc),
 * ENOTSUP (no DRI3), EPIPE, ETIMEDOUT, ECANCELED (the late reply's fds are
 * closed when it comes), ENOMEM.
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_from_pixmap(xcb_connection_t *c,
                                                         xcb_pixmap_t pixmap,
                                                         xcb_generic_error_t **err);

#define XCB_DRI3_UTIL_MAP_READ 1u
#define XCB_DRI3_UTIL_MAP_WRITE 2u

/*
 * Maps plane `plane` for the CPU (flags: XCB_DRI3_UTIL_MAP_READ and/or
 * _WRITE) and returns its first byte; *stride (if not NULL) receives the
 * row pitch.  On a dma-buf the access is bracketed by DMA_BUF_IOCTL_SYNC
 * (start here, end in xcb_dri3_util_buffer_unmap()); memfds need no sync.
 * Only linear layouts can be mapped: XCB_DRI3_UTIL_MOD_LINEAR, or
 * XCB_DRI3_UTIL_MOD_INVALID on a memfd (which is linear by construction).
 * NULL with errno EINVAL (no such plane, no flags), EOPNOTSUPP (a
 * non-linear modifier), EBUSY (already mapped), or mmap()'s or the sync
 * ioctl's error.
 */
void *xcb_dri3_util_buffer_map(xcb_dri3_util_buffer_t *buf, unsigned plane, unsigned flags,
                               uint32_t *stride);

/* Ends the CPU access that xcb_dri3_util_buffer_map() began and unmaps.
 * Returns 0, -EINVAL (the plane is not mapped), or the sync ioctl's error
 * (the mapping is gone all the same). */
int xcb_dri3_util_buffer_unmap(xcb_dri3_util_buffer_t *buf, unsigned plane);

/* The buffer's properties.  The per-plane ones return -1 (fd) or 0 for a
 * plane the buffer does not have.  Fds stay the buffer's: dup() them to
 * hand them on. */
uint16_t xcb_dri3_util_buffer_width(const xcb_dri3_util_buffer_t *buf);
uint16_t xcb_dri3_util_buffer_height(const xcb_dri3_util_buffer_t *buf);
uint8_t xcb_dri3_util_buffer_depth(const xcb_dri3_util_buffer_t *buf);
uint8_t xcb_dri3_util_buffer_bpp(const xcb_dri3_util_buffer_t *buf);
uint32_t xcb_dri3_util_buffer_fourcc(const xcb_dri3_util_buffer_t *buf);
uint64_t xcb_dri3_util_buffer_modifier(const xcb_dri3_util_buffer_t *buf);
unsigned xcb_dri3_util_buffer_n_planes(const xcb_dri3_util_buffer_t *buf);
int xcb_dri3_util_buffer_fd(const xcb_dri3_util_buffer_t *buf, unsigned plane);
uint32_t xcb_dri3_util_buffer_stride(const xcb_dri3_util_buffer_t *buf, unsigned plane);
uint32_t xcb_dri3_util_buffer_offset(const xcb_dri3_util_buffer_t *buf, unsigned plane);

/* Unmaps what is mapped, closes the fds (each once) and frees the buffer
 * (and its GBM buffer object, if any).  NULL is allowed. */
void xcb_dri3_util_buffer_destroy(xcb_dri3_util_buffer_t *buf);

struct gbm_device;

/*
 * A buffer allocated by GBM on device, for rendering and scan-out by the
 * X server.  modifiers[0..n_modifiers) are tried one at a time in their
 * order (pass the server's window list followed by its screen list, as
 * xcb_dri3_util_get_supported_modifiers() returns them), then a linear
 * buffer.  The buffer keeps the GBM buffer object until it is destroyed.
 * NULL with errno EINVAL (device NULL, zero size, modifiers NULL with a
 * count), ENOTSUP (the library was built without GBM), EPROTO (GBM gave
 * more than 4 planes), or GBM's error (ENOMEM when it gives none).
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_gbm(struct gbm_device *device,
                                                        uint16_t width, uint16_t height,
                                                        uint32_t fourcc,
                                                        const uint64_t *modifiers,
                                                        unsigned n_modifiers);

/* ---- the DRM device --------------------------------------------------- */

/*
 * The device that DRI3 Open gave, and what libdrm says about it.  When the
 * fd is no DRM device (the mock server hands out a memfd; a server may
 * hand out anything), is_drm is false, the DRM fields are empty and
 * `kind` and `note` say what the fd is instead of guessing.
 */
typedef struct xcb_dri3_util_device {
    int fd;                     /* owned; close-on-exec */
    bool is_drm;                /* a DRM device node */
    bool is_render_node;        /* fd is a render node */
    bool swapped;               /* the server gave a primary node, which was
                                 * swapped for its render node */
    char kind[16];              /* "render", "primary", "memfd", "file",
                                 * "other" */
    char driver[64];            /* the kernel driver ("i915", "amdgpu"), or "" */
    char render_node[64];       /* e.g. "/dev/dri/renderD128", or "" */
    uint32_t dev_major, dev_minor;  /* of the device node fd is; 0 if none */
    int bus_type;               /* libdrm's DRM_BUS_* value, -1 unknown */
    char bus_id[32];            /* "pci:0000:00:02.0" for PCI, or "" */
    uint16_t vendor_id, device_id;  /* PCI ids, 0 when not PCI */
    char note[128];             /* for people: what the fd is, or why not */
} xcb_dri3_util_device_t;

/*
 * DRI3 Open on drawable's screen (provider: 0 for the default), then
 * libdrm's facts about the fd; a primary node is swapped for its render
 * node where the system has one (the render node needs no DRM master).
 * NULL with errno: EIO (X error in *err), EPROTO (the reply does not carry
 * exactly one fd), ENOTSUP (no DRI3), EPIPE, ETIMEDOUT (the server did not
 * answer within the connection's timeout: the fd of its late reply is
 * closed when it comes), ECANCELED, ENOMEM.  A non-DRM fd is not an
 * error: see is_drm.
 */
xcb_dri3_util_device_t *xcb_dri3_util_device_open(xcb_connection_t *c,
                                                  xcb_drawable_t drawable,
                                                  uint32_t provider,
                                                  xcb_generic_error_t **err);

/*
 * Whether two fds are the same GPU (whatever node each one is), so that a
 * loader knows when it must share buffers through PRIME.  Returns 1 (the
 * same), 0 (different GPUs), -ENODEV (either fd is no DRM device), -EBADF.
 */
int xcb_dri3_util_device_same(int fd_a, int fd_b);

/* Closes the fd and frees the device.  NULL is allowed. */
void xcb_dri3_util_device_close(xcb_dri3_util_device_t *dev);

/*
 * Tells the server (DRI3 1.3 SetDRMDeviceInUse) that window is rendered
 * with dev, so it can prefer that GPU's buffers.  A no-op returning 0 on
 * servers older than 1.3.  The request is unchecked: an X error goes to
 * the event queue.  Returns 0, -ENODEV (dev is no DRM device), -ENOTSUP
 * (no DRI3), -EPIPE.
 */
int xcb_dri3_util_device_set_in_use(xcb_connection_t *c, xcb_window_t window,
                                    const xcb_dri3_util_device_t *dev);

/* ---- formats and modifiers ------------------------------------------ */

/*
 * The DRM fourcc that X servers use for a pixmap depth and bits per pixel
 * (16/16 RGB565, 24/32 XRGB8888, 30/32 XRGB2101010, 32/32 ARGB8888, 15/16
 * XRGB1555, 24/24 RGB888, 8/8 R8), or 0 when there is none.
 */
uint32_t xcb_dri3_util_fourcc_from_depth(uint8_t depth, uint8_t bpp);

/*
 * The X depth and bpp of a one-plane RGB fourcc, the other way round
 * (other channel orders of a depth give that depth; ARGB2101010 and
 * ABGR2101010 give 30, whose visuals have no alpha).  depth and bpp may
 * be NULL.  Returns 0, or -EINVAL for a fourcc with no X depth (YUV
 * formats, several planes, unknown codes).
 */
int xcb_dri3_util_fourcc_to_depth(uint32_t fourcc, uint8_t *depth, uint8_t *bpp);

/*
 * Names for people: "XRGB8888", and libdrm's modifier names
 * ("I915_Y_TILED", "LINEAR", ...).  Unknown values come back as their
 * characters or hex value.  The caller frees the string with free().  NULL
 * with errno ENOMEM.
 */
char *xcb_dri3_util_fourcc_name(uint32_t fourcc);
char *xcb_dri3_util_modifier_name(uint64_t modifier);

/*
 * The server's modifiers for buffers of depth/bpp on window (DRI3 1.2
 * GetSupportedModifiers): *window_mods receives the list for the window
 * (n_window entries), *screen_mods the one for its screen; arrays the
 * caller frees with free() (NULL when empty).  The answer also refreshes
 * the cache that xcb_dri3_util_buffer_to_pixmap() uses.  Returns 0, -EIO
 * (X error in *err), -ENOTSUP (no DRI3, or DRI3 older than 1.2), -EINVAL
 * (an output pointer is NULL), -EPIPE, -ETIMEDOUT, -ECANCELED, -EPROTO
 * (the reply's counts exceed its length), -ENOMEM; on failure the outputs
 * are NULL and 0.
 */
int xcb_dri3_util_get_supported_modifiers(xcb_connection_t *c, xcb_window_t window,
                                          uint8_t depth, uint8_t bpp,
                                          uint64_t **window_mods, uint32_t *n_window,
                                          uint64_t **screen_mods, uint32_t *n_screen,
                                          xcb_generic_error_t **err);

/* ---- explicit sync (DRI3 1.4, Present 1.4) ----------------------------- */

/*
 * Makes the DRM syncobj behind syncobj_fd known to the server (DRI3
 * ImportSyncobj, sending a dup: the fd stays the caller's) and returns the
 * new XID.  A checked request, bounded (see the part's conventions).
 * XCB_NONE with errno EIO (X error in *err), ENOTSUP (no DRI3 1.4), EPIPE,
 * ETIMEDOUT or ECANCELED (the syncobj the server may still import is
 * freed after the fact), or dup()'s error.
 */
uint32_t xcb_dri3_util_syncobj_import(xcb_connection_t *c, xcb_drawable_t drawable,
                                      int syncobj_fd, xcb_generic_error_t **err);

/* Frees a syncobj made by xcb_dri3_util_syncobj_import() (DRI3 FreeSyncobj,
 * unchecked).  Returns 0, -ENOTSUP (no DRI3 1.4), -EPIPE. */
int xcb_dri3_util_syncobj_free(xcb_connection_t *c, uint32_t syncobj);

/*
 * A DRM timeline syncobj on a DRM device (libdrm's drmSyncobj calls), the
 * thing to import with xcb_dri3_util_syncobj_import() and to hand to
 * xcb_dri3_util_present_synced().
 */
typedef struct xcb_dri3_util_timeline xcb_dri3_util_timeline_t;

/* A new timeline on drm_fd (borrowed; it must outlive the timeline).
 * NULL with errno EBADF, ENOTTY or ENODEV (no DRM device: the kernel's
 * answer), or the kernel's error. */
xcb_dri3_util_timeline_t *xcb_dri3_util_timeline_create(int drm_fd);
/* The timeline's syncobj fd, owned by the timeline (pass it to
 * xcb_dri3_util_syncobj_import(), which sends a dup). */
int xcb_dri3_util_timeline_fd(const xcb_dri3_util_timeline_t *tl);
/* Signals point from the CPU.  0 or a negative errno. */
int xcb_dri3_util_timeline_signal(xcb_dri3_util_timeline_t *tl, uint64_t point);
/* Waits until point is signalled (and submitted); timeout_ns relative,
 * negative: forever.  0, -ETIME on timeout, or another negative errno. */
int xcb_dri3_util_timeline_wait(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                int64_t timeout_ns);
/* The last signalled point.  0 or a negative errno. */
int xcb_dri3_util_timeline_query(xcb_dri3_util_timeline_t *tl, uint64_t *point);
/* Destroys the syncobj and closes its fd.  NULL is allowed. */
void xcb_dri3_util_timeline_destroy(xcb_dri3_util_timeline_t *tl);

/*
 * Presents pixmap on window (Present 1.4 PresentPixmapSynced): the server
 * waits for acquire_point on acquire_syncobj before reading the pixmap and
 * signals release_point on release_syncobj once it no longer needs it.
 * Whole pixmap, whole window, any CRTC, no notifies.  Sent only when the
 * probe found DRI3 1.4, Present 1.4 and the Syncobj capability.  The
 * request is not waited for (only the probe, on a connection's first
 * call, makes round trips): when cookie is not NULL it is checked and
 * *cookie receives its cookie, for a bounded xcb_dri3_util_wait_void();
 * without a cookie an X error goes to the event queue.  Returns 0,
 * -EINVAL (a point of 0, a syncobj of XCB_NONE; acquire >= release on one
 * syncobj; divisor 0 with remainder non-zero, or remainder >= divisor),
 * -ENOTSUP, -EPIPE, or, on a connection's first call, which probes,
 * -ETIMEDOUT or -ECANCELED; nothing is sent on failure.
 */
int xcb_dri3_util_present_synced(xcb_connection_t *c, xcb_window_t window,
                                 xcb_pixmap_t pixmap, uint32_t serial,
                                 uint32_t acquire_syncobj, uint64_t acquire_point,
                                 uint32_t release_syncobj, uint64_t release_point,
                                 uint32_t options, uint64_t target_msc, uint64_t divisor,
                                 uint64_t remainder, xcb_void_cookie_t *cookie);

#ifdef __cplusplus
}
#endif

#endif
