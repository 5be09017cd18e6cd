/*
 * What the Xlib tests share: a display on a private Xvfb (or any server a
 * test names), Present's codes, a bounded wait for the next Present event,
 * and an error handler that records instead of exiting.
 */
#ifndef XLIB_TEST_UTIL_H
#define XLIB_TEST_UTIL_H

#include <X11/Xlib.h>
#include <X11/extensions/Xpresent.h>
#include <stdbool.h>

#include "test-server.h"

struct xt {
    struct test_server server;
    Display *dpy;
    int opcode, event_base, error_base;
    Window win;             /* 64x64, mapped */
    bool managed;           /* a window manager would resize top-level windows */
};

/* Starts the server the program was built for (-DFIXTURE_SERVER=...,
 * Xvfb by default; tests/common/test-server.h), opens it, checks Present
 * and makes t->win (override-redirect where a window manager would resize
 * it); skips the test (SKIP) when the server is not installed. */
void xt_setup(struct xt *t);
void xt_teardown(struct xt *t);
/* A top-level window width x height, not mapped, which keeps its size:
 * override-redirect where a window manager would resize it. */
Window xt_window(struct xt *t, unsigned width, unsigned height);

/* Waits up to timeout_ms for the next Present event and leaves it in *ev
 * with its data fetched (XGetEventData; the caller calls XFreeEventData).
 * Other events are dropped.  False on timeout. */
bool xt_next_present(struct xt *t, XEvent *ev, int timeout_ms);

/* The errors the recording handler saw since xt_errors_reset(). */
enum { XT_MAX_ERRORS = 16 };
extern XErrorEvent xt_errors[XT_MAX_ERRORS];
extern int xt_nerrors;
void xt_errors_record(Display *dpy);   /* installs the handler */
void xt_errors_reset(void);

#endif
