/*
 * The window capability cache of window-caps-private.h.  A few slots, one
 * per connection, each holding the last window asked on it: enough for
 * the programs that present to a window or two per connection, and no
 * state that grows with the connections a long-lived program opens and
 * closes (a closed connection's slot is reused once it is the oldest).
 */
#include "window-caps-private.h"
#include "conn-state.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <xcb/present.h>

#define SLOTS 8

struct slot {
    struct conn_key key;        /* c NULL: empty */
    xcb_window_t window;
    uint32_t caps;
    uint64_t used;              /* for replacing the least recently used */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[SLOTS];
static uint64_t clock_ticks;

static bool cached(const struct conn_key *key, xcb_window_t window, uint32_t *caps)
{
    bool hit = false;

    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].key.c && conn_key_eq(&slots[i].key, key) && slots[i].window == window) {
            slots[i].used = ++clock_ticks;
            *caps = slots[i].caps;
            hit = true;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return hit;
}

/* The connection's slot now holds window, whatever it held before. */
static void remember(const struct conn_key *key, xcb_window_t window, uint32_t caps)
{
    struct slot *s = &slots[0];

    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].key.c && conn_key_eq(&slots[i].key, key)) {
            s = &slots[i];
            break;
        }
        if (slots[i].used < s->used)
            s = &slots[i];
    }
    *s = (struct slot){ *key, window, caps, ++clock_ticks };
    pthread_mutex_unlock(&lock);
}

int window_caps(xcb_connection_t *c, xcb_window_t window, uint32_t *caps)
{
    struct conn_key key = conn_key_of(c);
    xcb_present_query_capabilities_reply_t *r = NULL;
    xcb_generic_error_t *e = NULL;
    int ret;

    if (cached(&key, window, caps))
        return 0;
    /* Not under the lock: the round trip may take the whole timeout, and
     * other connections must not wait for it. */
    ret = xcb_dri3_util_wait_reply(c, xcb_present_query_capabilities(c, window).sequence, 0,
                                   xcb_dri3_util_deadline(c), -1, (void **)&r, &e);
    if (ret == 1) {
        free(e);
        return -ENODEV;
    }
    if (ret < 0)
        return ret;
    *caps = r->capabilities;
    free(r);
    remember(&key, window, *caps);
    return 0;
}
