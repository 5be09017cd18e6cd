/*
 * Handing fences to the X server and getting the server's fences: DRI3
 * FenceFromFD and FDFromFence, through our generated binding, each
 * bounded by the connection's timeout (wait.c).
 */
#include "conn-state.h"
#include "fence-private.h"
#include "wait-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/dri3.h>

/* Reports an X error through err (or frees it) and sets errno for the
 * callers who only look there. */
static void report_error(xcb_generic_error_t *e, xcb_generic_error_t **err)
{
    if (err)
        *err = e;
    else
        free(e);
    errno = EIO;
}

/* Whether requests can go to the server's DRI3 at all (a request to a
 * missing extension makes libxcb shut the connection): the probe knows,
 * within the call's deadline.  *caps receives its answer. */
static bool dri3_usable(xcb_connection_t *c, xcb_dri3_util_caps_t *caps)
{
    int ret = conn_need_dri3(c, 0, caps);

    if (ret < 0)
        errno = -ret;
    return ret == 0;
}

static xcb_sync_fence_t to_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                  xcb_dri3_util_fence_t *fence, xcb_generic_error_t **err)
{
    xcb_dri3_util_caps_t caps;
    xcb_void_cookie_t cookie;
    xcb_generic_error_t *e = NULL;
    xcb_sync_fence_t id;
    int fd, ret;

    if (!dri3_usable(c, &caps))
        return XCB_NONE;
    id = xcb_generate_id(c);
    if (id == (uint32_t)-1) {
        errno = EPIPE;
        return XCB_NONE;
    }
    /* libxcb closes the fd it sends, and the fence keeps its own. */
    fd = fcntl(fence->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return XCB_NONE;
    cookie = xcb_dri3_fence_from_fd_checked(c, drawable, id,
                                            fence_word_triggered(fence->word), fd);
    ret = util_wait_checked(c, cookie, &e);
    if (ret == 1) {
        report_error(e, err);
        return XCB_NONE;
    }
    /* The server may still make the fence: destroy it after the fact, its
     * possible error swallowed (SYNC 3.1 has fences; DRI3 needs it). */
    if ((ret == -ETIMEDOUT || ret == -ECANCELED) && caps.sync)
        wait_abandon_void(c, xcb_sync_destroy_fence_checked(c, id));
    if (ret < 0) {
        errno = -ret;
        return XCB_NONE;
    }
    return id;
}

/* The start of a public call: *err cleared, then false with errno EINVAL
 * without a connection or without its argument (`arg_ok`), else true with
 * the call's wait scope pushed (*previous to pop). */
static bool call_begin(xcb_connection_t *c, bool arg_ok, xcb_generic_error_t **err,
                       xcb_dri3_util_wait_scope_t *previous)
{
    if (err)
        *err = NULL;
    if (!c || !arg_ok) {
        errno = EINVAL;
        return false;
    }
    *previous = util_call_begin(c);
    return true;
}

xcb_sync_fence_t xcb_dri3_util_fence_to_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                               xcb_dri3_util_fence_t *fence,
                                               xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    xcb_sync_fence_t id;

    if (!call_begin(c, fence != NULL, err, &previous))
        return XCB_NONE;
    id = to_server(c, drawable, fence, err);
    util_call_end(previous);
    return id;
}

static xcb_dri3_util_fence_t *from_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                          xcb_sync_fence_t sync_fence,
                                          xcb_generic_error_t **err)
{
    xcb_dri3_fd_from_fence_reply_t *reply = NULL;
    xcb_generic_error_t *e = NULL;
    int *fds, fd, ret;

    if (!dri3_usable(c, NULL))
        return NULL;
    ret = util_wait_reply(c, xcb_dri3_fd_from_fence(c, drawable, sync_fence).sequence,
                          XCB_DRI3_UTIL_WAIT_REPLY_FDS, (void **)&reply, &e);
    if (ret == 1) {
        report_error(e, err);
        return NULL;
    }
    if (ret < 0) {
        errno = -ret;
        return NULL;
    }
    /* The reply is never discarded unread: its fds are ours to close. */
    fds = xcb_dri3_fd_from_fence_reply_fds(c, reply);
    if (reply->nfd != 1) {
        close_fds(fds, reply->nfd);
        free(reply);
        errno = EPROTO;
        return NULL;
    }
    fd = fds[0];
    free(reply);
    return xcb_dri3_util_fence_import(fd);
}

xcb_dri3_util_fence_t *xcb_dri3_util_fence_from_server(xcb_connection_t *c,
                                                       xcb_drawable_t drawable,
                                                       xcb_sync_fence_t sync_fence,
                                                       xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    xcb_dri3_util_fence_t *fence;

    if (!call_begin(c, true, err, &previous))
        return NULL;
    fence = from_server(c, drawable, sync_fence, err);
    util_call_end(previous);
    return fence;
}
