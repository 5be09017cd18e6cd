/*
 * <xcb/present.h> must compile on its own, as the first and only project
 * header of a translation unit: it has to include what it uses itself
 * (randr.h, xfixes.h, sync.h and, in ours, dri3.h for the 1.4 syncobj type).
 * C99 and library-free; see self-contained-dri3.c.
 */
#include <xcb/present.h>

#include <stdio.h>

int main(void)
{
    xcb_present_notify_t notify = { XCB_NONE, 0 };
    xcb_xfixes_region_t region = XCB_NONE;    /* from xfixes.h */
    xcb_randr_crtc_t crtc = XCB_NONE;         /* from randr.h */
    xcb_sync_fence_t fence = XCB_NONE;        /* from sync.h */
    int ok = sizeof(xcb_present_pixmap_request_t) == 72
             && XCB_PRESENT_PIXMAP == 1 && notify.serial == 0
             && region == 0 && crtc == 0 && fence == 0;

    printf("1..1\n%s 1 - <xcb/present.h> compiles as the only header\n",
           ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
