/*
 * The calls a driver makes between frames, on the mock server: no throttle
 * of the swapchain's own (Vulkan's acquire hands out any idle image), the
 * caller's present ids and the wait for them (future ids too), an image
 * given back unpresented, the mode and swap interval changed between
 * presents, the sticky status and the window's size, and the caller's
 * memfd images on the SHM back end with a stride wider than the width.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mock-fixture.h"
#include "test-clock.h"
#include "test-runner.h"
#include "xcb_dri3_util.h"
#include "xcb_present_util.h"

#define XRGB8888 0x34325258u

/* the mock's MIT-SHM, off by default */
static const char *const shm_on[] = { "shm", "on", NULL };

static void start_with(struct mock_fixture *s, xcb_present_util_mode_t mode, uint32_t n,
                       xcb_present_util_throttle_t throttle)
{
    xcb_present_util_options_t o;

    mf_start(s, shm_on);
    xcb_present_util_options_init(&o);
    o.mode = mode;
    o.backend = XCB_PRESENT_UTIL_BACKEND_SHM;
    o.num_buffers = n;
    o.throttle = throttle;
    mf_swapchain_with(s, &o);
}

static void acquire_ok(struct mock_fixture *s, xcb_present_util_image_t *img)
{
    xcb_present_util_image_init(img);
    CHECK_EQ(xcb_present_util_acquire(s->sc, MF_SECOND, img), 0);
}

static void present_id(struct mock_fixture *s, const xcb_present_util_image_t *img, uint64_t id)
{
    xcb_present_util_present_info_t info;

    xcb_present_util_present_info_init(&info);
    info.present_id = id;
    CHECK_EQ(xcb_present_util_present_with(s->sc, img, &info), 0);
}

/* ---- throttling --------------------------------------------------------- */

/* FIFO, 3 buffers, 2 frames queued: with the throttle at acquire (the
 * default, a toolkit's loop) acquire(0) waits; without it the third,
 * idle buffer is handed out at once (vkAcquireNextImageKHR, timeout 0). */
TEST(without_the_throttle_acquire_hands_out_any_idle_buffer)
{
    static const xcb_present_util_throttle_t throttles[] = {
        XCB_PRESENT_UTIL_THROTTLE_ACQUIRE, XCB_PRESENT_UTIL_THROTTLE_NONE,
    };

    for (int t = 0; t < 2; t++) {
        struct mock_fixture s;
        xcb_present_util_image_t a, b, c;
        int r;

        start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, throttles[t]);
        /* a chain to aim from: one frame shown */
        acquire_ok(&s, &a);
        CHECK_EQ(xcb_present_util_present(s.sc, &a, NULL, 0), 0);
        CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, MF_SECOND, NULL), 0);
        acquire_ok(&s, &a);
        CHECK_EQ(xcb_present_util_present(s.sc, &a, NULL, 0), 0);
        acquire_ok(&s, &b);
        CHECK_EQ(xcb_present_util_present(s.sc, &b, NULL, 0), 0);
        xcb_present_util_image_init(&c);
        r = xcb_present_util_acquire(s.sc, 0, &c);
        if (throttles[t] == XCB_PRESENT_UTIL_THROTTLE_ACQUIRE) {
            /* Two frames queued: no buffer, unless one of them was shown
             * by then (a slow run, valgrind: the queue had room). */
            xcb_present_util_stats_t st;

            xcb_present_util_stats_init(&st);
            CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
            if (r == 0)
                CHECK(st.completed >= 2);
            else
                CHECK_EQ(r, -ETIMEDOUT);
        } else {
            CHECK_EQ(r, 0);
            CHECK(c.index != a.index && c.index != b.index);
            /* all three out: nothing is idle, and acquire(0) says so */
            {
                xcb_present_util_image_t d;

                xcb_present_util_image_init(&d);
                CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &d), -ETIMEDOUT);
            }
            CHECK_EQ(xcb_present_util_present(s.sc, &c, NULL, 0), 0);
        }
        mf_stop(&s);
    }
}

/* Without the throttle, as many FIFO frames are queued as there are
 * buffers, and still never two on one vblank: each frame is shown at a
 * vblank of its own, in order (a frame the mock's late timer showed
 * after its target may share, as on a real server). */
TEST(unthrottled_fifo_frames_each_get_their_own_vblank)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_NONE);
    for (uint32_t i = 0; i < 40; i++) {
        acquire_ok(&s, &img);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 40);
    CHECK_EQ(s.n_log, 40);
    for (uint32_t i = 0; i < 40; i++) {
        /* the mock's late timer may put a frame on its successor's vblank */
        bool late = mf_shown_late(&s.log[i]) || (i && mf_shown_late(&s.log[i - 1])) ||
                    (i + 1 < 40 && mf_shown_late(&s.log[i + 1]));

        CHECK_EQ(s.log[i].frame, i + 1);
        if (i && !late)
            CHECK(s.log[i].msc > s.log[i - 1].msc);
        if (!late)
            CHECK(s.log[i].mode != XCB_PRESENT_COMPLETE_MODE_SKIP);
        /* the aim itself is never shared: a vblank per frame */
        if (i && s.log[i].target_msc && s.log[i - 1].target_msc)
            CHECK(s.log[i].target_msc > s.log[i - 1].target_msc);
    }
    mf_stop(&s);
}

/* THROTTLE_PRESENT: acquire() does not wait, present() returns once at
 * most max_latency frames are queued (GL's SwapBuffers). */
TEST(throttle_at_present_bounds_the_queue_after_each_present)
{
    struct mock_fixture s;
    xcb_present_util_options_t o;
    xcb_present_util_stats_t st;
    xcb_present_util_image_t img;

    mf_start(&s, shm_on);
    xcb_present_util_options_init(&o);
    o.backend = XCB_PRESENT_UTIL_BACKEND_SHM;
    o.num_buffers = 3;
    o.max_latency = 1;
    o.throttle = XCB_PRESENT_UTIL_THROTTLE_PRESENT;
    mf_swapchain_with(&s, &o);
    for (uint32_t i = 0; i < 10; i++) {
        acquire_ok(&s, &img);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
        xcb_present_util_stats_init(&st);
        CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
        /* at most one frame of those presented has not completed */
        CHECK(st.presented - st.completed <= 1);
    }
    mf_stop(&s);
}

/* ---- the caller's present ids ------------------------------------------- */

struct waiter {
    struct mock_fixture *s;
    uint64_t id;
    int r;
    xcb_present_util_frame_t frame;
    long long returned_ms;
};

static void *wait_thread(void *arg)
{
    struct waiter *w = arg;

    xcb_present_util_frame_init(&w->frame);
    w->r = xcb_present_util_wait_present(w->s->sc, w->id, 5 * MF_SECOND, &w->frame);
    w->returned_ms = test_now_ms();
    return NULL;
}

TEST(wait_present_waits_for_ids_not_presented_yet)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;
    xcb_present_util_frame_t f;
    struct waiter w = { .s = &s, .id = 30 };
    long long presented_ms;
    pthread_t t;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_NONE);
    /* ids with gaps */
    acquire_ok(&s, &img);
    present_id(&s, &img, 10);
    CHECK_EQ(xcb_present_util_wait_present(s.sc, 10, MF_SECOND, NULL), 0);
    /* not presented: looking says so at once, a short wait times out */
    CHECK_EQ(xcb_present_util_wait_present(s.sc, 20, 0, NULL), -ETIMEDOUT);
    CHECK_EQ(xcb_present_util_wait_present(s.sc, 20, 30000000, NULL), -ETIMEDOUT);
    CHECK_EQ(pthread_create(&t, NULL, wait_thread, &w), 0);
    usleep(50000);
    acquire_ok(&s, &img);
    present_id(&s, &img, 20);
    acquire_ok(&s, &img);
    presented_ms = test_now_ms();
    present_id(&s, &img, 30);
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_EQ(w.r, 0);
    CHECK(w.returned_ms >= presented_ms);      /* never before it was presented */
    CHECK_EQ(w.frame.present_id, 30);
    CHECK(w.frame.msc > 0 && w.frame.ust > 0);
    /* an id already shown: at once, with its timing */
    xcb_present_util_frame_init(&f);
    CHECK_EQ(xcb_present_util_wait_present(s.sc, 20, 0, &f), 0);
    CHECK_EQ(f.present_id, 20);
    CHECK(f.msc < w.frame.msc);
    /* an id 15 between two presented: done (at least 15 was shown) */
    CHECK_EQ(xcb_present_util_wait_present(s.sc, 15, 0, NULL), 0);
    /* ids must grow: the frame is refused and its image given back */
    acquire_ok(&s, &img);
    {
        xcb_present_util_present_info_t info;

        xcb_present_util_present_info_init(&info);
        info.present_id = 30;
        CHECK_EQ(xcb_present_util_present_with(s.sc, &img, &info), -EINVAL);
    }
    CHECK_EQ(xcb_present_util_wait_present(s.sc, 0, 0, NULL), -EINVAL);
    mf_stop(&s);
}

/* ---- changes between frames --------------------------------------------- */

TEST(release_gives_an_image_back_unpresented)
{
    struct mock_fixture s;
    xcb_present_util_image_t a, b;
    xcb_present_util_stats_t st;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, XCB_PRESENT_UTIL_THROTTLE_NONE);
    acquire_ok(&s, &a);
    CHECK_EQ(xcb_present_util_present(s.sc, &a, NULL, 0), 0);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, MF_SECOND, NULL), 0);
    acquire_ok(&s, &a);
    acquire_ok(&s, &b);
    CHECK_EQ(xcb_present_util_release(s.sc, &a), 0);
    CHECK_EQ(xcb_present_util_release(s.sc, &a), -EINVAL);     /* not acquired any more */
    acquire_ok(&s, &a);
    CHECK_EQ(a.age, 0);         /* whatever the caller drew is not a frame */
    CHECK_EQ(xcb_present_util_present(s.sc, &a, NULL, 0), 0);
    CHECK_EQ(xcb_present_util_present(s.sc, &b, NULL, 0), 0);
    mf_wait_completed(&s, 3);
    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.presented, 3);
    mf_stop(&s);
}

/* FIFO frames aim at a vblank; after set_mode(MAILBOX) the server picks
 * (target 0); back in FIFO they aim again, after the last frame's vblank. */
TEST(the_mode_changes_between_presents)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;
    static const xcb_present_util_mode_t modes[] = {
        XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_MODE_MAILBOX, XCB_PRESENT_UTIL_MODE_FIFO,
    };

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_NONE);
    for (uint32_t m = 0; m < 3; m++) {
        CHECK_EQ(xcb_present_util_swapchain_set_mode(s.sc, modes[m]), 0);
        for (uint32_t i = 0; i < 4; i++) {
            acquire_ok(&s, &img);
            CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
        }
        mf_wait_completed(&s, 4 * (m + 1));
    }
    CHECK_EQ(xcb_present_util_swapchain_set_mode(s.sc, (xcb_present_util_mode_t)9), -EINVAL);
    CHECK_EQ(s.n_log, 12);
    for (uint32_t i = 0; i < 12; i++) {
        bool fifo = i < 4 || i >= 8;

        /* the first FIFO frame of a run goes to "the next vblank" */
        if (fifo && i != 0 && i != 8)
            CHECK(s.log[i].target_msc > 0);
        if (!fifo)
            CHECK_EQ(s.log[i].target_msc, 0);
        if (i)
            CHECK(s.log[i].msc >= s.log[i - 1].msc);
    }
    mf_stop(&s);
}

/* Interval 2: each frame at least two vblanks after the one before;
 * interval 0: IMMEDIATE until raised again. */
TEST(the_swap_interval_changes_between_presents)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_ACQUIRE);
    CHECK_EQ(xcb_present_util_swapchain_set_swap_interval(s.sc, 2), 0);
    for (uint32_t i = 0; i < 6; i++) {
        acquire_ok(&s, &img);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 6);
    for (uint32_t i = 2; i < 6; i++)
        if (s.log[i].target_msc)
            CHECK(s.log[i].target_msc >= s.log[i - 1].target_msc + 2);
    CHECK_EQ(xcb_present_util_swapchain_set_swap_interval(s.sc, 0), 0);
    acquire_ok(&s, &img);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    mf_wait_completed(&s, 7);
    CHECK_EQ(s.log[6].target_msc, 0);       /* IMMEDIATE: no aim */
    CHECK_EQ(xcb_present_util_swapchain_set_swap_interval(NULL, 1), -EINVAL);
    mf_stop(&s);
}

/* ---- status and size ---------------------------------------------------- */

TEST(status_is_sticky_once_the_window_is_gone)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;
    uint16_t w = 0, h = 0;
    int r = 0;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_NONE);
    CHECK_EQ(xcb_present_util_swapchain_status(s.sc), 0);
    CHECK_EQ(xcb_present_util_swapchain_window_size(s.sc, &w, &h), 0);
    CHECK_EQ(w, 64);
    CHECK_EQ(h, 48);
    CHECK_EQ(xcb_present_util_swapchain_window_size(s.sc, NULL, &h), -EINVAL);
    xcb_destroy_window(s.c, s.window);
    xcb_flush(s.c);
    for (int i = 0; i < 100 && r != -ENODEV; i++) {
        xcb_present_util_image_init(&img);
        r = xcb_present_util_acquire(s.sc, 100000000, &img);
        if (r == 0)
            r = xcb_present_util_present(s.sc, &img, NULL, 0);
    }
    CHECK_EQ(r, -ENODEV);
    CHECK_EQ(xcb_present_util_swapchain_status(s.sc), -ENODEV);
    CHECK_EQ(xcb_present_util_swapchain_status(s.sc), -ENODEV);
    mf_stop(&s);
}

/* ---- the caller's images on MIT-SHM ------------------------------------- */

/* memfds with rows 128 pixels apart for a 64-pixel-wide image (a Vulkan
 * driver's linear pitch): the pixmap is 128 wide, the window shows the
 * image's 64 columns. */
TEST(caller_memfd_images_go_through_shm_with_a_wide_stride)
{
    struct mock_fixture s;
    xcb_dri3_util_buffer_t *imgs[3];
    xcb_present_util_options_t o;
    xcb_present_util_image_t img;
    uint32_t stride = 128 * 4, offset = 0;
    void *maps[3];

    mf_start(&s, shm_on);
    for (int i = 0; i < 3; i++) {
        int fd = memfd_create("caller-image", MFD_CLOEXEC);

        CHECK(fd >= 0 && ftruncate(fd, (off_t)stride * 48) == 0);
        maps[i] = mmap(NULL, (size_t)stride * 48, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        CHECK(maps[i] != MAP_FAILED);
        imgs[i] = xcb_dri3_util_buffer_import(64, 48, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1,
                                              &fd, &stride, &offset);
        CHECK(imgs[i] != NULL);
    }
    xcb_present_util_options_init(&o);
    o.images = imgs;
    o.num_images = 3;
    o.backend = XCB_PRESENT_UTIL_BACKEND_SHM;
    o.throttle = XCB_PRESENT_UTIL_THROTTLE_NONE;
    mf_swapchain_with(&s, &o);
    CHECK_EQ(xcb_present_util_swapchain_backend(s.sc), XCB_PRESENT_UTIL_BACKEND_SHM);
    for (uint32_t n = 1; n <= 6; n++) {
        acquire_ok(&s, &img);
        CHECK(img.pixels == NULL);          /* the caller's pages: never mapped by us */
        CHECK(img.buffer == imgs[img.index]);
        for (uint32_t y = 0; y < 48; y++)
            for (uint32_t x = 0; x < 64; x++)
                ((uint32_t *)((uint8_t *)maps[img.index] + (size_t)y * stride))[x] =
                    mf_pixel(n, x, y);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 6);
    mf_check_window_shows(&s, 6);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    for (int i = 0; i < 3; i++) {
        munmap(maps[i], (size_t)stride * 48);
        xcb_dri3_util_buffer_destroy(imgs[i]);
    }
    mf_stop(&s);
}

/* A struct zeroed with only its size set is the defaults: FIFO with
 * vsync (each frame at a vblank of its own), not swap interval 0. */
TEST(a_zeroed_options_struct_keeps_vsync)
{
    struct mock_fixture s;
    xcb_present_util_options_t o;
    xcb_present_util_image_t img;

    mf_start(&s, shm_on);
    memset(&o, 0, sizeof o);
    o.size = sizeof o;
    mf_swapchain_with(&s, &o);
    for (uint32_t i = 0; i < 8; i++) {
        acquire_ok(&s, &img);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 8);
    for (uint32_t i = 1; i < 8; i++) {
        CHECK(s.log[i].target_msc > 0);
        if (s.log[i - 1].target_msc)
            CHECK(s.log[i].target_msc > s.log[i - 1].target_msc);
        if (!mf_shown_late(&s.log[i]) && !mf_shown_late(&s.log[i - 1]))
            CHECK(s.log[i].msc > s.log[i - 1].msc);
    }
    mf_stop(&s);
}

/* Destroying a swapchain on the DRI3 back end drops the probe's answers,
 * never what the application set for the connection. */
TEST(a_dri3_swapchain_keeps_the_connections_timeout)
{
    struct mock_fixture s;
    xcb_present_util_image_t img;

    mf_start(&s, NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(s.c, 5 * MF_SECOND), 0);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_DRI3, 3);
    acquire_ok(&s, &img);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK_EQ(xcb_dri3_util_timeout(s.c), 5 * MF_SECOND);
    /* and a second swapchain probes again and works */
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_DRI3, 3);
    acquire_ok(&s, &img);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    CHECK_EQ(xcb_dri3_util_timeout(s.c), 5 * MF_SECOND);
    mf_stop(&s);
}

/* ---- hooks outside the lock --------------------------------------------- */

struct hooked {
    struct mock_fixture *s;
    int frames, stats_ok, resizes;
    uint16_t w, h;
};

/* The frame callback calls the swapchain (it held the lock before: this
 * deadlocked), and the resize callback hears the new size. */
static void frame_calls_back(void *data, const xcb_present_util_frame_t *f)
{
    struct hooked *h = data;
    xcb_present_util_stats_t st;
    uint16_t w, ht;

    (void)f;
    h->frames++;
    xcb_present_util_stats_init(&st);
    if (xcb_present_util_swapchain_stats(h->s->sc, &st) == 0 && st.completed >= (uint64_t)h->frames &&
        xcb_present_util_swapchain_window_size(h->s->sc, &w, &ht) == 0)
        h->stats_ok++;
}

static void resized(void *data, uint16_t w, uint16_t ht)
{
    struct hooked *h = data;

    h->resizes++;
    h->w = w;
    h->h = ht;
}

TEST(callbacks_run_outside_the_lock)
{
    struct mock_fixture s;
    struct hooked h = { .s = &s };
    xcb_present_util_image_t img;
    uint32_t size[2] = { 40, 30 };

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_ACQUIRE);
    xcb_present_util_swapchain_set_frame_callback(s.sc, frame_calls_back, &h);
    xcb_present_util_swapchain_set_resize_callback(s.sc, resized, &h);
    for (uint32_t i = 0; i < 6; i++) {
        acquire_ok(&s, &img);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 0, MF_SECOND, NULL), 0);
    CHECK_EQ(h.frames, 6);
    CHECK_EQ(h.stats_ok, 6);
    xcb_configure_window(s.c, s.window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
    xcb_flush(s.c);
    for (int i = 0; i < 100 && !h.resizes; i++) {
        usleep(10000);
        CHECK(xcb_present_util_dispatch(s.sc) >= 0);
    }
    CHECK_EQ(h.resizes, 1);
    CHECK_EQ(h.w, 40);
    CHECK_EQ(h.h, 30);
    mf_stop(&s);
}

/* ---- a swapchain made from an old one ------------------------------------ */

/* s's swapchain replaced by a successor on SHM; returns the old one,
 * which the caller destroys. */
static xcb_present_util_swapchain_t *successor(struct mock_fixture *s,
                                              xcb_present_util_options_t *o)
{
    xcb_present_util_swapchain_t *old = s->sc;

    xcb_present_util_options_init(o);
    o->backend = XCB_PRESENT_UTIL_BACKEND_SHM;
    o->predecessor = old;
    s->sc = NULL;
    mf_swapchain_with(s, o);
    return old;
}

/* The new one's frame ids continue the old one's (GLX's SBC), its MSCs
 * never go back; the old one may go after the new one is made. */
TEST(a_successor_continues_frame_ids_and_mscs)
{
    struct mock_fixture s;
    xcb_present_util_swapchain_t *old;
    xcb_present_util_options_t o;
    xcb_present_util_image_t img;
    xcb_present_util_frame_t last, first;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_ACQUIRE);
    for (uint32_t i = 0; i < 5; i++) {
        acquire_ok(&s, &img);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    xcb_present_util_frame_init(&last);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 5, MF_SECOND, &last), 0);
    old = successor(&s, &o);
    xcb_present_util_swapchain_destroy(old);
    acquire_ok(&s, &img);
    CHECK_EQ(img.frame_id, 6);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    xcb_present_util_frame_init(&first);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 6, MF_SECOND, &first), 0);
    CHECK_EQ(first.frame, 6);
    CHECK(first.msc > last.msc);
    CHECK(first.ust >= last.ust);
    /* another window's swapchain cannot be continued */
    {
        xcb_window_t other = xcb_generate_id(s.c);
        const xcb_screen_t *scr = xcb_setup_roots_iterator(xcb_get_setup(s.c)).data;

        xcb_create_window(s.c, 24, other, scr->root, 0, 0, 16, 16, 0,
                          XCB_WINDOW_CLASS_INPUT_OUTPUT, scr->root_visual, 0, NULL);
        o.predecessor = s.sc;
        errno = 0;
        CHECK(xcb_present_util_swapchain_create(s.c, other, &o) == NULL);
        CHECK_EQ(errno, EINVAL);
    }
    mf_stop(&s);
}

/* A successor made while the old one's first frame (sent for "the next
 * vblank": no clock yet) is still queued aims its own first frame past
 * it: both shown, on two vblanks, none replaced by the other (mpv on
 * Xwayland recreates its swapchain right after its first frame). */
TEST(a_successor_aims_past_the_old_ones_frame_in_flight)
{
    struct mock_fixture s;
    xcb_present_util_swapchain_t *old;
    xcb_present_util_options_t o;
    xcb_present_util_image_t img;
    xcb_present_util_frame_t f1, f2;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 3, XCB_PRESENT_UTIL_THROTTLE_ACQUIRE);
    acquire_ok(&s, &img);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    old = successor(&s, &o);
    acquire_ok(&s, &img);
    CHECK_EQ(img.frame_id, 2);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    xcb_present_util_frame_init(&f1);
    xcb_present_util_frame_init(&f2);
    CHECK_EQ(xcb_present_util_wait_frame(old, 1, MF_SECOND, &f1), 0);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, 2, MF_SECOND, &f2), 0);
    CHECK(f1.mode != XCB_PRESENT_COMPLETE_MODE_SKIP);
    CHECK(f2.mode != XCB_PRESENT_COMPLETE_MODE_SKIP);
    CHECK(f2.target_msc > f1.msc);
    CHECK(f2.msc > f1.msc);
    xcb_present_util_swapchain_destroy(old);
    mf_stop(&s);
}

/* present_with() says which frame_id a frame got: in present order, also
 * when the images go out in another order than they were acquired. */
TEST(present_with_reports_the_frame_id_in_present_order)
{
    struct mock_fixture s;
    xcb_present_util_image_t a, b;
    xcb_present_util_present_info_t ia, ib;
    xcb_present_util_frame_t f;

    start_with(&s, XCB_PRESENT_UTIL_MODE_MAILBOX, 3, XCB_PRESENT_UTIL_THROTTLE_NONE);
    acquire_ok(&s, &a);
    acquire_ok(&s, &b);
    xcb_present_util_present_info_init(&ib);
    ib.present_id = 7;
    CHECK_EQ(xcb_present_util_present_with(s.sc, &b, &ib), 0);
    xcb_present_util_present_info_init(&ia);
    ia.present_id = 8;
    CHECK_EQ(xcb_present_util_present_with(s.sc, &a, &ia), 0);
    CHECK_EQ(ib.frame_id, 1);
    CHECK_EQ(ia.frame_id, 2);
    xcb_present_util_frame_init(&f);
    CHECK_EQ(xcb_present_util_wait_frame(s.sc, ia.frame_id, MF_SECOND, &f), 0);
    CHECK_EQ(f.present_id, 8);
    CHECK_EQ(f.index, a.index);
    mf_stop(&s);
}

/* More than the old limit of 8: 12 caller images on SHM, all handed out
 * without presenting (a Vulkan application may hold them). */
TEST(twelve_buffers)
{
    struct mock_fixture s;
    xcb_present_util_image_t img[12];
    bool seen[16] = { false };

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 12, XCB_PRESENT_UTIL_THROTTLE_NONE);
    for (int i = 0; i < 12; i++) {
        xcb_present_util_image_init(&img[i]);
        CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &img[i]), 0);
        CHECK(img[i].index < 12 && !seen[img[i].index]);
        seen[img[i].index] = true;
    }
    for (int i = 0; i < 12; i++)
        CHECK_EQ(xcb_present_util_present(s.sc, &img[i], NULL, 0), 0);
    mf_wait_completed(&s, 12);
    mf_stop(&s);
}

/* The library's own buffers, more and then fewer, in place: 2 -> 4 with
 * both out (the new ones at once, age 0), then back to 2, refused while
 * a buffer that would go is out; frame ids go on, every frame completes
 * once and in order. */
TEST(the_number_of_buffers_changes_in_place)
{
    struct mock_fixture s;
    xcb_present_util_image_t img[4], more;
    uint32_t n = 0;

    start_with(&s, XCB_PRESENT_UTIL_MODE_FIFO, 2, XCB_PRESENT_UTIL_THROTTLE_NONE);
    for (int i = 0; i < 2; i++)
        acquire_ok(&s, &img[i]);
    xcb_present_util_image_init(&more);
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &more), -ETIMEDOUT);
    CHECK_EQ(xcb_present_util_swapchain_set_num_buffers(s.sc, 1), -EINVAL);
    CHECK_EQ(xcb_present_util_swapchain_set_num_buffers(s.sc, 17), -EINVAL);
    CHECK_EQ(xcb_present_util_swapchain_set_num_buffers(s.sc, 4), 0);
    for (int i = 2; i < 4; i++) {
        xcb_present_util_image_init(&img[i]);
        CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &img[i]), 0);
        CHECK(img[i].index >= 2 && img[i].index < 4);
        CHECK_EQ(img[i].age, 0);
        CHECK(img[i].pixels != NULL && img[i].width == 64);
    }
    CHECK(img[2].index != img[3].index);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(img[i].frame_id, ++n);
        CHECK_EQ(xcb_present_util_present(s.sc, &img[i], NULL, 0), 0);
    }
    /* a buffer of index 2 or 3 out: shrinking to 2 is refused */
    for (;;) {
        acquire_ok(&s, &more);
        if (more.index >= 2)
            break;
        CHECK_EQ(xcb_present_util_present(s.sc, &more, NULL, 0), 0);
        n++;
    }
    CHECK_EQ(xcb_present_util_swapchain_set_num_buffers(s.sc, 2), -EBUSY);
    CHECK_EQ(xcb_present_util_present(s.sc, &more, NULL, 0), 0);
    n++;
    CHECK_EQ(xcb_present_util_swapchain_set_num_buffers(s.sc, 2), 0);
    for (int i = 0; i < 6; i++) {
        acquire_ok(&s, &more);
        CHECK(more.index < 2);
        CHECK_EQ(more.frame_id, ++n);
        CHECK_EQ(xcb_present_util_present(s.sc, &more, NULL, 0), 0);
    }
    mf_wait_completed(&s, n);
    mf_check_in_order(&s, n);
    mf_stop(&s);
}
