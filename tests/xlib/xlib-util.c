/* Helpers of the Xlib tests; see xlib-util.h. */
#include "xlib-util.h"


#include "test-clock.h"
#include "test-runner.h"

XErrorEvent xt_errors[XT_MAX_ERRORS];
int xt_nerrors;

static int record_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    if (xt_nerrors < XT_MAX_ERRORS)
        xt_errors[xt_nerrors] = *e;
    xt_nerrors++;
    return 0;
}

void xt_errors_record(Display *dpy)
{
    (void)dpy;
    XSetErrorHandler(record_error);
    xt_errors_reset();
}

void xt_errors_reset(void)
{
    xt_nerrors = 0;
}

#ifndef FIXTURE_SERVER
#define FIXTURE_SERVER "xvfb"
#endif

void xt_setup(struct xt *t)
{
    int kind = test_server_start_for_test(&t->server, FIXTURE_SERVER);

    t->dpy = XOpenDisplay(t->server.display);
    if (!t->dpy) {
        test_server_stop(&t->server);
        test_fail(__FILE__, __LINE__, "XOpenDisplay(%s) failed", t->server.display);
    }
    if (!XPresentQueryExtension(t->dpy, &t->opcode, &t->event_base, &t->error_base)) {
        XCloseDisplay(t->dpy);
        test_server_stop(&t->server);
        test_fail(__FILE__, __LINE__, "%s has no Present", FIXTURE_SERVER);
    }
    t->managed = test_server_manages_windows(kind);
    t->win = xt_window(t, 64, 64);
    XMapWindow(t->dpy, t->win);
    XSync(t->dpy, False);
}

Window xt_window(struct xt *t, unsigned width, unsigned height)
{
    XSetWindowAttributes a = { .override_redirect = t->managed };

    return XCreateWindow(t->dpy, DefaultRootWindow(t->dpy), 0, 0, width, height, 0,
                         CopyFromParent, InputOutput, CopyFromParent, CWOverrideRedirect, &a);
}

void xt_teardown(struct xt *t)
{
    if (t->dpy)
        XCloseDisplay(t->dpy);
    t->dpy = NULL;
    test_server_stop(&t->server);
}

bool xt_next_present(struct xt *t, XEvent *ev, int timeout_ms)
{
    int64_t deadline = test_now_ms() + timeout_ms;
    for (;;) {
        while (XPending(t->dpy) > 0) {
            XNextEvent(t->dpy, ev);
            if (ev->type == GenericEvent && ev->xcookie.extension == t->opcode &&
                XGetEventData(t->dpy, &ev->xcookie))
                return true;
        }
        if (!test_poll_until(ConnectionNumber(t->dpy), deadline, 0))
            return false;
    }
}
