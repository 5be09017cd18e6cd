/*
 * The swapchain as a Vulkan X11 WSI uses it (the shape of Mesa's
 * wsi_common_x11.c), on the mock X server with DRI3 1.4 and the Syncobj
 * capability: N images the caller allocated, acquire with a timeout,
 * explicit sync with the acquire and release points acquire() reports
 * (the mock records the points it was given, and waits for acquire points
 * before it reads), the caller's GPU signalling the acquire point itself,
 * SUBOPTIMAL when the window's modifiers change, -ENODEV when the window
 * goes.
 *
 * Without a DRM device the swapchain's timelines are memfd pages
 * (memfd-timeline.c) that the mock maps, put in through the back end's
 * hidden seam, as in swapchain-synced.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memfd-timeline.h"
#include "mock-fixture.h"
#include "test-clock.h"
#include "test-runner.h"
#include "timeline-page.h"
#include "xcb_dri3_util.h"
#include "xcb_present_util.h"

#define XRGB8888 0x34325258u
#define PIXMAP_SYNCED 5     /* Present minor opcode */
#define MAX_IMAGES 8

struct wsi {
    struct mock_fixture s;
    xcb_dri3_util_buffer_t *images[MAX_IMAGES];
    uint32_t n;
};

static void start(struct wsi *w, const char *const *kv, uint32_t n,
                  xcb_present_util_mode_t mode)
{
    xcb_present_util_options_t o;

    sc_timeline_ops = &test_memfd_timelines;
    mf_start(&w->s, kv);
    w->n = n;
    for (uint32_t i = 0; i < n; i++) {
        w->images[i] = xcb_dri3_util_buffer_create_memfd(64, 48, XRGB8888);
        CHECK(w->images[i] != NULL);
    }
    xcb_present_util_options_init(&o);
    o.mode = mode;
    o.images = w->images;
    o.num_images = n;
    o.max_latency = n - 1;
    mf_swapchain_with(&w->s, &o);
    CHECK_EQ(xcb_present_util_swapchain_backend(w->s.sc), XCB_PRESENT_UTIL_BACKEND_DRI3);
}

static void stop(struct wsi *w)
{
    mf_stop(&w->s);
    for (uint32_t i = 0; i < w->n; i++)
        xcb_dri3_util_buffer_destroy(w->images[i]);
    CHECK_EQ(test_memfd_timelines_alive(), 0);
}

/* The caller's GPU signalling a point on the image's timeline. */
static void gpu_signal(int sync_fd, uint64_t point)
{
    struct timeline_page *p =
        mmap(NULL, TIMELINE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, sync_fd, 0);

    CHECK(p != MAP_FAILED);
    timeline_page_signal(p, point);
    munmap(p, TIMELINE_PAGE_SIZE);
}

/* What the mock received, once it stopped: the PresentPixmapSynced
 * requests carried the points acquire() reported, in order. */
static void check_points_received(struct wsi *w, const uint64_t (*points)[2], size_t n)
{
    struct mock_transcript *t;

    xcb_present_util_swapchain_destroy(w->s.sc);
    w->s.sc = NULL;
    free(xcb_get_input_focus_reply(w->s.c, xcb_get_input_focus(w->s.c), NULL));
    CHECK_EQ(mock_server_stop(w->s.server), 0);
    t = mock_server_transcript(w->s.server);
    CHECK(t != NULL);
    for (size_t i = 0; i < n; i++) {
        const struct mock_request_record *r =
            mock_transcript_find(t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED, i);
        uint64_t acquire, release;

        CHECK(r != NULL);
        memcpy(&acquire, r->data + 40, 8);
        memcpy(&release, r->data + 48, 8);
        CHECK_EQ(acquire, points[i][0]);
        CHECK_EQ(release, points[i][1]);
    }
    CHECK(mock_transcript_find(t, MOCK_PRESENT_MAJOR, PIXMAP_SYNCED, n) == NULL);
    mock_transcript_free(t);
}

TEST(acquire_times_out_and_presents_with_the_points_it_reported)
{
    struct wsi w;
    xcb_present_util_image_t img[4];
    uint64_t points[16][2];
    size_t n_points = 0;
    long long t0;

    start(&w, NULL, 4, XCB_PRESENT_UTIL_MODE_MAILBOX);
    for (uint32_t round = 0; round < 3; round++) {
        /* all four out: a fifth acquire times out within its bound */
        for (uint32_t i = 0; i < 4; i++) {
            xcb_present_util_image_init(&img[i]);
            CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &img[i]), 0);
            CHECK(img[i].buffer == w.images[img[i].index]);
            CHECK(img[i].sync_fd >= 0);
            CHECK(img[i].acquire_point > 0);
            CHECK_EQ(img[i].release_point, img[i].acquire_point + 1);
        }
        {
            xcb_present_util_image_t extra;

            xcb_present_util_image_init(&extra);
            t0 = test_now_ms();
            CHECK_EQ(xcb_present_util_acquire(w.s.sc, 20000000, &extra), -ETIMEDOUT);
            CHECK(test_now_ms() - t0 < 1000);
        }
        for (uint32_t i = 0; i < 4; i++) {
            CHECK_EQ(xcb_present_util_present(w.s.sc, &img[i], NULL, 0), 0);
            CHECK_EQ(xcb_present_util_wait_frame(w.s.sc, img[i].frame_id, MF_SECOND, NULL), 0);
            points[n_points][0] = img[i].acquire_point;
            points[n_points][1] = img[i].release_point;
            n_points++;
        }
    }
    /* an image comes back only after its release point */
    for (uint32_t i = 0; i < 4; i++) {
        xcb_present_util_image_t again;

        xcb_present_util_image_init(&again);
        CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &again), 0);
        CHECK(again.acquire_point > img[again.index].release_point);
        CHECK_EQ(xcb_present_util_present(w.s.sc, &again, NULL, 0), 0);
        points[n_points][0] = again.acquire_point;
        points[n_points][1] = again.release_point;
        n_points++;
    }
    CHECK_EQ(xcb_present_util_wait_frame(w.s.sc, 0, MF_SECOND, NULL), 0);
    /* the server got the points acquire() reported, frame by frame */
    check_points_received(&w, points, n_points);
    stop(&w);
}

/* XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS: the server waits for the
 * caller's GPU, not for present(). */
TEST(the_server_waits_for_the_callers_acquire_point)
{
    struct wsi w;
    xcb_present_util_image_t img;
    xcb_present_util_frame_t f;

    start(&w, NULL, 3, XCB_PRESENT_UTIL_MODE_FIFO);
    for (uint32_t n = 1; n <= 4; n++) {
        xcb_present_util_image_init(&img);
        xcb_present_util_frame_init(&f);
        CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &img), 0);
        img.flags = XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS;
        CHECK_EQ(xcb_present_util_present(w.s.sc, &img, NULL, 0), 0);
        /* not shown while the GPU has not finished (many vblanks pass) */
        CHECK_EQ(xcb_present_util_wait_frame(w.s.sc, img.frame_id, 100000000, &f), -ETIMEDOUT);
        gpu_signal(img.sync_fd, img.acquire_point);
        CHECK_EQ(xcb_present_util_wait_frame(w.s.sc, img.frame_id, 2 * MF_SECOND, &f), 0);
        CHECK_EQ(f.frame, n);
    }
    mf_check_in_order(&w.s, 4);
    stop(&w);
}

/* A present() that fails (a damage rectangle outside the image) or a
 * release() after the caller's GPU signalled the acquire point: the
 * image's next frame gets points above it, so that the server never takes
 * the old signal for the new frame's rendering. */
TEST(a_frame_not_sent_does_not_reuse_its_points)
{
    static const xcb_rectangle_t outside = { 60, 40, 16, 16 };   /* the image is 64x48 */
    struct wsi w;
    xcb_present_util_image_t img, again;
    uint64_t spent = 0;

    start(&w, NULL, 1, XCB_PRESENT_UTIL_MODE_FIFO);
    for (int round = 0; round < 2; round++) {
        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &img), 0);
        CHECK(img.acquire_point > spent);
        img.flags = XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS;
        gpu_signal(img.sync_fd, img.acquire_point);
        if (round == 0)
            CHECK_EQ(xcb_present_util_present(w.s.sc, &img, &outside, 1), -EINVAL);
        else
            CHECK_EQ(xcb_present_util_release(w.s.sc, &img), 0);
        spent = img.release_point;
        xcb_present_util_image_init(&again);
        CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &again), 0);
        CHECK_EQ(again.index, img.index);
        CHECK(again.acquire_point > spent);
        CHECK_EQ(again.release_point, again.acquire_point + 1);
        /* the new frame goes, and is shown once the GPU signals its point */
        again.flags = XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS;
        CHECK_EQ(xcb_present_util_present(w.s.sc, &again, NULL, 0), 0);
        gpu_signal(again.sync_fd, again.acquire_point);
        CHECK_EQ(xcb_present_util_wait_frame(w.s.sc, again.frame_id, 2 * MF_SECOND, NULL), 0);
        spent = again.release_point;
    }
    stop(&w);
}

/* options.sync: IMPLICIT keeps to idle fences where the window has
 * Syncobj; EXPLICIT refuses a window without it rather than fall back. */
TEST(the_caller_chooses_the_sync)
{
    static const char *const no_syncobj[] = { "present-caps", "async,fence,ust", NULL };
    struct mock_fixture s;
    xcb_present_util_options_t o;
    xcb_present_util_image_t img;

    sc_timeline_ops = &test_memfd_timelines;
    mf_start(&s, NULL);
    xcb_present_util_options_init(&o);
    o.backend = XCB_PRESENT_UTIL_BACKEND_DRI3;
    o.sync = XCB_PRESENT_UTIL_SYNC_IMPLICIT;
    mf_swapchain_with(&s, &o);
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
    CHECK_EQ(img.sync_fd, -1);
    CHECK_EQ(img.acquire_point, 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, MF_SECOND, NULL), 0);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    /* explicit on a window that has it: points */
    o.sync = XCB_PRESENT_UTIL_SYNC_EXPLICIT;
    o.backend = XCB_PRESENT_UTIL_BACKEND_AUTO;
    mf_swapchain_with(&s, &o);
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
    CHECK(img.sync_fd >= 0 && img.acquire_point > 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    mf_stop(&s);
    /* and on one without: no swapchain at all, not an SHM one */
    mf_start(&s, no_syncobj);
    errno = 0;
    CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    mf_stop(&s);
    CHECK_EQ(test_memfd_timelines_alive(), 0);
}

TEST(a_change_of_the_windows_modifiers_is_suboptimal)
{
    static const char *const kv[] = { "present-complete-mode", "suboptimal",
                                      "modifiers-window-later", "300:0x0100000000000001",
                                      NULL };
    struct wsi w;
    long long t0 = test_now_ms();
    int r = 0;
    uint32_t n = 0;

    start(&w, kv, 3, XCB_PRESENT_UTIL_MODE_FIFO);
    /* frames until the window's list changed and a SuboptimalCopy made
     * the swapchain look (the mock says so from 300 ms on) */
    while (r == 0 && test_now_ms() - t0 < 5000) {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        r = xcb_present_util_acquire(w.s.sc, MF_SECOND, &img);
        CHECK(r == 0 || r == XCB_PRESENT_UTIL_SUBOPTIMAL);
        CHECK(img.buffer == w.images[img.index]);
        CHECK_EQ(xcb_present_util_present(w.s.sc, &img, NULL, 0), 0);
        n++;
    }
    test_note("suboptimal after %u frames, %lld ms", n, test_now_ms() - t0);
    CHECK_EQ(r, XCB_PRESENT_UTIL_SUBOPTIMAL);
    CHECK(test_now_ms() - t0 >= 300);
    /* and it stays so: the images are never reallocated */
    for (uint32_t i = 0; i < 5; i++) {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &img),
                 XCB_PRESENT_UTIL_SUBOPTIMAL);
        CHECK(img.buffer == w.images[img.index]);
        CHECK_EQ(xcb_present_util_present(w.s.sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(w.s.sc, 0, MF_SECOND, NULL), 0);
    stop(&w);
}

TEST(a_destroyed_window_is_enodev)
{
    struct wsi w;
    long long t0;
    int r = 0;

    start(&w, NULL, 2, XCB_PRESENT_UTIL_MODE_FIFO);
    {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(w.s.sc, MF_SECOND, &img), 0);
        CHECK_EQ(xcb_present_util_present(w.s.sc, &img, NULL, 0), 0);
    }
    xcb_destroy_window(w.s.c, w.s.window);
    xcb_flush(w.s.c);
    t0 = test_now_ms();
    while (r >= 0 && test_now_ms() - t0 < 3000) {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        r = xcb_present_util_acquire(w.s.sc, 200000000, &img);
        if (r >= 0)
            r = xcb_present_util_present(w.s.sc, &img, NULL, 0);
        else if (r == -ETIMEDOUT)
            r = 0;
    }
    CHECK_EQ(r, -ENODEV);
    w.s.window = 0;
    stop(&w);
}
