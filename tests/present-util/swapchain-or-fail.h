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

/* A swapchain on window with this mode, back end and number of buffers
 * (0: the library's choice) that calls on_frame(data) for each completed
 * frame (none when NULL), or the test fails, saying why. */
static inline xcb_present_util_swapchain_t *
swapchain_with_options_or_fail(xcb_connection_t *c, xcb_window_t window,
                               const xcb_present_util_options_t *o,
                               xcb_present_util_frame_cb_t on_frame, void *data)
{
    xcb_present_util_swapchain_t *sc = xcb_present_util_swapchain_create(c, window, o);

    if (!sc)
        test_fail(__FILE__, __LINE__, "swapchain_create: %s", strerror(errno));
    if (on_frame)
        xcb_present_util_swapchain_set_frame_callback(sc, on_frame, data);
    return sc;
}

static inline xcb_present_util_swapchain_t *
swapchain_or_fail(xcb_connection_t *c, xcb_window_t window, xcb_present_util_mode_t mode,
                  xcb_present_util_backend_t backend, uint32_t num_buffers,
                  xcb_present_util_frame_cb_t on_frame, void *data)
{
    xcb_present_util_options_t o;

    xcb_present_util_options_init(&o);
    o.mode = mode;
    o.backend = backend;
    o.num_buffers = num_buffers;

    return swapchain_with_options_or_fail(c, window, &o, on_frame, data);
}

#endif
