/*
 * The mock X server (mock/mock-x-server) on a display number, for
 * Xlib: XOpenDisplay() takes only display names, and libxcb 1.15 has no
 * name for a socket path.  The server picks the number itself
 * (--displayfd), claiming it the way X servers do, so that Xvfb and other
 * tests skip it and parallel runs cannot race for one.
 */
#ifndef XLIB_TEST_MOCK_DISPLAY_H
#define XLIB_TEST_MOCK_DISPLAY_H

#include <sys/types.h>

struct mock_display {
    pid_t pid;
    int number;
    char display[16];       /* ":N" */
    char dir[64];           /* private directory holding the transcript */
    char transcript[96];
};

/* Starts mock-x-server with the given extra "--key value" arguments (a
 * NULL-terminated list, may be NULL).  0, or -1 with a message on stderr. */
int mock_display_start(struct mock_display *m, const char *const *args);
/* Stops the server by its PID (SIGTERM, bounded wait, then SIGKILL); the
 * server gives its display number back itself.  The transcript stays
 * until mock_display_cleanup(). */
void mock_display_stop(struct mock_display *m);
void mock_display_cleanup(struct mock_display *m);

#endif
