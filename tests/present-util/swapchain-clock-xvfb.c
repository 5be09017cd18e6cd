/*
 * The frame clock on a real Xvfb, whose vblanks come from a timer that
 * fires late on a busy machine and whose MSC is rounded to the nearest
 * vblank: present_at() never shows a frame before its time, wait_frame()
 * returns after the completion, and LOW_LATENCY and max_latency 1 keep
 * every frame in order, on later vblanks, never before their target.
 * Order, counts and "never early" only; lateness gets generous bounds.
 */
#include <errno.h>
#include <string.h>

#include "present-at-check.h"
#include "test-clock.h"
#include "test-runner.h"
#include "xvfb-fixture.h"

#define SECOND 1000000000LL

static void start(struct fixture *s, xcb_present_util_mode_t mode, uint32_t latency,
                  xcb_present_util_pacing_t pacing)
{
    xcb_present_util_options_t o;

    fixture_start(s, 64, 48);
    xcb_present_util_options_init(&o);
    o.mode = mode;
    o.max_latency = latency;
    o.pacing = pacing;
    fixture_swapchain_with(s, &o);
}

TEST(present_at_is_never_early_on_xvfb)
{
    static const int offsets_us[] = { 0, 5000, 16000, 33000, 70000, 250000, 9000, 120000 };
    struct fixture s;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    for (uint32_t i = 0; i < sizeof offsets_us / sizeof offsets_us[0]; i++)
        present_at_check(s.sc, i + 1, offsets_us[i], fixture_render, 1000000);
    fixture_check_in_order(&s, 8);
    fixture_stop(&s);
}

/* wait_frame() with a frame callback: the callback has seen the frame's
 * completion when the wait returns. */
TEST(wait_frame_on_xvfb)
{
    struct fixture s;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    for (uint32_t n = 1; n <= 30; n++) {
        xcb_present_util_frame_t f;

        xcb_present_util_frame_init(&f);
        fixture_frame(&s, n);
        if (n % 3)
            continue;
        CHECK_EQ(xcb_present_util_wait_frame(s.sc, n - 1, 2 * SECOND, &f), 0);
        CHECK_EQ(f.frame, n - 1);
        CHECK(s.n_log >= n - 1);
        CHECK(f.ust >= f.submit_us);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, 2 * SECOND, NULL), 0);
    CHECK_EQ(s.n_log, 30);
    fixture_check_fifo(&s, "wait_frame, 30 frames");
    fixture_stop(&s);
}

/* 120 frames of a 2 ms renderer, each pacing and latency: in order, each on
 * a later vblank, never before its target (fixture_check_fifo). */
static void paced_run(xcb_present_util_pacing_t pacing, uint32_t latency, const char *what)
{
    struct fixture s;
    xcb_present_util_stats_t st;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, latency, pacing);
    for (uint32_t n = 1; n <= 120; n++) {
        xcb_present_util_image_t img;
        int64_t t;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
        t = test_now_ns() + 2000000;
        fixture_render(&img, n);
        while (test_now_ns() < t)
            ;
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, 2 * SECOND, NULL), 0);
    fixture_check_fifo(&s, what);
    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    test_note("%s: acquire to shown mean %.1f ms, p99 %.1f ms; %llu paced frames late",
              what, st.shown_latency_mean_ns / 1e6, st.shown_latency_p99_ns / 1e6,
              (unsigned long long)st.late_frames);
    fixture_stop(&s);
}

TEST(low_latency_120_frames_on_xvfb)
{
    paced_run(XCB_PRESENT_UTIL_PACING_LOW_LATENCY, 2, "low latency");
}

TEST(max_latency_1_120_frames_on_xvfb)
{
    paced_run(XCB_PRESENT_UTIL_PACING_THROUGHPUT, 1, "max_latency 1");
}
