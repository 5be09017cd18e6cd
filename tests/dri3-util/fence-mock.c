/*
 * Fences through an X server: the mock server (mock/) maps the pages
 * we send it and makes its own, as a real server does with libxshmfence.
 */
#include <sys/stat.h>
#include <xcb/dri3.h>
#include <xcb/sync.h>

#include "fence-test-util.h"
#include "mock-session.h"
#include "xcb_dri3_util.h"

#define MS 1000000LL

struct session {
    struct mock_server *server;
    xcb_connection_t *c;
    xcb_window_t root;
};

static void start(struct session *s, const char *dri3_version)
{
    struct mock_config *cfg = mock_config_new();

    CHECK(cfg != NULL);
    if (dri3_version)
        CHECK_EQ(mock_config_set(cfg, "dri3-version", dri3_version), 0);
    s->root = mock_session_start(cfg, &s->server, &s->c)->root;
}

static void stop(struct session *s)
{
    /* The library's caches are per connection; the next one may get the
     * same address. */
    xcb_dri3_util_probe_forget(s->c);
    xcb_disconnect(s->c);
    mock_server_free(s->server);
}

/* The server got our page itself (same file), not a copy, in FenceFromFD. */
static void check_sent_our_page(struct session *s, xcb_dri3_util_fence_t *f)
{
    const struct mock_request_record *r;
    struct mock_transcript *t;
    struct stat st;

    CHECK(fstat(xcb_dri3_util_fence_fd(f), &st) == 0);
    CHECK_EQ(mock_server_stop(s->server), 0);
    t = mock_server_transcript(s->server);
    CHECK(t != NULL);
    r = mock_transcript_find(t, MOCK_DRI3_MAJOR, XCB_DRI3_FENCE_FROM_FD, 0);
    CHECK(r != NULL);
    CHECK_EQ(r->nfds, 1);
    CHECK(strcmp(r->fds[0].kind, "memfd") == 0);
    CHECK_EQ(r->fds[0].ino, st.st_ino);
    CHECK_EQ(r->fds[0].dev, st.st_dev);
    mock_transcript_free(t);
}

/* FenceFromFD, then the client asks the server to trigger its fence: the
 * server's trigger, on the shared page, ends our wait. */
TEST(server_trigger_ends_our_wait)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_generic_error_t *err = NULL;
    struct session s;
    xcb_sync_fence_t id;

    start(&s, NULL);
    id = xcb_dri3_util_fence_to_server(s.c, s.root, f, &err);
    CHECK(err == NULL);
    CHECK(id != XCB_NONE);
    CHECK_EQ(xcb_dri3_util_fence_wait(f, 20 * MS), -ETIMEDOUT);
    xcb_sync_trigger_fence(s.c, id);
    xcb_flush(s.c);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, s.c, 5000 * MS), 0);
    CHECK(xcb_request_check(s.c, xcb_sync_destroy_fence_checked(s.c, id)) == NULL);
    check_sent_our_page(&s, f);
    stop(&s);
    xcb_dri3_util_fence_destroy(f);
}

/* A fence the server made (SYNC CreateFence), fetched with FDFromFence:
 * our trigger is what the server's QueryFence sees. */
TEST(our_trigger_seen_by_server)
{
    xcb_generic_error_t *err = NULL;
    xcb_sync_query_fence_reply_t *q;
    xcb_dri3_util_fence_t *f;
    struct session s;
    xcb_sync_fence_t id;

    start(&s, NULL);
    id = xcb_generate_id(s.c);
    xcb_sync_create_fence(s.c, s.root, id, 0);
    f = xcb_dri3_util_fence_from_server(s.c, s.root, id, &err);
    CHECK(err == NULL);
    CHECK(f != NULL);
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    q = xcb_sync_query_fence_reply(s.c, xcb_sync_query_fence(s.c, id), &err);
    CHECK(err == NULL);
    CHECK(q != NULL);
    CHECK_EQ(q->triggered, 1);
    free(q);
    /* And the server's reset is ours. */
    xcb_sync_reset_fence(s.c, id);
    free(xcb_sync_query_fence_reply(s.c, xcb_sync_query_fence(s.c, id), NULL));
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    xcb_sync_destroy_fence(s.c, id);
    stop(&s);
    xcb_dri3_util_fence_destroy(f);
}

TEST(unknown_server_fence_is_an_x_error)
{
    xcb_generic_error_t *err = NULL;
    struct session s;

    start(&s, NULL);
    CHECK(xcb_dri3_util_fence_from_server(s.c, s.root, 0x00abcdef, &err) == NULL);
    CHECK(err != NULL);
    test_note("error code %u", err->error_code);
    free(err);
    CHECK_EQ(xcb_connection_has_error(s.c), 0);
    stop(&s);
}

/* Without DRI3 the helpers refuse before sending anything (a request to a
 * missing extension would make libxcb shut the connection). */
TEST(server_without_dri3)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_generic_error_t *err = (void *)1;
    struct session s;

    start(&s, "none");
    errno = 0;
    CHECK_EQ(xcb_dri3_util_fence_to_server(s.c, s.root, f, &err), XCB_NONE);
    CHECK(err == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(xcb_dri3_util_fence_from_server(s.c, s.root, 1, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_connection_has_error(s.c), 0);
    stop(&s);
    xcb_dri3_util_fence_destroy(f);
}

/* The server goes away while we wait on a fence it holds. */
TEST(server_stop_ends_wait_conn)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    struct session s;
    int64_t stopped;

    start(&s, NULL);
    CHECK(xcb_dri3_util_fence_to_server(s.c, s.root, f, NULL) != XCB_NONE);
    mock_server_stop(s.server);
    stopped = test_now_ns();
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, s.c, -1), -EPIPE);
    CHECK(test_now_ns() - stopped < 500 * MS); /* 4 ms slices; generous for a busy machine */
    stop(&s);
    xcb_dri3_util_fence_destroy(f);
}
