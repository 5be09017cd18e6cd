/*
 * The clock of the programs and the benchmarks: CLOCK_MONOTONIC.  Not
 * the util libraries' util-internal/deadline.h: the installed programs are examples of
 * the public API and use no library's insides.  Header-only, so that a
 * program takes it without another source file in its build.
 */
#ifndef TOOLS_CLOCK_H
#define TOOLS_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t tool_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline double tool_now_s(void)
{
    return (double)tool_now_ns() / 1e9;
}

#endif
