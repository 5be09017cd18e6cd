/*
 * The Present capabilities of a window (PresentQueryCapabilities), kept
 * in the connection's entry (conn-state.h) for the last window asked: a
 * frame loop presents to one window, and a round trip per frame would
 * cost it its frame rate.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <stdlib.h>
#include <xcb/present.h>

static bool cached(xcb_connection_t *c, xcb_window_t window, uint32_t *caps)
{
    struct util_conn *s;
    bool hit;

    conn_lock();
    s = conn_find_locked(c);
    hit = s && s->have_window && s->window == window;
    if (hit)
        *caps = s->window_caps;
    conn_unlock();
    return hit;
}

int xcb_dri3_util_window_caps(xcb_connection_t *c, xcb_window_t window, uint32_t *caps)
{
    xcb_present_query_capabilities_reply_t *r = NULL;
    xcb_dri3_util_wait_scope_t previous;
    xcb_dri3_util_caps_t server;
    xcb_generic_error_t *e = NULL;
    struct util_conn *s;
    int ret;

    if (!c || !caps)
        return -EINVAL;
    ret = conn_caps(c, &server);
    if (ret < 0)
        return ret;
    if (!server.present)
        return -ENOTSUP;
    if (cached(c, window, caps))
        return 0;
    /* Not under the lock: the round trip may take the whole timeout, and
     * other connections must not wait for it. */
    previous = util_call_begin(c);
    ret = util_wait_reply(c, xcb_present_query_capabilities(c, window).sequence, 0,
                          (void **)&r, &e);
    util_call_end(previous);
    if (ret == 1) {
        free(e);
        return -ENODEV;
    }
    if (ret < 0)
        return ret;
    *caps = r->capabilities;
    free(r);
    conn_lock();
    s = conn_find_locked(c);
    /* Kept only beside a probe's answer: a refresh in between dropped it. */
    if (s && s->probed) {
        s->have_window = true;
        s->window = window;
        s->window_caps = *caps;
    }
    conn_unlock();
    return 0;
}
