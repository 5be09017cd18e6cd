/*
 * The swapchain as a GL loader uses it (the shape of Mesa's
 * loader_dri3_helper.c), on the mock X server with DRI3 1.4: three back
 * buffers the caller allocated, swap intervals 0, 1 and 2,
 * glXSwapBuffersMscOML (present_msc) and glXWaitForMscOML (wait_msc)
 * checked against the mock's CRTC, glXWaitForSbcOML (wait_frame), buffer
 * age, a resize that makes the images SUBOPTIMAL, and PRIME: the mock's
 * DRI3 Open gives one file and the caller renders on another, so the
 * frames go through display buffers, copied by a hook or by the CPU.
 *
 * Assertions are about order, counts and "never early"; lateness gets
 * generous bounds (a busy machine runs the mock's vblanks late).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xcb/present.h>

#include "mock-fixture.h"
#include "test-runner.h"
#include "xcb_dri3_util.h"
#include "xcb_present_util.h"

#define XRGB8888 0x34325258u
#define N_IMAGES 3

struct gl {
    struct mock_fixture s;
    xcb_dri3_util_buffer_t *images[N_IMAGES];
    int render_fd;
    char dir[64];
    xcb_present_util_backend_t backend;     /* 0: DRI3 */
};

/* The caller's back buffers: memfds the test maps to draw into. */
static void make_images(struct gl *g)
{
    for (uint32_t i = 0; i < N_IMAGES; i++) {
        g->images[i] = xcb_dri3_util_buffer_create_memfd(64, 48, XRGB8888);
        CHECK(g->images[i] != NULL);
    }
}

static void start(struct gl *g, const char *const *kv, xcb_present_util_mode_t mode,
                  uint32_t interval, int render_fd, xcb_present_util_prime_copy_t copy,
                  void *copy_data)
{
    xcb_present_util_options_t o;

    mf_start(&g->s, kv);
    make_images(g);
    xcb_present_util_options_init(&o);
    o.mode = mode;
    o.backend = g->backend ? g->backend : XCB_PRESENT_UTIL_BACKEND_DRI3;
    o.images = g->images;
    o.num_images = N_IMAGES;
    o.swap_interval = interval;
    o.render_fd = render_fd;
    o.prime_copy = copy;
    o.prime_data = copy_data;
    mf_swapchain_with(&g->s, &o);
}

static void stop(struct gl *g)
{
    mf_stop(&g->s);
    for (uint32_t i = 0; i < N_IMAGES; i++)
        xcb_dri3_util_buffer_destroy(g->images[i]);
    if (g->render_fd >= 0)
        close(g->render_fd);
}

/* Frame n's pattern into the top-left 64x48 of any caller image. */
static void render_into(xcb_dri3_util_buffer_t *b, uint32_t n)
{
    uint32_t stride;
    uint8_t *p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_WRITE, &stride);

    CHECK(p != NULL);
    for (uint32_t y = 0; y < 48; y++)
        for (uint32_t x = 0; x < 64; x++)
            ((uint32_t *)(p + (size_t)y * stride))[x] = mf_pixel(n, x, y);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
}

/* Frame n's pattern into the caller's image, as its renderer would. */
static void render(struct gl *g, const xcb_present_util_image_t *img, uint32_t n)
{
    render_into(g->images[img->index], n);
}

/* acquire() (expecting `want`: 0 or SUBOPTIMAL), render, then present. */
static xcb_present_util_image_t frame(struct gl *g, uint32_t n, int want)
{
    xcb_present_util_image_t img;

    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(g->s.sc, MF_SECOND, &img), want);
    CHECK(img.pixels == NULL);
    CHECK(img.buffer == g->images[img.index]);
    CHECK_EQ(img.frame_id, n);
    render(g, &img, n);
    CHECK_EQ(xcb_present_util_present(g->s.sc, &img, NULL, 0), 0);
    return img;
}

/* ---- swap intervals ---------------------------------------------------- */

static void check_interval(uint32_t interval)
{
    struct gl g = { .render_fd = -1 };

    start(&g, NULL, XCB_PRESENT_UTIL_MODE_FIFO, interval, -1, NULL, NULL);
    for (uint32_t n = 1; n <= 12; n++)
        frame(&g, n, 0);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    mf_check_in_order(&g.s, 12);
    /* the first frame starts the chain; every later one stays at least
     * `interval` vblanks after the one before */
    for (uint32_t i = 2; i < 12; i++) {
        const xcb_present_util_frame_t *f = &g.s.log[i], *before = f - 1;

        test_note("interval %u: frame %llu aimed at msc %llu, shown at %llu", interval,
                  (unsigned long long)f->frame, (unsigned long long)f->target_msc,
                  (unsigned long long)f->msc);
        CHECK(f->target_msc >= before->target_msc + interval);
        CHECK(f->msc >= f->target_msc);
        CHECK(f->msc >= before->msc + interval || mf_shown_late(f) || mf_shown_late(before));
    }
    mf_check_window_shows(&g.s, 12);
    stop(&g);
}

TEST(swap_interval_1_shows_every_frame_on_its_own_vblank)
{
    check_interval(1);
}

TEST(swap_interval_2_keeps_each_frame_two_vblanks)
{
    check_interval(2);
}

TEST(swap_interval_0_presents_at_once)
{
    struct gl g = { .render_fd = -1 };
    xcb_present_util_stats_t st;

    /* glXSwapIntervalEXT(0) on a running swapchain (in the options, 0 is
     * the default interval, 1) */
    start(&g, NULL, XCB_PRESENT_UTIL_MODE_FIFO, 1, -1, NULL, NULL);
    CHECK_EQ(xcb_present_util_swapchain_set_swap_interval(g.s.sc, 0), 0);
    for (uint32_t n = 1; n <= 6; n++)
        frame(&g, n, 0);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    /* IMMEDIATE: no target, the Async option */
    for (uint32_t i = 0; i < g.s.n_log; i++)
        CHECK_EQ(g.s.log[i].target_msc, 0);
    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(g.s.sc, &st), 0);
    CHECK_EQ(st.presented, 6);
    mf_check_window_shows(&g.s, 6);
    stop(&g);
}

/* ---- OML: present_msc, wait_msc, wait_frame ----------------------------- */

/* A little-endian 64-bit request field. */
static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

TEST(present_msc_and_wait_msc_follow_oml)
{
    struct gl g = { .render_fd = -1 };
    xcb_present_util_timing_t t, t2;
    xcb_present_util_frame_t f;
    xcb_present_util_image_t img;
    uint64_t m;

    start(&g, NULL, XCB_PRESENT_UTIL_MODE_FIFO, 1, -1, NULL, NULL);
    xcb_present_util_timing_init(&t);
    xcb_present_util_frame_init(&f);
    /* target 0, divisor 0: at once, the current count */
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, 0, 0, 0, MF_SECOND, &t), 0);
    CHECK(t.ust > 0);
    CHECK_EQ(t.sbc, 0);
    m = t.msc;
    /* a vblank ahead: not before it */
    xcb_present_util_timing_init(&t2);
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, m + 5, 0, 0, MF_SECOND, &t2), 0);
    CHECK(t2.msc >= m + 5);
    CHECK(t2.ust > t.ust);
    /* passed, with a divisor: the next msc % 3 == 2, never before it (a
     * server that runs its vblank late reports the count it ran at, as
     * the mock and Xvfb do on a loaded machine: later is allowed) */
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, 1, 3, 2, MF_SECOND, &t), 0);
    CHECK(t.msc > t2.msc);
    CHECK(t.msc >= t2.msc + 1 + (2 + 3 - (t2.msc + 1) % 3) % 3);
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, 0, 3, 3, MF_SECOND, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, 0, 0, 1, MF_SECOND, NULL), -EINVAL);

    /* present_msc at a vblank ahead: shown there, never before */
    m = t.msc;
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(g.s.sc, MF_SECOND, &img), 0);
    render(&g, &img, 1);
    CHECK_EQ(xcb_present_util_present_msc(g.s.sc, &img, NULL, 0, m + 6, 0, 0), 0);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, img.frame_id, 2 * MF_SECOND, &f), 0);
    test_note("aimed at %llu, shown at %llu", (unsigned long long)(m + 6),
              (unsigned long long)f.msc);
    CHECK(f.msc >= m + 6);
    CHECK(f.msc < m + 6 + 60);
    /* passed, divisor 4, remainder 1 */
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(g.s.sc, MF_SECOND, &img), 0);
    render(&g, &img, 2);
    CHECK_EQ(xcb_present_util_present_msc(g.s.sc, &img, NULL, 0, 1, 4, 1), 0);
    m = f.msc;
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, img.frame_id, 2 * MF_SECOND, &f), 0);
    test_note("divisor 4 remainder 1: shown at %llu", (unsigned long long)f.msc);
    CHECK(f.msc > m);
    CHECK(f.msc >= m + 1 + (1 + 4 - (m + 1) % 4) % 4);
    CHECK_EQ(xcb_present_util_present_msc(g.s.sc, &img, NULL, 0, 0, 4, 4), -EINVAL);
    /* glXWaitForMscOML's sbc: the last frame shown */
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, 0, 0, 0, MF_SECOND, &t), 0);
    CHECK_EQ(t.sbc, 2);
    CHECK(t.msc >= f.msc);
    /* a present() after them is aimed after the last one's vblank */
    frame(&g, 3, 0);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 3, 2 * MF_SECOND, &f), 0);
    CHECK(f.msc > m);
    mf_check_in_order(&g.s, 3);
    mf_check_window_shows(&g.s, 3);
    /* The exact rule is the requests': the completions above may come a
     * vblank late on a loaded machine, the divisor and remainder sent may
     * not be anything but the caller's (no MSC offset here). */
    xcb_present_util_swapchain_destroy(g.s.sc);
    g.s.sc = NULL;
    CHECK_EQ(mock_server_stop(g.s.server), 0);
    {
        struct mock_transcript *tr = mock_server_transcript(g.s.server);
        const struct mock_request_record *r;
        int notify = 0, pixmap = 0;

        CHECK(tr != NULL);
        for (size_t i = 0; (r = mock_transcript_find(tr, MOCK_PRESENT_MAJOR, 2, i)); i++)
            notify += le64(r->data + 24) == 3 && le64(r->data + 32) == 2;
        for (size_t i = 0; (r = mock_transcript_find(tr, MOCK_PRESENT_MAJOR, 1, i)); i++)
            pixmap += le64(r->data + 56) == 4 && le64(r->data + 64) == 1;
        CHECK_EQ(notify, 1);
        CHECK_EQ(pixmap, 1);
        mock_transcript_free(tr);
    }
    stop(&g);
}

/* ---- age, resize ------------------------------------------------------- */

TEST(caller_images_have_an_age_and_are_never_reallocated)
{
    struct gl g = { .render_fd = -1 };
    uint32_t wh[2] = { 80, 40 };
    uint64_t last_frame_of[N_IMAGES] = { 0 };
    int want = 0;

    start(&g, NULL, XCB_PRESENT_UTIL_MODE_FIFO, 1, -1, NULL, NULL);
    for (uint32_t n = 1; n <= 12; n++) {
        xcb_present_util_image_t img;

        if (n == 7) {
            xcb_configure_window(g.s.c, g.s.window,
                                 XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, wh);
            xcb_flush(g.s.c);
            /* the ConfigureNotify reaches the swapchain with a frame */
            CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, MF_SECOND, NULL), 0);
            want = XCB_PRESENT_UTIL_SUBOPTIMAL;
        }
        img = frame(&g, n, want);
        /* the same images all along, with their own age */
        CHECK_EQ(img.width, 64);
        CHECK_EQ(img.age, last_frame_of[img.index] ? n - last_frame_of[img.index] : 0);
        last_frame_of[img.index] = n;
    }
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    mf_check_in_order(&g.s, 12);
    /* back to the images' size: they fit again */
    wh[0] = 64;
    wh[1] = 48;
    xcb_configure_window(g.s.c, g.s.window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                         wh);
    xcb_flush(g.s.c);
    CHECK_EQ(xcb_present_util_wait_msc(g.s.sc, 0, 0, 0, MF_SECOND, NULL), 0);
    frame(&g, 13, 0);
    stop(&g);
}

/* ---- the images replaced in place ---------------------------------------- */

/* Frames from .. to on the n 96x64 images the swapchain now has: each
 * acquired one is one of them, with the frame id of its turn and an age
 * counted from their first use (0 then). */
static void frames_on(struct gl *g, xcb_dri3_util_buffer_t *const *images, uint32_t n,
                      uint32_t from, uint32_t to)
{
    uint64_t last_frame_of[4] = { 0 };

    for (uint32_t f = from; f <= to; f++) {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(g->s.sc, MF_SECOND, &img), 0);
        CHECK(img.index < n);
        CHECK(img.buffer == images[img.index]);
        CHECK_EQ(img.width, 96);
        CHECK_EQ(img.height, 64);
        CHECK_EQ(img.frame_id, f);
        CHECK_EQ(img.age, last_frame_of[img.index] ? f - last_frame_of[img.index] : 0);
        last_frame_of[img.index] = f;
        render_into(images[img.index], f);
        CHECK_EQ(xcb_present_util_present(g->s.sc, &img, NULL, 0), 0);
    }
}

/* GL's resize without a new swapchain: frames still queued, the window
 * grows, the loader hands over four new back buffers of the new size and
 * frees the old ones at once.  Frame ids, MSCs and the FIFO chain go on;
 * the new images start with age 0 and fit the window (no SUBOPTIMAL). */
static void replace_run(struct gl *gp, const char *const *kv)
{
    struct gl g = *gp;
    xcb_dri3_util_buffer_t *bigger[4];
    xcb_present_util_stats_t st;
    xcb_present_util_image_t img;
    uint32_t wh[2] = { 96, 64 };

    start(&g, kv, XCB_PRESENT_UTIL_MODE_FIFO, 1, g.render_fd, NULL, NULL);
    for (uint32_t n = 1; n <= 6; n++)
        frame(&g, n, 0);
    xcb_configure_window(g.s.c, g.s.window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                         wh);
    xcb_flush(g.s.c);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 5, 2 * MF_SECOND, NULL), 0);
    CHECK_EQ(xcb_present_util_swapchain_status(g.s.sc), XCB_PRESENT_UTIL_SUBOPTIMAL);
    for (uint32_t i = 0; i < 4; i++) {
        bigger[i] = xcb_dri3_util_buffer_create_memfd(96, 64, XRGB8888);
        CHECK(bigger[i] != NULL);
    }
    /* an image still acquired: refused, nothing changed */
    xcb_present_util_image_init(&img);
    CHECK(xcb_present_util_acquire(g.s.sc, MF_SECOND, &img) >= 0);
    CHECK_EQ(xcb_present_util_swapchain_set_images(g.s.sc, bigger, 4), -EBUSY);
    CHECK_EQ(xcb_present_util_release(g.s.sc, &img), 0);
    /* images of two sizes: refused, nothing changed */
    {
        xcb_dri3_util_buffer_t *mixed[2] = { bigger[0], g.images[0] };

        CHECK_EQ(xcb_present_util_swapchain_set_images(g.s.sc, mixed, 2), -EINVAL);
    }
    CHECK_EQ(xcb_present_util_swapchain_set_images(g.s.sc, bigger, 4), 0);
    /* the library keeps nothing of the old images: freed now, while
     * frames of them may still be queued (ASan and valgrind watch) */
    for (uint32_t i = 0; i < N_IMAGES; i++) {
        xcb_dri3_util_buffer_destroy(g.images[i]);
        g.images[i] = NULL;
    }
    CHECK_EQ(xcb_present_util_swapchain_status(g.s.sc), 0);
    frames_on(&g, bigger, 4, 7, 18);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    /* every frame completed once, in order, the released one not among
     * them; the chain went on across the change */
    mf_check_in_order(&g.s, 18);
    for (uint32_t i = 1; i < 18; i++) {
        const xcb_present_util_frame_t *f = &g.s.log[i], *before = f - 1;

        test_note("frame %llu aimed at msc %llu, shown at %llu", (unsigned long long)f->frame,
                  (unsigned long long)f->target_msc, (unsigned long long)f->msc);
        CHECK(f->msc >= before->msc);
        if (before->target_msc)
            CHECK(f->target_msc > before->target_msc);
    }
    mf_check_window_shows(&g.s, 18);
    /* PRIME: every frame went through a display buffer, the new images'
     * too */
    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(g.s.sc, &st), 0);
    CHECK_EQ(st.prime_copies, g.render_fd >= 0 ? 18u : 0u);
    CHECK_EQ(xcb_present_util_swapchain_backend(g.s.sc),
             g.backend ? g.backend : XCB_PRESENT_UTIL_BACKEND_DRI3);
    /* fewer, of the same images: kept in both sets, made again (age 0) */
    CHECK_EQ(xcb_present_util_swapchain_set_images(g.s.sc, bigger, 2), 0);
    frames_on(&g, bigger, 2, 19, 22);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    mf_check_in_order(&g.s, 22);
    mf_check_window_shows(&g.s, 22);
    /* an own-buffer call on caller images */
    CHECK_EQ(xcb_present_util_swapchain_set_num_buffers(g.s.sc, 4), -EINVAL);
    xcb_present_util_swapchain_destroy(g.s.sc);
    g.s.sc = NULL;
    for (uint32_t i = 0; i < 4; i++)
        xcb_dri3_util_buffer_destroy(bigger[i]);
    stop(&g);
}

TEST(a_resize_replaces_the_images_in_place)
{
    struct gl g = { .render_fd = -1 };

    replace_run(&g, NULL);
}

/* The same where the server flips: the last old image is on screen when
 * it is let go. */
TEST(images_replaced_while_one_is_on_screen)
{
    static const char *const kv[] = { "present-complete-mode", "flip", NULL };
    struct gl g = { .render_fd = -1 };

    replace_run(&g, kv);
}

/* The SHM back end: a segment per new image. */
TEST(images_replaced_in_place_on_shm)
{
    static const char *const kv[] = { "shm", "on", NULL };
    struct gl g = { .render_fd = -1, .backend = XCB_PRESENT_UTIL_BACKEND_SHM };

    replace_run(&g, kv);
}

/* A replacement that fails half-way (the server cannot map the third new
 * image: a pipe where its memfd was) changes nothing: the old images go
 * on, frame ids too, and no fd of the two made first is left behind. */
TEST(a_failed_replacement_changes_nothing)
{
    static const char *const kv[] = { "shm", "on", NULL };
    struct gl g = { .render_fd = -1, .backend = XCB_PRESENT_UTIL_BACKEND_SHM };
    xcb_dri3_util_buffer_t *fresh[3];
    int p[2], r;

    start(&g, kv, XCB_PRESENT_UTIL_MODE_FIFO, 1, -1, NULL, NULL);
    for (uint32_t n = 1; n <= 3; n++)
        frame(&g, n, 0);
    for (uint32_t i = 0; i < 3; i++) {
        fresh[i] = xcb_dri3_util_buffer_create_memfd(64, 48, XRGB8888);
        CHECK(fresh[i] != NULL);
    }
    CHECK_EQ(pipe2(p, O_CLOEXEC), 0);
    CHECK(dup3(p[0], xcb_dri3_util_buffer_fd(fresh[2], 0), O_CLOEXEC) >= 0);
    close(p[0]);
    close(p[1]);
    r = xcb_present_util_swapchain_set_images(g.s.sc, fresh, 3);
    test_note("set_images with an unmappable image: %d", r);
    CHECK(r < 0 && r != -EBUSY);
    CHECK_EQ(xcb_present_util_swapchain_status(g.s.sc), 0);
    for (uint32_t n = 4; n <= 9; n++)
        frame(&g, n, 0);                /* the old images, frame ids 4.. */
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    mf_check_in_order(&g.s, 9);
    mf_check_window_shows(&g.s, 9);
    for (uint32_t i = 0; i < 3; i++)
        xcb_dri3_util_buffer_destroy(fresh[i]);
    stop(&g);
}

/* ---- PRIME ------------------------------------------------------------- */

struct copies {
    struct gl *g;
    uint32_t calls;
    bool wrong;
};

/* The caller's GPU blit, here a CPU one, checking what it is given. */
static int copy_hook(void *data, const xcb_dri3_util_buffer_t *src,
                     const xcb_dri3_util_buffer_t *dst, const xcb_rectangle_t *damage,
                     uint32_t n_damage)
{
    struct copies *c = data;
    bool from_an_image = false;
    xcb_present_util_stats_t st;
    uint32_t ss, ds;
    const uint8_t *from;
    uint8_t *to;

    (void)damage;
    /* Outside the swapchain's lock: a call back into it returns (under
     * the lock it would deadlock), and sees the copies before this one. */
    xcb_present_util_stats_init(&st);
    if (xcb_present_util_swapchain_stats(c->g->s.sc, &st) != 0 || st.prime_copies != c->calls)
        c->wrong = true;
    for (uint32_t i = 0; i < N_IMAGES; i++)
        from_an_image |= src == c->g->images[i];
    if (!from_an_image || dst == src || n_damage || xcb_dri3_util_buffer_width(dst) != 64 ||
        xcb_dri3_util_buffer_fourcc(dst) != XRGB8888)
        c->wrong = true;
    c->calls++;
    from = xcb_dri3_util_buffer_map((xcb_dri3_util_buffer_t *)src, 0, XCB_DRI3_UTIL_MAP_READ,
                                    &ss);
    to = xcb_dri3_util_buffer_map((xcb_dri3_util_buffer_t *)dst, 0, XCB_DRI3_UTIL_MAP_WRITE,
                                  &ds);
    if (!from || !to)
        return -EIO;
    for (uint32_t y = 0; y < 48; y++)
        memcpy(to + (size_t)y * ds, from + (size_t)y * ss, 64 * 4);
    xcb_dri3_util_buffer_unmap((xcb_dri3_util_buffer_t *)src, 0);
    xcb_dri3_util_buffer_unmap((xcb_dri3_util_buffer_t *)dst, 0);
    return 0;
}

/* Two files stand for two GPUs: the mock's DRI3 Open gives server_dev,
 * the caller renders on render_dev (g->render_fd), or on the same one. */
static void prime_devices(struct gl *g, bool other_device, char server_dev[96],
                          char render_dev[96])
{
    int fd;

    snprintf(g->dir, sizeof g->dir, "/tmp/engine-gl-XXXXXX");
    CHECK(mkdtemp(g->dir) != NULL);
    snprintf(server_dev, 96, "%s/server-gpu", g->dir);
    snprintf(render_dev, 96, "%s/render-gpu", g->dir);
    fd = open(server_dev, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    close(fd);
    g->render_fd = open(other_device ? render_dev : server_dev,
                        O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    CHECK(g->render_fd >= 0);
}

static void prime_devices_gone(struct gl *g, const char *server_dev, const char *render_dev)
{
    unlink(server_dev);
    unlink(render_dev);
    rmdir(g->dir);
}

static void prime_run(bool other_device, bool hook)
{
    struct gl g = { .render_fd = -1 };
    struct copies c = { .g = &g };
    xcb_present_util_stats_t st;
    char server_dev[96], render_dev[96];

    prime_devices(&g, other_device, server_dev, render_dev);
    {
        const char *const kv[] = { "dri3-open", server_dev, NULL };

        start(&g, kv, XCB_PRESENT_UTIL_MODE_FIFO, 1, g.render_fd, hook ? copy_hook : NULL,
              &c);
    }
    for (uint32_t n = 1; n <= 6; n++)
        frame(&g, n, 0);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    mf_check_in_order(&g.s, 6);
    /* what the window shows went through the display buffer */
    mf_check_window_shows(&g.s, 6);
    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(g.s.sc, &st), 0);
    CHECK_EQ(st.prime_copies, other_device ? 6 : 0);
    CHECK_EQ(c.calls, other_device && hook ? 6 : 0);
    CHECK(!c.wrong);
    stop(&g);
    prime_devices_gone(&g, server_dev, render_dev);
}

/* PRIME: the new images get display buffers of their own, made with the
 * device create found (the CPU copies). */
TEST(images_replaced_in_place_through_prime)
{
    struct gl g = { .render_fd = -1 };
    char server_dev[96], render_dev[96];

    prime_devices(&g, true, server_dev, render_dev);
    {
        const char *const kv[] = { "dri3-open", server_dev, NULL };

        replace_run(&g, kv);
    }
    prime_devices_gone(&g, server_dev, render_dev);
}

/* The hook is called outside the lock (it calls stats() itself). */
TEST(prime_copies_with_the_callers_hook)
{
    prime_run(true, true);
}

TEST(prime_copies_with_the_cpu_without_a_hook)
{
    prime_run(true, false);
}

TEST(the_same_device_needs_no_copy)
{
    prime_run(false, true);
}

/* ---- the Copy option --------------------------------------------------- */

/* A server that flips full-window pixmaps copies them all the same when
 * the driver asks for XCB_PRESENT_OPTION_COPY. */
static void check_copy_option(uint32_t present_options, uint8_t want_mode)
{
    static const char *const kv[] = { "present-complete-mode", "flip", NULL };
    struct gl g = { .render_fd = -1 };
    xcb_present_util_options_t o;

    mf_start(&g.s, kv);
    make_images(&g);
    xcb_present_util_options_init(&o);
    o.images = g.images;
    o.num_images = N_IMAGES;
    o.present_options = present_options;
    mf_swapchain_with(&g.s, &o);
    for (uint32_t n = 1; n <= 6; n++)
        frame(&g, n, 0);
    CHECK_EQ(xcb_present_util_wait_frame(g.s.sc, 0, 2 * MF_SECOND, NULL), 0);
    mf_check_in_order(&g.s, 6);
    for (uint32_t i = 0; i < 6; i++) {
        const xcb_present_util_frame_t *f = &g.s.log[i];

        test_note("frame %llu: mode %u, aimed at msc %llu, shown at %llu",
                  (unsigned long long)f->frame, f->mode, (unsigned long long)f->target_msc,
                  (unsigned long long)f->msc);
        if (f->mode != XCB_PRESENT_COMPLETE_MODE_SKIP || !mf_shown_late(f))
            CHECK_EQ(f->mode, want_mode);
    }
    stop(&g);
}

TEST(full_window_images_flip)
{
    check_copy_option(0, XCB_PRESENT_COMPLETE_MODE_FLIP);
}

TEST(the_copy_option_never_flips)
{
    check_copy_option(XCB_PRESENT_OPTION_COPY, XCB_PRESENT_COMPLETE_MODE_COPY);
}

/* ---- bad options -------------------------------------------------------- */

TEST(caller_images_that_do_not_match_are_refused)
{
    struct mock_fixture s;
    xcb_dri3_util_buffer_t *imgs[3], *narrow;
    xcb_present_util_options_t o;

    mf_start(&s, NULL);
    imgs[0] = xcb_dri3_util_buffer_create_memfd(64, 48, XRGB8888);
    imgs[1] = narrow = xcb_dri3_util_buffer_create_memfd(32, 48, XRGB8888);
    imgs[2] = xcb_dri3_util_buffer_create_memfd(64, 48, 0x34325241u);   /* ARGB8888 */
    CHECK(imgs[0] && imgs[1] && imgs[2]);
    xcb_present_util_options_init(&o);
    o.images = imgs;
    o.num_images = 2;           /* another size */
    errno = 0;
    CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    imgs[1] = imgs[0];          /* the same image twice */
    CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    o.images = &imgs[2];        /* depth 32 on a depth-24 window */
    o.num_images = 1;
    CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    o.images = imgs;
    o.num_images = 17;
    CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    o.num_images = 1;
    o.present_options = XCB_PRESENT_OPTION_ASYNC;     /* the mode's business */
    CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
    CHECK_EQ(errno, EINVAL);
    o.present_options = 0;
    /* SHM maps the one plane of a linear image: a tiled one is refused */
    {
        int fd = memfd_create("tiled", MFD_CLOEXEC);
        uint32_t stride = 256, offset = 0;
        xcb_dri3_util_buffer_t *tiled;

        CHECK(fd >= 0 && ftruncate(fd, 256 * 48) == 0);
        tiled = xcb_dri3_util_buffer_import(64, 48, XRGB8888, 0x0100000000000001ull, 1, &fd,
                                            &stride, &offset);  /* Intel X-tiled */
        CHECK(tiled != NULL);
        o.images = &tiled;
        o.backend = XCB_PRESENT_UTIL_BACKEND_SHM;
        CHECK(xcb_present_util_swapchain_create(s.c, s.window, &o) == NULL);
        CHECK_EQ(errno, EINVAL);
        xcb_dri3_util_buffer_destroy(tiled);
    }
    xcb_dri3_util_buffer_destroy(imgs[0]);
    xcb_dri3_util_buffer_destroy(narrow);
    xcb_dri3_util_buffer_destroy(imgs[2]);
    mf_stop(&s);
}
