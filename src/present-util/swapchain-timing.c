/*
 * What the server says about time.  Every completion carries the window's
 * MSC (a count of vblanks) and UST (the server's CLOCK_MONOTONIC in
 * microseconds).  A working server never lets them jump, but a window
 * that moves to another CRTC, a blanked screen (Xorg then counts at 1 Hz)
 * or a broken server or proxy can: the readings are checked before the
 * FIFO chain is aimed from them, the refresh is measured over the recent
 * past only, and the caller is never told a time earlier than one it was
 * told before.
 */
#include <string.h>

#include "swapchain-private.h"

static void restart_chain(sc_t *sc, const char *why, uint64_t msc)
{
    sc_log(sc, "msc %llu after %llu (%s): restarting the vblank chain and the refresh "
           "measurement", (unsigned long long)msc, (unsigned long long)sc->msc.last_msc, why);
    sc->ring.last_target = 0;
    sc->pace.plan_key = 0;
    sc_clock_reset(sc);
    sc->msc.n_refresh_samples = 0;
    sc->msc.refresh_next = 0;
    sc->stats.refresh_ns = 0;
}

static uint64_t median_refresh(const sc_t *sc)
{
    uint64_t v[SC_REFRESH_SAMPLES];
    uint32_t n = sc->msc.n_refresh_samples;

    memcpy(v, sc->msc.refresh_samples, n * sizeof v[0]);
    for (uint32_t i = 1; i < n; i++)        /* at most five: insertion sort */
        for (uint32_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint64_t t = v[j];

            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[n / 2];
}

/* One refresh period measured between two readings.  Periods outside
 * 1 ms .. 2 s (1000 Hz .. the 1 Hz fake CRTC with room to spare) are not
 * a display's, and a UST that did not move forward says nothing. */
void sc_measure_refresh(sc_t *sc, uint64_t last_msc, uint64_t last_ust, uint64_t msc,
                        uint64_t ust)
{
    uint64_t period;

    if (!last_ust || !ust || ust <= last_ust || msc <= last_msc)
        return;
    period = (ust - last_ust) * 1000 / (msc - last_msc);
    if (period < 1000000 || period > 2000000000)
        return;
    sc->msc.refresh_samples[sc->msc.refresh_next] = period;
    sc->msc.refresh_next = (sc->msc.refresh_next + 1) % SC_REFRESH_SAMPLES;
    if (sc->msc.n_refresh_samples < SC_REFRESH_SAMPLES)
        sc->msc.n_refresh_samples++;
    sc->stats.refresh_ns = median_refresh(sc);
}

bool sc_take_reading(sc_t *sc, uint64_t msc, uint64_t ust)
{
    uint64_t now = (uint64_t)deadline_now_ns();

    if (sc->msc.have_msc && msc < sc->msc.last_msc) {
        restart_chain(sc, "went backwards", msc);
    } else if (sc->msc.have_msc) {
        uint64_t elapsed_s = (now - sc->msc.last_reading_ns) / 1000000000u + 1;
        uint64_t room = SC_MSC_SLACK + elapsed_s * SC_MSC_MAX_HZ;

        if (msc - sc->msc.last_msc > room) {
            /* Two readings that agree are a new count (say, another
             * CRTC's); one alone is noise. */
            if (!sc->msc.jump_msc || msc < sc->msc.jump_msc || msc - sc->msc.jump_msc > room) {
                sc_log(sc, "msc %llu is implausibly far past %llu: ignored",
                       (unsigned long long)msc, (unsigned long long)sc->msc.last_msc);
                sc->msc.jump_msc = msc;
                return false;
            }
            restart_chain(sc, "jumped ahead twice", msc);
        }
    }
    if (sc->msc.have_msc)
        sc_measure_refresh(sc, sc->msc.last_msc, sc->msc.last_ust, msc, ust);
    sc->msc.jump_msc = 0;
    sc->msc.last_msc = msc;
    sc->msc.last_ust = ust;
    sc->msc.last_reading_ns = now;
    sc->msc.have_msc = true;
    return true;
}

void sc_tell_times(sc_t *sc, bool taken, uint64_t msc, uint64_t ust, uint64_t *told_msc,
                   uint64_t *told_ust)
{
    uint64_t m = msc + sc->msc.msc_offset;

    if (!taken) {
        /* A reading we did not believe tells the caller nothing new. */
        *told_msc = sc->msc.told_msc;
        *told_ust = sc->msc.told_ust;
        return;
    }
    if (m < sc->msc.told_msc) {
        /* The count went backwards: the caller's count goes on from where
         * it was instead. */
        sc->msc.msc_offset += sc->msc.told_msc - m;
        m = sc->msc.told_msc;
    }
    sc->msc.told_msc = m;
    /* A UST behind the last one (0 is "unknown"), or further past it than
     * our own clock moved (with 10 s to spare), is not a time to pass on. */
    if (ust > sc->msc.told_ust) {
        uint64_t now = (uint64_t)deadline_now_ns();

        if (!sc->msc.told_ust || ust - sc->msc.told_ust <= (now - sc->msc.told_ns) / 1000 + 10000000u) {
            sc->msc.told_ust = ust;
            sc->msc.told_ns = now;
        }
    }
    *told_msc = sc->msc.told_msc;
    *told_ust = sc->msc.told_ust;
}
