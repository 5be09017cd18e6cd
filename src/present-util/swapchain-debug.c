/* XCB_PRESENT_UTIL_DEBUG=1: a line on stderr for every request, event and
 * invariant check. */
#include <stdarg.h>
#include <stdio.h>

#include "swapchain-private.h"

void sc_log(const sc_t *sc, const char *fmt, ...)
{
    va_list ap;

    if (!sc->debug)
        return;
    va_start(ap, fmt);
    fprintf(stderr, "xcb-present-util[0x%x]: ", sc->window);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool sc_check(const sc_t *sc, bool ok, const char *what)
{
    if (!ok)
        fprintf(stderr, "xcb-present-util[0x%x]: invariant violated: %s\n", sc->window, what);
    else if (sc->debug)
        sc_log(sc, "check ok: %s", what);
    return ok;
}
