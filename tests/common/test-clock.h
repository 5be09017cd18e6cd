/*
 * The tests' clock: CLOCK_MONOTONIC, the clock of the libraries'
 * deadlines and of the mock server's UST, in the units a test counts in,
 * and the bounded waits built on it.  A bound is there so that a broken
 * library fails its test instead of hanging it; it is never a measure of
 * how fast the machine is.
 */
#ifndef TEST_CLOCK_H
#define TEST_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

int64_t test_now_ns(void);
int64_t test_now_us(void);
int64_t test_now_ms(void);

void test_sleep_ms(int ms);

/* Sleeps in poll() until fd is readable, deadline_ms (a test_now_ms()
 * time) comes, or slice_ms pass (0: no slice), whichever is first; false,
 * without sleeping, once the deadline has passed.  The caller looks at
 * what it waits for between calls: libxcb and Xlib may have read it into
 * their buffers meanwhile, leaving the fd quiet, which is what slices are
 * for. */
bool test_poll_until(int fd, int64_t deadline_ms, int slice_ms);

/* poll() on one fd for `events`, again when a signal cuts it short:
 * poll()'s result (1 ready, 0 timed out, -1 with errno). */
int test_poll_one(int fd, short events, int timeout_ms);

/* Looks at cond(arg) every millisecond until it holds or timeout_ms pass;
 * whether it held. */
bool test_wait_until(bool (*cond)(const void *arg), const void *arg, int timeout_ms);

#endif
