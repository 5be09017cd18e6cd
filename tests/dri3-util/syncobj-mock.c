/*
 * Explicit sync against the mock server: ImportSyncobj / FreeSyncobj and
 * PresentPixmapSynced, gated on DRI3 1.4 and the Syncobj capability.  The
 * mock keeps an imported syncobj's fd without looking inside, so a memfd
 * stands in for a DRM syncobj here (a real one needs a DRM device).
 */
#include <stddef.h>
#include <unistd.h>
#include <xcb/xfixes.h>

#include "buffer-test-util.h"
#include "xcb_present_util.h"

enum { DRI3 = MOCK_DRI3_MAJOR, PRESENT = MOCK_PRESENT_MAJOR };

TEST(import_and_free)
{
    int fd = test_memfd("syncobj-stand-in", 16, NULL);
    struct fd_id id = FD_ID(fd);
    const struct mock_request_record *r;
    xcb_generic_error_t *err = (void *)1;
    struct e2e t;
    uint32_t s;

    e2e_start(&t, NULL);
    s = xcb_dri3_util_syncobj_import(t.c, t.root, fd, &err);
    CHECK(err == NULL);
    CHECK(s != XCB_NONE);
    CHECK_FD_IS(fd, id);        /* a dup went; ours stays */
    CHECK_EQ(xcb_dri3_util_syncobj_free(t.c, s), 0);
    e2e_sync(&t);
    bt_stop(&t);
    r = e2e_request(&t, DRI3, XCB_DRI3_IMPORT_SYNCOBJ, 0);
    CHECK_EQ(e2e_u32(r, 4), s);
    CHECK_EQ(e2e_u32(r, 8), t.root);
    E2E_CHECK_FD_RECORD(r, 0, id);
    CHECK_EQ(e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_FREE_SYNCOBJ, 0), 4), s);
    CHECK(e2e_info_contains(&t, "freed"));
    e2e_end(&t);
    close(fd);
}

TEST(import_refused)
{
    int fd = test_memfd("syncobj-stand-in", 16, NULL);
    xcb_generic_error_t *err = NULL;
    struct e2e t;

    e2e_start(&t, NULL);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_syncobj_import(t.c, 0x00abcdef, fd, &err), XCB_NONE);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, XCB_DRAWABLE);
    free(err);
    CHECK_EQ(xcb_dri3_util_syncobj_import(t.c, t.root, -1, &err), XCB_NONE);
    CHECK_EQ(errno, EBADF);
    e2e_sync(&t);
    bt_stop(&t);
    e2e_end(&t);

    /* DRI3 1.2: nothing sent */
    e2e_start(&t, "dri3-version", "1.2", NULL);
    CHECK_EQ(xcb_dri3_util_syncobj_import(t.c, t.root, fd, &err), XCB_NONE);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(err == NULL);
    CHECK_EQ(xcb_dri3_util_syncobj_free(t.c, 1), -ENOTSUP);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_IMPORT_SYNCOBJ), 0);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_FREE_SYNCOBJ), 0);
    e2e_end(&t);
    close(fd);
}

/* A window, a pixmap of a memfd buffer and two imported stand-ins. */
struct scene {
    xcb_window_t w;
    xcb_pixmap_t p;
    uint32_t acquire, release;
    xcb_dri3_util_buffer_t *b;
};

static void make_scene(struct e2e *t, struct scene *s)
{
    int fd = test_memfd("syncobj-stand-in", 16, NULL);

    s->w = e2e_create_window(t, 0, 0, 16, 16);
    s->b = xcb_dri3_util_buffer_create_memfd(16, 16, XRGB8888);
    CHECK(s->b != NULL);
    s->p = xcb_dri3_util_buffer_to_pixmap(t->c, s->w, s->b, NULL);
    CHECK(s->p != XCB_NONE);
    s->acquire = xcb_dri3_util_syncobj_import(t->c, s->w, fd, NULL);
    s->release = xcb_dri3_util_syncobj_import(t->c, s->w, fd, NULL);
    CHECK(s->acquire != XCB_NONE && s->release != XCB_NONE);
    close(fd);
}

/* Ends the session and the scene, after checking that the refused calls
 * sent no PixmapSynced. */
static void end_scene_with_nothing_sent(struct e2e *t, struct scene *s)
{
    e2e_sync(t);
    bt_stop(t);
    CHECK_EQ(e2e_count_requests(t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED), 0);
    e2e_end(t);
    xcb_dri3_util_buffer_destroy(s->b);
}

TEST(present_synced)
{
    const struct mock_request_record *r;
    xcb_void_cookie_t ck;
    struct scene s;
    struct e2e t;

    e2e_start(&t, NULL);
    make_scene(&t, &s);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 7, s.acquire, 1, s.release, 2, 0, 0,
                                             0, 0, &ck), 0);
    CHECK(xcb_request_check(t.c, ck) == NULL);
    /* the same syncobj for both, acquire before release */
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 8, s.acquire, 3, s.acquire, 4, 0, 0,
                                             0, 0, NULL), 0);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED), 2);
    r = e2e_request(&t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED, 0);
    CHECK_EQ(e2e_u32(r, 4), s.w);
    CHECK_EQ(e2e_u32(r, 8), s.p);
    CHECK_EQ(e2e_u32(r, 12), 7);
    CHECK_EQ(r->length, 88);        /* 22 words, no notifies */
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(s.b);
}

/* Points the server would refuse, refused here with nothing sent. */
TEST(present_synced_bad_points)
{
    struct scene s;
    struct e2e t;

    e2e_start(&t, NULL);
    make_scene(&t, &s);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 0, s.release, 2, 0, 0,
                                             0, 0, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 1, s.release, 0, 0, 0,
                                             0, 0, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 5, s.acquire, 5, 0, 0,
                                             0, 0, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 1, s.release, 2, 0, 0,
                                             0, 1, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 1, s.release, 2, 0, 0,
                                             2, 2, NULL), -EINVAL);
    end_scene_with_nothing_sent(&t, &s);
}

/* Without the Syncobj capability, or with Present 1.3: ENOTSUP, nothing
 * sent. */
TEST(present_synced_gated)
{
    struct scene s;
    struct e2e t;

    e2e_start(&t, "present-caps", "async,fence,ust", NULL);
    make_scene(&t, &s);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 1, s.release, 2, 0, 0,
                                             0, 0, NULL), -ENOTSUP);
    end_scene_with_nothing_sent(&t, &s);

    e2e_start(&t, "present-version", "none", NULL);
    CHECK_EQ(xcb_present_util_present_synced(t.c, t.root, 1, 1, 1, 1, 2, 2, 0, 0, 0, 0, NULL),
             -ENOTSUP);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(count_major(&t, PRESENT), 0);
    e2e_end(&t);
}

/* ---- xcb_present_util_present_pixmap_synced() -------------------------- */

/* QueryCapabilities requests about window w in the transcript. */
static size_t count_caps_queries(struct e2e *t, xcb_window_t w)
{
    const struct mock_request_record *r;
    size_t n = 0;

    for (size_t i = 0;
         (r = mock_transcript_find(t->transcript, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES, i));
         i++)
        n += e2e_u32(r, 4) == w;
    return n;
}

/* A presentation with every field set, valid for the mock's scene. */
static void full_args(const struct scene *s, xcb_present_util_synced_t *a)
{
    xcb_present_util_synced_init(a);
    a->window = s->w;
    a->pixmap = s->p;
    a->serial = 41;
    a->x_off = -3;
    a->y_off = 5;
    a->target_crtc = 0x00c0ffee;
    a->acquire_syncobj = s->acquire;
    a->release_syncobj = s->release;
    a->acquire_point = 0x100000007ULL;
    a->release_point = 0x200000009ULL;
    a->options = XCB_PRESENT_OPTION_COPY | XCB_PRESENT_OPTION_UST;
    a->target_msc = 0x1234567890ULL;
    a->divisor = 7;
    a->remainder = 3;
}

TEST(present_pixmap_synced_sends_every_field)
{
    const struct mock_request_record *r;
    xcb_present_notify_t notify;
    xcb_present_util_synced_t a;
    xcb_void_cookie_t ck;
    xcb_xfixes_region_t region;
    xcb_rectangle_t rect = { 1, 2, 3, 4 };
    struct scene s;
    struct e2e t;

    e2e_start(&t, "xfixes", "on", NULL);
    make_scene(&t, &s);
    free(xcb_xfixes_query_version_reply(t.c, xcb_xfixes_query_version(t.c, 5, 0), NULL));
    region = xcb_generate_id(t.c);
    xcb_xfixes_create_region(t.c, region, 1, &rect);
    notify = (xcb_present_notify_t){ e2e_create_window(&t, 0, 0, 8, 8), 99 };
    full_args(&s, &a);
    a.update = region;
    a.valid = region;
    a.notifies = &notify;
    a.n_notifies = 1;
    CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, &ck), 0);
    CHECK(xcb_request_check(t.c, ck) == NULL);
    e2e_sync(&t);
    bt_stop(&t);
    r = e2e_request(&t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED, 0);
    CHECK(r != NULL);
    CHECK_EQ(r->length, 88 + 8);
    CHECK_EQ(e2e_u32(r, 4), s.w);
    CHECK_EQ(e2e_u32(r, 8), s.p);
    CHECK_EQ(e2e_u32(r, 12), 41);
    CHECK_EQ(e2e_u32(r, 16), region);
    CHECK_EQ(e2e_u32(r, 20), region);
    CHECK_EQ((int16_t)e2e_u16(r, 24), -3);
    CHECK_EQ((int16_t)e2e_u16(r, 26), 5);
    CHECK_EQ(e2e_u32(r, 28), 0x00c0ffee);
    CHECK_EQ(e2e_u32(r, 32), s.acquire);
    CHECK_EQ(e2e_u32(r, 36), s.release);
    CHECK_EQ(e2e_u64(r, 40), 0x100000007ULL);
    CHECK_EQ(e2e_u64(r, 48), 0x200000009ULL);
    CHECK_EQ(e2e_u32(r, 56), XCB_PRESENT_OPTION_COPY | XCB_PRESENT_OPTION_UST);
    CHECK_EQ(e2e_u64(r, 64), 0x1234567890ULL);
    CHECK_EQ(e2e_u64(r, 72), 7);
    CHECK_EQ(e2e_u64(r, 80), 3);
    CHECK_EQ(e2e_u32(r, 88), notify.window);
    CHECK_EQ(e2e_u32(r, 92), 99);
    CHECK(e2e_info_contains(&t, "update"));
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(s.b);
}

/* The window's own capabilities decide, not the root's; a frame loop on
 * one window asks once, and another window replaces the cached answer. */
TEST(present_pixmap_synced_asks_the_window)
{
    xcb_present_util_synced_t a;
    xcb_void_cookie_t ck;
    struct scene s;
    struct e2e t;

    e2e_start(&t, "present-window-caps", "async,fence,ust", NULL);
    make_scene(&t, &s);
    full_args(&s, &a);
    CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, NULL), -ENOTSUP);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_present_util_present_synced(t.c, s.w, s.p, 1, s.acquire, 1, s.release, 2, 0, 0,
                                             0, 0, NULL), -ENOTSUP);
    /* the root has the capability: there it goes */
    CHECK_EQ(xcb_present_util_present_synced(t.c, t.root, s.p, 1, s.acquire, 1, s.release, 2, 0,
                                             0, 0, 0, &ck), 0);
    CHECK(xcb_request_check(t.c, ck) == NULL);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED), 1);
    CHECK_EQ(e2e_u32(e2e_request(&t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED, 0), 4), t.root);
    CHECK_EQ(count_caps_queries(&t, s.w), 1);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(s.b);

    e2e_start(&t, NULL);
    make_scene(&t, &s);
    full_args(&s, &a);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, NULL), 0);
    a.window = e2e_create_window(&t, 0, 0, 16, 16);
    CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, NULL), 0);
    a.window = s.w;
    CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, NULL), 0);
    /* a window that does not exist: refused by the capability query */
    a.window = 0x00abcdef;
    CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, NULL), -ENODEV);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_PIXMAP_SYNCED), 5);
    CHECK_EQ(count_caps_queries(&t, s.w), 2);
    e2e_end(&t);
    xcb_dri3_util_buffer_destroy(s.b);
}

/* One way of spoiling a valid presentation per `how`, each of which the
 * server would refuse with BadValue (or libxcb could not send); false past
 * the last. */
static bool spoil(xcb_present_util_synced_t *a, int how)
{
    switch (how) {
    case 0: a->size = offsetof(xcb_present_util_synced_t, n_notifies); break;
    case 1: a->options = 1u << 7; break;
    case 2: a->options = XCB_PRESENT_OPTION_ASYNC_MAY_TEAR; break; /* the window lacks it */
    case 3: a->n_notifies = 1; break;                               /* notifies NULL */
    case 4: a->remainder = a->divisor; break;
    case 5: a->divisor = 0; break;
    case 6: a->release_syncobj = a->acquire_syncobj, a->release_point = a->acquire_point; break;
    case 7: a->acquire_point = 0; break;
    case 8: a->release_syncobj = XCB_NONE; break;
    default: return false;
    }
    return true;
}

/* What the server would refuse with BadValue: -EINVAL, nothing sent. */
TEST(present_pixmap_synced_bad_values)
{
    xcb_present_util_synced_t a;
    struct scene s;
    struct e2e t;

    e2e_start(&t, "present-window-caps", "async,fence,ust,syncobj", NULL);
    make_scene(&t, &s);
    CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, NULL, NULL), -EINVAL);
    for (int how = 0; full_args(&s, &a), spoil(&a, how); how++) {
        test_note("spoiled: %d", how);
        CHECK_EQ(xcb_present_util_present_pixmap_synced(t.c, &a, NULL), -EINVAL);
    }
    end_scene_with_nothing_sent(&t, &s);
}
