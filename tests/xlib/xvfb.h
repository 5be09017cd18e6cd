/*
 * A private Xvfb for a test: started on a display number that Xvfb picks
 * itself (-displayfd), because other builds run Xvfb on this machine at the
 * same time, and stopped by its PID.
 */
#ifndef XLIB_TEST_XVFB_H
#define XLIB_TEST_XVFB_H

#include <sys/types.h>

struct xvfb {
    pid_t pid;
    char display[32];   /* ":N" */
};

/* 0 when the server is up and display is set; -1 (with a message on
 * stderr) when Xvfb is missing or did not say its display within 20 s. */
int xvfb_start(struct xvfb *x);
/* SIGTERM and a bounded wait, then SIGKILL.  Safe to call twice. */
void xvfb_stop(struct xvfb *x);

#endif
