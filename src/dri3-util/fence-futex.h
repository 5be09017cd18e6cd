/*
 * The few futex operations the fences need, on words that other processes
 * share (so never FUTEX_PRIVATE_FLAG: a private futex is keyed on this
 * process's address space and would not see the X server's wake-ups).
 *
 * Deadlines are absolute CLOCK_MONOTONIC nanoseconds, -1 for none (see
 * util-internal/deadline.h).  The waits return 0 whenever the caller
 * should look at the words again (woken, a word no longer held the expected value, a signal,
 * or the end of a slice), -ETIMEDOUT once the deadline has passed, and
 * another negative errno only for a kernel refusal that retrying cannot fix.
 */
#ifndef XCB_DRI3_UTIL_FUTEX_H
#define XCB_DRI3_UTIL_FUTEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's limit on the words of one futex_waitv call. */
#define FUTEX_WAIT_ANY_MAX 128

/* How long futex_wait_any() sleeps on its first word alone before it
 * returns for a look at the others, where futex_waitv cannot be used. */
#define FUTEX_FALLBACK_SLICE_NS 1000000LL

/* Wakes every waiter on word, in any process. */
int futex_wake_all(int32_t *word);

/* Sleeps while *word == expect, until woken or the deadline. */
int futex_wait_until(int32_t *word, int32_t expect, int64_t deadline);

/*
 * Sleeps while words[i] == expect[i] for every i < n, until one of them is
 * woken or the deadline; put the most likely word first.  With futex_waitv
 * (and n <= FUTEX_WAIT_ANY_MAX) that is one sleep on all the words;
 * otherwise a sleep on words[0] of at most FUTEX_FALLBACK_SLICE_NS.
 */
int futex_wait_any(int32_t *const *words, const int32_t *expect, size_t n, int64_t deadline);

/* Whether futex_wait_any() uses futex_waitv: false where the kernel lacks
 * it or the environment has XCB_DRI3_UTIL_NO_FUTEX_WAITV=1 (read once). */
bool futex_waitv_usable(void);

#endif
