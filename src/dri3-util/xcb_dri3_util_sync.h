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
 * Make a DRM syncobj known to the X server.
 *
 * Makes the DRM syncobj behind syncobj_fd known to the server (DRI3
 * ImportSyncobj, sending a dup: the fd stays the caller's) and returns the
 * new XID.  A checked request, bounded (see the conventions in <xcb/xcb_dri3_util.h>).
 * XCB_NONE with errno EIO (X error in *err), ENOTSUP (no DRI3 1.4), EPIPE,
 * ETIMEDOUT or ECANCELED (the syncobj the server may still import is
 * freed after the fact), or dup()'s error.
 *
 * See also xcb_dri3_util_syncobj_free(), xcb_dri3_util_timeline_create(),
 * xcb_present_util_present_synced().
 */
xcb_dri3_syncobj_t xcb_dri3_util_syncobj_import(xcb_connection_t *c,
                                                xcb_drawable_t drawable, int syncobj_fd,
                                                xcb_generic_error_t **err);

/*
 * Frees a syncobj made by xcb_dri3_util_syncobj_import() (DRI3 FreeSyncobj,
 * unchecked).
 *
 * Returns 0, -ENOTSUP (no DRI3 1.4), -EPIPE.
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
 * A new timeline on drm_fd (borrowed; it must outlive the timeline).
 * NULL with errno EBADF, ENOTTY or ENODEV (no DRM device: the kernel's
 * answer), or the kernel's error.
 *
 * See also xcb_dri3_util_timeline_fd(), xcb_dri3_util_timeline_signal(),
 * xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_query(),
 * xcb_dri3_util_timeline_destroy(), xcb_dri3_util_syncobj_import().
 */
xcb_dri3_util_timeline_t *xcb_dri3_util_timeline_create(int drm_fd);
/*
 * The syncobj fd of a timeline.
 *
 * The timeline's syncobj fd, owned by the timeline (pass it to
 * xcb_dri3_util_syncobj_import(), which sends a dup).
 *
 * See also xcb_dri3_util_timeline_create(), xcb_dri3_util_syncobj_import().
 */
int xcb_dri3_util_timeline_fd(const xcb_dri3_util_timeline_t *tl);
/*
 * Signals point from the CPU.  0 or a negative errno.
 *
 * See also xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_query().
 */
int xcb_dri3_util_timeline_signal(xcb_dri3_util_timeline_t *tl, uint64_t point);
/*
 * Waits until point is signalled (and submitted); timeout_ns relative,
 * negative: forever.  0, -ETIMEDOUT on timeout (the kernel's ETIME, given
 * as every other wait gives it), or another negative errno.
 *
 * See also xcb_dri3_util_timeline_signal(), xcb_dri3_util_timeline_query().
 */
int xcb_dri3_util_timeline_wait(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                int64_t timeout_ns);
/* The most timelines one xcb_dri3_util_timeline_wait_any() waits for. */
#define XCB_DRI3_UTIL_WAIT_ANY_MAX 64

/*
 * Wait for the first of several timeline points.
 *
 * Waits until at least one timelines[i] has reached points[i] (signalled
 * and submitted), as a Vulkan WSI waits for the first of its images'
 * release points; timeout_ns relative, negative: forever.  *first (first
 * may be NULL) receives the index of one that is signalled.  The
 * timelines must live on one DRM fd (one ioctl waits for all).  0,
 * -ETIMEDOUT, -EINVAL (n 0 or above XCB_DRI3_UTIL_WAIT_ANY_MAX, an array
 * or a timeline NULL, timelines on different DRM fds), or another negative
 * errno.
 *
 * See also xcb_dri3_util_timeline_wait(), xcb_dri3_util_timeline_signal().
 */
int xcb_dri3_util_timeline_wait_any(xcb_dri3_util_timeline_t *const *timelines,
                                    const uint64_t *points, uint32_t n, int64_t timeout_ns,
                                    uint32_t *first);
/*
 * The last signalled point.  0 or a negative errno.
 *
 * See also xcb_dri3_util_timeline_signal(), xcb_dri3_util_timeline_wait().
 */
int xcb_dri3_util_timeline_query(xcb_dri3_util_timeline_t *tl, uint64_t *point);
/*
 * Destroys the syncobj and closes its fd.  NULL is allowed.
 *
 * See also xcb_dri3_util_timeline_create().
 */
void xcb_dri3_util_timeline_destroy(xcb_dri3_util_timeline_t *tl);



#ifdef __cplusplus
}
#endif

#endif
