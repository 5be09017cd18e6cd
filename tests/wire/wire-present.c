/*
 * Present requests and replies on the wire, checked against expectations
 * written from the encoding section of presentproto.txt (PixmapSynced from
 * the 1.4 text: 22 + 2n words, notifies at byte 88).
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <xcb/bigreq.h>
#include <xcb/present.h>

#include "fake-server.h"
#include "test-runner.h"
#include "wire-table.h"
#include "wire-util.h"

/* Arbitrary ids and values, distinct so that a misplaced field shows. */
#define WINDOW 0x00400007u
#define PIXMAP 0x00200001u
#define SERIAL 0x89abcdefu
#define VALID 0x00200002u
#define UPDATE 0x00200003u
#define CRTC 0x0000003fu
#define WAIT_FENCE 0x00200004u
#define IDLE_FENCE 0x00200005u
#define EID 0x00200006u
#define TARGET_MSC 0x0123456789abcdefull
#define DIVISOR 0x0000000100000002ull
#define REMAINDER 0x0000000100000001ull

static void present_head(struct wire *w, uint8_t opcode, uint16_t length)
{
    w8(w, FAKE_PRESENT_MAJOR);  /* major opcode */
    w8(w, opcode);              /* Present opcode */
    w16(w, length);             /* length */
}

/* n PresentNotify entries with distinct windows and serials. */
static xcb_present_notify_t *make_notifies(uint32_t n)
{
    xcb_present_notify_t *v = calloc(n ? n : 1, sizeof(*v));

    CHECK(v != NULL);
    for (uint32_t i = 0; i < n; i++) {
        v[i].window = 0x00600000u + i;
        v[i].serial = 0x80000000u + 3 * i;
    }
    return v;
}

static void w_notifies(struct wire *w, const xcb_present_notify_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        w32(w, v[i].window);    /* PresentNotify: window */
        w32(w, v[i].serial);    /* PresentNotify: serial */
    }
}

/* Walks a notify list through its iterator, comparing with want. */
static void check_notify_iterator(xcb_present_notify_iterator_t it,
                                  const xcb_present_notify_t *first,
                                  const xcb_present_notify_t *want, uint32_t n)
{
    xcb_generic_iterator_t end = xcb_present_notify_end(it);

    CHECK(it.data == first);
    CHECK_EQ(it.rem, n);
    CHECK(end.data == first + n);
    CHECK_EQ(end.rem, 0);
    for (uint32_t i = 0; i < n; i++) {
        CHECK(it.data == first + i);
        CHECK_EQ(it.data->window, want[i].window);
        CHECK_EQ(it.data->serial, want[i].serial);
        xcb_present_notify_next(&it);
    }
    CHECK_EQ(it.rem, 0);
}

/* ---- QueryVersion -------------------------------------------------------- */

WIRE_QUERY_VERSION_FUNCTIONS(present, FAKE_PRESENT_MAJOR, 3)

/* ---- Pixmap -------------------------------------------------------------- */

/* What PresentPixmap and PresentPixmapSynced both begin with: window
 * through target-crtc, as the rows send them. */
static void bytes_pixmap_target(struct wire *w)
{
    w32(w, WINDOW);             /* window */
    w32(w, PIXMAP);             /* pixmap */
    w32(w, SERIAL);             /* serial */
    w32(w, VALID);              /* valid-area */
    w32(w, UPDATE);             /* update-area */
    w16(w, 0xfffb);             /* x-off: -5 */
    w16(w, 7);                  /* y-off */
    w32(w, CRTC);               /* target-crtc */
}

/* ... and both end with: the unused word after the options, the timing,
 * and n notifies. */
static void bytes_pixmap_timing_and_notifies(struct wire *w, int n)
{
    xcb_present_notify_t *notifies = make_notifies((uint32_t)n);

    wpad(w, 4);                 /* unused */
    w64(w, TARGET_MSC);         /* target-msc */
    w64(w, DIVISOR);            /* divisor */
    w64(w, REMAINDER);          /* remainder */
    w_notifies(w, notifies, (uint32_t)n);   /* notifies */
    free(notifies);
}

/* The rows' arg is the number of notifies. */
static unsigned int send_pixmap(xcb_connection_t *c, int v, const int32_t *fds, int n)
{
    const uint32_t options = XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_COPY |
                             XCB_PRESENT_OPTION_UST | XCB_PRESENT_OPTION_SUBOPTIMAL;
    xcb_present_notify_t *notifies = make_notifies((uint32_t)n);
    unsigned int seq;

    (void)fds;
    seq = (v ? xcb_present_pixmap : xcb_present_pixmap_checked)(
              c, WINDOW, PIXMAP, SERIAL, VALID, UPDATE, -5, 7, CRTC, WAIT_FENCE, IDLE_FENCE,
              options, TARGET_MSC, DIVISOR, REMAINDER, (uint32_t)n, notifies)
              .sequence;
    free(notifies);
    return seq;
}

static void bytes_pixmap(struct wire *w, int v, int n)
{
    (void)v;
    present_head(w, 1, (uint16_t)(18 + 2 * n));
    bytes_pixmap_target(w);
    w32(w, WAIT_FENCE);         /* wait-fence */
    w32(w, IDLE_FENCE);         /* idle-fence */
    w32(w, 1 | 2 | 4 | 8);      /* options: Async Copy UST Suboptimal */
    bytes_pixmap_timing_and_notifies(w, n);
}

/* What a request's notify accessors give for the request's bytes, whose
 * n notifies follow a fixed part of `fixed` bytes: the request's size, the
 * list (its address, length and iterator). */
static void check_notify_accessors(const uint8_t *bytes, size_t fixed, uint32_t n, size_t size,
                                   const xcb_present_notify_t *list, int length,
                                   xcb_present_notify_iterator_t it)
{
    xcb_present_notify_t *notifies = make_notifies(n);

    CHECK_EQ(size, fixed + 8 * n);
    CHECK((const uint8_t *)list == bytes + fixed);
    CHECK_EQ(length, n);
    check_notify_iterator(it, list, notifies, n);
    free(notifies);
}

static void accessors_pixmap(const uint8_t *bytes, int arg)
{
    const xcb_present_pixmap_request_t *R = (const xcb_present_pixmap_request_t *)bytes;
    const uint32_t n = (uint32_t)arg;

    check_notify_accessors(bytes, 72, n, xcb_present_pixmap_sizeof(R, n),
                           xcb_present_pixmap_notifies(R), xcb_present_pixmap_notifies_length(R),
                           xcb_present_pixmap_notifies_iterator(R));
}

/* ---- PixmapSynced (Present 1.4) ------------------------------------------ */

#define ACQUIRE_SYNCOBJ 0x00200010u
#define RELEASE_SYNCOBJ 0x00200011u
#define ACQUIRE_POINT 0x0000000200000001ull
#define RELEASE_POINT 0x0000000200000002ull

#ifdef XCB_PRESENT_PIXMAP_SYNCED
static unsigned int send_pixmap_synced(xcb_connection_t *c, int v, const int32_t *fds, int n)
{
    const uint32_t options = XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_ASYNC_MAY_TEAR;
    xcb_present_notify_t *notifies = make_notifies((uint32_t)n);
    unsigned int seq;

    (void)fds;
    seq = (v ? xcb_present_pixmap_synced : xcb_present_pixmap_synced_checked)(
              c, WINDOW, PIXMAP, SERIAL, VALID, UPDATE, -5, 7, CRTC, ACQUIRE_SYNCOBJ,
              RELEASE_SYNCOBJ, ACQUIRE_POINT, RELEASE_POINT, options, TARGET_MSC, DIVISOR,
              REMAINDER, (uint32_t)n, notifies)
              .sequence;
    free(notifies);
    return seq;
}

static void bytes_pixmap_synced(struct wire *w, int v, int n)
{
    (void)v;
    present_head(w, 5, (uint16_t)(22 + 2 * n));
    bytes_pixmap_target(w);
    w32(w, ACQUIRE_SYNCOBJ);    /* acquire-syncobj */
    w32(w, RELEASE_SYNCOBJ);    /* release-syncobj */
    w64(w, ACQUIRE_POINT);      /* acquire-point */
    w64(w, RELEASE_POINT);      /* release-point */
    w32(w, 1 | 16);             /* options: Async AsyncMayTear */
    bytes_pixmap_timing_and_notifies(w, n);
}

static void accessors_pixmap_synced(const uint8_t *bytes, int arg)
{
    const xcb_present_pixmap_synced_request_t *R =
        (const xcb_present_pixmap_synced_request_t *)bytes;
    const uint32_t n = (uint32_t)arg;

    check_notify_accessors(bytes, 88, n, xcb_present_pixmap_synced_sizeof(R, n),
                           xcb_present_pixmap_synced_notifies(R),
                           xcb_present_pixmap_synced_notifies_length(R),
                           xcb_present_pixmap_synced_notifies_iterator(R));
}
#endif

/* ---- NotifyMSC ----------------------------------------------------------- */

static unsigned int send_notify_msc(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_present_notify_msc : xcb_present_notify_msc_checked)(
               c, WINDOW, SERIAL, TARGET_MSC, DIVISOR, REMAINDER)
        .sequence;
}

static void bytes_notify_msc(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    present_head(w, 2, 10);
    w32(w, WINDOW);             /* window */
    w32(w, SERIAL);             /* serial */
    wpad(w, 4);                 /* unused */
    w64(w, TARGET_MSC);         /* target-msc */
    w64(w, DIVISOR);            /* divisor */
    w64(w, REMAINDER);          /* remainder */
}

/* ---- SelectInput --------------------------------------------------------- */

static unsigned int send_select_input(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    const uint32_t mask = XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
                          XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                          XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY |
                          XCB_PRESENT_EVENT_MASK_REDIRECT_NOTIFY;

    (void)fds, (void)arg;
    return (v ? xcb_present_select_input : xcb_present_select_input_checked)(c, EID, WINDOW,
                                                                            mask)
        .sequence;
}

static void bytes_select_input(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    present_head(w, 3, 4);
    w32(w, EID);                /* event-id */
    w32(w, WINDOW);             /* window */
    w32(w, 1 | 2 | 4 | 8);      /* event-mask: all four */
}

/* ---- QueryCapabilities --------------------------------------------------- */

static unsigned int send_query_capabilities(xcb_connection_t *c, int v, const int32_t *fds,
                                            int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_present_query_capabilities_unchecked : xcb_present_query_capabilities)(
               c, CRTC)
        .sequence;
}

static void bytes_query_capabilities(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    present_head(w, 4, 2);
    w32(w, CRTC);               /* target */
}

static void reply_query_capabilities(xcb_connection_t *c, fake_server_t *srv,
                                     unsigned int seq, int arg)
{
    /* Every bit of Present 1.4: Async Fence UST AsyncMayTear Syncobj. */
    const uint32_t caps = 1 | 2 | 4 | 8 | 16;
    xcb_present_query_capabilities_cookie_t ck = { seq };
    xcb_generic_error_t *e = &wire_not_set;
    struct wire rep = { 0 };
    xcb_present_query_capabilities_reply_t *r;

    (void)arg;
    w_reply_head(&rep, 0, seq, 0);
    w32(&rep, caps);            /* capabilities */
    wpad(&rep, 20);             /* unused */
    fake_write_wire(srv, &rep, NULL, 0);
    wire_free(&rep);

    r = xcb_present_query_capabilities_reply(c, ck, &e);
    CHECK_REPLY_HEAD(r, e, seq, -1, 0);
    CHECK_EQ(r->capabilities, caps);
    free(r);
}

/* ---- the table ----------------------------------------------------------- */

static const struct wire_row present_requests[] = {
    { .name = "QueryVersion", .send = send_query_version, .bytes = bytes_query_version,
      .reply = reply_query_version },
    /* 0, 1, 3 and 100 notifies */
    { .name = "Pixmap", .send = send_pixmap, .bytes = bytes_pixmap, .arg = 0,
      .accessors = accessors_pixmap },
    { .name = "Pixmap", .send = send_pixmap, .bytes = bytes_pixmap, .arg = 1,
      .accessors = accessors_pixmap },
    { .name = "Pixmap", .send = send_pixmap, .bytes = bytes_pixmap, .arg = 3,
      .accessors = accessors_pixmap },
    { .name = "Pixmap", .send = send_pixmap, .bytes = bytes_pixmap, .arg = 100,
      .accessors = accessors_pixmap },
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    { .name = "PixmapSynced", .send = send_pixmap_synced, .bytes = bytes_pixmap_synced,
      .arg = 0, .accessors = accessors_pixmap_synced },
    { .name = "PixmapSynced", .send = send_pixmap_synced, .bytes = bytes_pixmap_synced,
      .arg = 3, .accessors = accessors_pixmap_synced },
#endif
    { .name = "NotifyMSC", .send = send_notify_msc, .bytes = bytes_notify_msc },
    { .name = "SelectInput", .send = send_select_input, .bytes = bytes_select_input },
    { .name = "QueryCapabilities", .send = send_query_capabilities,
      .bytes = bytes_query_capabilities, .reply = reply_query_capabilities },
};

/* Every request through both of its functions: bytes, sequence, reply, and
 * the request-side accessors on the bytes. */
TEST(present_requests)
{
    WIRE_RUN(present_requests);
}

#ifndef XCB_PRESENT_PIXMAP_SYNCED
TEST(present_pixmap_synced)
{
    SKIP("the library has no Present 1.4 (PixmapSynced)");
}
#endif

/* ---- Pixmap in the BIG-REQUESTS form --------------------------------- */

/*
 * A PresentPixmap longer than the setup's maximum-request-length goes out in
 * the BIG-REQUESTS form: length 0, then a 32-bit length that counts the extra
 * word.  The BIG-REQUESTS handshake is prefetched so that no step waits for
 * a reply that is not in the socket yet.
 */
TEST(present_pixmap_big_request)
{
    const uint32_t n = 3000;    /* 18 + 2n words, more than the setup allows */
    const uint8_t bigreq_major = 133;
    xcb_present_notify_t *notifies = make_notifies(n);
    struct wire req = { 0 }, enable = { 0 }, rep = { 0 };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_void_cookie_t ck;

    CHECK(18 + 2 * n > FAKE_MAX_REQUEST_WORDS);
    xcb_prefetch_extension_data(c, &xcb_big_requests_id);
    CHECK(xcb_flush(c) > 0);
    fake_answer_query_extension(srv, "BIG-REQUESTS", bigreq_major);

    xcb_prefetch_maximum_request_length(c);
    CHECK(xcb_flush(c) > 0);
    w8(&enable, bigreq_major);  /* major opcode */
    w8(&enable, 0);             /* BigReqEnable */
    w16(&enable, 1);            /* request length */
    EXPECT_REQUEST(srv, &enable, NULL, NULL);
    w_reply_head(&rep, 0, fake_seq(srv), 0);
    w32(&rep, 0x00100000);      /* maximum-request-length */
    wpad(&rep, 20);             /* unused */
    fake_write_wire(srv, &rep, NULL, 0);
    CHECK_EQ(xcb_get_maximum_request_length(c), 0x00100000);

    ck = xcb_present_pixmap(c, WINDOW, PIXMAP, SERIAL, VALID, UPDATE, 0, 0, CRTC, 0, 0,
                            XCB_PRESENT_OPTION_NONE, TARGET_MSC, 0, 0, n, notifies);
    CHECK(xcb_flush(c) > 0);
    present_head(&req, 1, 0);   /* length 0: BIG-REQUESTS */
    w32(&req, 18 + 2 * n + 1);  /* the real length, this word included */
    w32(&req, WINDOW);          /* window */
    w32(&req, PIXMAP);          /* pixmap */
    w32(&req, SERIAL);          /* serial */
    w32(&req, VALID);           /* valid-area */
    w32(&req, UPDATE);          /* update-area */
    w16(&req, 0);               /* x-off */
    w16(&req, 0);               /* y-off */
    w32(&req, CRTC);            /* target-crtc */
    w32(&req, 0);               /* wait-fence: None */
    w32(&req, 0);               /* idle-fence: None */
    w32(&req, 0);               /* options */
    wpad(&req, 4);              /* unused */
    w64(&req, TARGET_MSC);      /* target-msc */
    w64(&req, 0);               /* divisor */
    w64(&req, 0);               /* remainder */
    w_notifies(&req, notifies, n);  /* notifies */
    EXPECT_REQUEST(srv, &req, NULL, NULL);
    CHECK_EQ(ck.sequence, fake_seq(srv));

    free(notifies);
    wire_free(&req);
    wire_free(&enable);
    wire_free(&rep);
    fake_stop(srv);
}

/* ---- names, numbers and layouts that programs compile against ------------ */

TEST(present_constants)
{
    CHECK_EQ(XCB_PRESENT_QUERY_VERSION, 0);
    CHECK_EQ(XCB_PRESENT_PIXMAP, 1);
    CHECK_EQ(XCB_PRESENT_NOTIFY_MSC, 2);
    CHECK_EQ(XCB_PRESENT_SELECT_INPUT, 3);
    CHECK_EQ(XCB_PRESENT_QUERY_CAPABILITIES, 4);
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    CHECK_EQ(XCB_PRESENT_PIXMAP_SYNCED, 5);
    CHECK_EQ(XCB_PRESENT_MINOR_VERSION, 4);
#endif
    CHECK_EQ(XCB_PRESENT_MAJOR_VERSION, 1);

    CHECK_EQ(XCB_PRESENT_EVENT_CONFIGURE_NOTIFY, 0);
    CHECK_EQ(XCB_PRESENT_EVENT_COMPLETE_NOTIFY, 1);
    CHECK_EQ(XCB_PRESENT_EVENT_IDLE_NOTIFY, 2);
    CHECK_EQ(XCB_PRESENT_EVENT_REDIRECT_NOTIFY, 3);
    CHECK_EQ(XCB_PRESENT_CONFIGURE_NOTIFY, 0);
    CHECK_EQ(XCB_PRESENT_COMPLETE_NOTIFY, 1);
    CHECK_EQ(XCB_PRESENT_IDLE_NOTIFY, 2);
    CHECK_EQ(XCB_PRESENT_REDIRECT_NOTIFY, 3);

    CHECK_EQ(XCB_PRESENT_EVENT_MASK_NO_EVENT, 0);
    CHECK_EQ(XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY, 1);
    CHECK_EQ(XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY, 2);
    CHECK_EQ(XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY, 4);
    CHECK_EQ(XCB_PRESENT_EVENT_MASK_REDIRECT_NOTIFY, 8);

    CHECK_EQ(XCB_PRESENT_OPTION_NONE, 0);
    CHECK_EQ(XCB_PRESENT_OPTION_ASYNC, 1);
    CHECK_EQ(XCB_PRESENT_OPTION_COPY, 2);
    CHECK_EQ(XCB_PRESENT_OPTION_UST, 4);
    CHECK_EQ(XCB_PRESENT_OPTION_SUBOPTIMAL, 8);

    CHECK_EQ(XCB_PRESENT_CAPABILITY_NONE, 0);
    CHECK_EQ(XCB_PRESENT_CAPABILITY_ASYNC, 1);
    CHECK_EQ(XCB_PRESENT_CAPABILITY_FENCE, 2);
    CHECK_EQ(XCB_PRESENT_CAPABILITY_UST, 4);
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    CHECK_EQ(XCB_PRESENT_OPTION_ASYNC_MAY_TEAR, 16);
    CHECK_EQ(XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR, 8);
    CHECK_EQ(XCB_PRESENT_CAPABILITY_SYNCOBJ, 16);
#endif

    CHECK_EQ(XCB_PRESENT_COMPLETE_KIND_PIXMAP, 0);
    CHECK_EQ(XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC, 1);
    CHECK_EQ(XCB_PRESENT_COMPLETE_MODE_COPY, 0);
    CHECK_EQ(XCB_PRESENT_COMPLETE_MODE_FLIP, 1);
    CHECK_EQ(XCB_PRESENT_COMPLETE_MODE_SKIP, 2);
    CHECK_EQ(XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY, 3);
}

/* Requests and replies are laid over the wire bytes; events too, with the
 * 4-byte full_sequence libxcb inserts after the first 32 bytes. */
TEST(present_struct_layout)
{
    LAYOUT(xcb_present_notify_t, SIZEOF(8));
    LAYOUT(xcb_present_query_version_request_t, SIZEOF(12));
    LAYOUT(xcb_present_query_version_reply_t, SIZEOF(16));
    LAYOUT(xcb_present_pixmap_request_t, SIZEOF(72) OFFSET(x_off, 24) OFFSET(options, 40)
                                         OFFSET(target_msc, 48) OFFSET(remainder, 64));
    LAYOUT(xcb_present_notify_msc_request_t, SIZEOF(40) OFFSET(target_msc, 16));
    LAYOUT(xcb_present_select_input_request_t, SIZEOF(16));
    LAYOUT(xcb_present_query_capabilities_request_t, SIZEOF(8));
    LAYOUT(xcb_present_query_capabilities_reply_t, OFFSET(capabilities, 8));
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    LAYOUT(xcb_present_pixmap_synced_request_t, SIZEOF(88) OFFSET(acquire_syncobj, 32)
                                                OFFSET(acquire_point, 40) OFFSET(release_point, 48)
                                                OFFSET(options, 56) OFFSET(target_msc, 64)
                                                OFFSET(remainder, 80));
#endif

    LAYOUT(xcb_present_generic_event_t, OFFSET(event, 12));
    LAYOUT(xcb_present_configure_notify_event_t, OFFSET(off_y, 30) OFFSET(full_sequence, 32)
                                                 OFFSET(pixmap_width, 36) OFFSET(pixmap_flags, 40)
                                                 SIZEOF(44));
    LAYOUT(xcb_present_complete_notify_event_t, OFFSET(ust, 24) OFFSET(full_sequence, 32)
                                                OFFSET(msc, 36) SIZEOF(44));
    LAYOUT(xcb_present_idle_notify_event_t, OFFSET(idle_fence, 28) OFFSET(full_sequence, 32)
                                            SIZEOF(36));
    LAYOUT(xcb_present_redirect_notify_event_t, OFFSET(serial, 28) OFFSET(full_sequence, 32)
                                                OFFSET(valid_region, 36) OFFSET(valid_rect, 44)
                                                OFFSET(x_off, 60) OFFSET(options, 76)
                                                OFFSET(target_msc, 84) OFFSET(remainder, 100)
                                                SIZEOF(108));
}

TEST(present_event_iterator)
{
    xcb_present_event_t list[3] = { 0x10, 0x20, 0x30 };
    xcb_present_event_iterator_t it = { list, 3, 0 };
    xcb_generic_iterator_t end = xcb_present_event_end(it);

    CHECK(end.data == list + 3);
    CHECK_EQ(end.rem, 0);
    xcb_present_event_next(&it);
    CHECK(it.data == list + 1);
    CHECK_EQ(it.rem, 2);
    CHECK_EQ(*it.data, 0x20);
}
