/*
 * Interoperation with Debian's libxshmfence, which is what the X server
 * uses on our pages: each side in its own process, the way a client and
 * the server share a fence.
 */
#include <X11/xshmfence.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "fence-test-util.h"
#include "xcb_dri3_util.h"

#define MS 1000000LL
#define ROUNDS 10000

/* Maps fd with libxshmfence, keeping fd ours either way (the library
 * closes it on failure, so it gets a dup). */
static struct xshmfence *xshm_map(int fd)
{
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    struct xshmfence *x;

    CHECK(copy >= 0);
    x = xshmfence_map_shm(copy);
    CHECK(x != NULL);
    close(copy); /* the mapping lives on without it */
    return x;
}

/* Our trigger wakes a libxshmfence waiter in another process. */
TEST(our_trigger_wakes_xshmfence_waiter)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));
    struct xshmfence *x = xshm_map(xcb_dri3_util_fence_fd(f));
    pid_t pid = fork_child();

    if (pid == 0) {
        int status = xshmfence_await(x) == 0 && xshmfence_query(x) ? 0 : 1;

        /* Children free what they inherited too, for valgrind. */
        xshmfence_unmap_shm(x);
        unmap_word(word);
        xcb_dri3_util_fence_destroy(f);
        _exit(status);
    }
    /* Once the child sleeps, the word says so (-1). */
    CHECK(wait_for_word(word, -1));
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    CHECK_EQ(wait_child(pid), 0);
    xshmfence_unmap_shm(x);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

/* In the child: triggers, and unmaps the child's copy of the fence. */
static bool trigger_xshmfence(void *xshmfence)
{
    bool triggered = xshmfence_trigger(xshmfence) == 0;

    xshmfence_unmap_shm(xshmfence);
    return triggered;
}

/* A libxshmfence trigger in another process wakes our waiter, on a page
 * that libxshmfence made (4 bytes) and we imported. */
TEST(xshmfence_trigger_wakes_our_waiter)
{
    int fd = xshmfence_alloc_shm();
    struct xshmfence *x;
    xcb_dri3_util_fence_t *f;
    int32_t *word;
    struct stat st;

    CHECK(fd >= 0);
    CHECK(fstat(fd, &st) == 0);
    test_note("xshmfence page: %lld bytes", (long long)st.st_size);
    x = xshm_map(fd);
    word = map_word(fd);
    f = xcb_dri3_util_fence_import(fd);
    CHECK(f != NULL);
    check_woken_by_child(f, word, trigger_xshmfence, x);
    xshmfence_unmap_shm(x);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

/* Reset and query agree, whichever side changes the state and whichever
 * looks, including from another process. */
TEST(reset_and_query_agree)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    struct xshmfence *x = xshm_map(xcb_dri3_util_fence_fd(f));
    pid_t pid;

    CHECK(!xshmfence_query(x));
    xcb_dri3_util_fence_trigger(f);
    CHECK(xshmfence_query(x));
    xshmfence_reset(x);
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    xshmfence_trigger(x);
    CHECK(xcb_dri3_util_fence_is_triggered(f));
    xcb_dri3_util_fence_reset(f);
    CHECK(!xshmfence_query(x));

    /* The child resets what we triggered, and triggers again. */
    xcb_dri3_util_fence_trigger(f);
    pid = fork_child();
    if (pid == 0) {
        int status = xshmfence_query(x) ? 0 : 1;

        xshmfence_reset(x);
        xshmfence_unmap_shm(x);
        xcb_dri3_util_fence_destroy(f);
        _exit(status);
    }
    CHECK_EQ(wait_child(pid), 0);
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    xshmfence_unmap_shm(x);
    xcb_dri3_util_fence_destroy(f);
}

/*
 * Ping-pong: we trigger "ping" and wait for "pong"; the child, with
 * libxshmfence, awaits "ping", resets it and triggers "pong".  Each side
 * resets its own fence only after the other has seen it, so a lost
 * wake-up would stall a round: our waits have a deadline to catch that,
 * and the child an alarm.
 */
TEST(ping_pong_10000_rounds)
{
    xcb_dri3_util_fence_t *ping = xcb_dri3_util_fence_create(false);
    xcb_dri3_util_fence_t *pong = xcb_dri3_util_fence_create(false);
    struct xshmfence *xping = xshm_map(xcb_dri3_util_fence_fd(ping));
    struct xshmfence *xpong = xshm_map(xcb_dri3_util_fence_fd(pong));
    pid_t pid = fork_child();

    if (pid == 0) {
        int status = 0;

        for (int i = 0; i < ROUNDS && status == 0; i++) {
            status = xshmfence_await(xping) == 0 ? 0 : 1;
            xshmfence_reset(xping);
            xshmfence_trigger(xpong);
        }
        xshmfence_unmap_shm(xping);
        xshmfence_unmap_shm(xpong);
        xcb_dri3_util_fence_destroy(ping);
        xcb_dri3_util_fence_destroy(pong);
        _exit(status);
    }
    for (int i = 0; i < ROUNDS; i++) {
        int ret;

        CHECK_EQ(xcb_dri3_util_fence_trigger(ping), 0);
        ret = xcb_dri3_util_fence_wait(pong, 2000 * MS);
        if (ret != 0) {
            kill(pid, SIGKILL);
            wait_child(pid);
            test_fail(__FILE__, __LINE__, "round %d: wait returned %d", i, ret);
        }
        xcb_dri3_util_fence_reset(pong);
    }
    CHECK_EQ(wait_child(pid), 0);
    xshmfence_unmap_shm(xping);
    xshmfence_unmap_shm(xpong);
    xcb_dri3_util_fence_destroy(ping);
    xcb_dri3_util_fence_destroy(pong);
}
