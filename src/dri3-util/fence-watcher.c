/*
 * The watcher: a thread that sleeps on many fences at once and turns their
 * triggers into a readable eventfd, for main loops that can only poll fds.
 *
 * Every field is guarded by the lock.  The thread touches a fence's word
 * only while it holds the lock (to test and arm it); while it sleeps it
 * merely hands the word's address to the kernel.  So once remove() has
 * taken an entry out, under the lock, the fence may be unmapped at any
 * time: the worst the kernel can then see is a stale address, and the
 * change counter (below) wakes the thread before it would look again.
 *
 * The eventfd is readable exactly while the ready list is not empty: both
 * change only under the lock.
 *
 * Without futex_waitv (kernels before 5.16, valgrind, sandboxes) the thread
 * can sleep on one word only.  With nothing to watch it sleeps on the
 * change counter, with no timeout; otherwise on the first watched fence,
 * with no timeout when that is the only one, else in slices of
 * FUTEX_FALLBACK_SLICE_NS after which it looks at the others.  A change
 * must then wake it off the fence's word: notify_thread() wakes that word
 * until the thread says that it is up (the asleep flag), which also covers
 * the moment between the thread's unlock and its entry into the kernel.
 *
 * fork(): the child has a copy of the watcher but not its thread, and
 * shares the eventfd (one open file) with the parent.  A handler run in
 * the child by fork() bumps fork_generation; a watcher made in another
 * generation refuses to work, so a child can neither drain the parent's
 * eventfd nor wait for a thread that does not exist.
 */
#include "fence-private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "util-internal/deadline.h"
#include "fence-futex.h"

struct watch_entry {
    xcb_dri3_util_fence_t *fence;
    void *user;
};

struct xcb_dri3_util_fence_watcher {
    pthread_mutex_t lock;
    pthread_t thread;
    int event_fd;
    /* Bumped on every change the thread must see (a fence added or
     * removed, the watcher stopping); the thread sleeps on it as well as
     * on the fences, so a change wakes it like a trigger does. */
    int32_t changes;
    /* Fallback mode only: 1 from the scan that chose to sleep on the fence
     * word sleep_word until the thread is awake again (atomic; set under
     * the lock, cleared without it, then woken). */
    int32_t asleep;
    int32_t *sleep_word;
    /* The fork_generation the watcher was made in. */
    unsigned int generation;
    bool stopping;
    /* Untriggered fences, which the thread sleeps on. */
    struct watch_entry watched[XCB_DRI3_UTIL_WATCHER_MAX];
    size_t n_watched;
    /* Triggered fences, waiting for collect(). */
    struct watch_entry ready[XCB_DRI3_UTIL_WATCHER_MAX];
    size_t n_ready;
};

#define WATCHER_THREAD_NAME "xcb-fence-watch"

/* How long notify_thread() waits for the thread's answer before it wakes
 * the fence word again: long enough for a thread that was just about to
 * enter the kernel to get there. */
#define NOTIFY_RETRY_NS 200000LL

/* Counts the fork()s this process made, in the child (see the top). */
static unsigned int fork_generation;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static bool atfork_registered;

static void count_fork_in_child(void)
{
    __atomic_add_fetch(&fork_generation, 1, __ATOMIC_RELAXED);
}

static void register_atfork(void)
{
    atfork_registered = pthread_atfork(NULL, NULL, count_fork_in_child) == 0;
}

/* True in a process forked after the watcher was made. */
static bool forked_away(const xcb_dri3_util_fence_watcher_t *w)
{
    return __atomic_load_n(&fork_generation, __ATOMIC_RELAXED) != w->generation;
}

/* Tells the thread that something changed; called with the lock held. */
static void notify_thread(xcb_dri3_util_fence_watcher_t *w)
{
    __atomic_add_fetch(&w->changes, 1, __ATOMIC_SEQ_CST);
    futex_wake_all(&w->changes);
    /* Fallback mode: the thread may sleep on a fence word instead.  The
     * word stays mapped meanwhile: it is still watched, or being removed by
     * a caller who owns the fence until remove() returns. */
    while (__atomic_load_n(&w->asleep, __ATOMIC_SEQ_CST)) {
        futex_wake_all(w->sleep_word);
        futex_wait_until(&w->asleep, 1, deadline_slice(-1, NOTIFY_RETRY_NS));
    }
}

static void set_readable(xcb_dri3_util_fence_watcher_t *w)
{
    uint64_t one = 1;

    /* Cannot fail short of the counter's overflow, which the reads in
     * set_unreadable() prevent. */
    if (write(w->event_fd, &one, sizeof(one)) < 0)
        return;
}

static void set_unreadable(xcb_dri3_util_fence_watcher_t *w)
{
    uint64_t count;

    /* Non-blocking: an empty counter answers EAGAIN, which is the goal. */
    if (read(w->event_fd, &count, sizeof(count)) < 0)
        return;
}

static void remove_at(struct watch_entry *list, size_t *n, size_t i)
{
    list[i] = list[--*n];
}

/*
 * Moves triggered fences to the ready list and arms the others; fills
 * words/expect with what to sleep on, the change counter first.  Called
 * with the lock held.  Returns how many words there are.
 */
static size_t scan(xcb_dri3_util_fence_watcher_t *w, int32_t **words, int32_t *expect)
{
    size_t n = 1, i = 0;
    bool moved = false;

    words[0] = &w->changes;
    expect[0] = __atomic_load_n(&w->changes, __ATOMIC_SEQ_CST);
    while (i < w->n_watched) {
        if (fence_arm(w->watched[i].fence->word, &expect[n])) {
            w->ready[w->n_ready++] = w->watched[i];
            remove_at(w->watched, &w->n_watched, i);
            moved = true;
        } else {
            words[n++] = w->watched[i++].fence->word;
        }
    }
    if (moved)
        set_readable(w);
    return n;
}

/* The fallback's sleep on one word (see the top); words[0] is the change
 * counter, words[1] if any the first watched fence. */
static int sleep_on_one_word(xcb_dri3_util_fence_watcher_t *w, int32_t *const *words,
                             const int32_t *expect, size_t n)
{
    int ret;

    if (n == 1)
        return futex_wait_until(words[0], expect[0], -1);
    ret = futex_wait_until(words[1], expect[1],
                           n == 2 ? -1 : deadline_slice(-1, FUTEX_FALLBACK_SLICE_NS));
    __atomic_store_n(&w->asleep, 0, __ATOMIC_SEQ_CST);
    futex_wake_all(&w->asleep);
    return ret == -ETIMEDOUT ? 0 : ret;
}

/* After a refusal that retrying cannot fix (a fence unmapped while still
 * watched, or a sandbox that forbids futex calls): never spin. */
static void pause_after_error(void)
{
    struct timespec ts = { 0, FUTEX_FALLBACK_SLICE_NS };

    nanosleep(&ts, NULL);
}

static void *watch_thread(void *arg)
{
    xcb_dri3_util_fence_watcher_t *w = arg;
    int32_t *words[XCB_DRI3_UTIL_WATCHER_MAX + 1];
    int32_t expect[XCB_DRI3_UTIL_WATCHER_MAX + 1];

    pthread_mutex_lock(&w->lock);
    while (!w->stopping) {
        size_t n = scan(w, words, expect);
        bool one_word = !futex_waitv_usable();
        int ret;

        if (one_word && n > 1) {
            w->sleep_word = words[1];
            __atomic_store_n(&w->asleep, 1, __ATOMIC_SEQ_CST);
        }
        pthread_mutex_unlock(&w->lock);
        if (one_word)
            ret = sleep_on_one_word(w, words, expect, n);
        else
            ret = futex_wait_any(words, expect, n, -1);
        if (ret < 0)
            pause_after_error();
        pthread_mutex_lock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

xcb_dri3_util_fence_watcher_t *xcb_dri3_util_fence_watcher_create(void)
{
    xcb_dri3_util_fence_watcher_t *w;
    sigset_t all, old;
    int err;

    pthread_once(&atfork_once, register_atfork);
    if (!atfork_registered) {
        errno = ENOMEM; /* pthread_atfork()'s only failure */
        return NULL;
    }
    w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->generation = __atomic_load_n(&fork_generation, __ATOMIC_RELAXED);
    w->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (w->event_fd < 0) {
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    /* The thread starts with every signal blocked, so that the
     * application's signals never land in a thread it does not know. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    err = pthread_create(&w->thread, NULL, watch_thread, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* For ps, top and debuggers (at most 15 characters); named here, not
     * by the thread, so that it has its name once create() returns. */
    if (err == 0)
        pthread_setname_np(w->thread, WATCHER_THREAD_NAME);
    if (err != 0) {
        close(w->event_fd);
        pthread_mutex_destroy(&w->lock);
        free(w);
        errno = err;
        return NULL;
    }
    return w;
}

int xcb_dri3_util_fence_watcher_fd(const xcb_dri3_util_fence_watcher_t *watcher)
{
    return watcher ? watcher->event_fd : -1;
}

static bool listed(const struct watch_entry *list, size_t n, const xcb_dri3_util_fence_t *f)
{
    for (size_t i = 0; i < n; i++)
        if (list[i].fence == f)
            return true;
    return false;
}

int xcb_dri3_util_fence_watcher_add(xcb_dri3_util_fence_watcher_t *watcher,
                                    xcb_dri3_util_fence_t *fence, void *user)
{
    int ret = 0;

    if (!watcher || !fence)
        return -EINVAL;
    if (forked_away(watcher))
        return -ECHILD;
    pthread_mutex_lock(&watcher->lock);
    if (listed(watcher->watched, watcher->n_watched, fence) ||
        listed(watcher->ready, watcher->n_ready, fence)) {
        ret = -EEXIST;
    } else if (watcher->n_watched + watcher->n_ready >= XCB_DRI3_UTIL_WATCHER_MAX) {
        ret = -E2BIG;
    } else {
        /* The thread's next scan reports it if it is triggered already. */
        watcher->watched[watcher->n_watched++] = (struct watch_entry){ fence, user };
        notify_thread(watcher);
    }
    pthread_mutex_unlock(&watcher->lock);
    return ret;
}

int xcb_dri3_util_fence_watcher_remove(xcb_dri3_util_fence_watcher_t *watcher,
                                       xcb_dri3_util_fence_t *fence)
{
    int ret = -ENOENT;

    if (!watcher || !fence)
        return -EINVAL;
    if (forked_away(watcher))
        return -ECHILD;
    pthread_mutex_lock(&watcher->lock);
    for (size_t i = 0; i < watcher->n_watched; i++) {
        if (watcher->watched[i].fence == fence) {
            remove_at(watcher->watched, &watcher->n_watched, i);
            /* Wakes the thread off the fence's word, so that it does not
             * sleep on a page that may go away. */
            notify_thread(watcher);
            /* The thread's mark on the word would cost the next trigger a
             * wake-up call for nobody; the thread, which needs the lock to
             * look at the word, cannot mark it again. */
            fence_disarm(fence->word);
            ret = 0;
            break;
        }
    }
    for (size_t i = 0; ret != 0 && i < watcher->n_ready; i++) {
        if (watcher->ready[i].fence == fence) {
            remove_at(watcher->ready, &watcher->n_ready, i);
            if (watcher->n_ready == 0)
                set_unreadable(watcher);
            ret = 0;
        }
    }
    pthread_mutex_unlock(&watcher->lock);
    return ret;
}

size_t xcb_dri3_util_fence_watcher_collect(xcb_dri3_util_fence_watcher_t *watcher,
                                           void **users, size_t max)
{
    size_t n;

    if (!watcher || (!users && max > 0) || forked_away(watcher))
        return 0;
    pthread_mutex_lock(&watcher->lock);
    n = max < watcher->n_ready ? max : watcher->n_ready;
    for (size_t i = 0; i < n; i++)
        users[i] = watcher->ready[watcher->n_ready - 1 - i].user;
    watcher->n_ready -= n;
    if (watcher->n_ready == 0)
        set_unreadable(watcher);
    pthread_mutex_unlock(&watcher->lock);
    return n;
}

void xcb_dri3_util_fence_watcher_destroy(xcb_dri3_util_fence_watcher_t *watcher)
{
    if (!watcher)
        return;
    if (forked_away(watcher)) {
        /* No thread to stop, and the lock may have been copied held: free
         * this process's copy, leaving the parent's eventfd alone. */
        close(watcher->event_fd);
        free(watcher);
        return;
    }
    pthread_mutex_lock(&watcher->lock);
    watcher->stopping = true;
    notify_thread(watcher);
    pthread_mutex_unlock(&watcher->lock);
    pthread_join(watcher->thread, NULL);
    /* The fences still watched are left as the thread found them. */
    for (size_t i = 0; i < watcher->n_watched; i++)
        fence_disarm(watcher->watched[i].fence->word);
    close(watcher->event_fd);
    pthread_mutex_destroy(&watcher->lock);
    free(watcher);
}
