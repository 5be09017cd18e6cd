/*
 * Every Present request through our libxcb-present to the mock server and
 * back: the bytes the server received, the events it sent (through a
 * special event queue, as Mesa reads them), the errors it answers bad
 * requests with, capabilities, and version negotiation.
 */
#include <stdlib.h>

#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/sync.h>

#include "e2e-util.h"
#include "test-runner.h"

#define PRESENT MOCK_PRESENT_MAJOR
#define ALL_EVENTS                                                                      \
    (XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY | XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY | \
     XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY)

static uint32_t query_version(struct e2e *t, uint32_t major, uint32_t minor)
{
    xcb_present_query_version_reply_t *r = xcb_present_query_version_reply(
        t->c, xcb_present_query_version(t->c, major, minor), NULL);
    uint32_t v;

    CHECK(r != NULL);
    v = r->major_version << 16 | r->minor_version;
    free(r);
    return v;
}

/* PresentPixmap with no regions, offsets, CRTC or fences. */
static xcb_void_cookie_t present(struct e2e *t, xcb_window_t w, xcb_pixmap_t p, uint32_t serial,
                                 uint32_t options, uint64_t target, uint64_t divisor,
                                 uint64_t remainder)
{
    return xcb_present_pixmap_checked(t->c, w, p, serial, 0, 0, 0, 0, 0, 0, 0, options, target,
                                      divisor, remainder, 0, NULL);
}

/* As in e2e-dri3.c: the lower of the server's version and the client's,
 * and an error for a request newer than the server's version.  version NULL:
 * the mock's default. */
static void check_server_version(const char *version, uint32_t minor)
{
    struct e2e t;
    xcb_window_t w;

    e2e_start_version(&t, "present-version", version, &xcb_present_id, PRESENT);
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | minor);
    CHECK_EQ(query_version(&t, 1, 0), 1 << 16 | 0);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    if (minor < 4) {
        /* PixmapSynced is 1.4: a lower server does not know the request. */
        E2E_CHECK_ERROR(&t,
                        xcb_present_pixmap_synced_checked(t.c, w, e2e_create_pixmap(&t, 16, 16),
                                                          1, 0, 0, 0, 0, 0, 1, 1, 1, 2, 0, 0, 0,
                                                          0, 0, NULL),
                        XCB_REQUEST, PRESENT, XCB_PRESENT_PIXMAP_SYNCED);
    }
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | minor);
    e2e_stop(&t);
    /* The first request asked for 1.4, whatever the server answered. */
    E2E_CHECK_REQUEST(&t, PRESENT, XCB_PRESENT_QUERY_VERSION, 0, 12, 0, { 4, 4, 1 }, { 8, 4, 4 });
    e2e_end(&t);
}

TEST(present_version_negotiation)
{
    check_server_version(NULL, 4);
    check_server_version("1.0", 0);
    check_server_version("1.2", 2);
    check_server_version("1.4", 4);
}

static void check_caps(const char *caps, uint32_t want)
{
    struct e2e t;
    xcb_window_t w;
    xcb_present_query_capabilities_reply_t *r;

    test_note("present-caps %s", caps ? caps : "(default)");
    if (caps)
        e2e_start(&t, "present-caps", caps, NULL);
    else
        e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    r = xcb_present_query_capabilities_reply(t.c, xcb_present_query_capabilities(t.c, w), NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->capabilities, want);
    free(r);
    e2e_stop(&t);
    E2E_CHECK_REQUEST(&t, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES, 0, 8, 0, { 4, 4, w });
    e2e_end(&t);
}

TEST(present_query_capabilities)
{
    check_caps(NULL, XCB_PRESENT_CAPABILITY_ASYNC | XCB_PRESENT_CAPABILITY_FENCE |
                         XCB_PRESENT_CAPABILITY_UST | XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR |
                         XCB_PRESENT_CAPABILITY_SYNCOBJ);
    check_caps("none", XCB_PRESENT_CAPABILITY_NONE);
    check_caps("async", XCB_PRESENT_CAPABILITY_ASYNC);
    check_caps("fence", XCB_PRESENT_CAPABILITY_FENCE);
    check_caps("ust", XCB_PRESENT_CAPABILITY_UST);
    check_caps("async-may-tear", XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR);
    check_caps("syncobj", XCB_PRESENT_CAPABILITY_SYNCOBJ);
    check_caps("async,fence,ust", XCB_PRESENT_CAPABILITY_ASYNC | XCB_PRESENT_CAPABILITY_FENCE |
                                      XCB_PRESENT_CAPABILITY_UST);
}

/* A window whose Present events (mask) come to a special queue of their
 * own, on a new mock server. */
struct watched {
    struct e2e t;
    xcb_window_t w;
    xcb_special_event_t *se;
    uint32_t eid;
};

static void watch(struct watched *s, uint16_t size, uint32_t mask)
{
    e2e_start(&s->t, NULL);
    s->w = e2e_create_window(&s->t, 0, 0, size, size);
    s->se = e2e_present_select(&s->t, s->w, mask, &s->eid);
}

/* The orderly end: select nothing, unregister, stop the server. */
static void unwatch_and_stop(struct watched *s)
{
    e2e_present_unselect(&s->t, s->se, s->w, s->eid);
    e2e_stop(&s->t);
}

TEST(present_select_input)
{
    struct watched s;

    watch(&s, 16, ALL_EVENTS);
    /* No such window: BadWindow; a mask bit Present does not define:
     * BadValue. */
    E2E_CHECK_ERROR(&s.t,
                    xcb_present_select_input_checked(s.t.c, xcb_generate_id(s.t.c), 0x0badbad0,
                                                     ALL_EVENTS),
                    XCB_WINDOW, PRESENT, XCB_PRESENT_SELECT_INPUT);
    E2E_CHECK_ERROR(&s.t,
                    xcb_present_select_input_checked(s.t.c, xcb_generate_id(s.t.c), s.w, 0x100),
                    XCB_VALUE, PRESENT, XCB_PRESENT_SELECT_INPUT);
    unwatch_and_stop(&s);
    {
        const struct mock_request_record *rec =
            E2E_CHECK_REQUEST(&s.t, PRESENT, XCB_PRESENT_SELECT_INPUT, 0, 16, 0,
                              { 4, 4, s.eid }, { 8, 4, s.w }, { 12, 4, ALL_EVENTS });

        rec = e2e_request(&s.t, PRESENT, XCB_PRESENT_SELECT_INPUT, 3);
        CHECK_EQ(e2e_u32(rec, 4), s.eid);
        CHECK_EQ(e2e_u32(rec, 12), 0);
    }
    e2e_end(&s.t);
}

TEST(present_pixmap_complete_and_idle)
{
    struct watched s;
    xcb_pixmap_t p;
    uint64_t msc;
    xcb_present_complete_notify_event_t *complete;
    xcb_present_idle_notify_event_t *idle;

    watch(&s, 32, ALL_EVENTS);
    p = e2e_create_pixmap(&s.t, 32, 32);
    msc = e2e_current_msc(&s.t, s.se, s.w);
    E2E_CHECK_OK(&s.t, present(&s.t, s.w, p, 42, XCB_PRESENT_OPTION_NONE, msc + 1, 0, 0));
    /* IdleNotify may come before or after CompleteNotify. */
    e2e_wait_complete_and_idle(&s.t, s.se, &complete, &idle);
    CHECK_EQ(complete->kind, XCB_PRESENT_COMPLETE_KIND_PIXMAP);
    CHECK_EQ(complete->mode, XCB_PRESENT_COMPLETE_MODE_COPY);
    CHECK_EQ(complete->event, s.eid);
    CHECK_EQ(complete->window, s.w);
    CHECK_EQ(complete->serial, 42);
    /* At the target, or later if the request came late (under valgrind):
     * never before. */
    CHECK(complete->msc >= msc + 1);
    CHECK(complete->ust != 0);
    CHECK_EQ(idle->event, s.eid);
    CHECK_EQ(idle->window, s.w);
    CHECK_EQ(idle->serial, 42);
    CHECK_EQ(idle->pixmap, p);
    CHECK_EQ(idle->idle_fence, 0);
    free(complete);
    free(idle);
    unwatch_and_stop(&s);
    E2E_CHECK_REQUEST(&s.t, PRESENT, XCB_PRESENT_PIXMAP, 0, 72, 0, { 4, 4, s.w }, { 8, 4, p },
                      { 12, 4, 42 }, { 48, 8, msc + 1 }, { 56, 8, 0 }, { 64, 8, 0 });
    e2e_end(&s.t);
}

/* Every field of PresentPixmap, notifies included, arrives as sent. */
TEST(present_pixmap_fields)
{
    struct e2e t;
    xcb_window_t w, other;
    xcb_pixmap_t p;
    xcb_sync_fence_t wait_fence, idle_fence;

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 32, 32);
    other = e2e_create_window(&t, 40, 0, 32, 32);
    p = e2e_create_pixmap(&t, 32, 32);
    wait_fence = xcb_generate_id(t.c);
    idle_fence = xcb_generate_id(t.c);
    E2E_CHECK_OK(&t, xcb_sync_create_fence_checked(t.c, w, wait_fence, 1));
    E2E_CHECK_OK(&t, xcb_sync_create_fence_checked(t.c, w, idle_fence, 0));
    {
        const xcb_present_notify_t notifies[2] = { { other, 7 }, { other, 8 } };

        E2E_CHECK_OK(&t, xcb_present_pixmap_checked(t.c, w, p, 0x12345678, 0, 0, -3, 5, 0,
                                                    wait_fence, idle_fence,
                                                    XCB_PRESENT_OPTION_COPY, 0, 4, 1, 2,
                                                    notifies));
    }
    e2e_sync(&t);
    e2e_stop(&t);
    {
        const struct mock_request_record *rec = e2e_request(&t, PRESENT, XCB_PRESENT_PIXMAP, 0);

        E2E_CHECK_HEADER(rec, PRESENT, XCB_PRESENT_PIXMAP, 72 + 2 * 8, 0);
        CHECK_EQ(e2e_u32(rec, 4), w);
        CHECK_EQ(e2e_u32(rec, 8), p);
        CHECK_EQ(e2e_u32(rec, 12), 0x12345678);
        CHECK_EQ(e2e_u32(rec, 16), 0);                  /* valid: None */
        CHECK_EQ(e2e_u32(rec, 20), 0);                  /* update: None */
        CHECK_EQ((int16_t)e2e_u16(rec, 24), -3);
        CHECK_EQ((int16_t)e2e_u16(rec, 26), 5);
        CHECK_EQ(e2e_u32(rec, 28), 0);                  /* target CRTC */
        CHECK_EQ(e2e_u32(rec, 32), wait_fence);
        CHECK_EQ(e2e_u32(rec, 36), idle_fence);
        CHECK_EQ(e2e_u32(rec, 40), XCB_PRESENT_OPTION_COPY);
        CHECK_EQ(e2e_u64(rec, 48), 0);
        CHECK_EQ(e2e_u64(rec, 56), 4);
        CHECK_EQ(e2e_u64(rec, 64), 1);
        CHECK_EQ(e2e_u32(rec, 72), other);
        CHECK_EQ(e2e_u32(rec, 76), 7);
        CHECK_EQ(e2e_u32(rec, 80), other);
        CHECK_EQ(e2e_u32(rec, 84), 8);
    }
    e2e_end(&t);
}

TEST(present_notify_msc)
{
    struct watched s;
    xcb_present_complete_notify_event_t *ev;
    uint64_t msc;

    watch(&s, 16, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    msc = e2e_current_msc(&s.t, s.se, s.w);
    E2E_CHECK_OK(&s.t, xcb_present_notify_msc_checked(s.t.c, s.w, 77, msc + 2, 0, 0));
    ev = E2E_NEXT_PRESENT_EVENT(&s.t, s.se, XCB_PRESENT_COMPLETE_NOTIFY);
    CHECK_EQ(ev->kind, XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC);
    CHECK_EQ(ev->event, s.eid);
    CHECK_EQ(ev->window, s.w);
    CHECK_EQ(ev->serial, 77);
    /* At the target, or later if the request came late (under
     * valgrind): never before. */
    CHECK(ev->msc >= msc + 2);
    free(ev);
    unwatch_and_stop(&s);
    E2E_CHECK_REQUEST(&s.t, PRESENT, XCB_PRESENT_NOTIFY_MSC, 1, 40, 0, { 4, 4, s.w },
                      { 8, 4, 77 }, { 16, 8, msc + 2 }, { 24, 8, 0 }, { 32, 8, 0 });
    e2e_end(&s.t);
}

TEST(present_configure_notify)
{
    struct watched s;
    xcb_present_configure_notify_event_t *ev;
    const uint32_t geometry[] = { 10, 20, 50, 40 };

    watch(&s, 16, ALL_EVENTS);
    E2E_CHECK_OK(&s.t, xcb_configure_window_checked(s.t.c, s.w,
                                                    XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y |
                                                        XCB_CONFIG_WINDOW_WIDTH |
                                                        XCB_CONFIG_WINDOW_HEIGHT,
                                                    geometry));
    ev = E2E_NEXT_PRESENT_EVENT(&s.t, s.se, XCB_PRESENT_CONFIGURE_NOTIFY);
    CHECK_EQ(ev->event, s.eid);
    CHECK_EQ(ev->window, s.w);
    CHECK_EQ(ev->x, 10);
    CHECK_EQ(ev->y, 20);
    CHECK_EQ(ev->width, 50);
    CHECK_EQ(ev->height, 40);
    CHECK_EQ(ev->pixmap_flags & 1, 0);
    free(ev);
    unwatch_and_stop(&s);
    e2e_end(&s.t);
}

/* A destroyed window gets no CompleteNotify for what was pending; bit 0
 * of ConfigureNotify's pixmap_flags says why. */
TEST(present_window_destroyed)
{
    struct watched s;
    xcb_present_configure_notify_event_t *ev;
    xcb_generic_event_t *more;
    uint64_t msc;

    watch(&s, 16, ALL_EVENTS);
    msc = e2e_current_msc(&s.t, s.se, s.w);
    E2E_CHECK_OK(&s.t, xcb_present_notify_msc_checked(s.t.c, s.w, 5, msc + 600, 0, 0));
    E2E_CHECK_OK(&s.t, xcb_destroy_window_checked(s.t.c, s.w));
    ev = E2E_NEXT_PRESENT_EVENT(&s.t, s.se, XCB_PRESENT_CONFIGURE_NOTIFY);
    CHECK_EQ(ev->event, s.eid);
    CHECK_EQ(ev->window, s.w);
    CHECK_EQ(ev->pixmap_flags & 1, 1);
    free(ev);
    /* Nothing else comes for the window, within a few frames. */
    more = e2e_wait_special(&s.t, s.se, 100);
    CHECK(more == NULL);
    xcb_unregister_for_special_event(s.t.c, s.se);
    e2e_stop(&s.t);
    e2e_end(&s.t);
}

TEST(present_pixmap_errors)
{
    struct e2e t;
    xcb_window_t w;
    xcb_pixmap_t p;
    const xcb_query_extension_reply_t *sync;

    /* Everything but AsyncMayTear. */
    e2e_start(&t, "present-caps", "async,fence,ust", NULL);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    p = e2e_create_pixmap(&t, 16, 16);
    /* divisor 0 with a remainder, remainder >= divisor: BadValue */
    E2E_CHECK_ERROR(&t, present(&t, w, p, 1, 0, 0, 0, 1), XCB_VALUE, PRESENT,
                    XCB_PRESENT_PIXMAP);
    E2E_CHECK_ERROR(&t, present(&t, w, p, 2, 0, 0, 4, 4), XCB_VALUE, PRESENT,
                    XCB_PRESENT_PIXMAP);
    E2E_CHECK_ERROR(&t, present(&t, w, p, 3, 0, 0, 4, 9), XCB_VALUE, PRESENT,
                    XCB_PRESENT_PIXMAP);
    /* an option bit Present does not define */
    E2E_CHECK_ERROR(&t, present(&t, w, p, 4, 0x20, 0, 0, 0), XCB_VALUE, PRESENT,
                    XCB_PRESENT_PIXMAP);
    /* AsyncMayTear without the capability */
    E2E_CHECK_ERROR(&t,
                    present(&t, w, p, 5,
                            XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_ASYNC_MAY_TEAR, 0, 0,
                            0),
                    XCB_VALUE, PRESENT, XCB_PRESENT_PIXMAP);
    /* no such window, pixmap, fence */
    E2E_CHECK_ERROR(&t, present(&t, 0x0badbad0, p, 6, 0, 0, 0, 0), XCB_WINDOW, PRESENT,
                    XCB_PRESENT_PIXMAP);
    E2E_CHECK_ERROR(&t, present(&t, w, 0x0badbad0, 7, 0, 0, 0, 0), XCB_PIXMAP, PRESENT,
                    XCB_PRESENT_PIXMAP);
    sync = xcb_get_extension_data(t.c, &xcb_sync_id);
    CHECK(sync && sync->present);
    E2E_CHECK_ERROR(&t,
                    xcb_present_pixmap_checked(t.c, w, p, 8, 0, 0, 0, 0, 0, 0x0badbad0, 0, 0, 0,
                                               0, 0, 0, NULL),
                    sync->first_error + SYNC_BAD_FENCE, PRESENT, XCB_PRESENT_PIXMAP);
    E2E_CHECK_ERROR(&t,
                    xcb_present_pixmap_checked(t.c, w, p, 9, 0, 0, 0, 0, 0, 0, 0x0badbad0, 0, 0,
                                               0, 0, 0, NULL),
                    sync->first_error + SYNC_BAD_FENCE, PRESENT, XCB_PRESENT_PIXMAP);

    /* NotifyMSC checks divisor and remainder the same way. */
    E2E_CHECK_ERROR(&t, xcb_present_notify_msc_checked(t.c, w, 10, 0, 0, 1), XCB_VALUE, PRESENT,
                    XCB_PRESENT_NOTIFY_MSC);
    E2E_CHECK_ERROR(&t, xcb_present_notify_msc_checked(t.c, w, 11, 0, 3, 3), XCB_VALUE, PRESENT,
                    XCB_PRESENT_NOTIFY_MSC);
    E2E_CHECK_ERROR(&t, xcb_present_notify_msc_checked(t.c, 0x0badbad0, 12, 0, 0, 0),
                    XCB_WINDOW, PRESENT, XCB_PRESENT_NOTIFY_MSC);
    CHECK_EQ(query_version(&t, 1, 4), 1 << 16 | 4);
    e2e_stop(&t);
    e2e_end(&t);
}

/* With the capability, AsyncMayTear is accepted. */
TEST(present_async_may_tear)
{
    struct e2e t;
    xcb_window_t w;
    xcb_pixmap_t p;

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 16, 16);
    p = e2e_create_pixmap(&t, 16, 16);
    E2E_CHECK_OK(&t, present(&t, w, p, 1,
                             XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_ASYNC_MAY_TEAR, 0, 0,
                             0));
    e2e_stop(&t);
    e2e_end(&t);
}

static xcb_dri3_syncobj_t import_syncobj(struct e2e *t, struct fd_id *id)
{
    xcb_dri3_syncobj_t s = xcb_generate_id(t->c);
    int fd = test_memfd("e2e-syncobj", 4096, NULL);

    *id = FD_ID(fd);
    E2E_CHECK_OK(t, xcb_dri3_import_syncobj_checked(t->c, s, t->root, fd));
    return s;
}

static xcb_void_cookie_t present_synced(struct e2e *t, xcb_window_t w, xcb_pixmap_t p,
                                        uint32_t serial, xcb_dri3_syncobj_t acquire,
                                        xcb_dri3_syncobj_t release, uint64_t acquire_point,
                                        uint64_t release_point, uint64_t target)
{
    return xcb_present_pixmap_synced_checked(t->c, w, p, serial, 0, 0, 0, 0, 0, acquire,
                                             release, acquire_point, release_point, 0, target,
                                             0, 0, 0, NULL);
}

TEST(present_pixmap_synced)
{
    struct watched s;
    xcb_pixmap_t p;
    xcb_present_complete_notify_event_t *ev;
    xcb_generic_event_t *more;
    struct fd_id id;
    xcb_dri3_syncobj_t acquire, release;
    uint64_t msc;

    watch(&s, 16, ALL_EVENTS);
    p = e2e_create_pixmap(&s.t, 16, 16);
    acquire = import_syncobj(&s.t, &id);
    release = import_syncobj(&s.t, &id);
    msc = e2e_current_msc(&s.t, s.se, s.w);
    E2E_CHECK_OK(&s.t, present_synced(&s.t, s.w, p, 31, acquire, release, 1, 2, msc + 1));
    ev = E2E_NEXT_PRESENT_EVENT(&s.t, s.se, XCB_PRESENT_COMPLETE_NOTIFY);
    CHECK_EQ(ev->kind, XCB_PRESENT_COMPLETE_KIND_PIXMAP);
    CHECK_EQ(ev->serial, 31);
    CHECK_EQ(ev->window, s.w);
    CHECK(ev->msc >= msc + 1);
    free(ev);
    /* PixmapSynced sends no IdleNotify: the release point says it. */
    more = e2e_wait_special(&s.t, s.se, 100);
    CHECK(more == NULL);

    /* Points must be non-zero, and acquire < release on one syncobj. */
    E2E_CHECK_ERROR(&s.t, present_synced(&s.t, s.w, p, 32, acquire, release, 0, 2, 0),
                    XCB_VALUE, PRESENT, XCB_PRESENT_PIXMAP_SYNCED);
    E2E_CHECK_ERROR(&s.t, present_synced(&s.t, s.w, p, 33, acquire, release, 1, 0, 0),
                    XCB_VALUE, PRESENT, XCB_PRESENT_PIXMAP_SYNCED);
    E2E_CHECK_ERROR(&s.t, present_synced(&s.t, s.w, p, 34, acquire, acquire, 3, 3, 0),
                    XCB_VALUE, PRESENT, XCB_PRESENT_PIXMAP_SYNCED);
    /* A syncobj that was never imported. */
    E2E_CHECK_ERROR(&s.t, present_synced(&s.t, s.w, p, 35, 0x0badbad0, release, 1, 2, 0),
                    XCB_VALUE, PRESENT, XCB_PRESENT_PIXMAP_SYNCED);
    unwatch_and_stop(&s);
    E2E_CHECK_REQUEST(&s.t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED, 0, 88, 0, { 4, 4, s.w },
                      { 8, 4, p }, { 12, 4, 31 }, { 32, 4, acquire }, { 36, 4, release },
                      { 40, 8, 1 }, { 48, 8, 2 }, { 56, 4, 0 }, { 64, 8, msc + 1 });
    e2e_end(&s.t);
}
