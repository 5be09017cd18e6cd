/*
 * Soak: many frames through one swapchain against the mock X server, with
 * a resize every 100 frames, checking that nothing grows: the client's
 * open fds and resident memory, and the pixmaps (and other resources) the
 * server holds for it (mock_server_stats()).
 *
 *   SOAK_IMMEDIATE_FRAMES  frames of the IMMEDIATE test (default 1000000)
 *   SOAK_FIFO_FRAMES       frames of the FIFO test (default 10000)
 *
 * The mock's vblank runs at 1000 Hz so that FIFO frames come quickly;
 * nothing here asserts speed: each test prints its frames per second.
 * Growth is judged between two samples taken at the same point of the
 * resize cycle, the first after a warm-up (allocators and caches settle)
 * and the last at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mock-session.h"
#include "test-clock.h"
#include "test-runner.h"
#include "xcb_present_util.h"
#include "swapchain-or-fail.h"

#define RESIZE_EVERY 100
#define WARM_UP_FRAMES 2000
/* Resident memory may move by allocator noise, never by a leak per frame:
 * 10^6 frames leaking 8 bytes each would show 8 MB. */
#define RSS_SLACK_KB 4096

struct sample {
    int fds;
    long rss_kb, server_rss_kb;
    struct mock_stats server;
};

struct soak {
    struct mock_server *server;
    xcb_connection_t *c;
    xcb_window_t window;
    xcb_present_util_swapchain_t *sc;
};

static unsigned long frames_from_env(const char *name, unsigned long dflt)
{
    const char *v = getenv(name);
    char *end;
    unsigned long n;

    if (!v || !*v)
        return dflt;
    n = strtoul(v, &end, 10);
    return *end == '\0' && n > 0 ? n : dflt;
}

static long rss_kb(pid_t pid)
{
    char path[64];
    long pages = -1, resident = -1;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    f = fopen(path, "re");
    if (!f)
        return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
        resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void start(struct soak *s, xcb_present_util_mode_t mode)
{
    struct mock_config *cfg = mock_config_new();
    const xcb_screen_t *screen;

    CHECK(cfg != NULL);
    /* No transcript: a million frames would write gigabytes of it. */
    CHECK_EQ(mock_config_set(cfg, "transcript", "off"), 0);
    CHECK_EQ(mock_config_set(cfg, "msc-rate", "1000"), 0);
    screen = mock_session_start(cfg, &s->server, &s->c);
    s->window = mock_session_window(s->c, screen);
    s->sc = swapchain_or_fail(s->c, s->window, mode, XCB_PRESENT_UTIL_BACKEND_AUTO, 0, NULL,
                              NULL);
}

static void stop(struct soak *s)
{
    xcb_present_util_swapchain_destroy(s->sc);
    xcb_disconnect(s->c);
    mock_server_free(s->server);
}

static void take(struct soak *s, struct sample *out)
{
    out->fds = test_count_fds();
    out->rss_kb = rss_kb(getpid());
    out->server_rss_kb = rss_kb(mock_server_pid(s->server));
    CHECK_EQ(mock_server_stats(s->server, s->c, &out->server), 0);
}

static void show(const char *when, unsigned long frame, const struct sample *x)
{
    printf("# %s (frame %lu): fds %d, rss %ld kB, server rss %ld kB, server pixmaps %u, "
           "fences %u, gcs %u, resources %u\n",
           when, frame, x->fds, x->rss_kb, x->server_rss_kb, x->server.pixmaps,
           x->server.fences, x->server.gcs, x->server.resources);
    fflush(stdout);
}

/* The window takes turns between two sizes; the swapchain sees the
 * server's ConfigureNotify and reallocates its buffers. */
static void resize(struct soak *s, unsigned long frame)
{
    uint32_t big = (frame / RESIZE_EVERY) & 1, size[2] = { big ? 80 : 64, big ? 60 : 48 };

    xcb_configure_window(s->c, s->window,
                         XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
    xcb_flush(s->c);
}

static void soak(xcb_present_util_mode_t mode, unsigned long frames)
{
    struct soak s;
    struct sample first = { 0 }, last = { 0 };
    xcb_present_util_stats_t st = { .size = sizeof st };
    unsigned long warm = frames > 10 * WARM_UP_FRAMES ? WARM_UP_FRAMES : frames / 10;
    double t0, t;

    /* A sample is taken just before a resize: the same point of the cycle */
    warm -= warm % RESIZE_EVERY;
    start(&s, mode);
    t0 = (double)test_now_ns() / 1e9;
    for (unsigned long i = 0; i < frames; i++) {
        xcb_present_util_image_t img = { .size = sizeof img };
        int r;

        if (i % RESIZE_EVERY == 0) {
            if (i == warm)
                take(&s, &first);
            resize(&s, i);
        }
        /* A second is far more than a free buffer takes at 1000 Hz; a
         * timeout here is a swapchain that lost its buffers. */
        r = xcb_present_util_acquire(s.sc, 1000000000, &img);
        if (r != 0)
            test_fail(__FILE__, __LINE__, "frame %lu: acquire: %s", i, strerror(-r));
        ((uint8_t *)img.pixels)[0] = (uint8_t)i;
        r = xcb_present_util_present(s.sc, &img, NULL, 0);
        if (r != 0)
            test_fail(__FILE__, __LINE__, "frame %lu: present: %s", i, strerror(-r));
    }
    t = (double)test_now_ns() / 1e9 - t0;
    take(&s, &last);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    printf("# %s: %lu frames in %.1f s (%.0f frames/s), %llu completed, %llu skipped\n",
           xcb_present_util_mode_name(mode), frames, t, (double)frames / t,
           (unsigned long long)st.completed, (unsigned long long)st.skipped);
    show("after warm-up", warm, &first);
    show("at the end", frames, &last);
    stop(&s);
    CHECK_EQ(st.presented, frames);
    CHECK(last.fds <= first.fds);
    CHECK(last.server.pixmaps <= first.server.pixmaps);
    CHECK(last.server.fences <= first.server.fences);
    CHECK(last.server.resources <= first.server.resources);
    CHECK(last.rss_kb <= first.rss_kb + RSS_SLACK_KB);
    CHECK(last.server_rss_kb <= first.server_rss_kb + RSS_SLACK_KB);
}

TEST(immediate_frames_with_resizes)
{
    soak(XCB_PRESENT_UTIL_MODE_IMMEDIATE, frames_from_env("SOAK_IMMEDIATE_FRAMES", 1000000));
}

TEST(fifo_frames_with_resizes)
{
    soak(XCB_PRESENT_UTIL_MODE_FIFO, frames_from_env("SOAK_FIFO_FRAMES", 10000));
}
