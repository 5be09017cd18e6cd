/* Memfd timelines for the swapchain's seam: see memfd-timeline.h.
 *
 * notify() stands in for the kernel's DRM_IOCTL_SYNCOBJ_EVENTFD: a thread
 * per timeline, started by its first notify(), sleeps on the page's futex
 * word and writes the eventfds whose points came. */
#include "memfd-timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "timeline-page.h"

struct watch {
    struct watch *next;
    uint64_t point;
    bool available;
    int eventfd;
};

struct memfd_timeline {
    int fd;
    struct timeline_page *page;
    pthread_mutex_t lock;
    struct watch *watches;
    bool thread_on, stop;
    pthread_t thread;
};

static int alive;
static unsigned long looks;

static void *tl_create(const xcb_dri3_util_device_t *dev)
{
    struct memfd_timeline *t = calloc(1, sizeof *t);

    (void)dev;      /* the mock's "device" is a memfd: these need none */
    if (!t)
        return NULL;
    t->fd = memfd_create("xcb-test-timeline", MFD_CLOEXEC);
    if (t->fd < 0 || ftruncate(t->fd, TIMELINE_PAGE_SIZE) < 0)
        goto fail;
    t->page = mmap(NULL, TIMELINE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
    if (t->page == MAP_FAILED)
        goto fail;
    t->page->magic = TIMELINE_PAGE_MAGIC;
    pthread_mutex_init(&t->lock, NULL);
    alive++;
    return t;
fail:
    if (t->fd >= 0) {
        int e = errno;

        close(t->fd);
        errno = e;
    }
    free(t);
    return NULL;
}

static int tl_fd(void *tl)
{
    return ((struct memfd_timeline *)tl)->fd;
}

static int tl_signal(void *tl, uint64_t point)
{
    timeline_page_signal(((struct memfd_timeline *)tl)->page, point);
    return 0;
}

static int tl_wait(void *tl, uint64_t point, int64_t timeout_ns)
{
    __atomic_add_fetch(&looks, 1, __ATOMIC_RELAXED);
    return timeline_page_wait(((struct memfd_timeline *)tl)->page, point, timeout_ns);
}

static int tl_wait_available(void *tl, uint64_t point, int64_t timeout_ns)
{
    __atomic_add_fetch(&looks, 1, __ATOMIC_RELAXED);
    return timeline_page_wait_for(((struct memfd_timeline *)tl)->page, point, true, timeout_ns);
}

/* Writes the eventfds whose points came and drops their watches. */
static void fire_watches(struct memfd_timeline *t)
{
    struct watch **link = &t->watches;

    while (*link) {
        struct watch *w = *link;
        uint64_t one = 1, have = w->available ? timeline_page_available(t->page)
                                              : timeline_page_value(t->page);

        if (have < w->point) {
            link = &w->next;
            continue;
        }
        if (write(w->eventfd, &one, sizeof one) != (ssize_t)sizeof one)
            abort();    /* a test's eventfd that cannot count */
        close(w->eventfd);
        *link = w->next;
        free(w);
    }
}

static void *watch_thread(void *arg)
{
    struct memfd_timeline *t = arg;

    pthread_mutex_lock(&t->lock);
    while (!t->stop) {
        /* the word before the look: a change after it wakes the wait */
        uint32_t word = __atomic_load_n(&t->page->wake, __ATOMIC_ACQUIRE);

        fire_watches(t);
        pthread_mutex_unlock(&t->lock);
        syscall(SYS_futex, &t->page->wake, FUTEX_WAIT, word, NULL, NULL, 0);
        pthread_mutex_lock(&t->lock);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static int tl_notify(void *tl, uint64_t point, bool available, int eventfd)
{
    struct memfd_timeline *t = tl;
    struct watch *w = calloc(1, sizeof *w);
    int r = 0;

    if (!w)
        return -ENOMEM;
    /* the kernel keeps a reference of its own: so does this */
    w->eventfd = fcntl(eventfd, F_DUPFD_CLOEXEC, 0);
    if (w->eventfd < 0) {
        free(w);
        return -errno;
    }
    w->point = point;
    w->available = available;
    pthread_mutex_lock(&t->lock);
    w->next = t->watches;
    t->watches = w;
    fire_watches(t);
    if (!t->thread_on) {
        r = -pthread_create(&t->thread, NULL, watch_thread, t);
        t->thread_on = r == 0;
    }
    pthread_mutex_unlock(&t->lock);
    if (r == 0)
        timeline_page_wake(t->page);    /* the thread looks at the new watch */
    return r;
}

static void tl_destroy(void *tl)
{
    struct memfd_timeline *t = tl;

    pthread_mutex_lock(&t->lock);
    t->stop = true;
    pthread_mutex_unlock(&t->lock);
    if (t->thread_on) {
        timeline_page_wake(t->page);
        pthread_join(t->thread, NULL);
    }
    /* a destroyed syncobj's requests go with it */
    while (t->watches) {
        struct watch *w = t->watches;

        t->watches = w->next;
        close(w->eventfd);
        free(w);
    }
    pthread_mutex_destroy(&t->lock);
    munmap(t->page, TIMELINE_PAGE_SIZE);
    close(t->fd);
    free(t);
    alive--;
}

const struct sc_timeline_ops test_memfd_timelines = {
    .name = "memfd timeline (test)",
    .create = tl_create,
    .fd = tl_fd,
    .signal = tl_signal,
    .wait = tl_wait,
    .wait_available = tl_wait_available,
    .notify = tl_notify,
    .destroy = tl_destroy,
};

const struct sc_timeline_ops test_memfd_timelines_polled = {
    .name = "memfd timeline without notify (test)",
    .create = tl_create,
    .fd = tl_fd,
    .signal = tl_signal,
    .wait = tl_wait,
    .wait_available = tl_wait_available,
    .destroy = tl_destroy,
};

int test_memfd_timelines_alive(void)
{
    return alive;
}

unsigned long test_memfd_timelines_looks(void)
{
    return __atomic_load_n(&looks, __ATOMIC_RELAXED);
}
