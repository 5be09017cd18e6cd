/*
 * Bounded waits.  libxcb's xcb_wait_for_reply() and
 * xcb_wait_for_special_event() can wait for ever (a server that stopped
 * answering, or a window that Xvfb dropped without a word).  Round trips
 * go through libxcb-dri3-util's bounded wait, which also wakes when
 * another thread read the reply; event waits poll the connection's fd
 * against a deadline here, in ticks, for the same reason.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcbext.h>

#include "swapchain-private.h"
#include "xcb_dri3_util_wait.h"

uint64_t sc_round_trip_deadline(sc_t *sc)
{
    return (uint64_t)xcb_dri3_util_deadline(sc->c);
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

int sc_wait_reply(sc_t *sc, unsigned int sequence, void **reply,
                  xcb_generic_error_t **error)
{
    int r = xcb_dri3_util_wait_reply(sc->c, sequence, 0, xcb_dri3_util_deadline(sc->c), -1,
                                     reply, error);

    if (r == -EPIPE)
        sc_conn_ok(sc);
    if (r == -ETIMEDOUT)
        sc_log(sc, "round trip: no reply to request %u in time", sequence);
    return r;
}

int sc_check_void_by(sc_t *sc, xcb_void_cookie_t cookie, uint64_t deadline_ns)
{
    int r = xcb_dri3_util_wait_void(sc->c, cookie, (int64_t)deadline_ns, -1);

    if (r == -EPIPE)
        sc_conn_ok(sc);
    if (r == -ETIMEDOUT)
        sc_log(sc, "round trip: no answer to request %u in time", cookie.sequence);
    return r;
}

int sc_check_void(sc_t *sc, xcb_void_cookie_t cookie)
{
    return sc_check_void_by(sc, cookie, sc_round_trip_deadline(sc));
}

void sc_forget_checked(sc_t *sc, xcb_void_cookie_t cookie)
{
    /* A deadline that has passed: the request is abandoned at once, and
     * libxcb-dri3-util takes its answer in whenever it comes. */
    xcb_dri3_util_wait_void(sc->c, cookie, 0, -1);
}

void sc_probe_send(sc_t *sc)
{
    if (sc->probe.sequence)
        return;
    sc->probe.sequence = xcb_get_geometry(sc->c, sc->window).sequence;
    sc->probe.size_stale = false;
    sc->probe.deadline_ns = sc_round_trip_deadline(sc);
    xcb_flush(sc->c);
    sc_log(sc, "probe: GetGeometry of window 0x%x sent", sc->window);
}

int sc_probe_poll(sc_t *sc)
{
    xcb_get_geometry_reply_t *g = NULL;
    xcb_generic_error_t *e = NULL;

    if (!sc->probe.sequence)
        return 0;
    if (!xcb_poll_for_reply(sc->c, sc->probe.sequence, (void **)&g, &e)) {
        if ((uint64_t)deadline_now_ns() < sc->probe.deadline_ns)
            return 0;
        /* Not answered within the bound: given up, so that no round trip
         * outlives it (libxcb drops the reply if it still comes); the
         * next quiet while asks again. */
        sc_log(sc, "probe: GetGeometry of window 0x%x not answered in time: given up",
               sc->window);
        xcb_discard_reply(sc->c, sc->probe.sequence);
        sc->probe.sequence = 0;
        return -ETIMEDOUT;
    }
    sc->probe.sequence = 0;
    if (e) {
        int code = e->error_code;

        free(e);
        sc_log(sc, "probe: GetGeometry of window 0x%x: error %d", sc->window, code);
        if (code == XCB_WINDOW || code == XCB_DRAWABLE)
            sc->dead = -ENODEV;
        return 0;
    }
    if (!g)
        return sc_conn_ok(sc);
    sc_log(sc, "probe: window 0x%x is %ux%u%s", sc->window, g->width, g->height,
           sc->probe.size_stale ? " (older than a ConfigureNotify taken since: ignored)" : "");
    /* a size no window can have: ignored, as in a ConfigureNotify */
    if (!g->width || !g->height || g->width > SC_MAX_WINDOW_SIDE ||
        g->height > SC_MAX_WINDOW_SIDE)
        sc_log(sc, "  no window is %ux%u: size ignored", g->width, g->height);
    else if (!sc->probe.size_stale &&
             (g->width != sc->win_width || g->height != sc->win_height)) {
        sc_set_window_size(sc, g->width, g->height);
        sc->size_changed_ns = (uint64_t)deadline_now_ns();
    }
    free(g);
    return 0;
}

/* Without another reader seen, the look at the queue waits until well
 * after the next vblank the clock predicts, half a refresh, when its
 * completion has come even from a server whose vblank timer fires late
 * (Xvfb's, by milliseconds under load): a FIFO wait then wakes once a
 * frame, for the completion, instead of every SC_WAIT_TICK_NS or once
 * early and once more.  A reader elsewhere that took our completion off
 * the socket is noticed that much later, once. */
static uint64_t quiet_tick(const sc_t *sc, uint64_t now, uint64_t tick)
{
    uint64_t next = sc->msc.have_msc ? sc_clock_vblank_ns(sc, sc->msc.last_msc + 1) : 0;
    uint64_t period = sc_clock_period_ns(sc), after;

    if (next && period && next <= now)
        next += ((now - next) / period + 1) * period;
    after = period / 2 > 2000000 ? period / 2 : 2000000;
    if (next && next + after - now > tick && next + after - now < 4 * tick)
        return next + after - now;
    return tick;
}

bool sc_sleep_unlocked(sc_t *sc, uint64_t deadline_ns)
{
    /* poll() passes over a negative fd: a wait for a moment alone does
     * not wake for the server (SC_MOMENT_ONLY_NS) */
    bool moment_only = sc->moment_only;
    struct pollfd p[3] = {
        { .fd = moment_only ? -1 : xcb_get_file_descriptor(sc->c), .events = POLLIN },
        { .fd = sc->cancel_fd, .events = POLLIN },
        /* release points that came (explicit sync) */
        { .fd = moment_only ? -1 : sc_idle_fd(sc), .events = POLLIN },
    };
    uint64_t now = (uint64_t)deadline_now_ns();
    bool foreign = sc->foreign_reader_ns && now - sc->foreign_reader_ns < SC_FOREIGN_MEMORY_NS;
    uint64_t tick = foreign ? SC_FOREIGN_TICK_NS : SC_WAIT_TICK_NS;
    uint32_t stamp = __atomic_load_n(&sc->stamp, __ATOMIC_ACQUIRE);
    struct timespec ts;
    int n;

    if (now >= deadline_ns)
        return false;
    /* frames that completed while the wait looked are told now, not when
     * it ends */
    sc_deliver_callbacks(sc);
    now = (uint64_t)deadline_now_ns();
    if (now >= deadline_ns)
        return false;
    if (!foreign)
        tick = quiet_tick(sc, now, tick);
    /* the ticks look at the queue, which a wait for a moment leaves until
     * the moment */
    if (!moment_only && deadline_ns > now + tick)
        deadline_ns = now + tick;
    /* ppoll: LOW_LATENCY's moment wants better than poll()'s milliseconds */
    ts.tv_sec = (time_t)((deadline_ns - now) / 1000000000u);
    ts.tv_nsec = (long)((deadline_ns - now) % 1000000000u);
    pthread_mutex_unlock(&sc->lock);
    n = ppoll(p, 3, &ts, NULL);
    pthread_mutex_lock(&sc->lock);
    if (n > 0 && (p[2].revents & POLLIN))
        sc->backend->drain_idle_fd(sc);
    /* Nothing on the socket, yet libxcb queued events for us meanwhile:
     * another thread reads the connection (a toolkit's event thread in
     * xcb_wait_for_event()).  Its reads never wake our poll(), so from now
     * on the waits look at the queue every SC_FOREIGN_TICK_NS. */
    if (n == 0 && __atomic_load_n(&sc->stamp, __ATOMIC_ACQUIRE) != stamp) {
        if (!foreign)
            sc_log(sc, "another thread reads the connection: waits look every %lld us",
                   SC_FOREIGN_TICK_NS / 1000);
        sc->foreign_reader_ns = (uint64_t)deadline_now_ns();
    }
    return n == 0 && !moment_only &&
           __atomic_load_n(&sc->stamp, __ATOMIC_ACQUIRE) == sc->drained_stamp;
}

int sc_wait_writable(sc_t *sc, uint64_t deadline_ns)
{
    struct pollfd p = { .fd = xcb_get_file_descriptor(sc->c), .events = POLLOUT };

    for (;;) {
        uint64_t now = (uint64_t)deadline_now_ns();
        int n;

        if (sc_conn_ok(sc))
            return -EPIPE;
        n = poll(&p, 1, deadline_poll_ms((int64_t)deadline_ns, (int64_t)now));
        if (n > 0 && (p.revents & (POLLERR | POLLHUP)))
            return -EPIPE;
        if (n > 0)
            return 0;
        if ((uint64_t)deadline_now_ns() >= deadline_ns)
            return -ETIMEDOUT;
    }
}

const xcb_query_extension_reply_t *sc_extension(sc_t *sc, xcb_extension_t *ext, int *error)
{
    xcb_get_input_focus_reply_t *sync = NULL;
    xcb_generic_error_t *e = NULL;
    int r;

    /* xcb_get_extension_data() waits for the QueryExtension reply with
     * libxcb's unbounded wait.  So the query goes out first, a round trip
     * after it is waited for with a bound, and only then is libxcb asked:
     * the reply came before the round trip's, so the answer is there. */
    xcb_prefetch_extension_data(sc->c, ext);
    r = sc_wait_reply(sc, xcb_get_input_focus(sc->c).sequence, (void **)&sync, &e);
    free(sync);
    free(e);
    *error = r < 0 ? r : 0;
    return r < 0 ? NULL : xcb_get_extension_data(sc->c, ext);
}

int sc_wait_for(sc_t *sc, int64_t timeout_ns, uint64_t round_trip_min_ns, sc_wait_step_t step,
                void *arg, const char *what)
{
    uint64_t deadline, round_trips_until, now = (uint64_t)deadline_now_ns();
    xcb_dri3_util_wait_scope_t scope;
    int r = 0;

    if (sc->destroying)
        return -ECANCELED;
    sc->waiters++;
    deadline = now + (uint64_t)(timeout_ns < 0 || timeout_ns > SC_MAX_WAIT_NS ? SC_MAX_WAIT_NS
                                                                              : timeout_ns);
    /* The round trips a step makes end with the wait (or, when that is
     * sooner, after round_trip_min_ns), and with destroy()'s cancel fd. */
    round_trips_until = deadline;
    if (round_trips_until < now + round_trip_min_ns)
        round_trips_until = now + round_trip_min_ns;
    scope = xcb_dri3_util_wait_scope_push((int64_t)round_trips_until, sc->cancel_fd);
    for (bool quiet = false;; ) {
        uint64_t wake = 0;

        /* What has arrived is taken in first, every time, even by a caller
         * that only looks (timeout 0); after a quiet sleep nothing has
         * (LOW_LATENCY's sleep until its moment), and only the frames
         * overdue by now are looked at. */
        if (quiet && !sc->probe.sequence) {
            sc_recover_by_time(sc, (uint64_t)deadline_now_ns());
            r = 0;
        } else {
            r = sc_drain_events(sc);
            if (r >= 0)
                r = sc_probe_poll(sc);
        }
        if (r < 0 && r != -ETIMEDOUT)
            break;
        if (sc->destroying) {
            r = -ECANCELED;
            break;
        }
        if (sc->dead) {
            r = sc->dead;
            break;
        }
        sc->moment_only = false;    /* the step says so anew */
        if (step(sc, arg, &r, &wake))
            break;
        now = (uint64_t)deadline_now_ns();
        /* Xvfb drops a destroyed window's presentations without a word:
         * after a quiet while, ask whether the window is still there (the
         * answer is taken in above, whenever it comes). */
        if (timeout_ns != 0 && now >= sc->probe.after_ns &&
            now - sc->last_activity_ns >= SC_PROBE_AFTER_NS) {
            sc_probe_send(sc);
            sc->probe.after_ns = now + SC_PROBE_AFTER_NS;
        }
        if (now >= deadline) {
            sc_log(sc, "%s: nothing after %lld ns", what, (long long)timeout_ns);
            r = -ETIMEDOUT;
            break;
        }
        quiet = sc_sleep_unlocked(sc, wake && wake < deadline ? wake : deadline);
    }
    xcb_dri3_util_wait_scope_pop(scope);
    sc->waiters--;
    if (sc->destroying)
        pthread_cond_broadcast(&sc->idle_cond);
    return r;
}
