/*
 * xcb_dri3_util_sync.h: explicit sync, DRI3 1.4 (libxcb-dri3-util; included
 * by <xcb/xcb_dri3_util.h>, whose overview gives the library's rules for
 * errors, names and round trips).
 *
 * Objects: a timeline (xcb_dri3_util_timeline_t) is a DRM timeline
 * syncobj on a render node, from _timeline_create to _timeline_destroy;
 * its fd is imported into the server with xcb_dri3_util_syncobj_import(),
 * which gives an XID (xcb_dri3_syncobj_t) that the caller frees with
 * xcb_dri3_util_syncobj_free() before the timeline goes.  Points are
 * signalled by the GPU or the CPU (_timeline_signal) and by the server,
 * and waited for with _timeline_wait (one point) or _timeline_wait_any
 * (the first of several).
 */
#ifndef XCB_DRI3_UTIL_SYNC_H
#define XCB_DRI3_UTIL_SYNC_H

#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/dri3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- explicit sync (DRI3 1.4, Present 1.4) ----------------------------- */

/*
 * Make a DRM syncobj known to the X server.  Sends DRI3 ImportSyncobj (DRI3
 * 1.4) with a duplicate of syncobj_fd (a DRM syncobj exported as an fd, such
 * as xcb_dri3_util_timeline_fd()) for the screen of drawable and returns the
 * new XID, for xcb_present_util_present_synced().  The fd stays the caller's.
 * The request is checked and waited for.
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).  When the server does not
 * answer in time, the syncobj it may still import is freed after the fact (a
 * checked FreeSyncobj whose error is swallowed).
 *
 * Returns the new XID, or XCB_NONE with errno set to EIO (the server refused,
 * with the X error in *err when err is not NULL), ENOTSUP (no DRI3 1.4:
 * nothing was sent), EPIPE, ETIMEDOUT (no answer within the bound), ECANCELED
 * (the scope's cancel fd), or what dup(2) reported (EBADF).
 *
 * See also xcb_dri3_util_syncobj_free(), xcb_dri3_util_timeline_create(),
 * xcb_present_util_present_synced().
 */
xcb_dri3_syncobj_t xcb_dri3_util_syncobj_import(xcb_connection_t *c,
                                                xcb_drawable_t drawable, int syncobj_fd,
                                                xcb_generic_error_t **err);

/*
 * Forget an imported syncobj.  Sends DRI3 FreeSyncobj (DRI3 1.4) for a syncobj
 * made by xcb_dri3_util_syncobj_import().  The request is unchecked: an X
 * error goes to the event queue.  The DRM syncobj itself lives on for as long
 * as its fds do.
 *
 * Returns 0, or a negative errno (also in errno): -ENOTSUP (no DRI3 1.4:
 * nothing was sent), -EPIPE.
 *
 * See also xcb_dri3_util_syncobj_import().
 */
int xcb_dri3_util_syncobj_free(xcb_connection_t *c, xcb_dri3_syncobj_t syncobj);

/*
 * A DRM timeline syncobj for DRI3 1.4 explicit sync.
 *
 * A DRM timeline syncobj on a DRM device (libdrm's drmSyncobj calls), the
 * thing to import with xcb_dri3_util_syncobj_import() and to hand to
 * Present (xcb_present_util_present_synced() of libxcb-present-util).
 */
typedef struct xcb_dri3_util_timeline xcb_dri3_util_timeline_t;

/*
 * Make a DRM timeline syncobj.  Creates a DRM syncobj on the DRM device drm_fd
 * (through libdrm's drmSyncobjCreate), exports it as an fd for the X server,
 * and returns both as a timeline: a 64-bit counter of points that the GPU, the
 * CPU (xcb_dri3_util_timeline_signal()) or the X server signal.  drm_fd is
 * borrowed and must outlive the timeline.
 *
 * Returns a new timeline, or NULL with errno set to EBADF (drm_fd is not
 * open), the kernel's answer for an fd that is no DRM device (ENOTTY or
 * ENODEV), or the kernel's error.
 *
 * See also xcb_dri3_util_timeline_fd(), xcb_dri3_util_timeline_signal(),
 * xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_query(),
 * xcb_dri3_util_timeline_destroy(), xcb_dri3_util_syncobj_import().
 */
xcb_dri3_util_timeline_t *xcb_dri3_util_timeline_create(int drm_fd);
/*
 * The syncobj fd of a timeline.  Returns the fd of the timeline's syncobj,
 * owned by the timeline: pass it to xcb_dri3_util_syncobj_import(), which
 * sends a duplicate.  It is close-on-exec.
 *
 * See also xcb_dri3_util_timeline_create(), xcb_dri3_util_syncobj_import().
 */
int xcb_dri3_util_timeline_fd(const xcb_dri3_util_timeline_t *tl);
/*
 * Signal a point of a timeline from the CPU.  Signals point of the timeline at
 * once (drmSyncobjTimelineSignal), waking whoever waits for it or an earlier
 * point.
 *
 * Returns 0, or a negative errno (the kernel's).
 *
 * See also xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_query().
 */
int xcb_dri3_util_timeline_signal(xcb_dri3_util_timeline_t *tl, uint64_t point);
/*
 * Wait for a point of a timeline.  Waits until point of the timeline is
 * signalled, including points whose fence has not been submitted yet
 * (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT).  timeout_ns is relative: 0 only
 * tests, a negative value waits forever.  The deadline is absolute on
 * CLOCK_MONOTONIC, so interruptions do not extend it.
 *
 * Returns 0 once signalled, -ETIMEDOUT when the deadline passed first (the
 * kernel's ETIME, given as every other wait of the library gives it), or
 * another negative errno (the kernel's).
 *
 * See also xcb_dri3_util_timeline_signal(), xcb_dri3_util_timeline_query().
 */
int xcb_dri3_util_timeline_wait(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                int64_t timeout_ns);
/*
 * Wait until a point of a timeline has a fence.  Waits until point of the
 * timeline is available: a fence that will signal it is attached (the server,
 * or GPU work it submitted, will signal it), signalled or not
 * (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE).  A GPU that waits for the point
 * itself (a Vulkan semaphore, a driver's syncobj wait) needs no more than this
 * before its work is queued.  timeout_ns is relative: 0 only tests, a negative
 * value waits forever.
 *
 * Returns 0 once available, -ETIMEDOUT when the deadline passed first, or
 * another negative errno (the kernel's).
 *
 * See also xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_notify().
 */
int xcb_dri3_util_timeline_wait_available(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                          int64_t timeout_ns);
/* A flag of xcb_dri3_util_timeline_notify(): notify at availability.
 *
 * xcb_dri3_util_timeline_notify()'s flags: notify once the point is
 * available (see xcb_dri3_util_timeline_wait_available()), not signalled. */
#define XCB_DRI3_UTIL_TIMELINE_AVAILABLE 1u
/*
 * Have the kernel count a timeline point on an eventfd.  Asks the kernel to
 * add 1 to eventfd (an eventfd(2), borrowed: the kernel keeps a reference of
 * its own) once point is signalled, or with XCB_DRI3_UTIL_TIMELINE_AVAILABLE
 * in flags once it is available (see xcb_dri3_util_timeline_wait_available()),
 * so that a main loop sleeps on the eventfd instead of polling the timeline.
 * A point already there adds 1 at once; each call asks once.  This is
 * DRM_IOCTL_SYNCOBJ_EVENTFD, which came with Linux 6.6; the servers that offer
 * Present's Syncobj capability need it themselves.
 *
 * Returns 0, -EINVAL (unknown flags, an fd that is no eventfd, or a kernel
 * before Linux 6.6), or another negative errno (the kernel's).
 *
 * See also xcb_dri3_util_timeline_wait(),
 * xcb_dri3_util_timeline_wait_available().
 */
int xcb_dri3_util_timeline_notify(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                  uint32_t flags, int eventfd);
/* The most timelines one xcb_dri3_util_timeline_wait_any() waits for. */
#define XCB_DRI3_UTIL_WAIT_ANY_MAX 64

/*
 * Wait for the first of several timeline points.  Waits until at least one of
 * the n timelines timelines[i] has reached its point points[i], as a Vulkan
 * WSI waits for whichever of its images the X server releases first.  A point
 * counts once it is signalled, including points whose fence had not been
 * submitted when the wait began (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
 * without DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL).  When first is not NULL, *first
 * receives the index of a timeline whose point is signalled.
 *
 * One ioctl waits for all the points, so the timelines must have been made on
 * the same DRM fd (xcb_dri3_util_timeline_create()), and there may be at most
 * XCB_DRI3_UTIL_WAIT_ANY_MAX of them.  timeout_ns is relative: 0 only tests, a
 * negative value waits forever.  The deadline is absolute on CLOCK_MONOTONIC,
 * so interruptions do not extend it.
 *
 * Returns 0 once a point is signalled, -ETIMEDOUT when the deadline passed
 * first, -EINVAL (n 0 or above XCB_DRI3_UTIL_WAIT_ANY_MAX, timelines or points
 * NULL, a NULL timeline, timelines on different DRM fds), or another negative
 * errno (the kernel's).
 *
 * See also xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_signal().
 */
int xcb_dri3_util_timeline_wait_any(xcb_dri3_util_timeline_t *const *timelines,
                                    const uint64_t *points, uint32_t n, int64_t timeout_ns,
                                    uint32_t *first);
/*
 * The last signalled point of a timeline.  Stores the timeline's last
 * signalled point in *point (drmSyncobjQuery).
 *
 * Returns 0, or a negative errno (the kernel's).
 *
 * See also xcb_dri3_util_timeline_signal(), xcb_dri3_util_timeline_wait().
 */
int xcb_dri3_util_timeline_query(xcb_dri3_util_timeline_t *tl, uint64_t *point);
/*
 * Destroy a timeline.  Closes the timeline's fd, destroys its syncobj handle
 * on the DRM device and frees it.  A server that imported the syncobj keeps
 * its own reference.  tl may be NULL.
 *
 * See also xcb_dri3_util_timeline_create().
 */
void xcb_dri3_util_timeline_destroy(xcb_dri3_util_timeline_t *tl);

#ifdef __cplusplus
}
#endif

#endif
