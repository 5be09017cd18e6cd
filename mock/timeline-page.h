/*
 * A timeline that tests can share with the mock X server without a DRM
 * device: a memfd holding one page with the timeline's value, which both
 * processes map.  ImportSyncobj of such a memfd gives the mock a syncobj it
 * can wait for and signal, as a real server does with a DRM syncobj; a
 * memfd without the magic word stays an opaque stand-in.
 *
 * The value only grows (a DRM timeline's payload is the highest point
 * signalled).  `available` is the highest point a fence is attached to,
 * signalled or not (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE): a server
 * whose GPU has yet to finish makes its release point available first.
 * Waiters sleep on `wake`, a futex word that every change bumps; the
 * futex is shared (not FUTEX_PRIVATE), for two processes.
 */
#ifndef TIMELINE_PAGE_H
#define TIMELINE_PAGE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TIMELINE_PAGE_MAGIC 0x314c5458u     /* "XTL1" */
#define TIMELINE_PAGE_SIZE 4096

struct timeline_page {
    uint32_t magic;
    uint32_t wake;          /* futex word: bumped by every signal */
    uint64_t value;         /* the highest point signalled */
    uint64_t available;     /* the highest point with a fence attached */
};

static inline uint64_t timeline_page_value(const struct timeline_page *p)
{
    return __atomic_load_n(&p->value, __ATOMIC_ACQUIRE);
}

static inline uint64_t timeline_page_available(const struct timeline_page *p)
{
    uint64_t a = __atomic_load_n(&p->available, __ATOMIC_ACQUIRE);
    uint64_t v = timeline_page_value(p);

    return a > v ? a : v;   /* a signalled point is available too */
}

static inline void timeline_page_raise(uint64_t *word, uint64_t point)
{
    uint64_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE);

    while (v < point && !__atomic_compare_exchange_n(word, &v, point, false,
                                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
}

static inline void timeline_page_wake(struct timeline_page *p)
{
    __atomic_add_fetch(&p->wake, 1, __ATOMIC_ACQ_REL);
    syscall(SYS_futex, &p->wake, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static inline void timeline_page_signal(struct timeline_page *p, uint64_t point)
{
    timeline_page_raise(&p->value, point);
    timeline_page_wake(p);
}

/* A fence for point is attached, not signalled yet. */
static inline void timeline_page_attach(struct timeline_page *p, uint64_t point)
{
    timeline_page_raise(&p->available, point);
    timeline_page_wake(p);
}

/* 0 once point is signalled (available: attached), -ETIMEDOUT when
 * timeout_ns (CLOCK_MONOTONIC, negative: no limit) ran out first. */
static inline int timeline_page_wait_for(struct timeline_page *p, uint64_t point,
                                         bool available, int64_t timeout_ns)
{
    struct timespec deadline;

    clock_gettime(CLOCK_MONOTONIC, &deadline);
    if (timeout_ns >= 0) {
        deadline.tv_sec += timeout_ns / 1000000000;
        deadline.tv_nsec += timeout_ns % 1000000000;
        if (deadline.tv_nsec >= 1000000000) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000;
        }
    }
    for (;;) {
        /* the word first: a signal after this read changes it, so the
         * futex wait below cannot sleep through it */
        uint32_t w = __atomic_load_n(&p->wake, __ATOMIC_ACQUIRE);
        struct timespec now;

        if ((available ? timeline_page_available(p) : timeline_page_value(p)) >= point)
            return 0;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (timeout_ns >= 0 && (now.tv_sec > deadline.tv_sec ||
                                (now.tv_sec == deadline.tv_sec &&
                                 now.tv_nsec >= deadline.tv_nsec)))
            return -ETIMEDOUT;
        /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline */
        syscall(SYS_futex, &p->wake, FUTEX_WAIT_BITSET, w,
                timeout_ns >= 0 ? &deadline : NULL, NULL, FUTEX_BITSET_MATCH_ANY);
    }
}

static inline int timeline_page_wait(struct timeline_page *p, uint64_t point,
                                     int64_t timeout_ns)
{
    return timeline_page_wait_for(p, point, false, timeout_ns);
}

#endif
