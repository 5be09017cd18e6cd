/*
 * A private Xvfb for a program or a test that has no display: Xvfb picks a
 * free display itself (-displayfd, see displayfd-spawn.h), because other
 * Xvfbs may be starting on the same machine at the same time, and it is
 * stopped by its PID.  It also goes when the thread that started it ends.
 *
 * Part of tools/libxvfb-spawn.la, which the programs, the benchmark and the
 * tests link; nothing compiles these sources by path.
 */
#ifndef XVFB_SPAWN_H
#define XVFB_SPAWN_H

#include <sys/types.h>

struct xvfb {
    pid_t pid;              /* -1: none */
    char display[16];       /* ":N" */
};

/* Starts Xvfb with one screen of the given geometry ("640x480x24").
 * Returns 0, or -1 with a message on stderr (no Xvfb, or no display
 * number within 20 seconds: a loaded machine can take that long). */
int xvfb_start(struct xvfb *x, const char *screen);

/* SIGTERM, then waits up to 5 s (SIGKILL after that), by PID.  Safe to
 * call twice; returns 0 when it exited on its own terms. */
int xvfb_stop(struct xvfb *x);

#endif
