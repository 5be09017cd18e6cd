/*
 * xcb-present-demo's figures without a server: the nearest-rank
 * percentile (tools/percentile.c) on small arrays, and the report's one
 * latency (tools/demo-report.c) from frames made up here, as its summary
 * and its per-second line print it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/present.h>

#include "demo-report.h"
#include "percentile.h"
#include "test-runner.h"

#define CHECK_MS(a, b) CHECK((a) > (b) - 1e-9 && (a) < (b) + 1e-9)

/* Seven frames of about 9.4 ms and one outlier: the case that printed
 * "mean 10.97 ms, p50 9.40 ms, p99 9.77 ms (7 frames)". */
static const double seven[7] = { 9.0, 9.1, 9.2, 9.4, 9.5, 9.77, 20.0 };

TEST(p99_of_seven_values_is_their_largest)
{
    CHECK_MS(tool_percentile(seven, 7, 99), 20.0);
    CHECK_MS(tool_percentile(seven, 7, 100), 20.0);
}

TEST(p50_is_the_value_at_rank_ceil_half_n)
{
    static const double four[4] = { 1, 2, 3, 4 };

    CHECK_MS(tool_percentile(seven, 7, 50), 9.4);     /* rank 4 of 7 */
    CHECK_MS(tool_percentile(four, 4, 50), 2);        /* rank 2 of 4 */
    CHECK_MS(tool_percentile(four, 4, 51), 3);        /* rank ceil(2.04) = 3 */
    CHECK_MS(tool_percentile(four, 4, 1), 1);
}

TEST(one_value_is_every_percentile_and_none_is_zero)
{
    static const double one[1] = { 5.5 };

    for (unsigned p = 1; p <= 100; p++)
        CHECK_MS(tool_percentile(one, 1, p), 5.5);
    CHECK_MS(tool_percentile(one, 0, 99), 0);
}

/* p99 at rank ceil(0.99 n): 100 values give the 99th, 101 the 100th,
 * 240 the 238th (the index (n - 1) * 0.99 rounded down gave the 237th);
 * for fewer than 100 values it is the largest, so never below the mean. */
TEST(p99_by_nearest_rank_on_larger_arrays)
{
    double v[240];

    for (int i = 0; i < 240; i++)
        v[i] = i + 1;
    CHECK_MS(tool_percentile(v, 100, 99), 99);
    CHECK_MS(tool_percentile(v, 101, 99), 100);
    CHECK_MS(tool_percentile(v, 240, 99), 238);
    CHECK_MS(tool_percentile(v, 200, 99), 198);
    CHECK_MS(tool_percentile(v, 240, 50), 120);
    for (size_t n = 1; n < 100; n++)
        CHECK_MS(tool_percentile(v, n, 99), (double)n);
}

TEST(sorting_then_percentile_is_monotonic_in_p)
{
    double v[7];

    memcpy(v, seven, sizeof v);
    /* shuffled */
    v[0] = seven[6], v[6] = seven[0], v[3] = seven[1], v[1] = seven[3];
    tool_sort_doubles(v, 7);
    CHECK(memcmp(v, seven, sizeof v) == 0);
    for (unsigned p = 1; p < 100; p++)
        CHECK(tool_percentile(v, 7, p) <= tool_percentile(v, 7, p + 1));
}

/* A report of the seven frames (acquire_us to ust as above), one skipped
 * frame, and one whose UST came from another clock. */
static void seven_frames(struct demo_report *r)
{
    CHECK(demo_report_init(r, 2) == 0);     /* grows */
    for (int i = 0; i < 9; i++) {
        xcb_present_util_frame_t f = { .size = sizeof f, .frame = (uint64_t)i + 1,
                                       .mode = XCB_PRESENT_COMPLETE_MODE_COPY,
                                       .acquire_us = 1000000 + (uint64_t)i * 16667 };

        if (i < 7)
            f.ust = f.acquire_us + (uint64_t)(seven[(i + 3) % 7] * 1000 + 0.5);
        else if (i == 7)
            f.mode = XCB_PRESENT_COMPLETE_MODE_SKIP;
        else
            f.ust = f.acquire_us + 20000000;    /* 20 s: not our clock */
        f.msc = (uint64_t)i + 100;
        demo_report_frame(r, &f);
    }
    CHECK_EQ(r->n, 9);
}

TEST(the_report_latency_is_nearest_rank_over_its_shown_frames)
{
    struct demo_report r;
    struct demo_latency lat;

    seven_frames(&r);
    demo_report_latency(&r, 0, &lat);
    CHECK_EQ(lat.count, 7);
    CHECK_MS(lat.p99, 20.0);
    CHECK_MS(lat.max, 20.0);
    CHECK_MS(lat.p50, 9.4);
    CHECK(lat.mean > 10.8 && lat.mean < 10.9);
    CHECK(lat.p99 >= lat.mean);
    demo_report_free(&r);
}

/* Every line that gives a latency says which one. */
static void check_latency_lines(const char *text)
{
    const char *line = text;

    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];

        snprintf(buf, sizeof buf, "%.*s", (int)len, line);
        if (strstr(buf, "latency") && !strstr(buf, "max latency"))
            CHECK(strstr(buf, "acquire() to shown") != NULL);
        if (strstr(buf, "p99"))
            CHECK(strstr(buf, "acquire() to shown") != NULL);
        line = end ? end + 1 : NULL;
    }
}

TEST(the_summary_and_the_per_second_line_print_the_same_latency)
{
    struct demo_report r;
    struct demo_setup s = { .display = ":9", .backend = XCB_PRESENT_UTIL_BACKEND_SHM,
                            .mode = XCB_PRESENT_UTIL_MODE_MAILBOX, .buffers = 3,
                            .width = 64, .height = 48, .seconds = 1 };
    xcb_present_util_stats_t st = { .size = sizeof st, .presented = 9, .completed = 9 };
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);

    CHECK(out);
    seven_frames(&r);
    demo_report_line(&r, &st, 1.0, out);
    r.next_second_frame = 0;
    demo_report_summary(&r, &s, &st, out);
    fclose(out);
    test_note("%s", text);
    CHECK(strstr(text, "latency (acquire() to shown) 10.85 ms, p99 20.00 ms\n"));
    CHECK(strstr(text, "mean 10.85 ms, p50 9.40 ms, p99 20.00 ms, max 20.00 ms "
                       "(acquire() to shown, 7 frames)\n"));
    check_latency_lines(text);
    free(text);
    demo_report_free(&r);
}
