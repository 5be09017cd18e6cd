/*
 * xcb_dri3_util_set_timeout(c, ns), the per-connection bound of the util
 * library's round trips, where the library has it. Looked up as a weak
 * symbol, in a file of its own that does not include the library's header,
 * so that the harness builds against a library with or without it.
 * Where it is missing, a round trip of libxcb-dri3-util waits for as long
 * as the server takes, and the server never drops a reply (fuzz-server.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "fuzz-util-run.h"

/* Its return value, if any, is not read: the call is the same either way. */
void xcb_dri3_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns) __attribute__((weak));

bool fuzz_util_has_timeout(void)
{
    return xcb_dri3_util_set_timeout != NULL;
}

bool fuzz_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns)
{
    if (xcb_dri3_util_set_timeout == NULL)
        return false;
    xcb_dri3_util_set_timeout(c, timeout_ns);
    return true;
}
