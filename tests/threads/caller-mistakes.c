/*
 * Caller mistakes against the mock server: zero and oversized pixmap
 * dimensions, fences handed to a drawable or taken from a fence that does
 * not exist.  Each gets an X error the caller can read, and the connection
 * stays usable afterwards (the protocol allows it: none of these is a
 * malformed request).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <xcb/dri3.h>
#include <xcb/sync.h>

#include "fence-test-util.h"
#include "mock-session.h"
#include "xcb_dri3_util.h"

struct session {
    struct mock_server *server;
    xcb_connection_t *c;
    xcb_window_t root;
};

static void start(struct session *s)
{
    struct mock_config *cfg = mock_config_new();

    CHECK(cfg != NULL);
    s->root = mock_session_start(cfg, &s->server, &s->c)->root;
}

static void stop(struct session *s)
{
    xcb_disconnect(s->c);
    CHECK_EQ(mock_server_stop(s->server), 0);
    mock_server_free(s->server);
}

/* A request with a reply still works: the connection survived. */
static void check_usable(struct session *s)
{
    xcb_dri3_query_version_reply_t *r =
        xcb_dri3_query_version_reply(s->c, xcb_dri3_query_version(s->c, 1, 4), NULL);

    CHECK(r != NULL);
    CHECK_EQ(r->major_version, 1);
    free(r);
    CHECK_EQ(xcb_connection_has_error(s->c), 0);
}

static int buffer_fd(size_t size)
{
    int fd = memfd_create("caller-mistakes", MFD_CLOEXEC);

    CHECK(fd >= 0);
    CHECK(ftruncate(fd, (off_t)size) == 0);
    return fd;
}

/* PixmapFromBuffer with the given size; returns the X error code (0: none). */
static int from_buffer(struct session *s, uint16_t width, uint16_t height, uint16_t stride,
                       uint32_t size)
{
    xcb_pixmap_t pixmap = xcb_generate_id(s->c);
    xcb_generic_error_t *e;
    int code;

    /* The request owns the fd from here, also when the server refuses. */
    e = xcb_request_check(s->c, xcb_dri3_pixmap_from_buffer_checked(
                                    s->c, pixmap, s->root, size, width, height, stride, 24, 32,
                                    buffer_fd(4096)));
    code = e ? e->error_code : 0;
    free(e);
    if (code == 0)
        xcb_free_pixmap(s->c, pixmap);
    return code;
}

TEST(zero_and_oversized_dimensions_are_refused)
{
    struct session s;

    start(&s);
    CHECK_EQ(from_buffer(&s, 0, 8, 32, 4096), XCB_VALUE);
    CHECK_EQ(from_buffer(&s, 8, 0, 32, 4096), XCB_VALUE);
    CHECK_EQ(from_buffer(&s, 8, 8, 0, 4096), XCB_VALUE);
    check_usable(&s);
    /* 65535 x 65535 with a 4-byte pixel in a 4 kB buffer: refused, not
     * mapped (the stride does not even hold a row). */
    CHECK(from_buffer(&s, 65535, 65535, 65535, 4096) != 0);
    /* A stride that holds a row, but far more rows than the buffer. */
    CHECK(from_buffer(&s, 16000, 65535, 64000, 4096) != 0);
    check_usable(&s);
    /* And a sane one still works. */
    CHECK_EQ(from_buffer(&s, 8, 8, 32, 4096), 0);
    check_usable(&s);
    stop(&s);
}

TEST(fences_with_bad_ids_give_x_errors)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_generic_error_t *err = NULL;
    struct session s;

    start(&s);
    /* No such drawable: an X error, and the fence is still ours. */
    CHECK_EQ(xcb_dri3_util_fence_to_server(s.c, 0x0badbad0, f, &err), XCB_NONE);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, XCB_DRAWABLE);
    free(err);
    err = NULL;
    check_usable(&s);
    /* No such SYNC fence to take. */
    CHECK(xcb_dri3_util_fence_from_server(s.c, s.root, 0x0badbad0, &err) == NULL);
    CHECK(err != NULL);
    free(err);
    check_usable(&s);
    /* The fence itself is untouched and works. */
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    CHECK(xcb_dri3_util_fence_is_triggered(f));
    stop(&s);
    xcb_dri3_util_fence_destroy(f);
}
