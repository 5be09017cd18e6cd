/*
 * Fences: creating and importing futex pages, and the non-blocking
 * operations on them.
 *
 * The word follows libxshmfence's futex protocol, which the X server uses
 * on the same page from its side:
 *   - trigger stores 1, and wakes all waiters if it replaced -1;
 *   - a waiter turns 0 into -1 before it sleeps on -1;
 *   - reset turns 1 into 0 (and leaves 0 and -1 alone).
 * Only the sleeps and the wake-up after a contended trigger enter the
 * kernel; everything else is one atomic instruction.
 *
 * Two rules of ours on top, which libxshmfence's peers are compatible with:
 *   - trigger also wakes when it replaces a value that no party should
 *     write (neither 0 nor 1): a misbehaving peer may have left it, and a
 *     waiter of ours sleeps on whatever value it finds (fence_arm());
 *   - a waiter that gives up (timeout, a watcher's remove) turns its -1
 *     back into 0 and wakes the other sleepers, which then mark the word
 *     again: so the next trigger finds 0 unless somebody really sleeps,
 *     and makes no system call (fence_disarm()).
 */
#include "fence-private.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fence-futex.h"

#define FENCE_MEMFD_NAME "xcb-dri3-util-fence"

/* Spin failures in a row after which a fence's waits stop spinning, and
 * how often they try again then (one wait in FENCE_SPIN_PROBE): the cost
 * of a useless spin drops to 1/16, and a peer that starts triggering from
 * another CPU is noticed within 16 waits. */
#define FENCE_SPIN_CREDIT 8
#define FENCE_SPIN_PROBE 16

/* Maps the word at offset 0 of fd.  The fence owns fd from then on. */
static xcb_dri3_util_fence_t *map_fence(int fd)
{
    xcb_dri3_util_fence_t *fence = malloc(sizeof(*fence));
    void *page;

    if (!fence)
        return NULL;
    /* Only the word is mapped: the kernel rounds the length up to a page,
     * and a page of libxshmfence is just 4 bytes long anyway. */
    page = mmap(NULL, sizeof(int32_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (page == MAP_FAILED) {
        free(fence);
        return NULL;
    }
    fence->fd = fd;
    fence->word = page;
    fence->spin_credit = FENCE_SPIN_CREDIT;
    fence->spin_skips = 0;
    return fence;
}

/* A constructor's failure after it took fd: closes it, keeps the errno
 * that says why, and returns the NULL the constructor returns. */
static xcb_dri3_util_fence_t *close_keeping_errno(int fd)
{
    int saved = errno;

    close(fd);
    errno = saved;
    return NULL;
}

xcb_dri3_util_fence_t *xcb_dri3_util_fence_create(bool triggered)
{
    long page_size = sysconf(_SC_PAGESIZE);
    xcb_dri3_util_fence_t *fence;
    int fd;

    fd = memfd_create(FENCE_MEMFD_NAME, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return NULL;
    /* A whole page, sealed so that nobody can shrink it under a mapping
     * (which would turn the next access to the word into a SIGBUS). */
    if (ftruncate(fd, page_size > 0 ? page_size : 4096) < 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) < 0)
        goto fail;
    fence = map_fence(fd);
    if (!fence)
        goto fail;
    /* A fresh memfd reads as zeroes: untriggered. */
    if (triggered)
        __atomic_store_n(fence->word, FENCE_TRIGGERED, __ATOMIC_RELEASE);
    return fence;

fail:
    return close_keeping_errno(fd);
}

xcb_dri3_util_fence_t *xcb_dri3_util_fence_import(int fd)
{
    xcb_dri3_util_fence_t *fence;
    struct stat st;
    int flags;

    /* Fds from libxcb replies come without close-on-exec; setting it is
     * also the cheapest test that fd is open at all. */
    if (fd < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
        errno = EBADF;
        return NULL;
    }
    if (fstat(fd, &st) < 0)
        goto fail;
    /* Checked before mmap() so that each refusal has its own errno. */
    if (!S_ISREG(st.st_mode)) {
        errno = ENODEV;
        goto fail;
    }
    if (st.st_size < (off_t)sizeof(int32_t)) {
        errno = EINVAL;
        goto fail;
    }
    flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        goto fail;
    if ((flags & O_ACCMODE) != O_RDWR) {
        errno = EACCES;
        goto fail;
    }
    fence = map_fence(fd);
    if (fence)
        return fence;

fail:
    return close_keeping_errno(fd);
}

int xcb_dri3_util_fence_trigger(xcb_dri3_util_fence_t *fence)
{
    int32_t old;

    if (!fence)
        return -EINVAL;
    old = __atomic_exchange_n(fence->word, FENCE_TRIGGERED, __ATOMIC_SEQ_CST);

    /* -1 says that somebody sleeps; any other value but 0 and 1 may hide
     * a sleeper too (see fence_arm()), so it is woken as well. */
    if (old != FENCE_UNTRIGGERED && old != FENCE_TRIGGERED)
        return futex_wake_all(fence->word);
    return 0;
}

void xcb_dri3_util_fence_reset(xcb_dri3_util_fence_t *fence)
{
    int32_t expect = FENCE_TRIGGERED;

    if (!fence)
        return;
    __atomic_compare_exchange_n(fence->word, &expect, FENCE_UNTRIGGERED, false,
                                __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

bool xcb_dri3_util_fence_is_triggered(const xcb_dri3_util_fence_t *fence)
{
    return fence && fence_word_triggered(fence->word);
}

int xcb_dri3_util_fence_fd(const xcb_dri3_util_fence_t *fence)
{
    return fence ? fence->fd : -1;
}

void xcb_dri3_util_fence_destroy(xcb_dri3_util_fence_t *fence)
{
    if (!fence)
        return;
    munmap(fence->word, sizeof(int32_t));
    close(fence->fd);
    free(fence);
}

/* Long enough to cover a trigger already on its way from another CPU,
 * short next to a sleep and a wake-up: 64 pause instructions take about
 * 2 us on a current x86 CPU, a futex sleep and wake-up several. */
#define FENCE_SPIN_ROUNDS 64


static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

/* Spinning only pays when the trigger can come from another CPU at the
 * same time; with a single CPU to run on, it only delays the sleep.  The
 * CPUs this process may use are counted once (a later change of affinity
 * is not followed: the spin is an optimisation, not a rule). */
static bool spin_worthwhile;
static pthread_once_t spin_once = PTHREAD_ONCE_INIT;

static void count_cpus(void)
{
    cpu_set_t cpus;

    spin_worthwhile = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && CPU_COUNT(&cpus) > 1;
}

bool fence_spin(xcb_dri3_util_fence_t *fence)
{
    uint32_t credit;

    pthread_once(&spin_once, count_cpus);
    if (!spin_worthwhile)
        return false;
    credit = __atomic_load_n(&fence->spin_credit, __ATOMIC_RELAXED);
    if (credit == 0 &&
        __atomic_add_fetch(&fence->spin_skips, 1, __ATOMIC_RELAXED) % FENCE_SPIN_PROBE != 0)
        return false;
    for (int i = 0; i < FENCE_SPIN_ROUNDS; i++) {
        if (fence_word_triggered(fence->word)) {
            __atomic_store_n(&fence->spin_credit, FENCE_SPIN_CREDIT, __ATOMIC_RELAXED);
            return true;
        }
        cpu_relax();
    }
    if (credit > 0)
        __atomic_store_n(&fence->spin_credit, credit - 1, __ATOMIC_RELAXED);
    return false;
}

bool fence_arm(int32_t *word, int32_t *expect)
{
    int32_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE);

    while (v == FENCE_UNTRIGGERED) {
        /* On failure v receives the new value and the loop looks again. */
        if (__atomic_compare_exchange_n(word, &v, FENCE_WAITED, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_ACQUIRE))
            v = FENCE_WAITED;
    }
    if (v == FENCE_TRIGGERED)
        return true;
    /* FENCE_WAITED, or a value no party should write: sleep until it
     * changes, which is all that can be done with it. */
    *expect = v;
    return false;
}

void fence_disarm(int32_t *word)
{
    int32_t expect = FENCE_WAITED;

    /* Other sleepers on the word, in this process or another, are woken
     * so that they mark it again; without the wake-up they would sleep
     * through the next trigger, which would find 0 and wake nobody. */
    if (__atomic_compare_exchange_n(word, &expect, FENCE_UNTRIGGERED, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED))
        futex_wake_all(word);
}
