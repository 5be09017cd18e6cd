/*
 * GBM allocation, drmSyncobj timelines and device comparison.  Without a
 * DRM device (no /dev/dri, as on CI machines) only the refusals run; where
 * a render node exists the same tests allocate, map, signal and wait for
 * real (the render tests are skipped otherwise, and say so).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef HAVE_GBM
#include <gbm.h>
#endif

#include "test-clock.h"
#include "test-fds.h"
#include "test-runner.h"
#include "xcb_dri3_util.h"

#define XRGB8888 0x34325258u

/* The first render node, opened, or -1. */
static int open_render_node(void)
{
    char path[64];

    return test_render_node(path, sizeof path);
}

TEST(timeline_without_device)
{
    int fd = test_memfd("no-drm", 4096, NULL);

    errno = 0;
    CHECK(xcb_dri3_util_timeline_create(-1) == NULL);
    CHECK_EQ(errno, EBADF);
    errno = 0;
    CHECK(xcb_dri3_util_timeline_create(fd) == NULL);
    test_note("errno %d (%s)", errno, strerror(errno));
    CHECK(errno != 0);
    xcb_dri3_util_timeline_destroy(NULL);
    close(fd);
}

TEST(device_same_without_device)
{
    int a = test_memfd("a", 1, NULL), b = test_memfd("b", 1, NULL);

    CHECK_EQ(xcb_dri3_util_device_same(a, b), -ENODEV);
    CHECK_EQ(errno, ENODEV);
    CHECK_EQ(xcb_dri3_util_device_same(a, 1000), -EBADF);
    close(a);
    close(b);
}

TEST(gbm_refusals)
{
    uint64_t linear = XCB_DRI3_UTIL_MOD_LINEAR;

    errno = 0;
    CHECK(xcb_dri3_util_buffer_create_gbm(NULL, 64, 64, XRGB8888, &linear, 1) == NULL);
#ifdef HAVE_GBM
    CHECK_EQ(errno, EINVAL);
#else
    CHECK_EQ(errno, ENOTSUP);
#endif
}

#ifdef HAVE_GBM
/* A real GBM buffer: exported planes, a linear one maps with dma-buf
 * sync, and its pixels survive a round trip through the mapping. */
TEST(gbm_on_render_node)
{
    int fd = open_render_node();
    uint64_t mods[2] = { 0x00f0000000000004ULL /* nobody's */, XCB_DRI3_UTIL_MOD_LINEAR };
    struct gbm_device *dev;
    xcb_dri3_util_buffer_t *b;
    uint32_t stride = 0;
    uint32_t *p;

    if (fd < 0)
        SKIP("no /dev/dri render node on this machine");
    dev = gbm_create_device(fd);
    if (!dev) {
        close(fd);
        SKIP("GBM has no backend for this device");
    }
    b = xcb_dri3_util_buffer_create_gbm(dev, 64, 32, XRGB8888, mods, 2);
    if (!b) {
        test_note("create_gbm: %s", strerror(errno));
        gbm_device_destroy(dev);
        close(fd);
        SKIP("GBM could not allocate XRGB8888 here");
    }
    CHECK(xcb_dri3_util_buffer_n_planes(b) >= 1);
    CHECK_EQ(xcb_dri3_util_buffer_width(b), 64);
    CHECK_EQ(xcb_dri3_util_buffer_modifier(b), XCB_DRI3_UTIL_MOD_LINEAR);
    CHECK_CLOEXEC(xcb_dri3_util_buffer_fd(b, 0));
    p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_WRITE | XCB_DRI3_UTIL_MAP_READ,
                                 &stride);
    CHECK(p != NULL);
    CHECK(stride >= 256);
    p[0] = 0x00123456;
    /* a mapping kept across frames: each frame's access bracketed by
     * DMA_BUF_IOCTL_SYNC end and start, which a dma-buf takes */
    CHECK_EQ(xcb_dri3_util_buffer_end_access(b, 0), 0);
    CHECK_EQ(xcb_dri3_util_buffer_begin_access(b, 0), 0);
    CHECK_EQ(p[0], 0x00123456);
    p[1] = 0x00abcdef;
    CHECK_EQ(xcb_dri3_util_buffer_end_access(b, 0), 0);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
    p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ, NULL);
    CHECK(p != NULL);
    CHECK_EQ(p[0], 0x00123456);
    CHECK_EQ(p[1], 0x00abcdef);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
    xcb_dri3_util_buffer_destroy(b);
    gbm_device_destroy(dev);
    close(fd);
}
#endif

TEST(timeline_on_render_node)
{
    int fd = open_render_node();
    xcb_dri3_util_timeline_t *tl;
    uint64_t point = 99;

    if (fd < 0)
        SKIP("no /dev/dri render node on this machine");
    CHECK_EQ(xcb_dri3_util_device_same(fd, fd), 1);
    tl = xcb_dri3_util_timeline_create(fd);
    if (!tl) {
        test_note("timeline_create: %s", strerror(errno));
        close(fd);
        SKIP("the driver has no timeline syncobjs");
    }
    CHECK_CLOEXEC(xcb_dri3_util_timeline_fd(tl));
    CHECK_EQ(xcb_dri3_util_timeline_query(tl, &point), 0);
    CHECK_EQ(point, 0);
    /* nothing signals point 1: a bounded wait times out */
    CHECK_EQ(xcb_dri3_util_timeline_wait(tl, 1, 1000000), -ETIMEDOUT);
    CHECK_EQ(xcb_dri3_util_timeline_signal(tl, 3), 0);
    CHECK_EQ(xcb_dri3_util_timeline_query(tl, &point), 0);
    CHECK_EQ(point, 3);
    CHECK_EQ(xcb_dri3_util_timeline_wait(tl, 2, 0), 0);
    CHECK_EQ(xcb_dri3_util_timeline_wait(tl, 3, -1), 0);
    xcb_dri3_util_timeline_destroy(tl);
    close(fd);
}

/* Availability and the kernel's eventfd notification: a point nobody has
 * attached a fence to is neither available nor notified; signalled from
 * the CPU it is both, and the eventfd counts one per request. */
TEST(timeline_available_and_notify_on_render_node)
{
    int fd = open_render_node(), efd;
    xcb_dri3_util_timeline_t *tl;
    uint64_t count = 0;
    int r;

    if (fd < 0)
        SKIP("no /dev/dri render node on this machine");
    tl = xcb_dri3_util_timeline_create(fd);
    if (!tl) {
        close(fd);
        SKIP("the driver has no timeline syncobjs");
    }
    efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    CHECK(efd >= 0);
    CHECK_EQ(xcb_dri3_util_timeline_wait_available(tl, 1, 1000000), -ETIMEDOUT);
    CHECK_EQ(xcb_dri3_util_timeline_notify(tl, 1, 0x80, efd), -EINVAL);
    r = xcb_dri3_util_timeline_notify(tl, 2, 0, efd);
    if (r == -EINVAL) {
        test_note("DRM_IOCTL_SYNCOBJ_EVENTFD refused: a kernel before 6.6");
    } else {
        CHECK_EQ(r, 0);
        CHECK_EQ(xcb_dri3_util_timeline_notify(tl, 2, XCB_DRI3_UTIL_TIMELINE_AVAILABLE, efd), 0);
        CHECK(read(efd, &count, sizeof count) < 0);     /* nothing yet */
    }
    CHECK_EQ(xcb_dri3_util_timeline_signal(tl, 2), 0);
    CHECK_EQ(xcb_dri3_util_timeline_wait_available(tl, 2, 0), 0);
    if (r == 0) {
        CHECK_EQ(read(efd, &count, sizeof count), (ssize_t)sizeof count);
        CHECK_EQ(count, 2);
        /* a point already signalled notifies at once */
        CHECK_EQ(xcb_dri3_util_timeline_notify(tl, 1, 0, efd), 0);
        CHECK_EQ(read(efd, &count, sizeof count), (ssize_t)sizeof count);
        CHECK_EQ(count, 1);
    }
    close(efd);
    xcb_dri3_util_timeline_destroy(tl);
    close(fd);
}

/* What wait_any refuses before it asks the kernel; no device needed. */
TEST(timeline_wait_any_refusals)
{
    xcb_dri3_util_timeline_t *none[XCB_DRI3_UTIL_WAIT_ANY_MAX + 1] = { NULL };
    uint64_t points[XCB_DRI3_UTIL_WAIT_ANY_MAX + 1] = { 1 };
    uint32_t first = 77;

    CHECK_EQ(xcb_dri3_util_timeline_wait_any(none, points, 0, 0, &first), -EINVAL);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(none, points, XCB_DRI3_UTIL_WAIT_ANY_MAX + 1, 0,
                                             &first), -EINVAL);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(NULL, points, 1, 0, &first), -EINVAL);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(none, NULL, 1, 0, &first), -EINVAL);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(none, points, 1, -1, NULL), -EINVAL);
    CHECK_EQ(first, 77);
}

/* Two timelines: the second's point is signalled, and wait_any says so;
 * with nothing signalled it times out within bounds. */
TEST(timeline_wait_any_on_render_node)
{
    int fd = open_render_node(), fd2;
    xcb_dri3_util_timeline_t *tl[2], *other, *mixed[2];
    uint64_t points[2] = { 1, 1 };
    uint32_t first = 77;
    int64_t start, took;

    if (fd < 0)
        SKIP("no /dev/dri render node on this machine");
    tl[0] = xcb_dri3_util_timeline_create(fd);
    tl[1] = tl[0] ? xcb_dri3_util_timeline_create(fd) : NULL;
    if (!tl[1]) {
        test_note("timeline_create: %s", strerror(errno));
        xcb_dri3_util_timeline_destroy(tl[0]);
        close(fd);
        SKIP("the driver has no timeline syncobjs");
    }
    /* nothing signalled: -ETIMEDOUT after about 20 ms, not at once */
    start = test_now_ns();
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(tl, points, 2, 20000000, &first), -ETIMEDOUT);
    took = test_now_ns() - start;
    CHECK(took >= 19000000);
    CHECK(took < 2000000000);
    CHECK_EQ(first, 77);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(tl, points, 2, 0, &first), -ETIMEDOUT);

    CHECK_EQ(xcb_dri3_util_timeline_signal(tl[1], 1), 0);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(tl, points, 2, 1000000000, &first), 0);
    CHECK_EQ(first, 1);
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(tl, points, 2, -1, NULL), 0);

    /* a timeline of another DRM fd cannot share the ioctl */
    fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    other = xcb_dri3_util_timeline_create(fd2);
    CHECK(other != NULL);
    mixed[0] = tl[0];
    mixed[1] = other;
    CHECK_EQ(xcb_dri3_util_timeline_wait_any(mixed, points, 2, 0, NULL), -EINVAL);
    xcb_dri3_util_timeline_destroy(other);
    close(fd2);
    xcb_dri3_util_timeline_destroy(tl[0]);
    xcb_dri3_util_timeline_destroy(tl[1]);
    close(fd);
}
