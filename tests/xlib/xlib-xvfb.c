/*
 * libXpresent against a real X server (a private Xvfb, which has Present
 * on a 60 Hz fake CRTC and no DRI3): the queries, presentations and their
 * events read through XNextEvent + XGetEventData, NotifyMSC, Xlib and XCB
 * requests interleaved, and X errors reaching XSetErrorHandler.
 *
 * Timing: only order, counts and "never early" are asserted; Xvfb's vblank
 * is a timer that fires late on a loaded machine.
 */
#include <X11/Xlib-xcb.h>
#include <X11/Xlibint.h> /* _XCopyEventCookie, for XPeekEvent and XIfEvent users */
#include <X11/extensions/extutil.h>
#include <stdint.h>
#include <stdlib.h>
#include <xcb/present.h>
#include <xcb/xcb.h>

#include "test-runner.h"
#include "xlib-util.h"

XExtDisplayInfo *XPresentFindDisplay(Display *dpy);

enum { WAIT_MS = 5000 };

/* The header of every Present event matches its cookie. */
static void check_header(struct xt *t, const XEvent *ev, int evtype)
{
    const XPresentEvent *pe = ev->xcookie.data;
    CHECK_EQ(ev->xcookie.type, GenericEvent);
    CHECK_EQ(ev->xcookie.extension, t->opcode);
    CHECK_EQ(ev->xcookie.evtype, evtype);
    CHECK_EQ(pe->type, GenericEvent);
    CHECK_EQ(pe->extension, t->opcode);
    CHECK_EQ(pe->evtype, evtype);
    CHECK(pe->display == t->dpy);
    CHECK_EQ(pe->send_event, False);
    CHECK_EQ(pe->serial, ev->xcookie.serial);
    CHECK(pe->serial > 0);
    CHECK(pe->serial < NextRequest(t->dpy));
}

TEST(query_extension_version_capabilities)
{
    struct xt t;
    xt_setup(&t);
    int op, ev, err;
    CHECK(XQueryExtension(t.dpy, PRESENT_NAME, &op, &ev, &err));
    CHECK_EQ(t.opcode, op);
    CHECK_EQ(t.event_base, ev);
    CHECK_EQ(t.error_base, err);

    int major = -1, minor = -1;
    CHECK(XPresentQueryVersion(t.dpy, &major, &minor));
    CHECK_EQ(major, 1);
    CHECK(minor >= 2 && minor <= XPRESENT_MINOR_VERSION);

    /* The same answer as libxcb-present gives on the same connection. */
    uint32_t caps = XPresentQueryCapabilities(t.dpy, t.win);
    xcb_connection_t *c = XGetXCBConnection(t.dpy);
    xcb_present_query_capabilities_reply_t *r =
        xcb_present_query_capabilities_reply(c, xcb_present_query_capabilities(c, t.win), NULL);
    CHECK(r != NULL);
    CHECK_EQ(caps, r->capabilities);
    free(r);
    CHECK_EQ(caps & ~(uint32_t)(PresentCapabilityAsync | PresentCapabilityFence |
                                PresentCapabilityUST | PresentCapabilityAsyncMayTear |
                                PresentCapabilitySyncobj), 0);
    CHECK(XPresentVersion() == XPRESENT_VERSION);
    CHECK(XPRESENT_VERSION >= 10400);
    xt_teardown(&t);
}

enum { FRAMES = 60 };

TEST(present_60_frames_complete_and_idle)
{
    struct xt t;
    xt_setup(&t);
    xt_errors_record(t.dpy);
    Pixmap pix[2];
    for (int i = 0; i < 2; i++)
        pix[i] = XCreatePixmap(t.dpy, t.win, 64, 64, DefaultDepth(t.dpy, 0));
    XID eid = XPresentSelectInput(t.dpy, t.win,
                                  PresentCompleteNotifyMask | PresentIdleNotifyMask);
    CHECK(eid != None);

    uint64_t target = 0, last_msc = 0, last_ust = 0;
    int idles = 0, skips = 0;
    bool idle_seen[FRAMES + 1] = { false };
    for (uint32_t serial = 1; serial <= FRAMES; serial++) {
        XPresentPixmap(t.dpy, t.win, pix[serial % 2], serial, None, None, 0, 0, None, None,
                       None, PresentOptionNone, target, 0, 0, NULL, 0);
        bool completed = false;
        while (!completed) {
            XEvent ev;
            CHECK(xt_next_present(&t, &ev, WAIT_MS));
            if (ev.xcookie.evtype == PresentIdleNotify) {
                check_header(&t, &ev, PresentIdleNotify);
                const XPresentIdleNotifyEvent *ie = ev.xcookie.data;
                CHECK_EQ(ie->eid, eid);
                CHECK_EQ(ie->window, t.win);
                CHECK(ie->serial_number >= 1 && ie->serial_number <= serial);
                CHECK(!idle_seen[ie->serial_number]);
                idle_seen[ie->serial_number] = true;
                CHECK_EQ(ie->pixmap, pix[ie->serial_number % 2]);
                CHECK_EQ(ie->idle_fence, None);
                idles++;
            } else {
                check_header(&t, &ev, PresentCompleteNotify);
                const XPresentCompleteNotifyEvent *ce = ev.xcookie.data;
                CHECK_EQ(ce->eid, eid);
                CHECK_EQ(ce->window, t.win);
                CHECK_EQ(ce->serial_number, serial);
                CHECK_EQ(ce->kind, PresentCompleteKindPixmap);
                CHECK_EQ(ce->mode, PresentCompleteModeCopy);
                /* Never early, MSC and UST increasing, and a skipped
                 * vblank shows in UST as well: Xvfb's MSC is UST rounded
                 * to the nearest frame, so k frames on are more than
                 * max(k - 1, 1/2) frame periods later. */
                CHECK(ce->msc >= target);
                if (serial > 1) {
                    CHECK(ce->msc > last_msc);
                    CHECK(ce->ust > last_ust);
                    if (ce->msc != last_msc + 1)
                        skips++;
                    uint64_t frames = ce->msc - last_msc;
                    CHECK(ce->ust - last_ust >= frames * 16667 / 2);
                }
                last_msc = ce->msc;
                last_ust = ce->ust;
                target = ce->msc + 1;
                completed = true;
            }
            XFreeEventData(t.dpy, &ev.xcookie);
        }
    }
    /* IdleNotify may trail the last CompleteNotify. */
    while (idles < FRAMES) {
        XEvent ev;
        CHECK(xt_next_present(&t, &ev, WAIT_MS));
        CHECK_EQ(ev.xcookie.evtype, PresentIdleNotify);
        const XPresentIdleNotifyEvent *ie = ev.xcookie.data;
        CHECK(!idle_seen[ie->serial_number]);
        idle_seen[ie->serial_number] = true;
        idles++;
        XFreeEventData(t.dpy, &ev.xcookie);
    }
    /* Consecutive MSCs need the client to turn each frame around within
     * a vblank and Xvfb's timer to fire on time: on a loaded machine
     * neither holds, so the count is a note, not a check. */
    test_note("%d of %d frames came after a skipped vblank", skips, FRAMES - 1);
    XPresentFreeInput(t.dpy, t.win, eid);
    XSync(t.dpy, False);
    CHECK_EQ(xt_nerrors, 0);
    xt_teardown(&t);
}

TEST(notify_msc_divisor_remainder)
{
    struct xt t;
    xt_setup(&t);
    XID eid = XPresentSelectInput(t.dpy, t.win, PresentCompleteNotifyMask);
    XEvent ev;

    /* target 0 with no divisor: the current frame, at once. */
    XPresentNotifyMSC(t.dpy, t.win, 7, 0, 0, 0);
    CHECK(xt_next_present(&t, &ev, WAIT_MS));
    check_header(&t, &ev, PresentCompleteNotify);
    const XPresentCompleteNotifyEvent *ce = ev.xcookie.data;
    CHECK_EQ(ce->kind, PresentCompleteKindNotifyMSC);
    CHECK_EQ(ce->serial_number, 7);
    CHECK_EQ(ce->eid, eid);
    CHECK_EQ(ce->window, t.win);
    uint64_t now = ce->msc;
    XFreeEventData(t.dpy, &ev.xcookie);

    /* A target already passed (0): the next frame with msc % 4 == 1,
     * which is at least the first such frame after "now".  Xvfb's vblank
     * is a timer that fires late under load and then reports a later MSC,
     * so the remainder itself is only a note, "never early" the check; a
     * divisor lost on the way would complete at once, mostly before it. */
    int on_time = 0;
    for (uint32_t serial = 8; serial < 12; serial++) {
        uint64_t first = now + 1 + (4 + 1 - (now + 1) % 4) % 4;
        XPresentNotifyMSC(t.dpy, t.win, serial, 0, 4, 1);
        CHECK(xt_next_present(&t, &ev, WAIT_MS));
        ce = ev.xcookie.data;
        CHECK_EQ(ce->kind, PresentCompleteKindNotifyMSC);
        CHECK_EQ(ce->serial_number, serial);
        CHECK(ce->msc >= first);
        on_time += ce->msc % 4 == 1;
        now = ce->msc;
        XFreeEventData(t.dpy, &ev.xcookie);
    }
    test_note("%d of 4 divisor completions on their frame", on_time);

    /* A future target: that frame, never earlier. */
    XPresentNotifyMSC(t.dpy, t.win, 9, now + 3, 0, 0);
    CHECK(xt_next_present(&t, &ev, WAIT_MS));
    ce = ev.xcookie.data;
    CHECK_EQ(ce->serial_number, 9);
    CHECK(ce->msc >= now + 3);
    XFreeEventData(t.dpy, &ev.xcookie);
    xt_teardown(&t);
}

TEST(configure_notify_on_resize)
{
    struct xt t;
    xt_setup(&t);
    XID eid = XPresentSelectInput(t.dpy, t.win, PresentConfigureNotifyMask);
    XResizeWindow(t.dpy, t.win, 100, 50);
    XEvent ev;
    CHECK(xt_next_present(&t, &ev, WAIT_MS));
    check_header(&t, &ev, PresentConfigureNotify);
    const XPresentConfigureNotifyEvent *ce = ev.xcookie.data;
    CHECK_EQ(ce->eid, eid);
    CHECK_EQ(ce->window, t.win);
    CHECK_EQ(ce->width, 100);
    CHECK_EQ(ce->height, 50);
    CHECK_EQ(ce->pixmap_flags, 0);

    /* _XCopyEventCookie (what XPeekEvent uses) goes through our copy hook: a deep copy. */
    XGenericEventCookie copy;
    CHECK(_XCopyEventCookie(t.dpy, &ev.xcookie, &copy));
    CHECK(copy.data != ev.xcookie.data);
    CHECK_MEM(copy.data, ev.xcookie.data, sizeof(XPresentConfigureNotifyEvent));
    XFreeEventData(t.dpy, &ev.xcookie);
    free(copy.data);
    xt_teardown(&t);
}

/* Requests made through Xlib and through the XCB connection under it, with
 * no flush in between, reach the server in program order. */
TEST(xlib_and_xcb_interleaved)
{
    struct xt t;
    xt_setup(&t);
    xt_errors_record(t.dpy);
    xcb_connection_t *c = XGetXCBConnection(t.dpy);

    /* Xlib makes the window and the pixmap, we present at once. */
    Window w = xt_window(&t, 32, 32);
    XID eid = XPresentSelectInput(t.dpy, w, PresentCompleteNotifyMask);
    XMapWindow(t.dpy, w);
    Pixmap p = XCreatePixmap(t.dpy, w, 32, 32, DefaultDepth(t.dpy, 0));
    XPresentPixmap(t.dpy, w, p, 1, None, None, 0, 0, None, None, None, 0, 0, 0, 0, NULL, 0);
    /* XCB makes a pixmap, Xlib's next request uses it, we present it. */
    xcb_pixmap_t p2 = xcb_generate_id(c);
    xcb_create_pixmap(c, (uint8_t)DefaultDepth(t.dpy, 0), p2, (xcb_drawable_t)w, 32, 32);
    XFillRectangle(t.dpy, p2, DefaultGC(t.dpy, 0), 0, 0, 8, 8);
    XPresentPixmap(t.dpy, w, p2, 2, None, None, 0, 0, None, None, None, 0, 0, 0, 0, NULL, 0);
    /* A reply through XCB between Xlib requests. */
    xcb_get_geometry_reply_t *g =
        xcb_get_geometry_reply(c, xcb_get_geometry(c, (xcb_drawable_t)w), NULL);
    CHECK(g != NULL);
    CHECK_EQ(g->width, 32);
    free(g);
    XFreePixmap(t.dpy, p);

    uint32_t done = 0;
    for (int i = 0; i < 2; i++) {
        XEvent ev;
        CHECK(xt_next_present(&t, &ev, WAIT_MS));
        /* Both aim at the next vblank: the second may replace the first
         * (mode Skip), and the two events may come in either order. */
        const XPresentCompleteNotifyEvent *ce = ev.xcookie.data;
        CHECK_EQ(ce->eid, eid);
        CHECK(ce->serial_number == 1 || ce->serial_number == 2);
        done |= 1u << ce->serial_number;
        XFreeEventData(t.dpy, &ev.xcookie);
    }
    CHECK_EQ(done, 6);
    /* Xlib's own round trips still work and no request failed. */
    XWindowAttributes wa;
    CHECK(XGetWindowAttributes(t.dpy, w, &wa));
    CHECK_EQ(wa.width, 32);
    XSync(t.dpy, False);
    CHECK_EQ(xt_nerrors, 0);
    xt_teardown(&t);
}

TEST(errors_reach_xlib_error_handler)
{
    struct xt t;
    xt_setup(&t);
    xt_errors_record(t.dpy);
    Pixmap p = XCreatePixmap(t.dpy, t.win, 64, 64, DefaultDepth(t.dpy, 0));
    const Window bad = 0x3ffff0;

    XPresentPixmap(t.dpy, bad, p, 1, None, None, 0, 0, None, None, None, 0, 0, 0, 0, NULL, 0);
    XSync(t.dpy, False);
    CHECK_EQ(xt_nerrors, 1);
    CHECK_EQ(xt_errors[0].error_code, BadWindow);
    CHECK_EQ(xt_errors[0].request_code, t.opcode);
    CHECK_EQ(xt_errors[0].minor_code, X_PresentPixmap);
    CHECK_EQ(xt_errors[0].resourceid, bad);
    CHECK(xt_errors[0].display == t.dpy);

    xt_errors_reset();
    XPresentNotifyMSC(t.dpy, bad, 1, 0, 0, 0);
    XSync(t.dpy, False);
    CHECK_EQ(xt_nerrors, 1);
    CHECK_EQ(xt_errors[0].request_code, t.opcode);
    CHECK_EQ(xt_errors[0].minor_code, X_PresentNotifyMSC);

    /* A bad value: remainder >= divisor. */
    xt_errors_reset();
    XPresentNotifyMSC(t.dpy, t.win, 1, 0, 2, 5);
    XSync(t.dpy, False);
    CHECK_EQ(xt_nerrors, 1);
    CHECK_EQ(xt_errors[0].error_code, BadValue);
    CHECK_EQ(xt_errors[0].minor_code, X_PresentNotifyMSC);

    /* A round trip that fails: the handler runs before the call returns. */
    xt_errors_reset();
    CHECK_EQ(XPresentQueryCapabilities(t.dpy, bad), 0);
    CHECK_EQ(xt_nerrors, 1);
    CHECK_EQ(xt_errors[0].request_code, t.opcode);
    CHECK_EQ(xt_errors[0].minor_code, X_PresentQueryCapabilities);

    /* The connection is still good. */
    xt_errors_reset();
    CHECK(XPresentQueryCapabilities(t.dpy, t.win) != 0 || xt_nerrors == 0);
    XSync(t.dpy, False);
    CHECK_EQ(xt_nerrors, 0);
    xt_teardown(&t);
}

TEST(find_display_and_close_display)
{
    struct xt t;
    xt_setup(&t);
    /* libXpresent's .so exports XPresentFindDisplay (no header declares
     * it): libXext's record, with the extension's codes. */
    XExtDisplayInfo *info = XPresentFindDisplay(t.dpy);
    CHECK(info != NULL);
    CHECK(info->display == t.dpy);
    CHECK(info->codes != NULL);
    CHECK_EQ(info->codes->major_opcode, t.opcode);
    /* Two displays on one server get two records; closing one leaves the
     * other working. */
    Display *d2 = XOpenDisplay(t.server.display);
    CHECK(d2 != NULL);
    int op2;
    CHECK(XPresentQueryExtension(d2, &op2, NULL, NULL));
    CHECK_EQ(op2, t.opcode);
    XCloseDisplay(d2);
    int maj, min;
    CHECK(XPresentQueryVersion(t.dpy, &maj, &min));
    xt_teardown(&t);
}
