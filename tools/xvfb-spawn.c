/* See xvfb-spawn.h. */
#include "xvfb-spawn.h"

#include <stdio.h>

#include "child-stop.h"
#include "displayfd-spawn.h"

enum { START_TIMEOUT_MS = 20000, STOP_TIMEOUT_MS = 5000 };

int xvfb_start(struct xvfb *x, const char *screen)
{
    /* -noreset: a server that resets when its last client leaves refuses
     * the next connection for a moment; tests connect more than once. */
    char *argv[] = { "Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-noreset", "-screen", "0",
                     (char *)screen, NULL };
    int n;

    x->display[0] = '\0';
    n = displayfd_start(argv, DISPLAYFD_NO_STDOUT | DISPLAYFD_NO_STDERR | DISPLAYFD_SYSTEM_LIBS,
                        START_TIMEOUT_MS, &x->pid);
    if (n < 0)
        return -1;
    snprintf(x->display, sizeof x->display, ":%d", n);
    return 0;
}

int xvfb_stop(struct xvfb *x)
{
    int r = child_stop(x->pid, STOP_TIMEOUT_MS);

    x->pid = -1;
    return r;
}
