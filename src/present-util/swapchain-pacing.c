/*
 * When acquire() hands out the next buffer in the FIFO modes: no more than
 * max_latency frames queued ahead of the screen, and in LOW_LATENCY pacing
 * not before the latest moment that still makes the next vblank.
 *
 * The moment for vblank V is
 *     deadline(V) - render - margin
 * where deadline(V) = V - latch is the last moment a present() still
 * reaches V.  Half a period before V is that moment on every server: a
 * server whose MSC reads rounded to the nearest vblank (Xvfb) counts V
 * from half a period before it, and moves a frame whose target it thinks
 * has come to the vblank after (Present's rule for frames without the
 * Async option).  But the vblank the clock predicts is the earliest its
 * readings allow, and a server's own moment is later than that bound
 * (a server that does not round takes frames up to the vblank itself).
 * So the latch is learnt from the completions: after a run of
 * SC_LATCH_HITS hits with the margin at its floor (a wider margin sends
 * frames that much earlier, and a latch too late would not show) it
 * moves SC_LATCH_STEP_NS later, never past a
 * quarter period before V; a frame sent in time for a learnt latch later
 * than half a period that misses its vblank moves it back two steps, and
 * it then holds for SC_LATCH_HOLD hits, so that trying costs one miss in
 * more than a thousand frames.  render is a high
 * percentile of the caller's recent acquire()-to-present() times, and the
 * margin covers what the percentile does not: after a frame that missed
 * the vblank it was paced for because it came late, it grows by what that
 * frame lacked (and a guard), and it shrinks by an eighth after a run of
 * hits, so that one slow frame costs latency for a while and the latency
 * comes back slowly.  A caller slower than a period is paced
 * every k-th vblank, k the periods its render time and margin need: one
 * rate it can hold, not two it alternates between.
 *
 * Readiness: the swapchain's fd (get_fd) holds an eventfd that is kept
 * signalled exactly while acquire(0) would hand out a buffer, and a timer
 * fd armed for the next moment, so that a main loop wakes when the slot
 * opens, without a thread.
 */
#include <sys/timerfd.h>
#include <unistd.h>

#include "swapchain-private.h"

/* Frames presented and not yet shown; a caller that holds several
 * acquired buffers at once may present them all (they are its choice). */
bool sc_latency_allows(const sc_t *sc)
{
    return sc->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED ||
           sc->throttle != XCB_PRESENT_UTIL_THROTTLE_ACQUIRE || sc->ring.in_flight < sc->max_latency;
}

void sc_pacing_rendered(sc_t *sc, uint64_t render_ns)
{
    /* The percentile is the k-th largest sample, k at most 7 of 64: kept
     * in a short descending list, once a frame, without sorting them all. */
    uint64_t top[SC_RENDER_SAMPLES], old = sc->pace.render_samples[sc->pace.render_next];
    uint64_t p = sc->stats.render_ns;
    uint32_t n, k, have = 0;
    bool full = sc->pace.n_render == SC_RENDER_SAMPLES;

    sc->pace.render_samples[sc->pace.render_next] = render_ns;
    sc->pace.render_next = (sc->pace.render_next + 1) % SC_RENDER_SAMPLES;
    if (sc->pace.n_render < SC_RENDER_SAMPLES)
        sc->pace.n_render++;
    /* With k fixed (a full window), the k-th largest p stays while as
     * many samples as before lie above it and at or above it: true when
     * the sample out and the sample in lie on the same side of it (out
     * below and in at most p, or both above).  Most frames. */
    if (full && p && ((old < p && render_ns <= p) || (old > p && render_ns > p)))
        return;
    n = sc->pace.n_render;
    k = n - (n * SC_RENDER_PERCENTILE + 99) / 100 + 1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = sc->pace.render_samples[i];
        uint32_t j;

        if (have == k && v <= top[k - 1])
            continue;
        j = have < k ? have++ : k - 1;
        while (j > 0 && top[j - 1] < v) {
            top[j] = top[j - 1];
            j--;
        }
        top[j] = v;
    }
    sc->stats.render_ns = top[k - 1];
}

uint64_t sc_pacing_render_ns(const sc_t *sc)
{
    return sc->pace.n_render >= SC_RENDER_WARMUP ? sc->stats.render_ns : 0;
}

uint64_t sc_pacing_margin_ns(const sc_t *sc)
{
    uint64_t period = sc_clock_period_ns(sc);

    return period && sc->stats.margin_ns > period / 2 ? period / 2 : sc->stats.margin_ns;
}

uint64_t sc_pacing_latch_ns(const sc_t *sc)
{
    uint64_t period = sc_clock_period_ns(sc), latch = sc->pace.latch_ns;

    if (!latch || latch > period / 2)
        return period / 2;
    return latch < period / 4 ? period / 4 : latch;
}

/* The last moment a present() still reaches vblank msc (see above). */
static uint64_t deadline_for(const sc_t *sc, uint64_t msc, uint64_t period)
{
    uint64_t vblank = sc_clock_vblank_ns(sc, msc), latch = sc_pacing_latch_ns(sc);

    (void)period;
    return vblank > latch ? vblank - latch : 0;
}

/* A paced frame made its vblank: after a run of them with the margin at
 * its floor, and once any hold after a miss is over, the latch is tried a
 * step later. */
static void latch_hit(sc_t *sc, uint64_t period)
{
    uint64_t latch = sc_pacing_latch_ns(sc);

    if (sc->pace.latch_hold) {
        sc->pace.latch_hold--;
        return;
    }
    if (sc->stats.margin_ns > SC_MARGIN_FLOOR_NS) {
        sc->pace.latch_hits = 0;
        return;
    }
    if (++sc->pace.latch_hits < SC_LATCH_HITS || latch <= period / 4 + SC_LATCH_STEP_NS / 2)
        return;
    sc->pace.latch_hits = 0;
    sc->pace.latch_ns = latch - SC_LATCH_STEP_NS;
    sc_log(sc, "pacing: %u frames in time: latch tried at %llu us before the vblank",
           SC_LATCH_HITS, (unsigned long long)sc_pacing_latch_ns(sc) / 1000);
}

/* A frame sent in time for a latch later than half a period, but after
 * half a period before its vblank, missed: the server's latch is earlier.
 * True when that was the reason.  (One sent before half a period was late
 * for a reason of the server's: every server takes those; one sent after
 * the latch was the caller's.) */
static bool latch_missed(sc_t *sc, const struct frame *f, uint64_t period)
{
    uint64_t latch = sc_pacing_latch_ns(sc), vblank = sc_clock_vblank_ns(sc, f->planned_msc);
    uint64_t sent = f->submit_us * 1000;

    if (latch >= period / 2 || sent + period / 2 < vblank || sent + latch > vblank)
        return false;
    sc->pace.latch_ns = latch + 2 * SC_LATCH_STEP_NS;
    sc->pace.latch_hits = 0;
    sc->pace.latch_hold = SC_LATCH_HOLD;
    sc_log(sc, "pacing: frame %llu sent %lld us before its vblank missed it: latch back at "
           "%llu us, held for %u frames", (unsigned long long)f->serial,
           (long long)((int64_t)sc_clock_vblank_ns(sc, f->planned_msc) -
                       (int64_t)f->submit_us * 1000) / 1000,
           (unsigned long long)sc_pacing_latch_ns(sc) / 1000, SC_LATCH_HOLD);
    return true;
}

void sc_pacing_completed(sc_t *sc, const struct frame *f, uint64_t server_msc)
{
    uint64_t period = sc_clock_period_ns(sc);

    if (!f->planned_msc || !server_msc)
        return;
    if (server_msc > f->planned_msc) {
        sc->stats.late_frames++;
        sc->pace.latch_hits = 0;
        if (!f->client_late && latch_missed(sc, f, period)) {
            sc->pace.margin_hits = 0;
            return;
        }
        /* A frame sent well before its deadline and shown late all the
         * same was the server's delay (Xvfb's timer firing late on a busy
         * machine): a later moment for the caller would not have helped,
         * and the margin stays.  One sent after its deadline was the
         * caller's (a slow render, a late wake-up): the margin grows by
         * what it lacked, and a guard.  One sent just before it (within
         * SC_MARGIN_MIN_NS: the request may have reached the server too
         * late) grows it by the guard alone. */
        uint64_t deadline = deadline_for(sc, f->planned_msc, period), sent = f->submit_us * 1000;

        if (!f->client_late && sent + SC_MARGIN_MIN_NS <= deadline) {
            sc_log(sc, "pacing: frame %llu sent in time for msc %llu, the server showed it "
                   "at %llu", (unsigned long long)f->serial,
                   (unsigned long long)f->planned_msc, (unsigned long long)server_msc);
            sc->pace.margin_hits = 0;
            return;
        }
        sc->stats.margin_ns += (sent > deadline ? sent - deadline : 0) + SC_MARGIN_GUARD_NS;
        sc->stats.margin_ns = sc_pacing_margin_ns(sc);
        sc->pace.margin_hits = 0;
        sc_log(sc, "pacing: frame %llu paced for msc %llu shown at %llu: margin now %llu us",
               (unsigned long long)f->serial, (unsigned long long)f->planned_msc,
               (unsigned long long)server_msc, (unsigned long long)sc->stats.margin_ns / 1000);
        return;
    }
    latch_hit(sc, period);
    if (++sc->pace.margin_hits >= SC_MARGIN_HITS) {
        sc->pace.margin_hits = 0;
        sc->stats.margin_ns -= sc->stats.margin_ns / 8;
        if (sc->stats.margin_ns < SC_MARGIN_FLOOR_NS)
            sc->stats.margin_ns = SC_MARGIN_FLOOR_NS;
    }
}

/* The moment for vblank msc: deadline less render time and margin. */
static uint64_t slot_for(const sc_t *sc, uint64_t msc, uint64_t period, uint64_t cost)
{
    uint64_t deadline = deadline_for(sc, msc, period);

    return deadline > cost ? deadline - cost : 0;
}

bool sc_pacing_plan(sc_t *sc, uint64_t now_ns, uint64_t *msc, uint64_t *slot_ns)
{
    uint64_t period = sc_clock_period_ns(sc), render = sc_pacing_render_ns(sc);
    uint64_t cost, k, v, slot;

    if (sc->pacing != XCB_PRESENT_UTIL_PACING_LOW_LATENCY ||
        sc->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED || !render || !period ||
        !sc_clock_is_local(sc) || now_ns - sc->msc.last_reading_ns > SC_FRESH_PERIODS * period)
        return false;
    cost = render + sc_pacing_margin_ns(sc);
    k = (cost + period - 1) / period;
    if (k > 4)
        k = 4;      /* 15 frames a second at 60 Hz: slower is not pacing */
    /* present() aims a frame swap_interval vblanks after the one before
     * at the earliest: a plan for an earlier vblank would hold the frame
     * back a vblank and count it late. */
    if (k < sc->swap_interval)
        k = sc->swap_interval;
    /* k vblanks after the last frame's (a frame acquired and not yet
     * presented counts at the vblank it was paced for), never at one
     * already reported */
    v = sc->ring.last_target;
    for (uint32_t i = 0; i < sc->num_buffers && v; i++) {
        const struct buffer *b = &sc->buffers[i];

        /* present() aims it swap_interval after the chain's, or later */
        if (b->state == BUF_ACQUIRED)
            v = b->planned_msc > v + sc->swap_interval ? b->planned_msc : v + sc->swap_interval;
    }
    v = v ? v + k : sc->msc.last_msc + 1;
    if (v <= sc->msc.last_msc)
        v = sc->msc.last_msc + 1;
    slot = slot_for(sc, v, period, cost);
    if (!slot)
        return false;
    /* Too late for it: the next vblank whose moment is still ahead. */
    if (slot < now_ns) {
        uint64_t behind = (now_ns - slot + period - 1) / period;

        v += behind;
        slot += behind * period;
    }
    *msc = v;
    *slot_ns = slot;
    return true;
}

static void arm_timer(sc_t *sc, uint64_t at_ns)
{
    struct itimerspec its = { 0 };

    if (sc->timer_fd < 0 || at_ns == sc->pace.timer_armed_ns)
        return;
    its.it_value.tv_sec = (time_t)(at_ns / 1000000000u);
    its.it_value.tv_nsec = (long)(at_ns % 1000000000u);
    /* at_ns 0 disarms: an it_value of zero does */
    if (timerfd_settime(sc->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
        sc->pace.timer_armed_ns = at_ns;
}

int sc_update_readiness(sc_t *sc)
{
    uint64_t now, wake = 0, expirations;
    int n;

    /* A caller that never asked for the fd pays nothing for it. */
    if (!sc->fd_wanted)
        return -1;
    now = (uint64_t)deadline_now_ns();
    n = sc->dead ? 0 : sc_ready_count(sc, now, &wake);
    /* a timer that fired has done its job: its readability goes */
    if (sc->pace.timer_armed_ns && sc->pace.timer_armed_ns <= now &&
        read(sc->timer_fd, &expirations, sizeof expirations) > 0)
        sc->pace.timer_armed_ns = 0;
    if (n || sc->dead)
        sc_signal_work(sc);
    else
        sc_clear_work(sc);
    /* a main loop also wakes when a frame or buffer is given up by time */
    if (!n && !sc->dead) {
        uint64_t recover = sc_next_recovery_ns(sc);

        if (recover && (!wake || recover < wake))
            wake = recover;
    }
    arm_timer(sc, n ? 0 : wake);
    return n;
}
