/*
 * Handing fences to the X server and getting the server's fences: DRI3
 * FenceFromFD and FDFromFence, through our generated binding.
 */
#include "fence-private.h"

#include <errno.h>
#include <fcntl.h>
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

/* Whether requests can go to the server's DRI3 at all.  Sending one to a
 * server without the extension would make libxcb shut the connection. */
static bool dri3_usable(xcb_connection_t *c)
{
    const xcb_query_extension_reply_t *ext;

    if (xcb_connection_has_error(c)) {
        errno = EPIPE;
        return false;
    }
    ext = xcb_get_extension_data(c, &xcb_dri3_id);
    if (!ext || !ext->present) {
        errno = xcb_connection_has_error(c) ? EPIPE : ENOTSUP;
        return false;
    }
    return true;
}

xcb_sync_fence_t xcb_dri3_util_fence_to_server(xcb_connection_t *c, xcb_drawable_t drawable,
                                               xcb_dri3_util_fence_t *fence,
                                               xcb_generic_error_t **err)
{
    xcb_void_cookie_t cookie;
    xcb_generic_error_t *e;
    xcb_sync_fence_t id;
    int fd;

    if (err)
        *err = NULL;
    if (!c || !fence) {
        errno = EINVAL;
        return XCB_NONE;
    }
    if (!dri3_usable(c))
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
    e = xcb_request_check(c, cookie);
    if (e) {
        report_error(e, err);
        return XCB_NONE;
    }
    if (xcb_connection_has_error(c)) {
        errno = EPIPE;
        return XCB_NONE;
    }
    return id;
}

xcb_dri3_util_fence_t *xcb_dri3_util_fence_from_server(xcb_connection_t *c,
                                                       xcb_drawable_t drawable,
                                                       xcb_sync_fence_t sync_fence,
                                                       xcb_generic_error_t **err)
{
    xcb_dri3_fd_from_fence_reply_t *reply;
    xcb_generic_error_t *e = NULL;
    unsigned int nfd;
    int *fds, fd;

    if (err)
        *err = NULL;
    if (!c) {
        errno = EINVAL;
        return NULL;
    }
    if (!dri3_usable(c))
        return NULL;
    reply = xcb_dri3_fd_from_fence_reply(c, xcb_dri3_fd_from_fence(c, drawable, sync_fence),
                                         &e);
    if (!reply) {
        if (e)
            report_error(e, err);
        else
            errno = EPIPE;
        return NULL;
    }
    /* The reply is never discarded unread: its fds are ours to close. */
    nfd = reply->nfd;
    fds = xcb_dri3_fd_from_fence_reply_fds(c, reply);
    fd = nfd > 0 ? fds[0] : -1;
    for (unsigned int i = 1; i < nfd; i++)
        close(fds[i]);
    free(reply);
    if (fd < 0) {
        errno = EPROTO;
        return NULL;
    }
    return xcb_dri3_util_fence_import(fd);
}
