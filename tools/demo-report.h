/*
 * xcb-present-demo's figures: a record of every completed frame, a line
 * per second, the summary table and the plot of the intervals between
 * shown frames and of each frame's acquire-to-shown latency.
 */
#ifndef DEMO_REPORT_H
#define DEMO_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "xcb_present_util.h"

/* The record's bound: a long MAILBOX run at thousands of frames a second
 * keeps its first million frames (about 80 MB) and counts the rest. */
#define DEMO_REPORT_MAX_FRAMES (1u << 20)

struct demo_report {
    xcb_present_util_frame_t *frames;   /* completions, in arrival order */
    uint32_t n, cap;
    uint64_t unrecorded;            /* completions past DEMO_REPORT_MAX_FRAMES */
    uint32_t server_late;           /* sent in time, shown late */
    uint32_t client_late;           /* sent after their vblank */
    uint32_t next_second_frame;     /* first frame of the current second */
    uint64_t second_start_us, last_second_missed;
};

/* cap: room for how many frames to make at first (the record grows up to
 * DEMO_REPORT_MAX_FRAMES).  0 or -1. */
int demo_report_init(struct demo_report *r, uint32_t cap);
void demo_report_free(struct demo_report *r);
/* The swapchain's frame callback. */
void demo_report_frame(void *data, const xcb_present_util_frame_t *f);
/* A line on out when a second has passed since the last one. */
void demo_report_tick(struct demo_report *r, xcb_present_util_swapchain_t *sc, FILE *out);
/* That line, for the frames since the last one, over secs seconds (st:
 * the swapchain's statistics now, for the missed vblanks). */
void demo_report_line(struct demo_report *r, const xcb_present_util_stats_t *st, double secs,
                      FILE *out);

/* The demo's one latency figure: from acquire() to the vblank that showed
 * the frame, of the shown frames recorded from frames[from] on.  p50 and
 * p99 are nearest-rank percentiles (tools/percentile.h). */
struct demo_latency {
    double mean, p50, p99, max;     /* ms; 0 when count is 0 */
    uint32_t count;
};
void demo_report_latency(const struct demo_report *r, uint32_t from, struct demo_latency *lat);

/* "throughput", "low-latency", or "unknown". */
const char *demo_pacing_name(xcb_present_util_pacing_t pacing);

struct demo_setup {
    const char *display;
    int own_xvfb_pid;               /* 0: an existing display */
    xcb_present_util_backend_t backend;
    xcb_present_util_mode_t mode;
    uint32_t buffers, width, height;
    xcb_present_util_pacing_t pacing;
    uint32_t max_latency;           /* as the library takes it */
    uint32_t asked_latency;         /* --latency; 0: not given */
    double seconds;                 /* wall time of the run */
};
void demo_report_summary(const struct demo_report *r, const struct demo_setup *setup,
                         const xcb_present_util_stats_t *st, FILE *out);
/* An SVG plot, per frame number, of the interval between shown frames and
 * of the latency from acquire() to the vblank that showed the frame.
 * 0 or -1. */
int demo_report_plot(const struct demo_report *r, const xcb_present_util_stats_t *st,
                     const char *path);

#endif
