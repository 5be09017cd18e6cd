/*
 * Every round trip of libxcb-dri3-util is bounded (issue 22, cases 3, 4
 * and 14): against a mock server that holds its answers, each function
 * gives up with ETIMEDOUT within the connection's timeout; late replies
 * are taken in with their fds closed; a pixmap whose creation timed out
 * is freed without an error reaching the event queue; a scope narrows the
 * bound and its cancel fd ends the call; and an event thread reading the
 * connection does not slow any call down.
 *
 * Bounds are generous: a 100-200 ms timeout must end the call within 3 s
 * (the server holds its answers for 5 s, which is what a blocking wait
 * would take).
 */
#include <sys/eventfd.h>
#include <unistd.h>

#include "buffer-test-util.h"
#include "util-internal/deadline.h"
#include "event-thread.h"

#define MS 1000000LL
#define DRI3 MOCK_DRI3_MAJOR

enum { X_FREE_PIXMAP = 54 };

static int64_t elapsed_ms(int64_t since)
{
    return (deadline_now_ns() - since) / MS;
}

/* ---- one call of each round-trip function, returning its errno --------- */

/* 0 if the call made the server object it returns the id of, else the
 * errno it failed with: read here, before any cleanup can change it. */
static int errno_unless_made(uint32_t id)
{
    return id == XCB_NONE ? errno : 0;
}

static int call_probe(struct e2e *t)
{
    return -xcb_dri3_util_probe(t->c, NULL);
}

static int call_device_open(struct e2e *t)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_device_t *d = xcb_dri3_util_device_open(t->c, t->root, 0, &err);
    int e = errno;

    CHECK(err == NULL);
    if (!d)
        return e;
    xcb_dri3_util_device_close(d);
    return 0;
}

static int call_get_supported_modifiers(struct e2e *t)
{
    uint64_t *wm = NULL, *sm = NULL;
    uint32_t nw, ns;
    int ret = xcb_dri3_util_modifiers_query(t->c, t->root, 24, 32, &wm, &nw, &sm, &ns,
                                            NULL);

    free(wm);
    free(sm);
    return -ret;
}

static int call_buffer_to_pixmap(struct e2e *t)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(8, 8, XRGB8888);
    int e;

    CHECK(b != NULL);
    e = errno_unless_made(xcb_dri3_util_buffer_to_pixmap(t->c, t->root, b, NULL));
    xcb_dri3_util_buffer_destroy(b);
    return e;
}

static int call_buffer_from_pixmap(struct e2e *t)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_from_pixmap(t->c, 0x00abcdef, NULL);
    int e = errno;

    xcb_dri3_util_buffer_destroy(b);
    return b ? 0 : e;
}

static int call_fence_to_server(struct e2e *t)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int e;

    CHECK(f != NULL);
    e = errno_unless_made(xcb_dri3_util_fence_to_server(t->c, t->root, f, NULL));
    xcb_dri3_util_fence_destroy(f);
    return e;
}

static int call_fence_from_server(struct e2e *t)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_from_server(t->c, t->root, 0x00abcdef, NULL);
    int e = errno;

    xcb_dri3_util_fence_destroy(f);
    return f ? 0 : e;
}

static int call_syncobj_import(struct e2e *t)
{
    int fd = test_memfd("syncobj-stand-in", 16, NULL);
    int e = errno_unless_made(xcb_dri3_util_syncobj_import(t->c, t->root, fd, NULL));

    close(fd);
    return e;
}

/*
 * The server (DRI3 dri3_version) holds everything from the answer to the
 * request `fault` names on for 5 s; the call, bounded at 100 ms, must give
 * up with ETIMEDOUT well before.  Before the fix every call blocked in
 * libxcb for the 5 s and then succeeded or failed on the server's word.
 */
static void check_stalled(const char *dri3_version, const char *fault, int (*call)(struct e2e *),
                          bool probe_first)
{
    int64_t start;
    struct e2e t;
    int e;

    e2e_start(&t, "dri3-version", dri3_version, "fault", fault, NULL);
    /* The probe that comes first gets all the time a loaded machine
     * (valgrind, a busy CI box) may need; only the call is held to
     * 100 ms. */
    if (probe_first) {
        CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
        CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);
    }
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 100 * MS), 0);
    start = deadline_now_ns();
    e = call(&t);
    test_note("%s: errno %d after %lld ms", fault, e, (long long)elapsed_ms(start));
    CHECK_EQ(e, ETIMEDOUT);
    CHECK(elapsed_ms(start) < 3000);
    /* The connection stays usable. */
    CHECK_EQ(xcb_connection_has_error(t.c), 0);
    bt_stop(&t);
    e2e_end(&t);
}

/* Which request the server holds, and the call that waits for it. */
static const struct stalled_case {
    const char *dri3_version, *fault;
    int (*call)(struct e2e *t);
    bool probe_first;           /* false: the call's own probe shares its bound */
} stalled_cases[] = {
    { "1.4", "stall:98:5000", call_probe, false },          /* QueryExtension */
    { "1.4", "stall:131.0:5000", call_probe, false },       /* DRI3 QueryVersion */
    { "1.4", "stall:131.1:5000", call_device_open, true },  /* case 4 */
    { "1.4", "stall:131.1:5000", call_device_open, false },
    { "1.4", "stall:131.6:5000", call_get_supported_modifiers, true },
    { "1.4", "stall:131.7:5000", call_buffer_to_pixmap, true },
    { "1.4", "stall:131.6:5000", call_buffer_to_pixmap, true }, /* its modifier query */
    { "1.0", "stall:131.2:5000", call_buffer_to_pixmap, true },
    { "1.4", "stall:131.8:5000", call_buffer_from_pixmap, true },
    { "1.0", "stall:131.3:5000", call_buffer_from_pixmap, true },
    { "1.4", "stall:131.4:5000", call_fence_to_server, true },
    { "1.4", "stall:131.5:5000", call_fence_from_server, true },
    { "1.4", "stall:131.10:5000", call_syncobj_import, true },
};

static void check_stalled_cases(size_t from, size_t to)
{
    for (size_t i = from; i < to && i < sizeof stalled_cases / sizeof stalled_cases[0]; i++) {
        const struct stalled_case *k = &stalled_cases[i];

        check_stalled(k->dri3_version, k->fault, k->call, k->probe_first);
    }
}

/* In two tests, each well inside the runner's per-test timeout. */
TEST(stalled_server_probe_device_modifiers)
{
    check_stalled_cases(0, 5);
}

TEST(stalled_server_buffers_fences_syncobjs)
{
    check_stalled_cases(5, SIZE_MAX);
}

/* ---- late replies --------------------------------------------------------- */

/* Case 4: DRI3 Open answered late.  The call gave up; the next one gets a
 * device of its own, and the late reply's fd is closed on the way. */
TEST(device_open_late_reply)
{
    xcb_dri3_util_device_t *d;
    struct e2e t;
    int fds_before;

    e2e_start(&t, "fault", "stall:131.1:600", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);    /* unhurried, then 200 ms */
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200 * MS), 0);
    fds_before = test_count_fds();
    errno = 0;
    CHECK(xcb_dri3_util_device_open(t.c, t.root, 0, NULL) == NULL);
    CHECK_EQ(errno, ETIMEDOUT);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    d = xcb_dri3_util_device_open(t.c, t.root, 0, NULL);
    CHECK(d != NULL);
    E2E_CHECK_MEMFD(d->fd, "mock-drm-device");
    CHECK_EQ(test_count_fds(), fds_before + 1);
    xcb_dri3_util_device_close(d);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_OPEN), 2);
    e2e_end(&t);
}

/* BuffersFromPixmap answered late: its fd is closed once it arrives. */
TEST(buffer_from_pixmap_late_reply)
{
    struct e2e t;
    xcb_pixmap_t p;
    int fds_before;

    e2e_start(&t, "fault", "stall:131.8:600", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);    /* unhurried, then 200 ms */
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200 * MS), 0);
    p = e2e_create_pixmap(&t, 8, 8);
    fds_before = test_count_fds();
    errno = 0;
    CHECK(xcb_dri3_util_buffer_from_pixmap(t.c, p, NULL) == NULL);
    CHECK_EQ(errno, ETIMEDOUT);
    e2e_sync(&t);   /* libxcb's blocking wait: the late reply is in */
    xcb_dri3_util_collect_abandoned(t.c);
    CHECK_EQ(test_count_fds(), fds_before);
    bt_stop(&t);
    e2e_end(&t);
}

/* ---- case 14: what the server may still create is freed ----------------- */

/* The pixmap of a PixmapFromBuffers whose round trip timed out: the server
 * makes it later, and the library frees it (a checked FreePixmap). */
TEST(timed_out_pixmap_is_freed)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(8, 8, XRGB8888);
    const struct mock_request_record *made, *freed;
    xcb_window_t w;
    struct e2e t;

    e2e_start(&t, "fault", "stall:131.7:600", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200 * MS), 0);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, w, b, NULL), XCB_NONE);
    CHECK_EQ(errno, ETIMEDOUT);
    e2e_sync(&t);
    xcb_dri3_util_collect_abandoned(t.c);
    CHECK(xcb_poll_for_event(t.c) == NULL);
    bt_stop(&t);
    made = e2e_request(&t, DRI3, XCB_DRI3_PIXMAP_FROM_BUFFERS, 0);
    freed = e2e_request(&t, X_FREE_PIXMAP, 0, 0);
    CHECK_EQ(e2e_u32(freed, 4), e2e_u32(made, 4));
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

/* When the server refuses the request after the wait gave up, neither
 * its error nor the FreePixmap's BadPixmap reaches the event queue. */
TEST(timed_out_pixmap_errors_are_swallowed)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(8, 8, XRGB8888);
    struct e2e t;

    /* DRI3 1.0: PixmapFromBuffer, no modifier query to fail first. */
    e2e_start(&t, "dri3-version", "1.0", "fault", "stall:131.2:600", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);    /* unhurried, then 200 ms */
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200 * MS), 0);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, 0x00abcdef, b, NULL), XCB_NONE);
    CHECK_EQ(errno, ETIMEDOUT);
    e2e_sync(&t);
    xcb_dri3_util_collect_abandoned(t.c);
    CHECK(xcb_poll_for_event(t.c) == NULL);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, X_FREE_PIXMAP, 0), 1);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}

/* The same for a fence (SYNC DestroyFence) and a syncobj (FreeSyncobj). */
TEST(timed_out_fence_and_syncobj_are_freed)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int fd = test_memfd("syncobj-stand-in", 16, NULL);
    struct e2e t;

    e2e_start(&t, "fault", "stall:131.4:600", "fault", "stall:131.10:600", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);    /* unhurried, then 200 ms */
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 200 * MS), 0);
    CHECK_EQ(xcb_dri3_util_fence_to_server(t.c, t.root, f, NULL), XCB_NONE);
    CHECK_EQ(errno, ETIMEDOUT);
    e2e_sync(&t);
    CHECK_EQ(xcb_dri3_util_syncobj_import(t.c, t.root, fd, NULL), XCB_NONE);
    CHECK_EQ(errno, ETIMEDOUT);
    e2e_sync(&t);
    xcb_dri3_util_collect_abandoned(t.c);
    CHECK(xcb_poll_for_event(t.c) == NULL);
    bt_stop(&t);
    CHECK_EQ(e2e_u32(e2e_request(&t, MOCK_SYNC_MAJOR, XCB_SYNC_DESTROY_FENCE, 0), 4),
             e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_FENCE_FROM_FD, 0), 8));
    CHECK_EQ(e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_FREE_SYNCOBJ, 0), 4),
             e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_IMPORT_SYNCOBJ, 0), 4));
    e2e_end(&t);
    close(fd);
    xcb_dri3_util_fence_destroy(f);
}

/* ---- scopes ------------------------------------------------------------- */

/* A library on top (the swapchain) caps this library's waits with its own
 * deadline, and ends them with its cancel fd. */
TEST(scope_caps_library_calls)
{
    xcb_dri3_util_wait_scope_t previous;
    int efd = eventfd(1, EFD_CLOEXEC);
    int64_t start;
    struct e2e t;

    CHECK(efd >= 0);
    e2e_start(&t, "fault", "stall:131.1:5000", NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 4000 * MS), 0);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);
    start = deadline_now_ns();
    previous = xcb_dri3_util_wait_scope_push(start + 200 * MS, -1);
    CHECK_EQ(call_device_open(&t), ETIMEDOUT);
    xcb_dri3_util_wait_scope_pop(previous);
    CHECK(elapsed_ms(start) < 3000);

    start = deadline_now_ns();
    previous = xcb_dri3_util_wait_scope_push(INT64_MAX, efd);
    CHECK_EQ(call_device_open(&t), ECANCELED);
    xcb_dri3_util_wait_scope_pop(previous);
    CHECK(elapsed_ms(start) < 3000);
    bt_stop(&t);
    e2e_end(&t);
    close(efd);
}

/* ---- another thread reading the connection ------------------------------ */

/* Case 5 on this library's side: with an event thread in
 * xcb_wait_for_event() and a bound of 5 s, every call still sees its reply
 * at once (a wait that slept to its deadline would take 5 s). */
TEST(event_thread_does_not_slow_calls)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(16, 16, XRGB8888), *back;
    struct event_thread et;
    xcb_dri3_util_device_t *d;
    xcb_pixmap_t p;
    xcb_window_t w;
    int64_t start;
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000 * MS), 0);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    event_thread_start(&et, t.c);
    start = deadline_now_ns();
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);
    d = xcb_dri3_util_device_open(t.c, w, 0, NULL);
    CHECK(d != NULL);
    p = xcb_dri3_util_buffer_to_pixmap(t.c, w, b, NULL);
    CHECK(p != XCB_NONE);
    back = xcb_dri3_util_buffer_from_pixmap(t.c, p, NULL);
    CHECK(back != NULL);
    test_note("probe, open, to_pixmap, from_pixmap: %lld ms", (long long)elapsed_ms(start));
    CHECK(elapsed_ms(start) < 2500);
    event_thread_stop(&et);
    CHECK_EQ(et.events, 1);
    xcb_dri3_util_buffer_destroy(back);
    xcb_dri3_util_device_close(d);
    bt_stop(&t);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(b);
}
