/*
 * xcb_present_util_synced.h: presenting one pixmap with explicit sync
 * (Present 1.4 PresentPixmapSynced), without a swapchain (libxcb-present-
 * util; included by <xcb/xcb_present_util.h>, whose overview gives the
 * error rule and the sized-struct rule).
 *
 * For callers that own their pixmaps and DRM timeline syncobjs (a Vulkan
 * WSI, a GL loader; <xcb/xcb_dri3_util_sync.h> makes and imports the
 * syncobjs): the server waits for the acquire point before it reads the
 * pixmap and signals the release point once it no longer needs it; no
 * IdleNotify comes.  Nothing here waits for the presentation.  What the
 * server offers is checked before anything is sent: DRI3 1.4 and Present
 * 1.4 from libxcb-dri3-util's probe, and the Syncobj capability of the
 * window itself (PresentQueryCapabilities: a window on a CRTC without it
 * cannot take the request even when the root can).  That answer is kept
 * per connection for the last window asked, so a frame loop on one window
 * makes the round trip once.
 */
#ifndef XCB_PRESENT_UTIL_SYNCED_H
#define XCB_PRESENT_UTIL_SYNCED_H

#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/present.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What PresentPixmapSynced takes, field for field (presentproto.txt). */
typedef struct {
    uint32_t size;                      /* sizeof; the sized-struct rule */
    xcb_window_t window;
    xcb_pixmap_t pixmap;
    uint32_t serial;                    /* comes back in CompleteNotify */
    xcb_xfixes_region_t valid, update;  /* XCB_NONE: the whole pixmap */
    int16_t x_off, y_off;               /* the pixmap's place in the window */
    xcb_randr_crtc_t target_crtc;       /* XCB_NONE: the server's choice */
    xcb_dri3_syncobj_t acquire_syncobj, release_syncobj;
    uint64_t acquire_point, release_point;
    uint32_t options;                   /* XCB_PRESENT_OPTION_* */
    uint64_t target_msc, divisor, remainder;
    const xcb_present_notify_t *notifies;   /* windows told with the same serial */
    uint32_t n_notifies;
} xcb_present_util_synced_t;

/*
 * Zeroes *s and sets its size.  NULL does nothing.
 *
 * See also xcb_present_util_present_pixmap_synced().
 */
void xcb_present_util_synced_init(xcb_present_util_synced_t *s);

/*
 * Sends PresentPixmapSynced with every field of *s.  The request is not
 * waited for: when cookie is not NULL it is checked and *cookie receives
 * its cookie, for a bounded xcb_dri3_util_wait_void(); without a cookie
 * an X error goes to the event queue.  Round trips (bounded by the
 * connection's timeout): the probe on a connection's first call, and the
 * window's capabilities when the window is not the one asked last.
 *
 * Returns 0, or a negative errno, also in errno, with nothing sent:
 * -EINVAL (s NULL or its size below the first version; what the server
 * would refuse with BadValue: a point of 0, a syncobj of XCB_NONE, acquire
 * >= release on one syncobj, divisor 0 with a remainder, remainder >=
 * divisor, an unknown option bit or AsyncMayTear without its capability;
 * notifies NULL with a count), -ENOTSUP (no DRI3 1.4, no Present 1.4, or
 * the window lacks the Syncobj capability), -ENODEV (no such window),
 * -EPIPE, -ETIMEDOUT, -ECANCELED (the caller's scope).
 *
 * See also xcb_present_util_synced_init(), xcb_present_util_present_synced(),
 * xcb_dri3_util_syncobj_import(), xcb_dri3_util_timeline_create().
 */
int xcb_present_util_present_pixmap_synced(xcb_connection_t *c,
                                           const xcb_present_util_synced_t *s,
                                           xcb_void_cookie_t *cookie);

/*
 * Present a pixmap with explicit acquire and release points.
 *
 * xcb_present_util_present_pixmap_synced() with the whole pixmap, at
 * offset 0, on any CRTC, with no notifies: the same checks and returns.
 *
 * See also xcb_present_util_present_pixmap_synced(),
 * xcb_dri3_util_syncobj_import(), xcb_dri3_util_timeline_create(),
 * xcb_dri3_util_probe().
 */
int xcb_present_util_present_synced(xcb_connection_t *c, xcb_window_t window,
                                    xcb_pixmap_t pixmap, uint32_t serial,
                                    xcb_dri3_syncobj_t acquire_syncobj, uint64_t acquire_point,
                                    xcb_dri3_syncobj_t release_syncobj, uint64_t release_point,
                                    uint32_t options, uint64_t target_msc, uint64_t divisor,
                                    uint64_t remainder, xcb_void_cookie_t *cookie);

#ifdef __cplusplus
}
#endif

#endif
