/*
 * Several threads share one connection to the mock X server, as a
 * toolkit's render threads share the application's: each issues DRI3 and
 * Present requests and waits for their replies, waits for Present events
 * on a special event queue of its own, hands fences to the server and
 * waits for the server to trigger them, while the main thread runs a
 * watcher loop that collects every thread's fences.  Run under
 * ThreadSanitizer by .ci/run.
 */
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/sync.h>

#include "fence-test-util.h"
#include "mock-server.h"
#include "xcb_dri3_util.h"

#define MS 1000000LL
#define NTHREADS 4
#define ROUNDS 15

struct shared {
    xcb_connection_t *c;
    xcb_window_t root;
    xcb_dri3_util_fence_watcher_t *watcher;
    /* Per thread: how many of its fences the main thread collected. */
    unsigned collected[NTHREADS];
    unsigned done_threads;
};

struct worker {
    struct shared *sh;
    int index;
    pthread_t thread;
    /* What went wrong, for the main thread to report (a worker cannot end
     * the test itself: CHECK leaves through the runner's child). */
    const char *failed;
    int line;
};

#define WORKER_CHECK(w, cond)                                               \
    do {                                                                    \
        if (!(cond)) {                                                      \
            (w)->failed = #cond;                                            \
            (w)->line = __LINE__;                                           \
            goto out;                                                       \
        }                                                                   \
    } while (0)

/* The next event of a special queue, waiting at most 5 s in short slices
 * (another thread may read it off the socket meanwhile). */
static xcb_generic_event_t *next_special(xcb_connection_t *c, xcb_special_event_t *se)
{
    int64_t deadline = test_now_ns() + 5000 * MS;

    for (;;) {
        xcb_generic_event_t *ev = xcb_poll_for_special_event(c, se);
        struct pollfd p = { .fd = xcb_get_file_descriptor(c), .events = POLLIN };

        if (ev || xcb_connection_has_error(c) || test_now_ns() > deadline)
            return ev;
        poll(&p, 1, 5);
    }
}

static unsigned collected(struct shared *sh, int index)
{
    return __atomic_load_n(&sh->collected[index], __ATOMIC_ACQUIRE);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct shared *sh = w->sh;
    xcb_connection_t *c = sh->c;
    xcb_window_t win = xcb_generate_id(c);
    uint32_t eid = xcb_generate_id(c);
    xcb_special_event_t *se = NULL;
    xcb_generic_error_t *e;

    e = xcb_request_check(c, xcb_create_window_checked(c, 0, win, sh->root, 0, 0, 16, 16, 0,
                                                       XCB_WINDOW_CLASS_INPUT_OUTPUT, 0, 0,
                                                       NULL));
    WORKER_CHECK(w, e == NULL);
    se = xcb_register_for_special_xge(c, &xcb_present_id, eid, NULL);
    WORKER_CHECK(w, se != NULL);
    e = xcb_request_check(c, xcb_present_select_input_checked(
                                 c, eid, win, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY));
    WORKER_CHECK(w, e == NULL);

    for (unsigned round = 0; round < ROUNDS; round++) {
        xcb_dri3_query_version_reply_t *version;
        xcb_present_query_capabilities_reply_t *caps;
        xcb_present_complete_notify_event_t *ev;
        xcb_dri3_util_fence_t *fence;
        xcb_sync_fence_t id;
        uint32_t serial = (uint32_t)(w->index * 1000 + round);

        /* Requests and replies, interleaved with the other threads'. */
        version = xcb_dri3_query_version_reply(c, xcb_dri3_query_version(c, 1, 4), NULL);
        WORKER_CHECK(w, version && version->major_version == 1);
        free(version);
        caps = xcb_present_query_capabilities_reply(
            c, xcb_present_query_capabilities(c, win), NULL);
        WORKER_CHECK(w, caps != NULL);
        free(caps);

        /* A Present event on this thread's own queue, for this thread's
         * own request. */
        xcb_present_notify_msc(c, win, serial, 0, 0, 0);
        xcb_flush(c);
        ev = (xcb_present_complete_notify_event_t *)next_special(c, se);
        WORKER_CHECK(w, ev != NULL);
        WORKER_CHECK(w, ev->serial == serial && ev->window == win);
        free(ev);

        /* A fence the server triggers, which this thread waits for and the
         * main thread's watcher reports. */
        fence = xcb_dri3_util_fence_create(false);
        WORKER_CHECK(w, fence != NULL);
        id = xcb_dri3_util_fence_to_server(c, win, fence, NULL);
        if (id == XCB_NONE)
            xcb_dri3_util_fence_destroy(fence);
        WORKER_CHECK(w, id != XCB_NONE);
        WORKER_CHECK(w, xcb_dri3_util_fence_watcher_add(sh->watcher, fence,
                                                        &sh->collected[w->index]) == 0);
        xcb_sync_trigger_fence(c, id);
        xcb_flush(c);
        WORKER_CHECK(w, xcb_dri3_util_fence_wait_conn(fence, c, 5000 * MS) == 0);
        /* The fence must outlive its time in the watcher. */
        for (int i = 0; i < 5000 && collected(sh, w->index) <= round; i++)
            usleep(1000);
        WORKER_CHECK(w, collected(sh, w->index) == round + 1);
        WORKER_CHECK(w, xcb_dri3_util_fence_watcher_remove(sh->watcher, fence) == -ENOENT);
        xcb_dri3_util_fence_destroy(fence);
        e = xcb_request_check(c, xcb_sync_destroy_fence_checked(c, id));
        WORKER_CHECK(w, e == NULL);
    }
    /* An empty mask before the queue goes, as the design notes ask. */
    e = xcb_request_check(c, xcb_present_select_input_checked(c, eid, win, 0));
    WORKER_CHECK(w, e == NULL);

out:
    free(e);
    if (se)
        xcb_unregister_for_special_event(c, se);
    __atomic_add_fetch(&sh->done_threads, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* The main thread's loop: collects the fences as the workers' triggers
 * reach the watcher, and credits each to its thread. */
static void collect_until_done(struct shared *sh)
{
    struct pollfd p = { .fd = xcb_dri3_util_fence_watcher_fd(sh->watcher), .events = POLLIN };
    int64_t deadline = test_now_ns() + 20000 * MS;

    while (__atomic_load_n(&sh->done_threads, __ATOMIC_ACQUIRE) < NTHREADS) {
        void *users[NTHREADS];
        size_t n;

        CHECK(test_now_ns() < deadline);
        if (poll(&p, 1, 20) <= 0)
            continue;
        n = xcb_dri3_util_fence_watcher_collect(sh->watcher, users, NTHREADS);
        for (size_t i = 0; i < n; i++)
            __atomic_add_fetch((unsigned *)users[i], 1, __ATOMIC_RELEASE);
    }
}

static void run_threads(void)
{
    struct mock_config *cfg = mock_config_new();
    struct mock_server *server;
    struct worker workers[NTHREADS];
    struct shared sh = { 0 };

    CHECK(cfg != NULL);
    server = mock_server_start(cfg);
    mock_config_free(cfg);
    CHECK(server != NULL);
    sh.c = mock_server_connect(server);
    CHECK_EQ(xcb_connection_has_error(sh.c), 0);
    sh.root = xcb_setup_roots_iterator(xcb_get_setup(sh.c)).data->root;
    /* Looked up once before the threads start, as libxcb caches it. */
    CHECK(xcb_get_extension_data(sh.c, &xcb_dri3_id)->present);
    CHECK(xcb_get_extension_data(sh.c, &xcb_present_id)->present);
    sh.watcher = xcb_dri3_util_fence_watcher_create();
    CHECK(sh.watcher != NULL);

    for (int i = 0; i < NTHREADS; i++) {
        workers[i] = (struct worker){ .sh = &sh, .index = i };
        CHECK_EQ(pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]), 0);
    }
    collect_until_done(&sh);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(workers[i].thread, NULL);
        if (workers[i].failed)
            test_fail(__FILE__, workers[i].line, "thread %d: CHECK(%s) failed", i,
                      workers[i].failed);
        CHECK_EQ(collected(&sh, i), ROUNDS);
    }
    CHECK_EQ(xcb_connection_has_error(sh.c), 0);
    xcb_dri3_util_fence_watcher_destroy(sh.watcher);
    xcb_disconnect(sh.c);
    CHECK_EQ(mock_server_stop(server), 0);
    mock_server_free(server);
}

TEST(threads_share_one_connection)
{
    run_threads();
}

/* The same with the watcher and wait_many in their fallback (one word at a
 * time, as on kernels before 5.16). */
TEST(threads_share_one_connection_fallback)
{
    setenv("XCB_DRI3_UTIL_NO_FUTEX_WAITV", "1", 1);
    run_threads();
}
