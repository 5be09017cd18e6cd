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
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fuzz-conn.h"
#include "fuzz-server.h"

/* What ours stand in front of: the sanitizers' interceptor where there is
 * one (they are weak and give way to ours, and it keeps their checks of
 * the buffers passed), else libc's own. */
#define REAL(fn) \
    static __typeof__(fn) *real_##fn; \
    if (real_##fn == NULL) { \
        real_##fn = __interceptor_##fn; \
        if (real_##fn == NULL) \
            *(void **)&real_##fn = dlsym(RTLD_NEXT, #fn); \
    }
#define INTERCEPTOR(fn) extern __typeof__(fn) __interceptor_##fn __attribute__((weak))
INTERCEPTOR(clock_gettime);
INTERCEPTOR(poll);
INTERCEPTOR(ppoll);
INTERCEPTOR(recvmsg);
INTERCEPTOR(recv);
INTERCEPTOR(writev);
INTERCEPTOR(sendmsg);
INTERCEPTOR(write);
INTERCEPTOR(send);
INTERCEPTOR(shutdown);
INTERCEPTOR(close);
INTERCEPTOR(syscall);

/* Every wait skipped so far. Only the thread of an input moves it. */
static _Atomic int64_t skipped;

/* The harness's own reading: libc's, with no interceptor's checks. */
static int64_t real_now(void)
{
    static __typeof__(clock_gettime) *libc_clock_gettime;
    struct timespec ts;

    if (libc_clock_gettime == NULL)
        *(void **)&libc_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
    libc_clock_gettime(CLOCK_MONOTONIC, &ts);
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
 * Returns ready()'s last result (0 at the deadline).
 *
 * With `settled`, what ready() looks at changes only by what the server
 * does (fds, which nothing else on this thread touches while it waits):
 * once it has said "not yet", it is asked again only after the server has
 * acted (fuzz_server_acts()), which saves a poll() of fds the counts do
 * not cover each time the clock skips. A futex word may be set by another
 * thread at any time: those waits look each time. */
static int vt_wait(int64_t deadline, int (*ready)(void *), void *arg, bool settled,
                   const char *what)
{
    uint64_t seen = 0;
    bool looked = false;

    for (unsigned spins = 0;; spins++) {
        int64_t now, next;
        int r;

        fuzz_server_pump();
        if (settled && looked && fuzz_server_acts() == seen) {
            if (fuzz_server_verify() && ready(arg) != 0)
                fuzz_finding("harness: %s became ready with nothing done by the server", what);
            r = 0;
        } else {
            seen = fuzz_server_acts();
            looked = true;
            r = ready(arg);
        }
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

/* What a poll() with a timeout of 0 would say. A set of the client's end
 * alone (and negative fds, which poll() passes over) is answered from the
 * socket's counts (fuzz-server.h), without a system call; any other, by
 * the kernel. */
static int poll_ready(void *arg)
{
    REAL(poll);
    struct poll_args *a = arg;
    int client = fuzz_server_client_fd(), rev[8], n = 0;

    if (a->n > 8)
        return real_poll(a->fds, a->n, 0);
    for (nfds_t i = 0; i < a->n; i++) {
        rev[i] = a->fds[i].fd < 0 ? 0 : a->fds[i].fd == client
                     ? fuzz_server_client_revents(a->fds[i].events) : -1;
        if (rev[i] < 0)
            return real_poll(a->fds, a->n, 0);
    }
    if (fuzz_server_verify()) {
        struct pollfd k[8];

        memcpy(k, a->fds, a->n * sizeof(*k));
        if (real_poll(k, a->n, 0) < 0)
            fuzz_finding("harness: poll: %s", strerror(errno));
        for (nfds_t i = 0; i < a->n; i++)
            if (k[i].revents != rev[i])
                fuzz_finding("harness: the socket's counts say revents %#x for events %#x, "
                             "the kernel %#x", (unsigned)rev[i], (unsigned)k[i].events,
                             (unsigned)k[i].revents);
    }
    for (nfds_t i = 0; i < a->n; i++) {
        a->fds[i].revents = (short)rev[i];
        n += rev[i] != 0;
    }
    return n;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    REAL(poll);
    struct poll_args a = { fds, n };

    if (!fuzz_server_here())
        return real_poll(fds, n, timeout);
    return vt_wait(timeout < 0 ? -1 : fuzz_vt_now() + timeout * 1000000ll, poll_ready, &a,
                   true, "a poll()");
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
    return vt_wait(deadline, poll_ready, &a, true, "a ppoll()");
}

/* Whether a call on fd is the client's on its end of the connection, on
 * the thread of the input. The same end used from another thread is not
 * counted: the counts stop for the input. */
static bool client_call(int fd)
{
    if (fd < 0 || fd != fuzz_server_client_fd())
        return false;
    if (fuzz_server_here())
        return true;
    fuzz_server_client_shut();
    return false;
}

/* libxcb's reads (recvmsg(); recv() in the handshake): the server answers
 * what it has been asked first, as a server with nothing else to do would
 * have by then. A read of an empty socket that would not block fails with
 * EAGAIN at once, as the counts say (libxcb reads until it does). */
static bool read_empty(int fd, int flags)
{
    fuzz_server_pump();
    if (!fuzz_server_client_read_empty(flags))
        return false;
    if (fuzz_server_verify()) {
        REAL(recv);
        char c;

        if (real_recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) >= 0 || errno != EAGAIN)
            fuzz_finding("harness: the socket's counts say the client's end is empty; "
                         "it is not");
    }
    errno = EAGAIN;
    return true;
}

static ssize_t client_read(ssize_t n, int flags)
{
    int e = errno;

    if (!(flags & MSG_PEEK))
        fuzz_server_client_read(n, e);
    errno = e;
    return n;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
    REAL(recvmsg);

    if (!client_call(fd))
        return real_recvmsg(fd, msg, flags);
    if (read_empty(fd, flags))
        return -1;
    return client_read(real_recvmsg(fd, msg, flags), flags);
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    REAL(recv);

    if (!client_call(fd))
        return real_recv(fd, buf, len, flags);
    if (read_empty(fd, flags))
        return -1;
    return client_read(real_recv(fd, buf, len, flags), flags);
}

/* libxcb's writes: counted for the server, which reads only when there is
 * something (and so saves the system call that would find nothing). */
static ssize_t client_wrote(ssize_t n)
{
    int e = errno;

    fuzz_server_client_wrote(n);
    errno = e;
    return n;
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    REAL(writev);

    if (!client_call(fd))
        return real_writev(fd, iov, n);
    return client_wrote(real_writev(fd, iov, n));
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
    REAL(sendmsg);

    if (!client_call(fd))
        return real_sendmsg(fd, msg, flags);
    return client_wrote(real_sendmsg(fd, msg, flags));
}

ssize_t write(int fd, const void *buf, size_t n)
{
    REAL(write);

    if (!client_call(fd))
        return real_write(fd, buf, n);
    return client_wrote(real_write(fd, buf, n));
}

ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    REAL(send);

    if (!client_call(fd))
        return real_send(fd, buf, n, flags);
    return client_wrote(real_send(fd, buf, n, flags));
}

/* The client's end shut down or closed (xcb_disconnect(), or a library
 * that closes what is not its own): the kernel answers from now on. */
int shutdown(int fd, int how)
{
    REAL(shutdown);

    if (fd >= 0 && fd == fuzz_server_client_fd())
        fuzz_server_client_shut();
    return real_shutdown(fd, how);
}

int close(int fd)
{
    REAL(close);

    if (fd >= 0 && fd == fuzz_server_client_fd())
        fuzz_server_client_shut();
    return real_close(fd);
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
    if (vt_wait(deadline, futex_ready, a, false, "a futex wait")) {
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
