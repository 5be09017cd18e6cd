/*
 * Buffers through an X server: the mock server (mock/) maps the
 * memfds we send it as pixmaps and hands its own pixmaps' memfds back, so
 * pixels written on one side show on the other.  DRI3 1.0, 1.2 and 1.4
 * servers; refusals that must send nothing; the server's refusals.
 */
#include <fcntl.h>
#include <unistd.h>

#include "buffer-test-util.h"

enum {
    PFB = XCB_DRI3_PIXMAP_FROM_BUFFER, BFP = XCB_DRI3_BUFFER_FROM_PIXMAP,
    PFBS = XCB_DRI3_PIXMAP_FROM_BUFFERS, BSFP = XCB_DRI3_BUFFERS_FROM_PIXMAP,
    GSM = XCB_DRI3_GET_SUPPORTED_MODIFIERS, DRI3 = MOCK_DRI3_MAJOR,
};

/* A memfd buffer with the pattern, made a pixmap of a window's screen;
 * the server's GetImage shows the pattern.  Returns the pixmap. */
static xcb_pixmap_t pattern_pixmap(struct e2e *t, xcb_window_t w, xcb_dri3_util_buffer_t *b,
                                   uint32_t seed)
{
    xcb_generic_error_t *err = (void *)1;
    xcb_pixmap_t p;

    write_pattern(b, seed);
    p = xcb_dri3_util_buffer_to_pixmap(t->c, w, b, &err);
    CHECK(err == NULL);
    CHECK(p != XCB_NONE);
    check_pattern_image(t, p, xcb_dri3_util_buffer_width(b), xcb_dri3_util_buffer_height(b),
                        seed);
    return p;
}

/* The start of a round trip: the mock at `version`, a window, and a pixmap
 * made from b with the pattern of `seed`; *id the identity of b's fd. */
static xcb_pixmap_t round_trip_start(struct e2e *t, const char *version,
                                     xcb_dri3_util_buffer_t *b, int seed, struct fd_id *id)
{
    xcb_window_t w;

    CHECK(b != NULL);
    *id = FD_ID(xcb_dri3_util_buffer_fd(b, 0));
    e2e_start(t, "dri3-version", version, NULL);
    w = e2e_create_window(t, 0, 0, 64, 64);
    return pattern_pixmap(t, w, b, seed);
}

/* DRI3 1.2 and 1.4: PixmapFromBuffers with the buffer's LINEAR modifier,
 * which the mock lists by default; the buffer stays usable (dups went). */
static void memfd_round_trip(const char *version)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(40, 20, XRGB8888), *back;
    const struct mock_request_record *r;
    xcb_generic_error_t *err = (void *)1;
    struct fd_id id;
    struct e2e t;
    xcb_pixmap_t p = round_trip_start(&t, version, b, 1, &id);

    /* Written again through our mapping: the server sees it at once. */
    write_pattern(b, 2);
    check_pattern_image(&t, p, 40, 20, 2);

    back = xcb_dri3_util_buffer_from_pixmap(t.c, p, &err);
    CHECK(err == NULL);
    CHECK(back != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_n_planes(back), 1);
    CHECK_EQ(xcb_dri3_util_buffer_width(back), 40);
    CHECK_EQ(xcb_dri3_util_buffer_height(back), 20);
    CHECK_EQ(xcb_dri3_util_buffer_depth(back), 24);
    CHECK_EQ(xcb_dri3_util_buffer_bpp(back), 32);
    CHECK_EQ(xcb_dri3_util_buffer_fourcc(back), XRGB8888);
    CHECK_EQ(xcb_dri3_util_buffer_modifier(back), XCB_DRI3_UTIL_MOD_LINEAR);
    CHECK_EQ(xcb_dri3_util_buffer_stride(back, 0), xcb_dri3_util_buffer_stride(b, 0));
    CHECK_FD_IS(xcb_dri3_util_buffer_fd(back, 0), id);
    CHECK_CLOEXEC(xcb_dri3_util_buffer_fd(back, 0));
    check_pattern_mapped(back, 2);
    xcb_dri3_util_buffer_destroy(back);
    bt_stop(&t);

    CHECK_EQ(e2e_count_requests(&t, DRI3, PFB), 0);
    r = e2e_request(&t, DRI3, PFBS, 0);
    CHECK_EQ(r->nfds, 1);
    E2E_CHECK_FD_RECORD(r, 0, id);
    CHECK_EQ(e2e_u8(r, 12), 1);                         /* num_buffers */
    CHECK_EQ(e2e_u32(r, 20), xcb_dri3_util_buffer_stride(b, 0));
    CHECK_EQ(e2e_u8(r, 52), 24);
    CHECK_EQ(e2e_u8(r, 53), 32);
    CHECK_EQ(e2e_u64(r, 56), XCB_DRI3_UTIL_MOD_LINEAR);
    CHECK_EQ(e2e_count_requests(&t, DRI3, BSFP), 1);
    CHECK_EQ(e2e_count_requests(&t, DRI3, BFP), 0);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

TEST(memfd_round_trip_dri3_14)
{
    memfd_round_trip("1.4");
}

TEST(memfd_round_trip_dri3_12)
{
    memfd_round_trip("1.2");
}

/* DRI3 1.0: PixmapFromBuffer and BufferFromPixmap only. */
TEST(memfd_round_trip_dri3_10)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(30, 10, ARGB8888), *back;
    const struct mock_request_record *r;
    xcb_generic_error_t *err = (void *)1;
    struct fd_id id;
    struct e2e t;
    xcb_pixmap_t p = round_trip_start(&t, "1.0", b, 3, &id);

    back = xcb_dri3_util_buffer_from_pixmap(t.c, p, &err);
    CHECK(err == NULL);
    CHECK(back != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_fourcc(back), ARGB8888);
    CHECK_EQ(xcb_dri3_util_buffer_depth(back), 32);
    /* 1.0 says nothing of modifiers: the implicit layout, which on a
     * memfd is linear, so it maps. */
    CHECK_EQ(xcb_dri3_util_buffer_modifier(back), XCB_DRI3_UTIL_MOD_INVALID);
    CHECK_FD_IS(xcb_dri3_util_buffer_fd(back, 0), id);
    check_pattern_mapped(back, 3);
    xcb_dri3_util_buffer_destroy(back);
    bt_stop(&t);

    CHECK_EQ(e2e_count_requests(&t, DRI3, PFBS), 0);
    CHECK_EQ(e2e_count_requests(&t, DRI3, BSFP), 0);
    CHECK_EQ(e2e_count_requests(&t, DRI3, GSM), 0);
    r = e2e_request(&t, DRI3, PFB, 0);
    E2E_CHECK_FD_RECORD(r, 0, id);
    CHECK_EQ(e2e_u32(r, 12), 10 * xcb_dri3_util_buffer_stride(b, 0));  /* size */
    CHECK_EQ(e2e_u16(r, 20), xcb_dri3_util_buffer_stride(b, 0));
    CHECK_EQ(e2e_u8(r, 22), 32);
    CHECK_EQ(e2e_u8(r, 23), 32);
    CHECK_EQ(e2e_count_requests(&t, DRI3, BFP), 1);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

/* A buffer of n planes on one memfd (plane i at offset i * 64 KiB). */
static xcb_dri3_util_buffer_t *planes_buffer(unsigned n, uint64_t modifier, struct fd_id *id)
{
    int fd = test_memfd("planes", 4 * 65536, id), fds[4];
    uint32_t strides[4], offsets[4];

    for (unsigned i = 0; i < n; i++) {
        fds[i] = fd;
        strides[i] = 256;
        offsets[i] = 65536 * i;
    }
    return xcb_dri3_util_buffer_import(64, 32, XRGB8888, modifier, n, fds, strides, offsets);
}

/* Several planes with a modifier the server lists go out with it and come
 * back the same. */
static void multi_plane(unsigned n, uint64_t modifier, const char *list)
{
    const struct mock_request_record *r;
    xcb_dri3_util_buffer_t *b, *back;
    xcb_generic_error_t *err = (void *)1;
    struct fd_id id;
    struct e2e t;
    xcb_window_t w;
    xcb_pixmap_t p;

    b = planes_buffer(n, modifier, &id);
    CHECK(b != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_n_planes(b), n);
    e2e_start(&t, "modifiers-window", list, NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    p = xcb_dri3_util_buffer_to_pixmap(t.c, w, b, &err);
    CHECK(err == NULL);
    CHECK(p != XCB_NONE);
    back = xcb_dri3_util_buffer_from_pixmap(t.c, p, &err);
    CHECK(err == NULL);
    CHECK(back != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_n_planes(back), n);
    CHECK_EQ(xcb_dri3_util_buffer_modifier(back), modifier);
    for (unsigned i = 0; i < n; i++) {
        CHECK_FD_IS(xcb_dri3_util_buffer_fd(back, i), id);
        CHECK_EQ(xcb_dri3_util_buffer_stride(back, i), 256);
        CHECK_EQ(xcb_dri3_util_buffer_offset(back, i), 65536 * i);
    }
    /* A tiled layout is not for the CPU. */
    errno = 0;
    CHECK(xcb_dri3_util_buffer_map(back, 0, XCB_DRI3_UTIL_MAP_READ, NULL) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    xcb_dri3_util_buffer_destroy(back);
    bt_stop(&t);

    r = e2e_request(&t, DRI3, PFBS, 0);
    CHECK_EQ(e2e_u8(r, 12), n);
    CHECK_EQ(r->nfds, (int)n);
    for (unsigned i = 0; i < 4; i++) {
        CHECK_EQ(e2e_u32(r, 20 + 8 * i), i < n ? 256 : 0);
        CHECK_EQ(e2e_u32(r, 24 + 8 * i), i < n ? 65536 * i : 0);
    }
    CHECK_EQ(e2e_u64(r, 56), modifier);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

TEST(two_planes)
{
    multi_plane(2, MOD_TWO_PLANES, "0x0100000000000004");
}

TEST(four_planes)
{
    multi_plane(4, MOD_FOUR_PLANES, "0,0x00f0000000000004");
}

/* A modifier the server does not list, and several planes on a DRI3 1.0
 * server: refused before anything is sent. */
TEST(refusals_send_nothing)
{
    xcb_dri3_util_buffer_t *two, *one;
    xcb_generic_error_t *err = (void *)1;
    struct fd_id id;
    struct e2e t;
    xcb_window_t w;

    two = planes_buffer(2, MOD_TWO_PLANES, &id);
    one = planes_buffer(1, MOD_TWO_PLANES, &id);
    CHECK(two != NULL && one != NULL);

    e2e_start(&t, NULL);        /* lists LINEAR only */
    w = e2e_create_window(&t, 0, 0, 64, 64);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, w, two, &err), XCB_NONE);
    CHECK(err == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, PFBS), 0);
    CHECK_EQ(e2e_count_requests(&t, DRI3, GSM), 1);
    e2e_end(&t);

    e2e_start(&t, "dri3-version", "1.0", NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, w, two, &err), XCB_NONE);
    CHECK_EQ(errno, EOPNOTSUPP);
    /* one plane, but a modifier 1.0 cannot say */
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, w, one, &err), XCB_NONE);
    CHECK_EQ(errno, EOPNOTSUPP);
    CHECK(err == NULL);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, PFB), 0);
    CHECK_EQ(e2e_count_requests(&t, DRI3, PFBS), 0);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(two);
    xcb_dri3_util_buffer_destroy(one);
}

/* A linear buffer on a server whose lists lack LINEAR goes as "no
 * modifier", as Mesa sends it; the lists are asked for once. */
TEST(linear_unlisted_goes_implicit)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(16, 16, XRGB8888);
    struct e2e t;
    xcb_window_t w;

    CHECK(b != NULL);
    e2e_start(&t, "modifiers-window", "", "modifiers-screen", "", NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    pattern_pixmap(&t, w, b, 4);
    pattern_pixmap(&t, w, b, 5);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, PFBS), 2);
    CHECK_EQ(e2e_u64(e2e_request(&t, DRI3, PFBS, 0), 56), XCB_DRI3_UTIL_MOD_INVALID);
    CHECK_EQ(e2e_u64(e2e_request(&t, DRI3, PFBS, 1), 56), XCB_DRI3_UTIL_MOD_INVALID);
    CHECK_EQ(e2e_count_requests(&t, DRI3, GSM), 1);     /* cached */
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

/* A pixmap the server made: its pixels come back through from_pixmap and
 * map, and what we write there is what the server's GetImage shows. */
TEST(server_pixmap_mapped)
{
    xcb_generic_error_t *err = (void *)1;
    xcb_dri3_util_buffer_t *b;
    struct e2e t;
    xcb_pixmap_t p;

    e2e_start(&t, NULL);
    p = e2e_create_pixmap(&t, 24, 12);
    b = xcb_dri3_util_buffer_from_pixmap(t.c, p, &err);
    CHECK(err == NULL);
    CHECK(b != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_width(b), 24);
    CHECK_EQ(xcb_dri3_util_buffer_depth(b), t.root_depth);
    {
        uint32_t stride;
        const uint32_t *px = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ, &stride);

        CHECK(px != NULL);
        for (size_t i = 0; i < 12 * stride / 4; i++)
            CHECK_EQ(px[i], 0);     /* a new pixmap is black */
        CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
    }
    write_pattern(b, 6);
    check_pattern_image(&t, p, 24, 12, 6);
    check_pattern_mapped(b, 6);
    xcb_dri3_util_buffer_destroy(b);
    bt_stop(&t);
    e2e_end(&t);
}

/* The server refuses: the X error comes back through *err and the
 * connection goes on working. */
static void check_refused(struct e2e *t, xcb_window_t w, xcb_dri3_util_buffer_t *b,
                          uint8_t code)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_buffer_t *ok = xcb_dri3_util_buffer_create_memfd(8, 8, XRGB8888);

    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t->c, w, b, &err), XCB_NONE);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, code);
    CHECK_EQ(err->major_code, DRI3);
    free(err);
    CHECK_EQ(xcb_connection_has_error(t->c), 0);
    pattern_pixmap(t, w, ok, 7);
    xcb_dri3_util_buffer_destroy(ok);
}

TEST(server_refusals)
{
    uint32_t stride = 256, offset = 0;
    xcb_dri3_util_buffer_t *b565, *shrunk;
    struct e2e t;
    xcb_window_t w;
    int fd2;

    /* (Rows narrower than the width, which the server refuses too, no
     * longer get this far: import refuses them, see buffer-unit.) */
    /* a depth the mock does not render */
    b565 = xcb_dri3_util_buffer_create_memfd(16, 16, RGB565);
    CHECK(b565 != NULL);
    /* a file that shrank after the import: beyond the fd for the server */
    fd2 = test_memfd("shrinks", 64 * 64 * 4, NULL);
    shrunk = xcb_dri3_util_buffer_import(64, 64, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd2,
                                         &stride, &offset);
    CHECK(shrunk != NULL);
    CHECK(ftruncate(xcb_dri3_util_buffer_fd(shrunk, 0), 4096) == 0);

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    check_refused(&t, w, b565, XCB_VALUE);
    check_refused(&t, w, shrunk, XCB_ALLOC);
    bt_stop(&t);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b565);
    xcb_dri3_util_buffer_destroy(shrunk);
}

/* The mock's error fault makes the server refuse a request with no reply
 * (PixmapFromBuffers, then PixmapFromBuffer on 1.0). */
TEST(error_fault_on_requests_without_reply)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(8, 8, XRGB8888);
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, "fault", "error:131.7:11", NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    check_refused(&t, w, b, XCB_ALLOC);
    bt_stop(&t);
    CHECK(e2e_info_contains(&t, "fault: error 11"));
    e2e_end(&t);

    e2e_start(&t, "dri3-version", "1.0", "fault", "error:131.2:17", NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    check_refused(&t, w, b, 17);
    bt_stop(&t);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

/* Starts the mock (DRI3 dri3_version, or its default when NULL) with
 * `fault` on the request from_pixmap sends, and checks that from_pixmap
 * refuses the reply: NULL, EPROTO, and no X error to free.  The caller
 * stops and ends the session. */
static void start_refused_from_pixmap(struct e2e *t, const char *dri3_version,
                                      const char *fault)
{
    xcb_generic_error_t *err = (void *)1;
    xcb_pixmap_t p;

    if (dri3_version)
        e2e_start(t, "dri3-version", dri3_version, "fault", fault, NULL);
    else
        e2e_start(t, "fault", fault, NULL);
    p = e2e_create_pixmap(t, 8, 8);
    errno = 0;
    CHECK(xcb_dri3_util_buffer_from_pixmap(t->c, p, &err) == NULL);
    CHECK(err == NULL);
    CHECK_EQ(errno, EPROTO);
}

/* A reply with more fds than planes, or with a pipe instead of a buffer:
 * nothing leaks (the runner counts fds), the pipe is refused. */
TEST(from_pixmap_bad_fds)
{
    xcb_generic_error_t *err = (void *)1;
    xcb_dri3_util_buffer_t *b;
    struct e2e_fd_set before;
    struct e2e t;
    xcb_pixmap_t p;

    e2e_fd_snapshot(&before);
    e2e_start(&t, "fault", "extra-fds:131.8:2", NULL);
    p = e2e_create_pixmap(&t, 8, 8);
    /* libxcb 1.15 shuts the connection down on surplus fds (see
     * tests/e2e/e2e-faults.c): a clean EPIPE, or the buffer. */
    errno = 0;
    b = xcb_dri3_util_buffer_from_pixmap(t.c, p, &err);
    CHECK(err == NULL);
    if (b) {
        CHECK_EQ(xcb_dri3_util_buffer_n_planes(b), 1);
        xcb_dri3_util_buffer_destroy(b);
    } else {
        CHECK_EQ(errno, EPIPE);
    }
    bt_stop(&t);
    e2e_end(&t);
    /* What libxcb lost out of anyone's reach (the reply's fd and the
     * extra ones); nothing of ours. */
    CHECK(e2e_close_stray_fds(&before, "/memfd:mock-") <= 3);

    start_refused_from_pixmap(&t, NULL, "wrong-fd:131.8");
    e2e_sync(&t);
    bt_stop(&t);
    e2e_end(&t);

    start_refused_from_pixmap(&t, "1.0", "wrong-fd:131.3");
    bt_stop(&t);
    e2e_end(&t);
}

/* Case 12 on the server's side: a reply whose fd is an empty memfd is
 * refused (it used to import, and the first write through a mapping died
 * of SIGBUS), with the fd closed. */
TEST(from_pixmap_empty_fd)
{
    struct e2e t;

    start_refused_from_pixmap(&t, NULL, "empty-fd:131.8");
    bt_stop(&t);
    CHECK(e2e_info_contains(&t, "fault: empty memfds"));
    e2e_end(&t);

    start_refused_from_pixmap(&t, "1.0", "empty-fd:131.3");
    bt_stop(&t);
    e2e_end(&t);
}

TEST(from_pixmap_unknown_pixmap)
{
    xcb_generic_error_t *err = NULL;
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK(xcb_dri3_util_buffer_from_pixmap(t.c, 0x00abcdef, &err) == NULL);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, XCB_PIXMAP);
    free(err);
    e2e_sync(&t);
    bt_stop(&t);
    e2e_end(&t);
}

/* No DRI3: ENOTSUP, nothing sent, the connection still usable. */
TEST(server_without_dri3)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(8, 8, XRGB8888);
    xcb_generic_error_t *err = (void *)1;
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, "dri3-version", "none", NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, w, b, &err), XCB_NONE);
    CHECK(err == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(xcb_dri3_util_buffer_from_pixmap(t.c, w, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(count_major(&t, DRI3), 0);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

/* README's loader path, step by step, on a server without a GPU (the
 * device is the mock's memfd, so the buffer is a memfd too). */
TEST(loader_path)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    xcb_dri3_util_device_t *dev;
    xcb_dri3_util_buffer_t *buf;
    uint64_t *wm, *sm;
    uint32_t nw, ns;
    xcb_pixmap_t pixmap;
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 32, 32);
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), 0);
    CHECK(caps.dri3 && caps.fd_passing);
    dev = xcb_dri3_util_device_open(t.c, w, 0, &err);
    CHECK(dev != NULL);
    CHECK(!dev->is_drm);
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, w, 24, 32, &wm, &nw, &sm, &ns, &err),
             0);
    buf = xcb_dri3_util_buffer_create_memfd(32, 32, XRGB8888);
    CHECK(buf != NULL);
    write_pattern(buf, 9);
    pixmap = xcb_dri3_util_buffer_to_pixmap(t.c, w, buf, &err);
    CHECK(pixmap != XCB_NONE);
    check_pattern_image(&t, pixmap, 32, 32, 9);
    free(wm);
    free(sm);
    xcb_dri3_util_device_close(dev);
    bt_stop(&t);
    /* one GetSupportedModifiers: to_pixmap used what the loader asked */
    CHECK_EQ(e2e_count_requests(&t, MOCK_DRI3_MAJOR, GSM), 1);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(buf);
}
