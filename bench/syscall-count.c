/* System calls counted by the kernel's tracepoints (syscall-count.h). */
#include "syscall-count.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const kind_names[SYSCALL_KINDS] = {
    "poll", "ppoll", "recvmsg", "sendmsg", "writev", "read",
    "write", "futex", "clock_nanosleep", "timerfd_settime", "ioctl",
};

static int total_fd = -1;
static int kind_fd[SYSCALL_KINDS] = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };

const char *syscall_kind_name(int i)
{
    return i >= 0 && i < SYSCALL_KINDS ? kind_names[i] : "?";
}

/* The tracepoint's id from tracefs (either of its two homes), or -1. */
static long tracepoint_id(const char *event)
{
    static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
    char path[256];
    long id = -1;

    for (size_t i = 0; i < sizeof roots / sizeof roots[0] && id < 0; i++) {
        FILE *f;

        snprintf(path, sizeof path, "%s/events/%s/id", roots[i], event);
        f = fopen(path, "re");
        if (f) {
            if (fscanf(f, "%ld", &id) != 1)
                id = -1;
            fclose(f);
        }
    }
    return id;
}

/* A counter on the tracepoint for this thread, or -1. */
static int open_counter(const char *event)
{
    struct perf_event_attr a;
    long id = tracepoint_id(event);

    if (id < 0)
        return -1;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_TRACEPOINT;
    a.config = (uint64_t)id;
    a.inherit = 1;          /* and threads started after */
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int syscall_count_open(void)
{
    char event[96];

    if (total_fd >= 0)
        return 0;
    total_fd = open_counter("raw_syscalls/sys_enter");
    if (total_fd < 0)
        return -1;
    for (int i = 0; i < SYSCALL_KINDS; i++) {
        snprintf(event, sizeof event, "syscalls/sys_enter_%s", kind_names[i]);
        kind_fd[i] = open_counter(event);
    }
    return 0;
}

int syscall_count_available(void)
{
    return total_fd >= 0;
}

static uint64_t read_counter(int fd)
{
    uint64_t v = 0;

    if (fd >= 0 && read(fd, &v, sizeof v) != (ssize_t)sizeof v)
        v = 0;
    return v;
}

void syscall_count_read(struct syscall_counts *out)
{
    memset(out, 0, sizeof *out);
    /* the kinds first: the total then counts these reads too, which
     * syscall_count_diff() of two readings cancels */
    for (int i = 0; i < SYSCALL_KINDS; i++)
        out->kind[i] = read_counter(kind_fd[i]);
    out->total = read_counter(total_fd);
}

/* The read() calls of one syscall_count_read(): between two readings the
 * counters of the total and of read() see one such set. */
static uint64_t own_reads(void)
{
    uint64_t n = total_fd >= 0;

    for (int i = 0; i < SYSCALL_KINDS; i++)
        n += kind_fd[i] >= 0;
    return n;
}

void syscall_count_diff(const struct syscall_counts *a, const struct syscall_counts *b,
                        struct syscall_counts *out)
{
    uint64_t own = own_reads();

    out->total = b->total - a->total;
    for (int i = 0; i < SYSCALL_KINDS; i++)
        out->kind[i] = b->kind[i] - a->kind[i];
    if (out->total >= own)
        out->total -= own;
    for (int i = 0; i < SYSCALL_KINDS; i++)
        if (!strcmp(kind_names[i], "read") && out->kind[i] >= own)
            out->kind[i] -= own;
}
