/*
 * Presenting with explicit sync (Present 1.4 PresentPixmapSynced): the
 * server waits for an acquire point before it reads the pixmap and
 * signals a release point when it is done, instead of the implicit fences
 * and IdleNotify of PresentPixmap.  A Present request, so it lives here;
 * what the server offers comes from libxcb-dri3-util's probe.
 */
#include "xcb_present_util.h"
#include "xcb_dri3_util.h"

#include <errno.h>
#include <xcb/present.h>

int xcb_present_util_present_synced(xcb_connection_t *c, xcb_window_t window,
                                    xcb_pixmap_t pixmap, uint32_t serial,
                                    xcb_dri3_syncobj_t acquire_syncobj, uint64_t acquire_point,
                                    xcb_dri3_syncobj_t release_syncobj, uint64_t release_point,
                                    uint32_t options, uint64_t target_msc, uint64_t divisor,
                                    uint64_t remainder, xcb_void_cookie_t *cookie)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    xcb_void_cookie_t ck;
    int ret = xcb_dri3_util_probe(c, &caps);

    if (ret == 0 &&
        (!caps.dri3 || !caps.present || (caps.dri3_major == 1 && caps.dri3_minor < 4) ||
         (caps.present_major == 1 && caps.present_minor < 4) ||
         !(caps.present_caps & XCB_PRESENT_CAPABILITY_SYNCOBJ)))
        ret = -ENOTSUP;
    /* What the server would refuse with BadValue, refused here, where the
     * caller can see which call was wrong. */
    if (ret == 0 &&
        (acquire_point == 0 || release_point == 0 || acquire_syncobj == XCB_NONE ||
         release_syncobj == XCB_NONE ||
         (acquire_syncobj == release_syncobj && acquire_point >= release_point) ||
         (divisor == 0 && remainder != 0) || (divisor != 0 && remainder >= divisor)))
        ret = -EINVAL;
    if (ret < 0)
        return ret;
    /* Checked only when the caller takes the cookie; otherwise an error
     * goes to the event queue like any unchecked request's. */
    if (cookie)
        ck = xcb_present_pixmap_synced_checked(c, window, pixmap, serial, XCB_NONE, XCB_NONE,
                                               0, 0, XCB_NONE, acquire_syncobj,
                                               release_syncobj, acquire_point, release_point,
                                               options, target_msc, divisor, remainder, 0,
                                               NULL);
    else
        ck = xcb_present_pixmap_synced(c, window, pixmap, serial, XCB_NONE, XCB_NONE, 0, 0,
                                       XCB_NONE, acquire_syncobj, release_syncobj,
                                       acquire_point, release_point, options, target_msc,
                                       divisor, remainder, 0, NULL);
    if (cookie)
        *cookie = ck;
    return 0;
}
