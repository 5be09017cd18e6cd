/*
 * The one thing the library keeps per X connection (struct util_conn in
 * conn-state.h): the probe's answer, the modifier lists, the Present
 * capabilities of the last window asked, the waits' timeout and the
 * requests whose waits gave up.  One list under one mutex: one lookup
 * for every part, one lifetime for all of it.
 *
 * An entry is made by the first part that has something to keep and
 * lives until xcb_dri3_util_probe_forget(); xcb_dri3_util_probe_refresh()
 * empties only the answers the server gave, so that a swapchain that goes
 * (while the application stays on the connection) cannot take the
 * application's own settings with it (an entry left with nothing of the
 * application's goes then too).
 *
 * Lock order: conn_lock, then libxcb's own lock (the collection of late
 * answers calls xcb_poll_for_reply under it).  libxcb never calls back
 * into us, so the order cannot invert.  No round trip is made under it.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct util_conn *conns;

void conn_lock(void)
{
    pthread_mutex_lock(&lock);
}

void conn_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

/* The link that points at c's entry, or NULL.  Caller holds the lock.
 * Also matches a connection in error: its setup and fd stay readable. */
static struct util_conn **find_link_locked(xcb_connection_t *c)
{
    struct conn_key key = conn_key_of(c);

    for (struct util_conn **p = &conns; *p; p = &(*p)->next)
        if (conn_key_eq(&(*p)->key, &key))
            return p;
    return NULL;
}

struct util_conn *conn_find_locked(xcb_connection_t *c)
{
    struct util_conn **p = find_link_locked(c);

    return p ? *p : NULL;
}

struct util_conn *conn_get_locked(xcb_connection_t *c)
{
    struct util_conn *s = conn_find_locked(c);

    if (s)
        return s;
    s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->key = conn_key_of(c);
    s->timeout_ns = XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS;
    s->next = conns;
    conns = s;
    return s;
}

void conn_modifier_entry_free(struct modifier_entry *m)
{
    free(m->window_mods);
    free(m->screen_mods);
    m->window_mods = m->screen_mods = NULL;
}

/* Empties what the server told: the next question goes to it again. */
static void drop_answers_locked(struct util_conn *s)
{
    for (unsigned i = 0; i < s->n_mods; i++)
        conn_modifier_entry_free(&s->mods[i]);
    s->n_mods = s->next_mod = 0;
    s->probed = false;
    s->have_window = false;
}

/* Frees an entry already unlinked (the lock not needed). */
static void free_entry(struct util_conn *s)
{
    drop_answers_locked(s);
    free(s->abandoned);
    free(s);
}

void xcb_dri3_util_probe_refresh(xcb_connection_t *c)
{
    struct util_conn **p, *s = NULL;

    if (!c)
        return;
    conn_lock();
    p = find_link_locked(c);
    if (p) {
        drop_answers_locked(*p);
        /* Nothing the application set or still owed: the entry goes too,
         * so that a program that makes and ends swapchains on connection
         * after connection keeps no entry per connection it closed. */
        if ((*p)->timeout_ns == XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS && !(*p)->n_abandoned) {
            s = *p;
            *p = s->next;
        }
    }
    conn_unlock();
    if (s)
        free_entry(s);
}

void xcb_dri3_util_probe_forget(xcb_connection_t *c)
{
    struct util_conn **p, *s = NULL;

    if (!c)
        return;
    conn_lock();
    p = find_link_locked(c);
    if (p) {
        s = *p;
        /* What has come is freed now; what has not stays libxcb's. */
        wait_collect_locked(s);
        *p = s->next;
    }
    conn_unlock();
    if (s)
        free_entry(s);
}
