/*
 * The DRM device a loader renders with: DRI3 Open, the swap of a primary
 * node for its render node, and what libdrm knows about it.  The facts are
 * reported only where libdrm confirms them; a server that hands out
 * something else (the mock server gives a memfd) gets a device with
 * is_drm false and a note that says what the fd is.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xf86drm.h>

static void copy_str(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

/* What a non-DRM fd is, in words. */
static void describe_other(xcb_dri3_util_device_t *d, const struct stat *st)
{
    char path[64], target[128] = "";
    ssize_t n;

    snprintf(path, sizeof path, "/proc/self/fd/%d", d->fd);
    n = readlink(path, target, sizeof target - 1);
    if (n > 0)
        target[n] = '\0';
    if (strncmp(target, "/memfd:", 7) == 0) {
        copy_str(d->kind, sizeof d->kind, "memfd");
        snprintf(d->note, sizeof d->note,
                 "not a DRM device: the server handed out a memfd (%.60s)", target + 1);
    } else if (S_ISREG(st->st_mode)) {
        copy_str(d->kind, sizeof d->kind, "file");
        copy_str(d->note, sizeof d->note, "not a DRM device: the server handed out a file");
    } else {
        copy_str(d->kind, sizeof d->kind, "other");
        snprintf(d->note, sizeof d->note,
                 "not a DRM device: libdrm does not know this fd (mode 0%o)",
                 (unsigned)st->st_mode);
    }
}

/* A primary node makes the client a would-be DRM master and needs
 * authentication; its render node does neither.  Swaps when possible. */
static void swap_for_render_node(xcb_dri3_util_device_t *d)
{
    char *name = drmGetRenderDeviceNameFromFd(d->fd);
    int fd;

    if (!name)
        return;
    fd = open(name, O_RDWR | O_CLOEXEC);
    free(name);
    if (fd < 0)
        return;
    close(d->fd);
    d->fd = fd;
    d->swapped = true;
}

static void describe_drm(xcb_dri3_util_device_t *d, const struct stat *st)
{
    drmVersionPtr v;
    drmDevicePtr dev = NULL;
    char *name;

    d->dev_major = major(st->st_rdev);
    d->dev_minor = minor(st->st_rdev);
    d->is_render_node = drmGetNodeTypeFromFd(d->fd) == DRM_NODE_RENDER;
    copy_str(d->kind, sizeof d->kind, d->is_render_node ? "render" : "primary");
    v = drmGetVersion(d->fd);
    if (v) {
        copy_str(d->driver, sizeof d->driver, v->name);
        drmFreeVersion(v);
    }
    name = drmGetRenderDeviceNameFromFd(d->fd);
    copy_str(d->render_node, sizeof d->render_node, name);
    free(name);
    if (drmGetDevice2(d->fd, 0, &dev) == 0 && dev) {
        d->bus_type = dev->bustype;
        if (dev->bustype == DRM_BUS_PCI && dev->businfo.pci && dev->deviceinfo.pci) {
            snprintf(d->bus_id, sizeof d->bus_id, "pci:%04x:%02x:%02x.%u",
                     dev->businfo.pci->domain, dev->businfo.pci->bus, dev->businfo.pci->dev,
                     (unsigned)dev->businfo.pci->func);
            d->vendor_id = dev->deviceinfo.pci->vendor_id;
            d->device_id = dev->deviceinfo.pci->device_id;
        }
        drmFreeDevice(&dev);
    }
    snprintf(d->note, sizeof d->note, "DRM %s node%s, driver %.24s", d->kind,
             d->swapped ? " (swapped for the server's primary node)" : "",
             d->driver[0] ? d->driver : "unknown");
}

static void describe(xcb_dri3_util_device_t *d)
{
    struct stat st = { 0 };

    d->bus_type = -1;
    if (fstat(d->fd, &st) == 0 && S_ISCHR(st.st_mode) && drmGetNodeTypeFromFd(d->fd) >= 0) {
        if (drmGetNodeTypeFromFd(d->fd) == DRM_NODE_PRIMARY) {
            swap_for_render_node(d);
            fstat(d->fd, &st);
        }
        d->is_drm = true;
        describe_drm(d, &st);
    } else {
        describe_other(d, &st);
    }
}

static xcb_dri3_util_device_t *open_device(xcb_connection_t *c, xcb_drawable_t drawable,
                                           uint32_t provider, xcb_generic_error_t **err)
{
    xcb_dri3_open_reply_t *r = NULL;
    xcb_generic_error_t *e = NULL;
    xcb_dri3_util_device_t *d;
    int ret, fd, *fds;

    ret = conn_need_dri3(c, 0, NULL);
    if (ret == 0)
        ret = util_wait_reply(c, xcb_dri3_open(c, drawable, provider).sequence,
                              XCB_DRI3_UTIL_WAIT_REPLY_FDS, (void **)&r, &e);
    if (ret == 1) {
        util_report_x_error(e, err);
        return NULL;
    }
    if (ret < 0) {
        errno = -ret;
        return NULL;
    }
    /* The fds are ours from here on, whatever their number. */
    fds = xcb_dri3_open_reply_fds(c, r);
    if (r->nfd != 1) {
        close_fds(fds, r->nfd);
        free(r);
        errno = EPROTO;
        return NULL;
    }
    fd = fds[0];
    free(r);
    d = calloc(1, sizeof *d);
    if (!d) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    d->fd = fd;
    describe(d);
    return d;
}

xcb_dri3_util_device_t *xcb_dri3_util_device_open(xcb_connection_t *c,
                                                  xcb_drawable_t drawable,
                                                  uint32_t provider,
                                                  xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    xcb_dri3_util_device_t *d;

    if (err)
        *err = NULL;
    previous = util_call_begin(c);
    d = open_device(c, drawable, provider, err);
    util_call_end(previous);
    return d;
}

void xcb_dri3_util_device_close(xcb_dri3_util_device_t *dev)
{
    if (!dev)
        return;
    close(dev->fd);
    free(dev);
}

int xcb_dri3_util_device_same(int fd_a, int fd_b)
{
    drmDevicePtr a = NULL, b = NULL;
    struct stat st;
    int ret;

    if (fstat(fd_a, &st) < 0 || fstat(fd_b, &st) < 0) {
        errno = EBADF;
        return -EBADF;
    }
    /* libdrm compares the bus (PCI address, platform path...), which is
     * the same for the primary and the render node of one GPU. */
    if (drmGetDevice2(fd_a, 0, &a) != 0 || drmGetDevice2(fd_b, 0, &b) != 0) {
        drmFreeDevice(&a);
        drmFreeDevice(&b);
        errno = ENODEV;
        return -ENODEV;
    }
    ret = drmDevicesEqual(a, b) ? 1 : 0;
    drmFreeDevice(&a);
    drmFreeDevice(&b);
    return ret;
}

int xcb_dri3_util_device_set_in_use(xcb_connection_t *c, xcb_window_t window,
                                    const xcb_dri3_util_device_t *dev)
{
    xcb_dri3_util_caps_t caps;
    int ret = conn_need_dri3(c, 0, &caps);

    if (ret == 0 && caps.dri3_major == 1 && caps.dri3_minor < 3)
        return 0;
    if (ret == 0 && (!dev || !dev->is_drm))
        ret = -ENODEV;
    if (ret < 0) {
        errno = -ret;
        return ret;
    }
    xcb_dri3_set_drm_device_in_use(c, window, dev->dev_major, dev->dev_minor);
    return 0;
}
