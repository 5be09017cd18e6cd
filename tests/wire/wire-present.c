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

static xcb_generic_error_t not_set;

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

typedef xcb_present_query_version_cookie_t (*query_version_fn)(xcb_connection_t *,
                                                               uint32_t, uint32_t);

TEST(present_query_version)
{
    static const query_version_fn variants[] = {
        xcb_present_query_version, xcb_present_query_version_unchecked,
    };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);

    for (size_t v = 0; v < 2; v++) {
        struct wire req = { 0 }, rep = { 0 };
        xcb_generic_error_t *e = &not_set;
        xcb_present_query_version_cookie_t ck = variants[v](c, 1, 4);
        xcb_present_query_version_reply_t *r;

        CHECK(xcb_flush(c) > 0);
        present_head(&req, 0, 3);
        w32(&req, 1);           /* major version */
        w32(&req, 4);           /* minor version */
        EXPECT_REQUEST(srv, &req, NULL, NULL);
        CHECK_EQ(ck.sequence, fake_seq(srv));

        w_reply_head(&rep, 0, fake_seq(srv), 0);
        w32(&rep, 1);           /* major version */
        w32(&rep, 3);           /* minor version */
        wpad(&rep, 16);         /* unused */
        fake_write_wire(srv, &rep, NULL, 0);

        r = xcb_present_query_version_reply(c, ck, &e);
        CHECK(r != NULL);
        CHECK(e == NULL);
        CHECK_EQ(r->response_type, 1);
        CHECK_EQ(r->sequence, (uint16_t)ck.sequence);
        CHECK_EQ(r->length, 0);
        CHECK_EQ(r->major_version, 1);
        CHECK_EQ(r->minor_version, 3);
        free(r);
        wire_free(&req);
        wire_free(&rep);
    }
    fake_stop(srv);
}

/* ---- Pixmap -------------------------------------------------------------- */

typedef xcb_void_cookie_t (*pixmap_fn)(xcb_connection_t *, xcb_window_t, xcb_pixmap_t,
                                       uint32_t, xcb_xfixes_region_t, xcb_xfixes_region_t,
                                       int16_t, int16_t, xcb_randr_crtc_t, xcb_sync_fence_t,
                                       xcb_sync_fence_t, uint32_t, uint64_t, uint64_t,
                                       uint64_t, uint32_t, const xcb_present_notify_t *);

static void check_present_pixmap(uint32_t n)
{
    static const pixmap_fn variants[] = { xcb_present_pixmap_checked, xcb_present_pixmap };
    const uint32_t options = XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_COPY |
                             XCB_PRESENT_OPTION_UST | XCB_PRESENT_OPTION_SUBOPTIMAL;
    xcb_present_notify_t *notifies = make_notifies(n);
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);

    for (size_t v = 0; v < 2; v++) {
        struct wire req = { 0 };
        const xcb_present_pixmap_request_t *R;
        xcb_void_cookie_t ck;

        ck = variants[v](c, WINDOW, PIXMAP, SERIAL, VALID, UPDATE, -5, 7, CRTC, WAIT_FENCE,
                         IDLE_FENCE, options, TARGET_MSC, DIVISOR, REMAINDER, n, notifies);
        CHECK(xcb_flush(c) > 0);
        present_head(&req, 1, (uint16_t)(18 + 2 * n));
        w32(&req, WINDOW);          /* window */
        w32(&req, PIXMAP);          /* pixmap */
        w32(&req, SERIAL);          /* serial */
        w32(&req, VALID);           /* valid-area */
        w32(&req, UPDATE);          /* update-area */
        w16(&req, 0xfffb);          /* x-off: -5 */
        w16(&req, 7);               /* y-off */
        w32(&req, CRTC);            /* target-crtc */
        w32(&req, WAIT_FENCE);      /* wait-fence */
        w32(&req, IDLE_FENCE);      /* idle-fence */
        w32(&req, 1 | 2 | 4 | 8);   /* options: Async Copy UST Suboptimal */
        wpad(&req, 4);              /* unused */
        w64(&req, TARGET_MSC);      /* target-msc */
        w64(&req, DIVISOR);         /* divisor */
        w64(&req, REMAINDER);       /* remainder */
        w_notifies(&req, notifies, n);  /* notifies */
        EXPECT_REQUEST(srv, &req, NULL, NULL);
        CHECK_EQ(ck.sequence, fake_seq(srv));

        /* The request-side accessors, on the bytes just proven right. */
        R = (const xcb_present_pixmap_request_t *)req.data;
        CHECK_EQ(xcb_present_pixmap_sizeof(R, n), 72 + 8 * n);
        CHECK((uint8_t *)xcb_present_pixmap_notifies(R) == req.data + 72);
        CHECK_EQ(xcb_present_pixmap_notifies_length(R), n);
        check_notify_iterator(xcb_present_pixmap_notifies_iterator(R),
                              xcb_present_pixmap_notifies(R), notifies, n);
        wire_free(&req);
    }
    free(notifies);
    fake_stop(srv);
}

TEST(present_pixmap_0_notifies)
{
    check_present_pixmap(0);
}

TEST(present_pixmap_1_notify)
{
    check_present_pixmap(1);
}

TEST(present_pixmap_3_notifies)
{
    check_present_pixmap(3);
}

TEST(present_pixmap_100_notifies)
{
    check_present_pixmap(100);
}

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

/* ---- PixmapSynced (Present 1.4) ------------------------------------------ */

#define ACQUIRE_SYNCOBJ 0x00200010u
#define RELEASE_SYNCOBJ 0x00200011u
#define ACQUIRE_POINT 0x0000000200000001ull
#define RELEASE_POINT 0x0000000200000002ull

#ifdef XCB_PRESENT_PIXMAP_SYNCED
typedef xcb_void_cookie_t (*pixmap_synced_fn)(
    xcb_connection_t *, xcb_window_t, xcb_pixmap_t, uint32_t, xcb_xfixes_region_t,
    xcb_xfixes_region_t, int16_t, int16_t, xcb_randr_crtc_t, xcb_dri3_syncobj_t,
    xcb_dri3_syncobj_t, uint64_t, uint64_t, uint32_t, uint64_t, uint64_t, uint64_t, uint32_t,
    const xcb_present_notify_t *);

static void check_present_pixmap_synced(uint32_t n)
{
    static const pixmap_synced_fn variants[] = {
        xcb_present_pixmap_synced_checked, xcb_present_pixmap_synced,
    };
    const uint32_t options = XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_ASYNC_MAY_TEAR;
    xcb_present_notify_t *notifies = make_notifies(n);
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);

    for (size_t v = 0; v < 2; v++) {
        struct wire req = { 0 };
        const xcb_present_pixmap_synced_request_t *R;
        xcb_void_cookie_t ck;

        ck = variants[v](c, WINDOW, PIXMAP, SERIAL, VALID, UPDATE, -5, 7, CRTC,
                         ACQUIRE_SYNCOBJ, RELEASE_SYNCOBJ, ACQUIRE_POINT, RELEASE_POINT,
                         options, TARGET_MSC, DIVISOR, REMAINDER, n, notifies);
        CHECK(xcb_flush(c) > 0);
        present_head(&req, 5, (uint16_t)(22 + 2 * n));
        w32(&req, WINDOW);          /* window */
        w32(&req, PIXMAP);          /* pixmap */
        w32(&req, SERIAL);          /* serial */
        w32(&req, VALID);           /* valid-area */
        w32(&req, UPDATE);          /* update-area */
        w16(&req, 0xfffb);          /* x-off: -5 */
        w16(&req, 7);               /* y-off */
        w32(&req, CRTC);            /* target-crtc */
        w32(&req, ACQUIRE_SYNCOBJ); /* acquire-syncobj */
        w32(&req, RELEASE_SYNCOBJ); /* release-syncobj */
        w64(&req, ACQUIRE_POINT);   /* acquire-point */
        w64(&req, RELEASE_POINT);   /* release-point */
        w32(&req, 1 | 16);          /* options: Async AsyncMayTear */
        wpad(&req, 4);              /* unused */
        w64(&req, TARGET_MSC);      /* target-msc */
        w64(&req, DIVISOR);         /* divisor */
        w64(&req, REMAINDER);       /* remainder */
        w_notifies(&req, notifies, n);  /* notifies */
        EXPECT_REQUEST(srv, &req, NULL, NULL);
        CHECK_EQ(ck.sequence, fake_seq(srv));

        R = (const xcb_present_pixmap_synced_request_t *)req.data;
        CHECK_EQ(xcb_present_pixmap_synced_sizeof(R, n), 88 + 8 * n);
        CHECK((uint8_t *)xcb_present_pixmap_synced_notifies(R) == req.data + 88);
        CHECK_EQ(xcb_present_pixmap_synced_notifies_length(R), n);
        check_notify_iterator(xcb_present_pixmap_synced_notifies_iterator(R),
                              xcb_present_pixmap_synced_notifies(R), notifies, n);
        wire_free(&req);
    }
    free(notifies);
    fake_stop(srv);
}
#endif

TEST(present_pixmap_synced_0_notifies)
{
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    check_present_pixmap_synced(0);
#else
    SKIP("the library has no Present 1.4 (PixmapSynced)");
#endif
}

TEST(present_pixmap_synced_3_notifies)
{
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    check_present_pixmap_synced(3);
#else
    SKIP("the library has no Present 1.4 (PixmapSynced)");
#endif
}

/* ---- NotifyMSC ----------------------------------------------------------- */

typedef xcb_void_cookie_t (*notify_msc_fn)(xcb_connection_t *, xcb_window_t, uint32_t,
                                           uint64_t, uint64_t, uint64_t);

TEST(present_notify_msc)
{
    static const notify_msc_fn variants[] = {
        xcb_present_notify_msc_checked, xcb_present_notify_msc,
    };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);

    for (size_t v = 0; v < 2; v++) {
        struct wire req = { 0 };
        xcb_void_cookie_t ck = variants[v](c, WINDOW, SERIAL, TARGET_MSC, DIVISOR, REMAINDER);

        CHECK(xcb_flush(c) > 0);
        present_head(&req, 2, 10);
        w32(&req, WINDOW);          /* window */
        w32(&req, SERIAL);          /* serial */
        wpad(&req, 4);              /* unused */
        w64(&req, TARGET_MSC);      /* target-msc */
        w64(&req, DIVISOR);         /* divisor */
        w64(&req, REMAINDER);       /* remainder */
        EXPECT_REQUEST(srv, &req, NULL, NULL);
        CHECK_EQ(ck.sequence, fake_seq(srv));
        wire_free(&req);
    }
    fake_stop(srv);
}

/* ---- SelectInput --------------------------------------------------------- */

typedef xcb_void_cookie_t (*select_input_fn)(xcb_connection_t *, xcb_present_event_t,
                                             xcb_window_t, uint32_t);

TEST(present_select_input)
{
    static const select_input_fn variants[] = {
        xcb_present_select_input_checked, xcb_present_select_input,
    };
    const uint32_t mask = XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
                          XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                          XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY |
                          XCB_PRESENT_EVENT_MASK_REDIRECT_NOTIFY;
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);

    for (size_t v = 0; v < 2; v++) {
        struct wire req = { 0 };
        xcb_void_cookie_t ck = variants[v](c, EID, WINDOW, mask);

        CHECK(xcb_flush(c) > 0);
        present_head(&req, 3, 4);
        w32(&req, EID);             /* event-id */
        w32(&req, WINDOW);          /* window */
        w32(&req, 1 | 2 | 4 | 8);   /* event-mask: all four */
        EXPECT_REQUEST(srv, &req, NULL, NULL);
        CHECK_EQ(ck.sequence, fake_seq(srv));
        wire_free(&req);
    }
    fake_stop(srv);
}

/* ---- QueryCapabilities --------------------------------------------------- */

typedef xcb_present_query_capabilities_cookie_t (*query_capabilities_fn)(xcb_connection_t *,
                                                                         uint32_t);

TEST(present_query_capabilities)
{
    static const query_capabilities_fn variants[] = {
        xcb_present_query_capabilities, xcb_present_query_capabilities_unchecked,
    };
    /* Every bit of Present 1.4: Async Fence UST AsyncMayTear Syncobj. */
    const uint32_t caps = 1 | 2 | 4 | 8 | 16;
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);

    for (size_t v = 0; v < 2; v++) {
        struct wire req = { 0 }, rep = { 0 };
        xcb_generic_error_t *e = &not_set;
        xcb_present_query_capabilities_cookie_t ck = variants[v](c, CRTC);
        xcb_present_query_capabilities_reply_t *r;

        CHECK(xcb_flush(c) > 0);
        present_head(&req, 4, 2);
        w32(&req, CRTC);            /* target */
        EXPECT_REQUEST(srv, &req, NULL, NULL);
        CHECK_EQ(ck.sequence, fake_seq(srv));

        w_reply_head(&rep, 0, fake_seq(srv), 0);
        w32(&rep, caps);            /* capabilities */
        wpad(&rep, 20);             /* unused */
        fake_write_wire(srv, &rep, NULL, 0);

        r = xcb_present_query_capabilities_reply(c, ck, &e);
        CHECK(r != NULL);
        CHECK(e == NULL);
        CHECK_EQ(r->response_type, 1);
        CHECK_EQ(r->sequence, (uint16_t)ck.sequence);
        CHECK_EQ(r->length, 0);
        CHECK_EQ(r->capabilities, caps);
        free(r);
        wire_free(&req);
        wire_free(&rep);
    }
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
    CHECK_EQ(sizeof(xcb_present_notify_t), 8);
    CHECK_EQ(sizeof(xcb_present_query_version_request_t), 12);
    CHECK_EQ(sizeof(xcb_present_query_version_reply_t), 16);
    CHECK_EQ(sizeof(xcb_present_pixmap_request_t), 72);
    CHECK_EQ(offsetof(xcb_present_pixmap_request_t, x_off), 24);
    CHECK_EQ(offsetof(xcb_present_pixmap_request_t, options), 40);
    CHECK_EQ(offsetof(xcb_present_pixmap_request_t, target_msc), 48);
    CHECK_EQ(offsetof(xcb_present_pixmap_request_t, remainder), 64);
    CHECK_EQ(sizeof(xcb_present_notify_msc_request_t), 40);
    CHECK_EQ(offsetof(xcb_present_notify_msc_request_t, target_msc), 16);
    CHECK_EQ(sizeof(xcb_present_select_input_request_t), 16);
    CHECK_EQ(sizeof(xcb_present_query_capabilities_request_t), 8);
    CHECK_EQ(offsetof(xcb_present_query_capabilities_reply_t, capabilities), 8);
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    CHECK_EQ(sizeof(xcb_present_pixmap_synced_request_t), 88);
    CHECK_EQ(offsetof(xcb_present_pixmap_synced_request_t, acquire_syncobj), 32);
    CHECK_EQ(offsetof(xcb_present_pixmap_synced_request_t, acquire_point), 40);
    CHECK_EQ(offsetof(xcb_present_pixmap_synced_request_t, release_point), 48);
    CHECK_EQ(offsetof(xcb_present_pixmap_synced_request_t, options), 56);
    CHECK_EQ(offsetof(xcb_present_pixmap_synced_request_t, target_msc), 64);
    CHECK_EQ(offsetof(xcb_present_pixmap_synced_request_t, remainder), 80);
#endif

    CHECK_EQ(offsetof(xcb_present_generic_event_t, event), 12);
    CHECK_EQ(offsetof(xcb_present_configure_notify_event_t, off_y), 30);
    CHECK_EQ(offsetof(xcb_present_configure_notify_event_t, full_sequence), 32);
    CHECK_EQ(offsetof(xcb_present_configure_notify_event_t, pixmap_width), 36);
    CHECK_EQ(offsetof(xcb_present_configure_notify_event_t, pixmap_flags), 40);
    CHECK_EQ(sizeof(xcb_present_configure_notify_event_t), 44);
    CHECK_EQ(offsetof(xcb_present_complete_notify_event_t, ust), 24);
    CHECK_EQ(offsetof(xcb_present_complete_notify_event_t, full_sequence), 32);
    CHECK_EQ(offsetof(xcb_present_complete_notify_event_t, msc), 36);
    CHECK_EQ(sizeof(xcb_present_complete_notify_event_t), 44);
    CHECK_EQ(offsetof(xcb_present_idle_notify_event_t, idle_fence), 28);
    CHECK_EQ(offsetof(xcb_present_idle_notify_event_t, full_sequence), 32);
    CHECK_EQ(sizeof(xcb_present_idle_notify_event_t), 36);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, serial), 28);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, full_sequence), 32);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, valid_region), 36);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, valid_rect), 44);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, x_off), 60);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, options), 76);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, target_msc), 84);
    CHECK_EQ(offsetof(xcb_present_redirect_notify_event_t, remainder), 100);
    CHECK_EQ(sizeof(xcb_present_redirect_notify_event_t), 108);
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
