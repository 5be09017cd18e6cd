/* Futex system calls for shared fence words; see futex.h. */
#include "fence-futex.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util-internal/deadline.h"

/* Set once from the environment, cleared for good when the kernel refuses
 * the call (ENOSYS, or EPERM from a sandbox that does not know it): the
 * fallback is then taken without asking the kernel again. */
static atomic_bool waitv_enabled;
static pthread_once_t waitv_once = PTHREAD_ONCE_INIT;

static void read_waitv_setting(void)
{
    const char *off = getenv("XCB_DRI3_UTIL_NO_FUTEX_WAITV");

#ifdef SYS_futex_waitv
    atomic_store(&waitv_enabled, !(off && strcmp(off, "1") == 0));
#else
    (void)off;
    atomic_store(&waitv_enabled, false);
#endif
}

bool futex_waitv_usable(void)
{
    pthread_once(&waitv_once, read_waitv_setting);
    return atomic_load(&waitv_enabled);
}

int futex_wake_all(int32_t *word)
{
    if (syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0) < 0)
        return -errno;
    return 0;
}

/* Maps a wait's outcome onto the contract in futex.h. */
static int wait_result(long ret)
{
    if (ret >= 0 || errno == EAGAIN || errno == EINTR)
        return 0;
    return -errno;
}

int futex_wait_until(int32_t *word, int32_t expect, int64_t deadline)
{
    struct timespec ts = deadline_to_timespec(deadline);

    /* The kernel would still arm a timer (with its slack, 50 us by
     * default) for a deadline in the past. */
    if (deadline_passed(deadline))
        return -ETIMEDOUT;
    /* FUTEX_WAIT_BITSET, unlike FUTEX_WAIT, takes an absolute
     * CLOCK_MONOTONIC time; MATCH_ANY makes it a plain wait, which every
     * FUTEX_WAKE (libxshmfence's included) reaches. */
    return wait_result(syscall(SYS_futex, word, FUTEX_WAIT_BITSET, expect,
                               deadline >= 0 ? &ts : NULL, NULL, FUTEX_BITSET_MATCH_ANY));
}

#ifdef SYS_futex_waitv
/* One futex_waitv over all the words.  Returns 1 if the call is not
 * available, else a result as in futex.h.  Not available means ENOSYS (a
 * kernel before 5.16, valgrind) or EPERM: seccomp profiles written before
 * the call existed (container runtimes, browser sandboxes) answer EPERM for
 * every system call they do not list, and futex_waitv itself never fails
 * with EPERM. */
static int wait_any_waitv(int32_t *const *words, const int32_t *expect, size_t n,
                          int64_t deadline)
{
    struct futex_waitv w[FUTEX_WAIT_ANY_MAX];
    struct timespec ts = deadline_to_timespec(deadline);
    long ret;

    if (deadline_passed(deadline))
        return -ETIMEDOUT;
    memset(w, 0, sizeof(w[0]) * n);
    for (size_t i = 0; i < n; i++) {
        w[i].val = (uint64_t)(uint32_t)expect[i];
        w[i].uaddr = (uint64_t)(uintptr_t)words[i];
        w[i].flags = FUTEX_32; /* shared: no FUTEX_PRIVATE_FLAG */
    }
    ret = syscall(SYS_futex_waitv, w, (unsigned int)n, 0, deadline >= 0 ? &ts : NULL,
                  CLOCK_MONOTONIC);
    if (ret < 0 && (errno == ENOSYS || errno == EPERM))
        return 1;
    return wait_result(ret);
}
#endif

int futex_wait_any(int32_t *const *words, const int32_t *expect, size_t n, int64_t deadline)
{
    int64_t slice_end;
    int ret;

#ifdef SYS_futex_waitv
    if (n <= FUTEX_WAIT_ANY_MAX && futex_waitv_usable()) {
        ret = wait_any_waitv(words, expect, n, deadline);
        if (ret != 1)
            return ret;
        atomic_store(&waitv_enabled, false);
    }
#endif
    slice_end = deadline_slice(deadline, FUTEX_FALLBACK_SLICE_NS);
    ret = futex_wait_until(words[0], expect[0], slice_end);
    if (ret == -ETIMEDOUT && slice_end != deadline)
        return 0; /* only the slice ended: look at the others */
    return ret;
}
