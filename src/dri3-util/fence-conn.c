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

#include "wait-deadline.h"
#include "fence-futex.h"

/* How long the wait sleeps between looks at the connection. */
#define CONN_CHECK_SLICE_NS 4000000LL

/* Whether the connection is broken or its peer is gone.  Only asks poll():
 * the socket's data belongs to libxcb, and POLLIN just means events came. */
static bool connection_lost(xcb_connection_t *c)
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
    int64_t deadline;
    int32_t expect;

    if (!fence || !c)
        return -EINVAL;
    if (fence_word_triggered(fence->word))
        return 0;
    if (connection_lost(c))
        return -EPIPE;
    if (timeout_ns == 0)
        return -ETIMEDOUT;
    deadline = deadline_from_timeout(timeout_ns);
    if (fence_spin(fence))
        return 0;
    while (!fence_arm(fence->word, &expect)) {
        int64_t slice_end = deadline_slice(deadline, CONN_CHECK_SLICE_NS);
        int ret = futex_wait_until(fence->word, expect, slice_end);

        if (fence_word_triggered(fence->word))
            return 0;
        if (ret == -ETIMEDOUT && slice_end != deadline)
            ret = 0; /* only the slice ended */
        if (ret == 0 && connection_lost(c))
            ret = -EPIPE;
        if (ret < 0) {
            fence_disarm(fence->word);
            return ret;
        }
    }
    return 0;
}
