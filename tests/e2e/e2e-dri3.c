/*
 * Every DRI3 request through our libxcb-dri3 to the mock server and back:
 * what the server received (bytes and fds, followed by identity), what the
 * client decoded, the errors the server answers bad requests with, and
 * version negotiation.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xcb/dri3.h>
#include <xcb/sync.h>

#include "e2e-util.h"
#include "test-runner.h"

#define DRI3 MOCK_DRI3_MAJOR

static uint32_t query_version(struct e2e *t, uint32_t major, uint32_t minor)
{
    xcb_dri3_query_version_reply_t *r =
        xcb_dri3_query_version_reply(t->c, xcb_dri3_query_version(t->c, major, minor), NULL);
    uint32_t v;

    CHECK(r != NULL);
    v = r->major_version << 16 | r->minor_version;
    free(r);
    return v;
}

/* A server answers the lower of its version and the client's; requests
 * newer than the server's version are errors.  version NULL: the mock's
 * default. */
static void check_server_version(const char *version, uint32_t minor)
{
    struct e2e t;
    xcb_window_t w;
    xcb_void_cookie_t in_use;
    xcb_dri3_get_supported_modifiers_cookie_t mods;
    xcb_dri3_get_supported_modifiers_reply_t *mr;
    xcb_generic_error_t *e = NULL;
    const struct mock_request_record *r;

    e2e_start_version(&t, "dri3-version", version, &xcb_dri3_id, DRI3);
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | minor);
    CHECK_EQ(query_version(&t, 1, 0), 1 << 16 | 0);
    w = e2e_create_window(&t, 0, 0, 32, 32);

    mods = xcb_dri3_get_supported_modifiers(t.c, w, 24, 32);      /* 1.2 */
    mr = xcb_dri3_get_supported_modifiers_reply(t.c, mods, &e);
    if (minor >= 2) {
        CHECK(mr != NULL);
        CHECK(e == NULL);
    } else {
        CHECK(mr == NULL);
        E2E_CHECK_REPLY_ERROR(e, XCB_REQUEST, DRI3, XCB_DRI3_GET_SUPPORTED_MODIFIERS);
    }
    free(mr);

    in_use = xcb_dri3_set_drm_device_in_use_checked(t.c, w, 226, 128);    /* 1.3 */
    if (minor >= 3)
        E2E_CHECK_OK(&t, in_use);
    else
        E2E_CHECK_ERROR(&t, in_use, XCB_REQUEST, DRI3, XCB_DRI3_SET_DRM_DEVICE_IN_USE);

    if (minor < 4) {        /* 1.4: FreeSyncobj of anything is at least an error */
        E2E_CHECK_ERROR(&t, xcb_dri3_free_syncobj_checked(t.c, xcb_generate_id(t.c)),
                        XCB_REQUEST, DRI3, XCB_DRI3_FREE_SYNCOBJ);
    }
    /* The connection survives every refusal. */
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | minor);
    e2e_stop(&t);
    /* The first request asked for 1.4, whatever the server answered. */
    r = E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_QUERY_VERSION, 0, 12, 0, { 4, 4, 1 }, { 8, 4, 4 });
    CHECK_EQ(r->nfds, 0);
    e2e_end(&t);
}

TEST(dri3_version_negotiation)
{
    check_server_version(NULL, 4);
    check_server_version("1.0", 0);
    check_server_version("1.2", 2);
    check_server_version("1.4", 4);
}

TEST(dri3_absent)
{
    struct e2e t;
    const xcb_query_extension_reply_t *q;

    e2e_start(&t, "dri3-version", "none", NULL);
    q = xcb_get_extension_data(t.c, &xcb_dri3_id);
    CHECK(q != NULL);
    CHECK(!q->present);
    CHECK_EQ(xcb_connection_has_error(t.c), 0);
    e2e_stop(&t);
    e2e_end(&t);
}

TEST(dri3_open)
{
    struct e2e t;
    xcb_dri3_open_reply_t *r;
    int device;

    e2e_start(&t, NULL);
    r = xcb_dri3_open_reply(t.c, xcb_dri3_open(t.c, t.root, 0), NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->nfd, 1);
    device = xcb_dri3_open_reply_fds(t.c, r)[0];
    free(r);
    E2E_CHECK_MEMFD(device, "mock-drm-device");
    close(device);
    e2e_stop(&t);
    {
        const struct mock_request_record *rec =
            E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_OPEN, 0, 12, 0,
                              { 4, 4, t.root }, { 8, 4, 0 });

        CHECK_EQ(rec->nfds, 0);
    }
    e2e_end(&t);
}

TEST(dri3_open_errors)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;

    /* No device: BadMatch. */
    e2e_start(&t, "dri3-open", "none", NULL);
    CHECK(xcb_dri3_open_reply(t.c, xcb_dri3_open(t.c, t.root, 0), &e) == NULL);
    E2E_CHECK_REPLY_ERROR(e, XCB_MATCH, DRI3, XCB_DRI3_OPEN);
    e2e_stop(&t);
    e2e_end(&t);

    /* A drawable that does not exist: BadDrawable. */
    e2e_start(&t, NULL);
    e = NULL;
    CHECK(xcb_dri3_open_reply(t.c, xcb_dri3_open(t.c, 0x0badbad0, 0), &e) == NULL);
    E2E_CHECK_REPLY_ERROR(e, XCB_DRAWABLE, DRI3, XCB_DRI3_OPEN);
    e2e_stop(&t);
    e2e_end(&t);
}

/* Fills a w x h image of 32-bit pixels at stride with a pattern that
 * differs per pixel and per seed. */
static void fill_pattern(uint8_t *base, uint16_t w, uint16_t h, uint32_t stride, uint32_t seed)
{
    for (uint32_t y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(base + (size_t)y * stride);

        for (uint32_t x = 0; x < w; x++)
            row[x] = (seed * 0x01000193u) ^ (y << 12) ^ x;
    }
}

TEST(dri3_pixmap_from_buffer_and_back)
{
    enum { W = 40, H = 30, STRIDE = 192, SIZE = STRIDE * H + 100 };
    struct e2e t;
    xcb_pixmap_t pixmap;
    int buf = test_memfd("e2e-buffer", SIZE, NULL), back;
    struct fd_id id = FD_ID(buf);
    uint8_t *mine = e2e_map(buf, SIZE), *theirs;
    xcb_dri3_buffer_from_pixmap_reply_t *r;

    fill_pattern(mine, W, H, STRIDE, 7);
    e2e_start(&t, NULL);
    pixmap = xcb_generate_id(t.c);
    E2E_CHECK_OK(&t, xcb_dri3_pixmap_from_buffer_checked(t.c, pixmap, t.root, SIZE, W, H,
                                                         STRIDE, 24, 32, test_dup(buf)));

    r = xcb_dri3_buffer_from_pixmap_reply(t.c, xcb_dri3_buffer_from_pixmap(t.c, pixmap), NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->nfd, 1);
    CHECK_EQ(r->size, SIZE);
    CHECK_EQ(r->width, W);
    CHECK_EQ(r->height, H);
    CHECK_EQ(r->stride, STRIDE);
    CHECK_EQ(r->depth, 24);
    CHECK_EQ(r->bpp, 32);
    back = xcb_dri3_buffer_from_pixmap_reply_fds(t.c, r)[0];
    free(r);
    /* The server hands back the very buffer it imported. */
    CHECK_EQ(FD_ID(back).ino, id.ino);
    CHECK_EQ(FD_ID(back).dev, id.dev);
    theirs = e2e_map(back, SIZE);
    CHECK_MEM(theirs, mine, SIZE);
    munmap(theirs, SIZE);
    close(back);
    xcb_free_pixmap(t.c, pixmap);
    e2e_stop(&t);
    {
        const struct mock_request_record *rec =
            E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER, 0, 24, 1,
                              { 4, 4, pixmap }, { 8, 4, t.root }, { 12, 4, SIZE }, { 16, 2, W },
                              { 18, 2, H }, { 20, 2, STRIDE }, { 22, 1, 24 }, { 23, 1, 32 });

        CHECK_EQ(rec->nfds, 1);
        E2E_CHECK_FD_RECORD(rec, 0, id);
        CHECK_EQ(rec->fds[0].size, SIZE);

        rec = e2e_request(&t, DRI3, XCB_DRI3_BUFFER_FROM_PIXMAP, 0);
        E2E_CHECK_HEADER(rec, DRI3, XCB_DRI3_BUFFER_FROM_PIXMAP, 8, 0);
        CHECK_EQ(e2e_u32(rec, 4), pixmap);
        CHECK_EQ(rec->nfds, 0);
    }
    e2e_end(&t);
    munmap(mine, SIZE);
    close(buf);
}

/* A core pixmap can be exported too: the mock keeps every drawable in a
 * memfd. */
TEST(dri3_buffer_from_core_pixmap)
{
    struct e2e t;
    xcb_pixmap_t pixmap;
    xcb_dri3_buffer_from_pixmap_reply_t *r;
    int fd;

    e2e_start(&t, NULL);
    pixmap = e2e_create_pixmap(&t, 16, 8);
    r = xcb_dri3_buffer_from_pixmap_reply(t.c, xcb_dri3_buffer_from_pixmap(t.c, pixmap), NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->width, 16);
    CHECK_EQ(r->height, 8);
    CHECK_EQ(r->depth, t.root_depth);
    CHECK_EQ(r->bpp, 32);
    CHECK(r->stride >= 16 * 4);
    CHECK(r->size >= (uint32_t)r->stride * 8);
    fd = xcb_dri3_buffer_from_pixmap_reply_fds(t.c, r)[0];
    free(r);
    E2E_CHECK_MEMFD(fd, "");
    close(fd);
    e2e_stop(&t);
    e2e_end(&t);
}

TEST(dri3_pixmap_from_buffer_errors)
{
    enum { W = 8, H = 8, STRIDE = 32, SIZE = STRIDE * H };
    struct e2e t;
    xcb_pixmap_t taken;
    int buf = test_memfd("e2e-buffer", SIZE, NULL);
    int small = test_memfd("e2e-small", SIZE / 2, NULL);
    int pipefd[2];

    CHECK(pipe2(pipefd, O_CLOEXEC) == 0);
    e2e_start(&t, NULL);
    taken = e2e_create_pixmap(&t, 4, 4);
#define FROM_BUFFER(id, drawable, depth, bpp, fd)                                    \
    xcb_dri3_pixmap_from_buffer_checked(t.c, (id), (drawable), SIZE, W, H, STRIDE, (depth), \
                                        (bpp), (fd))
    /* A depth the screen lacks: BadValue. */
    E2E_CHECK_ERROR(&t, FROM_BUFFER(xcb_generate_id(t.c), t.root, 7, 32, test_dup(buf)),
                    XCB_VALUE, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER);
    /* A buffer smaller than height * stride: BadAlloc. */
    E2E_CHECK_ERROR(&t, FROM_BUFFER(xcb_generate_id(t.c), t.root, 24, 32, test_dup(small)),
                    XCB_ALLOC, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER);
    /* Not a buffer at all: BadMatch. */
    E2E_CHECK_ERROR(&t, FROM_BUFFER(xcb_generate_id(t.c), t.root, 24, 32, test_dup(pipefd[0])),
                    XCB_MATCH, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER);
    /* An XID in use: BadIDChoice. */
    E2E_CHECK_ERROR(&t, FROM_BUFFER(taken, t.root, 24, 32, test_dup(buf)), XCB_ID_CHOICE, DRI3,
                    XCB_DRI3_PIXMAP_FROM_BUFFER);
    /* No such drawable: BadDrawable. */
    E2E_CHECK_ERROR(&t, FROM_BUFFER(xcb_generate_id(t.c), 0x0badbad0, 24, 32, test_dup(buf)),
                    XCB_DRAWABLE, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER);
#undef FROM_BUFFER
    {
        /* No such pixmap to export: BadPixmap. */
        xcb_generic_error_t *e = NULL;

        CHECK(xcb_dri3_buffer_from_pixmap_reply(
                  t.c, xcb_dri3_buffer_from_pixmap(t.c, 0x0badbad0), &e) == NULL);
        E2E_CHECK_REPLY_ERROR(e, XCB_PIXMAP, DRI3, XCB_DRI3_BUFFER_FROM_PIXMAP);
    }
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | 4);
    e2e_stop(&t);
    /* Every refused request still arrived with its fd. */
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER), 5);
    for (size_t i = 0; i < 5; i++)
        CHECK_EQ(e2e_request(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER, i)->nfds, 1);
    CHECK_EQ(strcmp(e2e_request(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFER, 2)->fds[0].kind, "pipe"),
             0);
    e2e_end(&t);
    close(pipefd[0]);
    close(pipefd[1]);
    close(small);
    close(buf);
}

TEST(dri3_fence_from_fd_and_back)
{
    struct e2e t;
    int page = e2e_fence_page(0), back;
    struct fd_id id = FD_ID(page);
    int32_t *word = e2e_map(page, sizeof(int32_t));
    xcb_sync_fence_t fence;
    xcb_dri3_fd_from_fence_reply_t *r;
    xcb_sync_query_fence_reply_t *q;

    e2e_start(&t, NULL);
    fence = xcb_generate_id(t.c);
    E2E_CHECK_OK(&t, xcb_dri3_fence_from_fd_checked(t.c, t.root, fence, 0, test_dup(page)));

    /* The server reads the futex word: untriggered, then triggered by us. */
    q = xcb_sync_query_fence_reply(t.c, xcb_sync_query_fence(t.c, fence), NULL);
    CHECK(q != NULL);
    CHECK_EQ(q->triggered, 0);
    free(q);
    __atomic_store_n(word, 1, __ATOMIC_SEQ_CST);
    q = xcb_sync_query_fence_reply(t.c, xcb_sync_query_fence(t.c, fence), NULL);
    CHECK(q != NULL);
    CHECK_EQ(q->triggered, 1);
    free(q);
    /* ... and writes it: Reset and Trigger show up in our mapping. */
    E2E_CHECK_OK(&t, xcb_sync_reset_fence_checked(t.c, fence));
    CHECK_EQ(__atomic_load_n(word, __ATOMIC_SEQ_CST), 0);
    E2E_CHECK_OK(&t, xcb_sync_trigger_fence_checked(t.c, fence));
    CHECK_EQ(__atomic_load_n(word, __ATOMIC_SEQ_CST), 1);

    r = xcb_dri3_fd_from_fence_reply(t.c, xcb_dri3_fd_from_fence(t.c, t.root, fence), NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->nfd, 1);
    back = xcb_dri3_fd_from_fence_reply_fds(t.c, r)[0];
    free(r);
    CHECK_EQ(FD_ID(back).ino, id.ino);
    CHECK_EQ(FD_ID(back).dev, id.dev);
    close(back);
    xcb_sync_destroy_fence(t.c, fence);
    e2e_stop(&t);
    {
        const struct mock_request_record *rec =
            E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_FENCE_FROM_FD, 0, 16, 1,
                              { 4, 4, t.root }, { 8, 4, fence }, { 12, 1, 0 });

        CHECK_EQ(rec->nfds, 1);
        E2E_CHECK_FD_RECORD(rec, 0, id);
        CHECK_EQ(rec->fds[0].size, 4);

        rec = e2e_request(&t, DRI3, XCB_DRI3_FD_FROM_FENCE, 0);
        E2E_CHECK_HEADER(rec, DRI3, XCB_DRI3_FD_FROM_FENCE, 12, 0);
        CHECK_EQ(e2e_u32(rec, 4), t.root);
        CHECK_EQ(e2e_u32(rec, 8), fence);
        CHECK_EQ(rec->nfds, 0);
    }
    e2e_end(&t);
    munmap(word, sizeof(int32_t));
    close(page);
}

/* A fence the server made with SYNC CreateFence exports a futex page whose
 * word says whether it is triggered. */
TEST(dri3_fd_from_server_fence)
{
    struct e2e t;
    xcb_sync_fence_t fence;
    xcb_dri3_fd_from_fence_reply_t *r;
    int32_t *word;
    int fd;

    e2e_start(&t, NULL);
    xcb_sync_initialize_reply_t *init =
        xcb_sync_initialize_reply(t.c, xcb_sync_initialize(t.c, 3, 1), NULL);
    CHECK(init != NULL);
    free(init);
    fence = xcb_generate_id(t.c);
    E2E_CHECK_OK(&t, xcb_sync_create_fence_checked(t.c, t.root, fence, 1));
    r = xcb_dri3_fd_from_fence_reply(t.c, xcb_dri3_fd_from_fence(t.c, t.root, fence), NULL);
    CHECK(r != NULL);
    fd = xcb_dri3_fd_from_fence_reply_fds(t.c, r)[0];
    free(r);
    E2E_CHECK_MEMFD(fd, "");
    word = e2e_map(fd, sizeof(int32_t));
    CHECK_EQ(__atomic_load_n(word, __ATOMIC_SEQ_CST), 1);
    E2E_CHECK_OK(&t, xcb_sync_reset_fence_checked(t.c, fence));
    CHECK_EQ(__atomic_load_n(word, __ATOMIC_SEQ_CST), 0);
    munmap(word, sizeof(int32_t));
    close(fd);
    e2e_stop(&t);
    e2e_end(&t);
}

TEST(dri3_fence_errors)
{
    struct e2e t;
    int page = e2e_fence_page(0);
    const xcb_query_extension_reply_t *sync;
    xcb_generic_error_t *e = NULL;

    e2e_start(&t, NULL);
    /* No such drawable: BadDrawable. */
    E2E_CHECK_ERROR(&t,
                    xcb_dri3_fence_from_fd_checked(t.c, 0x0badbad0, xcb_generate_id(t.c), 0,
                                                   test_dup(page)),
                    XCB_DRAWABLE, DRI3, XCB_DRI3_FENCE_FROM_FD);
    /* No such fence: SYNC's Fence error. */
    sync = xcb_get_extension_data(t.c, &xcb_sync_id);
    CHECK(sync && sync->present);
    CHECK(xcb_dri3_fd_from_fence_reply(t.c, xcb_dri3_fd_from_fence(t.c, t.root, 0x0badbad0),
                                       &e) == NULL);
    E2E_CHECK_REPLY_ERROR(e, sync->first_error + SYNC_BAD_FENCE, DRI3, XCB_DRI3_FD_FROM_FENCE);
    e2e_stop(&t);
    e2e_end(&t);
    close(page);
}

TEST(dri3_get_supported_modifiers)
{
    static const uint64_t window_mods[] = { 0x0100000000000001ULL, DRM_FORMAT_MOD_LINEAR };
    static const uint64_t screen_mods[] = { DRM_FORMAT_MOD_LINEAR, 0x0100000000000001ULL,
                                            0x0100000000000002ULL };
    struct e2e t;
    xcb_window_t w;
    xcb_dri3_get_supported_modifiers_reply_t *r;
    xcb_generic_error_t *e = NULL;

    e2e_start(&t, "modifiers-window", "0x0100000000000001,0",
              "modifiers-screen", "0,0x0100000000000001,0x0100000000000002", NULL);
    w = e2e_create_window(&t, 0, 0, 32, 32);
    r = xcb_dri3_get_supported_modifiers_reply(
        t.c, xcb_dri3_get_supported_modifiers(t.c, w, 24, 32), NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->num_window_modifiers, 2);
    CHECK_EQ(r->num_screen_modifiers, 3);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_window_modifiers_length(r), 2);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_screen_modifiers_length(r), 3);
    CHECK_MEM(xcb_dri3_get_supported_modifiers_window_modifiers(r), window_mods,
              sizeof(window_mods));
    CHECK_MEM(xcb_dri3_get_supported_modifiers_screen_modifiers(r), screen_mods,
              sizeof(screen_mods));
    free(r);

    /* No such window: BadWindow. */
    CHECK(xcb_dri3_get_supported_modifiers_reply(
              t.c, xcb_dri3_get_supported_modifiers(t.c, 0x0badbad0, 24, 32), &e) == NULL);
    E2E_CHECK_REPLY_ERROR(e, XCB_WINDOW, DRI3, XCB_DRI3_GET_SUPPORTED_MODIFIERS);
    e2e_stop(&t);
    E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_GET_SUPPORTED_MODIFIERS, 0, 12, 0, { 4, 4, w },
                      { 8, 1, 24 }, { 9, 1, 32 });
    e2e_end(&t);
}

TEST(dri3_pixmap_from_buffers_and_back)
{
    enum { W = 24, H = 10, STRIDE0 = 128, OFFSET0 = 256, STRIDE1 = 64, OFFSET1 = 64,
           SIZE0 = OFFSET0 + STRIDE0 * H, SIZE1 = OFFSET1 + STRIDE1 * H };
    struct e2e t;
    xcb_window_t w;
    xcb_pixmap_t pixmap;
    int planes[2] = { test_memfd("e2e-plane0", SIZE0, NULL),
                      test_memfd("e2e-plane1", SIZE1, NULL) };
    struct fd_id id[2] = { FD_ID(planes[0]), FD_ID(planes[1]) };
    int32_t sent[2];
    xcb_dri3_buffers_from_pixmap_reply_t *r;
    int *back;

    e2e_start(&t, "modifiers-window", "0x0100000000000001",
              "modifiers-screen", "0,0x0100000000000001", NULL);
    w = e2e_create_window(&t, 0, 0, W, H);
    pixmap = xcb_generate_id(t.c);
    sent[0] = test_dup(planes[0]);
    sent[1] = test_dup(planes[1]);
    E2E_CHECK_OK(&t, xcb_dri3_pixmap_from_buffers_checked(
                         t.c, pixmap, w, 2, W, H, STRIDE0, OFFSET0, STRIDE1, OFFSET1, 0, 0, 0,
                         0, 24, 32, 0x0100000000000001ULL, sent));

    r = xcb_dri3_buffers_from_pixmap_reply(t.c, xcb_dri3_buffers_from_pixmap(t.c, pixmap),
                                           NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->nfd, 2);
    CHECK_EQ(r->width, W);
    CHECK_EQ(r->height, H);
    CHECK_EQ(r->depth, 24);
    CHECK_EQ(r->bpp, 32);
    CHECK_EQ(r->modifier, 0x0100000000000001ULL);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_strides_length(r), 2);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_offsets_length(r), 2);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_strides(r)[0], STRIDE0);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_strides(r)[1], STRIDE1);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_offsets(r)[0], OFFSET0);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_offsets(r)[1], OFFSET1);
    back = xcb_dri3_buffers_from_pixmap_reply_fds(t.c, r);
    for (int i = 0; i < 2; i++) {
        struct fd_id got = FD_ID(back[i]);

        E2E_CHECK_MEMFD(back[i], i == 0 ? "e2e-plane0" : "e2e-plane1");
        CHECK_EQ(got.ino, id[i].ino);
        CHECK_EQ(got.dev, id[i].dev);
        close(back[i]);
    }
    free(r);
    e2e_stop(&t);
    {
        const struct mock_request_record *rec =
            E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS, 0, 64, 2,
                              { 4, 4, pixmap }, { 8, 4, w }, { 12, 1, 2 }, { 16, 2, W },
                              { 18, 2, H }, { 20, 4, STRIDE0 }, { 24, 4, OFFSET0 },
                              { 28, 4, STRIDE1 }, { 32, 4, OFFSET1 });

        for (size_t off = 36; off < 52; off += 4)
            CHECK_EQ(e2e_u32(rec, off), 0);
        CHECK_EQ(e2e_u8(rec, 52), 24);
        CHECK_EQ(e2e_u8(rec, 53), 32);
        CHECK_EQ(e2e_u64(rec, 56), 0x0100000000000001ULL);
        CHECK_EQ(rec->nfds, 2);
        E2E_CHECK_FD_RECORD(rec, 0, id[0]);
        E2E_CHECK_FD_RECORD(rec, 1, id[1]);
        CHECK_EQ(rec->fds[0].size, SIZE0);
        CHECK_EQ(rec->fds[1].size, SIZE1);

        rec = e2e_request(&t, DRI3, XCB_DRI3_BUFFERS_FROM_PIXMAP, 0);
        E2E_CHECK_HEADER(rec, DRI3, XCB_DRI3_BUFFERS_FROM_PIXMAP, 8, 0);
        CHECK_EQ(e2e_u32(rec, 4), pixmap);
    }
    e2e_end(&t);
    close(planes[0]);
    close(planes[1]);
}

TEST(dri3_pixmap_from_buffers_errors)
{
    enum { W = 8, H = 8, STRIDE = 32, SIZE = STRIDE * H };
    struct e2e t;
    xcb_window_t w;
    int buf = test_memfd("e2e-buffer", SIZE, NULL);
    int small = test_memfd("e2e-small", SIZE - 4, NULL);
    int32_t one[1];
    xcb_generic_error_t *e = NULL;

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, W, H);
#define FROM_BUFFERS(window, n, depth, fds)                                               \
    xcb_dri3_pixmap_from_buffers_checked(t.c, xcb_generate_id(t.c), (window), (n), W, H,  \
                                         STRIDE, 0, 0, 0, 0, 0, 0, 0, (depth), 32,        \
                                         DRM_FORMAT_MOD_INVALID, (fds))
    /* No planes at all: BadValue. */
    E2E_CHECK_ERROR(&t, FROM_BUFFERS(w, 0, 24, NULL), XCB_VALUE, DRI3,
                    XCB_DRI3_PIXMAP_FROM_BUFFERS);
    /* A depth the screen lacks: BadValue. */
    one[0] = test_dup(buf);
    E2E_CHECK_ERROR(&t, FROM_BUFFERS(w, 1, 7, one), XCB_VALUE, DRI3,
                    XCB_DRI3_PIXMAP_FROM_BUFFERS);
    /* Too small for offset + stride * height: BadAlloc. */
    one[0] = test_dup(small);
    E2E_CHECK_ERROR(&t, FROM_BUFFERS(w, 1, 24, one), XCB_ALLOC, DRI3,
                    XCB_DRI3_PIXMAP_FROM_BUFFERS);
    /* A pixmap is not a window: BadWindow. */
    one[0] = test_dup(buf);
    E2E_CHECK_ERROR(&t, FROM_BUFFERS(e2e_create_pixmap(&t, 4, 4), 1, 24, one), XCB_WINDOW, DRI3,
                    XCB_DRI3_PIXMAP_FROM_BUFFERS);
#undef FROM_BUFFERS
    /* A modifier the screen does not list, and the implicit modifier with
     * two planes: "If the bpp, depth, and modifier combination is not
     * supported by the screen, a Value error is returned." */
    one[0] = test_dup(buf);
    E2E_CHECK_ERROR(&t, xcb_dri3_pixmap_from_buffers_checked(
                            t.c, xcb_generate_id(t.c), w, 1, W, H, STRIDE, 0, 0, 0, 0, 0, 0, 0,
                            24, 32, 0x0100000000000009ULL, one),
                    XCB_VALUE, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS);
    {
        int two[2] = { test_dup(buf), test_dup(buf) };

        E2E_CHECK_ERROR(&t, xcb_dri3_pixmap_from_buffers_checked(
                                t.c, xcb_generate_id(t.c), w, 2, W, H, STRIDE, 0, STRIDE, 0, 0,
                                0, 0, 0, 24, 32, 0x00ffffffffffffffULL, two),
                        XCB_VALUE, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS);
    }
    /* No such pixmap to export: BadPixmap. */
    CHECK(xcb_dri3_buffers_from_pixmap_reply(t.c, xcb_dri3_buffers_from_pixmap(t.c, 0x0badbad0),
                                             &e) == NULL);
    E2E_CHECK_REPLY_ERROR(e, XCB_PIXMAP, DRI3, XCB_DRI3_BUFFERS_FROM_PIXMAP);
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | 4);
    e2e_stop(&t);
    e2e_end(&t);
    close(small);
    close(buf);
}

TEST(dri3_set_drm_device_in_use)
{
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    E2E_CHECK_OK(&t, xcb_dri3_set_drm_device_in_use_checked(t.c, w, 226, 129));
    E2E_CHECK_ERROR(&t, xcb_dri3_set_drm_device_in_use_checked(t.c, 0x0badbad0, 226, 129),
                    XCB_WINDOW, DRI3, XCB_DRI3_SET_DRM_DEVICE_IN_USE);
    e2e_stop(&t);
    E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_SET_DRM_DEVICE_IN_USE, 0, 16, 0, { 4, 4, w },
                      { 8, 4, 226 }, { 12, 4, 129 });
    e2e_end(&t);
}

TEST(dri3_import_and_free_syncobj)
{
    struct e2e t;
    xcb_dri3_syncobj_t syncobj;
    int handle = test_memfd("e2e-syncobj", 4096, NULL);
    struct fd_id id = FD_ID(handle);

    e2e_start(&t, NULL);
    syncobj = xcb_generate_id(t.c);
    E2E_CHECK_OK(&t, xcb_dri3_import_syncobj_checked(t.c, syncobj, t.root, test_dup(handle)));
    /* The same XID twice: BadIDChoice. */
    E2E_CHECK_ERROR(&t, xcb_dri3_import_syncobj_checked(t.c, syncobj, t.root, test_dup(handle)),
                    XCB_ID_CHOICE, DRI3, XCB_DRI3_IMPORT_SYNCOBJ);
    E2E_CHECK_OK(&t, xcb_dri3_free_syncobj_checked(t.c, syncobj));
    /* Freed already: BadValue, as for any unknown syncobj. */
    E2E_CHECK_ERROR(&t, xcb_dri3_free_syncobj_checked(t.c, syncobj), XCB_VALUE, DRI3,
                    XCB_DRI3_FREE_SYNCOBJ);
    e2e_stop(&t);
    {
        const struct mock_request_record *rec =
            E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_IMPORT_SYNCOBJ, 0, 12, 1,
                              { 4, 4, syncobj }, { 8, 4, t.root });

        CHECK_EQ(rec->nfds, 1);
        E2E_CHECK_FD_RECORD(rec, 0, id);

        rec = e2e_request(&t, DRI3, XCB_DRI3_FREE_SYNCOBJ, 0);
        E2E_CHECK_HEADER(rec, DRI3, XCB_DRI3_FREE_SYNCOBJ, 8, 0);
        CHECK_EQ(e2e_u32(rec, 4), syncobj);
        CHECK_EQ(rec->nfds, 0);
    }
    e2e_end(&t);
    close(handle);
}
