/*
 * Blocking waits: wake-ups across threads and processes, timeouts that end
 * on time (never early, and not grossly late: see LATE_NS), signals that do
 * not extend them, and wait_many for any and for all, with futex_waitv and
 * with the fallback that older kernels get.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "fence-test-util.h"
#include "xcb_dri3_util.h"

#define MS 1000000LL
/* How late a timeout may end.  The library asks the kernel for the exact
 * deadline; how soon the woken thread then runs is the scheduler's
 * business, and on a loaded 2-CPU machine (make -j8 check beside other
 * builds) it took up to 24 ms.  So this only catches a wait that ignores
 * its deadline or sleeps a whole extra slice; the typical lateness (tens
 * of microseconds) is measured by bench/fence-bench, not asserted here. */
#define LATE_NS (100 * MS)

/* Makes wait_many use its fallback; the library reads this once, at the
 * first wait, and every test runs in a fresh process. */
static void use_fallback(void)
{
    setenv("XCB_DRI3_UTIL_NO_FUTEX_WAITV", "1", 1);
}

/*
 * Runs call, which must time out after timeout_ns, and checks that it ended
 * on time: never early, and at most LATE_NS late.  A late end is retried up
 * to twice: a machine busy enough to delay a woken thread by LATE_NS once
 * should not fail the test unless it happens every time.
 */
#define CHECK_TIMES_OUT_ON_TIME(call, timeout_ns)                              \
    do {                                                                    \
        for (int attempt_ = 0;; attempt_++) {                               \
            int64_t start_ = test_now_ns(), took_;                               \
                                                                            \
            CHECK_EQ((call), -ETIMEDOUT);                                   \
            took_ = test_now_ns() - start_;                                      \
            test_note("timeout %lld ns, took %lld ns", (long long)(timeout_ns), \
                      (long long)took_);                                    \
            CHECK(took_ >= (timeout_ns));                                   \
            if (RUNNING_ON_VALGRIND || took_ <= (timeout_ns) + LATE_NS)     \
                break;                                                      \
            CHECK(attempt_ < 2);                                            \
        }                                                                   \
    } while (0)

struct delayed_trigger {
    xcb_dri3_util_fence_t *fence;
    int delay_ms;
    pthread_t thread;
};

static void *trigger_later(void *arg)
{
    struct delayed_trigger *t = arg;

    test_sleep_ms(t->delay_ms);
    xcb_dri3_util_fence_trigger(t->fence);
    return NULL;
}

static void start_trigger(struct delayed_trigger *t, xcb_dri3_util_fence_t *f, int delay_ms)
{
    t->fence = f;
    t->delay_ms = delay_ms;
    CHECK_EQ(pthread_create(&t->thread, NULL, trigger_later, t), 0);
}

static void join_trigger(struct delayed_trigger *t)
{
    pthread_join(t->thread, NULL);
}

TEST(wait_returns_when_triggered_by_a_thread)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    struct delayed_trigger t;

    start_trigger(&t, f, 20);
    CHECK_EQ(xcb_dri3_util_fence_wait(f, -1), 0);
    CHECK(xcb_dri3_util_fence_is_triggered(f));
    join_trigger(&t);
    xcb_dri3_util_fence_destroy(f);
}

static bool trigger_our_fence(void *fence)
{
    return xcb_dri3_util_fence_trigger(fence) == 0;
}

TEST(wait_returns_when_triggered_by_another_process)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));

    check_woken_by_child(f, word, trigger_our_fence, f);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

TEST(wait_times_out_on_time)
{
    static const int64_t timeouts[] = { 1 * MS, 5 * MS, 20 * MS, 50 * MS };
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);

    for (size_t i = 0; i < sizeof(timeouts) / sizeof(timeouts[0]); i++)
        CHECK_TIMES_OUT_ON_TIME(xcb_dri3_util_fence_wait(f, timeouts[i]), timeouts[i]);
    xcb_dri3_util_fence_destroy(f);
}

TEST(zero_timeout_only_looks)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);

    CHECK_EQ(xcb_dri3_util_fence_wait(f, 0), -ETIMEDOUT);
    xcb_dri3_util_fence_trigger(f);
    CHECK_EQ(xcb_dri3_util_fence_wait(f, 0), 0);
    xcb_dri3_util_fence_destroy(f);
}

static void on_alarm(int sig)
{
    (void)sig;
}

/* Signals every 3 ms interrupt the futex; the deadline must not move. */
TEST(signals_do_not_extend_the_timeout)
{
    struct sigaction sa = { .sa_handler = on_alarm };
    struct itimerval every = { { 0, 3000 }, { 0, 3000 } }, off = { { 0, 0 }, { 0, 0 } };
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);

    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
    CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0);
    CHECK_TIMES_OUT_ON_TIME(xcb_dri3_util_fence_wait(f, 40 * MS), 40 * MS);
    setitimer(ITIMER_REAL, &off, NULL);
    xcb_dri3_util_fence_destroy(f);
}

/* ---- wait_many, run both with futex_waitv and with the fallback ---- */

#define NFENCES 4

static void make_fences(xcb_dri3_util_fence_t **f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        f[i] = xcb_dri3_util_fence_create(false);
        CHECK(f[i] != NULL);
    }
}

static void destroy_fences(xcb_dri3_util_fence_t **f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        xcb_dri3_util_fence_destroy(f[i]);
}

static void check_wait_any(void)
{
    xcb_dri3_util_fence_t *f[NFENCES];
    struct delayed_trigger t;
    size_t which = 99;

    make_fences(f, NFENCES);
    /* Nothing triggered: times out on time. */
    CHECK_TIMES_OUT_ON_TIME(xcb_dri3_util_fence_wait_many(f, NFENCES, false, 10 * MS, &which),
                            10 * MS);
    CHECK_EQ(which, 99);
    /* The third fence, triggered by a thread, ends the wait. */
    start_trigger(&t, f[2], 10);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f, NFENCES, false, 5000 * MS, &which), 0);
    CHECK_EQ(which, 2);
    join_trigger(&t);
    /* Already triggered: no wait, and the lowest index is reported. */
    xcb_dri3_util_fence_trigger(f[3]);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f, NFENCES, false, 0, &which), 0);
    CHECK_EQ(which, 2);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f + 3, 1, false, -1, NULL), 0);
    destroy_fences(f, NFENCES);
}

static void check_wait_all(void)
{
    xcb_dri3_util_fence_t *f[NFENCES];
    struct delayed_trigger t[NFENCES];

    make_fences(f, NFENCES);
    /* All but one triggered: still times out, on time. */
    for (size_t i = 1; i < NFENCES; i++)
        xcb_dri3_util_fence_trigger(f[i]);
    CHECK_TIMES_OUT_ON_TIME(xcb_dri3_util_fence_wait_many(f, NFENCES, true, 10 * MS, NULL),
                            10 * MS);
    /* Triggered one by one, in reverse order, by threads. */
    for (size_t i = 0; i < NFENCES; i++)
        xcb_dri3_util_fence_reset(f[i]);
    for (size_t i = 0; i < NFENCES; i++)
        start_trigger(&t[i], f[i], (int)(5 * (NFENCES - i)));
    CHECK_EQ(xcb_dri3_util_fence_wait_many(f, NFENCES, true, 5000 * MS, NULL), 0);
    for (size_t i = 0; i < NFENCES; i++) {
        CHECK(xcb_dri3_util_fence_is_triggered(f[i]));
        join_trigger(&t[i]);
    }
    destroy_fences(f, NFENCES);
}

TEST(wait_many_any)
{
    check_wait_any();
}

TEST(wait_many_all)
{
    check_wait_all();
}

TEST(wait_many_any_fallback)
{
    use_fallback();
    check_wait_any();
}

TEST(wait_many_all_fallback)
{
    use_fallback();
    check_wait_all();
}

/* Either refusal gets the fallback without being told. */
TEST(wait_many_survives_enosys)
{
    refuse_futex_waitv(ENOSYS);
    check_wait_any();
    check_wait_all();
}

TEST(wait_many_survives_eperm)
{
    refuse_futex_waitv(EPERM);
    check_wait_any();
    check_wait_all();
}

TEST(wait_many_bad_arguments)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(true);
    xcb_dri3_util_fence_t *many[XCB_DRI3_UTIL_WAIT_MANY_MAX + 1];

    for (size_t i = 0; i <= XCB_DRI3_UTIL_WAIT_MANY_MAX; i++)
        many[i] = f;
    CHECK_EQ(xcb_dri3_util_fence_wait_many(NULL, 1, false, 0, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(many, 0, false, 0, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(many, XCB_DRI3_UTIL_WAIT_MANY_MAX + 1, true, 0, NULL),
             -E2BIG);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(many, XCB_DRI3_UTIL_WAIT_MANY_MAX, true, 0, NULL), 0);
    xcb_dri3_util_fence_destroy(f);
}
