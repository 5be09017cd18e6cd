/*
 * The one error rule of both util libraries (<xcb/xcb_dri3_util.h>), for
 * every constructor and a sample of int functions:
 *   - int functions return a negative errno and nothing else tells;
 *   - functions returning a pointer or an X id return NULL / XCB_NONE with
 *     errno set (a stale errno from before the call must not survive);
 *   - calls the server can refuse give EIO with the X error in *err, and
 *     *err is NULL in every other case, also when err is passed and the
 *     failure is local.
 * Against the mock server, whose refusals are real X errors.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buffer-test-util.h"
#include "xcb_present_util.h"

#define NO_SUCH_ID 0x00abcdefu

/* errno of a call that must fail, starting from a value no call gives. */
#define FAILS_WITH(call, expected)         \
    do {                                   \
        errno = EHWPOISON;                 \
        CHECK(!(call));                    \
        CHECK_EQ(errno, (expected));       \
    } while (0)

TEST(local_failures_set_errno)
{
    int fds[1] = { -1 };
    uint32_t strides[1] = { 256 }, offsets[1] = { 0 };
    xcb_dri3_util_buffer_t *buf;

    FAILS_WITH(xcb_dri3_util_fence_import(-1), EBADF);
    FAILS_WITH(xcb_dri3_util_buffer_create_memfd(0, 16, XRGB8888), EINVAL);
    FAILS_WITH(xcb_dri3_util_buffer_create_memfd(16, 16, NV12), EINVAL);
    FAILS_WITH(xcb_dri3_util_buffer_import(16, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 0, fds,
                                           strides, offsets),
               EINVAL);
    FAILS_WITH(xcb_dri3_util_timeline_create(-1), EBADF);

    buf = xcb_dri3_util_buffer_create_memfd(16, 16, XRGB8888);
    CHECK(buf != NULL);
    FAILS_WITH(xcb_dri3_util_buffer_map(buf, 3, XCB_DRI3_UTIL_MAP_READ, NULL), EINVAL);
    FAILS_WITH(xcb_dri3_util_buffer_map(buf, 0, 0, NULL), EINVAL);
    xcb_dri3_util_buffer_destroy(buf);

    /* Without a GBM device: EINVAL, or ENOTSUP in a build without GBM. */
    errno = EHWPOISON;
    CHECK(!xcb_dri3_util_buffer_create_gbm(NULL, 16, 16, XRGB8888, NULL, 0));
    CHECK(errno == EINVAL || errno == ENOTSUP);
}

TEST(int_functions_return_negative_errno)
{
    uint64_t *wm = NULL, *sm = NULL;
    uint32_t nw = 0, ns = 0;

    CHECK_EQ(xcb_dri3_util_fence_trigger(NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait(NULL, 0), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(NULL, NULL, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(NULL, 0), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fourcc_to_depth(NV12, NULL, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_probe(NULL, NULL), -EPIPE);
    CHECK_EQ(xcb_dri3_util_modifiers_query(NULL, 1, 24, 32, &wm, &nw, &sm, &ns, NULL),
             -EPIPE);
    CHECK(wm == NULL && sm == NULL && nw == 0 && ns == 0);
    CHECK_EQ(xcb_present_util_acquire(NULL, 0, NULL), -EINVAL);
    CHECK_EQ(xcb_present_util_present(NULL, NULL, NULL, 0), -EINVAL);
}

/* Local failures of calls that take **err: NULL / XCB_NONE, errno, and
 * *err NULL. */
TEST(err_is_null_when_the_server_is_not_to_blame)
{
    xcb_generic_error_t *err = (void *)1;

    errno = EHWPOISON;
    CHECK_EQ(xcb_dri3_util_fence_to_server(NULL, 1, NULL, &err), XCB_NONE);
    CHECK_EQ(errno, EINVAL);
    CHECK(err == NULL);
    err = (void *)1;
    FAILS_WITH(xcb_dri3_util_fence_from_server(NULL, 1, 1, &err), EINVAL);
    CHECK(err == NULL);
    err = (void *)1;
    FAILS_WITH(xcb_dri3_util_buffer_to_pixmap(NULL, 1, NULL, &err), EINVAL);
    CHECK(err == NULL);
    FAILS_WITH(xcb_present_util_swapchain_create(NULL, 1, NULL), EINVAL);
}

/* The server refuses: EIO and its X error, with the caller's err or
 * without one (then freed inside). */
TEST(server_refusals_are_eio_with_the_x_error)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_buffer_t *buf;
    xcb_dri3_util_fence_t *fence;
    struct e2e t;
    int fd;

    e2e_start(&t, NULL);
    buf = xcb_dri3_util_buffer_create_memfd(16, 16, XRGB8888);
    fence = xcb_dri3_util_fence_create(false);
    CHECK(buf != NULL && fence != NULL);

    errno = EHWPOISON;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, NO_SUCH_ID, buf, &err), XCB_NONE);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    free(err);
    errno = EHWPOISON;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(t.c, NO_SUCH_ID, buf, NULL), XCB_NONE);
    CHECK_EQ(errno, EIO);

    err = NULL;
    FAILS_WITH(xcb_dri3_util_buffer_from_pixmap(t.c, NO_SUCH_ID, &err), EIO);
    CHECK(err != NULL);
    free(err);

    err = NULL;
    errno = EHWPOISON;
    CHECK_EQ(xcb_dri3_util_fence_to_server(t.c, NO_SUCH_ID, fence, &err), XCB_NONE);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    free(err);

    err = NULL;
    FAILS_WITH(xcb_dri3_util_device_open(t.c, NO_SUCH_ID, 0, &err), EIO);
    CHECK(err != NULL);
    free(err);

    fd = memfd_create("error-rule", MFD_CLOEXEC);
    CHECK(fd >= 0);
    err = NULL;
    errno = EHWPOISON;
    CHECK_EQ(xcb_dri3_util_syncobj_import(t.c, NO_SUCH_ID, fd, &err), XCB_NONE);
    CHECK_EQ(errno, EIO);
    CHECK(err != NULL);
    free(err);
    close(fd);

    /* Nothing of it reached the event queue. */
    e2e_sync(&t);
    CHECK(xcb_poll_for_event(t.c) == NULL);
    xcb_dri3_util_fence_destroy(fence);
    xcb_dri3_util_buffer_destroy(buf);
    bt_stop(&t);
    e2e_end(&t);
}
