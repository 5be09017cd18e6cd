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

/* The request of `seq` is read off the wire and answered with an X error. */
static void refuse_request(xcb_connection_t *c, fake_server_t *srv, uint8_t major, uint8_t minor,
                           uint8_t code, uint32_t seq, uint32_t resource)
{
    CHECK(xcb_flush(c) > 0);
    skip_request(srv, major, minor);
    write_error(srv, code, seq, resource, minor, major);
}

/* ---- where the error goes: one row per request ---------------------------- */

/* Each row's request, sent with fd (a new memfd) where it carries one. */
static unsigned int send_dri3_query_version(xcb_connection_t *c, int fd)
{
    (void)fd;
    return xcb_dri3_query_version(c, 1, 4).sequence;
}

static unsigned int send_dri3_open(xcb_connection_t *c, int fd)
{
    (void)fd;
    return xcb_dri3_open(c, WINDOW, 0).sequence;
}

static unsigned int send_present_query_capabilities_unchecked(xcb_connection_t *c, int fd)
{
    (void)fd;
    return xcb_present_query_capabilities_unchecked(c, CRTC).sequence;
}

static unsigned int send_dri3_pixmap_from_buffer_checked(xcb_connection_t *c, int fd)
{
    return xcb_dri3_pixmap_from_buffer_checked(c, PIXMAP, WINDOW, 4096, 32, 32, 128, 24, 32,
                                               fd).sequence;
}

static unsigned int send_present_select_input(xcb_connection_t *c, int fd)
{
    (void)fd;
    return xcb_present_select_input(c, EID, WINDOW, 1).sequence;
}

static unsigned int send_dri3_fence_from_fd(xcb_connection_t *c, int fd)
{
    return xcb_dri3_fence_from_fd(c, WINDOW, FENCE, 0, fd).sequence;
}

/* The reply functions of the rows' requests that have a reply. */
static void *reply_dri3_query_version(xcb_connection_t *c, unsigned int seq,
                                      xcb_generic_error_t **e)
{
    return xcb_dri3_query_version_reply(c, (xcb_dri3_query_version_cookie_t){ seq }, e);
}

static void *reply_dri3_open(xcb_connection_t *c, unsigned int seq, xcb_generic_error_t **e)
{
    return xcb_dri3_open_reply(c, (xcb_dri3_open_cookie_t){ seq }, e);
}

static void *reply_present_query_capabilities(xcb_connection_t *c, unsigned int seq,
                                              xcb_generic_error_t **e)
{
    return xcb_present_query_capabilities_reply(
        c, (xcb_present_query_capabilities_cookie_t){ seq }, e);
}

/* The table in the comment at the top of this file. */
enum error_goes { TO_REPLY, TO_REQUEST_CHECK, TO_QUEUE };

static const struct refused_row {
    const char *name;
    unsigned int (*send)(xcb_connection_t *c, int fd);
    int with_fd;
    /* NULL for a void request */
    void *(*reply)(xcb_connection_t *c, unsigned int seq, xcb_generic_error_t **e);
    uint8_t major, minor;
    /* The error the server answers with. */
    uint8_t code;
    uint32_t resource;
    enum error_goes goes;
} refused_rows[] = {
    { "QueryVersion, checked", send_dri3_query_version, 0, reply_dri3_query_version,
      FAKE_DRI3_MAJOR, XCB_DRI3_QUERY_VERSION, XCB_VALUE, BAD_ID, TO_REPLY },
    { "Open (a reply with fds), checked", send_dri3_open, 0, reply_dri3_open, FAKE_DRI3_MAJOR,
      XCB_DRI3_OPEN, XCB_MATCH, 0, TO_REPLY },
    { "QueryCapabilities, unchecked", send_present_query_capabilities_unchecked, 0,
      reply_present_query_capabilities, FAKE_PRESENT_MAJOR, XCB_PRESENT_QUERY_CAPABILITIES,
      XCB_WINDOW, CRTC, TO_QUEUE },
    { "PixmapFromBuffer, checked", send_dri3_pixmap_from_buffer_checked, 1, NULL,
      FAKE_DRI3_MAJOR, XCB_DRI3_PIXMAP_FROM_BUFFER, XCB_ALLOC, 0, TO_REQUEST_CHECK },
    { "SelectInput, unchecked", send_present_select_input, 0, NULL, FAKE_PRESENT_MAJOR,
      XCB_PRESENT_SELECT_INPUT, XCB_MATCH, WINDOW, TO_QUEUE },
    { "FenceFromFD, unchecked", send_dri3_fence_from_fd, 1, NULL, FAKE_DRI3_MAJOR,
      XCB_DRI3_FENCE_FROM_FD, XCB_ID_CHOICE, FENCE, TO_QUEUE },
};

/* Every row on a new fake server: the server reads the request and answers
 * with an X error, which must turn up where the row says, and only there. */
TEST(error_goes_where_the_request_says)
{
    for (size_t i = 0; i < sizeof(refused_rows) / sizeof(refused_rows[0]); i++) {
        const struct refused_row *row = &refused_rows[i];
        xcb_generic_error_t *e = &wire_not_set;
        xcb_connection_t *c;
        fake_server_t *srv = fake_start(&c);
        int fd = row->with_fd ? test_memfd(row->name, 0, NULL) : -1;
        unsigned int seq = row->send(c, fd);

        /* Shown only if the test fails. */
        test_note("row %s", row->name);
        if (row->with_fd) {
            /* Sent, so libxcb has closed it. */
            CHECK(xcb_flush(c) > 0);
            CHECK_FD_CLOSED(fd);
        }
        refuse_request(c, srv, row->major, row->minor, row->code, seq, row->resource);

        if (row->reply) {
            CHECK(row->reply(c, seq, &e) == NULL);
            if (row->goes == TO_QUEUE)
                CHECK(e == NULL);
        }
        if (row->goes == TO_REQUEST_CHECK) {
            e = xcb_request_check(c, (xcb_void_cookie_t){ seq });
            expect_sync(srv);
        }
        if (row->goes == TO_QUEUE)
            e = (xcb_generic_error_t *)xcb_wait_for_event(c);
        CHECK_ERROR(e, row->code, seq, row->resource, row->major, row->minor);
        free(e);
        fake_stop(srv);     /* checks that nothing (more) reached the queue */
    }
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

/*
 * A server answers an fd-carrying request first with an X error and then
 * with a reply of the same sequence number whose byte 1 counts fds that it
 * does not send.  libxcb retires a request at its error, so it attaches no
 * fds to that reply; the fd array that xcb_get_reply_fds() points at would
 * lie past the reply's memory.  Both variants of these requests go out
 * checked in our libraries, so the reply function returns the error and
 * never the fd-less reply, and no fd of the program is touched.
 */
#ifdef XCBDP_HARDENED
struct error_then_reply {
    uint8_t minor;
    uint8_t nfd;            /* what byte 1 of the bogus reply claims */
    uint32_t length;        /* its length field, in 4-byte words */
};

static const struct error_then_reply error_then_reply_rows[] = {
    { XCB_DRI3_OPEN, 1, 0 },
    { XCB_DRI3_BUFFER_FROM_PIXMAP, 1, 0 },
    { XCB_DRI3_FD_FROM_FENCE, 1, 0 },
    { XCB_DRI3_BUFFERS_FROM_PIXMAP, 2, 4 },  /* two strides, two offsets */
};

static unsigned int send_fd_request(xcb_connection_t *c, uint8_t minor, int unchecked)
{
    switch (minor) {
    case XCB_DRI3_OPEN:
        return (unchecked ? xcb_dri3_open_unchecked : xcb_dri3_open)(c, WINDOW, 0).sequence;
    case XCB_DRI3_BUFFER_FROM_PIXMAP:
        return (unchecked ? xcb_dri3_buffer_from_pixmap_unchecked
                          : xcb_dri3_buffer_from_pixmap)(c, PIXMAP).sequence;
    case XCB_DRI3_FD_FROM_FENCE:
        return (unchecked ? xcb_dri3_fd_from_fence_unchecked
                          : xcb_dri3_fd_from_fence)(c, WINDOW, FENCE).sequence;
    default:
        return (unchecked ? xcb_dri3_buffers_from_pixmap_unchecked
                          : xcb_dri3_buffers_from_pixmap)(c, PIXMAP).sequence;
    }
}

static void *take_fd_reply(xcb_connection_t *c, uint8_t minor, unsigned int seq,
                           xcb_generic_error_t **e)
{
    switch (minor) {
    case XCB_DRI3_OPEN:
        return xcb_dri3_open_reply(c, (xcb_dri3_open_cookie_t){ seq }, e);
    case XCB_DRI3_BUFFER_FROM_PIXMAP:
        return xcb_dri3_buffer_from_pixmap_reply(
            c, (xcb_dri3_buffer_from_pixmap_cookie_t){ seq }, e);
    case XCB_DRI3_FD_FROM_FENCE:
        return xcb_dri3_fd_from_fence_reply(c, (xcb_dri3_fd_from_fence_cookie_t){ seq }, e);
    default:
        return xcb_dri3_buffers_from_pixmap_reply(
            c, (xcb_dri3_buffers_from_pixmap_cookie_t){ seq }, e);
    }
}
#endif

TEST(error_then_reply_without_fds)
{
#ifdef XCBDP_HARDENED
    enum { N_VICTIMS = 8 };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int victims[N_VICTIMS];
    struct fd_id victim_ids[N_VICTIMS];

    /* Fds of "another part of the program" that a read past the reply
     * could name: they must all stay open and unchanged. */
    for (int i = 0; i < N_VICTIMS; i++)
        victims[i] = test_memfd("victim", 0, &victim_ids[i]);

    for (size_t row = 0; row < sizeof(error_then_reply_rows) / sizeof(error_then_reply_rows[0]);
         row++) {
        const struct error_then_reply *t = &error_then_reply_rows[row];

        /* unchecked and checked variant, each with and without `e` */
        for (int v = 0; v < 4; v++) {
            int unchecked = v & 1, with_e = v & 2;
            xcb_generic_error_t *e = &wire_not_set;
            unsigned int seq = send_fd_request(c, t->minor, unchecked);
            struct wire rep = { 0 };

            refuse_request(c, srv, FAKE_DRI3_MAJOR, t->minor, XCB_MATCH, seq, 0);
            w_reply_head(&rep, t->nfd, seq, t->length);
            wpad(&rep, 24 + 4 * (size_t)t->length);
            fake_write_wire(srv, &rep, NULL, 0);
            wire_free(&rep);

            CHECK(take_fd_reply(c, t->minor, seq, with_e ? &e : NULL) == NULL);
            if (with_e) {
                CHECK_ERROR(e, XCB_MATCH, seq, 0, FAKE_DRI3_MAJOR, t->minor);
                free(e);
            }
            for (int i = 0; i < N_VICTIMS; i++)
                CHECK_FD_IS(victims[i], victim_ids[i]);
        }
    }
    check_still_usable(c, srv);
    fake_stop(srv);     /* and nothing reached the event queue */
    for (int i = 0; i < N_VICTIMS; i++)
        close(victims[i]);
#else
    SKIP("not a hardened build: the reference library hands out the fd-less reply");
#endif
}
