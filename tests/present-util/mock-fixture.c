/* The mock fixture of the swapchain tests (mock-fixture.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/present.h>

#include "mock-fixture.h"
#include "mock-session.h"
#include "test-runner.h"
#include "swapchain-or-fail.h"

#define SECOND MF_SECOND


static void mf_on_frame(void *data, const xcb_present_util_frame_t *f)
{
    struct mock_fixture *s = data;

    if (s->n_log < 256)
        s->log[s->n_log] = *f;
    s->n_log++;
}

/* The mock with "KEY VALUE" pairs (NULL-terminated), a connection and a
 * mapped 64x48 window. */
void mf_start(struct mock_fixture *s, const char *const *kv)
{
    struct mock_config *cfg = mock_config_new();
    const xcb_screen_t *screen;

    memset(s, 0, sizeof *s);
    CHECK(cfg != NULL);
    for (; kv && kv[0]; kv += 2)
        CHECK_EQ(mock_config_set(cfg, kv[0], kv[1]), 0);
    screen = mock_session_start(cfg, &s->server, &s->c);
    s->window = mock_session_window(s->c, screen);
    xcb_flush(s->c);
}

void mf_swapchain(struct mock_fixture *s, xcb_present_util_mode_t mode,
                      xcb_present_util_backend_t backend, uint32_t n)
{
    s->sc = swapchain_or_fail(s->c, s->window, mode, backend, n, mf_on_frame, s);
}

void mf_swapchain_with(struct mock_fixture *s, const xcb_present_util_options_t *o)
{
    s->sc = swapchain_with_options_or_fail(s->c, s->window, o, mf_on_frame, s);
}

void mf_stop(struct mock_fixture *s)
{
    xcb_present_util_swapchain_destroy(s->sc);
    xcb_disconnect(s->c);
    mock_server_free(s->server);
}

uint32_t mf_pixel(uint32_t n, uint32_t x, uint32_t y)
{
    return (n * 0x030507u + x + y * 0x100u) & 0xffffffu;
}

int mf_frame(struct mock_fixture *s, uint32_t n)
{
    xcb_present_util_image_t img = { .size = sizeof img };
    int r = xcb_present_util_acquire(s->sc, SECOND, &img);

    if (r)
        return r;
    for (uint32_t y = 0; y < img.height; y++)
        for (uint32_t x = 0; x < img.width; x++)
            ((uint32_t *)((uint8_t *)img.pixels + (size_t)y * img.stride))[x] = mf_pixel(n, x, y);
    return xcb_present_util_present(s->sc, &img, NULL, 0);
}

void mf_wait_completed(struct mock_fixture *s, uint64_t n)
{
    xcb_present_util_stats_t st = { .size = sizeof st };

    for (int i = 0; i < 300; i++) {
        struct timespec ts = { 0, 10000000 };

        CHECK(xcb_present_util_dispatch(s->sc) >= 0);
        CHECK_EQ(xcb_present_util_swapchain_stats(s->sc, &st), 0);
        if (st.completed >= n)
            return;
        nanosleep(&ts, NULL);
    }
    test_fail(__FILE__, __LINE__, "%llu of %llu frames completed",
              (unsigned long long)st.completed, (unsigned long long)n);
}

void mf_check_window_shows(struct mock_fixture *s, uint32_t n)
{
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        s->c, xcb_get_image(s->c, XCB_IMAGE_FORMAT_Z_PIXMAP, s->window, 0, 0, 64, 48, ~0u),
        NULL);
    const uint32_t *px;

    CHECK(img != NULL);
    px = (const uint32_t *)xcb_get_image_data(img);
    for (uint32_t y = 0; y < 48; y++)
        for (uint32_t x = 0; x < 64; x++)
            if ((px[y * 64 + x] & 0xffffff) != mf_pixel(n, x, y)) {
                free(img);
                test_fail(__FILE__, __LINE__, "pixel %u,%u is not frame %u's", x, y, n);
            }
    free(img);
}

void mf_check_in_order(const struct mock_fixture *s, uint32_t n)
{
    CHECK_EQ(s->n_log, n);
    for (uint32_t i = 0; i < n; i++)
        CHECK_EQ(s->log[i].frame, i + 1);
}

