/* See test-clock.h. */
#ifndef _GNU_SOURCE /* the mock's and the fuzz harness's flags define it */
#define _GNU_SOURCE
#endif
#include "test-clock.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <time.h>

int64_t test_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t test_now_us(void)
{
    return test_now_ns() / 1000;
}

int64_t test_now_ms(void)
{
    return test_now_ns() / 1000000;
}

void test_sleep_ms(int ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

    /* A signal (a test's SIGALRM, a child's SIGCHLD) does not cut it short. */
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

bool test_poll_until(int fd, int64_t deadline_ms, int slice_ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int64_t left = deadline_ms - test_now_ms();

    if (left <= 0)
        return false;
    if (slice_ms > 0 && left > slice_ms)
        left = slice_ms;
    if (left > INT_MAX)
        left = INT_MAX;
    poll(&p, 1, (int)left);
    return true;
}

int test_poll_one(int fd, short events, int timeout_ms)
{
    struct pollfd p = { .fd = fd, .events = events };
    int n;

    do
        n = poll(&p, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    return n;
}

bool test_wait_until(bool (*cond)(const void *arg), const void *arg, int timeout_ms)
{
    int64_t deadline = test_now_ms() + timeout_ms;

    while (!cond(arg)) {
        if (test_now_ms() > deadline)
            return false;
        test_sleep_ms(1);
    }
    return true;
}
