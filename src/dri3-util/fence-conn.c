/*
 * A fence wait that a dead X server cannot hang.
 *
 * A futex cannot be polled together with a socket, so the wait sleeps on
 * the fence in short slices and looks at the connection between them.  A
 * watcher thread with an eventfd would notice a hang-up sooner, but would
 * cost a thread (or a wake-up of a shared one) on every wait; a lost server
 * is rare and a few milliseconds to notice it are cheap, while a trigger
 * still wakes the sleeper at once.
 */
#include "fence-private.h"

#include <errno.h>
#include <poll.h>


/* Whether the connection is broken or its peer is gone.  Only asks poll():
 * the socket's data belongs to libxcb, and POLLIN just means events came. */
bool fence_connection_lost(xcb_connection_t *c)
{
    struct pollfd p = { .fd = xcb_get_file_descriptor(c), .events = POLLRDHUP };

    if (xcb_connection_has_error(c))
        return true;
    if (poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
        return true;
    return false;
}

int xcb_dri3_util_fence_wait_conn(xcb_dri3_util_fence_t *fence, xcb_connection_t *c,
                                  int64_t timeout_ns)
{
    if (!fence || !c)
        return -EINVAL;
    return fence_wait_one(fence, c, timeout_ns);
}
