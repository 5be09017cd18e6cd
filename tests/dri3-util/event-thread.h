/*
 * What a toolkit's event thread does, for the tests of the bounded waits:
 * a thread that sleeps in xcb_wait_for_event() on the test's connection
 * and so reads every reply off the socket before the waiting thread can.
 * It stops at the first BadPixmap that reaches the event queue, which
 * event_thread_stop() provokes with an unchecked FreePixmap.
 */
#ifndef EVENT_THREAD_H
#define EVENT_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include "test-runner.h"

struct event_thread {
    pthread_t thread;
    xcb_connection_t *c;
    int events;             /* what reached the event queue, BadPixmap included */
};

static inline void *event_thread_loop(void *arg)
{
    struct event_thread *et = arg;
    xcb_generic_event_t *ev;

    while ((ev = xcb_wait_for_event(et->c))) {
        bool last = ev->response_type == 0 &&
                    ((xcb_generic_error_t *)ev)->error_code == XCB_PIXMAP;

        et->events++;
        free(ev);
        if (last)
            break;
    }
    return NULL;
}

static inline void event_thread_start(struct event_thread *et, xcb_connection_t *c)
{
    et->c = c;
    et->events = 0;
    CHECK_EQ(pthread_create(&et->thread, NULL, event_thread_loop, et), 0);
    /* Give it time to reach xcb_wait_for_event(): not needed for the
     * tests to hold, but needed for them to test what they mean to. */
    usleep(20000);
}

static inline void event_thread_stop(struct event_thread *et)
{
    xcb_free_pixmap(et->c, 0x00abcdef);     /* an error for the event queue */
    xcb_flush(et->c);
    CHECK_EQ(pthread_join(et->thread, NULL), 0);
}

#endif
