/*
 * xcb_dri3_util_buffers_to_pixmaps() on the mock server: n pixmaps for one
 * round trip, and what it undoes when the server refuses one or dies.
 */
#include <stdio.h>

#include "buffer-test-util.h"
#include "test-clock.h"

enum { DRI3 = MOCK_DRI3_MAJOR, GET_INPUT_FOCUS = 43, FREE_PIXMAP = 54, N = 3 };

/* Three memfd buffers with their own patterns. */
static void make_buffers(xcb_dri3_util_buffer_t **b)
{
    for (int i = 0; i < N; i++) {
        b[i] = xcb_dri3_util_buffer_create_memfd(16, 16, XRGB8888);
        CHECK(b[i] != NULL);
        write_pattern(b[i], 10 + i);
    }
}

static void destroy_buffers(xcb_dri3_util_buffer_t **b)
{
    for (int i = 0; i < N; i++)
        xcb_dri3_util_buffer_destroy(b[i]);
}

/* The transcript index of the i-th PixmapFromBuffers. */
static size_t index_of_pfbs(struct e2e *t, size_t i)
{
    const struct mock_request_record *r =
        e2e_request(t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS, i);

    return (size_t)(r - t->transcript->requests);
}

/* Whether the transcript frees pixmap p. */
static bool freed(struct e2e *t, xcb_pixmap_t p)
{
    for (size_t i = 0; i < t->transcript->n; i++) {
        const struct mock_request_record *r = &t->transcript->requests[i];

        if (r->major == FREE_PIXMAP && e2e_u32(r, 4) == p)
            return true;
    }
    return false;
}

TEST(three_buffers_one_round_trip)
{
    xcb_dri3_util_buffer_t *b[N];
    xcb_pixmap_t p[N];
    xcb_generic_error_t *err = (void *)1;
    struct e2e t;
    xcb_window_t w;
    size_t first;

    make_buffers(b);
    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, w, b, N, p, &err), 0);
    CHECK(err == NULL);
    for (int i = 0; i < N; i++) {
        CHECK(p[i] != XCB_NONE);
        check_pattern_image(&t, p[i], 16, 16, 10 + i);
    }
    CHECK(p[0] != p[1] && p[1] != p[2] && p[0] != p[2]);
    e2e_sync(&t);
    bt_stop(&t);
    /* the three requests back to back, then the one round trip */
    first = index_of_pfbs(&t, 0);
    CHECK_EQ(index_of_pfbs(&t, 1), first + 1);
    CHECK_EQ(index_of_pfbs(&t, 2), first + 2);
    CHECK_EQ(t.transcript->requests[first + 3].major, GET_INPUT_FOCUS);
    CHECK(t.transcript->requests[first + 4].major != GET_INPUT_FOCUS);
    for (int i = 0; i < N; i++)
        CHECK_EQ(e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS, i), 4), p[i]);
    e2e_end(&t);
    destroy_buffers(b);
}

/* The mock's sequence number of the second PixmapFromBuffers of the
 * scenario below, learnt from a run without faults (the scenario's
 * requests are always the same). */
static uint32_t seq_of_second_request(xcb_dri3_util_buffer_t **b)
{
    xcb_pixmap_t p[N];
    struct e2e t;
    uint32_t seq;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, e2e_create_window(&t, 0, 0, 64, 64), b, N,
                                              p, NULL), 0);
    e2e_sync(&t);
    bt_stop(&t);
    seq = e2e_request(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS, 1)->seq;
    e2e_end(&t);
    return seq;
}

/* The server refuses the second: -EIO with its error, the others freed. */
TEST(second_refused)
{
    xcb_dri3_util_buffer_t *b[N];
    xcb_pixmap_t p[N];
    xcb_generic_error_t *err = NULL;
    char fault[64];
    struct e2e t;
    uint32_t made[N];

    make_buffers(b);
    snprintf(fault, sizeof fault, "error:seq=%u:11", seq_of_second_request(b));
    e2e_start(&t, "fault", fault, NULL);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, e2e_create_window(&t, 0, 0, 64, 64), b, N,
                                              p, &err), -EIO);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, XCB_ALLOC);
    free(err);
    for (int i = 0; i < N; i++)
        CHECK_EQ(p[i], XCB_NONE);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK(e2e_info_contains(&t, "fault: error 11"));
    for (int i = 0; i < N; i++)
        made[i] = e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS, i), 4);
    CHECK(freed(&t, made[0]));
    CHECK(freed(&t, made[2]));
    CHECK(!freed(&t, made[1]));       /* refused: the client never had it */
    e2e_end(&t);
    destroy_buffers(b);
}

/* The server dies after the first request: -EPIPE at once, no fd left. */
TEST(server_dies)
{
    xcb_dri3_util_buffer_t *b[N];
    xcb_pixmap_t p[N] = { 1, 2, 3 };
    xcb_generic_error_t *err = (void *)1;
    struct e2e t;
    int64_t start;

    make_buffers(b);
    e2e_start(&t, "fault", "close-after:131.7", NULL);
    start = test_now_ms();
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, e2e_create_window(&t, 0, 0, 64, 64), b, N,
                                              p, &err), -EPIPE);
    CHECK(test_now_ms() - start < 1000);
    CHECK(err == NULL);
    for (int i = 0; i < N; i++)
        CHECK_EQ(p[i], XCB_NONE);
    bt_stop(&t);
    e2e_end(&t);
    destroy_buffers(b);
}

/* A server that stalls: -ETIMEDOUT at the connection's bound. */
TEST(server_stalls)
{
    xcb_dri3_util_buffer_t *b[N];
    xcb_pixmap_t p[N];
    struct e2e t;
    xcb_window_t w;
    int64_t start, took;

    make_buffers(b);
    e2e_start(&t, "fault", "stall:131.7:1500", NULL);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200000000), 0);
    start = test_now_ms();
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, w, b, N, p, NULL), -ETIMEDOUT);
    took = test_now_ms() - start;
    CHECK(took >= 150 && took < 1000);
    for (int i = 0; i < N; i++)
        CHECK_EQ(p[i], XCB_NONE);
    bt_stop(&t);
    e2e_end(&t);
    destroy_buffers(b);
}

/* Refusals before anything is sent. */
TEST(bad_arguments)
{
    xcb_dri3_util_buffer_t *b[N] = { NULL };
    xcb_pixmap_t p[N] = { 1, 2, 3 };
    xcb_generic_error_t *err = (void *)1;
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, t.root, NULL, N, p, &err), -EINVAL);
    CHECK(err == NULL);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, t.root, b, N, NULL, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, t.root, b, N, p, NULL), -EINVAL);
    CHECK_EQ(p[0], XCB_NONE);
    CHECK_EQ(xcb_dri3_util_buffers_to_pixmaps(t.c, t.root, b, 0, p, NULL), 0);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(count_major(&t, DRI3), 0);
    e2e_end(&t);
}
