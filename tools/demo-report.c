/* See demo-report.h. */
#include "demo-report.h"

#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <xcb/present.h>

int demo_report_init(struct demo_report *r, uint32_t cap)
{
    memset(r, 0, sizeof *r);
    r->cap = cap ? cap : 1;
    r->frames = calloc(r->cap, sizeof *r->frames);
    r->second_start_us = (uint64_t)tool_now_ns() / 1000;
    return r->frames ? 0 : -1;
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
    if (r->n < r->cap)
        r->frames[r->n++] = *f;
}

/* Intervals between frames that were shown (not skipped), in ms. */
static void intervals(const struct demo_report *r, uint32_t from, double *mean, double *min,
                      double *max, uint32_t *count)
{
    const xcb_present_util_frame_t *prev = NULL;
    double sum = 0;

    *count = 0;
    *min = 1e9;
    *max = 0;
    for (uint32_t i = from; i < r->n; i++) {
        const xcb_present_util_frame_t *f = &r->frames[i];

        if (f->mode == XCB_PRESENT_COMPLETE_MODE_SKIP)
            continue;
        if (prev && f->ust >= prev->ust) {
            double d = (double)(f->ust - prev->ust) / 1000.0;

            sum += d;
            *min = d < *min ? d : *min;
            *max = d > *max ? d : *max;
            (*count)++;
        }
        prev = f;
    }
    *mean = *count ? sum / *count : 0;
    if (!*count)
        *min = 0;
}

void demo_report_tick(struct demo_report *r, xcb_present_util_swapchain_t *sc, FILE *out)
{
    uint64_t now = (uint64_t)tool_now_ns() / 1000;
    xcb_present_util_stats_t st = { .size = sizeof st };
    double mean, min, max, secs;
    uint32_t count, shown = 0;

    if (now - r->second_start_us < 1000000)
        return;
    secs = (double)(now - r->second_start_us) / 1e6;
    xcb_present_util_swapchain_stats(sc, &st);
    for (uint32_t i = r->next_second_frame; i < r->n; i++)
        shown += r->frames[i].mode != XCB_PRESENT_COMPLETE_MODE_SKIP;
    intervals(r, r->next_second_frame, &mean, &min, &max, &count);
    fprintf(out, "%6.1f fps  interval %5.2f ms (%5.2f..%5.2f)  missed vblanks %3llu  "
            "latency %5.2f ms (p99 %5.2f)\n", shown / secs, mean, min, max,
            (unsigned long long)(st.missed_vblanks - r->last_second_missed),
            st.latency_mean_ns / 1e6, st.latency_p99_ns / 1e6);
    fflush(out);
    r->last_second_missed = st.missed_vblanks;
    r->next_second_frame = r->n;
    r->second_start_us = now;
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
    fprintf(out, "  %-18s %llu presented, %llu completed, %llu skipped, in %.2f s\n", "frames",
            (unsigned long long)st->presented, (unsigned long long)st->completed,
            (unsigned long long)st->skipped, s->seconds);
    fprintf(out, "  %-18s %.3f ms (%.2f Hz)\n", "refresh", st->refresh_ns / 1e6, hz);
    fprintf(out, "  %-18s mean %.2f ms, min %.2f ms, max %.2f ms\n", "frame interval", mean,
            min, max);
    fprintf(out, "  %-18s %llu (%u frames shown late although sent in time, %u sent late)\n",
            "missed vblanks", (unsigned long long)st->missed_vblanks, r->server_late,
            r->client_late);
    fprintf(out, "  %-18s mean %.2f ms, p99 %.2f ms (present() to shown)\n", "latency",
            st->latency_mean_ns / 1e6, st->latency_p99_ns / 1e6);
    fprintf(out, "  %-18s %llu copies, %llu flips\n", "completions",
            (unsigned long long)st->copies, (unsigned long long)st->flips);
    fprintf(out, "  %-18s msc %llu, ust %llu us\n", "last frame",
            (unsigned long long)st->last_msc, (unsigned long long)st->last_ust);
}

int demo_report_plot(const struct demo_report *r, const xcb_present_util_stats_t *st,
                     const char *path)
{
    const double w = 800, h = 300, top = 20, left = 50, bottom = 30;
    double refresh = st->refresh_ns ? st->refresh_ns / 1e6 : 16.667, ymax = 4 * refresh;
    const xcb_present_util_frame_t *prev = NULL;
    FILE *f = fopen(path, "we");
    uint32_t n = r->n > 1 ? r->n - 1 : 1;

    if (!f)
        return -1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n",
            w + left + 10, h + top + bottom);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.0f\" y=\"14\" font-size=\"12\">interval between shown frames "
            "(ms) per frame; dashed: one refresh (%.2f ms)</text>\n", left, refresh);
    for (int k = 0; k <= 4; k++) {
        double y = top + h - h * k / 4;

        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ccc\"%s/>\n",
                left, y, left + w, y, k == 1 ? " stroke-dasharray=\"4\"" : "");
        fprintf(f, "<text x=\"4\" y=\"%.1f\" font-size=\"10\">%.1f</text>\n", y + 3,
                ymax * k / 4);
    }
    fprintf(f, "<polyline fill=\"none\" stroke=\"#1565c0\" points=\"");
    for (uint32_t i = 0; i < r->n; i++) {
        const xcb_present_util_frame_t *fr = &r->frames[i];

        if (fr->mode == XCB_PRESENT_COMPLETE_MODE_SKIP)
            continue;
        if (prev && fr->ust >= prev->ust) {
            double d = (double)(fr->ust - prev->ust) / 1000.0;

            if (d > ymax)
                d = ymax;
            fprintf(f, "%.1f,%.1f ", left + w * i / n, top + h - h * d / ymax);
        }
        prev = fr;
    }
    fprintf(f, "\"/>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">frame 1 .. %u</text>\n",
            left, top + h + 20, r->n);
    fprintf(f, "</svg>\n");
    return fclose(f) == 0 ? 0 : -1;
}
