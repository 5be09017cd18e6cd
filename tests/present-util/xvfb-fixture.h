/*
 * What the swapchain tests against a real server share: a private server
 * (Xvfb, or the one the test program was built for: FIXTURE_SERVER names a
 * kind of tests/common/test-server.h), a connection, a mapped window,
 * frames with a pattern that tells them apart, and a log of every
 * completed frame.
 */
#ifndef XVFB_FIXTURE_H
#define XVFB_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "xcb_present_util.h"
#include "test-server.h"

#define FIXTURE_MAX_FRAMES 1024

struct fixture {
    struct test_server server;
    xcb_connection_t *c;
    xcb_window_t window;
    xcb_present_util_swapchain_t *sc;
    /* every completed frame, in the order the completions came */
    xcb_present_util_frame_t log[FIXTURE_MAX_FRAMES];
    uint32_t n_log;
};

/* The server, a connection and a mapped width x height window; the test
 * is skipped when the server is not installed.  Where a window manager
 * would resize the window (Xwayland's kiosk-shell), it is
 * override-redirect. */
void fixture_start(struct fixture *s, uint16_t width, uint16_t height);
/* The same with a window that the window manager manages when managed is
 * true, as a toolkit's top-level window is (it may then change its size). */
void fixture_start_window(struct fixture *s, uint16_t width, uint16_t height, bool managed);
/* A swapchain on the window, with the frame log attached. */
void fixture_swapchain(struct fixture *s, xcb_present_util_mode_t mode,
                       xcb_present_util_backend_t backend, uint32_t num_buffers);
/* The same with the caller\'s options (pacing, max_latency...). */
void fixture_swapchain_with(struct fixture *s, const xcb_present_util_options_t *o);
/* Destroys what is left, disconnects, stops the server by its PID. */
void fixture_stop(struct fixture *s);

/* The pixel that frame number n has at (x, y) (depth 24: no alpha). */
static inline uint32_t fixture_pixel(uint32_t n, uint32_t x, uint32_t y)
{
    return (n * 0x010307u + x * 5 + y * 0x0100u) & 0xffffffu;
}
void fixture_render(const xcb_present_util_image_t *img, uint32_t n);
/* Acquires (1 s), renders frame n, presents the whole buffer. */
void fixture_frame(struct fixture *s, uint32_t n);
/* Dispatches until `completed` frames completed, at most timeout_ms. */
void fixture_wait_completed(struct fixture *s, uint64_t completed, int timeout_ms);
/* The window's pixels equal frame n's at the window's size. */
void fixture_check_window_shows(struct fixture *s, uint32_t n, uint16_t w, uint16_t h);
/* Frames in the log numbered 1..n, once each; those shown (not skipped)
 * in order. */
void fixture_check_in_order(const struct fixture *s, uint32_t n);
/* FIFO: every frame shown on a later vblank than the one before and never
 * before its target; none skipped.  Xvfb's vblank timer fires late on a
 * busy machine; then two vblanks' work runs at once, and a frame that the
 * server found past its target when it got to it is moved to the next
 * vblank, where it may meet the next frame and be replaced.  So a frame
 * shown late (msc > target), and the one after it, may share a vblank,
 * and a frame the server found late may be skipped: those are counted and
 * printed as TAP comments, with the frames that the client sent late. */
void fixture_check_fifo(const struct fixture *s, const char *what);
/* How a FIFO run of frames 1..n ends: all n complete (within 3 s), in
 * order and paced as fixture_check_fifo() wants, the w x h window shows
 * frame n; then the fixture stops. */
void fixture_finish_fifo_run(struct fixture *s, uint32_t n, const char *what, uint16_t w,
                             uint16_t h);

#endif
