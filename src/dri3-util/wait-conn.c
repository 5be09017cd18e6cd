/*
 * What the bounded wait keeps per connection, in the connection's entry
 * (conn-state.h): the timeout, and the requests whose waits gave up,
 * until their late answers are taken in.  Connections that never set a
 * timeout and never abandoned a request have no entry of their own.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/xcbext.h>

int xcb_dri3_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns)
{
    struct util_conn *w;

    if (!c || timeout_ns <= 0) {
        errno = EINVAL;
        return -EINVAL;
    }
    conn_lock();
    w = conn_get_locked(c);
    if (w)
        w->timeout_ns = timeout_ns;
    conn_unlock();
    if (!w) {
        errno = ENOMEM;
        return -ENOMEM;
    }
    return 0;
}

int64_t xcb_dri3_util_timeout(xcb_connection_t *c)
{
    struct util_conn *w;
    int64_t t = XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS;

    if (!c)
        return t;
    conn_lock();
    w = conn_find_locked(c);
    if (w)
        t = w->timeout_ns;
    conn_unlock();
    return t;
}

void wait_abandon(xcb_connection_t *c, unsigned int sequence, unsigned flags)
{
    struct util_conn *w;

    conn_lock();
    w = conn_get_locked(c);
    if (w && w->n_abandoned == w->cap_abandoned) {
        size_t cap = w->cap_abandoned ? 2 * w->cap_abandoned : 8;
        struct abandoned *list = realloc(w->abandoned, cap * sizeof *list);

        if (list) {
            w->abandoned = list;
            w->cap_abandoned = cap;
        }
    }
    if (w && w->n_abandoned < w->cap_abandoned)
        w->abandoned[w->n_abandoned++] = (struct abandoned){ sequence, flags };
    conn_unlock();
}

/* Frees a late answer and closes the fds libxcb appended to a reply. */
static void drop_answer(void *reply, xcb_generic_error_t *error, unsigned flags)
{
    if (reply && (flags & ABANDON_REPLY_FDS)) {
        const xcb_generic_reply_t *r = reply;
        /* libxcb puts the fds right after the reply's 32 + 4 * length
         * bytes; byte 1 is their count (it received exactly that many). */
        const int *fds = (const int *)((const char *)reply + 32 + (size_t)r->length * 4);

        for (unsigned i = 0; i < r->pad0; i++)
            close(fds[i]);
    }
    free(reply);
    free(error);
}

void wait_collect_locked(struct util_conn *w)
{
    size_t kept = 0;

    for (size_t i = 0; i < w->n_abandoned; i++) {
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;

        /* On a connection in error this answers 1 with nothing: whatever
         * libxcb still held is gone with the connection. */
        if (xcb_poll_for_reply(w->key.c, w->abandoned[i].sequence, &reply, &error))
            drop_answer(reply, error, w->abandoned[i].flags);
        else
            w->abandoned[kept++] = w->abandoned[i];
    }
    w->n_abandoned = kept;
}

void xcb_dri3_util_collect_abandoned(xcb_connection_t *c)
{
    struct util_conn *w;

    if (!c)
        return;
    conn_lock();
    w = conn_find_locked(c);
    if (w && w->n_abandoned)
        wait_collect_locked(w);
    conn_unlock();
}
