/*
 * The device and the modifier lists against the mock server.  The mock's
 * DRI3 Open hands out a memfd, which is no DRM device: the device must say
 * so rather than guess.
 */
#include <fcntl.h>
#include <unistd.h>

#include "buffer-test-util.h"

enum { DRI3 = MOCK_DRI3_MAJOR };

TEST(open_gives_a_memfd)
{
    xcb_generic_error_t *err = (void *)1;
    xcb_dri3_util_device_t *d;
    struct e2e t;

    e2e_start(&t, NULL);
    d = xcb_dri3_util_device_open(t.c, t.root, 0, &err);
    CHECK(err == NULL);
    CHECK(d != NULL);
    E2E_CHECK_MEMFD(d->fd, "mock-drm-device");
    CHECK(!d->is_drm);
    CHECK(!d->is_render_node);
    CHECK(!d->swapped);
    CHECK(strcmp(d->kind, "memfd") == 0);
    CHECK(strstr(d->note, "not a DRM device") != NULL);
    CHECK(strstr(d->note, "mock-drm-device") != NULL);
    CHECK_EQ(d->driver[0], 0);
    CHECK_EQ(d->render_node[0], 0);
    CHECK_EQ(d->bus_type, -1);
    CHECK_EQ(d->vendor_id, 0);
    test_note("note: %s", d->note);
    /* Two memfds are no GPUs to compare. */
    CHECK_EQ(xcb_dri3_util_device_same(d->fd, d->fd), -ENODEV);
    CHECK_EQ(xcb_dri3_util_device_same(d->fd, -1), -EBADF);
    /* SetDRMDeviceInUse needs a device number: nothing sent. */
    CHECK_EQ(xcb_dri3_util_device_set_in_use(t.c, t.root, d), -ENODEV);
    xcb_dri3_util_device_close(d);
    xcb_dri3_util_device_close(NULL);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_OPEN), 1);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_SET_DRM_DEVICE_IN_USE), 0);
    e2e_end(&t);
}

/* A server whose Open hands out a character device that is no DRM node. */
TEST(open_gives_another_device)
{
    xcb_dri3_util_device_t *d;
    struct e2e t;

    e2e_start(&t, "dri3-open", "/dev/null", NULL);
    d = xcb_dri3_util_device_open(t.c, t.root, 0, NULL);
    CHECK(d != NULL);
    CHECK(!d->is_drm);
    CHECK(strcmp(d->kind, "other") == 0);
    CHECK(strstr(d->note, "not a DRM device") != NULL);
    CHECK_CLOEXEC(d->fd);
    xcb_dri3_util_device_close(d);
    bt_stop(&t);
    e2e_end(&t);
}

TEST(open_refused)
{
    xcb_generic_error_t *err = NULL;
    struct e2e t;

    e2e_start(&t, "dri3-open", "none", NULL);
    errno = 0;
    CHECK(xcb_dri3_util_device_open(t.c, t.root, 0, &err) == NULL);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, XCB_MATCH);
    free(err);
    e2e_sync(&t);
    bt_stop(&t);
    e2e_end(&t);

    e2e_start(&t, "dri3-version", "none", NULL);
    CHECK(xcb_dri3_util_device_open(t.c, t.root, 0, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(err == NULL);
    bt_stop(&t);
    CHECK_EQ(count_major(&t, DRI3), 0);
    e2e_end(&t);
}

/* set_in_use is a no-op before DRI3 1.3, and sends the device numbers
 * from 1.3 on. */
TEST(set_in_use)
{
    xcb_dri3_util_device_t fake = { .fd = -1, .is_drm = true, .dev_major = 226,
                                    .dev_minor = 128 };
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, "dri3-version", "1.2", NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_device_set_in_use(t.c, w, &fake), 0);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_SET_DRM_DEVICE_IN_USE), 0);
    e2e_end(&t);

    e2e_start(&t, "dri3-version", "1.3", NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_device_set_in_use(t.c, w, &fake), 0);
    e2e_sync(&t);
    bt_stop(&t);
    E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_SET_DRM_DEVICE_IN_USE, 0, 16, 0, { 4, 4, w },
                      { 8, 4, 226 }, { 12, 4, 128 });
    e2e_end(&t);
}

TEST(supported_modifiers)
{
    static const uint64_t wl[] = { 0x0100000000000001ULL, 0 };
    static const uint64_t sl[] = { 0, 0x0100000000000001ULL, 0x0100000000000002ULL };
    uint64_t *wm = (void *)1, *sm = (void *)1;
    uint32_t nw = 99, ns = 99;
    xcb_generic_error_t *err = (void *)1;
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, "modifiers-window", "0x0100000000000001,0",
              "modifiers-screen", "0,0x0100000000000001,0x0100000000000002", NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, w, 24, 32, &wm, &nw, &sm, &ns, &err),
             0);
    CHECK(err == NULL);
    CHECK_EQ(nw, 2);
    CHECK_EQ(ns, 3);
    CHECK_MEM(wm, wl, sizeof wl);
    CHECK_MEM(sm, sl, sizeof sl);
    free(wm);
    free(sm);
    /* A bad window: the X error, empty outputs. */
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, 0x00abcdef, 24, 32, &wm, &nw, &sm, &ns,
                                           &err), -EIO);
    CHECK(err != NULL);
    CHECK_EQ(err->error_code, XCB_WINDOW);
    free(err);
    CHECK(wm == NULL && sm == NULL);
    CHECK_EQ(nw + ns, 0);
    e2e_sync(&t);
    bt_stop(&t);
    E2E_CHECK_REQUEST(&t, DRI3, XCB_DRI3_GET_SUPPORTED_MODIFIERS, 0, 12, 0, { 4, 4, w },
                      { 8, 1, 24 }, { 9, 1, 32 });
    e2e_end(&t);
}

/* The default lists hold LINEAR; empty lists come back as NULL. */
TEST(supported_modifiers_default_and_empty)
{
    uint64_t *wm, *sm;
    uint32_t nw, ns;
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, w, 24, 32, &wm, &nw, &sm, &ns, NULL),
             0);
    CHECK_EQ(nw, 1);
    CHECK_EQ(ns, 1);
    CHECK_EQ(wm[0], XCB_DRI3_UTIL_MOD_LINEAR);
    CHECK_EQ(sm[0], XCB_DRI3_UTIL_MOD_LINEAR);
    free(wm);
    free(sm);
    bt_stop(&t);
    e2e_end(&t);

    e2e_start(&t, "modifiers-window", "", "modifiers-screen", "", NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, w, 24, 32, &wm, &nw, &sm, &ns, NULL),
             0);
    CHECK(wm == NULL && sm == NULL);
    CHECK_EQ(nw + ns, 0);
    bt_stop(&t);
    e2e_end(&t);
}

TEST(supported_modifiers_needs_12)
{
    uint64_t *wm, *sm;
    uint32_t nw, ns;
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, "dri3-version", "1.0", NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, w, 24, 32, &wm, &nw, &sm, &ns, NULL),
             -ENOTSUP);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_dri3_util_modifiers_query(t.c, w, 24, 32, NULL, &nw, &sm, &ns, NULL),
             -EINVAL);
    e2e_sync(&t);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_GET_SUPPORTED_MODIFIERS), 0);
    e2e_end(&t);
}
