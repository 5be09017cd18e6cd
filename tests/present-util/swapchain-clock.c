/*
 * The swapchain as a frame clock, on the mock server (whose vblanks have
 * exact USTs on CLOCK_MONOTONIC): wait_frame(), present_at(), buffer age,
 * max_latency, LOW_LATENCY pacing and get_fd() readiness, predictions,
 * and structs of the first version's size.
 *
 * Built against the swapchain's sources (libswapchain-seams) so that one
 * test can read the moment LOW_LATENCY planned (sc->pace.slot_ns).  Every
 * assertion is about order, counts and "never early"; lateness gets
 * generous bounds (a busy machine runs the mock's vblanks late).
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mock-fixture.h"
#include "present-at-check.h"
#include "swapchain-private.h"
#include "test-clock.h"
#include "test-runner.h"
#include "xcb_present_util.h"

#define SECOND 1000000000LL

static const char *const mock_kv[] = { "shm", "on", NULL };

/* A swapchain with options (pacing, latency, buffers) and the frame log. */
static void start(struct mock_fixture *s, xcb_present_util_mode_t mode, uint32_t buffers,
                  uint32_t latency, xcb_present_util_pacing_t pacing)
{
    xcb_present_util_options_t o;

    mf_start(s, mock_kv);
    xcb_present_util_options_init(&o);
    o.mode = mode;
    o.num_buffers = buffers;
    o.max_latency = latency;
    o.pacing = pacing;
    mf_swapchain_with(s, &o);
}

static void fill(const xcb_present_util_image_t *img, uint32_t n)
{
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++)
            ((uint32_t *)((uint8_t *)img->pixels + (size_t)y * img->stride))[x] =
                mf_pixel(n, x, y);
}

static void spin_until_ns(int64_t t)
{
    while (test_now_ns() < t)
        ;
}

static const xcb_present_util_frame_t *logged(const struct mock_fixture *s, uint64_t id)
{
    for (uint32_t i = 0; i < s->n_log && i < 256; i++)
        if (s->log[i].frame == id)
            return &s->log[i];
    return NULL;
}

/* ---- wait_frame -------------------------------------------------------- */

TEST(wait_frame_returns_after_the_completion_with_its_timing)
{
    struct mock_fixture s;
    xcb_present_util_frame_t f;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    xcb_present_util_frame_init(&f);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, &f), -EINVAL);   /* nothing yet */
    for (uint32_t n = 1; n <= 5; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 6, SECOND, &f), -EINVAL);
    for (uint64_t id = 1; id <= 5; id++) {
        const xcb_present_util_frame_t *l;

        CHECK_EQ(xcb_present_util_wait_frame(s.sc, id, SECOND, &f), 0);
        /* the frame callback saw its CompleteNotify before the wait ended */
        l = logged(&s, id);
        CHECK(l != NULL);
        CHECK_EQ(f.size, sizeof f);
        CHECK_EQ(f.frame, id);
        CHECK_EQ(f.msc, l->msc);
        CHECK_EQ(f.ust, l->ust);
        CHECK_EQ(f.mode, l->mode);
        CHECK(f.msc > 0 && f.ust > 0);
        CHECK(f.acquire_us > 0 && f.acquire_us <= f.submit_us && f.submit_us <= f.ust);
    }
    /* 0: every frame so far */
    for (uint32_t n = 6; n <= 8; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, NULL), 0);
    CHECK(logged(&s, 8) != NULL);
    CHECK_EQ(s.n_log, 8);
    mf_stop(&s);
}

TEST(wait_frame_times_out_and_keeps_only_recent_timings)
{
    struct mock_fixture s;
    xcb_present_util_frame_t f;
    xcb_present_util_image_t img;
    long long t0;
    int r;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, 1, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    xcb_present_util_frame_init(&f);
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    /* Looking (timeout 0) at a frame that a 60 Hz vblank has not shown
     * yet: -ETIMEDOUT, or 0 only if the vblank did come meanwhile. */
    t0 = test_now_ms();
    r = xcb_present_util_wait_frame(s.sc, 1, 0, &f);
    CHECK(r == -ETIMEDOUT || (r == 0 && logged(&s, 1)));
    CHECK(test_now_ms() - t0 < 500);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 1, SECOND, &f), 0);
    for (uint32_t n = 2; n <= 70; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 70, SECOND, &f), 0);
    CHECK_EQ(f.frame, 70);
    CHECK(f.ust > 0);
    /* 69 frames ago: done, its timing no longer kept */
    memset(&f, 0x5a, sizeof f);
    f.size = sizeof f;
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 1, 0, &f), 0);
    CHECK_EQ(f.frame, 1);
    CHECK_EQ(f.msc, 0);
    CHECK_EQ(f.ust, 0);
    mf_stop(&s);
}

/* ---- present_at -------------------------------------------------------- */

/* Frames aimed at times from now to 300 ms ahead, right after create (the
 * clock is learnt first) and later: none shown before its time. */
static void check_present_at(xcb_present_util_mode_t mode)
{
    static const int offsets_us[] = { 0, 3000, 17000, 40000, 100000, 300000, 8000, 51000 };
    struct mock_fixture s;

    start(&s, mode, 3, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    test_note("%s", xcb_present_util_mode_name(mode));
    for (uint32_t i = 0; i < sizeof offsets_us / sizeof offsets_us[0]; i++)
        present_at_check(s.sc, i + 1, offsets_us[i], fill, 500000);
    mf_stop(&s);
}

/* An image that was not acquired is refused at once, before any wait for
 * the clock, and nothing is sent. */
TEST(present_at_refuses_an_image_not_acquired)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;
    xcb_present_util_stats_t st;
    long long t0;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    xcb_present_util_image_init(&img);
    xcb_present_util_stats_init(&st);
    t0 = test_now_ms();
    CHECK_EQ(xcb_present_util_present_at(s.sc, &img, NULL, 0, (uint64_t)test_now_us() + 50000),
             -EINVAL);
    CHECK(test_now_ms() - t0 < 100);
    CHECK_EQ(xcb_present_util_present_at(NULL, &img, NULL, 0, 1), -EINVAL);
    /* a time that overflows the clock's nanoseconds, on an acquired image */
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
    CHECK_EQ(xcb_present_util_present_at(s.sc, &img, NULL, 0, UINT64_MAX), -EINVAL);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);     /* still acquired */
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.presented, 1);
    mf_stop(&s);
}

/* A caller that asks for a time long after create: the count the
 * swapchain last saw is many vblanks old, so what it asks for to learn the
 * clock has passed before the server sees it.  It asks again from the count
 * those brought, and the frame is still on time, never early. */
TEST(present_at_long_after_create_learns_the_clock)
{
    struct mock_fixture s;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    test_sleep_ms(200);
    present_at_check(s.sc, 1, 20000, fill, 500000);
    present_at_check(s.sc, 2, 40000, fill, 500000);
    mf_stop(&s);
}

TEST(present_at_is_never_early_fifo)
{
    check_present_at(XCB_PRESENT_UTIL_MODE_FIFO);
}

TEST(present_at_is_never_early_mailbox)
{
    check_present_at(XCB_PRESENT_UTIL_MODE_MAILBOX);
}

TEST(present_at_is_never_early_immediate)
{
    check_present_at(XCB_PRESENT_UTIL_MODE_IMMEDIATE);
}

/* ---- buffer age -------------------------------------------------------- */

/* Through 3 * buffers frames: each buffer's age is the frames since its
 * own last one, 0 the first time and after a resize. */
static void check_ages(uint32_t buffers)
{
    struct mock_fixture s;
    uint64_t last_frame_of[8] = { 0 };
    uint32_t resize_at = 2 * buffers;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, buffers, buffers - 1,
          XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    for (uint32_t n = 1; n <= 4 * buffers; n++) {
        xcb_present_util_image_t img;
        uint32_t want;

        if (n == resize_at) {
            uint32_t wh[2] = { 80, 40 };

            xcb_configure_window(s.c, s.window,
                                 XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, wh);
            xcb_flush(s.c);
            /* the new size settles (30 ms) before the buffers follow it */
            CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, NULL), 0);
            test_sleep_ms(60);
            memset(last_frame_of, 0, sizeof last_frame_of);
        }
        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
        CHECK_EQ(img.frame_id, n);
        if (n >= resize_at)
            CHECK_EQ(img.width, 80);
        want = last_frame_of[img.index] ? (uint32_t)(n - last_frame_of[img.index]) : 0;
        test_note("%u buffers, frame %u: buffer %u, age %u (want %u)", buffers, n, img.index,
                  img.age, want);
        CHECK_EQ(img.age, want);
        last_frame_of[img.index] = n;
        fill(&img, n);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, NULL), 0);
    mf_stop(&s);
}

TEST(buffer_age_with_2_buffers)
{
    check_ages(2);
}

TEST(buffer_age_with_3_buffers)
{
    check_ages(3);
}

TEST(buffer_age_with_4_buffers)
{
    check_ages(4);
}

/* A buffer that present() refused held the caller's drawing: age 0. */
TEST(buffer_age_after_a_refused_present_is_0)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;
    xcb_rectangle_t outside = { 0, 0, 1000, 1000 };

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, 1, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    xcb_present_util_image_init(&img);
    CHECK_EQ(mf_frame(&s, 1), 0);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
    CHECK_EQ(img.frame_id, 2);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, &outside, 1), -EINVAL);
    /* Nothing was in flight: the refused buffer is the one free first. */
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 1, SECOND, NULL), 0);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
    CHECK_EQ(img.frame_id, 2);
    CHECK_EQ(img.index, 0);
    CHECK_EQ(img.age, 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    mf_stop(&s);
}

/* ---- max_latency ------------------------------------------------------- */

static void check_latency(uint32_t buffers, uint32_t latency, uint32_t want_max)
{
    struct mock_fixture s;
    xcb_present_util_stats_t st;
    uint64_t most = 0;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, buffers, latency, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    xcb_present_util_stats_init(&st);
    for (uint32_t n = 1; n <= 40; n++) {
        CHECK_EQ(mf_frame(&s, n), 0);
        CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
        if (st.presented - st.completed > most)
            most = st.presented - st.completed;
        CHECK(st.presented - st.completed <= want_max);
    }
    test_note("%u buffers, max_latency %u: at most %llu frames in flight", buffers, latency,
              (unsigned long long)most);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, NULL), 0);
    mf_check_in_order(&s, 40);
    mf_stop(&s);
}

TEST(max_latency_1_never_has_two_frames_in_flight)
{
    check_latency(3, 1, 1);
}

TEST(max_latency_2_with_4_buffers)
{
    check_latency(4, 2, 2);
}

/* A latency above what the buffers allow is what they allow. */
TEST(max_latency_is_clamped_to_the_buffers)
{
    check_latency(2, 5, 1);
}

/* ---- LOW_LATENCY ------------------------------------------------------- */

/* A frame loop that renders render_us per frame in LOW_LATENCY pacing:
 * acquire() never returns before the moment it planned, a paced frame's
 * predicted vblank is never after the one that showed it... */
static void low_latency_loop(struct mock_fixture *s, uint32_t frames, int64_t render_us,
                             uint64_t *planned)
{
    for (uint32_t n = 1; n <= frames; n++) {
        xcb_present_util_image_t img;
        int64_t returned;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s->sc, SECOND, &img), 0);
        returned = test_now_ns();
        if (planned)
            planned[n] = s->sc->buffers[img.index].planned_msc;
        /* the moment it planned (0 before pacing starts) has come */
        if (s->sc->pace.slot_ns && s->sc->buffers[img.index].planned_msc)
            CHECK((uint64_t)returned >= s->sc->pace.slot_ns);
        fill(&img, n);
        spin_until_ns(returned + render_us * 1000);
        CHECK_EQ(xcb_present_util_present(s->sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s->sc, 0, 2 * SECOND, NULL), 0);
}

TEST(low_latency_acquire_waits_for_its_moment)
{
    struct mock_fixture s;
    xcb_present_util_stats_t st;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 2, XCB_PRESENT_UTIL_PACING_LOW_LATENCY);
    low_latency_loop(&s, 90, 2000, NULL);
    mf_check_in_order(&s, 90);
    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK(st.render_ns >= 2000000);
    CHECK(st.margin_ns >= SC_MARGIN_FLOOR_NS);
    CHECK(st.latch_ns >= sc_clock_period_ns(s.sc) / 4 && st.latch_ns <= sc_clock_period_ns(s.sc) / 2);
    test_note("render %llu us, margin %llu us, late %llu, shown latency mean %llu us "
              "p99 %llu us", (unsigned long long)st.render_ns / 1000,
              (unsigned long long)st.margin_ns / 1000, (unsigned long long)st.late_frames,
              (unsigned long long)st.shown_latency_mean_ns / 1000,
              (unsigned long long)st.shown_latency_p99_ns / 1000);
    mf_stop(&s);
}

/* A caller slower than a refresh (25 ms at 60 Hz) is paced every second
 * vblank: once pacing started, no frame is aimed at the vblank after the
 * one before's (which would make it alternate between two rates).  What
 * the server shows may still come a vblank late now and then (a busy
 * machine), which the diagnostics count. */
TEST(low_latency_slow_caller_keeps_one_rate)
{
    struct mock_fixture s;
    uint32_t gaps[5] = { 0 }, paced = 0;
    uint64_t planned[41] = { 0 };

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 2, XCB_PRESENT_UTIL_PACING_LOW_LATENCY);
    low_latency_loop(&s, 40, 25000, planned);
    mf_check_in_order(&s, 40);
    /* pacing starts after a few frames; look from the 12th on, at the
     * frames it paced (a machine too busy for a fresh clock reading
     * sends a frame as THROUGHPUT would, and pacing starts again) */
    for (uint32_t i = 12; i < 40; i++) {
        uint64_t aimed = s.log[i].target_msc - s.log[i - 1].target_msc;
        uint64_t shown = s.log[i].msc - s.log[i - 1].msc;

        gaps[shown < 4 ? shown : 4]++;
        if (!planned[s.log[i].frame])
            continue;
        paced++;
        if (aimed < 2)
            test_note("frame %llu aimed at msc %llu, frame %llu at %llu",
                      (unsigned long long)s.log[i - 1].frame,
                      (unsigned long long)s.log[i - 1].target_msc,
                      (unsigned long long)s.log[i].frame,
                      (unsigned long long)s.log[i].target_msc);
        CHECK(aimed >= 2);
    }
    test_note("vblanks between frames shown: 1: %u, 2: %u, 3: %u, more: %u", gaps[1], gaps[2],
              gaps[3], gaps[4]);
    test_note("%u of frames 13..40 paced", paced);
    CHECK(paced >= 7);
    mf_stop(&s);
}

/* swap_interval 2: present() aims each frame two vblanks after the one
 * before, and pacing plans for that vblank, not the one in between (which
 * held every frame back a vblank and counted it late).  A busy machine can
 * make a frame miss its plan now and then; most must not. */
TEST(low_latency_plans_for_the_swap_interval)
{
    struct mock_fixture s;
    xcb_present_util_options_t o;
    uint64_t planned[61] = { 0 };
    uint32_t paced = 0, as_planned = 0;

    mf_start(&s, mock_kv);
    xcb_present_util_options_init(&o);
    o.pacing = XCB_PRESENT_UTIL_PACING_LOW_LATENCY;
    o.swap_interval = 2;
    mf_swapchain_with(&s, &o);
    low_latency_loop(&s, 60, 2000, planned);
    mf_check_in_order(&s, 60);
    for (uint32_t i = 1; i < 60; i++) {
        const xcb_present_util_frame_t *f = &s.log[i], *before = &s.log[i - 1];

        CHECK(f->target_msc >= before->target_msc + 2);
        if (!planned[f->frame])
            continue;
        paced++;
        /* never aimed before its plan; at it unless the frame came late */
        CHECK(f->target_msc >= planned[f->frame]);
        as_planned += f->target_msc == planned[f->frame];
    }
    test_note("%u frames paced, %u aimed at the vblank planned", paced, as_planned);
    CHECK(paced >= 30);
    CHECK(as_planned * 2 >= paced);
    mf_stop(&s);
}

/* ---- the clock's plan for a time --------------------------------------- */

/* A clock of 16 readings at 60 Hz, the first and last on time, those
 * between late by late_us every other vblank. */
static sc_t *clock_with(int64_t late_us)
{
    sc_t *sc = calloc(1, sizeof *sc);

    CHECK(sc != NULL);
    for (uint64_t msc = 100; msc < 116; msc++)
        sc_clock_add(sc, msc, 1000000 + (msc - 100) * 16666 +
                                  (msc != 100 && msc != 115 && msc % 2 ? late_us : 0));
    return sc;
}

/* A time 2 ms before a predicted vblank is that vblank's on a steady
 * clock; on one whose readings vary by 4 ms the vblank could come up to
 * that much earlier than predicted, and the time goes to the next one. */
TEST(present_at_plans_past_the_readings_spread)
{
    sc_t *steady = clock_with(0), *jittery = clock_with(4000);
    uint64_t vblank = sc_clock_vblank_ns(steady, 120);

    CHECK_EQ(sc_clock_vblank_ns(jittery, 120), vblank);
    CHECK_EQ(sc_clock_first_msc_at(steady, vblank - 2000000), 120);
    CHECK_EQ(sc_clock_first_msc_at(jittery, vblank - 2000000), 121);
    CHECK_EQ(sc_clock_first_msc_at(jittery, vblank - 6000000), 120);
    free(steady);
    free(jittery);
}

/* The clock's slope and phase, kept from one reading to the next, are
 * what the readings give worked out afresh: over more readings than the
 * clock keeps (its ring turns), each late by a varying few hundred us. */
TEST(clock_kept_between_readings_matches_the_readings)
{
    sc_t *sc = calloc(1, sizeof *sc);

    CHECK(sc != NULL);
    for (uint64_t i = 0; i < 3 * SC_CLOCK_READINGS; i++) {
        uint64_t msc = 500 + i + i / 7;     /* a vblank left out now and then */
        const struct reading *o, *n;
        uint64_t slope, phase;

        sc_clock_add(sc, msc, 2000000 + (msc - 500) * 16667 + (i * 7919) % 900);
        if (sc->clock.n_readings < 2)
            continue;
        o = &sc->clock.readings[(sc->clock.reading_next + SC_CLOCK_READINGS - sc->clock.n_readings) %
                          SC_CLOCK_READINGS];
        n = &sc->clock.readings[(sc->clock.reading_next + SC_CLOCK_READINGS - 1) % SC_CLOCK_READINGS];
        slope = (n->ust_ns - o->ust_ns) / (n->msc - o->msc);
        phase = n->ust_ns;
        for (uint32_t k = 0; k < sc->clock.n_readings; k++) {
            uint64_t carried = sc->clock.readings[k].ust_ns + (n->msc - sc->clock.readings[k].msc) * slope;

            if (carried < phase)
                phase = carried;
        }
        CHECK_EQ(sc_clock_period_ns(sc), slope);
        CHECK_EQ(sc_clock_vblank_ns(sc, n->msc + 3), phase + 3 * slope);
    }
    free(sc);
}

/* The render time told (the SC_RENDER_PERCENTILE-th percentile of the
 * last SC_RENDER_SAMPLES frames), worked out again only when it can have
 * moved, is the k-th largest sample every frame: steady samples with
 * noise, ties, spikes and a step up and back. */
TEST(render_percentile_is_the_k_th_largest_every_frame)
{
    sc_t *sc = calloc(1, sizeof *sc);
    uint64_t seed = 12345;

    CHECK(sc != NULL);
    for (uint32_t i = 0; i < 4000; i++) {
        uint64_t v, sorted[SC_RENDER_SAMPLES];
        uint32_t n, k;

        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        v = 2000000 + (seed >> 33) % 50000;
        if (seed % 13 == 0)
            v = 2010000;                        /* ties */
        if (seed % 37 == 0)
            v += 5000000;                       /* a spike */
        if (i >= 1500 && i < 2500)
            v += 3000000;                       /* a slower stretch */
        sc_pacing_rendered(sc, v);
        n = sc->pace.n_render;
        memcpy(sorted, sc->pace.render_samples, n * sizeof sorted[0]);
        for (uint32_t a = 1; a < n; a++)        /* descending */
            for (uint32_t b = a; b > 0 && sorted[b - 1] < sorted[b]; b--) {
                uint64_t t = sorted[b];

                sorted[b] = sorted[b - 1];
                sorted[b - 1] = t;
            }
        k = n - (n * SC_RENDER_PERCENTILE + 99) / 100 + 1;
        CHECK_EQ(sc->stats.render_ns, sorted[k - 1]);
    }
    free(sc);
}

/* ---- the learnt latch --------------------------------------------------
 * LOW_LATENCY's completions fed one by one to the pacing, on a clock of
 * exact 60 Hz readings: the latch (how long before a vblank a frame must
 * reach the server) starts at half a period, moves a step later after a
 * run of hits with the margin at its floor, never past a quarter period, and goes back two steps and
 * holds when a frame sent between half a period and the latch missed;
 * a miss of a frame sent earlier (the server's) or later (the caller's)
 * leaves it. */

#define LATCH_PERIOD_US 16667ull

static sc_t *latch_clock(void)
{
    sc_t *sc = calloc(1, sizeof *sc);

    CHECK(sc != NULL);
    sc->stats.margin_ns = SC_MARGIN_FLOOR_NS;
    for (uint64_t msc = 1; msc <= 8; msc++)
        sc_clock_add(sc, msc, msc * LATCH_PERIOD_US);
    return sc;
}

/* Frame serial, paced for vblank msc, sent before_us before it, shown at
 * shown_msc. */
static void latch_frame(sc_t *sc, uint64_t serial, uint64_t msc, uint64_t before_us,
                        uint64_t shown_msc)
{
    struct frame f = { .serial = serial, .planned_msc = msc, .target_msc = msc,
                       .submit_us = sc_clock_vblank_ns(sc, msc) / 1000 - before_us };

    sc_pacing_completed(sc, &f, shown_msc);
}

TEST(low_latency_learns_a_later_latch_and_backs_off_at_a_miss)
{
    sc_t *sc = latch_clock();
    uint64_t period = sc_clock_period_ns(sc), half = period / 2, msc = 9, serial = 1, latch, margin;

    CHECK(period > 16600000 && period < 16700000);
    CHECK_EQ(sc_pacing_latch_ns(sc), half);
    /* with a margin above its floor, hits try nothing (they come that
     * much before the deadline: a latch too late would not show) */
    sc->stats.margin_ns = 4 * SC_MARGIN_FLOOR_NS;
    for (uint32_t i = 0; i < 2 * SC_LATCH_HITS; i++, msc++)
        latch_frame(sc, serial++, msc, half / 1000 + 1000, msc);
    CHECK_EQ(sc_pacing_latch_ns(sc), half);
    sc->stats.margin_ns = SC_MARGIN_FLOOR_NS;
    /* hits: one step later after each run, down to a quarter period */
    latch = half;
    for (uint32_t run = 1; run <= 40; run++) {
        for (uint32_t i = 0; i < SC_LATCH_HITS; i++, msc++)
            latch_frame(sc, serial++, msc, sc_pacing_latch_ns(sc) / 1000 + 1000, msc);
        if (latch > period / 4 + SC_LATCH_STEP_NS / 2)
            latch = latch - SC_LATCH_STEP_NS < period / 4 ? period / 4 : latch - SC_LATCH_STEP_NS;
        CHECK_EQ(sc_pacing_latch_ns(sc), latch);
    }
    CHECK_EQ(sc_pacing_latch_ns(sc), period / 4);
    free(sc);

    sc = latch_clock();
    msc = 9;
    for (uint32_t run = 0; run < 4; run++)
        for (uint32_t i = 0; i < SC_LATCH_HITS; i++, msc++)
            latch_frame(sc, serial++, msc, half / 1000 + 1000, msc);
    latch = sc_pacing_latch_ns(sc);
    CHECK_EQ(latch, half - 4 * SC_LATCH_STEP_NS);
    /* sent before half a period and missed: the server was late; the
     * latch stays */
    latch_frame(sc, serial++, msc, half / 1000 + 500, msc + 1);
    msc += 2;
    CHECK_EQ(sc_pacing_latch_ns(sc), latch);
    /* sent 300 us after the latch and missed: the caller's; the margin
     * grows by what the frame lacked and the guard */
    margin = sc->stats.margin_ns;
    latch_frame(sc, serial++, msc, latch / 1000 - 300, msc + 1);
    msc += 2;
    CHECK_EQ(sc_pacing_latch_ns(sc), latch);
    /* (within the microsecond that submit_us rounds away) */
    CHECK(sc->stats.margin_ns >= margin + 300000 + SC_MARGIN_GUARD_NS &&
          sc->stats.margin_ns < margin + 301000 + SC_MARGIN_GUARD_NS);
    /* sent between the two and missed: the server's latch is earlier */
    latch_frame(sc, serial++, msc, latch / 1000 + 100, msc + 1);
    msc += 2;
    CHECK_EQ(sc_pacing_latch_ns(sc), latch + 2 * SC_LATCH_STEP_NS);
    /* ... and it holds for SC_LATCH_HOLD hits before it tries again */
    for (uint32_t i = 0; i < SC_LATCH_HOLD + SC_LATCH_HITS - 1; i++, msc++)
        latch_frame(sc, serial++, msc, half / 1000 + 1000, msc);
    CHECK_EQ(sc_pacing_latch_ns(sc), latch + 2 * SC_LATCH_STEP_NS);
    latch_frame(sc, serial++, msc, half / 1000 + 1000, msc);
    CHECK_EQ(sc_pacing_latch_ns(sc), latch + SC_LATCH_STEP_NS);
    free(sc);
}

/* Predictions: a FIFO frame is never shown before the vblank its image
 * predicted, nor before its predicted UST. */
TEST(predicted_vblank_is_never_after_the_frame_is_shown)
{
    struct mock_fixture s;
    xcb_present_util_image_t imgs[40];
    uint32_t exact = 0;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 2, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    for (uint32_t n = 1; n <= 40; n++) {
        xcb_present_util_image_t *img = &imgs[n - 1];

        xcb_present_util_image_init(img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, img), 0);
        fill(img, n);
        CHECK_EQ(xcb_present_util_present(s.sc, img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, NULL), 0);
    for (uint32_t n = 10; n <= 40; n++) {
        const xcb_present_util_image_t *img = &imgs[n - 1];
        const xcb_present_util_frame_t *f = logged(&s, n);

        CHECK(f != NULL);
        CHECK(img->refresh_ns > 10000000 && img->refresh_ns < 25000000);   /* 60 Hz */
        if (!img->predicted_msc)
            continue;
        CHECK(f->msc >= img->predicted_msc);
        /* the mock's vblank UST is exact; the prediction within 1 ms */
        CHECK(f->ust + 1000 >= img->predicted_ust);
        exact += f->msc == img->predicted_msc;
    }
    test_note("%u of 31 frames shown at the vblank predicted", exact);
    CHECK(exact > 0);
    mf_stop(&s);
}

/* ---- get_fd readiness -------------------------------------------------- */

static bool fd_readable(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };

    return poll(&p, 1, 0) == 1;
}

TEST(fd_is_readable_exactly_while_a_buffer_can_be_acquired)
{
    struct mock_fixture s;
    xcb_present_util_image_t a, b;
    int fd;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, 1, XCB_PRESENT_UTIL_PACING_THROUGHPUT);
    fd = xcb_present_util_swapchain_fd(s.sc);
    xcb_present_util_image_init(&a);
    xcb_present_util_image_init(&b);
    /* fresh: both buffers free */
    CHECK(fd_readable(fd));
    CHECK_EQ(xcb_present_util_dispatch(s.sc), 1);     /* max_latency 1 */
    CHECK(fd_readable(fd));
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &a), 0);
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &b), 0);
    /* both out, nothing in flight, nothing coming from the server */
    CHECK_EQ(xcb_present_util_dispatch(s.sc), 0);
    CHECK(!fd_readable(fd));
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &(xcb_present_util_image_t){
                                                   .size = sizeof(xcb_present_util_image_t) }),
             -ETIMEDOUT);
    CHECK_EQ(xcb_present_util_present(s.sc, &a, NULL, 0), 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &b, NULL, 0), 0);
    /* a main loop: wake on the fd, dispatch, acquire what dispatch says */
    for (uint32_t frames = 0; frames < 30;) {
        int n;

        CHECK(test_poll_until(fd, test_now_ms() + 2000, 2000));
        n = xcb_present_util_dispatch(s.sc);
        CHECK(n >= 0);
        if (!n)
            continue;
        CHECK(fd_readable(fd));
        CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &a), 0);
        CHECK_EQ(xcb_present_util_present(s.sc, &a, NULL, 0), 0);
        frames++;
    }
    mf_stop(&s);
}

/* LOW_LATENCY with max_latency 1: after a completion nothing more comes
 * from the server, and only the timer in the fd says that the moment came:
 * a main loop that waits on the fd alone goes on. */
TEST(fd_wakes_a_main_loop_at_the_low_latency_moment)
{
    struct mock_fixture s;
    uint32_t frames = 0, spurious = 0;
    int fd;

    start(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, 1, XCB_PRESENT_UTIL_PACING_LOW_LATENCY);
    fd = xcb_present_util_swapchain_fd(s.sc);
    while (frames < 60) {
        xcb_present_util_image_t img;
        int n;

        CHECK(test_poll_until(fd, test_now_ms() + 2000, 2000));
        n = xcb_present_util_dispatch(s.sc);
        CHECK(n >= 0);
        if (!n) {
            spurious++;
            continue;
        }
        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &img), 0);
        if (s.sc->buffers[img.index].planned_msc)
            CHECK((uint64_t)test_now_ns() >= s.sc->pace.slot_ns);
        fill(&img, ++frames);
        spin_until_ns(test_now_ns() + 1000000);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, SECOND, NULL), 0);
    mf_check_in_order(&s, 60);
    test_note("60 frames, %u wake-ups with nothing to acquire", spurious);
    mf_stop(&s);
}

/* ---- the first version's sizes ---------------------------------------- */

TEST(structs_of_the_first_version_still_work)
{
    struct mock_fixture s;
    union {
        xcb_present_util_options_t o;
        uint8_t raw[sizeof(xcb_present_util_options_t)];
    } opts;
    union {
        xcb_present_util_image_t img;
        uint8_t raw[sizeof(xcb_present_util_image_t)];
    } img;
    union {
        xcb_present_util_frame_t f;
        uint8_t raw[sizeof(xcb_present_util_frame_t)];
    } frame;
    const size_t options_v1 = offsetof(xcb_present_util_options_t, max_latency);
    const size_t image_v1 = offsetof(xcb_present_util_image_t, frame_id);
    const size_t frame_v1 = offsetof(xcb_present_util_frame_t, acquire_us);
    xcb_present_util_stats_t st;
    uint64_t most = 0;

    mf_start(&s, mock_kv);
    /* An old program's options: the new fields are garbage past its size
     * and must read as their defaults (max_latency 2, THROUGHPUT). */
    memset(opts.raw, 0xff, sizeof opts.raw);
    opts.o.size = (uint32_t)options_v1;
    opts.o.mode = XCB_PRESENT_UTIL_MODE_FIFO;
    opts.o.backend = XCB_PRESENT_UTIL_BACKEND_AUTO;
    opts.o.num_buffers = 4;
    mf_swapchain_with(&s, &opts.o);
    xcb_present_util_stats_init(&st);
    for (uint32_t n = 1; n <= 12; n++) {
        /* an old image: nothing past its size is written */
        memset(img.raw, 0x5a, sizeof img.raw);
        img.img.size = (uint32_t)image_v1;
        CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img.img), 0);
        for (size_t i = image_v1; i < sizeof img.raw; i++)
            CHECK_EQ(img.raw[i], 0x5a);
        fill(&img.img, n);
        CHECK_EQ(xcb_present_util_present(s.sc, &img.img, NULL, 0), 0);
        CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
        if (st.presented - st.completed > most)
            most = st.presented - st.completed;
    }
    CHECK(most <= 2);
    /* an old frame struct */
    memset(frame.raw, 0x5a, sizeof frame.raw);
    frame.f.size = (uint32_t)frame_v1;
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 12, SECOND, &frame.f), 0);
    CHECK_EQ(frame.f.size, frame_v1);
    CHECK_EQ(frame.f.frame, 12);
    for (size_t i = frame_v1; i < sizeof frame.raw; i++)
        CHECK_EQ(frame.raw[i], 0x5a);
    /* too small: refused */
    frame.f.size = (uint32_t)frame_v1 - 1;
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 12, SECOND, &frame.f), -EINVAL);
    opts.o.size = (uint32_t)options_v1;
    opts.o.pacing = 7;      /* past its size: not read */
    opts.o.size = sizeof opts.o;
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &opts.o));  /* max_latency ~0 ok, pacing 7 not */
    CHECK_EQ(errno, EINVAL);
    mf_stop(&s);
}

