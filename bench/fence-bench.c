/*
 * Fence benchmark: our fences against libxshmfence, in the same run, on
 * the same kind of page.
 *
 *   round trip   two processes ping-pong through two fences; time per
 *                round (two wake-ups, two waits, two resets); once free
 *                to run on any CPU, once both pinned to one CPU, where
 *                every wait must sleep and every trigger must wake
 *   trigger      trigger of a fence nobody waits for, then reset
 *   wait         wait on a triggered fence
 *   query        is_triggered / xshmfence_query
 *
 * Each figure is the best of several runs (the least disturbed one).
 * Usage: fence-bench [rounds]   (default 100000 round trips)
 */
#include <X11/xshmfence.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "xcb_dri3_util.h"

#define RUNS 5
#define UNCONTENDED_OPS 10000000L

/* One side's operations, so that the same loops time both libraries. */
struct impl {
    const char *name;
    void *(*make)(int fd);
    void (*trigger)(void *f);
    void (*reset)(void *f);
    int (*wait)(void *f);
    int (*query)(void *f);
};

static void *ours_make(int fd)
{
    return xcb_dri3_util_fence_import(fcntl(fd, F_DUPFD_CLOEXEC, 0));
}
static void ours_trigger(void *f) { xcb_dri3_util_fence_trigger(f); }
static void ours_reset(void *f) { xcb_dri3_util_fence_reset(f); }
static int ours_wait(void *f) { return xcb_dri3_util_fence_wait(f, -1); }
static int ours_query(void *f) { return xcb_dri3_util_fence_is_triggered(f); }

static void *xshm_make(int fd)
{
    /* xshmfence_map_shm() closes the fd on failure only: give it a dup and
     * close the dup once mapped. */
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    struct xshmfence *f = copy >= 0 ? xshmfence_map_shm(copy) : NULL;

    if (f)
        close(copy);
    return f;
}
static void xshm_trigger(void *f) { xshmfence_trigger(f); }
static void xshm_reset(void *f) { xshmfence_reset(f); }
static int xshm_wait(void *f) { return xshmfence_await(f); }
static int xshm_query(void *f) { return xshmfence_query(f); }

static const struct impl impls[2] = {
    { "ours", ours_make, ours_trigger, ours_reset, ours_wait, ours_query },
    { "libxshmfence", xshm_make, xshm_trigger, xshm_reset, xshm_wait, xshm_query },
};

/* A fresh page for both libraries: libxshmfence's own allocator. */
static void *fresh(const struct impl *im)
{
    int fd = xshmfence_alloc_shm();
    void *f;

    if (fd < 0) {
        perror("xshmfence_alloc_shm");
        exit(1);
    }
    f = im->make(fd);
    close(fd);
    if (!f) {
        fprintf(stderr, "%s cannot map the page\n", im->name);
        exit(1);
    }
    return f;
}

static void release(const struct impl *im, void *f)
{
    if (im == &impls[0])
        xcb_dri3_util_fence_destroy(f);
    else
        xshmfence_unmap_shm(f);
}

/* ns per round trip between two processes that both use im, both on the
 * first CPU this process may use if one_cpu is true. */
static double round_trip(const struct impl *im, long rounds, bool one_cpu)
{
    void *ping = fresh(im), *pong = fresh(im);
    cpu_set_t all, one;
    int64_t start, end;
    pid_t pid;
    int status;

    sched_getaffinity(0, sizeof(all), &all);
    if (one_cpu) {
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
            if (CPU_ISSET(cpu, &all)) {
                CPU_SET(cpu, &one);
                break;
            }
        }
        sched_setaffinity(0, sizeof(one), &one); /* the child inherits it */
    }
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        for (long i = 0; i < rounds; i++) {
            im->wait(ping);
            im->reset(ping);
            im->trigger(pong);
        }
        _exit(0);
    }
    start = tool_now_ns();
    for (long i = 0; i < rounds; i++) {
        im->trigger(ping);
        im->wait(pong);
        im->reset(pong);
    }
    end = tool_now_ns();
    waitpid(pid, &status, 0);
    sched_setaffinity(0, sizeof(all), &all);
    release(im, ping);
    release(im, pong);
    return (double)(end - start) / (double)rounds;
}

enum op { OP_TRIGGER_RESET, OP_WAIT, OP_QUERY };

/* The uncontended loops call each library directly, as a program does.
 * Through struct impl's int-returning pointers, our query (it returns
 * bool) would need an adapter that calls and widens the result, where
 * libxshmfence's adapter is a plain jump: the figure would time the
 * adapter, not the library. */
#define UNCONTENDED_LOOP(op, f, sink, trigger, reset, wait, query)                            \
    do {                                                                                      \
        for (long i = 0; i < UNCONTENDED_OPS; i++) {                                          \
            switch (op) {                                                                     \
            case OP_TRIGGER_RESET:                                                            \
                trigger(f);                                                                   \
                reset(f);                                                                     \
                break;                                                                        \
            case OP_WAIT:                                                                     \
                sink += wait;                                                                 \
                break;                                                                        \
            case OP_QUERY:                                                                    \
                sink += query;                                                                \
                break;                                                                        \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* ns per uncontended operation. */
static double uncontended(const struct impl *im, enum op op)
{
    void *f = fresh(im);
    volatile int sink = 0;
    int64_t start;
    double ns;

    if (op != OP_TRIGGER_RESET)
        im->trigger(f);
    start = tool_now_ns();
    if (im == &impls[0])
        UNCONTENDED_LOOP(op, f, sink, xcb_dri3_util_fence_trigger, xcb_dri3_util_fence_reset,
                         xcb_dri3_util_fence_wait(f, -1), xcb_dri3_util_fence_is_triggered(f));
    else
        UNCONTENDED_LOOP(op, f, sink, xshmfence_trigger, xshmfence_reset, xshmfence_await(f),
                         xshmfence_query(f));
    ns = (double)(tool_now_ns() - start) / (double)UNCONTENDED_OPS;
    release(im, f);
    return ns;
}

static double best(double a, double b)
{
    return a < b ? a : b;
}

int main(int argc, char **argv)
{
    static const char *const names[] = { "round trip, any CPUs", "round trip, one CPU",
                                         "trigger + reset", "wait on triggered", "query" };
    enum { NMEASURES = sizeof(names) / sizeof(names[0]) };
    long rounds = argc > 1 ? atol(argv[1]) : 100000;
    double ns[NMEASURES][2];

    if (rounds <= 0) {
        fprintf(stderr, "usage: %s [rounds]\n", argv[0]);
        return 2;
    }
    for (int m = 0; m < NMEASURES; m++)
        ns[m][0] = ns[m][1] = 1e30;
    /* The runs alternate between the libraries, so that a disturbance of
     * the machine hits both alike. */
    for (int run = 0; run < RUNS; run++) {
        for (int i = 0; i < 2; i++) {
            ns[0][i] = best(ns[0][i], round_trip(&impls[i], rounds, false));
            ns[1][i] = best(ns[1][i], round_trip(&impls[i], rounds / 4, true));
            ns[2][i] = best(ns[2][i], uncontended(&impls[i], OP_TRIGGER_RESET));
            ns[3][i] = best(ns[3][i], uncontended(&impls[i], OP_WAIT));
            ns[4][i] = best(ns[4][i], uncontended(&impls[i], OP_QUERY));
        }
    }
    printf("%-26s %12s %14s %10s\n", "ns per operation", "ours", "libxshmfence",
           "xshm/ours");
    for (int m = 0; m < NMEASURES; m++)
        printf("%-26s %12.1f %14.1f %10.2f\n", names[m], ns[m][0], ns[m][1],
               ns[m][1] / ns[m][0]);
    printf("(best of %d runs; %ld round trips (%ld on one CPU), %ld uncontended operations\n"
           " per run; a ratio above 1 means ours is faster)\n", RUNS, rounds, rounds / 4,
           UNCONTENDED_OPS);
    return 0;
}
