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
    xcb_present_util_frame_t *info = &sc->shown.done[f->serial % SC_DONE_FRAMES];

    *info = (xcb_present_util_frame_t){
        .size = sizeof *info, .frame = f->serial, .index = f->index, .mode = mode,
        .client_late = f->client_late,
        .target_msc = f->target_msc ? f->target_msc + sc->msc.msc_offset : 0, .msc = msc,
        .ust = ust, .submit_us = f->submit_us, .acquire_us = f->acquire_us, .age = f->age,
        .present_id = f->present_id,
    };

    if (f->present_id > sc->shown.done_present_id)
        sc->shown.done_present_id = f->present_id;
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
        sc->windows.latency[sc->windows.latency_next] = (ust - f->submit_us) * 1000;
        sc->windows.latency_next = (sc->windows.latency_next + 1) % SC_LATENCY_WINDOW;
        if (sc->windows.n_latency < SC_LATENCY_WINDOW)
            sc->windows.n_latency++;
    }
    if (mode != XCB_PRESENT_COMPLETE_MODE_SKIP && ust >= f->acquire_us &&
        ust - f->acquire_us < 10000000) {
        sc->windows.shown_latency[sc->windows.shown_latency_next] = (ust - f->acquire_us) * 1000;
        sc->windows.shown_latency_next = (sc->windows.shown_latency_next + 1) % SC_LATENCY_WINDOW;
        if (sc->windows.n_shown_latency < SC_LATENCY_WINDOW)
            sc->windows.n_shown_latency++;
    }
    if (f->serial < sc->windows.last_completed_serial)
        sc->windows.out_of_order++;
    else
        sc->windows.last_completed_serial = f->serial;
    sc_queue_frame(sc, info);
}

void sc_stats_lost(sc_t *sc, const struct frame *f)
{
    sc->shown.done[f->serial % SC_DONE_FRAMES] = (xcb_present_util_frame_t){
        .size = sizeof(xcb_present_util_frame_t), .frame = f->serial, .index = f->index,
        .mode = XCB_PRESENT_UTIL_COMPLETE_LOST, .client_late = f->client_late,
        .target_msc = f->target_msc ? f->target_msc + sc->msc.msc_offset : 0,
        .submit_us = f->submit_us, .acquire_us = f->acquire_us, .age = f->age,
        .present_id = f->present_id,
    };
    if (f->present_id > sc->shown.done_present_id)
        sc->shown.done_present_id = f->present_id;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* Mean, median and 99th percentile of the first n values of window.  The
 * percentiles are by nearest rank: the p-th is the value at rank
 * ceil(p/100 * n) of the sorted values, counted from 1, in whole numbers
 * ((n * p + 99) / 100), so that it is always one of the values and p99 of
 * fewer than 100 values is the largest (xcb-present-demo's rule too). */
static void summarize(const uint64_t *window, uint32_t n, uint64_t *mean, uint64_t *p50,
                      uint64_t *p99)
{
    uint64_t sorted[SC_LATENCY_WINDOW], sum = 0;
    static const uint32_t pct[2] = { 50, 99 };
    uint64_t *out[2] = { p50, p99 };

    *mean = *p50 = *p99 = 0;
    if (!n)
        return;
    memcpy(sorted, window, n * sizeof sorted[0]);
    for (uint32_t i = 0; i < n; i++)
        sum += sorted[i];
    qsort(sorted, n, sizeof sorted[0], cmp_u64);
    *mean = sum / n;
    for (int i = 0; i < 2; i++) {
        uint64_t rank = ((uint64_t)n * pct[i] + 99) / 100;

        *out[i] = sorted[(rank ? rank : 1) - 1];
    }
}

void sc_stats_latency(const sc_t *sc, uint64_t *mean, uint64_t *p99)
{
    uint64_t p50;

    summarize(sc->windows.latency, sc->windows.n_latency, mean, &p50, p99);
}

void sc_stats_shown_latency(const sc_t *sc, uint64_t *mean, uint64_t *p50, uint64_t *p99)
{
    summarize(sc->windows.shown_latency, sc->windows.n_shown_latency, mean, p50, p99);
}
