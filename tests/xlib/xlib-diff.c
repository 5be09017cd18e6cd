/*
 * One Xlib Present session on a private Xvfb, printed in a form that does
 * not depend on timing or on XIDs: the queries, three presentations and
 * their Complete/Idle events, NotifyMSC with a divisor, a ConfigureNotify,
 * and X errors as the error handler sees them.  It uses only libXpresent
 * 1.0's API, so it builds against Debian's header as well as ours;
 * differential.sh runs it on both libraries and compares.
 *
 * Lines starting with "# " are for people (the library's path, the version
 * numbers that differ on purpose) and are not compared.
 */
#include <X11/Xlib.h>
#include <X11/extensions/Xpresent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-clock.h"
#include "xvfb-spawn.h"

static Display *dpy;
static int opcode;
static Window win;
static Pixmap pix[2];
static XID eid;
static const Window bad_window = 0x3ffff0;

/* Events and errors, collected as text, sorted before printing where their
 * order is not the protocol's to promise. */
static char lines[64][160];
static int nlines;

static int on_error(Display *d, XErrorEvent *e)
{
    (void)d;
    const char *res = e->resourceid == bad_window ? "bad" : "other";
    snprintf(lines[nlines++ % 64], sizeof(lines[0]),
             "error code=%d request=%s minor=%d resource=%s", e->error_code,
             e->request_code == opcode ? "Present" : "other", e->minor_code, res);
    return 0;
}

static const char *name_of(XID id)
{
    if (id == None)
        return "None";
    if (id == win)
        return "W";
    if (id == pix[0])
        return "P0";
    if (id == pix[1])
        return "P1";
    if (id == eid)
        return "E";
    return "?";
}

/* The next Present event's text, or 0 on a 5 s timeout.  *msc_out gets the
 * CompleteNotify's msc. */
static int next_event(char *out, size_t size, unsigned long long *msc_out)
{
    int64_t deadline = test_now_ms() + 5000;
    for (;;) {
        while (XPending(dpy)) {
            XEvent ev;
            XNextEvent(dpy, &ev);
            if (ev.type != GenericEvent || ev.xcookie.extension != opcode ||
                !XGetEventData(dpy, &ev.xcookie))
                continue;
            int evtype = ev.xcookie.evtype;
            const XPresentEvent *pe = ev.xcookie.data;
            int head_ok = pe->type == GenericEvent && pe->display == dpy &&
                          pe->extension == opcode && pe->evtype == evtype &&
                          pe->serial == ev.xcookie.serial && pe->serial < NextRequest(dpy);
            if (evtype == PresentCompleteNotify) {
                const XPresentCompleteNotifyEvent *c = ev.xcookie.data;
                snprintf(out, size, "complete head=%d eid=%s window=%s serial=%u kind=%d mode=%d",
                         head_ok, name_of(c->eid), name_of(c->window), c->serial_number,
                         c->kind, c->mode);
                *msc_out = (unsigned long long)c->msc;
            } else if (evtype == PresentIdleNotify) {
                const XPresentIdleNotifyEvent *i = ev.xcookie.data;
                snprintf(out, size, "idle head=%d eid=%s window=%s serial=%u pixmap=%s fence=%s",
                         head_ok, name_of(i->eid), name_of(i->window), i->serial_number,
                         name_of(i->pixmap), name_of(i->idle_fence));
            } else if (evtype == PresentConfigureNotify) {
                const XPresentConfigureNotifyEvent *c = ev.xcookie.data;
                snprintf(out, size,
                         "configure head=%d eid=%s window=%s x=%d y=%d size=%ux%u off=%d,%d "
                         "pixmap=%dx%d flags=%ld",
                         head_ok, name_of(c->eid), name_of(c->window), c->x, c->y, c->width,
                         c->height, c->off_x, c->off_y, c->pixmap_width, c->pixmap_height,
                         c->pixmap_flags);
            } else {
                snprintf(out, size, "evtype %d", evtype);
            }
            XFreeEventData(dpy, &ev.xcookie);
            return 1;
        }
        if (!test_poll_until(ConnectionNumber(dpy), deadline, 0))
            return 0;
    }
}

static int cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void flush_lines(const char *title)
{
    int n = nlines < 64 ? nlines : 64;
    qsort(lines, (size_t)n, sizeof(lines[0]), cmp);
    printf("%s\n", title);
    for (int i = 0; i < n; i++)
        printf("  %s\n", lines[i]);
    nlines = 0;
}

static void session(void)
{
    int op, ev, err, o2, e2, r2;
    XSetErrorHandler(on_error);
    int has = XPresentQueryExtension(dpy, &op, &ev, &err);
    XQueryExtension(dpy, PRESENT_NAME, &o2, &e2, &r2);
    opcode = op;
    printf("query-extension %d same-as-core=%d\n", has, op == o2 && ev == e2 && err == r2);
    int major = -1, minor = -1;
    Status st = XPresentQueryVersion(dpy, &major, &minor);
    printf("query-version status=%d major=%d\n", st != 0, major);
    printf("# server version %d.%d, XPresentVersion() %d\n", major, minor, XPresentVersion());

    win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 64, 64, 0, 0, 0);
    XMapWindow(dpy, win);
    for (int i = 0; i < 2; i++)
        pix[i] = XCreatePixmap(dpy, win, 64, 64, (unsigned)DefaultDepth(dpy, 0));
    printf("capabilities 0x%x\n", XPresentQueryCapabilities(dpy, win));
    eid = XPresentSelectInput(dpy, win, PresentAllEvents);
    printf("select-input eid=%s\n", eid != None ? "new" : "None");

    /* Three frames, each aimed at the frame after the last completion. */
    unsigned long long target = 0, msc = 0;
    int early = 0;
    for (unsigned serial = 1; serial <= 3; serial++) {
        XPresentPixmap(dpy, win, pix[serial % 2], serial, None, None, 0, 0, None, None, None,
                       PresentOptionNone, target, 0, 0, NULL, 0);
        /* A Complete and an Idle for each, in either order. */
        for (int k = 0; k < 2; k++) {
            char text[160];
            unsigned long long m = 0;
            if (!next_event(text, sizeof(text), &m)) {
                snprintf(lines[nlines++ % 64], sizeof(lines[0]), "timeout");
                break;
            }
            snprintf(lines[nlines++ % 64], sizeof(lines[0]), "%s", text);
            if (strncmp(text, "complete", 8) == 0) {
                early |= m < target;
                msc = m;
            }
        }
        target = msc + 1;
    }
    flush_lines("presentations:");
    printf("never-early %d\n", !early);

    /* Target 0 is never in the future, so the divisor decides: the first
     * frame with msc % 4 == 1 after the last completion, or later (Xvfb's
     * vblank timer fires late under load, so the remainder is a note). */
    unsigned long long first = msc + 1 + (4 + 1 - (msc + 1) % 4) % 4;
    XPresentNotifyMSC(dpy, win, 10, 0, 4, 1);
    char text[160];
    unsigned long long m = 0;
    int got = next_event(text, sizeof(text), &m);
    printf("notify-msc %s never-early=%d\n", got ? text : "timeout", m >= first);
    printf("# notify-msc msc %% 4 = %llu\n", m % 4);

    XResizeWindow(dpy, win, 100, 50);
    got = next_event(text, sizeof(text), &m);
    printf("resize %s\n", got ? text : "timeout");

    XPresentPixmap(dpy, bad_window, pix[0], 20, None, None, 0, 0, None, None, None, 0, 0, 0, 0,
                   NULL, 0);
    XPresentNotifyMSC(dpy, win, 21, 0, 2, 5);
    XSync(dpy, False);
    flush_lines("async errors:");
    uint32_t caps = XPresentQueryCapabilities(dpy, bad_window);
    printf("bad-capabilities 0x%x errors-before-return=%d\n", caps, nlines);
    flush_lines("round-trip errors:");

    XPresentFreeInput(dpy, win, eid);
    XSync(dpy, False);
    printf("free-input errors=%d\n", nlines);
}

int main(void)
{
    Dl_info info;
    if (dladdr((void *)XPresentPixmap, &info) && info.dli_fname)
        printf("# library %s\n", info.dli_fname);
    struct xvfb x;
    if (xvfb_start(&x, "640x480x24") < 0)
        return 77;
    dpy = XOpenDisplay(x.display);
    if (!dpy) {
        xvfb_stop(&x);
        return 1;
    }
    session();
    XCloseDisplay(dpy);
    xvfb_stop(&x);
    return 0;
}
