/*
 * The futex word's rules beyond the plain protocol (see the top of
 * xcb_dri3_util.h): a value no party should write does not hide a trigger,
 * and a waiter that gives up takes its -1 mark back, so that the next
 * uncontended trigger makes no system call.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>

#include "fence-test-util.h"
#include "xcb_dri3_util.h"

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449 /* the same number on every architecture */
#endif

#define MS 1000000LL
/* A value that neither side of the protocol writes. */
#define FOREIGN 5

static void use_fallback(void)
{
    setenv("XCB_DRI3_UTIL_NO_FUTEX_WAITV", "1", 1);
}

/* ---- a foreign value does not hide a trigger ---------------------------- */

struct waiter {
    xcb_dri3_util_fence_t *fences[2];
    size_t n;               /* 1: wait(), 2: wait_many() for any */
    int64_t timeout_ns;
    pid_t tid;
    int result;
    pthread_t thread;
};

static void *waiter_main(void *arg)
{
    struct waiter *w = arg;

    __atomic_store_n(&w->tid, thread_id(), __ATOMIC_RELEASE);
    if (w->n == 1)
        w->result = xcb_dri3_util_fence_wait(w->fences[0], w->timeout_ns);
    else
        w->result = xcb_dri3_util_fence_wait_many(w->fences, w->n, false, w->timeout_ns, NULL);
    return NULL;
}

/* Starts a thread that waits and returns once it sleeps in the kernel. */
static void start_waiter(struct waiter *w, xcb_dri3_util_fence_t *const *f, size_t n,
                         int64_t timeout_ns)
{
    memset(w, 0, sizeof(*w));
    memcpy(w->fences, f, n * sizeof(f[0]));
    w->n = n;
    w->timeout_ns = timeout_ns;
    CHECK_EQ(pthread_create(&w->thread, NULL, waiter_main, w), 0);
    while (__atomic_load_n(&w->tid, __ATOMIC_ACQUIRE) == 0)
        usleep(100);
    CHECK(wait_for_sleep(w->tid));
}

static int join_waiter(struct waiter *w)
{
    CHECK_EQ(pthread_join(w->thread, NULL), 0);
    return w->result;
}

static void check_foreign_value_wait(size_t n)
{
    xcb_dri3_util_fence_t *f[2] = { xcb_dri3_util_fence_create(false),
                                    xcb_dri3_util_fence_create(false) };
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f[0]));
    struct waiter w;
    int64_t triggered;

    *word = FOREIGN;
    /* Not triggered: the wait sleeps, and reset leaves the value alone. */
    CHECK(!xcb_dri3_util_fence_is_triggered(f[0]));
    CHECK_EQ(xcb_dri3_util_fence_wait(f[0], 0), -ETIMEDOUT);
    xcb_dri3_util_fence_reset(f[0]);
    CHECK_EQ(*word, FOREIGN);
    /* The waiter sleeps on the foreign value; the trigger must wake it,
     * long before its timeout (at which it would find the fence triggered
     * and return 0 too, late). */
    start_waiter(&w, f, n, 6000 * MS);
    CHECK_EQ(*word, FOREIGN);
    triggered = test_now_ns();
    CHECK_EQ(xcb_dri3_util_fence_trigger(f[0]), 0);
    CHECK_EQ(join_waiter(&w), 0);
    test_note("woken %lld ns after the trigger", (long long)(test_now_ns() - triggered));
    CHECK(test_now_ns() - triggered < 3000 * MS);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f[0]);
    xcb_dri3_util_fence_destroy(f[1]);
}

TEST(foreign_value_wait_wakes_on_trigger)
{
    check_foreign_value_wait(1);
}

TEST(foreign_value_wait_many_wakes_on_trigger)
{
    check_foreign_value_wait(2);
}

TEST(foreign_value_wait_many_fallback_wakes_on_trigger)
{
    use_fallback();
    check_foreign_value_wait(2);
}

/* The watcher's thread sleeps on the foreign value too. */
static void check_foreign_value_watcher(void)
{
    xcb_dri3_util_fence_watcher_t *w = xcb_dri3_util_fence_watcher_create();
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));
    struct pollfd p = { .fd = xcb_dri3_util_fence_watcher_fd(w), .events = POLLIN };
    pid_t tid = other_thread();
    void *got;

    CHECK(tid != 0);
    *word = FOREIGN;
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, f, f), 0);
    /* Asleep again after the add (at least once it was seen awake is not
     * observable; sleeping with the fence listed is what counts). */
    usleep(20000);
    CHECK(wait_for_sleep(tid));
    CHECK_EQ(poll(&p, 1, 0), 0);
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    CHECK_EQ(poll(&p, 1, 3000), 1);
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(w, &got, 1), 1);
    CHECK(got == f);
    xcb_dri3_util_fence_watcher_destroy(w);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

TEST(foreign_value_watcher_reports_trigger)
{
    check_foreign_value_watcher();
}

TEST(foreign_value_watcher_fallback_reports_trigger)
{
    use_fallback();
    check_foreign_value_watcher();
}

/* ---- a waiter that gives up takes its mark back ------------------------- */

static void trigger_body(void *fence)
{
    if (xcb_dri3_util_fence_trigger(fence) != 0)
        _exit(4);
}

/* The word is back at 0, and the next trigger makes no futex call. */
static void check_unmarked(xcb_dri3_util_fence_t *f)
{
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));

    CHECK_EQ(*word, 0);
    unmap_word(word);
    if (!RUNNING_ON_VALGRIND)
        CHECK_EQ(run_without_futex(trigger_body, f), 0);
}

TEST(timed_out_wait_leaves_no_mark)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);

    CHECK_EQ(xcb_dri3_util_fence_wait(f, 5 * MS), -ETIMEDOUT);
    check_unmarked(f);
    xcb_dri3_util_fence_destroy(f);
}

static void check_wait_many_leaves_no_mark(void)
{
    xcb_dri3_util_fence_t *f[3];
    size_t which = 99;

    for (int i = 0; i < 3; i++)
        f[i] = xcb_dri3_util_fence_create(false);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f, 3, false, 5 * MS, NULL), -ETIMEDOUT);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f, 3, true, 5 * MS, NULL), -ETIMEDOUT);
    for (int i = 0; i < 3; i++)
        check_unmarked(f[i]);
    /* Waiting for any ends with one trigger: the others lose their mark. */
    for (int i = 0; i < 3; i++)
        xcb_dri3_util_fence_reset(f[i]);
    xcb_dri3_util_fence_trigger(f[1]);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f, 3, false, 5 * MS, &which), 0);
    CHECK_EQ(which, 1);
    check_unmarked(f[0]);
    check_unmarked(f[2]);
    for (int i = 0; i < 3; i++)
        xcb_dri3_util_fence_destroy(f[i]);
}

TEST(timed_out_wait_many_leaves_no_mark)
{
    check_wait_many_leaves_no_mark();
}

TEST(timed_out_wait_many_fallback_leaves_no_mark)
{
    use_fallback();
    check_wait_many_leaves_no_mark();
}

/* Taking the mark back must not strand another sleeper: it is woken,
 * marks the word again and still sees the trigger. */
TEST(giving_up_keeps_other_sleepers_awake_to_triggers)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));
    struct waiter patient;

    start_waiter(&patient, &f, 1, 5000 * MS);
    CHECK_EQ(*word, -1);
    CHECK_EQ(xcb_dri3_util_fence_wait(f, 5 * MS), -ETIMEDOUT);
    /* The patient waiter marked it again (it may take a moment). */
    CHECK(wait_for_word(word, -1));
    CHECK(wait_for_sleep(patient.tid));
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    CHECK_EQ(join_waiter(&patient), 0);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

static void check_watcher_leaves_no_mark(void)
{
    xcb_dri3_util_fence_watcher_t *w = xcb_dri3_util_fence_watcher_create();
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_dri3_util_fence_t *g = xcb_dri3_util_fence_create(false);
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));
    int32_t *gword = map_word(xcb_dri3_util_fence_fd(g));

    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, f, NULL), 0);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, g, NULL), 0);
    /* The thread marks the words before it sleeps on them. */
    CHECK(wait_for_word(word, -1));
    CHECK(wait_for_word(gword, -1));
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(w, f), 0);
    check_unmarked(f);
    /* Destroying the watcher takes its marks back as well. */
    xcb_dri3_util_fence_watcher_destroy(w);
    check_unmarked(g);
    unmap_word(word);
    unmap_word(gword);
    xcb_dri3_util_fence_destroy(f);
    xcb_dri3_util_fence_destroy(g);
}

TEST(watcher_remove_leaves_no_mark)
{
    check_watcher_leaves_no_mark();
}

TEST(watcher_remove_fallback_leaves_no_mark)
{
    use_fallback();
    check_watcher_leaves_no_mark();
}
