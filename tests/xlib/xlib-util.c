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

void xt_setup(struct xt *t)
{
    if (xvfb_start(&t->xvfb, "640x480x24") < 0)
        SKIP("Xvfb did not start");
    t->dpy = XOpenDisplay(t->xvfb.display);
    if (!t->dpy) {
        xvfb_stop(&t->xvfb);
        test_fail(__FILE__, __LINE__, "XOpenDisplay(%s) failed", t->xvfb.display);
    }
    if (!XPresentQueryExtension(t->dpy, &t->opcode, &t->event_base, &t->error_base)) {
        XCloseDisplay(t->dpy);
        xvfb_stop(&t->xvfb);
        test_fail(__FILE__, __LINE__, "Xvfb has no Present");
    }
    t->win = XCreateSimpleWindow(t->dpy, DefaultRootWindow(t->dpy), 0, 0, 64, 64, 0, 0, 0);
    XMapWindow(t->dpy, t->win);
    XSync(t->dpy, False);
}

void xt_teardown(struct xt *t)
{
    if (t->dpy)
        XCloseDisplay(t->dpy);
    t->dpy = NULL;
    xvfb_stop(&t->xvfb);
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
