/*
 * System calls made by this thread, counted by the kernel: one
 * perf_event_open() counter on the raw_syscalls:sys_enter tracepoint for
 * the total, and one per kind on syscalls:sys_enter_NAME for the kinds a
 * presentation loop makes.  The thread that opens the counters is
 * counted, and threads it starts afterwards once they have ended (the
 * kernel adds an inherited counter's count to its parent's at exit); the
 * benchmark has no other thread, and the server is another process.
 * Counts, not times: the same on a busy machine as on an idle one.
 *
 * Needs the tracepoints (tracefs, and perf_event_paranoid low enough or
 * root); without them syscall_count_open() returns -1 and the figures
 * read as unavailable.
 */
#ifndef BENCH_SYSCALL_COUNT_H
#define BENCH_SYSCALL_COUNT_H

#include <stdint.h>

/* The kinds counted one by one; the rest is "other". */
#define SYSCALL_KINDS 11

struct syscall_counts {
    uint64_t total;
    uint64_t kind[SYSCALL_KINDS];
};

/* The name of kind i (0 .. SYSCALL_KINDS - 1). */
const char *syscall_kind_name(int i);

/* Opens the counters; 0, or -1 where the kernel does not give them. */
int syscall_count_open(void);

/* The counts so far (all zero where the counters did not open). */
void syscall_count_read(struct syscall_counts *out);

/* b - a, kind by kind. */
void syscall_count_diff(const struct syscall_counts *a, const struct syscall_counts *b,
                        struct syscall_counts *out);

/* Whether the counters opened. */
int syscall_count_available(void);

#endif
