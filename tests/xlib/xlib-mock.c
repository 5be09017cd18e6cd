/*
 * libXpresent against the mock X server: the Present 1.4 requests
 * (PixmapSynced, the AsyncMayTear option) on the wire byte for byte, read
 * back from the server's transcript and compared with encodings written
 * from the protocol specification; ConfigureNotify with the
 * window-destroyed flag; a server without Present; an unknown event.
 */
#include <X11/Xlib.h>
#include <X11/extensions/Xpresent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mock-display.h"
#include "mock-server.h"
#include "test-clock.h"
#include "test-runner.h"

/* Errors the handler saw, except the BadRequest answers of the mock to the
 * few core requests Xlib makes that it does not implement (CreateGC,
 * GetProperty, FreeGC for the default GC and the resource database). */
static XErrorEvent errors[16];
static int nerrors;

static int on_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    if (e->error_code == BadRequest && e->request_code < 128)
        return 0;
    if (nerrors < 16)
        errors[nerrors] = *e;
    nerrors++;
    return 0;
}

struct session {
    struct mock_display mock;
    Display *dpy;
    int opcode;
};

static void open_session(struct session *s, const char *const *args)
{
    XSetErrorHandler(on_error);
    nerrors = 0;
    if (mock_display_start(&s->mock, args) < 0)
        test_fail(__FILE__, __LINE__, "the mock server did not start");
    s->dpy = XOpenDisplay(s->mock.display);
    if (!s->dpy) {
        mock_display_cleanup(&s->mock);
        test_fail(__FILE__, __LINE__, "XOpenDisplay(%s) failed", s->mock.display);
    }
    s->opcode = 0;
    XPresentQueryExtension(s->dpy, &s->opcode, NULL, NULL);
}

/* Closes the display, stops the server and returns its transcript. */
static struct mock_transcript *close_session(struct session *s)
{
    XCloseDisplay(s->dpy);
    mock_display_stop(&s->mock);
    struct mock_transcript *t = mock_transcript_read(s->mock.transcript);
    mock_display_cleanup(&s->mock);
    CHECK(t != NULL);
    return t;
}

/* Encodings in the client's byte order, which is the wire's here. */
static void put16(uint8_t *b, size_t off, uint16_t v)
{
    memcpy(b + off, &v, 2);
}
static void put32(uint8_t *b, size_t off, uint32_t v)
{
    memcpy(b + off, &v, 4);
}
static void put64(uint8_t *b, size_t off, uint64_t v)
{
    memcpy(b + off, &v, 8);
}

/* The next GenericEvent of Present within 5 s, data fetched if it has
 * any; false on timeout. */
static bool next_present(struct session *s, XEvent *ev, bool *has_data)
{
    int64_t deadline = test_now_ms() + 5000;
    for (;;) {
        while (XPending(s->dpy) > 0) {
            XNextEvent(s->dpy, ev);
            if (ev->type == GenericEvent && ev->xcookie.extension == s->opcode) {
                *has_data = XGetEventData(s->dpy, &ev->xcookie);
                return true;
            }
        }
        if (!test_poll_until(ConnectionNumber(s->dpy), deadline, 0))
            return false;
    }
}

TEST(queries_on_the_mock)
{
    struct session s;
    open_session(&s, NULL);
    CHECK_EQ(s.opcode, MOCK_PRESENT_MAJOR);
    int major = 0, minor = 0;
    CHECK(XPresentQueryVersion(s.dpy, &major, &minor));
    CHECK_EQ(major, 1);
    CHECK_EQ(minor, 4);
    uint32_t caps = XPresentQueryCapabilities(s.dpy, DefaultRootWindow(s.dpy));
    CHECK_EQ(caps, PresentCapabilityAsync | PresentCapabilityFence | PresentCapabilityUST |
                       PresentCapabilityAsyncMayTear | PresentCapabilitySyncobj);
    XSync(s.dpy, False);
    CHECK_EQ(nerrors, 0);
    struct mock_transcript *t = close_session(&s);
    /* We asked for 1.4, the version this library speaks. */
    const struct mock_request_record *r = mock_transcript_find(t, MOCK_PRESENT_MAJOR, 0, 0);
    CHECK(r != NULL);
    uint8_t want[12] = { MOCK_PRESENT_MAJOR, 0 };
    put16(want, 2, 3);
    put32(want, 4, 1);
    put32(want, 8, 4);
    CHECK_EQ(r->length, sizeof(want));
    CHECK_MEM(r->data, want, sizeof(want));
    mock_transcript_free(t);
}

TEST(pixmap_synced_byte_for_byte)
{
    struct session s;
    open_session(&s, NULL);
    XPresentNotify notifies[2] = { { 0x00600001, 0xa1a2a3a4 }, { 0x00600002, 7 } };
    XPresentPixmapSynced(s.dpy, 0x00400001, 0x00400002, 0x11223344, 0x00400003, 0x00400004,
                         -3, 7, 0x00400005, 0x00400006, 0x00400007, 0x0102030405060708ull,
                         0x1112131415161718ull, PresentOptionAsyncMayTear | PresentOptionCopy,
                         0x2122232425262728ull, 4, 3, notifies, 2);
    XSync(s.dpy, False);
    /* The mock knows none of these XIDs: an error naming PixmapSynced. */
    CHECK(nerrors >= 1);
    CHECK_EQ(errors[0].request_code, MOCK_PRESENT_MAJOR);
    CHECK_EQ(errors[0].minor_code, X_PresentPixmapSynced);
    struct mock_transcript *t = close_session(&s);

    /* PresentPixmapSynced: 22 + 2n words, the notifies from byte 88. */
    uint8_t want[104] = { MOCK_PRESENT_MAJOR, 5 };
    put16(want, 2, 22 + 2 * 2);
    put32(want, 4, 0x00400001);     /* window */
    put32(want, 8, 0x00400002);     /* pixmap */
    put32(want, 12, 0x11223344);    /* serial */
    put32(want, 16, 0x00400003);    /* valid */
    put32(want, 20, 0x00400004);    /* update */
    put16(want, 24, (uint16_t)-3);  /* x_off */
    put16(want, 26, 7);             /* y_off */
    put32(want, 28, 0x00400005);    /* target_crtc */
    put32(want, 32, 0x00400006);    /* acquire_syncobj */
    put32(want, 36, 0x00400007);    /* release_syncobj */
    put64(want, 40, 0x0102030405060708ull);
    put64(want, 48, 0x1112131415161718ull);
    put32(want, 56, 16 | 2);        /* options: AsyncMayTear | Copy */
    put64(want, 64, 0x2122232425262728ull);
    put64(want, 72, 4);             /* divisor */
    put64(want, 80, 3);             /* remainder */
    put32(want, 88, 0x00600001);
    put32(want, 92, 0xa1a2a3a4);
    put32(want, 96, 0x00600002);
    put32(want, 100, 7);
    const struct mock_request_record *r =
        mock_transcript_find(t, MOCK_PRESENT_MAJOR, X_PresentPixmapSynced, 0);
    CHECK(r != NULL);
    CHECK_EQ(r->length, sizeof(want));
    CHECK_EQ(r->nfds, 0);
    CHECK_MEM(r->data, want, sizeof(want));
    mock_transcript_free(t);
}

TEST(async_may_tear_pixmap_byte_for_byte)
{
    struct session s;
    open_session(&s, NULL);
    Window w = XCreateSimpleWindow(s.dpy, DefaultRootWindow(s.dpy), 0, 0, 16, 16, 0, 0, 0);
    Pixmap p = XCreatePixmap(s.dpy, w, 16, 16, 24);
    XPresentNotify notify = { w, 5 };
    /* Right after Xlib's CreatePixmap, unflushed: it must go first. */
    XPresentPixmap(s.dpy, w, p, 9, None, None, 1, -1, None, None, None,
                   PresentOptionAsyncMayTear, 0, 0, 0, &notify, 1);
    XSync(s.dpy, False);
    CHECK_EQ(nerrors, 0);
    struct mock_transcript *t = close_session(&s);

    uint8_t want[80] = { MOCK_PRESENT_MAJOR, 1 };
    put16(want, 2, 18 + 2);
    put32(want, 4, (uint32_t)w);
    put32(want, 8, (uint32_t)p);
    put32(want, 12, 9);
    put16(want, 24, 1);
    put16(want, 26, (uint16_t)-1);
    put32(want, 40, 16);            /* options: AsyncMayTear */
    put32(want, 72, (uint32_t)w);
    put32(want, 76, 5);
    const struct mock_request_record *r =
        mock_transcript_find(t, MOCK_PRESENT_MAJOR, X_PresentPixmap, 0);
    CHECK(r != NULL);
    CHECK_EQ(r->length, sizeof(want));
    CHECK_MEM(r->data, want, sizeof(want));
    /* Program order: Xlib's CreatePixmap (53) went first, and between the
     * two only libxcb's own QueryExtension for Present (98). */
    const struct mock_request_record *cp = NULL;
    for (size_t i = 0; i < t->n; i++) {
        if (&t->requests[i] == r)
            break;
        if (cp)
            CHECK_EQ(t->requests[i].major, 98);
        if (t->requests[i].major == 53)
            cp = &t->requests[i];
    }
    CHECK(cp != NULL);
    CHECK(cp->seq < r->seq);
    mock_transcript_free(t);
}

TEST(configure_notify_window_destroyed)
{
    struct session s;
    open_session(&s, NULL);
    Window w = XCreateSimpleWindow(s.dpy, DefaultRootWindow(s.dpy), 0, 0, 32, 32, 0, 0, 0);
    XMapWindow(s.dpy, w);
    XID eid = XPresentSelectInput(s.dpy, w, PresentAllEvents);
    Pixmap p = XCreatePixmap(s.dpy, w, 32, 32, 24);
    /* Far in the future: it is still pending when the window goes. */
    XPresentPixmap(s.dpy, w, p, 1, None, None, 0, 0, None, None, None, 0, 1ull << 40, 0, 0,
                   NULL, 0);
    XDestroyWindow(s.dpy, w);
    XSync(s.dpy, False);

    bool destroyed = false, completed = false;
    XEvent ev;
    bool has_data;
    while (!destroyed && next_present(&s, &ev, &has_data)) {
        CHECK(has_data);
        if (ev.xcookie.evtype == PresentConfigureNotify) {
            const XPresentConfigureNotifyEvent *c = ev.xcookie.data;
            CHECK_EQ(c->eid, eid);
            CHECK_EQ(c->window, w);
            CHECK_EQ(c->type, GenericEvent);
            CHECK_EQ(c->extension, s.opcode);
            destroyed = (c->pixmap_flags & 1) != 0;
        }
        completed |= ev.xcookie.evtype == PresentCompleteNotify;
        XFreeEventData(s.dpy, &ev.xcookie);
    }
    CHECK(destroyed);
    CHECK(!completed);
    CHECK_EQ(nerrors, 0);
    mock_transcript_free(close_session(&s));
}

TEST(server_without_present)
{
    static const char *const args[] = { "--present-version", "none", NULL };
    struct session s;
    open_session(&s, args);
    int op = -1;
    CHECK(!XPresentQueryExtension(s.dpy, &op, NULL, NULL));
    CHECK_EQ(op, -1);
    int major = -1, minor = -1;
    CHECK_EQ(XPresentQueryVersion(s.dpy, &major, &minor), 0);
    CHECK_EQ(XPresentQueryCapabilities(s.dpy, DefaultRootWindow(s.dpy)), 0);
    CHECK_EQ(XPresentSelectInput(s.dpy, DefaultRootWindow(s.dpy), PresentAllEvents), None);
    XPresentPixmap(s.dpy, DefaultRootWindow(s.dpy), 1, 1, None, None, 0, 0, None, None, None,
                   0, 0, 0, 0, NULL, 0);
    XPresentNotifyMSC(s.dpy, DefaultRootWindow(s.dpy), 1, 0, 0, 0);
    /* Nothing went out, and the connection is alive. */
    Window root;
    int x, y;
    unsigned wd, ht, bw, depth;
    CHECK(XGetGeometry(s.dpy, DefaultRootWindow(s.dpy), &root, &x, &y, &wd, &ht, &bw, &depth));
    CHECK_EQ(nerrors, 0);
    struct mock_transcript *t = close_session(&s);
    for (size_t i = 0; i < t->n; i++)
        CHECK(t->requests[i].major < 128 || t->requests[i].major == 98 ||
              t->requests[i].major == MOCK_BIGREQ_MAJOR);
    mock_transcript_free(t);
}

TEST(unknown_event_has_no_data)
{
    static const char *const args[] = { "--fault", "bad-event:132.4", NULL };
    struct session s;
    open_session(&s, args);
    XPresentQueryCapabilities(s.dpy, DefaultRootWindow(s.dpy));
    /* It comes out as a GenericEvent that is not Present's (extension 0),
     * so that no program reads data it does not have. */
    XEvent ev;
    CHECK(XPending(s.dpy) > 0);
    XNextEvent(s.dpy, &ev);
    CHECK_EQ(ev.type, GenericEvent);
    CHECK_EQ(ev.xcookie.extension, 0);
    CHECK_EQ(ev.xcookie.evtype, 0xffff);
    CHECK(!XGetEventData(s.dpy, &ev.xcookie));
    CHECK(ev.xcookie.data == NULL);
    XFreeEventData(s.dpy, &ev.xcookie);
    /* Still usable afterwards. */
    int major, minor;
    CHECK(XPresentQueryVersion(s.dpy, &major, &minor));
    CHECK_EQ(nerrors, 0);
    mock_transcript_free(close_session(&s));
}
