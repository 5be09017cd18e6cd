/*
 * The swapchain against a plain loop written directly on libxcb-present
 * that does the same work: MIT-SHM pixmaps on memfds, a special event
 * queue, PresentPixmap aimed at the next vblank (FIFO) or Async
 * (IMMEDIATE), buffers reused on IdleNotify.  All run on one private Xvfb,
 * or with --on-display on the server in $DISPLAY (Xwayland:
 * tests/servers/with-server xwayland ./bench/present-bench --on-display).
 *
 * FIFO: one renderer for every loop, which fills the buffer and then spins
 * until RENDER_NS have passed since it got the buffer (acquire() returned,
 * or the plain loop found a free one): a frame that costs the same on any
 * machine.  Through the plain loop, the swapchain's THROUGHPUT pacing with
 * 2, 3 and 4 buffers and its LOW_LATENCY pacing with 3, each row reports
 * the latency from that moment to the UST of the vblank that showed the
 * frame (CompleteNotify), the frames that left a vblank out after the one
 * before (gaps), the client's CPU time per frame without the renderer's
 * and the heap allocations per frame.
 *
 * IMMEDIATE: the renderer only fills (no spin); best of 3 alternating
 * rounds for the CPU time, as the loops cost little there.
 *
 * CPU: CLOCK_PROCESS_CPUTIME_ID (the server is another process).  The
 * renderer's own CPU time is read with the same clock around each call and
 * subtracted, so that a row compares the loops and the library, not the
 * 2 ms spin (measured rather than a fixed 2 ms, since a preempted spin
 * uses less CPU than its wall time).  Allocations: wrappers of
 * malloc/calloc/realloc that this program puts in front of glibc's for
 * every library in the process; those whose caller is inside
 * libxcb-present-util are counted apart: "ours".
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

#include "clock.h"
#include "syscall-count.h"
#include "xcb_present_util.h"
#include "xvfb-spawn.h"

/* Instructions: under callgrind (bench/present-instructions.sh), each
 * row's measured frames are collected without the renderer's and dumped
 * under the row's name; elsewhere these requests do nothing. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

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


/* ---- the renderer and what a run records -------------------------------- */

#define W 64
#define H 64
#define PLAIN_BUFS 3
#define RENDER_NS 2000000LL     /* the FIFO renderer's time per frame */
#define SECOND 1000000000LL
#define FIFO_WARM 60            /* the swapchain learns the refresh in these */
/* LOW_LATENCY learns its render time, margin and the server's latch in
 * these (10 s at 60 Hz): the figures are those of a program that has run
 * for a while, as a game has. */
#define LOW_LATENCY_WARM 600
#define IMM_WARM 200

/* Fills the buffer, then spins until spin_ns after start_ns: a frame that
 * takes the same wall time on any machine.  Returns the CPU time it used,
 * which the rows subtract. */
static double render(void *pixels, uint32_t stride, uint32_t n, int64_t start_ns,
                     int64_t spin_ns)
{
    double c0 = cpu_ns();

    for (uint32_t y = 0; y < H; y++)
        memset((uint8_t *)pixels + (size_t)y * stride, (int)(n + y), W * 4);
    while (tool_now_ns() - start_ns < spin_ns)
        ;
    return cpu_ns() - c0;
}

/* One frame: when its rendering started (us, CLOCK_MONOTONIC, which is
 * also Xvfb's UST) and the vblank that showed it (0: not shown). */
struct frame_rec {
    uint64_t start_us, msc, ust;
    uint64_t predicted_ust;         /* acquire()'s image.predicted_ust, 0: none */
};

/* One loop's run: frames 1 .. warm + frames by frame id (the swapchain's
 * frame_id, the plain loop's serial); the figures count those after the
 * warm-up. */
struct run {
    const char *name;
    bool fifo, swapchain;
    struct frame_rec *rec;          /* warm + frames + 1 entries */
    uint32_t warm, frames;
    int64_t spin_ns;
    /* measured */
    double cpu0, render_cpu;        /* CPU at the warm-up's end; the renderer's since */
    unsigned long allocs0, ours0;
    xcb_present_util_stats_t st0, st1;  /* the library's, at the warm-up's end and after */
    struct syscall_counts sys0, sys;    /* at the warm-up's end; over the measured frames */
    uint32_t id_mismatch;           /* acquire() said another frame_id than the next */
    /* per frame, from the above */
    double cpu_ns, allocs, ours;
    double lat_mean, lat_p50, lat_p99;  /* ms */
    uint32_t gaps, not_shown, before_start;
    uint32_t first_not_shown;       /* its frame id, for a look with XCB_PRESENT_UTIL_DEBUG=1 */
};

static int run_init(struct run *r, const char *name, bool fifo, uint32_t warm, uint32_t frames)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->fifo = fifo;
    r->warm = warm;
    r->frames = frames;
    r->spin_ns = fifo ? RENDER_NS : 0;
    xcb_present_util_stats_init(&r->st0);
    xcb_present_util_stats_init(&r->st1);
    r->rec = calloc(warm + frames + 1, sizeof *r->rec);
    return r->rec ? 0 : -1;
}

/* The measurement starts: after the warm-up, before the next frame. */
static void run_begin(struct run *r)
{
    r->allocs0 = atomic_load(&n_allocs);
    r->ours0 = atomic_load(&n_ours);
    r->render_cpu = 0;
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
    syscall_count_read(&r->sys0);
    r->cpu0 = cpu_ns();
}

static void run_end(struct run *r)
{
    struct syscall_counts now;

    r->cpu_ns = (cpu_ns() - r->cpu0 - r->render_cpu) / r->frames;
    syscall_count_read(&now);
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(r->name);
    syscall_count_diff(&r->sys0, &now, &r->sys);
    r->allocs = (double)(atomic_load(&n_allocs) - r->allocs0) / r->frames;
    r->ours = (double)(atomic_load(&n_ours) - r->ours0) / r->frames;
}

/* Renders frame id into a buffer the loop just got. */
static void run_render(struct run *r, uint32_t id, void *pixels, uint32_t stride)
{
    int64_t start = tool_now_ns();
    double cpu;

    if (id > r->warm)
        CALLGRIND_TOGGLE_COLLECT;   /* not the renderer's */
    cpu = render(pixels, stride, id, start, r->spin_ns);
    if (id > r->warm)
        CALLGRIND_TOGGLE_COLLECT;

    r->rec[id].start_us = (uint64_t)start / 1000;
    if (id > r->warm)
        r->render_cpu += cpu;
}

/* A completion, from either loop. */
static void run_shown(struct run *r, uint64_t id, uint64_t msc, uint64_t ust)
{
    if (id >= 1 && id <= r->warm + r->frames) {
        r->rec[id].msc = msc;
        r->rec[id].ust = ust;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Latency, gaps and frames not shown, over the frames after the warm-up. */
static void run_summarize(struct run *r)
{
    double *lat = calloc(r->frames, sizeof *lat), sum = 0;
    uint32_t n = 0;

    for (uint32_t id = r->warm + 1; id <= r->warm + r->frames; id++) {
        const struct frame_rec *f = &r->rec[id], *prev = &r->rec[id - 1];

        if (!f->ust) {
            r->first_not_shown = r->not_shown++ ? r->first_not_shown : id;
            continue;
        }
        if (f->ust < f->start_us)
            r->before_start++;
        else if (lat)
            sum += lat[n++] = (double)(f->ust - f->start_us) / 1000.0;
        /* a vblank went by without a frame although this one was next */
        if (r->fifo && prev->msc && f->msc > prev->msc + 1)
            r->gaps++;
    }
    if (n) {
        qsort(lat, n, sizeof *lat, cmp_double);
        r->lat_mean = sum / n;
        r->lat_p50 = lat[(n - 1) / 2];
        r->lat_p99 = lat[(size_t)((n - 1) * 0.99)];
    }
    free(lat);
}

/* The refresh, from the first and last frames shown after the warm-up. */
static double run_refresh_ns(const struct run *r)
{
    const struct frame_rec *a = NULL, *b = NULL;

    for (uint32_t id = r->warm + 1; id <= r->warm + r->frames; id++)
        if (r->rec[id].ust) {
            a = a ? a : &r->rec[id];
            b = &r->rec[id];
        }
    return a && b->msc > a->msc ? 1000.0 * (double)(b->ust - a->ust) / (double)(b->msc - a->msc)
                                : 0;
}

/* ---- the swapchain -------------------------------------------------- */

struct sc_config {
    const char *name;
    xcb_present_util_mode_t mode;
    xcb_present_util_pacing_t pacing;
    uint32_t buffers;
};

static void on_frame(void *data, const xcb_present_util_frame_t *f)
{
    if (f->mode != XCB_PRESENT_COMPLETE_MODE_SKIP && f->mode != XCB_PRESENT_UTIL_COMPLETE_LOST)
        run_shown(data, f->frame, f->msc, f->ust);
}

/* max_latency stays at options_init()'s default, which the library clamps
 * to buffers - 1. */
static int run_swapchain(xcb_connection_t *c, xcb_window_t win, const struct sc_config *cfg,
                         struct run *r)
{
    xcb_present_util_options_t o;
    xcb_present_util_swapchain_t *sc;
    int err = 0;

    xcb_present_util_options_init(&o);
    o.mode = cfg->mode;
    o.backend = XCB_PRESENT_UTIL_BACKEND_SHM;
    o.num_buffers = cfg->buffers;
    o.pacing = cfg->pacing;
    sc = xcb_present_util_swapchain_create(c, win, &o);
    if (!sc)
        return -errno;
    r->swapchain = true;
    xcb_present_util_swapchain_set_frame_callback(sc, on_frame, r);
    for (uint32_t id = 1; id <= r->warm + r->frames && !err; id++) {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        if (id == r->warm + 1) {
            xcb_present_util_swapchain_stats(sc, &r->st0);
            run_begin(r);
        }
        err = xcb_present_util_acquire(sc, SECOND, &img);
        if (err)
            break;
        r->id_mismatch += img.frame_id != id;
        r->rec[id].predicted_ust = img.predicted_ust;
        run_render(r, id, img.pixels, img.stride);
        err = xcb_present_util_present(sc, &img, NULL, 0);
    }
    if (!err) {
        run_end(r);
        err = xcb_present_util_wait_frame(sc, 0, SECOND, NULL);
        xcb_present_util_swapchain_stats(sc, &r->st1);
    }
    xcb_present_util_swapchain_set_frame_callback(sc, NULL, NULL);
    xcb_present_util_swapchain_destroy(sc);
    return err;
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
    struct run *run;
    xcb_special_event_t *se;
    uint32_t eid;
    uint64_t last_msc, last_target;
    struct plain_buf b[PLAIN_BUFS];
};

static void plain_complete(struct plain *p, const xcb_present_complete_notify_event_t *cn)
{
    if (cn->msc > p->last_msc)
        p->last_msc = cn->msc;
    if (cn->kind == XCB_PRESENT_COMPLETE_KIND_PIXMAP && cn->mode != XCB_PRESENT_COMPLETE_MODE_SKIP)
        run_shown(p->run, cn->serial, cn->msc, cn->ust);
}

static void plain_events(struct plain *p, int timeout_ms)
{
    struct pollfd pfd = { .fd = xcb_get_file_descriptor(p->c), .events = POLLIN };
    xcb_generic_event_t *ev;

    if (timeout_ms)
        poll(&pfd, 1, timeout_ms);
    while ((ev = xcb_poll_for_special_event(p->c, p->se))) {
        xcb_present_generic_event_t *ge = (xcb_present_generic_event_t *)ev;

        if (ge->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
            plain_complete(p, (xcb_present_complete_notify_event_t *)ev);
        } else if (ge->evtype == XCB_PRESENT_IDLE_NOTIFY) {
            xcb_present_idle_notify_event_t *in = (void *)ev;

            for (int i = 0; i < PLAIN_BUFS; i++)
                if (p->b[i].pixmap == in->pixmap)
                    p->b[i].busy = false;
        }
        free(ev);
    }
}

static int plain_setup(struct plain *p)
{
    for (int i = 0; i < PLAIN_BUFS; i++) {
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
    for (int i = 0; i < PLAIN_BUFS; i++) {
        xcb_free_pixmap(p->c, p->b[i].pixmap);
        xcb_shm_detach(p->c, p->b[i].seg);
        munmap(p->b[i].pixels, W * H * 4);
    }
    xcb_present_select_input(p->c, p->eid, p->win, 0);
    free(xcb_get_input_focus_reply(p->c, xcb_get_input_focus(p->c), NULL));
    xcb_unregister_for_special_event(p->c, p->se);
}

/* A free buffer, waiting for an IdleNotify while none is (at most 100 s). */
static struct plain_buf *plain_free_buffer(struct plain *p)
{
    for (int tries = 0; tries < 1000; tries++) {
        for (int i = 0; i < PLAIN_BUFS; i++)
            if (!p->b[i].busy)
                return &p->b[i];
        plain_events(p, 100);
    }
    return NULL;
}

/* Waits (at most a second) for the completion of the last frame. */
static void plain_drain(struct plain *p)
{
    int64_t end = tool_now_ns() + SECOND;

    while (!p->run->rec[p->run->warm + p->run->frames].ust && tool_now_ns() < end)
        plain_events(p, 10);
}

static int run_plain(xcb_connection_t *c, xcb_window_t win, struct run *r)
{
    struct plain p = { .c = c, .win = win, .run = r };

    if (plain_setup(&p) < 0)
        return -1;
    for (uint32_t id = 1; id <= r->warm + r->frames; id++) {
        struct plain_buf *b;
        uint64_t target = 0;

        if (id == r->warm + 1)
            run_begin(r);
        b = plain_free_buffer(&p);
        if (!b)
            return -1;
        run_render(r, id, b->pixels, W * 4);
        if (r->fifo) {
            target = p.last_target + 1 > p.last_msc + 2 ? p.last_target + 1 : p.last_msc + 2;
            p.last_target = target;
        }
        b->busy = true;
        xcb_present_pixmap(c, win, b->pixmap, id, 0, 0, 0, 0, 0, 0, 0,
                           r->fifo ? 0 : XCB_PRESENT_OPTION_ASYNC, target, 0, 0, 0, NULL);
        xcb_flush(c);
        plain_events(&p, 0);
    }
    run_end(r);
    plain_drain(&p);
    plain_teardown(&p);
    return 0;
}

/* ---- the runs and the table ---------------------------------------------- */

/* Runs one loop; a swapchain loop when cfg is not NULL.  0 or -1. */
static int measure(xcb_connection_t *c, xcb_window_t win, const struct sc_config *cfg,
                   struct run *r)
{
    int err = cfg ? run_swapchain(c, win, cfg, r) : run_plain(c, win, r);

    if (err) {
        fprintf(stderr, "present-bench: %s failed: %s\n", r->name,
                err == -1 ? "setup" : strerror(-err));
        return -1;
    }
    run_summarize(r);
    return 0;
}

/* Keeps the round with the lower CPU time per frame in *best. */
static void keep_best(struct run *best, struct run *r)
{
    if (!best->rec || r->cpu_ns < best->cpu_ns) {
        free(best->rec);
        *best = *r;
    } else {
        free(r->rec);
    }
}

static void print_header(void)
{
    printf("%-26s %23s %25s %16s %14s %8s\n", "", "latency to shown (ms)", "missed vblanks",
           "CPU ns/frame", "allocs/frame", "syscalls");
    printf("%-26s %7s %7s %7s %12s %6s %6s %9s %6s %7s %6s %8s\n", "loop", "mean", "p50",
           "p99", "gaps", "lib", "late", "-render", "ratio", "all", "ours", "/frame");
}

static void print_row(const struct run *r, const struct run *plain)
{
    char gaps[24] = "-", lib[16] = "-", late[16] = "-", ours[16] = "-", sys[16] = "-";

    if (r->fifo)
        snprintf(gaps, sizeof gaps, "%u %.1f%%", r->gaps, 100.0 * r->gaps / r->frames);
    if (r->swapchain) {
        if (r->fifo) {
            snprintf(lib, sizeof lib, "%llu",
                     (unsigned long long)(r->st1.missed_vblanks - r->st0.missed_vblanks));
            snprintf(late, sizeof late, "%llu",
                     (unsigned long long)(r->st1.late_frames - r->st0.late_frames));
        }
        snprintf(ours, sizeof ours, "%.2f", r->ours);
    }
    if (syscall_count_available())
        snprintf(sys, sizeof sys, "%.2f", (double)r->sys.total / r->frames);
    printf("%-26s %7.2f %7.2f %7.2f %12s %6s %6s %9.0f %6.2f %7.2f %6s %8s\n", r->name,
           r->lat_mean, r->lat_p50, r->lat_p99, gaps, lib, late, r->cpu_ns,
           r->cpu_ns / plain->cpu_ns, r->allocs, ours, sys);
}

/* The system calls per frame by kind, the kinds some row made. */
static void print_syscalls(const struct run *rows, int n)
{
    bool used[SYSCALL_KINDS] = { false };

    if (!syscall_count_available()) {
        printf("\nsystem calls: not counted (no syscalls tracepoints here: tracefs, or "
               "perf_event_paranoid)\n");
        return;
    }
    printf("\nsystem calls per frame, by kind (the kernel's tracepoints; other: the rest)\n");
    printf("%-26s", "loop");
    for (int k = 0; k < SYSCALL_KINDS; k++) {
        for (int i = 0; i < n; i++)
            used[k] |= rows[i].sys.kind[k] > 0;
        if (used[k])
            printf(" %8.8s", syscall_kind_name(k));
    }
    printf(" %8s %8s\n", "other", "total");
    for (int i = 0; i < n; i++) {
        const struct run *r = &rows[i];
        uint64_t rest = r->sys.total;

        printf("%-26s", r->name);
        for (int k = 0; k < SYSCALL_KINDS; k++) {
            rest -= r->sys.kind[k] <= rest ? r->sys.kind[k] : rest;
            if (used[k])
                printf(" %8.2f", (double)r->sys.kind[k] / r->frames);
        }
        printf(" %8.2f %8.2f\n", (double)rest / r->frames, (double)r->sys.total / r->frames);
    }
}

/* The frames after the warm-up whose predicted vblank (image.predicted_ust)
 * was within 2 ms of the one that showed them, out of those predicted and
 * shown; *n gets the latter. */
static uint32_t predicted_within_2ms(const struct run *r, uint32_t *n)
{
    uint32_t good = 0;

    *n = 0;
    for (uint32_t id = r->warm + 1; id <= r->warm + r->frames; id++) {
        const struct frame_rec *f = &r->rec[id];

        if (!f->ust || !f->predicted_ust)
            continue;
        ++*n;
        good += (f->ust > f->predicted_ust ? f->ust - f->predicted_ust
                                           : f->predicted_ust - f->ust) <= 2000;
    }
    return good;
}

/* What the library itself says of the same frames (its last 256), and how
 * well its predictions held. */
static void print_library_view(const struct run *rows, int n)
{
    printf("\nthe library's own figures (stats, last 256 frames; pred: frames shown within "
           "2 ms of image.predicted_ust, of those predicted)\n");
    printf("%-26s %7s %7s %7s %9s %9s %9s %9s %14s\n", "loop", "shown", "p50", "p99", "render",
           "margin", "latch", "refresh", "pred <= 2 ms");
    for (int i = 0; i < n; i++) {
        const xcb_present_util_stats_t *s = &rows[i].st1;
        uint32_t predicted, good;

        if (!rows[i].swapchain)
            continue;
        good = predicted_within_2ms(&rows[i], &predicted);
        printf("%-26s %7.2f %7.2f %7.2f %9.3f %9.3f %9.3f %9.3f %7.1f%% of %u\n", rows[i].name,
               s->shown_latency_mean_ns / 1e6, s->shown_latency_p50_ns / 1e6,
               s->shown_latency_p99_ns / 1e6, s->render_ns / 1e6, s->margin_ns / 1e6,
               s->latch_ns / 1e6, s->refresh_ns / 1e6,
               predicted ? 100.0 * good / predicted : 0.0, predicted);
    }
}

/* Anything that a correct library and server would not show. */
static void print_oddities(const struct run *rows, int n)
{
    for (int i = 0; i < n; i++) {
        const struct run *r = &rows[i];

        if (r->not_shown || r->before_start || r->id_mismatch)
            printf("note: %s: %u frames not shown (no completion or skipped; the first: frame "
                   "%u of %u), %u shown before they were started, %u frame_id mismatches\n",
                   r->name, r->not_shown, r->first_not_shown, r->warm + r->frames,
                   r->before_start, r->id_mismatch);
    }
}

static void print_load(void)
{
    FILE *f = fopen("/proc/loadavg", "re");
    char line[128] = "?";

    if (f && fgets(line, sizeof line, f))
        line[strcspn(line, "\n")] = 0;
    if (f)
        fclose(f);
    printf("load average (1, 5, 15 min, /proc/loadavg): %s\n", line);
}

#define N_FIFO 5
#define N_ROWS (N_FIFO + 2)

static const struct sc_config fifo_configs[N_FIFO] = {
    { NULL, 0, 0, 0 },          /* the plain loop */
    { "ours THROUGHPUT, 2 bufs", XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_PACING_THROUGHPUT, 2 },
    { "ours THROUGHPUT, 3 bufs", XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_PACING_THROUGHPUT, 3 },
    { "ours THROUGHPUT, 4 bufs", XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_PACING_THROUGHPUT, 4 },
    { "ours LOW_LATENCY, 3 bufs", XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_PACING_LOW_LATENCY,
      3 },
};

/* The FIFO rows, each run once, the plain loop first. */
static int measure_fifo(xcb_connection_t *c, xcb_window_t win, uint32_t frames, struct run *rows)
{
    for (int i = 0; i < N_FIFO; i++) {
        const struct sc_config *cfg = fifo_configs[i].name ? &fifo_configs[i] : NULL;

        uint32_t warm = cfg && cfg->pacing == XCB_PRESENT_UTIL_PACING_LOW_LATENCY
                            ? LOW_LATENCY_WARM : FIFO_WARM;

        if (run_init(&rows[i], cfg ? cfg->name : "plain loop, 3 bufs", true, warm, frames) < 0 ||
            measure(c, win, cfg, &rows[i]) < 0)
            return -1;
    }
    return 0;
}

/* IMMEDIATE, fill only: three alternating rounds, the best of each kept. */
static int measure_immediate(xcb_connection_t *c, xcb_window_t win, uint32_t frames,
                             struct run *plain, struct run *ours)
{
    static const struct sc_config imm = { "ours IMMEDIATE, 3 bufs", XCB_PRESENT_UTIL_MODE_IMMEDIATE,
                                          XCB_PRESENT_UTIL_PACING_THROUGHPUT, 3 };

    memset(plain, 0, sizeof *plain);
    memset(ours, 0, sizeof *ours);
    for (int round = 0; round < 3; round++) {
        struct run r;

        if (run_init(&r, imm.name, false, IMM_WARM, frames) < 0 || measure(c, win, &imm, &r) < 0)
            return -1;
        keep_best(ours, &r);
        if (run_init(&r, "plain IMMEDIATE, 3 bufs", false, IMM_WARM, frames) < 0 ||
            measure(c, win, NULL, &r) < 0)
            return -1;
        keep_best(plain, &r);
    }
    return 0;
}

static void print_table(const struct run *rows, uint32_t fifo_frames, uint32_t imm_frames,
                        const char *server)
{
    double refresh = run_refresh_ns(&rows[0]);

    printf("present-bench: %ux%u SHM buffers on %s, refresh %.3f ms (%.2f Hz, from "
           "the plain loop's completions)\n", W, H,
           server, refresh / 1e6,
           refresh ? 1e9 / refresh : 0.0);
    printf("FIFO: %u frames after %u of warm-up (LOW_LATENCY: %u), renderer fills and spins "
           "until %.1f ms after it got the buffer\n", fifo_frames, FIFO_WARM, LOW_LATENCY_WARM,
           RENDER_NS / 1e6);
    printf("IMMEDIATE: %u frames after %u, fill only, best of 3 rounds\n", imm_frames, IMM_WARM);
    print_load();
    printf("\n");
    print_header();
    for (int i = 0; i < N_ROWS; i++)
        print_row(&rows[i], i < N_FIFO ? &rows[0] : &rows[N_FIFO]);
    print_syscalls(rows, N_ROWS);
    print_library_view(rows, N_ROWS);
    print_oddities(rows, N_ROWS);
}

int main(int argc, char **argv)
{
    /* --on-display: the server in $DISPLAY (Xwayland, with
     * tests/servers/with-server) instead of a private Xvfb */
    bool on_display = argc > 1 && strcmp(argv[1], "--on-display") == 0;
    int a = on_display ? 2 : 1;
    uint32_t fifo_frames = argc > a ? (uint32_t)atoi(argv[a]) : 600;
    uint32_t imm_frames = argc > a + 1 ? (uint32_t)atoi(argv[a + 1]) : 3000;
    struct run rows[N_ROWS];
    struct xvfb x = { 0 };
    xcb_connection_t *c;
    xcb_window_t win;
    const xcb_screen_t *screen;
    int status = 0;

    if (fifo_frames < 10 || imm_frames < 10) {
        fprintf(stderr, "usage: present-bench [--on-display] [FIFO_FRAMES [IMMEDIATE_FRAMES]] "
                        "(10 or more)\n");
        return 2;
    }
    if (!on_display && xvfb_start(&x, "640x480x24") < 0) {
        printf("present-bench: skipped, no Xvfb\n");
        return 0;
    }
    c = xcb_connect(on_display ? NULL : x.display, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "present-bench: cannot connect to the X server\n");
        xcb_disconnect(c);
        if (!on_display)
            xvfb_stop(&x);
        return 1;
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    win = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, win, screen->root, 0, 0, W, H, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
    xcb_map_window(c, win);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    find_ours();
    syscall_count_open();
    memset(rows, 0, sizeof rows);
    if (measure_fifo(c, win, fifo_frames, rows) < 0 ||
        measure_immediate(c, win, imm_frames, &rows[N_FIFO], &rows[N_FIFO + 1]) < 0)
        status = 1;
    else
        print_table(rows, fifo_frames, imm_frames,
                    on_display ? getenv("DISPLAY") ? getenv("DISPLAY") : "the default display"
                               : "a private Xvfb");
    for (int i = 0; i < N_ROWS; i++)
        free(rows[i].rec);
    xcb_disconnect(c);
    if (!on_display)
        xvfb_stop(&x);
    return status;
}
