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
 * Makes the DRM syncobj behind syncobj_fd known to the server (DRI3
 * ImportSyncobj, sending a dup: the fd stays the caller's) and returns the
 * new XID.  A checked request, bounded (see the conventions in <xcb/xcb_dri3_util.h>).
 * XCB_NONE with errno EIO (X error in *err), ENOTSUP (no DRI3 1.4), EPIPE,
 * ETIMEDOUT or ECANCELED (the syncobj the server may still import is
 * freed after the fact), or dup()'s error.
 */
xcb_dri3_syncobj_t xcb_dri3_util_syncobj_import(xcb_connection_t *c,
                                                xcb_drawable_t drawable, int syncobj_fd,
                                                xcb_generic_error_t **err);

/* Frees a syncobj made by xcb_dri3_util_syncobj_import() (DRI3 FreeSyncobj,
 * unchecked).  Returns 0, -ENOTSUP (no DRI3 1.4), -EPIPE. */
int xcb_dri3_util_syncobj_free(xcb_connection_t *c, xcb_dri3_syncobj_t syncobj);

/*
 * A DRM timeline syncobj on a DRM device (libdrm's drmSyncobj calls), the
 * thing to import with xcb_dri3_util_syncobj_import() and to hand to
 * Present (xcb_present_util_present_synced() of libxcb-present-util).
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
 * negative: forever.  0, -ETIMEDOUT on timeout (the kernel's ETIME, given
 * as every other wait gives it), or another negative errno. */
int xcb_dri3_util_timeline_wait(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                int64_t timeout_ns);
/* Waits until point is available: a fence that will signal it is
 * attached (the server, or the GPU work it submitted, will signal it),
 * signalled or not yet.  A GPU that waits for the point itself (a Vulkan
 * semaphore or a driver's syncobj wait) needs no more than this before
 * its work is queued.  timeout_ns as for xcb_dri3_util_timeline_wait().
 * Returns 0, -ETIMEDOUT, or another negative errno. */
int xcb_dri3_util_timeline_wait_available(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                          int64_t timeout_ns);
/* xcb_dri3_util_timeline_notify()'s flags: notify once the point is
 * available (see xcb_dri3_util_timeline_wait_available()), not signalled. */
#define XCB_DRI3_UTIL_TIMELINE_AVAILABLE 1u
/* Asks the kernel to add 1 to eventfd (an eventfd(2), borrowed: the
 * kernel keeps a reference of its own) once point is signalled, or with
 * XCB_DRI3_UTIL_TIMELINE_AVAILABLE once it is available, so that a main
 * loop sleeps on the eventfd instead of polling the timeline.  A point
 * already there adds 1 at once; each call asks once.  Returns 0, -EINVAL
 * (unknown flags, an fd that is no eventfd, or a kernel before Linux 6.6,
 * which lacks DRM_IOCTL_SYNCOBJ_EVENTFD: the servers that offer Present's
 * Syncobj capability need it themselves), or another negative errno. */
int xcb_dri3_util_timeline_notify(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                  uint32_t flags, int eventfd);
/* The most timelines one xcb_dri3_util_timeline_wait_any() waits for. */
#define XCB_DRI3_UTIL_WAIT_ANY_MAX 64

/*
 * Waits until at least one timelines[i] has reached points[i] (signalled
 * and submitted), as a Vulkan WSI waits for the first of its images'
 * release points; timeout_ns relative, negative: forever.  *first (first
 * may be NULL) receives the index of one that is signalled.  The
 * timelines must live on one DRM fd (one ioctl waits for all).  0,
 * -ETIMEDOUT, -EINVAL (n 0 or above XCB_DRI3_UTIL_WAIT_ANY_MAX, an array
 * or a timeline NULL, timelines on different DRM fds), or another negative
 * errno.
 */
int xcb_dri3_util_timeline_wait_any(xcb_dri3_util_timeline_t *const *timelines,
                                    const uint64_t *points, uint32_t n, int64_t timeout_ns,
                                    uint32_t *first);
/* The last signalled point.  0 or a negative errno. */
int xcb_dri3_util_timeline_query(xcb_dri3_util_timeline_t *tl, uint64_t *point);
/* Destroys the syncobj and closes its fd.  NULL is allowed. */
void xcb_dri3_util_timeline_destroy(xcb_dri3_util_timeline_t *tl);



#ifdef __cplusplus
}
#endif

#endif
