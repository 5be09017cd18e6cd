/*
 * Bounded waits.  libxcb's xcb_wait_for_reply() and
 * xcb_wait_for_special_event() can wait for ever (a server that stopped
 * answering, or a window that Xvfb dropped without a word); every wait
 * here polls the connection's fd against a deadline instead, and uses
 * libxcb's non-blocking calls to read.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcbext.h>

#include "swapchain-private.h"

uint64_t sc_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int sc_conn_ok(sc_t *sc)
{
    if (xcb_connection_has_error(sc->c)) {
        if (sc->dead != -EPIPE)
            sc_log(sc, "connection broken (error %d)", xcb_connection_has_error(sc->c));
        sc->dead = -EPIPE;
        return -EPIPE;
    }
    return 0;
}

/* poll() on the connection for at most the time left to deadline_ns. */
static void poll_conn(sc_t *sc, uint64_t deadline_ns)
{
    struct pollfd p = { .fd = xcb_get_file_descriptor(sc->c), .events = POLLIN };
    uint64_t now = sc_now_ns();
    int ms;

    if (now >= deadline_ns)
        return;
    ms = (int)((deadline_ns - now + 999999) / 1000000);
    poll(&p, 1, ms);
}

int sc_wait_reply(sc_t *sc, unsigned int sequence, void **reply,
                  xcb_generic_error_t **error)
{
    uint64_t deadline = sc_now_ns() + SC_ROUND_TRIP_NS;

    *reply = NULL;
    *error = NULL;
    xcb_flush(sc->c);
    for (;;) {
        if (xcb_poll_for_reply(sc->c, sequence, reply, error))
            return *error ? 1 : (*reply ? 0 : -EPIPE);
        if (sc_conn_ok(sc))
            return -EPIPE;
        if (sc_now_ns() >= deadline)
            return -ETIMEDOUT;
        poll_conn(sc, deadline);
    }
}

int sc_check_void(sc_t *sc, xcb_void_cookie_t cookie)
{
    xcb_get_input_focus_cookie_t sync = xcb_get_input_focus(sc->c);
    xcb_generic_error_t *error = NULL;
    void *reply = NULL;
    int r = sc_wait_reply(sc, sync.sequence, &reply, &error);

    free(reply);
    free(error);
    if (r < 0)
        return r;
    /* The round trip is complete, so libxcb knows the checked request's
     * outcome: this does not block. */
    error = xcb_request_check(sc->c, cookie);
    if (error) {
        r = error->error_code;
        free(error);
    }
    return r;
}

int sc_probe_window(sc_t *sc)
{
    xcb_get_geometry_cookie_t ck = xcb_get_geometry(sc->c, sc->window);
    xcb_get_geometry_reply_t *g;
    xcb_generic_error_t *e;
    int r = sc_wait_reply(sc, ck.sequence, (void **)&g, &e);

    if (r < 0)
        return r;
    if (r == 1) {
        int code = e->error_code;

        free(e);
        sc_log(sc, "probe: GetGeometry of window 0x%x: error %d", sc->window, code);
        if (code == XCB_WINDOW || code == XCB_DRAWABLE) {
            sc->dead = -ENODEV;
            return -ENODEV;
        }
        return 0;
    }
    sc_log(sc, "probe: window 0x%x is %ux%u", sc->window, g->width, g->height);
    if (g->width != sc->win_width || g->height != sc->win_height) {
        sc->win_width = g->width;
        sc->win_height = g->height;
        sc->size_changed_ns = sc_now_ns();
    }
    free(g);
    return 0;
}

void sc_sleep_unlocked(sc_t *sc, uint64_t deadline_ns)
{
    struct pollfd p[2] = {
        { .fd = xcb_get_file_descriptor(sc->c), .events = POLLIN },
        { .fd = sc->cancel_fd, .events = POLLIN },
    };
    uint64_t now = sc_now_ns();
    int ms;

    if (now >= deadline_ns)
        return;
    ms = (int)((deadline_ns - now + 999999) / 1000000);
    pthread_mutex_unlock(&sc->lock);
    poll(p, 2, ms);
    pthread_mutex_lock(&sc->lock);
}
