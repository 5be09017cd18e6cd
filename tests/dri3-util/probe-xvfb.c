/*
 * The probe against a real X server: Xvfb has Present, SYNC, XFixes and
 * MIT-SHM but no DRI3.  The helpers that need DRI3 must refuse without
 * sending anything (libxcb would shut the connection down), and the
 * connection must stay usable.  Xvfb picks a free display itself
 * (-displayfd), because other builds run Xvfb on this machine at once;
 * it is stopped by its PID.
 */
#include <errno.h>
#include <stdlib.h>

#include "test-runner.h"
#include "xvfb-spawn.h"
#include "xcb_dri3_util.h"
#include "xcb_present_util.h"

/* Xvfb from tools/xvfb-spawn.c, shared with the programs and the swapchain
 * tests: it also keeps this build's libraries off Xvfb's library path. */
static void start(struct xvfb *x)
{
    if (xvfb_start(x, "320x240x24") != 0)
        test_fail(__FILE__, __LINE__, "Xvfb did not start");
}

TEST(xvfb_has_no_dri3)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(16, 16, 0x34325258);
    xcb_generic_error_t *err = (void *)1;
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    xcb_connection_t *c;
    xcb_window_t root;
    struct xvfb x;
    uint64_t *wm, *sm;
    uint32_t nw, ns;

    CHECK(b != NULL);
    start(&x);
    c = xcb_connect(x.display, NULL);
    CHECK_EQ(xcb_connection_has_error(c), 0);
    root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    CHECK_EQ(xcb_dri3_util_probe(c, &caps), 0);
    test_note("present %u.%u caps 0x%x, sync %u.%u, xfixes %u.%u, shm %u.%u pixmaps %d",
              caps.present_major, caps.present_minor, caps.present_caps, caps.sync_major,
              caps.sync_minor, caps.xfixes_major, caps.xfixes_minor, caps.shm_major,
              caps.shm_minor, caps.shm_pixmaps);
    CHECK(caps.fd_passing);
    CHECK(!caps.dri3);
    CHECK(caps.present);
    CHECK_EQ(caps.present_major, 1);
    CHECK(caps.sync);
    CHECK(caps.xfixes);
    CHECK(caps.xfixes_major >= 2);
    CHECK(caps.shm);

    /* Every helper that needs DRI3 refuses, sending nothing. */
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(c, root, b, &err), XCB_NONE);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(err == NULL);
    CHECK(xcb_dri3_util_buffer_from_pixmap(c, root, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(xcb_dri3_util_device_open(c, root, 0, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_dri3_util_modifiers_query(c, root, 24, 32, &wm, &nw, &sm, &ns, &err),
             -ENOTSUP);
    CHECK_EQ(xcb_dri3_util_syncobj_import(c, root, 0, &err), XCB_NONE);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_present_util_present_synced(c, root, 1, 1, 1, 1, 2, 2, 0, 0, 0, 0, NULL),
             -ENOTSUP);
    /* and the connection still works */
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    CHECK_EQ(xcb_connection_has_error(c), 0);

    xcb_dri3_util_probe_forget(c);
    xcb_disconnect(c);
    xvfb_stop(&x);
    xcb_dri3_util_buffer_destroy(b);
}
