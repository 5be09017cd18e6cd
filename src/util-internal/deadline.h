/*
 * Absolute CLOCK_MONOTONIC deadlines.  Every wait in the util libraries
 * turns its relative timeout into one of these once, at the start, so
 * that retries after a signal or a spurious wake-up never extend the
 * total wait.
 *
 * src/util-internal/ holds what both util libraries use inside and
 * neither exports.  Header-only on purpose: anything with state (the
 * per-connection entry, the waits' tables) lives once, in
 * libxcb-dri3-util, and libxcb-present-util reaches it through that
 * library's public calls; a convenience library linked into both would
 * give each its own copy of that state.
 */
#ifndef XCB_UTIL_INTERNAL_DEADLINE_H
#define XCB_UTIL_INTERNAL_DEADLINE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL

static inline int64_t deadline_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static inline struct timespec deadline_to_timespec(int64_t ns)
{
    struct timespec ts = { .tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC };

    return ts;
}

/* The absolute deadline for a relative timeout, or -1 (no deadline) for a
 * negative one; saturates instead of overflowing. */
static inline int64_t deadline_from_timeout(int64_t timeout_ns)
{
    int64_t now;

    if (timeout_ns < 0)
        return -1;
    now = deadline_now_ns();
    return timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
}

/* The earlier of a deadline (-1: none) and slice_ns from now: the end of
 * one slice of a wait that must look up now and then. */
static inline int64_t deadline_slice(int64_t deadline, int64_t slice_ns)
{
    int64_t end = deadline_now_ns() + slice_ns;

    return deadline >= 0 && deadline < end ? deadline : end;
}

static inline bool deadline_passed(int64_t deadline)
{
    return deadline >= 0 && deadline_now_ns() >= deadline;
}

/* poll()'s timeout for a sleep from now to a deadline (-1: none, which
 * poll() also reads as no timeout): rounded up to whole milliseconds, so
 * that poll() never wakes just before the deadline and spins through a
 * string of 0 ms polls; 0 once the deadline has passed. */
static inline int deadline_poll_ms(int64_t deadline, int64_t now)
{
    int64_t ms;

    if (deadline < 0)
        return -1;
    if (deadline <= now)
        return 0;
    ms = (deadline - now - 1) / 1000000 + 1;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

#endif
