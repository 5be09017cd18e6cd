/*
 * The swapchain's cost to the client, against a plain loop written
 * directly on libxcb-present that does the same work: MIT-SHM pixmaps on
 * memfds, a special event queue, PresentPixmap aimed at the next vblank
 * (FIFO) or Async (IMMEDIATE), buffers reused on IdleNotify.  Both run on
 * the same private Xvfb, alternately, after a warm-up.
 *
 * Per frame, in steady state: client CPU time (CLOCK_PROCESS_CPUTIME_ID:
 * the server is another process) and heap allocations, counted by
 * wrappers of malloc/calloc/realloc that this program puts in front of
 * glibc's for every library in the process.  Allocations whose caller is
 * inside libxcb-present-util are counted apart: "ours".
 *
 * Usage: present-bench [FIFO_FRAMES [IMMEDIATE_FRAMES]]
 */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xcb/present.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include "xcb_present_util.h"
#include "xvfb-spawn.h"

/* ---- counting allocations ------------------------------------------- */

/* Sanitizers put their own allocator in front of glibc's: no counting
 * there (the figures then read 0). */
#if defined(__SANITIZE_ADDRESS__)
#define COUNT_ALLOCS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNT_ALLOCS 0
#endif
#endif
#ifndef COUNT_ALLOCS
#define COUNT_ALLOCS 1
#endif


static atomic_ulong n_allocs, n_ours;
static uintptr_t ours_lo, ours_hi;      /* libxcb-present-util's text */

__attribute__((unused)) static void count(void *caller)
{
    atomic_fetch_add_explicit(&n_allocs, 1, memory_order_relaxed);
    if ((uintptr_t)caller >= ours_lo && (uintptr_t)caller < ours_hi)
        atomic_fetch_add_explicit(&n_ours, 1, memory_order_relaxed);
}

#if COUNT_ALLOCS
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

void *malloc(size_t n)
{
    count(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    count(__builtin_return_address(0));
    return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    count(__builtin_return_address(0));
    return __libc_realloc(p, n);
}
#endif

/* The library's address range, from /proc/self/maps. */
static void find_ours(void)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[512];

    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;

        if (strstr(line, "libxcb-present-util") && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
            if (!ours_lo || lo < ours_lo)
                ours_lo = lo;
            if (hi > ours_hi)
                ours_hi = hi;
        }
    }
    if (f)
        fclose(f);
}

static double cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- the work both loops do ------------------------------------------ */

#define W 64
#define H 64
#define NBUF 3

static void render(void *pixels, uint32_t stride, uint32_t n)
{
    for (uint32_t y = 0; y < H; y++)
        memset((uint8_t *)pixels + (size_t)y * stride, (int)(n + y), W * 4);
}

struct result {
    double cpu_per_frame_ns;
    double allocs_per_frame, ours_per_frame;
};

/* ---- the swapchain -------------------------------------------------- */

static int run_swapchain(xcb_connection_t *c, xcb_window_t win, xcb_present_util_mode_t mode,
                         uint32_t warm, uint32_t frames, struct result *res)
{
    xcb_present_util_options_t o = { .size = sizeof o, .mode = mode,
                                     .backend = XCB_PRESENT_UTIL_BACKEND_SHM, .num_buffers = NBUF };
    xcb_present_util_swapchain_t *sc = xcb_present_util_swapchain_create(c, win, &o);
    unsigned long a0 = 0, o0 = 0;
    double t0 = 0;

    if (!sc)
        return -1;
    for (uint32_t n = 0; n < warm + frames; n++) {
        xcb_present_util_image_t img = { .size = sizeof img };

        if (n == warm) {
            a0 = atomic_load(&n_allocs);
            o0 = atomic_load(&n_ours);
            t0 = cpu_ns();
        }
        if (xcb_present_util_acquire(sc, 1000000000, &img) < 0 ||
            xcb_present_util_present(sc, &img, NULL, 0) < 0) {
            xcb_present_util_swapchain_destroy(sc);
            return -1;
        }
        render(img.pixels, img.stride, n);
    }
    res->cpu_per_frame_ns = (cpu_ns() - t0) / frames;
    res->allocs_per_frame = (double)(atomic_load(&n_allocs) - a0) / frames;
    res->ours_per_frame = (double)(atomic_load(&n_ours) - o0) / frames;
    xcb_present_util_swapchain_destroy(sc);
    return 0;
}

/* ---- the plain loop on libxcb-present --------------------------------- */

struct plain_buf {
    void *pixels;
    xcb_pixmap_t pixmap;
    uint32_t seg;
    bool busy;
};

struct plain {
    xcb_connection_t *c;
    xcb_window_t win;
    xcb_special_event_t *se;
    uint32_t eid, serial;
    uint64_t last_msc, last_target;
    struct plain_buf b[NBUF];
};

static void plain_events(struct plain *p, int timeout_ms)
{
    struct pollfd pfd = { .fd = xcb_get_file_descriptor(p->c), .events = POLLIN };
    xcb_generic_event_t *ev;

    if (timeout_ms)
        poll(&pfd, 1, timeout_ms);
    while ((ev = xcb_poll_for_special_event(p->c, p->se))) {
        xcb_present_generic_event_t *ge = (xcb_present_generic_event_t *)ev;

        if (ge->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
            xcb_present_complete_notify_event_t *cn = (void *)ev;

            if (cn->msc > p->last_msc)
                p->last_msc = cn->msc;
        } else if (ge->evtype == XCB_PRESENT_IDLE_NOTIFY) {
            xcb_present_idle_notify_event_t *in = (void *)ev;

            for (int i = 0; i < NBUF; i++)
                if (p->b[i].pixmap == in->pixmap)
                    p->b[i].busy = false;
        }
        free(ev);
    }
}

static int plain_setup(struct plain *p)
{
    for (int i = 0; i < NBUF; i++) {
        int fd = memfd_create("plain", MFD_CLOEXEC);

        if (fd < 0 || ftruncate(fd, W * H * 4) < 0)
            return -1;
        p->b[i].pixels = mmap(NULL, W * H * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p->b[i].pixels == MAP_FAILED)
            return -1;
        p->b[i].seg = xcb_generate_id(p->c);
        xcb_shm_attach_fd(p->c, p->b[i].seg, fd, 0);
        p->b[i].pixmap = xcb_generate_id(p->c);
        xcb_shm_create_pixmap(p->c, p->b[i].pixmap, p->win, W, H, 24, p->b[i].seg, 0);
    }
    p->eid = xcb_generate_id(p->c);
    p->se = xcb_register_for_special_xge(p->c, &xcb_present_id, p->eid, NULL);
    xcb_present_select_input(p->c, p->eid, p->win,
                             XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                             XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY);
    /* where the CRTC is, to aim the first frame (as the swapchain does) */
    xcb_present_notify_msc(p->c, p->win, 0, 0, 0, 0);
    xcb_flush(p->c);
    for (int i = 0; i < 100 && !p->last_msc; i++)
        plain_events(p, 5);
    return p->last_msc ? 0 : -1;
}

static void plain_teardown(struct plain *p)
{
    for (int i = 0; i < NBUF; i++) {
        xcb_free_pixmap(p->c, p->b[i].pixmap);
        xcb_shm_detach(p->c, p->b[i].seg);
        munmap(p->b[i].pixels, W * H * 4);
    }
    xcb_present_select_input(p->c, p->eid, p->win, 0);
    free(xcb_get_input_focus_reply(p->c, xcb_get_input_focus(p->c), NULL));
    xcb_unregister_for_special_event(p->c, p->se);
}

static int run_plain(xcb_connection_t *c, xcb_window_t win, bool fifo, uint32_t warm,
                     uint32_t frames, struct result *res)
{
    struct plain p = { .c = c, .win = win };
    unsigned long a0 = 0;
    double t0 = 0;

    if (plain_setup(&p) < 0)
        return -1;
    for (uint32_t n = 0; n < warm + frames; n++) {
        struct plain_buf *b = NULL;
        uint64_t target = 0;

        if (n == warm) {
            a0 = atomic_load(&n_allocs);
            t0 = cpu_ns();
        }
        for (int tries = 0; !b && tries < 1000; tries++) {
            for (int i = 0; i < NBUF && !b; i++)
                if (!p.b[i].busy)
                    b = &p.b[i];
            if (!b)
                plain_events(&p, 100);
        }
        if (!b)
            return -1;
        render(b->pixels, W * 4, n);
        if (fifo) {
            target = p.last_target + 1 > p.last_msc + 2 ? p.last_target + 1 : p.last_msc + 2;
            p.last_target = target;
        }
        b->busy = true;
        xcb_present_pixmap(c, win, b->pixmap, ++p.serial, 0, 0, 0, 0, 0, 0, 0,
                           fifo ? 0 : XCB_PRESENT_OPTION_ASYNC, target, 0, 0, 0, NULL);
        xcb_flush(c);
        plain_events(&p, 0);
    }
    res->cpu_per_frame_ns = (cpu_ns() - t0) / frames;
    res->allocs_per_frame = (double)(atomic_load(&n_allocs) - a0) / frames;
    res->ours_per_frame = 0;
    plain_teardown(&p);
    return 0;
}

/* ---- main --------------------------------------------------------------- */

static void best(struct result *into, const struct result *r)
{
    if (!into->cpu_per_frame_ns || r->cpu_per_frame_ns < into->cpu_per_frame_ns)
        *into = *r;
}

int main(int argc, char **argv)
{
    uint32_t fifo_frames = argc > 1 ? (uint32_t)atoi(argv[1]) : 240;
    uint32_t imm_frames = argc > 2 ? (uint32_t)atoi(argv[2]) : 3000;
    struct result sw[2] = { { 0 } }, pl[2] = { { 0 } }, r;
    struct xvfb x;
    xcb_connection_t *c;
    xcb_window_t win;
    const xcb_screen_t *screen;

    if (fifo_frames < 10 || imm_frames < 10) {
        fprintf(stderr, "usage: present-bench [FIFO_FRAMES [IMMEDIATE_FRAMES]] (10 or more)\n");
        return 2;
    }
    if (xvfb_start(&x, "640x480x24") < 0) {
        printf("present-bench: skipped, no Xvfb\n");
        return 0;
    }
    c = xcb_connect(x.display, NULL);
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    win = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, 0, 0, W, H, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
    xcb_map_window(c, win);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    find_ours();
    /* Three rounds, alternating, so that a disturbance hits both; the
     * best round of each counts. */
    for (int round = 0; round < 3; round++) {
        for (int m = 0; m < 2; m++) {
            uint32_t n = m ? imm_frames : fifo_frames, warm = m ? 200 : 30;

            if (run_swapchain(c, win, m ? XCB_PRESENT_UTIL_MODE_IMMEDIATE
                                        : XCB_PRESENT_UTIL_MODE_FIFO, warm, n, &r) < 0) {
                fprintf(stderr, "present-bench: the swapchain failed\n");
                return 1;
            }
            best(&sw[m], &r);
            if (run_plain(c, win, !m, warm, n, &r) < 0) {
                fprintf(stderr, "present-bench: the plain loop failed\n");
                return 1;
            }
            best(&pl[m], &r);
        }
    }
    printf("client per frame, %ux%u SHM buffers, %u (FIFO) and %u (IMMEDIATE) frames, best of 3\n",
           W, H, fifo_frames, imm_frames);
    printf("%-10s %14s %14s %8s %16s %16s %12s\n", "mode", "CPU ns: ours", "plain loop",
           "ratio", "allocs: ours", "plain loop", "in our lib");
    for (int m = 0; m < 2; m++)
        printf("%-10s %14.0f %14.0f %8.2f %16.2f %16.2f %12.2f\n", m ? "IMMEDIATE" : "FIFO",
               sw[m].cpu_per_frame_ns, pl[m].cpu_per_frame_ns,
               sw[m].cpu_per_frame_ns / pl[m].cpu_per_frame_ns, sw[m].allocs_per_frame,
               pl[m].allocs_per_frame, sw[m].ours_per_frame);
    xcb_disconnect(c);
    xvfb_stop(&x);
    return 0;
}
