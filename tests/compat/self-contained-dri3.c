/*
 * <xcb/dri3.h> must compile on its own, as the first and only project header
 * of a translation unit: libxcb's does, so programs include it that way.  It
 * must pull in everything it uses (<stdint.h> types, xcb.h, xproto.h) itself.
 * Deliberately C99 and library-free: built with -std=c99 -Wpedantic, which
 * Debian's header passes, it also catches newer C in the header.
 */
#include <xcb/dri3.h>

#include <stdio.h>

int main(void)
{
    /* Types from the header and from what it includes, used so that a
     * header which merely parses but declares nothing would fail. */
    xcb_dri3_open_cookie_t cookie = { 0 };
    xcb_drawable_t drawable = XCB_NONE;
    uint64_t modifier = 0;
    int ok = sizeof(xcb_dri3_pixmap_from_buffers_request_t) == 64
             && XCB_DRI3_OPEN == 1 && cookie.sequence == 0 && drawable == 0
             && modifier == 0;

    printf("1..1\n%s 1 - <xcb/dri3.h> compiles as the only header\n",
           ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
