/* Memfd timelines for the swapchain's seam: see memfd-timeline.h. */
#include "memfd-timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "timeline-page.h"

struct memfd_timeline {
    int fd;
    struct timeline_page *page;
};

static int alive;

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
    return timeline_page_wait(((struct memfd_timeline *)tl)->page, point, timeout_ns);
}

static void tl_destroy(void *tl)
{
    struct memfd_timeline *t = tl;

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
    .destroy = tl_destroy,
};

int test_memfd_timelines_alive(void)
{
    return alive;
}
