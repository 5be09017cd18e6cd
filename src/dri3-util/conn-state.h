/*
 * What the library keeps per X connection, in one entry (conn.c owns the
 * list): the probe's answer and the modifier lists (buffer-probe.c), the
 * Present capabilities of the last window asked (window-caps.c), the
 * waits' timeout and abandoned requests (wait-conn.c).  Shared by the
 * files of the buffer, device, explicit-sync and wait parts.
 */
#ifndef XCB_DRI3_UTIL_CONN_STATE_H
#define XCB_DRI3_UTIL_CONN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xcb_dri3_util.h"

/*
 * How an entry recognises its connection: the pointer, the setup and the
 * socket, so that a new connection that happens to reuse a freed one's
 * address is not taken for it (not watertight: hence
 * xcb_dri3_util_probe_forget()).
 */
struct conn_key {
    xcb_connection_t *c;
    const xcb_setup_t *setup;
    int fd;
};

static inline struct conn_key conn_key_of(xcb_connection_t *c)
{
    return (struct conn_key){ c, xcb_get_setup(c), xcb_get_file_descriptor(c) };
}

static inline bool conn_key_eq(const struct conn_key *a, const struct conn_key *b)
{
    return a->c == b->c && a->setup == b->setup && a->fd == b->fd;
}

/* Enough for a few windows at two or three depths; the oldest goes. */
#define MODIFIER_CACHE_SIZE 16

struct modifier_entry {
    uint32_t window;
    uint8_t depth, bpp;
    uint64_t *window_mods, *screen_mods;
    uint32_t n_window, n_screen;
};

/* A request nobody waits for any more (wait-private.h's flags). */
struct abandoned {
    unsigned int sequence;
    unsigned flags;
};

struct util_conn {
    struct util_conn *next;
    struct conn_key key;
    /* The server's answers, emptied by xcb_dri3_util_probe_refresh(). */
    bool probed;
    xcb_dri3_util_caps_t caps;
    struct modifier_entry mods[MODIFIER_CACHE_SIZE];
    unsigned n_mods, next_mod;
    bool have_window;
    xcb_window_t window;
    uint32_t window_caps;
    /* What the application set and what is still owed: kept until
     * xcb_dri3_util_probe_forget(). */
    int64_t timeout_ns;
    struct abandoned *abandoned;
    size_t n_abandoned, cap_abandoned;
};

/* The one lock of every entry's fields. */
void conn_lock(void);
void conn_unlock(void);
/* c's entry or NULL (conn_get_locked(): made when missing, NULL only when
 * memory runs out).  Caller holds the lock; the entry stays valid until it
 * lets go. */
struct util_conn *conn_find_locked(xcb_connection_t *c);
struct util_conn *conn_get_locked(xcb_connection_t *c);
/* Frees a modifier entry's lists. */
void conn_modifier_entry_free(struct modifier_entry *m);
/* Takes in the late answers of s's abandoned requests that have come
 * (wait-conn.c).  Caller holds the lock. */
void wait_collect_locked(struct util_conn *s);

/*
 * The probe's answer for c, probing first if nothing is cached.  Copies it
 * to *caps.  0, -EPIPE or -ENOMEM.
 */
int conn_caps(xcb_connection_t *c, xcb_dri3_util_caps_t *caps);

/*
 * Whether requests of DRI3 >= major.minor may go to c: 0, or -ENOTSUP /
 * -EPIPE / -ENOMEM.  The caps are copied to *caps when caps is not NULL.
 */
int conn_need_dri3(xcb_connection_t *c, uint32_t minor, xcb_dri3_util_caps_t *caps);

/* A cached modifier list pair, or false when none is cached.  *window and
 * *screen are fresh copies the caller frees (NULL when empty). */
bool conn_modifiers_get(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                        uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                        uint32_t *n_screen);
/* Remembers a pair (copies the arrays); silently keeps nothing when memory
 * runs out. */
void conn_modifiers_put(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                        const uint64_t *window_mods, uint32_t n_window,
                        const uint64_t *screen_mods, uint32_t n_screen);

/*
 * The server's modifier lists for window/depth/bpp: from the cache, or
 * asked for (GetSupportedModifiers) and cached.  Same contract as
 * xcb_dri3_util_modifiers_query() except that it does not check
 * the DRI3 version (the caller has).
 */
int modifiers_lookup(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                     uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                     uint32_t *n_screen, xcb_generic_error_t **err);

/* Stores an X error in *err (or frees it) and sets errno to EIO. */
void util_report_x_error(xcb_generic_error_t *e, xcb_generic_error_t **err);

/* Closes the n fds of a reply (which the caller owns, used or not). */
void close_fds(const int *fds, unsigned n);

#endif
