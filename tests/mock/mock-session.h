/*
 * How a test begins a session with the mock server in its own process:
 * start it, connect, and (for the swapchain tests) a window to present to.
 * Test-side (it fails the test through test-runner.h), so not part of
 * libmockserver, which the mock-x-server program links too.
 */
#ifndef MOCK_SESSION_H
#define MOCK_SESSION_H

#include <xcb/xcb.h>

#include "mock-server.h"
#include "test-runner.h"

/* Starts a mock configured by cfg (freed here) and connects to it; fails
 * the test if either fails.  Returns the connection's first screen. */
static inline const xcb_screen_t *mock_session_start(struct mock_config *cfg,
                                                     struct mock_server **server,
                                                     xcb_connection_t **c)
{
    *server = mock_server_start(cfg);
    mock_config_free(cfg);
    CHECK(*server != NULL);
    *c = mock_server_connect(*server);
    CHECK_EQ(xcb_connection_has_error(*c), 0);
    return xcb_setup_roots_iterator(xcb_get_setup(*c)).data;
}

/* A mapped 64x48 window of depth 24 on the screen's root (not flushed). */
static inline xcb_window_t mock_session_window(xcb_connection_t *c, const xcb_screen_t *screen)
{
    xcb_window_t window = xcb_generate_id(c);

    xcb_create_window(c, 24, window, screen->root, 0, 0, 64, 48, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
    xcb_map_window(c, window);
    return window;
}

#endif
