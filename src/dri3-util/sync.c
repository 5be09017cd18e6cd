/*
 * Explicit sync, the DRM side and the server side: timeline syncobjs on a
 * DRM device through libdrm, and DRI3 1.4 ImportSyncobj / FreeSyncobj to
 * make them known to the X server.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xf86drm.h>

struct xcb_dri3_util_timeline {
    int drm_fd;             /* borrowed */
    uint32_t handle;
    int fd;                 /* the syncobj exported as an fd, owned */
};

/* libdrm's syncobj calls return -1 or -errno depending on the call; the
 * kernel's errno is the one reliable answer. */
static int drm_error(void)
{
    return errno > 0 ? -errno : -EIO;
}

xcb_dri3_util_timeline_t *xcb_dri3_util_timeline_create(int drm_fd)
{
    xcb_dri3_util_timeline_t *tl;
    int ret;

    if (fcntl(drm_fd, F_GETFD) < 0) {
        errno = EBADF;
        return NULL;
    }
    tl = calloc(1, sizeof *tl);
    if (!tl)
        return NULL;
    tl->drm_fd = drm_fd;
    tl->fd = -1;
    errno = 0;
    if (drmSyncobjCreate(drm_fd, 0, &tl->handle) != 0) {
        ret = drm_error();
        free(tl);
        errno = -ret;
        return NULL;
    }
    errno = 0;
    if (drmSyncobjHandleToFD(drm_fd, tl->handle, &tl->fd) != 0) {
        ret = drm_error();
        drmSyncobjDestroy(drm_fd, tl->handle);
        free(tl);
        errno = -ret;
        return NULL;
    }
    fcntl(tl->fd, F_SETFD, FD_CLOEXEC);
    return tl;
}

int xcb_dri3_util_timeline_fd(const xcb_dri3_util_timeline_t *tl)
{
    return tl->fd;
}

int xcb_dri3_util_timeline_signal(xcb_dri3_util_timeline_t *tl, uint64_t point)
{
    errno = 0;
    if (drmSyncobjTimelineSignal(tl->drm_fd, &tl->handle, &point, 1) != 0)
        return drm_error();
    return 0;
}

/* The kernel takes an absolute CLOCK_MONOTONIC deadline; the library's
 * waits take a relative timeout, negative for none. */
static int64_t deadline_of(int64_t timeout_ns)
{
    struct timespec now;
    int64_t deadline;

    if (timeout_ns < 0)
        return INT64_MAX;
    clock_gettime(CLOCK_MONOTONIC, &now);
    deadline = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    return timeout_ns > INT64_MAX - deadline ? INT64_MAX : deadline + timeout_ns;
}

/* The error of a failed drmSyncobjTimelineWait(). */
static int wait_error(void)
{
    int ret = drm_error();

    /* The kernel says ETIME; every other wait of the library says
     * ETIMEDOUT. */
    return ret == -ETIME ? -ETIMEDOUT : ret;
}

static int wait_one(xcb_dri3_util_timeline_t *tl, uint64_t point, int64_t timeout_ns,
                    uint32_t flags)
{
    int64_t deadline = deadline_of(timeout_ns);

    errno = 0;
    if (drmSyncobjTimelineWait(tl->drm_fd, &tl->handle, &point, 1, deadline, flags, NULL) != 0)
        return wait_error();
    return 0;
}

int xcb_dri3_util_timeline_wait(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                int64_t timeout_ns)
{
    return wait_one(tl, point, timeout_ns, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT);
}

/* WAIT_AVAILABLE alone: the kernel waits for the fence to be attached,
 * not for it to signal. */
int xcb_dri3_util_timeline_wait_available(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                          int64_t timeout_ns)
{
    return wait_one(tl, point, timeout_ns, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE);
}

/* DRM_IOCTL_SYNCOBJ_EVENTFD (Linux 6.6), declared here because the
 * libdrm of older systems lacks it: the kernel's layout and number. */
struct util_syncobj_eventfd {
    uint32_t handle;
    uint32_t flags;         /* 0 or DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE */
    uint64_t point;
    int32_t fd;
    uint32_t pad;
};
#define UTIL_IOCTL_SYNCOBJ_EVENTFD DRM_IOWR(0xCF, struct util_syncobj_eventfd)

int xcb_dri3_util_timeline_notify(xcb_dri3_util_timeline_t *tl, uint64_t point,
                                  uint32_t flags, int eventfd)
{
    struct util_syncobj_eventfd arg = {
        .handle = tl->handle, .point = point, .fd = eventfd,
        .flags = flags & XCB_DRI3_UTIL_TIMELINE_AVAILABLE ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE
                                                          : 0,
    };

    if (flags & ~XCB_DRI3_UTIL_TIMELINE_AVAILABLE)
        return -EINVAL;
    errno = 0;
    /* a kernel that does not know the number says EINVAL */
    if (drmIoctl(tl->drm_fd, UTIL_IOCTL_SYNCOBJ_EVENTFD, &arg) != 0)
        return drm_error();
    return 0;
}

int xcb_dri3_util_timeline_wait_any(xcb_dri3_util_timeline_t *const *timelines,
                                    const uint64_t *points, uint32_t n, int64_t timeout_ns,
                                    uint32_t *first)
{
    /* Copies: libdrm's prototype takes non-const arrays. */
    uint32_t handles[XCB_DRI3_UTIL_WAIT_ANY_MAX];
    uint64_t pts[XCB_DRI3_UTIL_WAIT_ANY_MAX];
    uint32_t index = 0;
    int64_t deadline;

    if (!timelines || !points || n == 0 || n > XCB_DRI3_UTIL_WAIT_ANY_MAX || !timelines[0])
        return -EINVAL;
    /* One ioctl waits for all: the handles must belong to one DRM fd. */
    for (uint32_t i = 0; i < n; i++) {
        if (!timelines[i] || timelines[i]->drm_fd != timelines[0]->drm_fd)
            return -EINVAL;
        handles[i] = timelines[i]->handle;
        pts[i] = points[i];
    }
    deadline = deadline_of(timeout_ns);
    errno = 0;
    /* Without WAIT_ALL the kernel returns once any point is signalled and
     * names it in index. */
    if (drmSyncobjTimelineWait(timelines[0]->drm_fd, handles, pts, n, deadline,
                               DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, &index) != 0)
        return wait_error();
    if (first)
        *first = index;
    return 0;
}

int xcb_dri3_util_timeline_query(xcb_dri3_util_timeline_t *tl, uint64_t *point)
{
    errno = 0;
    if (drmSyncobjQuery(tl->drm_fd, &tl->handle, point, 1) != 0)
        return drm_error();
    return 0;
}

void xcb_dri3_util_timeline_destroy(xcb_dri3_util_timeline_t *tl)
{
    if (!tl)
        return;
    close(tl->fd);
    drmSyncobjDestroy(tl->drm_fd, tl->handle);
    free(tl);
}

static uint32_t import_syncobj(xcb_connection_t *c, xcb_drawable_t drawable, int syncobj_fd,
                               xcb_generic_error_t **err)
{
    xcb_generic_error_t *e = NULL;
    uint32_t id;
    int ret, fd;

    ret = conn_need_dri3(c, 4, NULL);
    if (ret < 0) {
        errno = -ret;
        return XCB_NONE;
    }
    id = xcb_generate_id(c);
    if (id == (uint32_t)-1) {
        errno = EPIPE;
        return XCB_NONE;
    }
    /* libxcb closes what it sends; the caller keeps its fd. */
    fd = fcntl(syncobj_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return XCB_NONE;
    ret = util_wait_checked(c, xcb_dri3_import_syncobj_checked(c, id, drawable, fd), &e);
    if (ret == 1) {
        util_report_x_error(e, err);
        return XCB_NONE;
    }
    /* The server may still import it: free it after the fact. */
    if (ret == -ETIMEDOUT || ret == -ECANCELED)
        wait_abandon_void(c, xcb_dri3_free_syncobj_checked(c, id));
    if (ret < 0) {
        errno = -ret;
        return XCB_NONE;
    }
    return id;
}

xcb_dri3_syncobj_t xcb_dri3_util_syncobj_import(xcb_connection_t *c,
                                                xcb_drawable_t drawable, int syncobj_fd,
                                                xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    uint32_t id;

    if (err)
        *err = NULL;
    previous = util_call_begin(c);
    id = import_syncobj(c, drawable, syncobj_fd, err);
    util_call_end(previous);
    return id;
}

int xcb_dri3_util_syncobj_free(xcb_connection_t *c, xcb_dri3_syncobj_t syncobj)
{
    int ret = conn_need_dri3(c, 4, NULL);

    if (ret < 0) {
        errno = -ret;
        return ret;
    }
    xcb_dri3_free_syncobj(c, syncobj);
    return 0;
}
