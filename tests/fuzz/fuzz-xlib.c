/*
 * Fuzz target: libXpresent (src/xlib) on a real Xlib Display, against the
 * scripted server of fuzz-xserver.c.  The fuzzed stream answers one of the
 * library's requests with replies and errors, or comes as Present events
 * (GenericEvent cookies: ConfigureNotify, CompleteNotify, IdleNotify,
 * RedirectNotify, unknown types; cut short, padded, lengths up to 64 KiB),
 * which reach the library's wire-to-cookie hook as Xlib queues them and
 * its copy hook through _XCopyEventCookie() (what XPeekEvent and XPeekIfEvent use).
 *
 * Input: byte 0: bit 0 the server has no Present; bit 1 cuts the stream
 * short instead of zero-padding it; bit 2 gives every Generic Event
 * Present's major opcode; bits 3-5 the script (scripts[] below).  Byte 1 % 5
 * is the number of fds sent with the stream (no Present reply has any);
 * byte 2 Present's major opcode (128 + its low 7 bits); bytes 3 and 4 the
 * extension's first event and first error; the rest is the stream (see
 * fuzz_stream_build).
 *
 * Findings: a sanitizer report; an fd left open that the harness did not
 * send; event data that does not match its cookie, or data where the
 * library must give none; a copy that fails or differs; and any input that
 * runs past FUZZ_XSERVER_TIMEOUT_MS (a wait without a bound).
 */
#include <X11/Xlibint.h>
#include <X11/extensions/Xpresent.h>
#include <X11/extensions/extutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-conn.h"
#include "fuzz-xserver.h"
#include "test-clock.h"

/* Exported by libXpresent for compatibility, in no header. */
XExtDisplayInfo *XPresentFindDisplay(Display *dpy);

/* More than a stream of 128 KiB can hold. */
enum { MAX_EVENTS = 8192 };

static const char *display_name;

static int quiet_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    fuzz_touch(e, sizeof(*e));
    return 0;
}

/* Xlib calls exit() after an I/O error unless both handlers return. */
static int quiet_io_error(Display *dpy)
{
    (void)dpy;
    return 0;
}

static void no_exit(Display *dpy, void *data)
{
    (void)dpy;
    (void)data;
}

/* ---- the calls ------------------------------------------------------------ */

static XPresentNotify notifies[3] = { { 0x200001, 1 }, { 0x200002, 2 }, { 0x200003, 3 } };

static void script_queries(Display *dpy)
{
    int major = -1, minor = -1;
    XPresentQueryVersion(dpy, &major, &minor);
    fuzz_touch(&(int[]){ major, minor }, 2 * sizeof(int));
    fuzz_touch(&(uint32_t){ XPresentQueryCapabilities(dpy, DefaultRootWindow(dpy)) }, 4);
}

static void script_capabilities(Display *dpy)
{
    fuzz_touch(&(uint32_t){ XPresentQueryCapabilities(dpy, DefaultRootWindow(dpy)) }, 4);
    XPresentQueryVersion(dpy, NULL, NULL);
}

static void script_select(Display *dpy)
{
    XID eid = XPresentSelectInput(dpy, DefaultRootWindow(dpy), PresentAllEvents);
    XSync(dpy, False);
    XPresentFreeInput(dpy, DefaultRootWindow(dpy), eid);
}

static void script_pixmap(Display *dpy)
{
    XPresentPixmap(dpy, DefaultRootWindow(dpy), 0x200010, 7, None, None, 0, 0, None, None, None,
                   PresentOptionAsync, 100, 2, 1, notifies, 3);
    XSync(dpy, False);
}

static void script_notify_msc(Display *dpy)
{
    XPresentNotifyMSC(dpy, DefaultRootWindow(dpy), 9, 0, 4, 3);
    XSync(dpy, False);
}

static void script_pixmap_synced(Display *dpy)
{
    XPresentPixmapSynced(dpy, DefaultRootWindow(dpy), 0x200010, 8, None, None, 0, 0, None,
                         0x200011, 0x200012, 1, 2, 0, 0, 0, 0, notifies, 2);
    XSync(dpy, False);
}

static void script_extension(Display *dpy)
{
    int op = 0, ev = 0, err = 0;
    XPresentQueryExtension(dpy, &op, &ev, &err);
    fuzz_touch(&(int[]){ op, ev, err, XPresentVersion() }, 4 * sizeof(int));
    XExtDisplayInfo *info = XPresentFindDisplay(dpy);
    if (info && info->display != dpy)
        fuzz_finding("XPresentFindDisplay() gave another Display's record");
    XSync(dpy, False);
}

static void script_free_input(Display *dpy)
{
    XPresentFreeInput(dpy, DefaultRootWindow(dpy), 0x200020);
    XSync(dpy, False);
}

static void (*const scripts[8])(Display *) = {
    script_queries, script_capabilities, script_select,        script_pixmap,
    script_notify_msc, script_pixmap_synced, script_extension, script_free_input,
};

/* ---- the events ------------------------------------------------------------ */

/* The size of the struct the library hands over for each type, written
 * from the header (not taken from the library: it is what is checked). */
static const size_t data_sizes[] = {
    [PresentConfigureNotify] = sizeof(XPresentConfigureNotifyEvent),
    [PresentCompleteNotify] = sizeof(XPresentCompleteNotifyEvent),
    [PresentIdleNotify] = sizeof(XPresentIdleNotifyEvent),
    [PresentRedirectNotify] = sizeof(XPresentRedirectNotifyEvent),
};

/* 0 for a type the library must not decode. */
static size_t data_size(const XGenericEventCookie *c)
{
    size_t n = sizeof(data_sizes) / sizeof(data_sizes[0]);
    return c->evtype >= 0 && (size_t)c->evtype < n ? data_sizes[c->evtype] : 0;
}

static void check_notifies(const XPresentRedirectNotifyEvent *r)
{
    if (r->nnotifies < 0 || (r->nnotifies > 0) != (r->notifies != NULL))
        fuzz_finding("RedirectNotify with %d notifies at %p", r->nnotifies,
                     (void *)r->notifies);
    if (r->nnotifies > 0)
        fuzz_touch(r->notifies, (size_t)r->nnotifies * sizeof(*r->notifies));
}

/* Every byte of the data, the header it repeats, and a copy of it. */
static void check_data(Display *dpy, XGenericEventCookie *c, int major)
{
    size_t size = data_size(c);
    const XPresentEvent *e = c->data;
    if (size == 0)
        fuzz_finding("data for an event of type %d, which Present does not have", c->evtype);
    if (c->extension != major)
        fuzz_finding("data for extension %d, not Present's %d", c->extension, major);
    fuzz_touch(e, size);
    if (e->type != c->type || e->extension != c->extension || e->evtype != c->evtype ||
        e->serial != c->serial || e->display != dpy)
        fuzz_finding("the data's header does not repeat its cookie's");
    if (c->evtype == PresentRedirectNotify)
        check_notifies(c->data);

    XGenericEventCookie copy;
    if (!_XCopyEventCookie(dpy, c, &copy))
        fuzz_finding("_XCopyEventCookie() failed on an event with data");
    if (copy.data == c->data || copy.type != c->type || copy.serial != c->serial ||
        copy.send_event != c->send_event || copy.display != c->display ||
        copy.extension != c->extension || copy.evtype != c->evtype)
        fuzz_finding("the copied cookie is not a copy");
    if (c->evtype == PresentRedirectNotify) {
        const XPresentRedirectNotifyEvent *a = c->data, *b = copy.data;
        check_notifies(b);
        if (a->nnotifies != b->nnotifies ||
            (a->nnotifies > 0 &&
             memcmp(a->notifies, b->notifies, (size_t)a->nnotifies * sizeof(*a->notifies))))
            fuzz_finding("the copied RedirectNotify has other notifies");
    } else if (memcmp(copy.data, c->data, size) != 0) {
        fuzz_finding("the copied event differs");
    }
    free(copy.data);
}

/* With FUZZ_DEBUG set: what each input reached, to see that seeds do. */
static void debug_counts(int events, int with_data)
{
    if (getenv("FUZZ_DEBUG"))
        fprintf(stderr, "fuzz-xlib: %d events, %d with Present data\n", events, with_data);
}

static void read_events(Display *dpy, bool present, int major)
{
    int n = 0, with_data = 0;
    for (; n < MAX_EVENTS && XPending(dpy) > 0; n++) {
        XEvent ev;
        XNextEvent(dpy, &ev);
        if (ev.type != GenericEvent)
            continue;
        XGenericEventCookie *c = &ev.xcookie;
        /* Without data a cookie must not claim to be Present's. */
        if (XGetEventData(dpy, c)) {
            if (!present)
                fuzz_finding("event data on a display without Present");
            check_data(dpy, c, major);
            XFreeEventData(dpy, c);
            with_data++;
        } else if (present && c->extension == major) {
            fuzz_finding("an event of Present's without data (type %d)", c->evtype);
        }
    }
    debug_counts(n, with_data);
}

/*
 * libX11 1.8's XCloseDisplay() looks at its free event slots and takes
 * any that looks like a cookie of an extension with a converter for one
 * with data, which it frees (_XFreeDisplayStructure, _XStoreEventCookie).
 * A Generic Event of an extension without a converter leaves such a slot
 * with only its header written (_XWireToEvent): the rest is uninitialised
 * and can name Present's slot (ASan fills fresh memory with 0xbe, slot 62:
 * Present at opcode 190), and libX11 then frees a wild pointer.  A known
 * finding of libX11's (README.md); the harness clears the free slots, as
 * libX11 should, so that a crash at close is one of ours.
 */
static void clear_free_event_slots(Display *dpy)
{
    for (_XQEvent *q = dpy->qfree; q; q = q->next)
        memset(&q->event, 0, sizeof(q->event));
}

/* ---- libFuzzer ------------------------------------------------------------ */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    display_name = fuzz_xserver_listen();
    if (!display_name)
        fuzz_finding("harness: the scripted X server cannot listen");
    XSetErrorHandler(quiet_error);
    XSetIOErrorHandler(quiet_io_error);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return -1;
    struct fuzz_fds before;
    fuzz_fds_snapshot(&before);
    int64_t start = test_now_ms();

    struct fuzz_xserver srv = {
        .present = !(data[0] & 1),
        .truncate = (data[0] & 2) != 0,
        .present_events = (data[0] & 4) != 0,
        .nfds = data[1] % (FUZZ_MAX_FDS + 1),
        .major = (uint8_t)(128 | (data[2] & 0x7f)),
        .first_event = data[3],
        .first_error = data[4],
        .input = data + 5,
        .input_len = size - 5,
    };
    if (!fuzz_xserver_start(&srv))
        fuzz_finding("harness: cannot start the scripted X server");
    Display *dpy = XOpenDisplay(display_name);
    if (!dpy)
        fuzz_finding("harness: XOpenDisplay(%s) failed", display_name);
    XSetIOErrorExitHandler(dpy, no_exit, NULL);

    scripts[(data[0] >> 3) & 7](dpy);
    read_events(dpy, srv.present, srv.major);
    clear_free_event_slots(dpy);
    XCloseDisplay(dpy);
    fuzz_xserver_join(&srv);

    int64_t took = test_now_ms() - start;
    int ours, libxcbs;
    fuzz_fds_leaked(&before, &srv.fc, 0, &ours, &libxcbs);
    if (ours > 0)
        fuzz_finding("%d fd(s) left open that the harness did not send", ours);
    if (srv.timed_out || took > FUZZ_XSERVER_TIMEOUT_MS)
        fuzz_finding("the input took %lld ms: something waited without a bound", (long long)took);
    return 0;
}
