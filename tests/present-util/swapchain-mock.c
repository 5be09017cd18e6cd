/*
 * The swapchain against the mock X server, where the test chooses what the
 * server does: MIT-SHM and PutImage back ends end to end, Flip and
 * SuboptimalCopy completions, the DRI3 back end with its idle fences, the
 * window-destroyed flag of ConfigureNotify
 * (which Xvfb never sends) and a server that goes away.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/present.h>

#include "mock-fixture.h"
#include "test-runner.h"
#include "xcb_present_util.h"

#define SECOND 1000000000LL

/* A frame may be replaced only when the server found it late: the client
 * ran so slowly (valgrind) that the vblank it aimed at had passed when the
 * request arrived, and the server moved it to the next vblank, where the
 * next frame met it.  Returns how many frames were replaced. */
static uint32_t check_skips_late(const struct mock_fixture *s, uint32_t n)
{
    uint32_t skipped = 0;

    for (uint32_t i = 0; i < n && i < 256; i++) {
        if (s->log[i].mode != XCB_PRESENT_COMPLETE_MODE_SKIP)
            continue;
        CHECK(s->log[i].target_msc && s->log[i].msc > s->log[i].target_msc);
        skipped++;
    }
    if (skipped)
        printf("# %u frames replaced after the server found them late\n", skipped);
    return skipped;
}

/* Without DRI3 buffers, the automatic choice is MIT-SHM; the mock maps
 * the same memfd, so the window shows what the client wrote. */
TEST(shm_backend_on_the_mock)
{
    static const char *const kv[] = { "dri3-version", "none", "shm", "on", NULL };
    struct mock_fixture s;
    const struct mock_request_record *r;
    struct mock_transcript *t;
    xcb_present_util_stats_t st = { .size = sizeof st };

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    CHECK_EQ(xcb_present_util_swapchain_backend(s.sc), XCB_PRESENT_UTIL_BACKEND_SHM);
    for (uint32_t n = 1; n <= 20; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 20);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK(st.refresh_ns > 16000000 && st.refresh_ns < 17400000);
    mf_check_in_order(&s, 20);
    /* The mock serves from a timer too: only when it ran late (the frame
     * shown after its target) may a frame be replaced or share a vblank. */
    for (uint32_t i = 0; i < 20; i++) {
        bool late = mf_shown_late(&s.log[i]);

        CHECK(s.log[i].mode == XCB_PRESENT_COMPLETE_MODE_COPY || late);
        CHECK(i == 0 || s.log[i].msc > s.log[i - 1].msc || late ||
              s.log[i - 1].msc > s.log[i - 1].target_msc);
    }
    mf_check_window_shows(&s, 20);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    /* Every segment went to the server as a memfd, and was let go. */
    CHECK_EQ(mock_server_stop(s.server), 0);
    t = mock_server_transcript(s.server);
    CHECK(t != NULL);
    r = mock_transcript_find(t, MOCK_SHM_MAJOR, 6, 0);     /* AttachFd */
    CHECK(r != NULL);
    CHECK_EQ(r->nfds, 1);
    CHECK(strcmp(r->fds[0].kind, "memfd") == 0);
    CHECK(mock_transcript_find(t, MOCK_SHM_MAJOR, 6, 3) != NULL);   /* probe + 3 buffers */
    CHECK(mock_transcript_find(t, MOCK_SHM_MAJOR, 2, 3) != NULL);   /* Detach of each */
    CHECK(mock_transcript_find(t, 54, 0, 2) != NULL);               /* FreePixmap */
    mock_transcript_free(t);
    mf_stop(&s);
}

TEST(put_image_backend_on_the_mock)
{
    static const char *const kv[] = { "dri3-version", "none", NULL };
    struct mock_fixture s;

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 2);
    CHECK_EQ(xcb_present_util_swapchain_backend(s.sc), XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE);
    for (uint32_t n = 1; n <= 10; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 10);
    mf_check_in_order(&s, 10);
    mf_check_window_shows(&s, 10);
    mf_stop(&s);
}

/* A flipped buffer stays busy until the next frame is shown: with two
 * buffers the chain still runs, one buffer always on screen. */
TEST(flip_completions_hold_the_buffer_until_the_next_flip)
{
    static const char *const kv[] = { "present-complete-mode", "flip", "shm", "on", NULL };
    struct mock_fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };
    xcb_present_util_image_t img = { .size = sizeof img };

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 2);
    for (uint32_t n = 1; n <= 12; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 12);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.flips + check_skips_late(&s, 12), 12);
    CHECK_EQ(st.copies, 0);
    mf_check_in_order(&s, 12);
    mf_check_window_shows(&s, 12);
    /* frame 12's buffer is on screen: one buffer free, not two */
    CHECK_EQ(xcb_present_util_dispatch(s.sc), 1);
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &img), 0);
    CHECK_EQ(xcb_present_util_acquire(s.sc, 50000000, &img), -ETIMEDOUT);
    mf_stop(&s);
}

/* SuboptimalCopy comes only to clients that ask with the Suboptimal
 * option, which only DRI3 buffers do: shared memory gets plain copies. */
TEST(suboptimal_mode_without_the_option_is_a_copy)
{
    static const char *const kv[] = { "present-complete-mode", "suboptimal",
                                      "dri3-version", "none", "shm", "on", NULL };
    struct mock_fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    for (uint32_t n = 1; n <= 6; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 6);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.copies + check_skips_late(&s, 6), 6);
    for (uint32_t i = 0; i < 6; i++)
        CHECK(s.log[i].mode == XCB_PRESENT_COMPLETE_MODE_COPY ||
              s.log[i].mode == XCB_PRESENT_COMPLETE_MODE_SKIP);
    mf_stop(&s);
}

/* The mock, like Xorg, says "window destroyed" in ConfigureNotify: the
 * swapchain knows at once, with no probe. */
TEST(destroyed_flag_gives_enodev_without_a_probe)
{
    static const char *const kv[] = { "shm", "on", NULL };
    struct mock_fixture s;
    struct mock_transcript *t;
    xcb_present_util_image_t img = { .size = sizeof img };
    size_t geometry_before = 0, geometry_after = 0;

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 3);
    for (uint32_t n = 1; n <= 5; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    while (mock_transcript_find((t = mock_server_transcript(s.server)), 14, 0,
                                geometry_before))
        mock_transcript_free(t), geometry_before++;
    mock_transcript_free(t);
    xcb_destroy_window(s.c, s.window);
    xcb_flush(s.c);
    for (uint32_t n = 6; n < 20; n++) {
        int r = mf_frame(&s, n);

        if (r) {
            CHECK_EQ(r, -ENODEV);
            break;
        }
    }
    CHECK_EQ(xcb_present_util_acquire(s.sc, 0, &img), -ENODEV);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK_EQ(mock_server_stop(s.server), 0);
    t = mock_server_transcript(s.server);
    while (mock_transcript_find(t, 14, 0, geometry_after))
        geometry_after++;
    mock_transcript_free(t);
    CHECK_EQ(geometry_after, geometry_before);
    mf_stop(&s);
}

TEST(stopped_server_gives_epipe)
{
    struct mock_fixture s;
    int r = 0;

    mf_start(&s, NULL);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    for (uint32_t n = 1; n <= 5; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    CHECK_EQ(mock_server_stop(s.server), 0);
    for (uint32_t n = 6; n < 40 && !r; n++)
        r = mf_frame(&s, n);
    CHECK_EQ(r, -EPIPE);
    CHECK_EQ(xcb_present_util_dispatch(s.sc), -EPIPE);
    mf_stop(&s);
}

/* ---- the DRI3 back end ------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* How many requests of this opcode the transcript holds. */
static size_t count_requests(const struct mock_transcript *t, uint8_t major, uint8_t minor)
{
    size_t n = 0;

    while (mock_transcript_find(t, major, minor, n))
        n++;
    return n;
}

/* With DRI3 on the mock (memfds for dma-bufs), the automatic choice is
 * DRI3: the buffers go over as PixmapFromBuffers, each with an idle fence
 * (FenceFromFD) that PresentPixmap names and the mock triggers through the
 * futex page; two buffers keep the chain going only if those fences come
 * back triggered. */
TEST(dri3_backend_with_idle_fences)
{
    struct mock_fixture s;
    struct mock_transcript *t;
    const struct mock_request_record *r;
    xcb_present_util_stats_t st = { .size = sizeof st };
    uint32_t fence_ids[3] = { 0 };
    size_t n_present;

    mf_start(&s, NULL);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 2);
    CHECK_EQ(xcb_present_util_swapchain_backend(s.sc), XCB_PRESENT_UTIL_BACKEND_DRI3);
    for (uint32_t n = 1; n <= 12; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 12);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.copies + check_skips_late(&s, 12), 12);
    mf_check_in_order(&s, 12);
    mf_check_window_shows(&s, 12);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK_EQ(mock_server_stop(s.server), 0);
    t = mock_server_transcript(s.server);
    CHECK(t != NULL);
    /* the trial buffer and two buffers, each a memfd */
    CHECK_EQ(count_requests(t, MOCK_DRI3_MAJOR, 7), 3);            /* PixmapFromBuffers */
    r = mock_transcript_find(t, MOCK_DRI3_MAJOR, 7, 1);
    CHECK(r != NULL && r->nfds == 1 && strcmp(r->fds[0].kind, "memfd") == 0);
    CHECK_EQ(count_requests(t, MOCK_DRI3_MAJOR, 4), 2);            /* FenceFromFD */
    for (size_t i = 0; i < 2; i++) {
        r = mock_transcript_find(t, MOCK_DRI3_MAJOR, 4, i);
        CHECK(r != NULL && r->nfds == 1 && strcmp(r->fds[0].kind, "memfd") == 0);
        fence_ids[i] = le32(r->data + 8);
    }
    n_present = count_requests(t, MOCK_PRESENT_MAJOR, 1);
    CHECK_EQ(n_present, 12);
    for (size_t i = 0; i < n_present; i++) {
        uint32_t idle;

        r = mock_transcript_find(t, MOCK_PRESENT_MAJOR, 1, i);
        idle = le32(r->data + 36);
        CHECK(idle == fence_ids[0] || idle == fence_ids[1]);
        /* the Suboptimal option: DRI3 buffers may be reallocated */
        CHECK(le32(r->data + 40) & XCB_PRESENT_OPTION_SUBOPTIMAL);
    }
    /* the fences and pixmaps went back */
    CHECK_EQ(count_requests(t, MOCK_SYNC_MAJOR, 17), 2);           /* DestroyFence */
    mock_transcript_free(t);
    mf_stop(&s);
}

/* SuboptimalCopy: the swapchain asks for the modifiers again and keeps its
 * buffers when they did not change. */
TEST(dri3_suboptimal_copy_requeries_modifiers)
{
    static const char *const kv[] = { "present-complete-mode", "suboptimal", NULL };
    struct mock_fixture s;
    struct mock_transcript *t;
    xcb_present_util_stats_t st = { .size = sizeof st };
    uint32_t suboptimal = 0;

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_DRI3, 3);
    for (uint32_t n = 1; n <= 8; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 8);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    for (uint32_t i = 0; i < 8; i++)
        suboptimal += s.log[i].mode == XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY;
    CHECK_EQ(suboptimal + check_skips_late(&s, 8), 8);
    CHECK_EQ(st.copies, suboptimal);
    mf_check_window_shows(&s, 8);
    xcb_present_util_swapchain_destroy(s.sc);
    s.sc = NULL;
    CHECK_EQ(mock_server_stop(s.server), 0);
    t = mock_server_transcript(s.server);
    /* GetSupportedModifiers: once at creation, then again after
     * SuboptimalCopy completions (those that came together are looked
     * into once, at the next acquire()) */
    CHECK(count_requests(t, MOCK_DRI3_MAJOR, 6) >= 2);
    CHECK(count_requests(t, MOCK_DRI3_MAJOR, 6) <= 1 + suboptimal);
    /* the modifiers did not change: no buffer was made again */
    CHECK_EQ(count_requests(t, MOCK_DRI3_MAJOR, 7), 1 + 3);
    mock_transcript_free(t);
    mf_stop(&s);
}

/* Flips with DRI3 buffers: the flipped buffer's idle fence triggers when
 * the next frame is shown. */
TEST(dri3_flip_completions)
{
    static const char *const kv[] = { "present-complete-mode", "flip", NULL };
    struct mock_fixture s;
    xcb_present_util_stats_t st = { .size = sizeof st };

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_DRI3, 3);
    for (uint32_t n = 1; n <= 12; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 12);
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), 0);
    CHECK_EQ(st.flips + check_skips_late(&s, 12), 12);
    mf_check_window_shows(&s, 12);
    mf_stop(&s);
}

/* The sized-struct rule: _init() sets size and the defaults; a size below
 * the first version is refused; a caller whose struct is longer (a newer
 * header) keeps its tail untouched; the frame callback says its size. */
TEST(sized_structs)
{
    static const char *const kv[] = { "dri3-version", "none", "shm", "on", NULL };
    union {
        xcb_present_util_image_t img;
        unsigned char raw[sizeof(xcb_present_util_image_t) + 32];
    } big_img;
    union {
        xcb_present_util_stats_t st;
        unsigned char raw[sizeof(xcb_present_util_stats_t) + 32];
    } big_st;
    xcb_present_util_options_t o;
    xcb_present_util_image_t img;
    xcb_present_util_stats_t st;
    struct mock_fixture s;

    memset(&o, 0xa5, sizeof o);
    xcb_present_util_options_init(&o);
    CHECK_EQ(o.size, sizeof o);
    CHECK_EQ(o.mode, XCB_PRESENT_UTIL_MODE_FIFO);
    CHECK_EQ(o.backend, XCB_PRESENT_UTIL_BACKEND_AUTO);
    CHECK_EQ(o.num_buffers, 3);
    xcb_present_util_image_init(&img);
    CHECK_EQ(img.size, sizeof img);
    CHECK(img.pixels == NULL);
    xcb_present_util_stats_init(&st);
    CHECK_EQ(st.size, sizeof st);
    CHECK_EQ(st.presented, 0);
    xcb_present_util_options_init(NULL);
    xcb_present_util_image_init(NULL);
    xcb_present_util_stats_init(NULL);
    xcb_present_util_frame_init(NULL);

    mf_start(&s, kv);
    o.size = 0;
    errno = 0;
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &o));
    CHECK_EQ(errno, EINVAL);
    /* one byte short of the first version (which ends before max_latency) */
    o.size = offsetof(xcb_present_util_options_t, max_latency) - 1;
    CHECK(!xcb_present_util_swapchain_create(s.c, s.window, &o));
    CHECK_EQ(errno, EINVAL);

    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 2);
    img.size = offsetof(xcb_present_util_image_t, frame_id) - 1;
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), -EINVAL);
    st.size = 4;
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &st), -EINVAL);

    memset(big_img.raw, 0x5a, sizeof big_img.raw);
    big_img.img.size = sizeof big_img.raw;
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &big_img.img), 0);
    CHECK_EQ(big_img.img.size, sizeof big_img.raw);
    CHECK(big_img.img.pixels != NULL);
    CHECK_EQ(big_img.img.width, 64);
    for (size_t i = sizeof(xcb_present_util_image_t); i < sizeof big_img.raw; i++)
        CHECK_EQ(big_img.raw[i], 0x5a);
    /* present() takes the caller's struct as it is, size and all. */
    CHECK_EQ(xcb_present_util_present(s.sc, &big_img.img, NULL, 0), 0);
    mf_wait_completed(&s, 1);

    memset(big_st.raw, 0x5a, sizeof big_st.raw);
    big_st.st.size = sizeof big_st.raw;
    CHECK_EQ(xcb_present_util_swapchain_stats(s.sc, &big_st.st), 0);
    CHECK_EQ(big_st.st.size, sizeof big_st.raw);
    CHECK_EQ(big_st.st.presented, 1);
    for (size_t i = sizeof(xcb_present_util_stats_t); i < sizeof big_st.raw; i++)
        CHECK_EQ(big_st.raw[i], 0x5a);
    CHECK_EQ(s.n_log, 1);
    CHECK_EQ(s.log[0].size, sizeof(xcb_present_util_frame_t));
    mf_stop(&s);
}
