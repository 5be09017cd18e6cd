/*
 * The bounded wait (xcb_dri3_util_wait.h) against the mock server: replies,
 * errors and void outcomes; the timeout, the cancel fd and the thread's
 * scope against a server that stalls; late replies taken in with their
 * fds closed; and a wait that wakes while another thread reads the
 * connection in xcb_wait_for_event().
 *
 * Times are asserted only from above, with bounds far beyond what the
 * code needs (a stalled server holds replies for 5 s; a wait bounded at
 * 200 ms must end within 3 s).
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "buffer-test-util.h"
#include "util-internal/deadline.h"
#include "event-thread.h"

#define MS 1000000LL
#define DRI3 MOCK_DRI3_MAJOR

enum { X_GET_GEOMETRY = 14, X_GET_INPUT_FOCUS = 43, X_NO_OPERATION = 127 };

static int64_t elapsed_ms(int64_t since)
{
    return (deadline_now_ns() - since) / MS;
}

TEST(timeout_setting)
{
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_timeout(t.c), XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS);
    CHECK_EQ(xcb_dri3_util_timeout(NULL), XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 0), -EINVAL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, -5), -EINVAL);
    CHECK_EQ(xcb_dri3_util_set_timeout(NULL, MS), -EINVAL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200 * MS), 0);
    CHECK_EQ(xcb_dri3_util_timeout(t.c), 200 * MS);
    /* The deadline of a call is now + timeout. */
    CHECK(xcb_dri3_util_deadline(t.c) <= deadline_now_ns() + 200 * MS);
    CHECK(xcb_dri3_util_deadline(t.c) > deadline_now_ns());
    /* Dropped with the probe's cache. */
    xcb_dri3_util_probe_forget(t.c);
    CHECK_EQ(xcb_dri3_util_timeout(t.c), XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS);
    bt_stop(&t);
    e2e_end(&t);
}

TEST(reply_error_and_void_outcome)
{
    xcb_generic_error_t *e = (void *)1;
    void *reply = (void *)1;
    xcb_pixmap_t p;
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_input_focus(t.c).sequence, 0,
                                      xcb_dri3_util_deadline(t.c), -1, &reply, &e),
             0);
    CHECK(reply != NULL);
    CHECK(e == NULL);
    CHECK_EQ(((xcb_generic_reply_t *)reply)->response_type, 1);
    free(reply);

    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_geometry(t.c, 0x00abcdef).sequence, 0,
                                      xcb_dri3_util_deadline(t.c), -1, &reply, &e),
             1);
    CHECK(reply == NULL);
    CHECK(e != NULL);
    CHECK_EQ(e->error_code, XCB_DRAWABLE);
    free(e);
    /* No error pointer: the error is freed. */
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_geometry(t.c, 0x00abcdef).sequence, 0,
                                      xcb_dri3_util_deadline(t.c), -1, &reply, NULL),
             1);
    CHECK_EQ(xcb_dri3_util_wait_reply(NULL, 1, 0, 0, -1, &reply, &e), -EINVAL);

    CHECK_EQ(xcb_dri3_util_wait_void(t.c, xcb_free_pixmap_checked(t.c, 0x00abcdef),
                                     xcb_dri3_util_deadline(t.c), -1),
             XCB_PIXMAP);
    p = xcb_generate_id(t.c);
    CHECK_EQ(xcb_dri3_util_wait_void(t.c,
                                     xcb_create_pixmap_checked(t.c, t.root_depth, p, t.root,
                                                               8, 8),
                                     xcb_dri3_util_deadline(t.c), -1),
             0);
    /* Nothing went to the event queue. */
    e2e_sync(&t);
    CHECK(xcb_poll_for_event(t.c) == NULL);
    bt_stop(&t);
    e2e_end(&t);
}

/* A server that answers the next request and never this one: libxcb
 * reports the request as answered with nothing, which must not read as a
 * reply (the caller would take NULL for one), nor wait to the deadline. */
TEST(skipped_reply_is_a_protocol_error)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    void *reply = (void *)1;
    unsigned int skipped, next;
    int64_t start;
    struct e2e t;

    e2e_start(&t, "fault", "no-reply:14", NULL);
    skipped = xcb_get_geometry(t.c, t.root).sequence;
    next = xcb_get_input_focus(t.c).sequence;
    start = deadline_now_ns();
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, skipped, 0, deadline_now_ns() + 5000 * MS, -1,
                                      &reply, NULL),
             -EPROTO);
    CHECK(reply == NULL);
    CHECK(elapsed_ms(start) < 3000);
    /* The connection goes on: the next request has its reply. */
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, next, 0, xcb_dri3_util_deadline(t.c), -1, &reply,
                                      NULL),
             0);
    free(reply);
    bt_stop(&t);
    e2e_end(&t);

    /* The probe's DRI3 QueryVersion (131 = MOCK_DRI3_MAJOR) skipped: the probe fails, is not
     * cached, and the next probe (answered) succeeds. */
    e2e_start(&t, "fault", "no-reply:131.0", NULL);
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), -EPROTO);
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), 0);
    CHECK(caps.dri3);
    bt_stop(&t);
    e2e_end(&t);
}

/* A reply with fds: they are the caller's, close-on-exec. */
TEST(reply_fds_close_on_exec)
{
    void *reply = NULL;
    struct e2e t;
    int fd;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_dri3_open(t.c, t.root, 0).sequence,
                                      XCB_DRI3_UTIL_WAIT_REPLY_FDS,
                                      xcb_dri3_util_deadline(t.c), -1, &reply, NULL),
             0);
    CHECK_EQ(((xcb_dri3_open_reply_t *)reply)->nfd, 1);
    fd = xcb_dri3_open_reply_fds(t.c, reply)[0];
    CHECK_CLOEXEC(fd);
    E2E_CHECK_MEMFD(fd, "mock-drm-device");
    close(fd);
    free(reply);
    bt_stop(&t);
    e2e_end(&t);
}

/* A server that holds its replies: the wait ends at its deadline, and a
 * deadline in the past still takes a reply that is already there. */
TEST(deadline_ends_the_wait)
{
    void *reply = (void *)1;
    unsigned int seq;
    int64_t start;
    struct e2e t;

    e2e_start(&t, "fault", "stall:14:5000", NULL);
    seq = xcb_get_geometry(t.c, t.root).sequence;
    start = deadline_now_ns();
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, seq, 0, deadline_now_ns() + 200 * MS, -1, &reply,
                                      NULL),
             -ETIMEDOUT);
    CHECK(reply == NULL);
    test_note("gave up after %lld ms", (long long)elapsed_ms(start));
    CHECK(elapsed_ms(start) < 3000);
    /* Already passed: one look, no wait. */
    start = deadline_now_ns();
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_input_focus(t.c).sequence, 0, 0, -1,
                                      &reply, NULL),
             -ETIMEDOUT);
    CHECK(elapsed_ms(start) < 3000);
    bt_stop(&t);
    e2e_end(&t);

    e2e_start(&t, NULL);
    seq = xcb_get_input_focus(t.c).sequence;
    e2e_sync(&t);
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, seq, 0, 0, -1, &reply, NULL), 0);
    free(reply);
    bt_stop(&t);
    e2e_end(&t);
}

/* A server that holds DRI3 Open's reply 400 ms, and an Open whose wait
 * gave up after 50 ms.  *fds_before: the fds open before it was sent. */
static void abandon_an_open(struct e2e *t, int *fds_before)
{
    void *reply = NULL;

    e2e_start(t, "fault", "stall:131.1:400", NULL);
    CHECK_EQ(xcb_dri3_util_probe(t->c, NULL), 0);
    *fds_before = test_count_fds();
    CHECK_EQ(xcb_dri3_util_wait_reply(t->c, xcb_dri3_open(t->c, t->root, 0).sequence,
                                      XCB_DRI3_UTIL_WAIT_REPLY_FDS,
                                      deadline_now_ns() + 50 * MS, -1, &reply, NULL),
             -ETIMEDOUT);
    CHECK(reply == NULL);
}

/* The late reply of an abandoned request: its fd reaches this process,
 * and a collect (or the next wait) closes it. */
TEST(late_reply_fds_are_closed)
{
    struct e2e t;
    int fds_before;

    abandon_an_open(&t, &fds_before);
    /* libxcb's own wait takes the late reply (and its fd) in. */
    e2e_sync(&t);
    CHECK_EQ(test_count_fds(), fds_before + 1);
    xcb_dri3_util_collect_abandoned(t.c);
    CHECK_EQ(test_count_fds(), fds_before);
    bt_stop(&t);
    e2e_end(&t);
}

/* The next request gets its own reply, not the late one, whose fd the
 * wait closes on the way. */
TEST(next_wait_gets_its_own_reply)
{
    xcb_dri3_open_reply_t *reply = NULL;
    unsigned int own;
    struct e2e t;
    int fds_before;

    abandon_an_open(&t, &fds_before);
    own = xcb_dri3_open(t.c, t.root, 0).sequence;
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, own, XCB_DRI3_UTIL_WAIT_REPLY_FDS,
                                      deadline_now_ns() + 5000 * MS, -1, (void **)&reply,
                                      NULL),
             0);
    CHECK_EQ(reply->sequence, (uint16_t)own);
    CHECK_EQ(reply->nfd, 1);
    /* Only the reply's own fd is open: the late one was closed. */
    CHECK_EQ(test_count_fds(), fds_before + 1);
    close(xcb_dri3_open_reply_fds(t.c, reply)[0]);
    free(reply);
    bt_stop(&t);
    e2e_end(&t);
}

/* A cancel fd ends the wait; a reply that is already there still wins. */
TEST(cancel_fd)
{
    int efd = eventfd(1, EFD_CLOEXEC);
    void *reply = (void *)1;
    unsigned int seq;
    int64_t start;
    struct e2e t;

    CHECK(efd >= 0);
    e2e_start(&t, "fault", "stall:14:5000", NULL);
    seq = xcb_get_geometry(t.c, t.root).sequence;
    start = deadline_now_ns();
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, seq, 0, deadline_now_ns() + 4000 * MS, efd, &reply,
                                      NULL),
             -ECANCELED);
    CHECK(reply == NULL);
    CHECK(elapsed_ms(start) < 3000);
    CHECK_EQ(xcb_dri3_util_wait_void(t.c, xcb_free_pixmap_checked(t.c, 0x00abcdef),
                                     deadline_now_ns() + 4000 * MS, efd),
             -ECANCELED);
    bt_stop(&t);
    e2e_end(&t);

    e2e_start(&t, NULL);
    seq = xcb_get_input_focus(t.c).sequence;
    e2e_sync(&t);
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, seq, 0, INT64_MAX, efd, &reply, NULL), 0);
    free(reply);
    bt_stop(&t);
    e2e_end(&t);
    close(efd);
}

/* A scope caps the waits of its thread: its deadline, its cancel fd; a
 * nested scope never extends the outer deadline; pop restores. */
TEST(scope_caps_waits)
{
    xcb_dri3_util_wait_scope_t outer, inner;
    int efd = eventfd(1, EFD_CLOEXEC);
    void *reply = NULL;
    int64_t start, cap;
    struct e2e t;

    CHECK(efd >= 0);
    e2e_start(&t, "fault", "stall:14:5000", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 4000 * MS), 0);
    start = deadline_now_ns();
    cap = start + 200 * MS;
    outer = xcb_dri3_util_wait_scope_push(cap, -1);
    CHECK_EQ(outer.deadline_ns, INT64_MAX);
    CHECK_EQ(outer.cancel_fd, -1);
    CHECK(xcb_dri3_util_deadline(t.c) <= cap);
    inner = xcb_dri3_util_wait_scope_push(INT64_MAX, -1);
    CHECK_EQ(inner.deadline_ns, cap);
    CHECK(xcb_dri3_util_deadline(t.c) <= cap);
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_geometry(t.c, t.root).sequence, 0,
                                      INT64_MAX, -1, &reply, NULL),
             -ETIMEDOUT);
    CHECK(elapsed_ms(start) < 3000);
    xcb_dri3_util_wait_scope_pop(inner);
    xcb_dri3_util_wait_scope_pop(outer);
    CHECK(xcb_dri3_util_deadline(t.c) > deadline_now_ns() + 1000 * MS);

    outer = xcb_dri3_util_wait_scope_push(INT64_MAX, efd);
    start = deadline_now_ns();
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_input_focus(t.c).sequence, 0,
                                      deadline_now_ns() + 4000 * MS, -1, &reply, NULL),
             -ECANCELED);
    CHECK(elapsed_ms(start) < 3000);
    xcb_dri3_util_wait_scope_pop(outer);
    bt_stop(&t);
    e2e_end(&t);
    close(efd);
}

/* A broken connection: -EPIPE, at once. */
TEST(broken_connection)
{
    void *reply = NULL;
    struct e2e t;

    e2e_start(&t, "fault", "close-after:127", NULL);
    xcb_no_operation(t.c);
    CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_input_focus(t.c).sequence, 0,
                                      deadline_now_ns() + 4000 * MS, -1, &reply, NULL),
             -EPIPE);
    CHECK_EQ(xcb_dri3_util_wait_void(t.c, xcb_free_pixmap_checked(t.c, 1),
                                     deadline_now_ns() + 4000 * MS, -1),
             -EPIPE);
    bt_stop(&t);
    e2e_end(&t);
}

/* ---- another thread reading the connection ------------------------------ */

/* Each wait must see its reply although the event thread read it: with a
 * bound of 5 s and 20 round trips, a wait that slept to its deadline even
 * once would take 5 s; these take milliseconds. */
TEST(event_thread_reads_the_replies)
{
    struct event_thread et;
    int64_t start;
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    event_thread_start(&et, t.c);
    start = deadline_now_ns();
    for (int i = 0; i < 20; i++) {
        void *reply = NULL;

        CHECK_EQ(xcb_dri3_util_wait_reply(t.c, xcb_get_input_focus(t.c).sequence, 0,
                                          xcb_dri3_util_deadline(t.c), -1, &reply, NULL),
                 0);
        free(reply);
        CHECK_EQ(xcb_dri3_util_wait_void(t.c, xcb_free_pixmap_checked(t.c, 0x00abcdef),
                                         xcb_dri3_util_deadline(t.c), -1),
                 XCB_PIXMAP);
    }
    test_note("20 round trips and 20 void checks took %lld ms", (long long)elapsed_ms(start));
    CHECK(elapsed_ms(start) < 2500);
    event_thread_stop(&et);
    /* The checked errors never reached the event thread. */
    CHECK_EQ(et.events, 1);
    bt_stop(&t);
    e2e_end(&t);
}
