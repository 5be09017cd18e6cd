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
 * Prepare the arguments of a synced presentation.  Zeroes *s and sets s->size
 * to sizeof(xcb_present_util_synced_t), as the program's header knows it.
 * Zero is each field's default: no valid or update region (the whole pixmap),
 * offset 0, no target CRTC (the server chooses), no options, MSC 0 with
 * divisor and remainder 0, no notifies.  The window, the pixmap and the
 * syncobjs and their points are left for the caller to fill in.
 *
 * The library reads only the first size bytes, so that a program built against
 * an older header keeps working with a newer library whose struct has more
 * fields at its end; a size smaller than the struct's first version is refused
 * with -EINVAL.  s may be NULL, which does nothing.
 *
 * See also xcb_present_util_present_pixmap_synced().
 */
void xcb_present_util_synced_init(xcb_present_util_synced_t *s);

/*
 * Present a pixmap with explicit sync, every field given.  Sends Present
 * PixmapSynced (Present 1.4) with the fields of *s, which
 * xcb_present_util_synced_init() prepares: the server shows pixmap in window
 * at offset x_off, y_off, updating the part that update names (the region of
 * XFixes; XCB_NONE: all of it), on target_crtc (XCB_NONE: the server's
 * choice), at the MSC that target_msc, divisor and remainder select, once
 * acquire_point of acquire_syncobj is signalled; it signals release_point of
 * release_syncobj when it no longer needs the pixmap.  No IdleNotify comes for
 * such a presentation.  The windows in notifies get a CompleteNotify with
 * their serial when this presentation completes.  The syncobjs are XIDs from
 * xcb_dri3_util_syncobj_import().
 *
 * Before it sends, the function checks what the server would refuse with
 * BadValue, asks the probe (xcb_dri3_util_probe()) for DRI3 1.4 and Present
 * 1.4, and asks the window itself for the Syncobj capability
 * (PresentQueryCapabilities): a window on a CRTC without it cannot take the
 * request even when the root window can.  The window's answer is kept per
 * connection for the last window asked, so that a frame loop on one window
 * pays for the round trip once; asking about another window replaces it.  The
 * round trips share one deadline, the connection's timeout
 * (xcb_dri3_util_set_timeout()), capped by the caller's scope.
 *
 * The request itself is not waited for: when cookie is not NULL it is checked
 * and *cookie receives its cookie, for a bounded xcb_dri3_util_wait_void();
 * otherwise an X error goes to the event queue.
 *
 * Returns 0, or a negative errno (also in errno), with nothing sent: -EINVAL
 * (s NULL or its size below the first version; a point of 0, a syncobj of
 * XCB_NONE, an acquire point not below the release point on the same syncobj,
 * a divisor of 0 with a remainder, a remainder not below the divisor, an
 * unknown option bit, AsyncMayTear on a window without that capability,
 * notifies NULL with a count, or more than 32756 notifies), -ENOTSUP (no DRI3
 * 1.4 or Present 1.4, or the window lacks the Syncobj capability), -ENODEV
 * (the server refused the capability query: no such window), -EPIPE,
 * -ETIMEDOUT or -ECANCELED (a round trip did not end in time, or the caller's
 * scope was cancelled), -EPROTO.
 *
 * See also xcb_present_util_synced_init(), xcb_present_util_present_synced(),
 * xcb_dri3_util_syncobj_import(), xcb_dri3_util_timeline_create().
 */
int xcb_present_util_present_pixmap_synced(xcb_connection_t *c,
                                           const xcb_present_util_synced_t *s,
                                           xcb_void_cookie_t *cookie);

/*
 * Present a pixmap with explicit acquire and release points.  Sends Present
 * PixmapSynced (Present 1.4): the server shows pixmap in window at the MSC
 * that target_msc, divisor and remainder select (as for PresentPixmap), once
 * acquire_point of acquire_syncobj is signalled, and signals release_point of
 * release_syncobj when it no longer needs the pixmap.  No IdleNotify comes for
 * such a presentation: the release point says when the buffer is free.  The
 * whole pixmap updates the whole window, on any CRTC, with no notifies;
 * options are Present's XCB_PRESENT_OPTION_* bits and serial comes back in the
 * CompleteNotify event.  The syncobjs are XIDs from
 * xcb_dri3_util_syncobj_import().
 *
 * It is xcb_present_util_present_pixmap_synced() with those fields and the
 * others at their defaults, and makes the same checks: the request is sent
 * only when the probe found DRI3 1.4 and Present 1.4 and the window itself has
 * the Syncobj capability (asked once for the last window on the connection).
 * It is not waited for: when cookie is not NULL the request is checked and
 * *cookie receives its cookie, for a bounded xcb_dri3_util_wait_void();
 * otherwise an X error goes to the event queue.
 *
 * Returns 0, or a negative errno (also in errno): -EINVAL (a point of 0, a
 * syncobj of XCB_NONE, an acquire point not below the release point on the
 * same syncobj, a divisor of 0 with a remainder, a remainder not below the
 * divisor), -ENOTSUP (the server or the window lacks what it needs), -ENODEV
 * (no such window), -EPIPE, or, when it makes a round trip, -ETIMEDOUT,
 * -ECANCELED or -EPROTO; nothing is sent on failure.
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
