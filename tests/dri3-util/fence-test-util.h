/*
 * Helpers shared by the fence tests: child processes that cannot outlive
 * a failed test, a way to tell that the test runs under valgrind (where
 * timing bounds and seccomp do not apply), and a stand-in for a kernel or
 * sandbox without futex_waitv.  The clock and sleeps are test-clock.h's.
 */
#ifndef FENCE_TEST_UTIL_H
#define FENCE_TEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test-clock.h"
#include "test-runner.h"
#include "xcb_dri3_util.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449 /* the same number on every architecture */
#endif

/* Makes futex_waitv fail with err in this process (the test's own child),
 * as a kernel without it (ENOSYS) or a sandbox that does not know it (EPERM)
 * would; threads created afterwards, such as a watcher's, inherit the
 * filter.  Skips under valgrind, which makes system calls of its own. */
static inline void refuse_futex_waitv(unsigned int err)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex_waitv, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

    if (RUNNING_ON_VALGRIND)
        SKIP("valgrind makes system calls of its own");
    CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0);
    CHECK(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0);
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

/*
 * Runs body(arg) in a child of fork_child() under a seccomp filter that kills
 * it on any futex system call, and returns the child's status: 0 when it made
 * none, 128 + SIGSYS when it made one, 3 when the filter could not be set.
 * Not under valgrind, which makes system calls of its own: callers skip.
 */
static inline int run_without_futex(void (*body)(void *), void *arg)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex_waitv, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog prog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };
    pid_t pid = fork_child();

    if (pid == 0) {
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
            _exit(3);
        body(arg);
        _exit(0);
    }
    return wait_child(pid);
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

/* The calling thread's kernel id. */
static inline pid_t thread_id(void)
{
    return (pid_t)syscall(SYS_gettid);
}

/* The state letter of a thread of this process ('R' running, 'S' asleep,
 * ...), or 0 if it cannot be read. */
static inline char thread_state(pid_t tid)
{
    char path[64], buf[512], *close_paren;
    FILE *f;
    size_t n;

    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
    f = fopen(path, "re");
    if (!f)
        return 0;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    close_paren = strrchr(buf, ')');
    return close_paren && close_paren[1] == ' ' ? close_paren[2] : 0;
}

/* Waits (up to 5 s) until thread tid sleeps: lets a test know that a waiter
 * has entered the kernel, where the word alone cannot tell. */
static inline bool wait_for_sleep(pid_t tid)
{
    for (int i = 0; i < 5000; i++) {
        if (thread_state(tid) == 'S')
            return true;
        usleep(1000);
    }
    return false;
}

/* The thread of the process's only watcher (the library names it
 * "xcb-fence-watch"; sanitizers add threads of their own), or 0 if there
 * is not exactly one. */
static inline pid_t other_thread(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    pid_t found = 0;
    int count = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        pid_t tid = (pid_t)atoi(e->d_name);
        char path[64], name[32] = "";
        FILE *f;

        if (tid <= 0)
            continue;
        snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
        f = fopen(path, "re");
        if (!f)
            continue;
        if (fgets(name, sizeof(name), f) && strcmp(name, "xcb-fence-watch\n") == 0) {
            found = tid;
            count++;
        }
        fclose(f);
    }
    closedir(d);
    return count == 1 ? found : 0;
}

/* How many times thread tid has been switched out so far (voluntarily, as
 * when it sleeps, or not), or -1 if it cannot be read. */
static inline long context_switches(pid_t tid)
{
    char path[64], line[128];
    long total = 0;
    int seen = 0;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
    f = fopen(path, "re");
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f)) {
        long n;

        if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1 ||
            sscanf(line, "nonvoluntary_ctxt_switches: %ld", &n) == 1) {
            total += n;
            seen++;
        }
    }
    fclose(f);
    return seen == 2 ? total : -1;
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

/*
 * Another process wakes our waiter: a child of fork_child() calls
 * trigger(arg) (true: it triggered) once the parent sleeps on f, as
 * word (f's page, mapped) shows by -1; the parent's wait must return within
 * 5 s and the child must have triggered.  The child frees its copies of f
 * and word (valgrind follows it), trigger those of what else it uses.
 */
static inline void check_woken_by_child(xcb_dri3_util_fence_t *f, int32_t *word,
                                        bool (*trigger)(void *), void *arg)
{
    pid_t pid = fork_child();

    if (pid == 0) {
        int status = wait_for_word(word, -1) && trigger(arg) ? 0 : 1;

        unmap_word(word);
        xcb_dri3_util_fence_destroy(f);
        _exit(status);
    }
    CHECK_EQ(xcb_dri3_util_fence_wait(f, 5000 * 1000000LL), 0);
    CHECK_EQ(wait_child(pid), 0);
}

#endif
