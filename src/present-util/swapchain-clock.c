/*
 * The display's clock: when a given vblank comes (an image's
 * predicted_ust, LOW_LATENCY's moment) and which vblank is the first at or
 * after a given time (present_at()).
 *
 * Only readings that came at their vblank count: the completion of a frame
 * or NotifyMSC aimed at exactly the MSC it reports.  (A request whose
 * target had passed is done at once, and Xvfb then reports its MSC
 * rounded to the nearest vblank with the UST of that moment, up to half a
 * frame before the vblank.)  A server reports such a vblank late, when a
 * timer fired late or the machine was busy, but not early.  So:
 *   - the period is the slope from the oldest kept reading to the newest,
 *     whose jitter is spread over the vblanks between them; before two
 *     readings, the measured refresh (the median of recent intervals).
 *     It is the refresh the caller is told too (stats, images): one
 *     figure, over a long window of vblanks;
 *   - the phase is the earliest of the readings carried to the newest one's
 *     vblank: the one least late;
 *   - first_msc_at() plans with a period shortened by what the jitter
 *     could hide, and for a time later by the readings' spread, so that
 *     its error makes a frame late, never early.
 * The clock restarts with the vblank chain (the count went back or
 * jumped: another CRTC).
 */
#include <xcb/present.h>

#include "swapchain-private.h"

void sc_clock_reset(sc_t *sc)
{
    sc->clock.n_readings = 0;
    sc->clock.reading_next = 0;
    sc->clock.prime_msc = 0;
}

static const struct reading *oldest_reading(const sc_t *sc)
{
    return &sc->clock.readings[(sc->clock.reading_next + SC_CLOCK_READINGS - sc->clock.n_readings) %
                         SC_CLOCK_READINGS];
}

static const struct reading *newest_reading(const sc_t *sc)
{
    return &sc->clock.readings[(sc->clock.reading_next + SC_CLOCK_READINGS - 1) % SC_CLOCK_READINGS];
}

void sc_clock_add(sc_t *sc, uint64_t msc, uint64_t ust_us)
{
    const struct reading *newest;

    if (!ust_us)
        return;
    if (sc->clock.n_readings) {
        newest = &sc->clock.readings[(sc->clock.reading_next + SC_CLOCK_READINGS - 1) % SC_CLOCK_READINGS];
        /* the same vblank twice (a frame and a NotifyMSC), or older */
        if (msc <= newest->msc || ust_us * 1000 <= newest->ust_ns)
            return;
    }
    /* The refresh changed (a blanked screen's 1 Hz fake CRTC, a mode
     * change): the recent intervals' median left the readings' slope by a
     * third.  The old readings would bend the slope for 32 vblanks; the
     * clock starts again from this one. */
    if (sc->clock.n_readings >= 2 && sc->stats.refresh_ns) {
        uint64_t slope = (newest_reading(sc)->ust_ns - oldest_reading(sc)->ust_ns) /
                         (newest_reading(sc)->msc - oldest_reading(sc)->msc);
        uint64_t median = sc->stats.refresh_ns;

        if (slope > median + median / 3 || median > slope + slope / 3) {
            sc_log(sc, "clock: the refresh moved from %llu to %llu ns: readings dropped",
                   (unsigned long long)slope, (unsigned long long)median);
            sc->clock.n_readings = 0;
            sc->clock.reading_next = 0;
        }
    }
    sc->clock.readings[sc->clock.reading_next] = (struct reading){ .msc = msc, .ust_ns = ust_us * 1000 };
    sc->clock.reading_next = (sc->clock.reading_next + 1) % SC_CLOCK_READINGS;
    if (sc->clock.n_readings < SC_CLOCK_READINGS)
        sc->clock.n_readings++;
    sc_clock_derive(sc);
}

/* What the readings give, worked out once per reading rather than at
 * every look (a frame looks a dozen times): the slope, and the phase and
 * spread of phase_ns(). */
static uint64_t phase_of(const sc_t *sc, uint64_t period, uint64_t *spread);

void sc_clock_derive(sc_t *sc)
{
    const struct reading *o, *n;

    if (sc->clock.n_readings < 2)
        return;
    o = oldest_reading(sc);
    n = newest_reading(sc);
    sc->clock.slope_ns = (n->ust_ns - o->ust_ns) / (n->msc - o->msc);
    sc->clock.phase_ns = phase_of(sc, sc->clock.slope_ns, &sc->clock.spread_ns);
}

/* The vblanks between the oldest and the newest reading. */
static uint64_t span(const sc_t *sc)
{
    return sc->clock.n_readings < 2 ? 0 : newest_reading(sc)->msc - oldest_reading(sc)->msc;
}

uint64_t sc_clock_period_ns(const sc_t *sc)
{
    return sc->clock.n_readings < 2 ? sc->stats.refresh_ns : sc->clock.slope_ns;
}

/* The UST (ns) of the newest reading's vblank: the earliest that the
 * readings allow, each carried forward by the period.  *spread: how much
 * later than that the latest of them came. */
static uint64_t phase_of(const sc_t *sc, uint64_t period, uint64_t *spread)
{
    const struct reading *n = newest_reading(sc);
    uint64_t best = n->ust_ns, worst = n->ust_ns;

    for (uint32_t i = 0; i < sc->clock.n_readings; i++) {
        const struct reading *r = &sc->clock.readings[i];
        uint64_t carried = r->ust_ns + (n->msc - r->msc) * period;

        if (carried < best)
            best = carried;
        if (carried > worst)
            worst = carried;
    }
    *spread = worst - best;
    return best;
}

/* phase_of() for the clock's period: kept from the last reading where
 * the period is the readings' slope. */
static uint64_t phase_ns(const sc_t *sc, uint64_t period, uint64_t *spread)
{
    uint64_t unused;

    if (sc->clock.n_readings >= 2 && period == sc->clock.slope_ns) {
        if (spread)
            *spread = sc->clock.spread_ns;
        return sc->clock.phase_ns;
    }
    return phase_of(sc, period, spread ? spread : &unused);
}

uint64_t sc_clock_vblank_ns(const sc_t *sc, uint64_t msc)
{
    uint64_t period = sc_clock_period_ns(sc), base;
    const struct reading *n;

    if (!sc->clock.n_readings || !period)
        return 0;
    n = newest_reading(sc);
    base = phase_ns(sc, period, NULL);
    if (msc >= n->msc)
        return base + (msc - n->msc) * period;
    return base > (n->msc - msc) * period ? base - (n->msc - msc) * period : 0;
}

uint64_t sc_clock_first_msc_at(const sc_t *sc, uint64_t ust_ns)
{
    uint64_t period = sc_clock_period_ns(sc), base, spread, safe_period, ahead;
    const struct reading *n;

    if (!sc->clock.n_readings || !period)
        return 0;
    n = newest_reading(sc);
    base = phase_ns(sc, period, &spread);
    /* The phase is the least late reading; when every kept reading came
     * late (a busy machine), it is late too, and a vblank may come earlier
     * than predicted by about as much as the readings vary.  Late rather
     * than early: the first vblank predicted at least that spread (at
     * most half a period) after the time. */
    ust_ns += spread < period / 2 ? spread : period / 2;
    if (ust_ns <= base)
        return n->msc;
    /* One reading may be late by up to an eighth of a period without the
     * others showing it: over a span of s vblanks the slope may then be
     * long by a quarter period / s.  Less a small constant share for the
     * median refresh of a fresh count. */
    safe_period = period - period / (4 * (span(sc) ? span(sc) : 1)) - period / 1024;
    ahead = (ust_ns - base + safe_period - 1) / safe_period;
    return n->msc + ahead;
}

bool sc_clock_is_local(const sc_t *sc)
{
    uint64_t period = sc_clock_period_ns(sc);

    /* The last reading's UST lies within a period before it came. */
    return sc->msc.have_msc && period && sc->msc.last_ust &&
           sc->msc.last_ust * 1000 <= sc->msc.last_reading_ns &&
           sc->msc.last_reading_ns - sc->msc.last_ust * 1000 < 2 * period;
}

void sc_clock_prime(sc_t *sc)
{
    uint64_t first;

    /* Asked for, and the count has not passed the last target yet. */
    if (!sc->msc.have_msc || (sc->clock.prime_msc && sc->msc.last_msc < sc->clock.prime_msc))
        return;
    /* Two and three vblanks ahead, past any rounding of the server's
     * count; the serial is the target, which tells their completions
     * apart from the anchor's (serial 0, target 0: "now").  When they
     * came late (the count had moved on while the client was slow), done
     * at once and no reading, again from the count they brought. */
    if (sc->msc.last_msc >= UINT64_MAX - 3) {
        /* a count at the end of its range (only a broken server reports
         * one): no target past it to ask for */
        sc_log(sc, "msc %llu: no vblank past it to learn the clock from",
               (unsigned long long)sc->msc.last_msc);
        return;
    }
    first = sc->msc.last_msc + 2;
    sc->clock.prime_msc = first + 1;
    for (uint64_t m = first; m < first + 2; m++) {
        xcb_present_notify_msc(sc->c, sc->window, (uint32_t)m, m, 0, 0);
        sc_log(sc, "request: NotifyMSC target %llu (to learn the clock)", (unsigned long long)m);
    }
    xcb_flush(sc->c);
}

uint64_t sc_clock_due_ns(const sc_t *sc, uint64_t target_msc, uint64_t sent_ns,
                         uint64_t *period_ns)
{
    uint64_t period = sc_clock_period_ns(sc), due = 0, ahead;

    *period_ns = period;
    if (!period)
        period = SC_LOST_UNKNOWN_PERIOD_NS;     /* a guess, on the slow side */
    if (target_msc && sc->msc.have_msc && target_msc > sc->msc.last_msc) {
        /* On our clock: the clock's prediction where the server shares our
         * clock, else carried from when the last reading came. */
        if (*period_ns && sc_clock_is_local(sc))
            due = sc_clock_vblank_ns(sc, target_msc);
        if (!due) {
            ahead = target_msc - sc->msc.last_msc;
            if (ahead > (1u << 20))
                ahead = 1u << 20;           /* an absurd target: a long while */
            due = sc->msc.last_reading_ns + ahead * period;
        }
    }
    /* A frame sent for a vblank that had come is shown at the next one. */
    return due > sent_ns + period ? due : sent_ns + period;
}
