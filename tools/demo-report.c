/* See demo-report.h. */
#include "demo-report.h"

#include "clock.h"
#include "percentile.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/present.h>

int demo_report_init(struct demo_report *r, uint32_t cap)
{
    memset(r, 0, sizeof *r);
    r->cap = cap ? cap : 1;
    if (r->cap > DEMO_REPORT_MAX_FRAMES)
        r->cap = DEMO_REPORT_MAX_FRAMES;
    r->frames = calloc(r->cap, sizeof *r->frames);
    r->second_start_us = (uint64_t)tool_now_ns() / 1000;
    return r->frames ? 0 : -1;
}

/* Room for one more frame: the record doubles up to its bound. */
static bool report_room(struct demo_report *r)
{
    xcb_present_util_frame_t *more;
    uint32_t cap;

    if (r->n < r->cap)
        return true;
    if (r->cap >= DEMO_REPORT_MAX_FRAMES)
        return false;
    cap = r->cap > DEMO_REPORT_MAX_FRAMES / 2 ? DEMO_REPORT_MAX_FRAMES : r->cap * 2;
    more = realloc(r->frames, cap * sizeof *more);
    if (!more)
        return false;
    r->frames = more;
    r->cap = cap;
    return true;
}

void demo_report_free(struct demo_report *r)
{
    free(r->frames);
    r->frames = NULL;
}

void demo_report_frame(void *data, const xcb_present_util_frame_t *f)
{
    struct demo_report *r = data;

    if (f->target_msc && f->msc > f->target_msc) {
        if (f->client_late)
            r->client_late++;
        else
            r->server_late++;
    }
    /* The library's struct may be older (shorter) than ours: the fields
     * past its size stay 0. */
    if (report_room(r)) {
        memset(&r->frames[r->n], 0, sizeof r->frames[r->n]);
        memcpy(&r->frames[r->n], f, f->size < sizeof *f ? f->size : sizeof *f);
        r->n++;
    } else {
        r->unrecorded++;
    }
}

const char *demo_pacing_name(xcb_present_util_pacing_t pacing)
{
    switch (pacing) {
    case XCB_PRESENT_UTIL_PACING_THROUGHPUT: return "throughput";
    case XCB_PRESENT_UTIL_PACING_LOW_LATENCY: return "low-latency";
    }
    return "unknown";
}

static bool shown(const xcb_present_util_frame_t *f)
{
    return f->mode != XCB_PRESENT_COMPLETE_MODE_SKIP && f->mode != XCB_PRESENT_UTIL_COMPLETE_LOST;
}

/* The two figures of a shown frame, in ms; false when there is none.
 * prev: the frame shown before it, or NULL. */
typedef bool (*frame_figure_fn)(const xcb_present_util_frame_t *f,
                                const xcb_present_util_frame_t *prev, double *ms);

static bool interval_ms(const xcb_present_util_frame_t *f, const xcb_present_util_frame_t *prev,
                        double *ms)
{
    if (!prev || f->ust < prev->ust)
        return false;
    *ms = (double)(f->ust - prev->ust) / 1000.0;
    return true;
}

/* The demo's one latency: acquire() to the vblank that showed the frame,
 * what a user sees.  Both are CLOCK_MONOTONIC microseconds on a local
 * server (UST is the server's monotonic clock); a UST from elsewhere gives
 * nonsense, left out as the library leaves it out of its own figure
 * (10 s or more). */
static bool shown_latency_ms(const xcb_present_util_frame_t *f,
                             const xcb_present_util_frame_t *prev, double *ms)
{
    (void)prev;
    if (!f->acquire_us || f->ust < f->acquire_us || f->ust - f->acquire_us >= 10000000)
        return false;
    *ms = (double)(f->ust - f->acquire_us) / 1000.0;
    return true;
}

/* Walks the shown frames of a report in the order they came, with the
 * frame shown before each, and gives those that have the figure. */
struct figure_iter {
    const struct demo_report *r;
    uint32_t i;
    const xcb_present_util_frame_t *prev;
    frame_figure_fn figure;
};

static bool next_figure(struct figure_iter *it, const xcb_present_util_frame_t **frame,
                        double *ms)
{
    while (it->i < it->r->n) {
        const xcb_present_util_frame_t *f = &it->r->frames[it->i++], *prev = it->prev;

        if (!shown(f))
            continue;
        it->prev = f;
        if (it->figure(f, prev, ms)) {
            *frame = f;
            return true;
        }
    }
    return false;
}

/* Mean, nearest-rank median and 99th percentile and the largest of the
 * latency of the shown frames from frames[from] on. */
void demo_report_latency(const struct demo_report *r, uint32_t from,
                         struct demo_latency *lat)
{
    double *v = calloc(r->n > from ? r->n - from : 1, sizeof *v), sum = 0;
    const xcb_present_util_frame_t *f;
    uint32_t n = 0;

    memset(lat, 0, sizeof *lat);
    for (struct figure_iter it = { r, from, NULL, shown_latency_ms };
         v && next_figure(&it, &f, &v[n]);)
        sum += v[n++];
    lat->count = n;
    if (n) {
        tool_sort_doubles(v, n);
        lat->mean = sum / n;
        lat->p50 = tool_percentile(v, n, 50);
        lat->p99 = tool_percentile(v, n, 99);
        lat->max = v[n - 1];
    }
    free(v);
}

/* Intervals between frames that were shown (not skipped), in ms. */
static void intervals(const struct demo_report *r, uint32_t from, double *mean, double *min,
                      double *max, uint32_t *count)
{
    const xcb_present_util_frame_t *f;
    double sum = 0, d;

    *count = 0;
    *min = 1e9;
    *max = 0;
    for (struct figure_iter it = { r, from, NULL, interval_ms }; next_figure(&it, &f, &d);) {
        sum += d;
        *min = d < *min ? d : *min;
        *max = d > *max ? d : *max;
        (*count)++;
    }
    *mean = *count ? sum / *count : 0;
    if (!*count)
        *min = 0;
}

void demo_report_line(struct demo_report *r, const xcb_present_util_stats_t *st, double secs,
                      FILE *out)
{
    double mean, min, max;
    uint32_t count, n_shown = 0;
    struct demo_latency lat;

    for (uint32_t i = r->next_second_frame; i < r->n; i++)
        n_shown += shown(&r->frames[i]);
    intervals(r, r->next_second_frame, &mean, &min, &max, &count);
    demo_report_latency(r, r->next_second_frame, &lat);
    fprintf(out, "%6.1f fps  interval %5.2f ms (%5.2f..%5.2f)  missed vblanks %3llu  "
            "latency (acquire() to shown) %5.2f ms, p99 %5.2f ms\n",
            secs > 0 ? n_shown / secs : 0, mean, min, max,
            (unsigned long long)(st->missed_vblanks - r->last_second_missed), lat.mean,
            lat.p99);
    fflush(out);
    r->last_second_missed = st->missed_vblanks;
    r->next_second_frame = r->n;
}

void demo_report_tick(struct demo_report *r, xcb_present_util_swapchain_t *sc, FILE *out)
{
    uint64_t now = (uint64_t)tool_now_ns() / 1000;
    xcb_present_util_stats_t st = { .size = sizeof st };

    if (now - r->second_start_us < 1000000)
        return;
    xcb_present_util_swapchain_stats(sc, &st);
    demo_report_line(r, &st, (double)(now - r->second_start_us) / 1e6, out);
    r->second_start_us = now;
}

/* Pacing applies to the FIFO modes only; MAILBOX and IMMEDIATE are
 * bounded by their buffers. */
static void summary_pacing(const struct demo_setup *s, const xcb_present_util_stats_t *st,
                           FILE *out)
{
    if (s->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED) {
        fprintf(out, "  %-18s none in %s mode\n", "pacing", xcb_present_util_mode_name(s->mode));
        return;
    }
    fprintf(out, "  %-18s %s, max latency %u frame%s", "pacing", demo_pacing_name(s->pacing),
            s->max_latency, s->max_latency == 1 ? "" : "s");
    if (s->asked_latency && s->asked_latency != s->max_latency)
        fprintf(out, " (%u asked: %u buffers hold %u at most)", s->asked_latency, s->buffers,
                s->buffers - 1);
    fprintf(out, "; render %.2f ms, margin %.2f ms, %llu late frames\n", st->render_ns / 1e6,
            st->margin_ns / 1e6, (unsigned long long)st->late_frames);
}

/* The one latency line: every frame the callback saw. */
static void summary_latency(const struct demo_report *r, FILE *out)
{
    struct demo_latency lat;

    demo_report_latency(r, 0, &lat);
    fprintf(out, "  %-18s mean %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms "
            "(acquire() to shown, %u frame%s%s)\n", "latency", lat.mean, lat.p50, lat.p99,
            lat.max, lat.count, lat.count == 1 ? "" : "s",
            r->unrecorded ? "; later frames were not recorded" : "");
}

void demo_report_summary(const struct demo_report *r, const struct demo_setup *s,
                         const xcb_present_util_stats_t *st, FILE *out)
{
    double mean, min, max, hz = st->refresh_ns ? 1e9 / (double)st->refresh_ns : 0;
    uint32_t count;

    intervals(r, 0, &mean, &min, &max, &count);
    fprintf(out, "\nxcb-present-demo summary\n");
    fprintf(out, "  %-18s %s", "display", s->display);
    if (s->own_xvfb_pid)
        fprintf(out, " (its own Xvfb, pid %d)", s->own_xvfb_pid);
    fprintf(out, "\n  %-18s %s\n", "back end", xcb_present_util_backend_name(s->backend));
    fprintf(out, "  %-18s %s, %u buffers, %ux%u\n", "mode",
            xcb_present_util_mode_name(s->mode), s->buffers, s->width, s->height);
    summary_pacing(s, st, out);
    fprintf(out, "  %-18s %llu presented, %llu completed, %llu skipped, in %.2f s\n", "frames",
            (unsigned long long)st->presented, (unsigned long long)st->completed,
            (unsigned long long)st->skipped, s->seconds);
    fprintf(out, "  %-18s %.3f ms (%.2f Hz)\n", "refresh", st->refresh_ns / 1e6, hz);
    fprintf(out, "  %-18s mean %.2f ms, min %.2f ms, max %.2f ms\n", "frame interval", mean,
            min, max);
    fprintf(out, "  %-18s %llu (%u frames shown late although sent in time, %u sent late)\n",
            "missed vblanks", (unsigned long long)st->missed_vblanks, r->server_late,
            r->client_late);
    summary_latency(r, out);
    fprintf(out, "  %-18s %llu copies, %llu flips\n", "completions",
            (unsigned long long)st->copies, (unsigned long long)st->flips);
    fprintf(out, "  %-18s msc %llu, ust %llu us\n", "last frame",
            (unsigned long long)st->last_msc, (unsigned long long)st->last_ust);
}


/* ---- the plot ------------------------------------------------------------ */

/* The plot area in the SVG and its scales. */
struct plot {
    FILE *f;
    double left, top, w, h;         /* px */
    double ymax;                    /* ms at the top; larger values are drawn there */
    uint64_t first, last;           /* frame numbers at the left and right edges */
};

static const struct plot_series {
    const char *label, *color;
    frame_figure_fn figure;
} plot_series[] = {
    { "interval between shown frames", "#1565c0", interval_ms },
    { "acquire-to-shown latency", "#e65100", shown_latency_ms },
};

static double plot_x(const struct plot *p, uint64_t frame)
{
    return p->left + p->w * (double)(frame - p->first) / (double)(p->last - p->first);
}

static double plot_y(const struct plot *p, double ms)
{
    return p->top + p->h - p->h * (ms > p->ymax ? p->ymax : ms) / p->ymax;
}

/* The frame numbers on the x axis, and a y range in whole refreshes that
 * holds both series (2 to 8 refreshes: a stall does not squash the rest). */
static void plot_scale(struct plot *p, const struct demo_report *r, double refresh)
{
    double top = 0, ms;
    const xcb_present_util_frame_t *f;

    p->first = UINT64_MAX;
    p->last = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        p->first = r->frames[i].frame < p->first ? r->frames[i].frame : p->first;
        p->last = r->frames[i].frame > p->last ? r->frames[i].frame : p->last;
    }
    if (p->first > p->last)
        p->first = 1;
    if (p->last <= p->first)
        p->last = p->first + 1;
    for (size_t s = 0; s < sizeof plot_series / sizeof plot_series[0]; s++)
        for (struct figure_iter it = { r, 0, NULL, plot_series[s].figure };
             next_figure(&it, &f, &ms);)
            top = ms > top ? ms : top;
    top = refresh * (double)(uint32_t)(top / refresh + 0.999);
    p->ymax = top < 2 * refresh ? 2 * refresh : top > 8 * refresh ? 8 * refresh : top;
}

/* Grid lines at every refresh (the first one dashed), ticks, axis titles. */
static void plot_axes(const struct plot *p, double refresh)
{
    for (int k = 0; k * refresh <= p->ymax * 1.0001; k++) {
        double y = plot_y(p, k * refresh);

        fprintf(p->f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ccc\"%s/>\n",
                p->left, y, p->left + p->w, y, k == 1 ? " stroke-dasharray=\"4\"" : "");
        fprintf(p->f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.1f"
                "</text>\n", p->left - 4, y + 3, k * refresh);
    }
    for (int k = 0; k <= 4; k++) {
        uint64_t frame = p->first + (p->last - p->first) * (uint64_t)k / 4;
        double x = plot_x(p, frame), y = p->top + p->h;

        fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#000\"/>\n",
                x, y, x, y + 4);
        fprintf(p->f, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"middle\">%llu"
                "</text>\n", x, y + 15, (unsigned long long)frame);
    }
    fprintf(p->f, "<polyline fill=\"none\" stroke=\"#000\" points=\"%.0f,%.0f %.0f,%.0f "
            "%.0f,%.0f\"/>\n", p->left, p->top, p->left, p->top + p->h, p->left + p->w,
            p->top + p->h);
    fprintf(p->f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">"
            "frame number</text>\n", p->left + p->w / 2, p->top + p->h + 32);
    fprintf(p->f, "<text x=\"14\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 14 %.0f)\">ms</text>\n", p->top + p->h / 2,
            p->top + p->h / 2);
}

static void plot_legend(const struct plot *p)
{
    for (size_t s = 0; s < sizeof plot_series / sizeof plot_series[0]; s++) {
        double x = p->left + 10 + 250 * (double)s, y = p->top - 10;

        fprintf(p->f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                "stroke-width=\"2\"/>\n", x, y, x + 20, y, plot_series[s].color);
        fprintf(p->f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">%s</text>\n", x + 26, y + 4,
                plot_series[s].label);
    }
}

static void plot_line(const struct plot *p, const struct demo_report *r,
                      const struct plot_series *s)
{
    const xcb_present_util_frame_t *f;
    double ms;

    fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"",
            s->color);
    for (struct figure_iter it = { r, 0, NULL, s->figure }; next_figure(&it, &f, &ms);)
        fprintf(p->f, "%.1f,%.1f ", plot_x(p, f->frame), plot_y(p, ms));
    fprintf(p->f, "\"><title>%s</title></polyline>\n", s->label);
}

int demo_report_plot(const struct demo_report *r, const xcb_present_util_stats_t *st,
                     const char *path)
{
    double refresh = st->refresh_ns ? st->refresh_ns / 1e6 : 16.667;
    struct plot p = { .f = fopen(path, "we"), .left = 60, .top = 45, .w = 800, .h = 300 };

    if (!p.f)
        return -1;
    plot_scale(&p, r, refresh);
    fprintf(p.f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n",
            p.left + p.w + 20, p.top + p.h + 45);
    fprintf(p.f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(p.f, "<text x=\"%.0f\" y=\"14\" font-size=\"12\">xcb-present-demo, per frame "
            "(ms); dashed: one refresh (%.2f ms)</text>\n", p.left, refresh);
    plot_axes(&p, refresh);
    plot_legend(&p);
    for (size_t s = 0; s < sizeof plot_series / sizeof plot_series[0]; s++)
        plot_line(&p, r, &plot_series[s]);
    fprintf(p.f, "</svg>\n");
    return fclose(p.f) == 0 ? 0 : -1;
}
