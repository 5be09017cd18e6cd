/*
 * A whole direct-rendering frame, the way a GL or Vulkan driver does it,
 * with memfds standing in for dma-bufs: import the client's buffer as a
 * pixmap, present it behind a wait fence that the client triggers itself,
 * see CompleteNotify and IdleNotify (with the idle fence triggered), read
 * the window back, and export the pixmap's buffers again.
 */
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <xcb/dri3.h>
#include <xcb/present.h>

#include "e2e-util.h"
#include "test-runner.h"

enum { W = 64, H = 48, STRIDE = W * 4 + 64, SIZE = STRIDE * H };

/* libxshmfence's trigger: the word becomes 1, and waiters (-1) are woken. */
static void trigger(int32_t *word)
{
    if (__atomic_exchange_n(word, 1, __ATOMIC_SEQ_CST) == -1)
        syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Depth 24 pixels, so the unused top byte stays 0 whoever keeps it. */
static uint32_t pixel(uint32_t x, uint32_t y)
{
    return ((x * 37u) ^ (y * 4099u) ^ 0x5a3c96u) & 0x00ffffffu;
}

static void draw(uint8_t *buf)
{
    for (uint32_t y = 0; y < H; y++) {
        uint32_t *row = (uint32_t *)(buf + (size_t)y * STRIDE);

        for (uint32_t x = 0; x < W; x++)
            row[x] = pixel(x, y);
    }
}

/* The image has rows of stride bytes; every pixel must be what draw() wrote. */
static void check_image(const uint8_t *image, size_t stride, const char *what)
{
    for (uint32_t y = 0; y < H; y++) {
        const uint32_t *row = (const uint32_t *)(image + y * stride);

        for (uint32_t x = 0; x < W; x++) {
            if ((row[x] & 0x00ffffffu) != pixel(x, y))
                test_fail(__FILE__, __LINE__, "%s: pixel (%u,%u) is %08x, wrote %08x", what, x,
                          y, row[x], pixel(x, y));
        }
    }
}

/* Takes the fence page's fd (a dup goes to the server) and maps its word. */
static int32_t *import_fence(struct e2e *t, xcb_window_t w, xcb_sync_fence_t fence, int page)
{
    int32_t *word = e2e_map(page, sizeof(int32_t));

    E2E_CHECK_OK(t, xcb_dri3_fence_from_fd_checked(t->c, w, fence, 0, test_dup(page)));
    close(page);
    return word;
}

TEST(roundtrip_direct_rendering_frame)
{
    struct e2e t;
    xcb_window_t w;
    xcb_pixmap_t pixmap;
    xcb_sync_fence_t wait_fence, idle_fence;
    int32_t *wait_word, *idle_word;
    int buf = test_memfd("e2e-frame", SIZE, NULL);
    uint8_t *mine = e2e_map(buf, SIZE);
    int32_t sent[1];
    xcb_special_event_t *se;
    uint32_t eid;
    xcb_present_complete_notify_event_t *complete;
    xcb_present_idle_notify_event_t *idle;
    xcb_generic_event_t *early;

    draw(mine);
    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, W, H);

    /* The buffer becomes a pixmap of the window's screen. */
    pixmap = xcb_generate_id(t.c);
    sent[0] = test_dup(buf);
    E2E_CHECK_OK(&t, xcb_dri3_pixmap_from_buffers_checked(t.c, pixmap, w, 1, W, H, STRIDE, 0, 0,
                                                          0, 0, 0, 0, 0, 24, 32,
                                                          DRM_FORMAT_MOD_INVALID, sent));
    wait_fence = xcb_generate_id(t.c);
    idle_fence = xcb_generate_id(t.c);
    wait_word = import_fence(&t, w, wait_fence, e2e_fence_page(0));
    idle_word = import_fence(&t, w, idle_fence, e2e_fence_page(0));

    se = e2e_present_select(&t, w,
                            XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                                XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY,
                            &eid);
    E2E_CHECK_OK(&t, xcb_present_pixmap_checked(t.c, w, pixmap, 1, 0, 0, 0, 0, 0, wait_fence,
                                                idle_fence, XCB_PRESENT_OPTION_NONE, 0, 0, 0, 0,
                                                NULL));
    /* The server waits for the wait fence: several frames pass without an
     * event, until the client, done "rendering", triggers it. */
    early = e2e_wait_special(&t, se, 100);
    if (early) {
        free(early);
        test_fail(__FILE__, __LINE__, "an event came before the wait fence was triggered");
    }
    trigger(wait_word);

    e2e_wait_complete_and_idle(&t, se, &complete, &idle);
    CHECK_EQ(complete->kind, XCB_PRESENT_COMPLETE_KIND_PIXMAP);
    CHECK_EQ(complete->serial, 1);
    CHECK_EQ(complete->window, w);
    CHECK_EQ(idle->serial, 1);
    CHECK_EQ(idle->pixmap, pixmap);
    CHECK_EQ(idle->idle_fence, idle_fence);
    free(complete);
    free(idle);
    /* The server triggered the idle fence before it said so. */
    CHECK_EQ(__atomic_load_n(idle_word, __ATOMIC_SEQ_CST), 1);
    e2e_present_unselect(&t, se, w, eid);

    /* The window shows exactly what the client drew. */
    {
        xcb_get_image_reply_t *img = xcb_get_image_reply(
            t.c, xcb_get_image(t.c, XCB_IMAGE_FORMAT_Z_PIXMAP, w, 0, 0, W, H, UINT32_MAX),
            NULL);

        CHECK(img != NULL);
        CHECK_EQ(xcb_get_image_data_length(img), W * H * 4);
        check_image(xcb_get_image_data(img), W * 4, "GetImage of the window");
        free(img);
    }

    /* And the pixmap's buffers, exported again, hold it too. */
    {
        xcb_dri3_buffers_from_pixmap_reply_t *r = xcb_dri3_buffers_from_pixmap_reply(
            t.c, xcb_dri3_buffers_from_pixmap(t.c, pixmap), NULL);
        int fd;
        uint8_t *theirs;

        CHECK(r != NULL);
        CHECK_EQ(r->nfd, 1);
        CHECK_EQ(r->width, W);
        CHECK_EQ(r->height, H);
        CHECK_EQ(xcb_dri3_buffers_from_pixmap_strides(r)[0], STRIDE);
        CHECK_EQ(xcb_dri3_buffers_from_pixmap_offsets(r)[0], 0);
        fd = xcb_dri3_buffers_from_pixmap_reply_fds(t.c, r)[0];
        free(r);
        theirs = e2e_map(fd, SIZE);
        close(fd);
        check_image(theirs, STRIDE, "BuffersFromPixmap's buffer");
        munmap(theirs, SIZE);
    }
    e2e_stop(&t);
    e2e_end(&t);
    munmap(wait_word, sizeof(int32_t));
    munmap(idle_word, sizeof(int32_t));
    munmap(mine, SIZE);
    close(buf);
}
