/* Blocking waits on one fence or on several. */
#include "fence-private.h"

#include <errno.h>

#include "util-internal/deadline.h"
#include "fence-futex.h"

/* How long a wait that watches a connection sleeps between its looks. */
#define CONN_CHECK_SLICE_NS 4000000LL

int fence_wait_one(xcb_dri3_util_fence_t *fence, xcb_connection_t *c, int64_t timeout_ns)
{
    int64_t deadline;
    int32_t expect;

    /* The fast path, and a plain test for a zero timeout: arming the word
     * there would only cost the next trigger a needless wake-up call. */
    if (fence_word_triggered(fence->word))
        return 0;
    if (c && fence_connection_lost(c))
        return -EPIPE;
    if (timeout_ns == 0)
        return -ETIMEDOUT;
    deadline = deadline_from_timeout(timeout_ns);
    if (fence_spin(fence))
        return 0;
    while (!fence_arm(fence->word, &expect)) {
        /* With a connection, sleep in slices and look at it between them. */
        int64_t slice_end = c ? deadline_slice(deadline, CONN_CHECK_SLICE_NS) : deadline;
        int ret = futex_wait_until(fence->word, expect, slice_end);

        if (fence_word_triggered(fence->word))
            return 0;
        if (ret == -ETIMEDOUT && slice_end != deadline)
            ret = 0; /* only the slice ended */
        if (ret == 0 && c && fence_connection_lost(c))
            ret = -EPIPE;
        if (ret < 0) {
            fence_disarm(fence->word);
            return ret;
        }
    }
    return 0;
}

int xcb_dri3_util_fence_wait(xcb_dri3_util_fence_t *fence, int64_t timeout_ns)
{
    if (!fence)
        return -EINVAL;
    /* A triggered fence costs one load here, not a call more (it is the
     * common case, and libxshmfence's wait is a load too) */
    if (fence_word_triggered(fence->word))
        return 0;
    return fence_wait_one(fence, NULL, timeout_ns);
}

/* Whether the wait is over, without touching any word. */
static bool wait_satisfied(xcb_dri3_util_fence_t *const *fences, size_t n, bool wait_all,
                           size_t *which)
{
    for (size_t i = 0; i < n; i++) {
        bool triggered = fence_word_triggered(fences[i]->word);

        if (triggered && !wait_all) {
            if (which)
                *which = i;
            return true;
        }
        if (!triggered && wait_all)
            return false;
    }
    return wait_all;
}

static void disarm_all(int32_t *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fence_disarm(words[i]);
}

int xcb_dri3_util_fence_wait_many(xcb_dri3_util_fence_t *const *fences, size_t n,
                                  bool wait_all, int64_t timeout_ns, size_t *which)
{
    int32_t *words[FUTEX_WAIT_ANY_MAX];
    int32_t expect[FUTEX_WAIT_ANY_MAX];
    int64_t deadline;

    if (!fences || n == 0)
        return -EINVAL;
    if (n > XCB_DRI3_UTIL_WAIT_MANY_MAX)
        return -E2BIG;
    for (size_t i = 0; i < n; i++)
        if (!fences[i])
            return -EINVAL;
    if (wait_satisfied(fences, n, wait_all, which))
        return 0;
    if (timeout_ns == 0)
        return -ETIMEDOUT;
    deadline = deadline_from_timeout(timeout_ns);
    for (;;) {
        size_t armed = 0;
        int ret;

        for (size_t i = 0; i < n; i++) {
            int32_t *word = fences[i]->word;

            if (!fence_arm(word, &expect[armed])) {
                words[armed++] = word;
            } else if (!wait_all) {
                if (which)
                    *which = i;
                disarm_all(words, armed);
                return 0;
            }
        }
        if (armed == 0)
            return 0;
        /* Waiting for all: sleeping on the first untriggered fence alone
         * loses nothing, so without futex_waitv there is no need for the
         * slices that waiting for any takes. */
        if (wait_all && !futex_waitv_usable())
            ret = futex_wait_until(words[0], expect[0], deadline);
        else
            ret = futex_wait_any(words, expect, armed, deadline);
        if (ret < 0) {
            /* The fences still marked would cost their next triggers a
             * wake-up call for nobody. */
            disarm_all(words, armed);
            if (ret == -ETIMEDOUT && wait_satisfied(fences, n, wait_all, which))
                return 0;
            return ret;
        }
        if (!wait_all && wait_satisfied(fences, n, wait_all, which)) {
            disarm_all(words, armed);
            return 0;
        }
    }
}
