/*
 * The X servers the tests run against, as one table: a test built for a
 * server (its FIXTURE_SERVER name) starts a private one of that kind,
 * connects to its display, and stops it by PID.
 *
 *   xvfb        Xvfb: Present on a 60 Hz timer, no DRI3, no window manager.
 *   xwayland    weston's headless back end with Xwayland (rootless, weston's
 *               own window manager, kiosk-shell): Present driven by the
 *               compositor, no DRI3 without a GPU.
 *   xephyr      Xephyr nested in an Xvfb of its own: a second DIX with
 *               Present on its fake CRTC.
 *   xorg-dummy  Xorg with the dummy video driver and a config file the
 *               fixture writes: the real DDX and its Present, no GPU.
 *
 * Servers that choose their display write it to us (-displayfd); weston
 * chooses one for Xwayland itself and says which in its log, which the
 * fixture reads.  Either way nobody hunts for a free number, and parallel
 * test runs cannot race for one.
 */
#ifndef TEST_SERVER_H
#define TEST_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

#include "xvfb-spawn.h"

enum test_server_kind {
    TEST_SERVER_XVFB,
    TEST_SERVER_XWAYLAND,
    TEST_SERVER_XEPHYR,
    TEST_SERVER_XORG_DUMMY,
};

struct test_server {
    enum test_server_kind kind;
    pid_t pid;              /* the server, or weston (Xwayland is its child) */
    struct xvfb host;       /* Xephyr's host display; pid -1 otherwise */
    char display[16];       /* ":N" */
    char dir[64];           /* private: weston's runtime dir and log, Xorg's
                               config and log; "" when none */
};

/* The kind with that name ("xvfb", "xwayland", "xephyr", "xorg-dummy"),
 * or -1. */
int test_server_kind(const char *name);
const char *test_server_name(enum test_server_kind kind);

/* Whether a window manager runs there that resizes the windows it
 * manages (kiosk-shell makes every top-level window fill the output): the
 * fixtures make their windows override-redirect on such a server, so that
 * a test's window keeps the size it checks pixels at. */
bool test_server_manages_windows(enum test_server_kind kind);

/*
 * Starts a private server of that kind, with a screen of width x height
 * at depth 24 where the server lets the fixture choose (Xwayland's
 * headless output has that size too).  Returns 0 with s->display set; 1
 * when the server is not installed here (*why says what is missing: the
 * test skips); -1 when it was there but did not start (*why says how it
 * failed, and the server's log, where it has one, went to stderr).
 */
int test_server_start(struct test_server *s, enum test_server_kind kind, int width,
                      int height, const char **why);

/* For a test program (test-runner.h): test_server_start() of the kind
 * with that name, at 640x480; the test is skipped when the server is not
 * installed and fails when it does not start.  Returns the kind. */
enum test_server_kind test_server_start_for_test(struct test_server *s, const char *name);

/* Stops what test_server_start() started, by PID, and removes its private
 * directory.  Safe to call twice.  Returns 0 when every process exited on
 * its own terms. */
int test_server_stop(struct test_server *s);

/* weston's PID on the xwayland kind (for tests that stop the compositor
 * with SIGSTOP to see what Present does then), -1 on the others. */
pid_t test_server_compositor_pid(const struct test_server *s);

#endif
