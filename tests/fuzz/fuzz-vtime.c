/*
 * The util targets' virtual clock and the waits that run the scripted
 * server (fuzz-vtime.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-vtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fuzz-conn.h"
#include "fuzz-server.h"

/* libc's own, behind ours (and behind the sanitizers' interceptors, which
 * are weak and give way to ours). */
#define REAL(fn) \
    static __typeof__(fn) *real_##fn; \
    if (real_##fn == NULL) \
        *(void **)&real_##fn = dlsym(RTLD_NEXT, #fn)

/* Every wait skipped so far. Only the thread of an input moves it. */
static _Atomic int64_t skipped;

static int64_t real_now(void)
{
    REAL(clock_gettime);
    struct timespec ts;

    real_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int64_t fuzz_vt_now(void)
{
    return real_now() + atomic_load(&skipped);
}

void fuzz_vt_advance_to(int64_t t)
{
    int64_t now = fuzz_vt_now();

    if (t > now)
        atomic_fetch_add(&skipped, t - now);
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    REAL(clock_gettime);
    int r = real_clock_gettime(clk, ts);
    int64_t add = atomic_load(&skipped);

    if (r == 0 && clk == CLOCK_MONOTONIC && add) {
        int64_t ns = (int64_t)ts->tv_sec * 1000000000ll + ts->tv_nsec + add;

        ts->tv_sec = ns / 1000000000ll;
        ts->tv_nsec = ns % 1000000000ll;
    }
    return r;
}

/* A wait until ready() says so or the deadline (-1: none) comes. The
 * server runs first; then, if nothing is ready, the clock skips to the
 * deadline or to the server's next act of its own, whichever is first.
 * Returns ready()'s last result (0 at the deadline). */
static int vt_wait(int64_t deadline, int (*ready)(void *), void *arg, const char *what)
{
    for (unsigned spins = 0;; spins++) {
        int64_t now, next;
        int r;

        fuzz_server_pump();
        r = ready(arg);
        if (r != 0)
            return r;
        now = fuzz_vt_now();
        if (deadline >= 0 && now >= deadline)
            return 0;
        next = fuzz_server_next_ns();
        if (next < 0 && deadline < 0)
            fuzz_finding("%s without a bound, with nothing left that could end it", what);
        if (next >= 0 && next <= now && spins > 1000)
            fuzz_finding("harness: the server's next act is due and does not happen");
        if (next < 0 || (deadline >= 0 && next > deadline))
            next = deadline;
        fuzz_vt_advance_to(next);
    }
}

/* ---------------------------------------------------------------- poll */

struct poll_args {
    struct pollfd *fds;
    nfds_t n;
};

static int poll_ready(void *arg)
{
    REAL(poll);
    struct poll_args *a = arg;

    return real_poll(a->fds, a->n, 0);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    REAL(poll);
    struct poll_args a = { fds, n };

    if (!fuzz_server_here())
        return real_poll(fds, n, timeout);
    return vt_wait(timeout < 0 ? -1 : fuzz_vt_now() + timeout * 1000000ll, poll_ready, &a,
                   "a poll()");
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo, const sigset_t *mask)
{
    REAL(ppoll);
    struct poll_args a = { fds, n };
    int64_t deadline = -1;

    if (!fuzz_server_here())
        return real_ppoll(fds, n, tmo, mask);
    if (tmo)
        deadline = fuzz_vt_now() + (int64_t)tmo->tv_sec * 1000000000ll + tmo->tv_nsec;
    return vt_wait(deadline, poll_ready, &a, "a ppoll()");
}

/* libxcb's reads: the server answers what it has been asked first, as a
 * server with nothing else to do would have by then. */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
    REAL(recvmsg);

    if (fuzz_server_here() && fd == fuzz_server_client_fd())
        fuzz_server_pump();
    return real_recvmsg(fd, msg, flags);
}

/* libxcb's writes: the server's next look at the socket reads them (until
 * then it knows there is nothing to read, and saves the system call). */
ssize_t writev(int fd, const struct iovec *iov, int n)
{
    REAL(writev);

    if (fuzz_server_here() && fd == fuzz_server_client_fd())
        fuzz_server_client_wrote();
    return real_writev(fd, iov, n);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
    REAL(sendmsg);

    if (fuzz_server_here() && fd == fuzz_server_client_fd())
        fuzz_server_client_wrote();
    return real_sendmsg(fd, msg, flags);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    REAL(write);

    if (fuzz_server_here() && fd == fuzz_server_client_fd())
        fuzz_server_client_wrote();
    return real_write(fd, buf, n);
}

ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    REAL(send);

    if (fuzz_server_here() && fd == fuzz_server_client_fd())
        fuzz_server_client_wrote();
    return real_send(fd, buf, n, flags);
}

int shutdown(int fd, int how)
{
    REAL(shutdown);

    if (fuzz_server_here() && fd == fuzz_server_client_fd())
        fuzz_server_client_wrote();
    return real_shutdown(fd, how);
}

/* --------------------------------------------------------------- futex */

struct futex_args {
    const _Atomic int32_t *words[8];
    int32_t expect[8];
    unsigned n;
};

static int futex_ready(void *arg)
{
    struct futex_args *a = arg;

    for (unsigned i = 0; i < a->n; i++)
        if (atomic_load(a->words[i]) != a->expect[i])
            return 1;
    return 0;
}

/* A futex wait: -1 with errno EAGAIN (a word has changed: woken) or
 * ETIMEDOUT, as the kernel says. `deadline` is absolute, -1 for none. */
static long futex_wait(struct futex_args *a, int64_t deadline)
{
    if (vt_wait(deadline, futex_ready, a, "a futex wait")) {
        errno = EAGAIN;
        return -1;
    }
    errno = ETIMEDOUT;
    return -1;
}

static int64_t abs_ns(const struct timespec *ts)
{
    return ts ? (int64_t)ts->tv_sec * 1000000000ll + ts->tv_nsec : -1;
}

/* All six arguments are passed on, as glibc's syscall() takes them: a
 * caller that passed fewer leaves whatever is in those registers and that
 * stack slot, which the kernel ignores, and which AddressSanitizer would
 * take for a read past the caller's frame. */
__attribute__((no_sanitize_address)) long syscall(long number, ...)
{
    REAL(syscall);
    va_list ap;
    long arg[6];

    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        arg[i] = va_arg(ap, long);
    va_end(ap);
    if (fuzz_server_here() && number == SYS_futex) {
        int op = (int)arg[1] & FUTEX_CMD_MASK;
        const struct timespec *ts = (const struct timespec *)arg[3];
        struct futex_args a = { .words = { (const _Atomic int32_t *)arg[0] },
                                .expect = { (int32_t)arg[2] }, .n = 1 };

        if (op == FUTEX_WAIT)
            return futex_wait(&a, ts ? fuzz_vt_now() + abs_ns(ts) : -1);
        if (op == FUTEX_WAIT_BITSET && !((int)arg[1] & FUTEX_CLOCK_REALTIME))
            return futex_wait(&a, abs_ns(ts));
    }
#ifdef SYS_futex_waitv
    if (fuzz_server_here() && number == SYS_futex_waitv && arg[4] == CLOCK_MONOTONIC &&
        arg[1] > 0 && arg[1] <= 8) {
        const struct futex_waitv *w = (const struct futex_waitv *)arg[0];
        struct futex_args a = { .n = (unsigned)arg[1] };

        for (unsigned i = 0; i < a.n; i++) {
            a.words[i] = (const _Atomic int32_t *)(uintptr_t)w[i].uaddr;
            a.expect[i] = (int32_t)w[i].val;
        }
        return futex_wait(&a, abs_ns((const struct timespec *)arg[3]));
    }
#endif
    return real_syscall(number, arg[0], arg[1], arg[2], arg[3], arg[4], arg[5]);
}
