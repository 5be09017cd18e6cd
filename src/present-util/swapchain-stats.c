/*
 * Statistics: counters, completion modes, missed vblanks and the latency
 * from present() to completion over the last SC_LATENCY_WINDOW frames.
 * Nothing here allocates: the window is a fixed ring.
 */
#include <stdlib.h>
#include <string.h>

#include "swapchain-private.h"

void sc_stats_presented(sc_t *sc)
{
    sc->stats.presented++;
}

void sc_stats_completed(sc_t *sc, const struct frame *f, uint8_t mode, uint64_t server_msc,
                        uint64_t msc, uint64_t ust)
{
    xcb_present_util_frame_t info = {
        .size = sizeof info, .frame = f->serial, .index = f->index, .mode = mode,
        .client_late = f->client_late,
        .target_msc = f->target_msc ? f->target_msc + sc->msc_offset : 0, .msc = msc,
        .ust = ust, .submit_us = f->submit_us,
    };

    sc->stats.completed++;
    sc->stats.last_msc = msc;
    sc->stats.last_ust = ust;
    switch (mode) {
    case XCB_PRESENT_COMPLETE_MODE_SKIP:
        sc->stats.skipped++;
        break;
    case XCB_PRESENT_COMPLETE_MODE_FLIP:
        sc->stats.flips++;
        break;
    default:
        sc->stats.copies++;
        break;
    }
    /* in the server's count, where target and completion belong together */
    if (f->target_msc && server_msc > f->target_msc && mode != XCB_PRESENT_COMPLETE_MODE_SKIP)
        sc->stats.missed_vblanks += server_msc - f->target_msc;
    /* UST and our clock are both CLOCK_MONOTONIC on Linux servers; a UST
     * from elsewhere would give nonsense, which is left out. */
    if (mode != XCB_PRESENT_COMPLETE_MODE_SKIP && ust >= f->submit_us &&
        ust - f->submit_us < 10000000) {
        sc->latency[sc->latency_next] = (ust - f->submit_us) * 1000;
        sc->latency_next = (sc->latency_next + 1) % SC_LATENCY_WINDOW;
        if (sc->n_latency < SC_LATENCY_WINDOW)
            sc->n_latency++;
    }
    if (f->serial < sc->last_completed_serial)
        sc->out_of_order++;
    else
        sc->last_completed_serial = f->serial;
    if (sc->frame_cb)
        sc->frame_cb(sc->frame_cb_data, &info);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

void sc_stats_latency(const sc_t *sc, uint64_t *mean, uint64_t *p99)
{
    uint64_t sorted[SC_LATENCY_WINDOW], sum = 0;
    uint32_t n = sc->n_latency;

    *mean = *p99 = 0;
    if (!n)
        return;
    memcpy(sorted, sc->latency, n * sizeof sorted[0]);
    for (uint32_t i = 0; i < n; i++)
        sum += sorted[i];
    qsort(sorted, n, sizeof sorted[0], cmp_u64);
    *mean = sum / n;
    *p99 = sorted[(n * 99 + 99) / 100 - 1];
}
