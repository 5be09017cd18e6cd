/*
 * The mock's fault injection against our libraries: every fault kind of
 * mock-server.h on a DRI3 reply that carries fds (Open, BufferFromPixmap)
 * and on a Present reply (QueryCapabilities).  Whatever the server does,
 * the client must see a clean outcome (the reply, an X error, or a broken
 * connection), never a crash, a hang (the runner's alarm) or a leaked fd
 * (the runner's fd check, after xcb_disconnect has released what libxcb
 * kept).
 *
 * Faults that leave the byte stream unusable are paired with close-after,
 * so that the client sees end-of-file instead of waiting forever for bytes
 * a broken server will never send: libxcb has no timeout of its own.
 *
 * Two faults make libxcb itself (1.15, the core our libraries link) lose an
 * fd where no caller can reach it, with Debian's extension libraries as
 * with ours: fds that came with half a reply stay in its input queue, and
 * extra fds make it shut the connection down while the parsed reply, fd
 * included, sits in its reply queue; xcb_disconnect() frees both without
 * closing.  Those tests close such fds themselves (at most one per broken
 * reply, and only the mock's) so that the runner's check still catches
 * any other leak.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xcb/dri3.h>
#include <xcb/present.h>

#include "e2e-util.h"
#include "test-runner.h"

#define DRI3 MOCK_DRI3_MAJOR
#define PRESENT MOCK_PRESENT_MAJOR
#define OPEN "131.1"
#define BUFFER_FROM_PIXMAP "131.3"
#define QUERY_CAPABILITIES "132.4"

/* DRI3 Open; the device fd, or -1 with *e set (or NULL when the connection
 * broke). */
static int open_device(struct e2e *t, xcb_generic_error_t **e)
{
    xcb_dri3_open_reply_t *r = xcb_dri3_open_reply(t->c, xcb_dri3_open(t->c, t->root, 0), e);
    int fd;

    if (!r)
        return -1;
    CHECK(*e == NULL);
    CHECK_EQ(r->nfd, 1);
    fd = xcb_dri3_open_reply_fds(t->c, r)[0];
    free(r);
    CHECK(fd >= 0);
    return fd;
}

/* QueryCapabilities of w: the capabilities, or -1 with *e set (or NULL
 * when the connection broke). */
static long query_caps(struct e2e *t, xcb_window_t w, xcb_generic_error_t **e)
{
    xcb_present_query_capabilities_reply_t *r =
        xcb_present_query_capabilities_reply(t->c, xcb_present_query_capabilities(t->c, w), e);
    long caps;

    if (!r)
        return -1;
    caps = (long)r->capabilities;
    free(r);
    return caps;
}

/* A failed reply that came with no X error: libxcb shut the connection
 * down. */
static void check_connection_broke(struct e2e *t, xcb_generic_error_t *e)
{
    if (e) {
        unsigned code = e->error_code;

        free(e);
        test_fail(__FILE__, __LINE__, "X error %u where the connection should break", code);
    }
    CHECK(xcb_connection_has_error(t->c) != 0);
}

/* After a failed reply: either an X error of code for the request, or
 * a connection that libxcb has shut down. */
static void check_clean_failure(struct e2e *t, xcb_generic_error_t *e, uint8_t code,
                                uint8_t major, uint8_t minor)
{
    if (e) {
        test_note("X error %u", e->error_code);
        E2E_CHECK_REPLY_ERROR(e, code, major, minor);
    } else {
        test_note("connection error %d", xcb_connection_has_error(t->c));
        CHECK(xcb_connection_has_error(t->c) != 0);
    }
}

/* The connection still works: the server answers the next request. */
static void check_usable(struct e2e *t)
{
    xcb_dri3_query_version_reply_t *r =
        xcb_dri3_query_version_reply(t->c, xcb_dri3_query_version(t->c, 1, 4), NULL);

    CHECK(r != NULL);
    CHECK_EQ(r->minor_version, 4);
    free(r);
}

/* The server has hung up: the next request gets no answer, at once. */
static void check_hung_up(struct e2e *t)
{
    xcb_generic_error_t *e = NULL;

    CHECK(xcb_dri3_query_version_reply(t->c, xcb_dri3_query_version(t->c, 1, 4), &e) == NULL);
    check_connection_broke(t, e);
}

/* ---- error ---------------------------------------------------------------- */

TEST(fault_error_instead_of_reply)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    xcb_window_t w;

    e2e_start(&t, "fault", "error:" OPEN ":11", "fault", "error:" QUERY_CAPABILITIES ":8",
              NULL);
    CHECK_EQ(open_device(&t, &e), -1);
    E2E_CHECK_REPLY_ERROR(e, XCB_ALLOC, DRI3, XCB_DRI3_OPEN);
    check_usable(&t);
    /* The fault fires once: the next Open works. */
    close(open_device(&t, &e));

    w = e2e_create_window(&t, 0, 0, 8, 8);
    e = NULL;
    CHECK_EQ(query_caps(&t, w, &e), -1);
    E2E_CHECK_REPLY_ERROR(e, XCB_MATCH, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES);
    check_usable(&t);
    e2e_stop(&t);
    CHECK(e2e_info_contains(&t, "fault"));
    e2e_end(&t);
}

/* ---- stall ---------------------------------------------------------------- */

/* A reply held back (well under the runner's alarm) still arrives, and so
 * does everything queued behind it. */
TEST(fault_stall)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    xcb_window_t w;
    int fd;

    e2e_start(&t, "fault", "stall:" OPEN ":400", "fault", "stall:" QUERY_CAPABILITIES ":400",
              NULL);
    fd = open_device(&t, &e);
    CHECK(fd >= 0);
    E2E_CHECK_MEMFD(fd, "mock-drm-device");
    close(fd);
    check_usable(&t);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK(query_caps(&t, w, &e) >= 0);
    check_usable(&t);
    e2e_stop(&t);
    e2e_end(&t);
}

/* ---- bad-event -------------------------------------------------------------- */

/* An event nobody knows lands in the ordinary event queue, not in a special
 * queue, and does not disturb the reply after it. */
TEST(fault_bad_event)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    xcb_generic_event_t *ev;
    xcb_special_event_t *se;
    xcb_window_t w;
    uint32_t eid;
    int fd;

    e2e_start(&t, "fault", "bad-event:" OPEN, "fault", "bad-event:" QUERY_CAPABILITIES, NULL);
    fd = open_device(&t, &e);
    CHECK(fd >= 0);
    E2E_CHECK_MEMFD(fd, "mock-drm-device");
    close(fd);

    w = e2e_create_window(&t, 0, 0, 8, 8);
    se = e2e_present_select(&t, w, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY, &eid);
    CHECK(query_caps(&t, w, &e) >= 0);
    for (int i = 0; i < 2; i++) {
        const xcb_ge_generic_event_t *ge;

        ev = xcb_poll_for_event(t.c);
        CHECK(ev != NULL);
        ge = (const xcb_ge_generic_event_t *)ev;
        CHECK_EQ(ev->response_type & 0x7f, XCB_GE_GENERIC);
        CHECK_EQ(ge->extension, PRESENT);
        CHECK_EQ(ge->event_type, 0xffff);
        free(ev);
    }
    CHECK(xcb_poll_for_special_event(t.c, se) == NULL);
    e2e_present_unselect(&t, se, w, eid);
    check_usable(&t);
    e2e_stop(&t);
    e2e_end(&t);
}

/* ---- close-after ------------------------------------------------------------- */

/* The reply comes whole (with its fd), then the server hangs up. */
TEST(fault_close_after)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    int fd;

    e2e_start(&t, "fault", "close-after:" OPEN, NULL);
    fd = open_device(&t, &e);
    if (fd >= 0) {
        E2E_CHECK_MEMFD(fd, "mock-drm-device");
        close(fd);
    } else {
        check_connection_broke(&t, e);
    }
    check_hung_up(&t);
    e2e_stop(&t);
    e2e_end(&t);

    e2e_start(&t, "fault", "close-after:" QUERY_CAPABILITIES, NULL);
    if (query_caps(&t, t.root, &e) < 0)
        check_connection_broke(&t, e);
    check_hung_up(&t);
    e2e_stop(&t);
    e2e_end(&t);
}

/* ---- close-mid-reply ----------------------------------------------------------- */

/* Half a reply, its fd already passed: no reply, a broken connection, and
 * the fd libxcb received is closed by xcb_disconnect. */
TEST(fault_close_mid_reply)
{
    struct e2e t;
    struct e2e_fd_set before;
    xcb_generic_error_t *e = NULL;
    xcb_dri3_buffer_from_pixmap_reply_t *r;

    e2e_fd_snapshot(&before);
    e2e_start(&t, "fault", "close-mid-reply:" OPEN, NULL);
    CHECK_EQ(open_device(&t, &e), -1);
    check_connection_broke(&t, e);
    e2e_stop(&t);
    e2e_end(&t);

    e2e_start(&t, "fault", "close-mid-reply:" BUFFER_FROM_PIXMAP, NULL);
    r = xcb_dri3_buffer_from_pixmap_reply(
        t.c, xcb_dri3_buffer_from_pixmap(t.c, e2e_create_pixmap(&t, 8, 8)), &e);
    CHECK(r == NULL);
    check_connection_broke(&t, e);
    e2e_stop(&t);
    e2e_end(&t);
    /* libxcb's, out of reach: see the top of the file. */
    CHECK(e2e_close_stray_fds(&before, "/memfd:mock-") <= 2);

    e2e_start(&t, "fault", "close-mid-reply:" QUERY_CAPABILITIES, NULL);
    CHECK_EQ(query_caps(&t, t.root, &e), -1);
    check_connection_broke(&t, e);
    e2e_stop(&t);
    e2e_end(&t);
}

/* ---- reply-length ------------------------------------------------------------- */

/* A length one word too long: the client waits for bytes that only the
 * hang-up ends, or refuses the reply; either way no fd escapes. */
TEST(fault_reply_length_too_long)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    int fd;

    e2e_start(&t, "fault", "reply-length:" OPEN ":1", "fault", "close-after:" OPEN, NULL);
    fd = open_device(&t, &e);
    if (fd >= 0) {
        test_note("the reply was taken with its extra word");
        close(fd);
    } else {
        check_clean_failure(&t, e, XCB_LENGTH, DRI3, XCB_DRI3_OPEN);
    }
    e2e_stop(&t);
    e2e_end(&t);

    e2e_start(&t, "fault", "reply-length:" QUERY_CAPABILITIES ":1", "fault",
              "close-after:" QUERY_CAPABILITIES, NULL);
    if (query_caps(&t, t.root, &e) < 0)
        check_clean_failure(&t, e, XCB_LENGTH, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES);
    e2e_stop(&t);
    e2e_end(&t);
}

/* A length one word too short for the lists the reply announces (one
 * plane: a stride and an offset, 2 words, claimed as 1): our
 * BuffersFromPixmap reply refuses it with BadLength and closes its fd.
 * The word left over stays unread in libxcb's buffer; nothing else is
 * asked for, so nothing waits for the rest of that "packet". */
TEST(fault_reply_length_too_short)
{
    enum { W = 8, H = 8, STRIDE = 32 };
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    xcb_window_t w;
    xcb_pixmap_t pixmap;
    int32_t fds[1];
    int before;

    e2e_start(&t, "fault", "reply-length:131.8:-1", NULL);
    w = e2e_create_window(&t, 0, 0, W, H);
    pixmap = xcb_generate_id(t.c);
    fds[0] = test_memfd("e2e-buffer", STRIDE * H, NULL);
    E2E_CHECK_OK(&t, xcb_dri3_pixmap_from_buffers_checked(t.c, pixmap, w, 1, W, H, STRIDE, 0, 0,
                                                          0, 0, 0, 0, 0, 24, 32,
                                                          0x00ffffffffffffffULL, fds));
    before = test_count_fds();
    CHECK(xcb_dri3_buffers_from_pixmap_reply(t.c, xcb_dri3_buffers_from_pixmap(t.c, pixmap),
                                             &e) == NULL);
    E2E_CHECK_REPLY_ERROR(e, XCB_LENGTH, DRI3, XCB_DRI3_BUFFERS_FROM_PIXMAP);
    CHECK_EQ(test_count_fds(), before);
    e2e_stop(&t);
    e2e_end(&t);
}

/* ---- fds ------------------------------------------------------------------------ */

/* More fds than the reply says: the reply keeps the one it announces. */
TEST(fault_extra_fds)
{
    struct e2e t;
    struct e2e_fd_set before;
    xcb_generic_error_t *e = NULL;
    xcb_dri3_buffer_from_pixmap_reply_t *r;
    int fd;

    e2e_fd_snapshot(&before);
    e2e_start(&t, "fault", "extra-fds:" OPEN ":2", NULL);
    fd = open_device(&t, &e);
    if (fd >= 0) {
        E2E_CHECK_MEMFD(fd, "mock-drm-device");
        close(fd);
    } else {
        check_clean_failure(&t, e, XCB_LENGTH, DRI3, XCB_DRI3_OPEN);
    }
    e2e_stop(&t);
    e2e_end(&t);

    e2e_start(&t, "fault", "extra-fds:" BUFFER_FROM_PIXMAP ":1", NULL);
    r = xcb_dri3_buffer_from_pixmap_reply(
        t.c, xcb_dri3_buffer_from_pixmap(t.c, e2e_create_pixmap(&t, 8, 8)), &e);
    if (r) {
        fd = xcb_dri3_buffer_from_pixmap_reply_fds(t.c, r)[0];
        free(r);
        E2E_CHECK_MEMFD(fd, "");
        close(fd);
    } else {
        check_clean_failure(&t, e, XCB_LENGTH, DRI3, XCB_DRI3_BUFFER_FROM_PIXMAP);
    }
    e2e_stop(&t);
    e2e_end(&t);
    /* libxcb's, out of reach: see the top of the file. */
    CHECK(e2e_close_stray_fds(&before, "/memfd:mock-") <= 2);
}

/* Fewer fds than the reply says: no reply, and nothing leaks.  libxcb
 * waits for the missing fd as long as the connection lives (tried: the
 * test hangs without close-after), so the server hangs up after the reply. */
TEST(fault_missing_fds)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;

    e2e_start(&t, "fault", "missing-fds:" OPEN ":1", "fault", "close-after:" OPEN, NULL);
    CHECK_EQ(open_device(&t, &e), -1);
    check_clean_failure(&t, e, XCB_LENGTH, DRI3, XCB_DRI3_OPEN);
    e2e_stop(&t);
    e2e_end(&t);
}

/* A pipe where a buffer should be: the client gets an fd it can inspect
 * and refuse (it cannot be mapped), and closes it. */
TEST(fault_wrong_fd)
{
    struct e2e t;
    xcb_generic_error_t *e = NULL;
    xcb_dri3_buffer_from_pixmap_reply_t *r;
    struct stat st;
    int fd;

    e2e_start(&t, "fault", "wrong-fd:" BUFFER_FROM_PIXMAP, "fault", "wrong-fd:" OPEN, NULL);
    r = xcb_dri3_buffer_from_pixmap_reply(
        t.c, xcb_dri3_buffer_from_pixmap(t.c, e2e_create_pixmap(&t, 8, 8)), &e);
    CHECK(r != NULL);
    fd = xcb_dri3_buffer_from_pixmap_reply_fds(t.c, r)[0];
    CHECK(fstat(fd, &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    CHECK(mmap(NULL, r->size, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED);
    free(r);
    close(fd);

    fd = open_device(&t, &e);
    CHECK(fd >= 0);
    CHECK(fstat(fd, &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    close(fd);
    check_usable(&t);
    e2e_stop(&t);
    e2e_end(&t);
}
