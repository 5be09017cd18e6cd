/* The mock server's core, through ordinary libxcb and raw sockets:
 * handshake, core requests, errors, framing, BIG-REQUESTS, SYNC fences,
 * faults, the transcript, shutdown and the mock-x-server program. */
#include "mock-internal.h"
#include "test-clock.h"
#include "test-runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/sync.h>
#include <xcb/xcbext.h>

/* ---- helpers ---------------------------------------------------------- */

static struct mock_server *start_with(const char *key, const char *value)
{
    struct mock_config *cfg = mock_config_new();
    struct mock_server *s;

    CHECK(cfg);
    if (key)
        CHECK_EQ(mock_config_set(cfg, key, value), 0);
    s = mock_server_start(cfg);
    mock_config_free(cfg);
    CHECK(s);
    return s;
}

static struct mock_server *start(void)
{
    return start_with(NULL, NULL);
}

static xcb_connection_t *connect_ok(struct mock_server *s)
{
    xcb_connection_t *c = mock_server_connect(s);

    CHECK_EQ(xcb_connection_has_error(c), 0);
    return c;
}

/* Disconnects, stops the server cleanly and frees it. */
static void finish(struct mock_server *s, xcb_connection_t *c)
{
    if (c)
        xcb_disconnect(c);
    CHECK_EQ(mock_server_stop(s), 0);
    mock_server_free(s);
}

static xcb_screen_t *screen_of(xcb_connection_t *c)
{
    return xcb_setup_roots_iterator(xcb_get_setup(c)).data;
}

static void write_all(int fd, const void *buf, size_t len)
{
    CHECK_EQ(write(fd, buf, len), (ssize_t)len);
}

/* Reads exactly len bytes, or fails the test after 5 s or at EOF. */
static void read_all(int fd, void *buf, size_t len)
{
    uint8_t *p = buf;

    while (len > 0) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        ssize_t n;

        CHECK_EQ(poll(&pfd, 1, 5000), 1);
        n = read(fd, p, len);
        CHECK(n > 0);
        p += n;
        len -= (size_t)n;
    }
}

/* A handshake over a raw socket; returns the first 8 bytes of the answer
 * in head and the rest's length. */
static size_t raw_handshake(int fd, const uint8_t *setup, size_t len, uint8_t head[8],
                            char *rest, size_t rest_size)
{
    size_t more;

    write_all(fd, setup, len);
    read_all(fd, head, 8);
    more = (size_t)(head[0] == 0 && setup[0] == 'B' ? head[6] << 8 | head[7]
                                                      : mock_get16(head + 6)) * 4;
    CHECK(more < rest_size);
    read_all(fd, rest, more);
    rest[more] = '\0';
    return more;
}

/* A connected raw socket past a successful handshake. */
static int raw_client(struct mock_server *s)
{
    static const uint8_t setup[12] = { 'l', 0, 11, 0 };
    uint8_t head[8];
    char rest[1024];
    int fd = mock_server_connect_raw(s);

    CHECK(fd >= 0);
    raw_handshake(fd, setup, sizeof setup, head, rest, sizeof rest);
    CHECK_EQ(head[0], 1);
    return fd;
}

/* Sends a request that libxcb would not build (RAW: the caller's header
 * goes out as it is) and returns its sequence number. */
static unsigned send_raw(xcb_connection_t *c, void *req, size_t len, bool has_reply)
{
    struct iovec vec[3];
    xcb_protocol_request_t proto = { .count = 1, .isvoid = !has_reply };

    vec[2].iov_base = req;
    vec[2].iov_len = len;
    return xcb_send_request(c, XCB_REQUEST_RAW | XCB_REQUEST_CHECKED, vec + 2, &proto);
}

static xcb_generic_error_t *error_of(xcb_connection_t *c, unsigned seq)
{
    return xcb_request_check(c, (xcb_void_cookie_t){ seq });
}

/* ---- the handshake ---------------------------------------------------- */

TEST(setup_describes_one_screen)
{
    struct mock_server *s = start_with("screen-size", "640x480");
    xcb_connection_t *c = connect_ok(s);
    const xcb_setup_t *setup = xcb_get_setup(c);
    xcb_screen_t *scr = screen_of(c);
    bool saw24 = false, saw32 = false;

    CHECK_EQ(setup->protocol_major_version, 11);
    CHECK_EQ(xcb_setup_vendor_length(setup), strlen("xcb-dri3-present mock"));
    CHECK_MEM(xcb_setup_vendor(setup), "xcb-dri3-present mock", 21);
    CHECK_EQ(setup->resource_id_mask, 0x1fffff);
    CHECK(setup->resource_id_base != 0);
    CHECK_EQ(setup->image_byte_order, XCB_IMAGE_ORDER_LSB_FIRST);
    CHECK_EQ(xcb_setup_roots_length(setup), 1);
    CHECK_EQ(scr->width_in_pixels, 640);
    CHECK_EQ(scr->height_in_pixels, 480);
    CHECK_EQ(scr->root_depth, 24);
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(scr); d.rem;
         xcb_depth_next(&d)) {
        xcb_visualtype_t *v = xcb_depth_visuals(d.data);

        if (d.data->depth != 24 && d.data->depth != 32)
            continue;
        CHECK_EQ(xcb_depth_visuals_length(d.data), 1);
        CHECK_EQ(v->_class, XCB_VISUAL_CLASS_TRUE_COLOR);
        CHECK_EQ(v->red_mask, 0xff0000);
        if (d.data->depth == 24) {
            CHECK_EQ(v->visual_id, scr->root_visual);
            saw24 = true;
        } else {
            saw32 = true;
        }
    }
    CHECK(saw24 && saw32);
    /* 1, 24, 32 and 30 (the depth of its BGR-ordered 10-bit visual) */
    CHECK_EQ(xcb_setup_pixmap_formats_length(setup), 4);
    CHECK_EQ(xcb_setup_pixmap_formats(setup)[1].bits_per_pixel, 32);
    CHECK_EQ(xcb_setup_pixmap_formats(setup)[3].depth, 30);
    CHECK_EQ(xcb_setup_pixmap_formats(setup)[3].bits_per_pixel, 32);
    finish(s, c);
}

TEST(malformed_setup_gets_a_failure_reply)
{
    struct mock_server *s = start();
    /* protocol 10, then one with an absurd authorization length */
    static const uint8_t old[12] = { 'l', 0, 10, 0 };
    static const uint8_t overrun[12] = { 'l', 0, 11, 0, 0, 0, 0xff, 0xff };
    uint8_t head[8];
    char reason[256];
    int fd;

    fd = mock_server_connect_raw(s);
    CHECK(fd >= 0);
    raw_handshake(fd, old, sizeof old, head, reason, sizeof reason);
    CHECK_EQ(head[0], 0);
    CHECK(head[1] > 0);
    CHECK(strstr(reason, "11.0"));
    close(fd);

    fd = mock_server_connect_raw(s);
    CHECK(fd >= 0);
    raw_handshake(fd, overrun, sizeof overrun, head, reason, sizeof reason);
    CHECK_EQ(head[0], 0);
    CHECK(strstr(reason, "too long"));
    close(fd);
    finish(s, NULL);
}

TEST(msb_first_is_refused)
{
    struct mock_server *s = start();
    static const uint8_t setup[12] = { 'B', 0, 0, 11 };
    uint8_t head[8];
    char reason[256];
    int fd = mock_server_connect_raw(s);

    CHECK(fd >= 0);
    raw_handshake(fd, setup, sizeof setup, head, reason, sizeof reason);
    CHECK_EQ(head[0], 0);
    CHECK_EQ(head[3], 11);      /* protocol major, MSB first */
    CHECK_EQ(head[1], strlen("mock supports LSB-first only"));
    CHECK_MEM(reason, "mock supports LSB-first only", head[1]);
    close(fd);
    finish(s, NULL);
}

/* ---- core requests ---------------------------------------------------- */

static xcb_query_extension_reply_t *query(xcb_connection_t *c, const char *name)
{
    xcb_query_extension_reply_t *r =
        xcb_query_extension_reply(c, xcb_query_extension(c, (uint16_t)strlen(name), name),
                                  NULL);
    CHECK(r);
    return r;
}

TEST(query_extension_answers_from_the_table)
{
    static const struct { const char *name; uint8_t major; } exts[] = {
        { "Generic Event Extension", MOCK_GE_MAJOR }, { "BIG-REQUESTS", MOCK_BIGREQ_MAJOR },
        { "SYNC", MOCK_SYNC_MAJOR }, { "DRI3", MOCK_DRI3_MAJOR },
        { "Present", MOCK_PRESENT_MAJOR },
    };
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_query_extension_reply_t *r;

    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        r = query(c, exts[i].name);
        CHECK_EQ(r->present, 1);
        CHECK_EQ(r->major_opcode, exts[i].major);
        free(r);
    }
    r = query(c, "SYNC");
    CHECK_EQ(r->first_error, MOCK_SYNC_FIRST_ERROR);
    free(r);
    r = query(c, "XFree86-Bogus");
    CHECK_EQ(r->present, 0);
    free(r);
    finish(s, c);

    s = start_with("present-version", "none");
    c = connect_ok(s);
    r = query(c, "Present");
    CHECK_EQ(r->present, 0);
    free(r);
    finish(s, c);
}

static xcb_atom_t intern(xcb_connection_t *c, bool only_if_exists, const char *name)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(
        c, xcb_intern_atom(c, only_if_exists, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a;

    CHECK(r);
    a = r->atom;
    free(r);
    return a;
}

TEST(intern_atom)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_atom_t a = intern(c, false, "MOCK_ATOM");

    CHECK(a >= 69);
    CHECK_EQ(intern(c, false, "MOCK_ATOM"), a);
    CHECK_EQ(intern(c, true, "MOCK_ATOM"), a);
    CHECK_EQ(intern(c, true, "NOBODY_HAS_THIS"), 0);
    CHECK(intern(c, false, "ANOTHER") != a);
    finish(s, c);
}

/* GetGeometry of d answers what want holds: depth, root and rectangle. */
static void check_geometry(xcb_connection_t *c, xcb_drawable_t d,
                           const xcb_get_geometry_reply_t *want)
{
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(c, xcb_get_geometry(c, d), NULL);

    CHECK(g);
    CHECK_EQ(g->depth, want->depth);
    CHECK_EQ(g->root, want->root);
    CHECK_EQ(g->x, want->x);
    CHECK_EQ(g->y, want->y);
    CHECK_EQ(g->width, want->width);
    CHECK_EQ(g->height, want->height);
    CHECK_EQ(g->border_width, want->border_width);
    free(g);
}

TEST(create_configure_destroy_window)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_screen_t *scr = screen_of(c);
    xcb_window_t w = xcb_generate_id(c), w32 = xcb_generate_id(c), bad = xcb_generate_id(c);
    uint32_t size[2] = { 300, 200 };
    uint32_t event_mask = XCB_EVENT_MASK_EXPOSURE;
    xcb_generic_error_t *e;

    CHECK(!xcb_request_check(c, xcb_create_window_checked(c, 0, w, scr->root, 5, 6, 100, 50,
                                                          1, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                                                          0, XCB_CW_EVENT_MASK, &event_mask)));
    check_geometry(c, w, &(xcb_get_geometry_reply_t){ .depth = 24, .root = scr->root, .x = 5,
                                                      .y = 6, .width = 100, .height = 50,
                                                      .border_width = 1 });

    CHECK(!xcb_request_check(c, xcb_map_window_checked(c, w)));
    CHECK(!xcb_request_check(c, xcb_configure_window_checked(
        c, w, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size)));
    check_geometry(c, w, &(xcb_get_geometry_reply_t){ .depth = 24, .root = scr->root, .x = 5,
                                                      .y = 6, .width = 300, .height = 200,
                                                      .border_width = 1 });

    CHECK(!xcb_request_check(c, xcb_create_window_checked(c, 32, w32, scr->root, 0, 0, 8, 8,
                                                          0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                                                          0, 0, NULL)));
    check_geometry(c, w32, &(xcb_get_geometry_reply_t){ .depth = 32, .root = scr->root,
                                                        .width = 8, .height = 8 });

    e = xcb_request_check(c, xcb_create_window_checked(c, 16, bad, scr->root, 0, 0, 8, 8, 0,
                                                       XCB_WINDOW_CLASS_INPUT_OUTPUT, 0, 0,
                                                       NULL));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_MATCH);
    free(e);
    e = xcb_request_check(c, xcb_create_window_checked(c, 0, w, scr->root, 0, 0, 8, 8, 0,
                                                       XCB_WINDOW_CLASS_INPUT_OUTPUT, 0, 0,
                                                       NULL));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_ID_CHOICE);
    free(e);

    CHECK(!xcb_request_check(c, xcb_destroy_window_checked(c, w)));
    CHECK(!xcb_request_check(c, xcb_destroy_window_checked(c, scr->root)));
    e = xcb_request_check(c, xcb_destroy_window_checked(c, w));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_WINDOW);
    free(e);
    finish(s, c);
}

TEST(pixmap_get_image)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_screen_t *scr = screen_of(c);
    xcb_pixmap_t p = xcb_generate_id(c);
    xcb_get_image_reply_t *img;
    xcb_generic_error_t *e = NULL;
    static const uint8_t zeros[4 * 3 * 4];

    CHECK(!xcb_request_check(c, xcb_create_pixmap_checked(c, 24, p, scr->root, 4, 3)));
    img = xcb_get_image_reply(c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, p, 0, 0, 4, 3,
                                               ~0u), NULL);
    CHECK(img);
    CHECK_EQ(img->depth, 24);
    CHECK_EQ(xcb_get_image_data_length(img), sizeof zeros);
    CHECK_MEM(xcb_get_image_data(img), zeros, sizeof zeros);
    free(img);

    img = xcb_get_image_reply(c, xcb_get_image(c, XCB_IMAGE_FORMAT_XY_PIXMAP, p, 0, 0, 4, 3,
                                               ~0u), &e);
    CHECK(!img && e);
    CHECK_EQ(e->error_code, MOCK_BAD_MATCH);
    free(e);
    img = xcb_get_image_reply(c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, p, 2, 0, 4, 3,
                                               ~0u), &e);
    CHECK(!img && e);
    CHECK_EQ(e->error_code, MOCK_BAD_MATCH);
    free(e);

    e = xcb_request_check(c, xcb_create_pixmap_checked(c, 24, xcb_generate_id(c), scr->root,
                                                       0, 3));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_VALUE);
    free(e);
    e = xcb_request_check(c, xcb_create_pixmap_checked(c, 8, xcb_generate_id(c), scr->root,
                                                       4, 3));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_VALUE);
    free(e);
    CHECK(!xcb_request_check(c, xcb_free_pixmap_checked(c, p)));
    finish(s, c);
}

TEST(bad_ids_give_errors_with_the_right_sequence)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_void_cookie_t ck;
    xcb_generic_error_t *e;

    xcb_get_input_focus_reply_t *f = xcb_get_input_focus_reply(c, xcb_get_input_focus(c),
                                                               NULL);
    CHECK(f);
    free(f);
    ck = xcb_map_window_checked(c, 0x1234567);
    e = xcb_request_check(c, ck);
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_WINDOW);
    CHECK_EQ(e->sequence, (uint16_t)ck.sequence);
    CHECK_EQ(e->resource_id, 0x1234567);
    CHECK_EQ(e->major_code, XCB_MAP_WINDOW);
    CHECK_EQ(e->minor_code, 0);
    free(e);
    ck = xcb_free_pixmap_checked(c, 0x7654321);
    e = xcb_request_check(c, ck);
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_PIXMAP);
    CHECK_EQ(e->sequence, (uint16_t)ck.sequence);
    CHECK_EQ(e->resource_id, 0x7654321);
    free(e);
    finish(s, c);
}

TEST(unknown_opcode_is_bad_request)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    uint8_t req[4] = { 120, 0, 1, 0 };
    unsigned seq = send_raw(c, req, sizeof req, false);
    xcb_generic_error_t *e = error_of(c, seq);

    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_REQUEST);
    CHECK_EQ(e->major_code, 120);
    free(e);
    finish(s, c);
}

TEST(short_or_zero_length_is_bad_length)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    /* GetGeometry is 2 words; this one says 3 */
    uint8_t req[12] = { XCB_GET_GEOMETRY, 0, 3, 0 };
    unsigned seq;
    xcb_generic_error_t *e;
    uint8_t zero_len[4] = { XCB_GET_INPUT_FOCUS, 0, 0, 0 };
    uint8_t focus[4] = { XCB_GET_INPUT_FOCUS, 0, 1, 0 };
    uint8_t answer[32];
    int fd;

    mock_put32(req + 4, screen_of(c)->root);
    seq = send_raw(c, req, sizeof req, false);
    e = error_of(c, seq);
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_LENGTH);
    CHECK_EQ(e->major_code, XCB_GET_GEOMETRY);
    free(e);
    finish(s, c);

    /* Length 0 without BIG-REQUESTS: BadLength for request 1, and the
     * next request is still understood, as number 2. */
    s = start();
    fd = raw_client(s);
    write_all(fd, zero_len, sizeof zero_len);
    write_all(fd, focus, sizeof focus);
    read_all(fd, answer, 32);
    CHECK_EQ(answer[0], 0);
    CHECK_EQ(answer[1], MOCK_BAD_LENGTH);
    CHECK_EQ(mock_get16(answer + 2), 1);
    read_all(fd, answer, 32);
    CHECK_EQ(answer[0], 1);
    CHECK_EQ(mock_get16(answer + 2), 2);
    close(fd);
    finish(s, NULL);
}

TEST(big_requests_carry_large_requests)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    size_t n = 300 * 1024;
    uint8_t *data = malloc(n);
    struct mock_transcript *t;
    const struct mock_request_record *r;

    CHECK(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (uint8_t)i;
    CHECK(xcb_get_maximum_request_length(c) == 4194303);
    CHECK(!xcb_request_check(c, xcb_change_property_checked(
        c, XCB_PROP_MODE_REPLACE, screen_of(c)->root, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
        (uint32_t)n, data)));
    CHECK_EQ(mock_server_stop(s), 0);
    t = mock_server_transcript(s);
    CHECK(t);
    r = mock_transcript_find(t, XCB_CHANGE_PROPERTY, XCB_PROP_MODE_REPLACE, 0);
    CHECK(r);
    CHECK_EQ(r->length, 28 + n);
    CHECK_EQ(mock_get16(r->data + 2), 0);
    CHECK_EQ(mock_get32(r->data + 4), (28 + n) / 4);
    CHECK_MEM(r->data + 28, data, n);
    mock_transcript_free(t);
    free(data);
    finish(s, c);
}

TEST(two_clients_at_once)
{
    struct mock_server *s = start();
    xcb_connection_t *a = connect_ok(s), *b = connect_ok(s);
    xcb_window_t w = xcb_generate_id(a);
    xcb_get_geometry_reply_t *g;

    CHECK(xcb_get_setup(a)->resource_id_base != xcb_get_setup(b)->resource_id_base);
    CHECK(!xcb_request_check(a, xcb_create_window_checked(a, 0, w, screen_of(a)->root, 0, 0,
                                                          40, 30, 0,
                                                          XCB_WINDOW_CLASS_INPUT_OUTPUT, 0,
                                                          0, NULL)));
    /* depth 0 above: the parent's */
    check_geometry(b, w, &(xcb_get_geometry_reply_t){ .depth = 24, .root = screen_of(b)->root,
                                                      .width = 40, .height = 30 });
    /* b may not create in a's range */
    xcb_generic_error_t *e = xcb_request_check(b, xcb_create_pixmap_checked(
        b, 24, xcb_generate_id(a), screen_of(b)->root, 1, 1));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_ID_CHOICE);
    free(e);
    /* a's window goes with a */
    xcb_disconnect(a);
    for (int i = 0; i < 200; i++) {
        e = NULL;
        g = xcb_get_geometry_reply(b, xcb_get_geometry(b, w), &e);
        if (!g)
            break;
        free(g);
        usleep(5000);
    }
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_DRAWABLE);
    free(e);
    finish(s, b);
}

TEST(a_client_that_does_not_read_blocks_nobody)
{
    struct mock_server *s = start();
    int lazy = raw_client(s);
    xcb_connection_t *c;
    size_t n = 20000;
    uint8_t *reqs = malloc(4 * n);

    /* 20000 GetInputFocus: 640 kB of replies that nobody reads, several
     * times what the socket holds.  (Not more: the mock writes a transcript
     * line per request, and 100000 of them took over 10 s on a loaded
     * machine.) */
    CHECK(reqs);
    for (size_t i = 0; i < n; i++)
        memcpy(reqs + 4 * i, (uint8_t[4]){ XCB_GET_INPUT_FOCUS, 0, 1, 0 }, 4);
    write_all(lazy, reqs, 4 * n);
    free(reqs);
    c = connect_ok(s);
    CHECK(intern(c, false, "STILL_SERVED") >= 69);
    close(lazy);
    finish(s, c);
}

/* ---- SYNC ------------------------------------------------------------- */

static bool fence_triggered(xcb_connection_t *c, xcb_sync_fence_t f)
{
    xcb_sync_query_fence_reply_t *r = xcb_sync_query_fence_reply(c, xcb_sync_query_fence(c, f),
                                                                 NULL);
    bool t;

    CHECK(r);
    t = r->triggered;
    free(r);
    return t;
}

TEST(sync_fences)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_sync_initialize_reply_t *init =
        xcb_sync_initialize_reply(c, xcb_sync_initialize(c, 3, 1), NULL);
    xcb_sync_fence_t f = xcb_generate_id(c);
    xcb_generic_error_t *e;

    CHECK(init);
    CHECK_EQ(init->major_version, 3);
    CHECK_EQ(init->minor_version, 1);
    free(init);
    CHECK(!xcb_request_check(c, xcb_sync_create_fence_checked(c, screen_of(c)->root, f, 0)));
    CHECK(!fence_triggered(c, f));
    e = xcb_request_check(c, xcb_sync_reset_fence_checked(c, f));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_MATCH);
    free(e);
    CHECK(!xcb_request_check(c, xcb_sync_trigger_fence_checked(c, f)));
    CHECK(fence_triggered(c, f));
    CHECK(!xcb_request_check(c, xcb_sync_reset_fence_checked(c, f)));
    CHECK(!fence_triggered(c, f));
    CHECK(!xcb_request_check(c, xcb_sync_destroy_fence_checked(c, f)));
    e = xcb_request_check(c, xcb_sync_trigger_fence_checked(c, f));
    CHECK(e);
    CHECK_EQ(e->error_code, MOCK_BAD_FENCE);
    CHECK_EQ(e->resource_id, f);
    free(e);
    finish(s, c);
}

TEST(await_fence_blocks_until_another_client_triggers)
{
    struct mock_server *s = start();
    xcb_connection_t *a = connect_ok(s), *b = connect_ok(s);
    xcb_sync_fence_t f = xcb_generate_id(a);
    xcb_get_input_focus_cookie_t ck;
    struct pollfd pfd = { .fd = xcb_get_file_descriptor(a), .events = POLLIN };
    xcb_get_input_focus_reply_t *r;

    CHECK(!xcb_request_check(a, xcb_sync_create_fence_checked(a, screen_of(a)->root, f, 0)));
    xcb_sync_await_fence(a, 1, &f);
    ck = xcb_get_input_focus(a);
    xcb_flush(a);
    /* Nothing comes while the fence is untriggered. */
    CHECK_EQ(poll(&pfd, 1, 200), 0);
    CHECK(!xcb_request_check(b, xcb_sync_trigger_fence_checked(b, f)));
    r = xcb_get_input_focus_reply(a, ck, NULL);
    CHECK(r);
    free(r);
    xcb_disconnect(b);
    finish(s, a);
}

/* ---- the transcript ----------------------------------------------------- */

TEST(transcript_records_requests)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    xcb_atom_t a = intern(c, false, "TRANSCRIBED");
    struct mock_transcript *t;
    const struct mock_request_record *r;

    CHECK(a);
    t = mock_server_transcript(s);      /* while it runs: lines are flushed */
    CHECK(t);
    CHECK(t->n >= 1);
    r = &t->requests[0];
    CHECK_EQ(r->client, 1);
    CHECK_EQ(r->seq, 1);
    CHECK_EQ(r->major, XCB_INTERN_ATOM);
    CHECK_EQ(r->minor, 0);
    CHECK_EQ(r->length, 8 + 12);
    CHECK_EQ(r->nfds, 0);
    CHECK_MEM(r->data + 8, "TRANSCRIBED", 11);
    CHECK(mock_transcript_find(t, XCB_INTERN_ATOM, 0, 0) == r);
    CHECK(!mock_transcript_find(t, XCB_INTERN_ATOM, 0, 1));
    CHECK(t->ninfo >= 1);
    mock_transcript_free(t);
    finish(s, c);
}

/* Sends len bytes with one fd attached, the way libxcb passes fds. */
static void send_with_fd(int sock, const void *buf, size_t len, int fd)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int))];
    } control;
    struct iovec iov = { (void *)buf, len };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                          .msg_controllen = sizeof control.buf };
    struct cmsghdr *cm;

    memset(&control, 0, sizeof control);
    cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    CHECK_EQ(sendmsg(sock, &msg, 0), (ssize_t)len);
}

TEST(transcript_records_fds)
{
    struct mock_server *s = start();
    int sock = raw_client(s);
    int fd = memfd_create("smoke-fence", MFD_CLOEXEC);
    /* DRI3 FenceFromFD: drawable = the root, a fence id in our range */
    uint8_t req[16] = { MOCK_DRI3_MAJOR, 4, 4, 0 };
    uint8_t focus[4] = { XCB_GET_INPUT_FOCUS, 0, 1, 0 }, answer[32];
    struct mock_transcript *t;
    const struct mock_request_record *r;
    struct stat st;

    CHECK(fd >= 0);
    CHECK_EQ(ftruncate(fd, 4096), 0);
    CHECK_EQ(fstat(fd, &st), 0);
    mock_put32(req + 4, 0x100);         /* the mock's root window */
    mock_put32(req + 8, 0x200001);      /* the first client's range */
    send_with_fd(sock, req, sizeof req, fd);
    close(fd);
    /* A round trip, so that the request has been handled. */
    write_all(sock, focus, sizeof focus);
    do
        read_all(sock, answer, sizeof answer);
    while (answer[0] != 1);
    close(sock);
    CHECK_EQ(mock_server_stop(s), 0);

    t = mock_server_transcript(s);
    CHECK(t);
    r = mock_transcript_find(t, MOCK_DRI3_MAJOR, 4, 0);
    CHECK(r);
    CHECK_EQ(r->nfds, 1);
    CHECK(strcmp(r->fds[0].kind, "memfd") == 0);
    CHECK_EQ(r->fds[0].size, 4096);
    CHECK_EQ(r->fds[0].ino, st.st_ino);
    CHECK_EQ(r->fds[0].dev, st.st_dev);
    mock_transcript_free(t);
    finish(s, NULL);
}

/* ---- faults ------------------------------------------------------------- */

/* Starts a server with the faults, interns an atom and returns the reply
 * (NULL for an error or a broken connection; *err gets the X error). */
static xcb_intern_atom_reply_t *faulty_intern(struct mock_server **sp, xcb_connection_t **cp,
                                              const char *fault1, const char *fault2,
                                              xcb_generic_error_t **err)
{
    struct mock_config *cfg = mock_config_new();
    xcb_connection_t *c;

    CHECK(cfg);
    CHECK_EQ(mock_config_set(cfg, "fault", fault1), 0);
    if (fault2)
        CHECK_EQ(mock_config_set(cfg, "fault", fault2), 0);
    *sp = mock_server_start(cfg);
    mock_config_free(cfg);
    CHECK(*sp);
    *cp = c = connect_ok(*sp);
    *err = NULL;
    return xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, 4, "ATOM"), err);
}

TEST(fault_reply_length_with_close)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "reply-length:16:1", "close-after:16",
                                               &e);

    CHECK(!r && !e);
    CHECK(xcb_connection_has_error(c));
    finish(s, c);
}

TEST(fault_fds_on_a_reply_without_fds)
{
    static const char *const specs[] = { "extra-fds:16:2", "missing-fds:16:1", "wrong-fd:16" };

    for (size_t i = 0; i < 3; i++) {
        struct mock_server *s;
        xcb_connection_t *c;
        xcb_generic_error_t *e;
        xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, specs[i], NULL, &e);

        test_note("%s", specs[i]);
        /* libxcb closes a connection on fds that no reply asked for */
        if (i == 0) {
            CHECK(r || xcb_connection_has_error(c));
        } else {
            CHECK(r);
            CHECK(r->atom >= 69);
        }
        free(r);
        finish(s, c);
    }
}

TEST(fault_bad_event)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "bad-event:16", NULL, &e);
    xcb_generic_event_t *ev;

    CHECK(r);
    free(r);
    ev = xcb_poll_for_event(c);
    CHECK(ev);
    CHECK_EQ(ev->response_type, XCB_GE_GENERIC);
    CHECK_EQ(((xcb_ge_generic_event_t *)ev)->event_type, 0xffff);
    free(ev);
    finish(s, c);
}

TEST(fault_close_after)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "close-after:16", NULL, &e);
    xcb_get_input_focus_reply_t *f;

    CHECK(r);
    free(r);
    f = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    CHECK(!f);
    CHECK(xcb_connection_has_error(c));
    finish(s, c);
}

TEST(fault_close_mid_reply)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "close-mid-reply:16", NULL, &e);

    CHECK(!r && !e);
    CHECK(xcb_connection_has_error(c));
    finish(s, c);
}

TEST(fault_stall)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    uint64_t t0 = (uint64_t)test_now_us();
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "stall:16:300", NULL, &e);

    CHECK(r);
    CHECK((uint64_t)test_now_us() - t0 >= 250000);
    free(r);
    finish(s, c);
}

TEST(fault_error_instead_of_reply)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "error:16:11", NULL, &e);

    CHECK(!r && e);
    CHECK_EQ(e->error_code, 11);
    CHECK_EQ(e->major_code, XCB_INTERN_ATOM);
    free(e);
    finish(s, c);
}

TEST(fault_by_sequence_number)
{
    struct mock_server *s;
    xcb_connection_t *c;
    xcb_generic_error_t *e;
    xcb_intern_atom_reply_t *r = faulty_intern(&s, &c, "error:seq=2:2", NULL, &e);

    CHECK(r);       /* request 1 is fine */
    free(r);
    r = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, 4, "ATOM"), &e);
    CHECK(!r && e);
    CHECK_EQ(e->error_code, 2);
    free(e);
    finish(s, c);
}

/* ---- configuration ------------------------------------------------------ */

TEST(config_rejects_bad_input)
{
    struct mock_config *cfg = mock_config_new();
    static const char *const bad[][2] = {
        { "no-such-key", "1" }, { "dri3-version", "1" }, { "dri3-version", "x.y" },
        { "present-caps", "async,bogus" }, { "present-caps", "async," },
        { "modifiers-window", "1,,2" }, { "msc-rate", "0" }, { "screen-size", "10x" },
        { "fault", "stall" }, { "fault", "stall:16" }, { "fault", "boom:16" },
        { "fault", "close-after:16:3" }, { "fault", "error:131" }, { "fault", "error:seq=0:2" },
    };

    CHECK(cfg);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        test_note("%s %s", bad[i][0], bad[i][1]);
        CHECK_EQ(mock_config_set(cfg, bad[i][0], bad[i][1]), -1);
    }
    CHECK_EQ(mock_config_set(cfg, "present-caps", "ust,fence"), 0);
    CHECK_EQ(cfg->present_caps, MOCK_CAP_UST | MOCK_CAP_FENCE);
    CHECK_EQ(mock_config_set(cfg, "modifiers-screen", "0,0x100000000000001"), 0);
    CHECK_EQ(cfg->n_modifiers_screen, 2);
    CHECK_EQ(cfg->modifiers_screen[1], 0x100000000000001ull);
    CHECK_EQ(mock_config_set(cfg, "fault", "reply-length:131.1:-2"), 0);
    CHECK_EQ(cfg->faults[0].major, 131);
    CHECK_EQ(cfg->faults[0].minor, 1);
    CHECK_EQ(cfg->faults[0].arg, -2);
    mock_config_free(cfg);
}

TEST(config_file)
{
    char path[] = "/tmp/mock-config-XXXXXX";
    int fd = mkstemp(path);
    static const char text[] = "# a comment\n\n  screen-size 800x600  \n"
                               "dri3-version none # no DRI3\nfault stall:16:5\n";
    struct mock_config *cfg = mock_config_new();

    CHECK(fd >= 0 && cfg);
    write_all(fd, text, sizeof text - 1);
    close(fd);
    CHECK_EQ(mock_config_load(cfg, path), 0);
    CHECK_EQ(cfg->screen_width, 800);
    CHECK_EQ(cfg->dri3_major, 0);
    CHECK_EQ(cfg->n_faults, 1);
    CHECK_EQ(cfg->faults[0].kind, MOCK_FAULT_STALL);
    fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    CHECK(fd >= 0);
    write_all(fd, "msc-rate\n", 9);
    close(fd);
    CHECK_EQ(mock_config_load(cfg, path), -1);
    unlink(path);
    mock_config_free(cfg);
}

/* ---- stopping, and the program ------------------------------------------ */

TEST(sigterm_stops_cleanly)
{
    struct mock_server *s = start();
    xcb_connection_t *c = connect_ok(s);
    pid_t pid = mock_server_pid(s);

    CHECK(pid > 0);
    /* stopped while a client is still connected */
    CHECK_EQ(intern(c, false, "X"), 69);
    CHECK_EQ(mock_server_stop(s), 0);
    CHECK_EQ(mock_server_stop(s), 0);
    CHECK(kill(pid, 0) < 0 && errno == ESRCH);
    xcb_disconnect(c);
    mock_server_free(s);
    /* no child left behind */
    CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
}

TEST(program_serves_a_socket)
{
    const char *top = getenv("TOP_BUILDDIR");
    char prog[512], dir[] = "/tmp/mock-prog-XXXXXX", sock[64], line[128] = "";
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int out[2], status, fd;
    ssize_t n;
    pid_t pid;
    xcb_connection_t *c;

    if (!top)
        SKIP("TOP_BUILDDIR is not set");
    snprintf(prog, sizeof prog, "%s/mock/mock-x-server", top);
    CHECK(mkdtemp(dir));
    snprintf(sock, sizeof sock, "%s/X5", dir);
    CHECK_EQ(pipe2(out, O_CLOEXEC), 0);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(out[1], 1);
        execl(prog, prog, "--socket", sock, "--screen-size", "320x200", (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    n = read(out[0], line, sizeof line - 1);
    close(out[0]);
    CHECK(n > 0);
    CHECK(strncmp(line, "ready", 5) == 0);

    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    strcpy(addr.sun_path, sock);
    CHECK_EQ(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    c = xcb_connect_to_fd(fd, NULL);
    CHECK_EQ(xcb_connection_has_error(c), 0);
    CHECK_EQ(screen_of(c)->width_in_pixels, 320);
    xcb_disconnect(c);

    CHECK_EQ(kill(pid, SIGTERM), 0);
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status));
    CHECK_EQ(WEXITSTATUS(status), 0);
    CHECK(access(sock, F_OK) < 0);
    CHECK_EQ(rmdir(dir), 0);
}
