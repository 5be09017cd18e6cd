/*
 * What the server itself allows, measured with a raw libxcb-present loop
 * (no library of ours between the program and Present), to hold the
 * swapchain's figures against:
 *
 *   present-floor [--on-display] [--managed] fifo FRAMES
 *       A FIFO loop as a Vulkan driver writes one: three MIT-SHM pixmaps,
 *       each frame aimed at the vblank after the one before (never at one
 *       the server already reported), pixmaps reused on IdleNotify.
 *       Reports the frames the server skipped, the vblanks left out
 *       between two frames shown, and two frames shown on one vblank,
 *       with the first frame of each.
 *
 *   present-floor [--on-display] [--managed] sweep FRAMES STEP_US
 *       The latency floor: each frame waits for the completion of the one
 *       before (vblank M at UST U), sleeps until U + phase, renders for
 *       2 ms (a spin) and is presented for vblank M + 1.  For each phase
 *       from 0 up to a refresh in steps of STEP_US, FRAMES frames: the
 *       mean latency from the render's start to the UST of the vblank
 *       that showed the frame, and the frames that missed M + 1.  The
 *       floor is the lowest mean latency of a phase with at most 1% of
 *       its frames missed.
 *
 * The server: a private Xvfb, or with --on-display the one in $DISPLAY
 * (tests/servers/with-server xwayland ... for Xwayland).  The window is
 * override-redirect (no window manager moves or resizes it) unless
 * --managed.  Present's UST is CLOCK_MONOTONIC in microseconds on Xvfb
 * and Xwayland, which this program reads too.
 */
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xcb/present.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include "clock.h"
#include "xvfb-spawn.h"

enum { W = 256, H = 256, BUFS = 3, RENDER_NS = 2000000 };

struct buf {
    xcb_pixmap_t pixmap;
    void *pixels;
    bool busy;
};

/* What the server said of one frame (by serial). */
struct shown {
    uint64_t msc, ust;
    uint8_t mode;
    bool done;
};

struct loop {
    xcb_connection_t *c;
    xcb_window_t win;
    xcb_special_event_t *se;
    struct buf b[BUFS];
    uint64_t last_msc, last_ust;    /* the latest completion (any kind) */
    struct shown *shown;            /* by serial, n_shown entries */
    uint32_t n_shown;
};

static void take_event(struct loop *l, xcb_generic_event_t *ev)
{
    xcb_present_generic_event_t *ge = (xcb_present_generic_event_t *)ev;

    if (ge->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
        xcb_present_complete_notify_event_t *cn = (void *)ev;

        if (cn->msc >= l->last_msc) {
            l->last_msc = cn->msc;
            l->last_ust = cn->ust;
        }
        if (cn->kind == XCB_PRESENT_COMPLETE_KIND_PIXMAP && cn->serial < l->n_shown)
            l->shown[cn->serial] = (struct shown){ cn->msc, cn->ust, cn->mode, true };
    } else if (ge->evtype == XCB_PRESENT_IDLE_NOTIFY) {
        xcb_present_idle_notify_event_t *in = (void *)ev;

        for (int i = 0; i < BUFS; i++)
            if (l->b[i].pixmap == in->pixmap)
                l->b[i].busy = false;
    }
    free(ev);
}

/* Takes in the events that came, after waiting up to timeout_ms for one. */
static void pump(struct loop *l, int timeout_ms)
{
    struct pollfd pfd = { .fd = xcb_get_file_descriptor(l->c), .events = POLLIN };
    xcb_generic_event_t *ev;

    if (timeout_ms && !(ev = xcb_poll_for_special_event(l->c, l->se))) {
        poll(&pfd, 1, timeout_ms);
    } else if (timeout_ms) {
        take_event(l, ev);
    }
    while ((ev = xcb_poll_for_special_event(l->c, l->se)))
        take_event(l, ev);
}

static int loop_setup(struct loop *l, uint32_t frames)
{
    uint32_t eid = xcb_generate_id(l->c);

    l->n_shown = frames + 1;
    l->shown = calloc(l->n_shown, sizeof *l->shown);
    if (!l->shown)
        return -1;
    for (int i = 0; i < BUFS; i++) {
        int fd = memfd_create("present-floor", MFD_CLOEXEC);
        xcb_shm_seg_t seg = xcb_generate_id(l->c);

        if (fd < 0 || ftruncate(fd, W * H * 4) < 0)
            return -1;
        l->b[i].pixels = mmap(NULL, W * H * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (l->b[i].pixels == MAP_FAILED)
            return -1;
        xcb_shm_attach_fd(l->c, seg, fd, 0);
        l->b[i].pixmap = xcb_generate_id(l->c);
        xcb_shm_create_pixmap(l->c, l->b[i].pixmap, l->win, W, H, 24, seg, 0);
    }
    l->se = xcb_register_for_special_xge(l->c, &xcb_present_id, eid, NULL);
    xcb_present_select_input(l->c, eid, l->win,
                             XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                             XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY);
    xcb_present_notify_msc(l->c, l->win, 0, 0, 0, 0);
    xcb_flush(l->c);
    for (int i = 0; i < 200 && !l->last_msc; i++)
        pump(l, 10);
    return l->last_msc ? 0 : -1;
}

static struct buf *free_buf(struct loop *l)
{
    for (int tries = 0; tries < 500; tries++) {
        for (int i = 0; i < BUFS; i++)
            if (!l->b[i].busy)
                return &l->b[i];
        pump(l, 10);
    }
    return NULL;
}

static void present(struct loop *l, struct buf *b, uint32_t serial, uint64_t target)
{
    b->busy = true;
    xcb_present_pixmap(l->c, l->win, b->pixmap, serial, 0, 0, 0, 0, 0, 0, 0, 0, target, 0, 0,
                       0, NULL);
    xcb_flush(l->c);
}

/* Waits (up to 2 s) for frame serial's completion. */
static bool wait_shown(struct loop *l, uint32_t serial)
{
    int64_t end = tool_now_ns() + 2000000000;

    while (!l->shown[serial].done && tool_now_ns() < end)
        pump(l, 5);
    return l->shown[serial].done;
}

/* ---- fifo ---------------------------------------------------------------- */

static int run_fifo(struct loop *l, uint32_t frames)
{
    uint64_t last_target = 0;
    uint32_t skipped = 0, gaps = 0, doubled = 0, lost = 0;
    uint32_t first_skip = 0, first_gap = 0, first_double = 0;
    const struct shown *prev = NULL;

    for (uint32_t n = 1; n <= frames; n++) {
        struct buf *b = free_buf(l);
        uint64_t target;

        if (!b) {
            printf("fifo: no pixmap came back after frame %u\n", n - 1);
            return -1;
        }
        memset(b->pixels, (int)n, W * H * 4);
        target = last_target + 1 > l->last_msc + 1 ? last_target + 1 : l->last_msc + 1;
        last_target = target;
        present(l, b, n, target);
        pump(l, 0);
    }
    wait_shown(l, frames);
    for (uint32_t n = 1; n <= frames; n++) {
        const struct shown *s = &l->shown[n];

        if (!s->done) {
            lost++;
            continue;
        }
        if (s->mode == XCB_PRESENT_COMPLETE_MODE_SKIP) {
            first_skip = skipped++ ? first_skip : n;
            continue;
        }
        if (prev && s->msc > prev->msc + 1)
            first_gap = gaps++ ? first_gap : n;
        if (prev && s->msc == prev->msc)
            first_double = doubled++ ? first_double : n;
        prev = s;
    }
    printf("fifo: %u frames, msc %llu..%llu: %u skipped (first %u), %u vblanks left out "
           "before a frame (first before frame %u), %u shown on the vblank of the one before "
           "(first %u), %u not completed\n", frames, (unsigned long long)l->shown[1].msc,
           (unsigned long long)l->shown[frames].msc, skipped, first_skip, gaps, first_gap,
           doubled, first_double, lost);
    return 0;
}

/* ---- sweep --------------------------------------------------------------- */

static void sleep_until_ns(int64_t t)
{
    struct timespec ts = { (time_t)(t / 1000000000), (long)(t % 1000000000) };

    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static int run_sweep(struct loop *l, uint32_t frames, uint32_t step_us)
{
    uint32_t serial = 0;
    double refresh_us, best = 0, best_phase = 0;
    uint64_t msc0, ust0;

    /* the refresh, from 30 vblanks of NotifyMSC */
    msc0 = l->last_msc;
    ust0 = l->last_ust;
    xcb_present_notify_msc(l->c, l->win, 0, msc0 + 30, 0, 0);
    xcb_flush(l->c);
    for (int i = 0; i < 300 && l->last_msc < msc0 + 30; i++)
        pump(l, 10);
    if (l->last_msc <= msc0 || l->last_ust <= ust0)
        return -1;
    refresh_us = (double)(l->last_ust - ust0) / (double)(l->last_msc - msc0);
    printf("sweep: refresh %.3f ms; %u frames a phase, each rendered for %.1f ms from the "
           "phase after the last completion and aimed at the vblank after it\n",
           refresh_us / 1000, frames, RENDER_NS / 1e6);
    printf("  phase ms   mean latency ms   missed\n");
    for (uint32_t phase = 0; phase < refresh_us; phase += step_us) {
        double sum = 0;
        uint32_t missed = 0, shown = 0;

        for (uint32_t k = 0; k < frames; k++) {
            struct buf *b = free_buf(l);
            uint64_t m = l->last_msc, u = l->last_ust;
            int64_t start;

            if (!b || ++serial >= l->n_shown)
                return -1;
            sleep_until_ns((int64_t)(u + phase) * 1000);
            start = tool_now_ns();
            memset(b->pixels, (int)serial, W * H * 4);
            while (tool_now_ns() - start < RENDER_NS)
                ;
            present(l, b, serial, m + 1);
            if (!wait_shown(l, serial))
                return -1;
            if (l->shown[serial].msc > m + 1)
                missed++;
            if (l->shown[serial].mode != XCB_PRESENT_COMPLETE_MODE_SKIP) {
                sum += (double)l->shown[serial].ust - (double)start / 1000;
                shown++;
            }
        }
        if (!shown)
            continue;
        printf("  %8.1f   %15.2f   %3u/%u\n", phase / 1000.0, sum / shown / 1000, missed, frames);
        if (missed * 100 <= frames && (!best || sum / shown < best)) {
            best = sum / shown;
            best_phase = phase;
        }
    }
    printf("sweep: floor %.2f ms (phase %.1f ms, at most 1%% missed)\n", best / 1000,
           best_phase / 1000);
    return 0;
}

/* ---- main ---------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: present-floor [--on-display] [--managed] fifo FRAMES\n"
                    "       present-floor [--on-display] [--managed] sweep FRAMES STEP_US\n");
    return 2;
}

int main(int argc, char **argv)
{
    bool on_display = false, managed = false;
    struct xvfb x = { 0 };
    struct loop l = { 0 };
    const xcb_screen_t *screen;
    uint32_t values[1] = { 1 };
    int a = 1, r;

    for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
        if (!strcmp(argv[a], "--on-display"))
            on_display = true;
        else if (!strcmp(argv[a], "--managed"))
            managed = true;
        else
            return usage();
    }
    if (a >= argc || (strcmp(argv[a], "fifo") && strcmp(argv[a], "sweep")) ||
        argc - a < (strcmp(argv[a], "fifo") ? 3 : 2) || atoi(argv[a + 1]) < 1)
        return usage();
    if (!on_display && xvfb_start(&x, "640x480x24") < 0) {
        printf("present-floor: skipped, no Xvfb\n");
        return 0;
    }
    l.c = xcb_connect(on_display ? NULL : x.display, NULL);
    if (xcb_connection_has_error(l.c)) {
        fprintf(stderr, "present-floor: cannot connect to the X server\n");
        return 1;
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(l.c)).data;
    l.win = xcb_generate_id(l.c);
    xcb_create_window(l.c, 24, l.win, screen->root, 0, 0, W, H, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                      managed ? 0 : XCB_CW_OVERRIDE_REDIRECT, managed ? NULL : values);
    xcb_map_window(l.c, l.win);
    free(xcb_get_input_focus_reply(l.c, xcb_get_input_focus(l.c), NULL));
    if (!strcmp(argv[a], "fifo")) {
        uint32_t frames = (uint32_t)atoi(argv[a + 1]);

        r = loop_setup(&l, frames) < 0 ? -1 : run_fifo(&l, frames);
    } else {
        uint32_t frames = (uint32_t)atoi(argv[a + 1]), step = (uint32_t)atoi(argv[a + 2]);

        r = step < 100 ? -1
            : loop_setup(&l, frames * (20000 / step + 2)) < 0 ? -1 : run_sweep(&l, frames, step);
    }
    if (r < 0)
        fprintf(stderr, "present-floor: the server did not answer as Present should\n");
    xcb_disconnect(l.c);
    free(l.shown);
    if (!on_display)
        xvfb_stop(&x);
    return r < 0;
}
