/*
 * The swapchain when things go wrong or change, on a real Xvfb: a resize
 * in the middle of a run, the window destroyed, the server killed, a
 * destroy while another thread waits, bad arguments, and a main loop
 * driven by the swapchain's fd.
 *
 * Xvfb sends no ConfigureNotify when a window is destroyed and drops its
 * presentations silently: the swapchain must notice by itself.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/present.h>

#include "test-clock.h"
#include "test-runner.h"
#include "xvfb-fixture.h"

#define SECOND 1000000000LL

/* Runs frames until acquire or present fails; returns that error and
 * how long after `since` (ms) it came. */
static int frames_until_error(struct fixture *s, long long since, long long *after_ms)
{
    for (uint32_t n = 100; n < 400; n++) {
        xcb_present_util_image_t img = { .size = sizeof img };
        int r = xcb_present_util_acquire(s->sc, SECOND, &img);

        if (r == 0) {
            fixture_render(&img, n);
            r = xcb_present_util_present(s->sc, &img, NULL, 0);
        }
        if (r) {
            *after_ms = test_now_ms() - since;
            return r;
        }
    }
    *after_ms = test_now_ms() - since;
    return 0;
}

/* A FIFO swapchain on a 64x48 window with 20 frames sent: one in the
 * middle of a run, for the tests that pull the ground from under it. */
static void start_mid_run(struct fixture *s)
{
    fixture_start(s, 64, 48);
    fixture_swapchain(s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    for (uint32_t n = 1; n <= 20; n++)
        fixture_frame(s, n);
}

TEST(resize_mid_run_reallocates_buffers)
{
    struct fixture s;
    xcb_present_util_image_t img = { .size = sizeof img };
    uint32_t size[2] = { 300, 200 };
    uint32_t n = 0;
    bool new_size = false;

    fixture_start(&s, 160, 120);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    while (n < 20)
        fixture_frame(&s, ++n);
    xcb_configure_window(s.c, s.window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                         size);
    xcb_flush(s.c);
    /* Old-size buffers may still come while the size settles; within a
     * few frames every buffer has the new size. */
    while (n < 80) {
        CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
        CHECK((img.width == 160 && img.height == 120) || (img.width == 300 && img.height == 200));
        if (new_size)
            CHECK_EQ(img.width, 300);
        new_size = img.width == 300;
        CHECK_EQ(img.stride, img.width * 4u);
        fixture_render(&img, ++n);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    CHECK(new_size);
    fixture_finish_fifo_run(&s, 80, "resize, 80 frames", 300, 200);
}

TEST(destroyed_window_gives_enodev_quickly)
{
    struct fixture s;
    long long t0, after;
    int r;

    start_mid_run(&s);
    xcb_destroy_window(s.c, s.window);
    xcb_flush(s.c);
    t0 = test_now_ms();
    r = frames_until_error(&s, t0, &after);
    printf("# window destroyed: %s after %lld ms\n", strerror(-r), after);
    CHECK_EQ(r, -ENODEV);
    /* 100 ms on an idle machine; a loaded one gets slack */
    CHECK(after < 1000);
    /* It stays gone, and destroying the swapchain neither hangs nor
     * leaks (the test runner counts fds). */
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &(xcb_present_util_image_t){ .size = sizeof(xcb_present_util_image_t) }), -ENODEV);
    t0 = test_now_ms();
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK(test_now_ms() - t0 < 1000);
    CHECK_EQ(xcb_connection_has_error(s.c), 0);
    fixture_stop(&s);
}

TEST(killed_server_gives_epipe_quickly)
{
    struct fixture s;
    long long t0, after;
    int r;

    start_mid_run(&s);
    kill(s.server.pid, SIGKILL);
    t0 = test_now_ms();
    r = frames_until_error(&s, t0, &after);
    printf("# server killed: %s after %lld ms\n", strerror(-r), after);
    CHECK_EQ(r, -EPIPE);
    CHECK(after < 1000);
    CHECK_EQ(xcb_present_util_dispatch(s.sc), -EPIPE);
    fixture_stop(&s);
}

struct waiter {
    xcb_present_util_swapchain_t *sc;
    int result;
};

static void *wait_for_buffer(void *data)
{
    struct waiter *w = data;
    xcb_present_util_image_t img = { .size = sizeof img };

    w->result = xcb_present_util_acquire(w->sc, 5 * SECOND, &img);
    return NULL;
}

TEST(destroy_while_another_thread_waits_in_acquire)
{
    struct fixture s;
    xcb_present_util_image_t a = { .size = sizeof a }, b = { .size = sizeof b };
    struct waiter w = { 0 };
    pthread_t thread;
    long long t0;

    fixture_start(&s, 64, 48);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 2);
    /* Both buffers out: the thread's acquire has nothing to get. */
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &a), 0);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &b), 0);
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &(xcb_present_util_image_t){ .size = sizeof(xcb_present_util_image_t) }), -ETIMEDOUT);
    w.sc = s.sc;
    w.result = 1;
    CHECK_EQ(pthread_create(&thread, NULL, wait_for_buffer, &w), 0);
    test_sleep_ms(50);
    t0 = test_now_ms();
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK_EQ(pthread_join(thread, NULL), 0);
    CHECK_EQ(w.result, -ECANCELED);
    CHECK(test_now_ms() - t0 < 1000);
    fixture_stop(&s);
}

TEST(bad_arguments_are_refused)
{
    struct fixture s;
    xcb_present_util_options_t o = { .size = sizeof o, .mode = XCB_PRESENT_UTIL_MODE_FIFO,
                                     .backend = XCB_PRESENT_UTIL_BACKEND_AUTO, .num_buffers = 1,
                                     .swap_interval = 1, .render_fd = -1 };
    xcb_present_util_image_t img = { .size = sizeof img }, copy = { .size = sizeof copy };
    xcb_rectangle_t outside = { 60, 40, 10, 10 };

    fixture_start(&s, 64, 48);
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &o));
    CHECK_EQ(errno, EINVAL);
    o.num_buffers = 17;
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &o));
    CHECK_EQ(errno, EINVAL);
    o.num_buffers = 2;
    o.mode = (xcb_present_util_mode_t)7;
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &o));
    CHECK_EQ(errno, EINVAL);
    o.mode = XCB_PRESENT_UTIL_MODE_FIFO;
    CHECK(!xcb_present_util_swapchain_create(s.c, 0, &o));
    CHECK_EQ(errno, EINVAL);
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window + 1000, &o));
    CHECK_EQ(errno, ENODEV);
    /* Xvfb has no DRI3 */
    o.backend = XCB_PRESENT_UTIL_BACKEND_DRI3;
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &o));
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_connection_has_error(s.c), 0);

    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 2);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
    copy = img;
    copy.index = 5;
    CHECK_EQ(xcb_present_util_present(s.sc, &copy, NULL, 0), -EINVAL);
    copy = img;
    copy.pixels = &copy;
    CHECK_EQ(xcb_present_util_present(s.sc, &copy, NULL, 0), -EINVAL);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 1), -EINVAL);
    /* the refused frame's buffer came back: present it properly now */
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, &outside, 1), -EINVAL);
    CHECK_EQ(xcb_present_util_acquire(s.sc, SECOND, &img), 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), -EINVAL);    /* twice */
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_swapchain_fd(NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_dispatch(NULL), -EINVAL);
    CHECK(strcmp(xcb_present_util_mode_name(XCB_PRESENT_UTIL_MODE_MAILBOX), "mailbox") == 0);
    CHECK(strcmp(xcb_present_util_backend_name(XCB_PRESENT_UTIL_BACKEND_SHM), "shm") == 0);
    xcb_present_util_swapchain_destroy(NULL);
    fixture_stop(&s);
}

/* A main loop that sleeps in poll() on the swapchain's fd and never
 * blocks in the library: acquire with timeout 0, dispatch when readable. */
TEST(main_loop_on_the_swapchain_fd)
{
    struct fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };
    uint32_t n = 0;
    long long deadline = test_now_ms() + 5000;

    fixture_start(&s, 64, 48);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    for (;;) {
        struct pollfd p = { .fd = xcb_present_util_swapchain_fd(s.sc), .events = POLLIN };
        xcb_present_util_image_t img = { .size = sizeof img };
        int r;

        CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
        if (st.completed == 30)
            break;
        CHECK(test_now_ms() < deadline);
        while (n < 30 && (r = xcb_present_util_acquire(s.sc, 0, &img)) == 0) {
            fixture_render(&img, ++n);
            CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
        }
        CHECK(poll(&p, 1, 1000) >= 0);
        CHECK(xcb_present_util_dispatch(s.sc) >= 0);
    }
    CHECK_EQ(st.presented, 30);
    fixture_check_in_order(&s, 30);
    fixture_check_fifo(&s, "main loop, 30 frames");
    fixture_stop(&s);
}
