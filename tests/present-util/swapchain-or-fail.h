/*
 * How the swapchain tests' fixtures (xvfb-fixture.c, mock-fixture.c,
 * swapchain-synced.c, tests/soak) make their swapchain.
 */
#ifndef SWAPCHAIN_OR_FAIL_H
#define SWAPCHAIN_OR_FAIL_H

#include <errno.h>
#include <string.h>

#include "test-runner.h"
#include "xcb_present_util.h"

/* A swapchain on window with options o, or the test fails, saying why. */
static inline xcb_present_util_swapchain_t *swapchain_or_fail(xcb_connection_t *c,
                                                              xcb_window_t window,
                                                              const xcb_present_util_options_t *o)
{
    xcb_present_util_swapchain_t *sc = xcb_present_util_swapchain_create(c, window, o);

    if (!sc)
        test_fail(__FILE__, __LINE__, "swapchain_create: %s", strerror(errno));
    return sc;
}

#endif
