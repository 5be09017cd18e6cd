/*
 * Helpers shared by the fence tests: the clock, short sleeps, child
 * processes that cannot outlive a failed test, and a way to tell that the
 * test runs under valgrind (where timing bounds and seccomp do not apply).
 */
#ifndef FENCE_TEST_UTIL_H
#define FENCE_TEST_UTIL_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test-runner.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

static inline int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void sleep_ms(int ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* Forks a child that dies with its parent (so a test that fails while the
 * child blocks leaves nothing behind) and that gives up after 10 s. */
static inline pid_t fork_child(void)
{
    pid_t pid = fork();

    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        alarm(10);
    }
    return pid;
}

/* Waits for a child of fork_child() and returns its exit status, or 128 +
 * the signal that killed it. */
static inline int wait_child(pid_t pid)
{
    int status;

    while (waitpid(pid, &status, 0) < 0)
        CHECK_EQ(errno, EINTR);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

/* Spins (with short sleeps) until *word == value, for up to 5 s: lets a
 * test know that the other side has gone to sleep on a fence. */
static inline bool wait_for_word(const volatile int32_t *word, int32_t value)
{
    for (int i = 0; i < 50000; i++) {
        if (__atomic_load_n(word, __ATOMIC_ACQUIRE) == value)
            return true;
        usleep(100);
    }
    return false;
}

/* A second mapping of a fence's word, to look at it from outside (the
 * test unmaps it with unmap_word()). */
static inline int32_t *map_word(int fd)
{
    void *p = mmap(NULL, sizeof(int32_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

    CHECK(p != MAP_FAILED);
    return p;
}

static inline void unmap_word(int32_t *word)
{
    munmap(word, sizeof(int32_t));
}

#endif
