/*
 * The DRI3 back end's explicit sync (Present 1.4 PresentPixmapSynced)
 * against the mock X server.  Without a DRM device the swapchain's timelines
 * are memfd pages (memfd-timeline.c) put in through the back end's hidden
 * seam; the mock waits for their acquire points and signals their release
 * points when it is done with a pixmap, as a server does, and writes both to
 * its transcript, with a line whenever a client presents a pixmap it still
 * holds.  Where a render node exists, the last test runs the library's own
 * DRM timelines against the same mock (scripts/gpu-check.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xcb/present.h>
#include <xcb/xfixes.h>

#include "memfd-timeline.h"
#include "mock-session.h"
#include "test-fds.h"
#include "test-runner.h"
#include "xcb_present_util.h"
#include "swapchain-or-fail.h"
#include "timeline-page.h"

#define SECOND 1000000000LL
#define PIXMAP_SYNCED 5     /* Present minor opcodes */
#define PIXMAP 1
#define IMPORT_SYNCOBJ 10   /* DRI3 */
#define FREE_SYNCOBJ 11
#define PIXMAP_FROM_BUFFERS 7

struct fixture {
    struct mock_server *server;
    xcb_connection_t *c;
    xcb_window_t window;
    xcb_present_util_swapchain_t *sc;
    struct mock_transcript *t;      /* after finish() */
};

/* The mock with "KEY VALUE" pairs (NULL-terminated), a mapped 64x48
 * window and a swapchain on it. */
static void start(struct fixture *f, const char *const *kv, xcb_present_util_mode_t mode,
                  uint32_t n_buffers)
{
    struct mock_config *cfg = mock_config_new();
    const xcb_screen_t *screen;
    memset(f, 0, sizeof *f);
    CHECK(cfg != NULL);
    for (; kv && kv[0]; kv += 2)
        CHECK_EQ(mock_config_set(cfg, kv[0], kv[1]), 0);
    screen = mock_session_start(cfg, &f->server, &f->c);
    f->window = mock_session_window(f->c, screen);
    xcb_flush(f->c);
    f->sc = swapchain_or_fail(f->c, f->window, mode, XCB_PRESENT_UTIL_BACKEND_DRI3, n_buffers,
                              NULL, NULL);
}

/* One frame, with damage or without (n_damage 0). */
static void frame(struct fixture *f, uint32_t n, const xcb_rectangle_t *damage,
                  uint32_t n_damage)
{
    xcb_present_util_image_t img = { .size = sizeof img };

    CHECK_EQ(xcb_present_util_acquire(f->sc, 2 * SECOND, &img), 0);
    for (uint32_t y = 0; y < img.height; y++)
        memset((uint8_t *)img.pixels + (size_t)y * img.stride, (int)n, (size_t)img.width * 4);
    CHECK_EQ(xcb_present_util_present(f->sc, &img, damage, n_damage), 0);
}

static void wait_completed(struct fixture *f, uint64_t n)
{
    xcb_present_util_stats_t st = { .size = sizeof st };

    for (int i = 0; i < 500; i++) {
        struct timespec ts = { 0, 10000000 };

        CHECK(xcb_present_util_dispatch(f->sc) >= 0);
        CHECK_EQ(xcb_present_util_swapchain_stats(f->sc, &st), 0);
        if (st.completed >= n)
            return;
        nanosleep(&ts, NULL);
    }
    test_fail(__FILE__, __LINE__, "%" PRIu64 " of %" PRIu64 " frames completed",
              (uint64_t)st.completed, n);
}

/* Destroys the swapchain, stops the server and reads its transcript. */
static void finish(struct fixture *f)
{
    xcb_present_util_swapchain_destroy(f->sc);
    f->sc = NULL;
    xcb_flush(f->c);
    /* a round trip: the server has handled the last FreeSyncobj */
    free(xcb_get_input_focus_reply(f->c, xcb_get_input_focus(f->c), NULL));
    CHECK_EQ(mock_server_stop(f->server), 0);
    f->t = mock_server_transcript(f->server);
    CHECK(f->t != NULL);
}

static void end(struct fixture *f)
{
    mock_transcript_free(f->t);
    xcb_disconnect(f->c);
    mock_server_free(f->server);
}

static uint32_t u32(const struct mock_request_record *r, size_t off)
{
    const uint8_t *p = r->data + off;

    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t u64(const struct mock_request_record *r, size_t off)
{
    return (uint64_t)u32(r, off) | (uint64_t)u32(r, off + 4) << 32;
}

static size_t count_requests(const struct mock_transcript *t, uint8_t major, uint8_t minor)
{
    size_t n = 0;

    while (mock_transcript_find(t, major, minor, n))
        n++;
    return n;
}

static size_t count_info(const struct mock_transcript *t, const char *needle)
{
    size_t n = 0;

    for (size_t i = 0; i < t->ninfo; i++)
        n += strstr(t->info[i], needle) != NULL;
    return n;
}

/* The most presentations of the window the server held at once (not yet
 * released), from its "the server holds N presentations" lines. */
static unsigned max_held(const struct mock_transcript *t)
{
    unsigned most = 0;

    for (size_t i = 0; i < t->ninfo; i++) {
        const char *p = strstr(t->info[i], "the server holds ");
        unsigned n;

        if (p && sscanf(p, "the server holds %u", &n) == 1 && n > most)
            most = n;
    }
    return most;
}

/* What every synced run must show: n PresentPixmapSynced and no
 * PresentPixmap; the server never held a pixmap that the client presented
 * again (no buffer came back before ITS release point), and never more
 * presentations than there are buffers (throttled by the releases); each
 * pixmap on a syncobj of its own, whose points only grow, acquire just
 * before release. */
static void check_synced_run(const struct fixture *f, size_t n, uint32_t n_buffers)
{
    const struct mock_transcript *t = f->t;
    uint32_t pixmaps[16] = { 0 }, syncobjs[16] = { 0 };
    uint64_t last_point[16] = { 0 };
    size_t n_pairs = 0;

    CHECK_EQ(count_requests(t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED), n);
    CHECK_EQ(count_requests(t, MOCK_PRESENT_MAJOR, PIXMAP), 0);
    for (size_t i = 0; i < t->ninfo; i++)
        if (strstr(t->info[i], "presented again"))
            test_fail(__FILE__, __LINE__, "%s", t->info[i]);
    test_note("the server held at most %u presentations", max_held(t));
    CHECK(max_held(t) >= 1 && max_held(t) <= n_buffers);
    for (size_t i = 0; i < n; i++) {
        const struct mock_request_record *r =
            mock_transcript_find(t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED, i);
        uint32_t pixmap = u32(r, 8), acquire = u32(r, 32), release = u32(r, 36);
        uint64_t acquire_point = u64(r, 40), release_point = u64(r, 48);
        size_t k = 0;

        while (k < n_pairs && pixmaps[k] != pixmap && syncobjs[k] != release)
            k++;
        if (k == n_pairs) {
            CHECK(n_pairs < 16);
            pixmaps[k] = pixmap;
            syncobjs[k] = release;
            n_pairs++;
        }
        /* one syncobj per pixmap, one pixmap per syncobj */
        CHECK_EQ(pixmaps[k], pixmap);
        CHECK_EQ(syncobjs[k], release);
        CHECK_EQ(acquire, release);
        CHECK_EQ(release_point, acquire_point + 1);
        CHECK(acquire_point > last_point[k]);
        last_point[k] = release_point;
    }
}

static void use_memfd_timelines(void)
{
    sc_timeline_ops = &test_memfd_timelines;
}

/* (a) Copies: a buffer comes back only once the mock has signalled the
 * release point of its own last frame, although the points of later frames
 * on other buffers were signalled first; FIFO keeps at most one frame per
 * buffer in the server. */
TEST(copies_release_each_buffer_on_its_own_point)
{
    static const char *const kv[] = { NULL };
    struct fixture f;

    use_memfd_timelines();
    start(&f, kv, XCB_PRESENT_UTIL_MODE_FIFO, 3);
    for (uint32_t n = 1; n <= 30; n++)
        frame(&f, n, NULL, 0);
    wait_completed(&f, 30);
    finish(&f);
    check_synced_run(&f, 30, 3);
    CHECK_EQ(count_info(f.t, "imported (memfd timeline)"), 3);
    /* every frame was released after its copy (or its skip) */
    CHECK_EQ(count_info(f.t, "copied: ") + count_info(f.t, "skipped: "), 30);
    end(&f);
}

/* (a) Flips: the buffer on screen is released when the next flip replaces
 * it, so two buffers alternate without ever being written while shown. */
TEST(flips_release_when_the_next_frame_is_shown)
{
    static const char *const kv[] = { "present-complete-mode", "flip", NULL };
    xcb_present_util_stats_t st = { .size = sizeof st };
    struct fixture f;

    use_memfd_timelines();
    start(&f, kv, XCB_PRESENT_UTIL_MODE_FIFO, 2);
    for (uint32_t n = 1; n <= 20; n++)
        frame(&f, n, NULL, 0);
    wait_completed(&f, 20);
    CHECK_EQ(xcb_present_util_swapchain_stats(f.sc, &st), 0);
    CHECK(st.flips >= 1);
    finish(&f);
    check_synced_run(&f, 20, 2);
    CHECK(count_info(f.t, "no longer on screen") >= 1);
    end(&f);
}

/* (a) MAILBOX sends frames as fast as buffers come back: the loop that
 * the shared timeline let run free. */
TEST(mailbox_waits_for_releases_too)
{
    static const char *const kv[] = { NULL };
    struct fixture f;

    use_memfd_timelines();
    start(&f, kv, XCB_PRESENT_UTIL_MODE_MAILBOX, 3);
    for (uint32_t n = 1; n <= 40; n++)
        frame(&f, n, NULL, 0);
    wait_completed(&f, 40);
    finish(&f);
    check_synced_run(&f, 40, 3);
    end(&f);
}

/* (b) The update region of a damaged frame goes with PresentPixmapSynced,
 * as it does with PresentPixmap; an undamaged frame updates everything. */
TEST(synced_present_sends_the_update_region)
{
    static const char *const kv[] = { "xfixes", "on", NULL };
    static const xcb_rectangle_t damage[] = { { 1, 2, 10, 5 }, { 20, 30, 8, 4 } };
    const struct mock_request_record *r;
    struct fixture f;
    uint32_t region;

    use_memfd_timelines();
    start(&f, kv, XCB_PRESENT_UTIL_MODE_FIFO, 3);
    frame(&f, 1, NULL, 0);
    frame(&f, 2, damage, 2);
    wait_completed(&f, 2);
    finish(&f);
    r = mock_transcript_find(f.t, MOCK_XFIXES_MAJOR, XCB_XFIXES_CREATE_REGION, 0);
    CHECK(r != NULL);
    region = u32(r, 4);
    CHECK_EQ(count_requests(f.t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED), 2);
    CHECK_EQ(u32(mock_transcript_find(f.t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED, 0), 20), 0);
    CHECK_EQ(u32(mock_transcript_find(f.t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED, 1), 20), region);
    /* the server read the region's rectangles when the frame came */
    CHECK_EQ(count_info(f.t, "present synced: serial 2 update"), 1);
    CHECK_EQ(count_info(f.t, "rects 2 1,2+10x5 20,30+8x4"), 1);
    end(&f);
}

/* (c) One syncobj per buffer, made with the buffer and freed with it (a
 * resize makes new buffers), every one freed by destroy, and no fd left. */
TEST(destroy_frees_every_syncobj_and_fd)
{
    static const char *const kv[] = { NULL };
    const uint32_t values[] = { 80, 60 };
    xcb_present_util_image_t img = { .size = sizeof img };
    struct fixture f;
    int fds_before;
    size_t imports, buffers;

    use_memfd_timelines();
    fds_before = test_count_fds();
    start(&f, kv, XCB_PRESENT_UTIL_MODE_FIFO, 3);
    CHECK_EQ(test_memfd_timelines_alive(), 3);
    for (uint32_t n = 1; n <= 5; n++)
        frame(&f, n, NULL, 0);
    xcb_configure_window(f.c, f.window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                         values);
    xcb_flush(f.c);
    /* the new size is taken once it has held a moment */
    for (uint32_t n = 6; n < 200 && img.width != 80; n++) {
        CHECK_EQ(xcb_present_util_acquire(f.sc, 2 * SECOND, &img), 0);
        CHECK_EQ(xcb_present_util_present(f.sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(img.width, 80);
    CHECK_EQ(test_memfd_timelines_alive(), 3);
    finish(&f);
    CHECK_EQ(test_memfd_timelines_alive(), 0);
    imports = count_requests(f.t, MOCK_DRI3_MAJOR, IMPORT_SYNCOBJ);
    buffers = count_requests(f.t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS) - 1;  /* - trial */
    test_note("%zu buffers made, %zu syncobjs imported", buffers, imports);
    CHECK(buffers > 3);
    CHECK_EQ(imports, buffers);
    CHECK_EQ(count_requests(f.t, MOCK_DRI3_MAJOR, FREE_SYNCOBJ), imports);
    for (size_t i = 0; i < imports; i++) {
        uint32_t id = u32(mock_transcript_find(f.t, MOCK_DRI3_MAJOR, IMPORT_SYNCOBJ, i), 4);
        size_t freed = 0;

        for (size_t k = 0; k < imports; k++)
            freed += u32(mock_transcript_find(f.t, MOCK_DRI3_MAJOR, FREE_SYNCOBJ, k), 4) == id;
        CHECK_EQ(freed, 1);
    }
    end(&f);
    CHECK_EQ(test_count_fds(), fds_before);
}

/* ---- releases that come later than the server is done ----------------
 * With "syncobj-release attach" the mock only attaches the fence of a
 * release point when it is done with the pixmap, as a server whose GPU
 * copy is still running; the test then plays that GPU and signals the
 * point itself, through the timeline's page (the memfd of sync_fd). */

struct page_signal {
    int fd;                 /* the image's sync_fd, the library's */
    uint64_t point;
    long delay_ms;
};

static struct timeline_page *page_of(int sync_fd)
{
    void *p = mmap(NULL, TIMELINE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, sync_fd, 0);

    CHECK(p != MAP_FAILED);
    return p;
}

static void *signal_later(void *arg)
{
    const struct page_signal *ps = arg;
    struct timespec ts = { ps->delay_ms / 1000, ps->delay_ms % 1000 * 1000000 };
    struct timeline_page *page = page_of(ps->fd);

    nanosleep(&ts, NULL);
    timeline_page_signal(page, ps->point);
    munmap(page, TIMELINE_PAGE_SIZE);
    return NULL;
}

static void start_with_flags(struct fixture *f, const char *const *kv, uint32_t sync_flags)
{
    struct mock_config *cfg = mock_config_new();
    const xcb_screen_t *screen;
    xcb_present_util_options_t o;

    memset(f, 0, sizeof *f);
    for (; kv[0]; kv += 2)
        CHECK_EQ(mock_config_set(cfg, kv[0], kv[1]), 0);
    screen = mock_session_start(cfg, &f->server, &f->c);
    f->window = mock_session_window(f->c, screen);
    xcb_flush(f->c);
    xcb_present_util_options_init(&o);
    o.mode = XCB_PRESENT_UTIL_MODE_FIFO;
    o.backend = XCB_PRESENT_UTIL_BACKEND_DRI3;
    o.num_buffers = 2;
    o.throttle = XCB_PRESENT_UTIL_THROTTLE_NONE;
    o.sync = XCB_PRESENT_UTIL_SYNC_EXPLICIT;
    o.sync_flags = sync_flags;
    f->sc = swapchain_with_options_or_fail(f->c, f->window, &o, NULL, NULL);
}

/* Both buffers presented and their frames completed: the server is done
 * with both, and their release points are only attached.  imgs[] holds
 * what present() was given. */
static void present_both(struct fixture *f, xcb_present_util_image_t imgs[2])
{
    for (int i = 0; i < 2; i++) {
        imgs[i] = (xcb_present_util_image_t){ .size = sizeof imgs[i] };
        CHECK_EQ(xcb_present_util_acquire(f->sc, 2 * SECOND, &imgs[i]), 0);
        CHECK_EQ(imgs[i].wait_point, 0);       /* a new buffer: nothing to wait for */
        CHECK(imgs[i].sync_fd >= 0);
        CHECK_EQ(xcb_present_util_present(f->sc, &imgs[i], NULL, 0), 0);
    }
    wait_completed(f, 2);
}

/* Without SYNC_GPU_WAITS acquire() hands a buffer out only once its
 * release point is signalled, never when it is merely attached, and it
 * sleeps meanwhile: the kernel's notification (the test timelines' stand-in
 * for DRM_IOCTL_SYNCOBJ_EVENTFD) wakes it, where it looked at the points
 * every millisecond before.  Looks are counted, not time. */
static void acquire_waits_for_the_signal(const struct sc_timeline_ops *ops,
                                         unsigned long most_looks)
{
    static const char *const kv[] = { "syncobj-release", "attach", NULL };
    xcb_present_util_image_t imgs[2], img = { .size = sizeof img };
    struct fixture f;
    struct page_signal ps;
    struct timeline_page *page;
    pthread_t gpu;
    unsigned long looks;

    sc_timeline_ops = ops;
    start_with_flags(&f, kv, 0);
    present_both(&f, imgs);
    CHECK_EQ(xcb_present_util_acquire(f.sc, 0, &img), -ETIMEDOUT);
    CHECK_EQ(xcb_present_util_acquire(f.sc, 50000000, &img), -ETIMEDOUT);
    /* the server's GPU finishes frame 1's copy 150 ms from now */
    ps = (struct page_signal){ .fd = imgs[0].sync_fd, .point = imgs[0].release_point,
                               .delay_ms = 150 };
    page = page_of(imgs[0].sync_fd);
    CHECK(pthread_create(&gpu, NULL, signal_later, &ps) == 0);
    looks = test_memfd_timelines_looks();
    CHECK_EQ(xcb_present_util_acquire(f.sc, 10 * SECOND, &img), 0);
    looks = test_memfd_timelines_looks() - looks;
    /* never early: the point was signalled when the buffer came back */
    CHECK(timeline_page_value(page) >= imgs[0].release_point);
    CHECK_EQ(img.index, imgs[0].index);
    CHECK_EQ(img.wait_point, 0);
    test_note("%s: %lu looks at the release points during a 150 ms wait", ops->name, looks);
    CHECK(looks <= most_looks);
    pthread_join(gpu, NULL);
    munmap(page, TIMELINE_PAGE_SIZE);
    CHECK_EQ(xcb_present_util_present(f.sc, &img, NULL, 0), 0);
    finish(&f);
    check_synced_run(&f, 3, 2);
    CHECK(count_info(f.t, "made available, not signalled") >= 2);
    end(&f);
}

/* With the kernel's notification: a handful of looks (each wake of the
 * wait looks once per buffer: the wait's own ticks, 8 ms or more apart,
 * and the notification), not one a millisecond. */
TEST(acquire_sleeps_until_the_release_point_is_signalled)
{
    acquire_waits_for_the_signal(&test_memfd_timelines, 2 * 150 / 4);
}

/* A kernel that cannot notify: acquire() looks every millisecond, and
 * still hands the buffer out only after the signal. */
TEST(acquire_without_the_kernels_notification_looks_until_signalled)
{
    acquire_waits_for_the_signal(&test_memfd_timelines_polled, 100000);
}

/* SYNC_GPU_WAITS: acquire() hands a buffer out as soon as the server has
 * attached its release point, with that point as wait_point, unsignalled;
 * the caller's GPU (the test) waits for it, renders, signals the acquire
 * point.  Ten frames go that way without a single CPU wait for a release,
 * and the server never reads a pixmap before its acquire point. */
TEST(gpu_waits_takes_a_buffer_once_its_release_is_attached)
{
    static const char *const kv[] = { "syncobj-release", "attach", NULL };
    xcb_present_util_image_t imgs[2];
    xcb_present_util_options_t o;
    struct fixture f;

    sc_timeline_ops = &test_memfd_timelines;
    start_with_flags(&f, kv, XCB_PRESENT_UTIL_SYNC_GPU_WAITS);
    /* refused: an unknown flag, or the flag with implicit sync */
    xcb_present_util_options_init(&o);
    o.sync_flags = 2;
    CHECK(xcb_present_util_swapchain_create(f.c, f.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    o.sync_flags = XCB_PRESENT_UTIL_SYNC_GPU_WAITS;
    o.sync = XCB_PRESENT_UTIL_SYNC_IMPLICIT;
    CHECK(xcb_present_util_swapchain_create(f.c, f.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    present_both(&f, imgs);
    for (uint32_t n = 3; n <= 12; n++) {
        xcb_present_util_image_t img = { .size = sizeof img };
        struct timeline_page *page;

        CHECK_EQ(xcb_present_util_acquire(f.sc, 2 * SECOND, &img), 0);
        page = page_of(img.sync_fd);
        /* the release of this buffer's last frame: attached, not signalled */
        CHECK_EQ(img.wait_point, imgs[img.index].release_point);
        CHECK(img.wait_point > 0);
        CHECK(timeline_page_value(page) < img.wait_point);
        CHECK(timeline_page_available(page) >= img.wait_point);
        CHECK_EQ(img.acquire_point, img.wait_point + 1);
        /* the GPU: waits for the release, renders, signals the acquire point */
        timeline_page_signal(page, img.wait_point);
        img.flags = XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS;
        CHECK_EQ(xcb_present_util_present(f.sc, &img, NULL, 0), 0);
        timeline_page_signal(page, img.acquire_point);
        munmap(page, TIMELINE_PAGE_SIZE);
        imgs[img.index] = img;
        wait_completed(&f, n);
    }
    finish(&f);
    check_synced_run(&f, 12, 2);
    end(&f);
}

/* Without the seam, on a machine with a render node: the library's own
 * DRM timelines, which the mock imports and signals through libdrm. */
TEST(drm_timelines_on_a_render_node)
{
    char path[64], kv_path[64];
    const char *kv[] = { "dri3-open", kv_path, NULL };
    struct fixture f;
    int fd = test_render_node(path, sizeof path);

    if (fd < 0)
        SKIP("no /dev/dri render node on this machine");
    close(fd);
    snprintf(kv_path, sizeof kv_path, "%s", path);
    start(&f, kv, XCB_PRESENT_UTIL_MODE_FIFO, 3);
    for (uint32_t n = 1; n <= 30; n++)
        frame(&f, n, NULL, 0);
    wait_completed(&f, 30);
    finish(&f);
    if (count_info(f.t, "imported (DRM syncobj)") == 0) {
        end(&f);
        SKIP("the driver has no timeline syncobjs (idle fences were used)");
    }
    CHECK_EQ(count_info(f.t, "imported (DRM syncobj)"), 3);
    check_synced_run(&f, 30, 3);
    end(&f);
}
