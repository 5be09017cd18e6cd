/*
 * What the bounded wait keeps per connection: the timeout, and the
 * requests whose waits gave up, until their late answers are taken in.
 *
 * A small list of its own under one mutex, keyed like the probe's cache
 * (struct conn_key) and dropped with it by
 * xcb_dri3_util_probe_forget().  Connections that never set a timeout and
 * never abandoned a request have no entry.
 *
 * Lock order: wait_lock, then libxcb's own lock (xcb_poll_for_reply takes
 * it).  libxcb never calls back into us, so the order cannot invert.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/xcbext.h>

struct abandoned {
    unsigned int sequence;
    unsigned flags;
};

struct wait_conn {
    struct wait_conn *next;
    struct conn_key key;
    int64_t timeout_ns;
    struct abandoned *list;
    size_t n, cap;
};

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wait_conn *conns;

/* Caller holds wait_lock. */
static struct wait_conn **find_locked(xcb_connection_t *c)
{
    struct conn_key key = conn_key_of(c);

    for (struct wait_conn **p = &conns; *p; p = &(*p)->next)
        if (conn_key_eq(&(*p)->key, &key))
            return p;
    return NULL;
}

/* Caller holds wait_lock.  NULL when memory runs out. */
static struct wait_conn *get_locked(xcb_connection_t *c)
{
    struct wait_conn **p = find_locked(c), *w;

    if (p)
        return *p;
    w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->key = conn_key_of(c);
    w->timeout_ns = XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS;
    w->next = conns;
    conns = w;
    return w;
}

int xcb_dri3_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns)
{
    struct wait_conn *w;

    if (!c || timeout_ns <= 0) {
        errno = EINVAL;
        return -EINVAL;
    }
    pthread_mutex_lock(&wait_lock);
    w = get_locked(c);
    if (w)
        w->timeout_ns = timeout_ns;
    pthread_mutex_unlock(&wait_lock);
    if (!w) {
        errno = ENOMEM;
        return -ENOMEM;
    }
    return 0;
}

int64_t xcb_dri3_util_timeout(xcb_connection_t *c)
{
    struct wait_conn **p;
    int64_t t = XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS;

    if (!c)
        return t;
    pthread_mutex_lock(&wait_lock);
    p = find_locked(c);
    if (p)
        t = (*p)->timeout_ns;
    pthread_mutex_unlock(&wait_lock);
    return t;
}

void wait_abandon(xcb_connection_t *c, unsigned int sequence, unsigned flags)
{
    struct wait_conn *w;

    pthread_mutex_lock(&wait_lock);
    w = get_locked(c);
    if (w && w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8;
        struct abandoned *list = realloc(w->list, cap * sizeof *list);

        if (list) {
            w->list = list;
            w->cap = cap;
        }
    }
    if (w && w->n < w->cap)
        w->list[w->n++] = (struct abandoned){ sequence, flags };
    pthread_mutex_unlock(&wait_lock);
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

/* Caller holds wait_lock. */
static void collect_locked(struct wait_conn *w)
{
    size_t kept = 0;

    for (size_t i = 0; i < w->n; i++) {
        void *reply = NULL;
        xcb_generic_error_t *error = NULL;

        /* On a connection in error this answers 1 with nothing: whatever
         * libxcb still held is gone with the connection. */
        if (xcb_poll_for_reply(w->key.c, w->list[i].sequence, &reply, &error))
            drop_answer(reply, error, w->list[i].flags);
        else
            w->list[kept++] = w->list[i];
    }
    w->n = kept;
}

void xcb_dri3_util_collect_abandoned(xcb_connection_t *c)
{
    struct wait_conn **p;

    if (!c)
        return;
    pthread_mutex_lock(&wait_lock);
    p = find_locked(c);
    if (p && (*p)->n)
        collect_locked(*p);
    pthread_mutex_unlock(&wait_lock);
}

void wait_conn_forget(xcb_connection_t *c)
{
    struct wait_conn **p, *w = NULL;

    pthread_mutex_lock(&wait_lock);
    p = find_locked(c);
    if (p) {
        w = *p;
        /* What has come is freed now; what has not stays libxcb's. */
        collect_locked(w);
        *p = w->next;
    }
    pthread_mutex_unlock(&wait_lock);
    if (w) {
        free(w->list);
        free(w);
    }
}
