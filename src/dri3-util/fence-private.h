/*
 * What the fence files share: the fence object and the futex protocol on
 * its word, which must match libxshmfence's (see fence.c).
 */
#ifndef XCB_DRI3_UTIL_FENCE_PRIVATE_H
#define XCB_DRI3_UTIL_FENCE_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "xcb_dri3_util.h"

/* The futex word's states (libxshmfence's futex layout). */
#define FENCE_UNTRIGGERED 0
#define FENCE_TRIGGERED 1
#define FENCE_WAITED (-1)   /* untriggered, and somebody sleeps on it */

struct xcb_dri3_util_fence {
    int fd;
    int32_t *word;          /* offset 0 of the shared page */
    /* This process's record of how well spinning pays on this fence (see
     * fence_spin()); atomic, relaxed: a hint, not state. */
    uint32_t spin_credit;
    uint32_t spin_skips;
};

/* Whether the word says triggered.  The library's own code uses this, not
 * the exported xcb_dri3_util_fence_is_triggered(), whose calls from inside
 * the library would go through the PLT on the fast paths. */
static inline bool fence_word_triggered(const int32_t *word)
{
    return __atomic_load_n(word, __ATOMIC_ACQUIRE) == FENCE_TRIGGERED;
}

/*
 * Watches the word for a short while (a few microseconds, no system call)
 * before a waiter goes to sleep, and returns true if it triggered meanwhile.
 * When the trigger comes from a process running on another CPU right now,
 * this saves both the sleep and the trigger's wake-up call.  When it does
 * not (the peer shares our CPU, or triggers much later), the spin is pure
 * loss, so it adapts: after FENCE_SPIN_CREDIT failures in a row on a fence
 * it spins only before one wait in FENCE_SPIN_PROBE, until a spin pays
 * again.
 */
bool fence_spin(xcb_dri3_util_fence_t *fence);

/*
 * Gets the word ready for a sleep: returns true if the fence is triggered
 * (no sleep needed); otherwise marks it FENCE_WAITED, so that the trigger
 * knows to wake us, and stores in *expect the value to sleep on.
 */
bool fence_arm(int32_t *word, int32_t *expect);

/*
 * Undoes a fence_arm() whose sleep is over without a trigger: turns -1
 * back into 0 (and wakes any other sleeper, which then marks the word
 * again), so that the next uncontended trigger makes no system call.
 * Leaves every other value alone.
 */
void fence_disarm(int32_t *word);

/* fence-wait.c: the wait on one fence (fence not NULL).  With a connection
 * c, it sleeps in short slices and returns -EPIPE once c is lost: a futex
 * cannot be polled together with a socket (fence-conn.c says why this
 * beats a watcher thread). */
int fence_wait_one(xcb_dri3_util_fence_t *fence, xcb_connection_t *c, int64_t timeout_ns);
/* fence-conn.c: the connection is broken or its peer gone. */
bool fence_connection_lost(xcb_connection_t *c);

#endif
