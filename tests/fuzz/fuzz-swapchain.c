/*
 * Fuzz target: libxcb-present-util's swapchain against a scripted server
 * (fuzz-server.h) that answers every request it makes (Present, DRI3 with
 * its fences, MIT-SHM, core, XFixes) from the input, sends fds of every
 * kind, stalls, hangs up, and sends Present events of every shape.
 *
 * Input: 8 bytes for this driver, then the server's script.
 *   byte 0  bits 0-1 the mode, bits 2-3 the back end, bit 4 a frame
 *           callback, bit 5 dispatch() after each frame, bit 6 damage
 *           rectangles, bit 7 a second swapchain after the first
 *   byte 1  buffers: 0 the library's choice, else 2 + byte % 7; bits 6-7
 *           max_latency (0: the default)
 *   byte 2  bits 0-4 frames (% 24), bit 5 swap interval 2 (else 1), bit 6
 *           present_msc() (target 2 ahead, divisor and remainder from the
 *           damage bytes 4 and 5) instead of present(), bit 7 wait_msc()
 *           after each frame (same aim), with acquire's timeout
 *   byte 3  bits 0-4 acquire's timeout in ms, bit 5 LOW_LATENCY pacing,
 *           bit 6 present_at() a few ms ahead instead of present(), bit 7
 *           wait_frame() for each frame, with acquire's timeout
 *   bytes 4-7  the damage rectangle (x, y, width, height)
 * Every return value must be one the header lists; fds, time and memory
 * are checked by fuzz-util-run.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz-conn.h"
#include "fuzz-server.h"
#include "fuzz-util-run.h"
#include "xcb_present_util.h"

/* What swapchain_create() may wait for besides its round trips: the
 * NotifyMSC anchor; and destroy(): buffers still in flight. */
#define CREATE_WAIT_NS 200000000ll
#define DESTROY_WAIT_NS 100000000ll
/* present_at()'s wait for the display's timing. */
#define CLOCK_WAIT_NS 150000000ll

static const int create_errors[] = { EINVAL, EPROTO, ENOTSUP, ENODEV, EPIPE, ETIMEDOUT, ENOMEM, 0 };
static const int acquire_errors[] = { ETIMEDOUT, EPROTO, ENODEV, EPIPE, ECANCELED, EINVAL, ENOMEM, 0 };
static const int present_errors[] = { EINVAL, ENODEV, EPIPE, ETIMEDOUT, ENOTSUP, 0 };
static const int present_at_errors[] = { EINVAL, ENODEV, EPIPE, ETIMEDOUT, EAGAIN, ECANCELED,
                                         EPROTO, ENOTSUP, 0 };
static const int wait_frame_errors[] = { ETIMEDOUT, ENODEV, EPIPE, ECANCELED, EPROTO, 0 };
static const int dispatch_errors[] = { ENODEV, EPIPE, 0 };
static const int wait_msc_errors[] = { ETIMEDOUT, ENODEV, EPIPE, ECANCELED, EPROTO, EBUSY, 0 };

static void on_frame(void *data, const xcb_present_util_frame_t *f)
{
    fuzz_touch(f, sizeof(*f));
    (*(unsigned *)data)++;
}

/* Writes the first and the last byte of the image, as a renderer would:
 * the sanitizers and the kernel see whether the mapping holds it. */
static void draw(const xcb_present_util_image_t *img)
{
    uint8_t *p = img->pixels;

    /* A server that calls the window 0x0 gets an empty image (README.md):
     * nothing to draw. */
    if (img->width == 0 || img->height == 0)
        return;
    if (p == NULL)
        fuzz_finding("acquire() gave a %ux%u image without pixels", img->width, img->height);
    if (img->stride < (uint32_t)img->width * 4)
        fuzz_finding("acquire() gave a stride of %u for a width of %u", img->stride,
                     img->width);
    p[0] = 0xff;
    p[(size_t)img->stride * (img->height - 1) + (size_t)img->width * 4 - 1] = 0xff;
}

static void run_swapchain(xcb_connection_t *c, const uint8_t *h, int64_t *budget)
{
    xcb_present_util_options_t o = {
        .size = sizeof o,
        .mode = (xcb_present_util_mode_t)(h[0] & 3),
        .backend = (xcb_present_util_backend_t)((h[0] >> 2) & 3),
        .num_buffers = h[1] ? 2 + h[1] % 7 : 0,
        .max_latency = h[1] >> 6,
        .pacing = (h[3] & 0x20) ? XCB_PRESENT_UTIL_PACING_LOW_LATENCY
                                : XCB_PRESENT_UTIL_PACING_THROUGHPUT,
        .swap_interval = (h[2] & 0x20) ? 2 : 1,
        .render_fd = -1,
    };
    unsigned frames = (h[2] & 0x1f) % 24, called = 0;
    bool oml = h[2] & 0x40, wait_msc = h[2] & 0x80;
    /* a divisor of 0..7 and a remainder below it (0 with no divisor) */
    uint64_t divisor = h[4] % 8, remainder = divisor ? h[5] % divisor : 0;
    uint64_t last_msc = 0;
    int64_t timeout = (int64_t)(h[3] % 32) * 1000000;
    bool at = h[3] & 0x40, wait = h[3] & 0x80;
    xcb_rectangle_t damage = { h[4] % 64, h[5] % 64, h[6] % 64, h[7] % 64 };
    xcb_present_util_swapchain_t *sc;
    xcb_present_util_stats_t st = { .size = sizeof st };

    *budget += CREATE_WAIT_NS;
    sc = xcb_present_util_swapchain_create(c, FUZZ_WINDOW, &o);
    if (sc == NULL) {
        if (!fuzz_util_errno_in(errno, create_errors))
            fuzz_finding("swapchain_create() failed with errno %d", errno);
        return;
    }
    if (h[0] & 0x10)
        xcb_present_util_swapchain_set_frame_callback(sc, on_frame, &called);
    for (unsigned i = 0; i < frames; i++) {
        xcb_present_util_image_t img = { .size = sizeof img };
        int r;

        *budget += timeout;
        r = xcb_present_util_acquire(sc, timeout, &img);
        if (r == 0) {
            if (img.index >= (o.num_buffers ? o.num_buffers : 8))
                fuzz_finding("acquire() gave buffer %u", img.index);
            draw(&img);
            if (at) {
                struct timespec now;

                clock_gettime(CLOCK_MONOTONIC, &now);
                *budget += CLOCK_WAIT_NS;
                r = xcb_present_util_present_at(
                    sc, &img, NULL, 0,
                    (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000 + i * 5000);
                if (r != 0 && !fuzz_util_errno_in(-r, present_at_errors))
                    fuzz_finding("present_at() returned %d", r);
                /* -EAGAIN leaves the image acquired: a caller gives it back
                 * (an image held for ever would count in the frame_id the
                 * next acquire() predicts) */
                if (r == -EAGAIN && xcb_present_util_release(sc, &img) != 0)
                    fuzz_finding("release() refused an image present_at() kept");
            } else if (oml) {
                r = xcb_present_util_present_msc(sc, &img, NULL, 0, last_msc + 2, divisor,
                                                 remainder);
                if (r != 0 && !fuzz_util_errno_in(-r, present_errors))
                    fuzz_finding("present_msc() returned %d", r);
            } else {
                r = xcb_present_util_present(sc, &img, (h[0] & 0x40) ? &damage : NULL,
                                             (h[0] & 0x40) ? 1 : 0);
                if (r != 0 && !fuzz_util_errno_in(-r, present_errors))
                    fuzz_finding("present() returned %d", r);
            }
            if (r == 0 && wait) {
                xcb_present_util_frame_t f = { .size = sizeof f };

                *budget += timeout;
                r = xcb_present_util_wait_frame(sc, img.frame_id, timeout, &f);
                if (r != 0 && !fuzz_util_errno_in(-r, wait_frame_errors))
                    fuzz_finding("wait_frame() returned %d", r);
                if (r == 0 && f.frame != img.frame_id)
                    fuzz_finding("wait_frame(%llu) told of frame %llu",
                                 (unsigned long long)img.frame_id, (unsigned long long)f.frame);
            }
        } else if (!fuzz_util_errno_in(-r, acquire_errors)) {
            fuzz_finding("acquire() returned %d", r);
        }
        if (wait_msc) {
            xcb_present_util_timing_t t;

            xcb_present_util_timing_init(&t);
            *budget += timeout;
            r = xcb_present_util_wait_msc(sc, last_msc + 2, divisor, remainder, timeout, &t);
            if (r != 0 && !fuzz_util_errno_in(-r, wait_msc_errors))
                fuzz_finding("wait_msc() returned %d", r);
            if (r == 0 && t.msc < last_msc)
                fuzz_finding("wait_msc() went back from msc %llu to %llu",
                             (unsigned long long)last_msc, (unsigned long long)t.msc);
            if (r == 0)
                last_msc = t.msc;
        }
        if (h[0] & 0x20) {
            r = xcb_present_util_dispatch(sc);
            if (r < 0 && !fuzz_util_errno_in(-r, dispatch_errors))
                fuzz_finding("dispatch() returned %d", r);
        }
    }
    if (xcb_present_util_swapchain_stats(sc, &st) != 0)
        fuzz_finding("get_stats() failed");
    fuzz_touch(&st, sizeof(st));
    if (xcb_present_util_swapchain_fd(sc) >= 0)
        fuzz_util_check_fd(xcb_present_util_swapchain_fd(sc), "get_fd()");
    *budget += DESTROY_WAIT_NS;
    xcb_present_util_swapchain_destroy(sc);
}

void fuzz_util_drive(xcb_connection_t *c, const uint8_t head[FUZZ_UTIL_HEAD], int64_t *budget)
{
    run_swapchain(c, head, budget);
    if (head[0] & 0x80)
        run_swapchain(c, head, budget);
}
