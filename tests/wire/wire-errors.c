/*
 * Where an X error for a DRI3 or Present request ends up:
 *   request with a reply, checked (xcb_x)        -> xcb_x_reply(..., &e)
 *   request with a reply, xcb_x_unchecked        -> the event queue
 *   void request, xcb_x_checked                  -> xcb_request_check()
 *   void request, plain xcb_x                    -> the event queue
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "fake-server.h"
#include "test-runner.h"
#include "wire-util.h"

#define WINDOW 0x00400007u
#define PIXMAP 0x00200001u
#define FENCE 0x00200009u
#define CRTC 0x0000003fu
#define EID 0x00200006u
#define BAD_ID 0x0badc0deu

static xcb_generic_error_t not_set;

#define CHECK_ERROR(e, code, seq, resource, major, minor)                   \
    do {                                                                    \
        CHECK((e) != NULL);                                                 \
        CHECK_EQ((e)->response_type, 0);                                    \
        CHECK_EQ((e)->error_code, (code));                                  \
        CHECK_EQ((e)->sequence, (uint16_t)(seq));                           \
        CHECK_EQ((e)->resource_id, (resource));                             \
        CHECK_EQ((e)->minor_code, (minor));                                 \
        CHECK_EQ((e)->major_code, (major));                                 \
        CHECK_EQ((e)->full_sequence, (seq));                                \
    } while (0)

/* Reads the next request and checks only its opcodes: the bytes themselves
 * are the business of wire-dri3.c and wire-present.c. */
static void skip_request(fake_server_t *srv, uint8_t major, uint8_t minor)
{
    uint8_t req[256];
    int fds[FAKE_MAX_FDS], nfds;

    fake_read_request(srv, req, sizeof(req), fds, &nfds);
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
    CHECK_EQ(req[0], major);
    CHECK_EQ(req[1], minor);
}

static void write_error(fake_server_t *srv, uint8_t code, uint32_t seq, uint32_t resource,
                        uint16_t minor, uint8_t major)
{
    struct wire w = { 0 };

    w_error(&w, code, seq, resource, minor, major);
    fake_write_wire(srv, &w, NULL, 0);
    wire_free(&w);
}

/* xcb_request_check() makes sure the server has got that far by sending a
 * GetInputFocus (core opcode 43) and waiting for its reply, unless an error
 * answers first.  That is libxcb's core at work, the same under any binding,
 * but the fake server must read the request. */
static void expect_sync(fake_server_t *srv)
{
    struct wire want = { 0 };

    w8(&want, 43);              /* opcode: GetInputFocus */
    w8(&want, 0);               /* unused */
    w16(&want, 1);              /* request length */
    EXPECT_REQUEST(srv, &want, NULL, NULL);
    wire_free(&want);
}

TEST(error_reply_request_checked)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_generic_error_t *e = &not_set;
    xcb_dri3_query_version_cookie_t ck = xcb_dri3_query_version(c, 1, 4);

    CHECK(xcb_flush(c) > 0);
    skip_request(srv, FAKE_DRI3_MAJOR, XCB_DRI3_QUERY_VERSION);
    write_error(srv, XCB_VALUE, ck.sequence, BAD_ID, XCB_DRI3_QUERY_VERSION, FAKE_DRI3_MAJOR);

    CHECK(xcb_dri3_query_version_reply(c, ck, &e) == NULL);
    CHECK_ERROR(e, XCB_VALUE, ck.sequence, BAD_ID, FAKE_DRI3_MAJOR, XCB_DRI3_QUERY_VERSION);
    free(e);
    fake_stop(srv);     /* checks that the error did not reach the queue too */
}

TEST(error_reply_request_with_fds_checked)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_generic_error_t *e = &not_set;
    xcb_dri3_open_cookie_t ck = xcb_dri3_open(c, WINDOW, 0);

    CHECK(xcb_flush(c) > 0);
    skip_request(srv, FAKE_DRI3_MAJOR, XCB_DRI3_OPEN);
    write_error(srv, XCB_MATCH, ck.sequence, 0, XCB_DRI3_OPEN, FAKE_DRI3_MAJOR);

    CHECK(xcb_dri3_open_reply(c, ck, &e) == NULL);
    CHECK_ERROR(e, XCB_MATCH, ck.sequence, 0, FAKE_DRI3_MAJOR, XCB_DRI3_OPEN);
    free(e);
    fake_stop(srv);
}

TEST(error_reply_request_unchecked)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_generic_error_t *e = &not_set, *ev;
    xcb_present_query_capabilities_cookie_t ck = xcb_present_query_capabilities_unchecked(c,
                                                                                       CRTC);

    CHECK(xcb_flush(c) > 0);
    skip_request(srv, FAKE_PRESENT_MAJOR, XCB_PRESENT_QUERY_CAPABILITIES);
    write_error(srv, XCB_WINDOW, ck.sequence, CRTC, XCB_PRESENT_QUERY_CAPABILITIES,
                FAKE_PRESENT_MAJOR);

    CHECK(xcb_present_query_capabilities_reply(c, ck, &e) == NULL);
    CHECK(e == NULL);
    ev = (xcb_generic_error_t *)xcb_wait_for_event(c);
    CHECK_ERROR(ev, XCB_WINDOW, ck.sequence, CRTC, FAKE_PRESENT_MAJOR,
                XCB_PRESENT_QUERY_CAPABILITIES);
    free(ev);
    fake_stop(srv);
}

TEST(error_void_request_checked)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int fd = test_memfd("dri3-buffer", 0, NULL);
    xcb_void_cookie_t ck;
    xcb_generic_error_t *e;

    ck = xcb_dri3_pixmap_from_buffer_checked(c, PIXMAP, WINDOW, 4096, 32, 32, 128, 24, 32, fd);
    CHECK(xcb_flush(c) > 0);
    skip_request(srv, FAKE_DRI3_MAJOR, XCB_DRI3_PIXMAP_FROM_BUFFER);
    write_error(srv, XCB_ALLOC, ck.sequence, 0, XCB_DRI3_PIXMAP_FROM_BUFFER, FAKE_DRI3_MAJOR);

    e = xcb_request_check(c, ck);
    CHECK_ERROR(e, XCB_ALLOC, ck.sequence, 0, FAKE_DRI3_MAJOR, XCB_DRI3_PIXMAP_FROM_BUFFER);
    free(e);
    expect_sync(srv);
    fake_stop(srv);
}

TEST(error_void_request_checked_no_error)
{
    struct wire rep = { 0 };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_void_cookie_t ck = xcb_present_select_input_checked(c, EID, WINDOW, 0);

    CHECK(xcb_flush(c) > 0);
    skip_request(srv, FAKE_PRESENT_MAJOR, XCB_PRESENT_SELECT_INPUT);

    /* The reply to the GetInputFocus that xcb_request_check() is about to
     * send (the next sequence number) tells libxcb the request succeeded. */
    w_reply_head(&rep, 0, ck.sequence + 1, 0);     /* revert-to: None */
    w32(&rep, WINDOW);                              /* focus */
    wpad(&rep, 20);                                 /* unused */
    fake_write_wire(srv, &rep, NULL, 0);

    CHECK(xcb_request_check(c, ck) == NULL);
    expect_sync(srv);
    wire_free(&rep);
    fake_stop(srv);
}

TEST(error_void_request_unchecked)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_void_cookie_t ck = xcb_present_select_input(c, EID, WINDOW, 1);
    xcb_generic_error_t *ev;

    CHECK(xcb_flush(c) > 0);
    skip_request(srv, FAKE_PRESENT_MAJOR, XCB_PRESENT_SELECT_INPUT);
    write_error(srv, XCB_MATCH, ck.sequence, WINDOW, XCB_PRESENT_SELECT_INPUT,
                FAKE_PRESENT_MAJOR);

    ev = (xcb_generic_error_t *)xcb_wait_for_event(c);
    CHECK_ERROR(ev, XCB_MATCH, ck.sequence, WINDOW, FAKE_PRESENT_MAJOR,
                XCB_PRESENT_SELECT_INPUT);
    free(ev);
    fake_stop(srv);
}

TEST(error_void_request_with_fd_unchecked)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int fd = test_memfd("dri3-fence", 0, NULL);
    xcb_void_cookie_t ck = xcb_dri3_fence_from_fd(c, WINDOW, FENCE, 0, fd);
    xcb_generic_error_t *ev;

    CHECK(xcb_flush(c) > 0);
    CHECK_FD_CLOSED(fd);
    skip_request(srv, FAKE_DRI3_MAJOR, XCB_DRI3_FENCE_FROM_FD);
    write_error(srv, XCB_ID_CHOICE, ck.sequence, FENCE, XCB_DRI3_FENCE_FROM_FD,
                FAKE_DRI3_MAJOR);

    ev = (xcb_generic_error_t *)xcb_wait_for_event(c);
    CHECK_ERROR(ev, XCB_ID_CHOICE, ck.sequence, FENCE, FAKE_DRI3_MAJOR,
                XCB_DRI3_FENCE_FROM_FD);
    free(ev);
    fake_stop(srv);
}
