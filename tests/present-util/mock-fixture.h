/*
 * What the swapchain tests against the mock X server share: a mock the
 * test configures, a connection, a mapped 64x48 window, a swapchain with
 * a log of every completed frame, and frames with a pattern that tells
 * them apart.
 */
#ifndef MOCK_FIXTURE_H
#define MOCK_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "mock-server.h"
#include "xcb_present_util.h"

#define MF_SECOND 1000000000LL

struct mock_fixture {
    struct mock_server *server;
    xcb_connection_t *c;
    xcb_window_t window;
    xcb_present_util_swapchain_t *sc;
    xcb_present_util_frame_t log[256];
    uint32_t n_log;
};

/* The mock with "KEY VALUE" pairs (NULL-terminated), a connection and a
 * mapped 64x48 window. */
void mf_start(struct mock_fixture *s, const char *const *kv);
/* A swapchain on the window, with the frame log attached. */
void mf_swapchain(struct mock_fixture *s, xcb_present_util_mode_t mode,
                  xcb_present_util_backend_t backend, uint32_t n);
/* The same with the caller\'s options (pacing, max_latency...). */
void mf_swapchain_with(struct mock_fixture *s, const xcb_present_util_options_t *o);
/* Destroys what is left, disconnects, stops the mock. */
void mf_stop(struct mock_fixture *s);
/* The pixel that frame n has at (x, y). */
uint32_t mf_pixel(uint32_t n, uint32_t x, uint32_t y);
/* Acquires (1 s), renders frame n, presents the whole buffer: 0 or the
 * error of acquire() or present(). */
int mf_frame(struct mock_fixture *s, uint32_t n);
/* Dispatches until n frames completed (at most 3 s). */
void mf_wait_completed(struct mock_fixture *s, uint64_t n);
/* The window shows frame n. */
void mf_check_window_shows(struct mock_fixture *s, uint32_t n);
/* The log holds frames 1..n, in order. */
void mf_check_in_order(const struct mock_fixture *s, uint32_t n);

/* Shown after the vblank it was aimed at.  The mock serves vblanks from a
 * timer, which a slow machine (valgrind, a loaded CI box) runs late; only
 * then may a FIFO frame be replaced (SKIP) or share a vblank with the next
 * one, as on a real server. */
static inline bool mf_shown_late(const xcb_present_util_frame_t *f)
{
    return f->target_msc && f->msc > f->target_msc;
}

#endif
