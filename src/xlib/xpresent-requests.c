/*
 * Present's requests, sent by libxcb-present on the Display's own XCB
 * connection.  libxcb makes Xlib flush what it has buffered before our
 * request goes out, so Xlib and XCB requests keep the order the program
 * made them in.  Our requests are unchecked: an X error caused by one goes
 * into the event stream that Xlib reads, and so reaches the program's
 * XSetErrorHandler() with Present's major and minor opcode, as it would
 * for a request Xlib had sent itself.
 *
 * No Display lock is held while calling libxcb: when libxcb asks Xlib to
 * give the socket back, Xlib takes that lock itself.
 */
#include "xpresent-private.h"

#include <stdbool.h>
#include <stdlib.h>
#include <xcb/present.h>

/* The same as XSynchronize(dpy, True) gives Xlib's own requests. */
static void after_request(Display *dpy)
{
    if (dpy->synchandler)
        (*dpy->synchandler)(dpy);
}

/* An X error that ended a round trip went into the event stream (the
 * request was unchecked); a sync lets Xlib read it and call the error
 * handler before we return, as libXpresent's callers expect. */
static void after_failed_reply(Display *dpy)
{
    XSync(dpy, False);
}

/* Xlib's notify entries hold a Window (unsigned long) where the wire holds
 * 32 bits: they go into a local array, on the stack when small. */
enum { NOTIFIES_ON_STACK = 64 };

struct wire_notifies {
    xcb_present_notify_t stack[NOTIFIES_ON_STACK];
    xcb_present_notify_t *list;     /* stack, or allocated */
    uint32_t n;
};

/* The caller's notifies (none when n < 0 or notifies is NULL) in w; false
 * when out of memory, and then the request is not sent. */
static bool wire_notifies_make(struct wire_notifies *w, const XPresentNotify *notifies, int n)
{
    if (n < 0 || !notifies)
        n = 0;
    w->list = n <= NOTIFIES_ON_STACK ? w->stack : calloc((size_t)n, sizeof(*w->list));
    if (!w->list)
        return false;
    for (int i = 0; i < n; i++) {
        w->list[i].window = (xcb_window_t)notifies[i].window;
        w->list[i].serial = notifies[i].serial;
    }
    w->n = (uint32_t)n;
    return true;
}

static void wire_notifies_free(struct wire_notifies *w)
{
    if (w->list != w->stack)
        free(w->list);
}

Status XPresentQueryVersion(Display *dpy, int *major_version_return, int *minor_version_return)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    if (!c)
        return 0;
    xcb_present_query_version_cookie_t ck = xcb_present_query_version_unchecked(
        c, XPRESENT_MAJOR_VERSION, XPRESENT_MINOR_VERSION);
    xcb_present_query_version_reply_t *r = xcb_present_query_version_reply(c, ck, NULL);
    if (!r) {
        after_failed_reply(dpy);
        return 0;
    }
    if (major_version_return)
        *major_version_return = (int)r->major_version;
    if (minor_version_return)
        *minor_version_return = (int)r->minor_version;
    free(r);
    return 1;
}

uint32_t XPresentQueryCapabilities(Display *dpy, XID target)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    if (!c)
        return 0;
    xcb_present_query_capabilities_cookie_t ck =
        xcb_present_query_capabilities_unchecked(c, (uint32_t)target);
    xcb_present_query_capabilities_reply_t *r =
        xcb_present_query_capabilities_reply(c, ck, NULL);
    if (!r) {
        after_failed_reply(dpy);
        return 0;
    }
    uint32_t caps = r->capabilities;
    free(r);
    return caps;
}

void XPresentPixmap(Display *dpy, Window window, Pixmap pixmap, uint32_t serial,
                    XserverRegion valid, XserverRegion update, int x_off, int y_off,
                    RRCrtc target_crtc, XSyncFence wait_fence, XSyncFence idle_fence,
                    uint32_t options, uint64_t target_msc, uint64_t divisor,
                    uint64_t remainder, XPresentNotify *notifies, int nnotifies)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    struct wire_notifies wn;
    if (!c || !wire_notifies_make(&wn, notifies, nnotifies))
        return;
    xcb_present_pixmap(c, (xcb_window_t)window, (xcb_pixmap_t)pixmap, serial,
                       (xcb_xfixes_region_t)valid, (xcb_xfixes_region_t)update,
                       (int16_t)x_off, (int16_t)y_off, (xcb_randr_crtc_t)target_crtc,
                       (xcb_sync_fence_t)wait_fence, (xcb_sync_fence_t)idle_fence, options,
                       target_msc, divisor, remainder, wn.n, wn.list);
    wire_notifies_free(&wn);
    after_request(dpy);
}

void XPresentPixmapSynced(Display *dpy, Window window, Pixmap pixmap, uint32_t serial,
                          XserverRegion valid, XserverRegion update, int x_off, int y_off,
                          RRCrtc target_crtc, XID acquire_syncobj, XID release_syncobj,
                          uint64_t acquire_point, uint64_t release_point, uint32_t options,
                          uint64_t target_msc, uint64_t divisor, uint64_t remainder,
                          XPresentNotify *notifies, int nnotifies)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    struct wire_notifies wn;
    if (!c || !wire_notifies_make(&wn, notifies, nnotifies))
        return;
    xcb_present_pixmap_synced(c, (xcb_window_t)window, (xcb_pixmap_t)pixmap, serial,
                              (xcb_xfixes_region_t)valid, (xcb_xfixes_region_t)update,
                              (int16_t)x_off, (int16_t)y_off, (xcb_randr_crtc_t)target_crtc,
                              (xcb_dri3_syncobj_t)acquire_syncobj,
                              (xcb_dri3_syncobj_t)release_syncobj, acquire_point,
                              release_point, options, target_msc, divisor, remainder,
                              wn.n, wn.list);
    wire_notifies_free(&wn);
    after_request(dpy);
}

void XPresentNotifyMSC(Display *dpy, Window window, uint32_t serial, uint64_t target_msc,
                       uint64_t divisor, uint64_t remainder)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    if (!c)
        return;
    xcb_present_notify_msc(c, (xcb_window_t)window, serial, target_msc, divisor, remainder);
    after_request(dpy);
}

XID XPresentSelectInput(Display *dpy, Window window, unsigned event_mask)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    if (!c)
        return None;
    uint32_t eid = xcb_generate_id(c);
    if (eid == (uint32_t)-1)
        return None;
    xcb_present_select_input(c, eid, (xcb_window_t)window, event_mask);
    after_request(dpy);
    return eid;
}

void XPresentFreeInput(Display *dpy, Window window, XID event_id)
{
    xcb_connection_t *c = xpresent_connection(dpy);
    if (!c)
        return;
    xcb_present_select_input(c, (xcb_present_event_t)event_id, (xcb_window_t)window,
                             XCB_PRESENT_EVENT_MASK_NO_EVENT);
    after_request(dpy);
}
