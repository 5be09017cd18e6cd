/* See xvfb-fixture.h. */
#include "xvfb-fixture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/present.h>

#include "test-clock.h"
#include "test-runner.h"
#include "swapchain-or-fail.h"

static void on_frame(void *data, const xcb_present_util_frame_t *f)
{
    struct fixture *s = data;

    if (s->n_log < FIXTURE_MAX_FRAMES)
        s->log[s->n_log] = *f;
    s->n_log++;
}

/* The server this program was built for (-DFIXTURE_SERVER=...). */
#ifndef FIXTURE_SERVER
#define FIXTURE_SERVER "xvfb"
#endif

void fixture_start(struct fixture *s, uint16_t width, uint16_t height)
{
    fixture_start_window(s, width, height, false);
}

void fixture_start_window(struct fixture *s, uint16_t width, uint16_t height, bool managed)
{
    const xcb_screen_t *screen;
    int kind;
    uint32_t values[2];         /* background pixel, override-redirect */

    memset(s, 0, sizeof *s);
    kind = test_server_start_for_test(&s->server, FIXTURE_SERVER);
    values[0] = 0;
    values[1] = test_server_manages_windows(kind) && !managed;
    s->c = xcb_connect(s->server.display, NULL);
    if (xcb_connection_has_error(s->c)) {
        test_server_stop(&s->server);
        test_fail(__FILE__, __LINE__, "cannot connect to %s on %s", FIXTURE_SERVER,
                  s->server.display);
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(s->c)).data;
    s->window = xcb_generate_id(s->c);
    xcb_create_window(s->c, XCB_COPY_FROM_PARENT, s->window, screen->root, 0, 0, width, height,
                      0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    xcb_map_window(s->c, s->window);
    xcb_flush(s->c);
}

void fixture_swapchain(struct fixture *s, xcb_present_util_mode_t mode,
                       xcb_present_util_backend_t backend, uint32_t num_buffers)
{
    s->sc = swapchain_or_fail(s->c, s->window, mode, backend, num_buffers, on_frame, s);
}

void fixture_swapchain_with(struct fixture *s, const xcb_present_util_options_t *o)
{
    s->sc = swapchain_with_options_or_fail(s->c, s->window, o, on_frame, s);
}

void fixture_stop(struct fixture *s)
{
    xcb_present_util_swapchain_destroy(s->sc);
    s->sc = NULL;
    if (s->c)
        xcb_disconnect(s->c);
    s->c = NULL;
    test_server_stop(&s->server);
}

void fixture_render(const xcb_present_util_image_t *img, uint32_t n)
{
    for (uint32_t y = 0; y < img->height; y++) {
        uint32_t *row = (uint32_t *)((uint8_t *)img->pixels + (size_t)y * img->stride);

        for (uint32_t x = 0; x < img->width; x++)
            row[x] = fixture_pixel(n, x, y);
    }
}

void fixture_frame(struct fixture *s, uint32_t n)
{
    xcb_present_util_image_t img = { .size = sizeof img };
    int r = xcb_present_util_acquire(s->sc, 1000000000, &img);

    if (r)
        test_fail(__FILE__, __LINE__, "acquire for frame %u: %s", n, strerror(-r));
    fixture_render(&img, n);
    r = xcb_present_util_present(s->sc, &img, NULL, 0);
    if (r)
        test_fail(__FILE__, __LINE__, "present of frame %u: %s", n, strerror(-r));
}

void fixture_wait_completed(struct fixture *s, uint64_t completed, int timeout_ms)
{
    int64_t deadline = test_now_ms() + timeout_ms;
    xcb_present_util_stats_t st = { .size = sizeof st };

    for (;;) {
        CHECK(xcb_present_util_dispatch(s->sc) >= 0);
        CHECK_EQ(xcb_present_util_swapchain_stats(s->sc, &st), 0);
        if (st.completed >= completed)
            return;
        if (!test_poll_until(xcb_present_util_swapchain_fd(s->sc), deadline, 50))
            test_fail(__FILE__, __LINE__, "%llu of %llu frames completed",
                      (unsigned long long)st.completed, (unsigned long long)completed);
    }
}

void fixture_check_window_shows(struct fixture *s, uint32_t n, uint16_t w, uint16_t h)
{
    xcb_get_image_cookie_t ck = xcb_get_image(s->c, XCB_IMAGE_FORMAT_Z_PIXMAP, s->window, 0, 0,
                                              w, h, ~0u);
    xcb_get_image_reply_t *img = xcb_get_image_reply(s->c, ck, NULL);
    const uint32_t *px;

    CHECK(img != NULL);
    CHECK_EQ(xcb_get_image_data_length(img), (int)w * h * 4);
    px = (const uint32_t *)xcb_get_image_data(img);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if ((px[y * w + x] & 0xffffff) != fixture_pixel(n, x, y)) {
                uint32_t got = px[y * w + x] & 0xffffff;

                free(img);
                test_fail(__FILE__, __LINE__, "pixel %u,%u is 0x%06x, frame %u has 0x%06x", x,
                          y, got, n, fixture_pixel(n, x, y));
            }
    free(img);
}

void fixture_check_in_order(const struct fixture *s, uint32_t n)
{
    static bool seen[FIXTURE_MAX_FRAMES + 1];
    uint64_t last_shown = 0;

    CHECK_EQ(s->n_log, n);
    CHECK(n <= FIXTURE_MAX_FRAMES);
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < n; i++) {
        const xcb_present_util_frame_t *f = &s->log[i];

        if (f->frame < 1 || f->frame > n || seen[f->frame])
            test_fail(__FILE__, __LINE__, "completion %u is frame %llu", i + 1,
                      (unsigned long long)f->frame);
        seen[f->frame] = true;
        /* A replaced frame's completion comes at its own vblank, which
         * may be after the frame that replaced it; shown ones keep order. */
        if (f->mode == XCB_PRESENT_COMPLETE_MODE_SKIP)
            continue;
        if (f->frame < last_shown)
            test_fail(__FILE__, __LINE__, "frame %llu shown after frame %llu",
                      (unsigned long long)f->frame, (unsigned long long)last_shown);
        last_shown = f->frame;
    }
}

static bool shown_late(const xcb_present_util_frame_t *f)
{
    return f->target_msc && f->msc > f->target_msc;
}

void fixture_check_fifo(const struct fixture *s, const char *what)
{
    uint32_t server_late = 0, client_late = 0, skipped_late = 0, n = s->n_log;

    if (n > FIXTURE_MAX_FRAMES)
        n = FIXTURE_MAX_FRAMES;
    for (uint32_t i = 0; i < n; i++) {
        const xcb_present_util_frame_t *f = &s->log[i];

        if (f->target_msc && f->msc < f->target_msc)
            test_fail(__FILE__, __LINE__, "frame %llu shown at msc %llu before its target %llu",
                      (unsigned long long)f->frame, (unsigned long long)f->msc,
                      (unsigned long long)f->target_msc);
        if (f->mode == XCB_PRESENT_COMPLETE_MODE_SKIP) {
            if (!shown_late(f))
                test_fail(__FILE__, __LINE__, "frame %llu skipped at its target msc %llu",
                          (unsigned long long)f->frame, (unsigned long long)f->msc);
            skipped_late++;
            continue;
        }
        if (i > 0 && f->msc <= s->log[i - 1].msc && !shown_late(f) && !shown_late(f - 1))
            test_fail(__FILE__, __LINE__, "frame %llu shown at msc %llu, frame %llu at %llu",
                      (unsigned long long)f->frame, (unsigned long long)f->msc,
                      (unsigned long long)s->log[i - 1].frame,
                      (unsigned long long)s->log[i - 1].msc);
        if (!shown_late(f))
            continue;
        if (f->client_late)
            client_late++;
        else
            server_late++;
    }
    printf("# %s: %u shown late although sent in time (the server's timer), %u sent late, "
           "%u replaced after the server found them late\n", what, server_late, client_late,
           skipped_late);
}

void fixture_finish_fifo_run(struct fixture *s, uint32_t n, const char *what, uint16_t w,
                             uint16_t h)
{
    xcb_present_util_stats_t st = { .size = sizeof st };

    fixture_wait_completed(s, n, 3000);
    CHECK_EQ(xcb_present_util_swapchain_stats(s->sc, &st), 0);
    CHECK_EQ(st.completed, n);
    fixture_check_in_order(s, n);
    fixture_check_fifo(s, what);
    fixture_check_window_shows(s, n, w, h);
    fixture_stop(s);
}
