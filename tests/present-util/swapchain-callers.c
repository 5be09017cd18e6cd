/*
 * The swapchain used the way toolkits use it, on a real Xvfb: an event
 * thread in xcb_wait_for_event() on the same connection, a main loop that
 * only ever polls acquire() with timeout 0, and a first frame that comes
 * long after the swapchain was made.
 *
 * Time bounds are generous; each tells "bounded" from the whole second a
 * lost wake-up costs, never a fast machine from a slow one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/present.h>

#include "test-clock.h"
#include "test-runner.h"
#include "xcb_dri3_util_wait.h"
#include "xvfb-fixture.h"

#define STOP_ATOM 0x51u     /* a ClientMessage type that ends the event thread */

/* A toolkit's event thread: reads the connection until told to stop. */
static void *event_thread(void *data)
{
    xcb_connection_t *c = data;
    xcb_generic_event_t *ev;

    while ((ev = xcb_wait_for_event(c))) {
        bool stop = (ev->response_type & 0x7f) == XCB_CLIENT_MESSAGE &&
                    ((xcb_client_message_event_t *)ev)->type == STOP_ATOM;

        free(ev);
        if (stop)
            break;
    }
    return NULL;
}

/* A ClientMessage to our own window with an empty mask goes to its
 * creator: us, through the event thread's xcb_wait_for_event(). */
static void stop_event_thread(struct fixture *s, pthread_t thread)
{
    xcb_client_message_event_t ev = { .response_type = XCB_CLIENT_MESSAGE, .format = 32,
                                      .window = s->window, .type = STOP_ATOM };

    xcb_send_event(s->c, 0, s->window, 0, (const char *)&ev);
    xcb_flush(s->c);
    CHECK_EQ(pthread_join(thread, NULL), 0);
}

/* Case 5: with another thread reading the connection, every round trip
 * of create() and every wait of acquire() still wakes when its answer
 * came, not at the end of its bound (3 s for create before). */
TEST(event_thread_on_the_same_connection)
{
    struct fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };
    pthread_t thread;
    long long t;

    fixture_start(&s, 96, 64);
    CHECK_EQ(xcb_dri3_util_set_timeout(s.c, 10 * 1000000000LL), 0);
    CHECK_EQ(pthread_create(&thread, NULL, event_thread, s.c), 0);
    test_sleep_ms(50);       /* the thread is in xcb_wait_for_event() */
    t = test_now_ms();
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    printf("# create with an event thread: %lld ms\n", test_now_ms() - t);
    CHECK(test_now_ms() - t < 2000);
    t = test_now_ms();
    for (uint32_t n = 1; n <= 60; n++)
        fixture_frame(&s, n);
    fixture_wait_completed(&s, 60, 5000);
    printf("# 60 FIFO frames with an event thread: %lld ms\n", test_now_ms() - t);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.completed, 60);
    fixture_check_in_order(&s, 60);
    t = test_now_ms();
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK(test_now_ms() - t < 1000);
    stop_event_thread(&s, thread);
    fixture_stop(&s);
}

/* Case 1: a main loop that polls acquire() with timeout 0 and sleeps 1 ms
 * when nothing is free, never calling dispatch(): acquire() takes in what
 * has arrived, so frames keep coming. */
TEST(poll_loop_with_timeout_zero)
{
    struct fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };
    long long start;
    uint32_t n = 0;

    fixture_start(&s, 96, 64);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    start = test_now_ms();
    while (n < 30 && test_now_ms() - start < 5000) {
        xcb_present_util_image_t img = { .size = sizeof img };
        int r = xcb_present_util_acquire(s.sc, 0, &img);

        if (r == -ETIMEDOUT) {
            test_sleep_ms(1);
            continue;
        }
        CHECK_EQ(r, 0);
        fixture_render(&img, ++n);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    printf("# %u frames presented by acquire(0) in %lld ms\n", n, test_now_ms() - start);
    CHECK_EQ(n, 30);
    fixture_wait_completed(&s, 30, 3000);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.completed, 30);
    fixture_stop(&s);
}

/* Case 7: the first frame comes half a second after create() (a program
 * that loads its assets first).  FIFO aims every frame at a vblank still
 * to come, not at ones counted from create()'s reading, which had all
 * passed: no frame aims before the first frame was shown, and frames are
 * replaced only where the server's timer ran late. */
TEST(fifo_first_frame_long_after_create)
{
    struct fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };

    fixture_start(&s, 96, 64);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    test_sleep_ms(500);
    for (uint32_t n = 1; n <= 20; n++)
        fixture_frame(&s, n);
    fixture_wait_completed(&s, 20, 3000);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.completed, 20);
    fixture_check_in_order(&s, 20);
    for (uint32_t i = 1; i < 20; i++)
        CHECK(s.log[i].target_msc > s.log[0].msc);
    fixture_check_fifo(&s, "fifo, first frame 500 ms after create");
    printf("# skipped %llu of 20\n", (unsigned long long)st.skipped);
    CHECK(st.skipped <= 5);
    fixture_stop(&s);
}
