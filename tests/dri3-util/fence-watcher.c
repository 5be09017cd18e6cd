/*
 * The watcher, driven the way a toolkit would: an epoll loop that watches
 * the watcher's fd and collects the fences that triggered.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/epoll.h>

#include "fence-test-util.h"
#include "xcb_dri3_util.h"

#define NFENCES 3

struct loop {
    int epfd;
    xcb_dri3_util_fence_watcher_t *w;
};

static void loop_init(struct loop *l)
{
    struct epoll_event ev = { .events = EPOLLIN };

    l->w = xcb_dri3_util_fence_watcher_create();
    CHECK(l->w != NULL);
    l->epfd = epoll_create1(EPOLL_CLOEXEC);
    CHECK(l->epfd >= 0);
    CHECK(epoll_ctl(l->epfd, EPOLL_CTL_ADD, xcb_dri3_util_fence_watcher_fd(l->w), &ev) == 0);
}

static void loop_fini(struct loop *l)
{
    close(l->epfd);
    xcb_dri3_util_fence_watcher_destroy(l->w);
}

/* One turn of the loop: true if the watcher's fd turned readable within
 * timeout_ms. */
static bool loop_turn(struct loop *l, int timeout_ms)
{
    struct epoll_event ev;
    int n;

    do
        n = epoll_wait(l->epfd, &ev, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    CHECK(n >= 0);
    return n == 1;
}

/* Within 5 s the loop wakes, and the one report collected is tag's. */
static void check_next_report(struct loop *l, const void *tag)
{
    void *got;

    CHECK(loop_turn(l, 5000));
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(l->w, &got, 1), 1);
    CHECK(got == tag);
}

static void *trigger_after_20ms(void *arg)
{
    test_sleep_ms(20);
    xcb_dri3_util_fence_trigger(arg);
    return NULL;
}

static void use_fallback(void)
{
    setenv("XCB_DRI3_UTIL_NO_FUTEX_WAITV", "1", 1);
}

static void check_epoll_loop(void)
{
    xcb_dri3_util_fence_t *f[NFENCES];
    int tags[NFENCES];
    struct loop l;
    pthread_t thread;
    void *got[NFENCES];

    loop_init(&l);
    for (int i = 0; i < NFENCES; i++) {
        f[i] = xcb_dri3_util_fence_create(i == 0); /* the first is triggered */
        CHECK(f[i] != NULL);
        tags[i] = i;
        CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, f[i], &tags[i]), 0);
    }
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, f[1], NULL), -EEXIST);

    /* A fence triggered before it was added is reported. */
    CHECK(loop_turn(&l, 5000));
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(l.w, got, NFENCES), 1);
    CHECK(got[0] == &tags[0]);
    /* Collected: the fd is quiet again. */
    CHECK(!loop_turn(&l, 0));

    /* A trigger from another thread while the loop sleeps. */
    CHECK_EQ(pthread_create(&thread, NULL, trigger_after_20ms, f[1]), 0);
    CHECK(loop_turn(&l, 5000));
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(l.w, got, NFENCES), 1);
    CHECK(got[0] == &tags[1]);
    pthread_join(thread, NULL);

    /* A removed fence is not reported, and may then go away. */
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(l.w, f[2]), 0);
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(l.w, f[2]), -ENOENT);
    xcb_dri3_util_fence_trigger(f[2]);
    CHECK(!loop_turn(&l, 50));
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(l.w, got, NFENCES), 0);

    /* One-shot: a collected fence is not watched any more. */
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(l.w, f[0]), -ENOENT);
    loop_fini(&l);
    for (int i = 0; i < NFENCES; i++)
        xcb_dri3_util_fence_destroy(f[i]);
}

TEST(epoll_loop)
{
    check_epoll_loop();
}

TEST(epoll_loop_fallback)
{
    use_fallback();
    check_epoll_loop();
}

/* Several fences triggered at once come out in pieces of max, and the fd
 * stays readable until the last is collected; a trigger in another process
 * counts too. */
TEST(collect_in_pieces)
{
    xcb_dri3_util_fence_t *f[4];
    struct loop l;
    void *got[4];
    size_t total = 0;
    pid_t pid;

    loop_init(&l);
    for (int i = 0; i < 4; i++) {
        f[i] = xcb_dri3_util_fence_create(false);
        CHECK(f[i] != NULL);
        CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, f[i], f[i]), 0);
    }
    pid = fork_child();
    if (pid == 0) {
        /* The child has no copy of the watcher's thread: it only frees. */
        for (int i = 0; i < 4; i++) {
            xcb_dri3_util_fence_trigger(f[i]);
            xcb_dri3_util_fence_destroy(f[i]);
        }
        _exit(0);
    }
    CHECK_EQ(wait_child(pid), 0);
    while (total < 4) {
        size_t n;

        CHECK(loop_turn(&l, 5000));
        n = xcb_dri3_util_fence_watcher_collect(l.w, got, 1);
        CHECK(n <= 1);
        total += n;
    }
    CHECK(!loop_turn(&l, 0));
    loop_fini(&l);
    for (int i = 0; i < 4; i++)
        xcb_dri3_util_fence_destroy(f[i]);
}

TEST(watcher_is_full_at_max)
{
    xcb_dri3_util_fence_watcher_t *w = xcb_dri3_util_fence_watcher_create();
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_dri3_util_fence_t *extra[XCB_DRI3_UTIL_WATCHER_MAX];

    CHECK(w != NULL);
    for (int i = 0; i < XCB_DRI3_UTIL_WATCHER_MAX; i++) {
        extra[i] = xcb_dri3_util_fence_create(false);
        CHECK(extra[i] != NULL);
        CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, extra[i], NULL), 0);
    }
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, f, NULL), -E2BIG);
    /* Destroying the watcher leaves the fences alone. */
    xcb_dri3_util_fence_watcher_destroy(w);
    for (int i = 0; i < XCB_DRI3_UTIL_WATCHER_MAX; i++) {
        CHECK(!xcb_dri3_util_fence_is_triggered(extra[i]));
        xcb_dri3_util_fence_destroy(extra[i]);
    }
    xcb_dri3_util_fence_destroy(f);
    xcb_dri3_util_fence_watcher_destroy(NULL);
}

/* Adds, removes and destroys racing with triggers must neither lose a
 * report nor hang. */
TEST(add_remove_churn)
{
    struct loop l;

    loop_init(&l);
    for (int i = 0; i < 300; i++) {
        xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);

        CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, f, f), 0);
        if (i % 2) {
            CHECK_EQ(xcb_dri3_util_fence_watcher_remove(l.w, f), 0);
        } else {
            xcb_dri3_util_fence_trigger(f);
            check_next_report(&l, f);
        }
        xcb_dri3_util_fence_destroy(f);
    }
    loop_fini(&l);
}

/* ---- sandboxes, idle cost, fork ----------------------------------------- */

static long wakeups_in_300ms(void);

TEST(epoll_loop_survives_enosys)
{
    refuse_futex_waitv(ENOSYS);
    check_epoll_loop();
}

/* With EPERM too the thread falls back for good: it works, and with one
 * fence to watch it sleeps instead of retrying futex_waitv every time. */
TEST(epoll_loop_survives_eperm)
{
    xcb_dri3_util_fence_watcher_t *w;
    xcb_dri3_util_fence_t *f;

    refuse_futex_waitv(EPERM);
    check_epoll_loop();
    w = xcb_dri3_util_fence_watcher_create();
    f = xcb_dri3_util_fence_create(false);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, f, NULL), 0);
    CHECK(wakeups_in_300ms() <= 5);
    xcb_dri3_util_fence_watcher_destroy(w);
    xcb_dri3_util_fence_destroy(f);
}

/* How often the watcher's thread woke up during 300 ms. */
static long wakeups_in_300ms(void)
{
    pid_t tid = other_thread();
    long before, after;

    CHECK(tid != 0);
    usleep(20000); /* let it settle after the last change */
    before = context_switches(tid);
    usleep(300000);
    after = context_switches(tid);
    CHECK(before >= 0 && after >= before);
    test_note("the watcher's thread woke %ld times in 300 ms", after - before);
    return after - before;
}

/*
 * Without futex_waitv: no wake-ups while there is nothing to watch or only
 * one fence (it sleeps on that fence), and with several at most one per
 * 1 ms slice (a loaded machine only makes it fewer).  A few are allowed
 * for the odd preemption.
 */
TEST(idle_watcher_fallback_sleeps)
{
    xcb_dri3_util_fence_watcher_t *w;
    xcb_dri3_util_fence_t *f[2];

    if (RUNNING_ON_VALGRIND)
        SKIP("valgrind schedules the threads itself");
    use_fallback();
    w = xcb_dri3_util_fence_watcher_create();
    CHECK(w != NULL);
    CHECK(wakeups_in_300ms() <= 5);
    for (int i = 0; i < 2; i++)
        f[i] = xcb_dri3_util_fence_create(false);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, f[0], NULL), 0);
    CHECK(wakeups_in_300ms() <= 5);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, f[1], NULL), 0);
    CHECK(wakeups_in_300ms() <= 300 + 30);
    /* Back to one, then none: asleep again. */
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(w, f[1]), 0);
    CHECK(wakeups_in_300ms() <= 5);
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(w, f[0]), 0);
    CHECK(wakeups_in_300ms() <= 5);
    xcb_dri3_util_fence_watcher_destroy(w);
    for (int i = 0; i < 2; i++)
        xcb_dri3_util_fence_destroy(f[i]);
}

/* With one fence asleep on its word, a change still reaches the thread at
 * once: an added fence that is already triggered is reported. */
TEST(fallback_watcher_sees_changes_while_asleep_on_a_fence)
{
    struct loop l;
    xcb_dri3_util_fence_t *slow, *done;

    use_fallback();
    loop_init(&l);
    slow = xcb_dri3_util_fence_create(false);
    done = xcb_dri3_util_fence_create(true);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, slow, slow), 0);
    for (int i = 0; i < 50; i++) {
        CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, done, done), 0);
        check_next_report(&l, done);
    }
    loop_fini(&l);
    xcb_dri3_util_fence_destroy(slow);
    xcb_dri3_util_fence_destroy(done);
}

/*
 * A forked child must not take the parent's reports: its collect finds
 * nothing, add and remove refuse, destroy frees its copy only, and the
 * parent's fd stays readable with the report still there.
 */
TEST(forked_child_leaves_the_watcher_alone)
{
    struct loop l;
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(true);
    xcb_dri3_util_fence_t *g = xcb_dri3_util_fence_create(false);
    void *got;
    pid_t pid;

    loop_init(&l);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, f, f), 0);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(l.w, g, g), 0);
    CHECK(loop_turn(&l, 5000));
    pid = fork_child();
    if (pid == 0) {
        int bad = 0;

        bad |= xcb_dri3_util_fence_watcher_collect(l.w, &got, 1) != 0;
        bad |= xcb_dri3_util_fence_watcher_add(l.w, f, f) != -ECHILD;
        bad |= xcb_dri3_util_fence_watcher_remove(l.w, g) != -ECHILD;
        xcb_dri3_util_fence_watcher_destroy(l.w);
        /* The child's copies of the fences (the parent's stay). */
        xcb_dri3_util_fence_destroy(f);
        xcb_dri3_util_fence_destroy(g);
        close(l.epfd);
        _exit(bad);
    }
    CHECK_EQ(wait_child(pid), 0);
    CHECK(loop_turn(&l, 0));
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(l.w, &got, 1), 1);
    CHECK(got == f);
    /* The thread still serves the parent. */
    xcb_dri3_util_fence_trigger(g);
    check_next_report(&l, g);
    loop_fini(&l);
    xcb_dri3_util_fence_destroy(f);
    xcb_dri3_util_fence_destroy(g);
}

TEST(null_arguments)
{
    xcb_dri3_util_fence_watcher_t *w = xcb_dri3_util_fence_watcher_create();
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    void *got;

    CHECK_EQ(xcb_dri3_util_fence_watcher_fd(NULL), -1);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(NULL, f, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_watcher_add(w, NULL, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(NULL, f), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_watcher_remove(w, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(NULL, &got, 1), 0);
    CHECK_EQ(xcb_dri3_util_fence_watcher_collect(w, NULL, 1), 0);
    xcb_dri3_util_fence_watcher_destroy(w);
    xcb_dri3_util_fence_destroy(f);
}
