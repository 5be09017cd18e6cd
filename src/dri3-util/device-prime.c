/*
 * PRIME: whether the GPU that renders is the one the X server shows with,
 * and the render node that a selection in the shape of Mesa's DRI_PRIME
 * variable names.  The devices are libdrm's; fds that are no DRM device
 * (the mock server's memfds, files) count as devices of their own, so that
 * tests can stand two GPUs up with two files.
 */
#include "xcb_dri3_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

static int fail(int err)
{
    errno = err;
    return -err;
}

int xcb_dri3_util_device_needs_prime(int server_fd, int render_fd)
{
    struct stat a, b;
    int saved = errno, same;

    if (fstat(server_fd, &a) < 0 || fstat(render_fd, &b) < 0)
        return fail(EBADF);
    same = xcb_dri3_util_device_same(server_fd, render_fd);
    errno = saved;
    if (same >= 0)
        return !same;
    /* Not both DRM devices: a memfd or a file stands for a device of its
     * own, whatever fd it is reached through. */
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino ? 0 : 1;
}

/* What a selection asks for. */
struct selection {
    enum { SELECT_PCI_TAG, SELECT_IDS, SELECT_OTHER } kind;
    uint16_t domain, vendor, device;
    uint8_t bus, dev, func;
};

/* Exactly `width` hex digits at s, as *value; false otherwise. */
static bool hex_field(const char *s, size_t width, unsigned *value)
{
    unsigned v = 0;

    for (size_t i = 0; i < width; i++) {
        char c = s[i];
        unsigned d;

        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return false;
        v = v << 4 | d;
    }
    *value = v;
    return true;
}

/* "pci-DDDD_BB_DD_F", the name udev gives the GPU under /dev/dri/by-path
 * (without its "-render" suffix). */
static bool parse_pci_tag(const char *s, struct selection *sel)
{
    unsigned domain, bus, dev, func;

    if (strlen(s) != 16 || strncmp(s, "pci-", 4) != 0 || s[8] != '_' || s[11] != '_' ||
        s[14] != '_')
        return false;
    if (!hex_field(s + 4, 4, &domain) || !hex_field(s + 9, 2, &bus) ||
        !hex_field(s + 12, 2, &dev) || !hex_field(s + 15, 1, &func))
        return false;
    /* PCI has 32 devices a bus and 8 functions a device. */
    if (dev > 31 || func > 7)
        return false;
    sel->kind = SELECT_PCI_TAG;
    sel->domain = (uint16_t)domain;
    sel->bus = (uint8_t)bus;
    sel->dev = (uint8_t)dev;
    sel->func = (uint8_t)func;
    return true;
}

/* "VVVV:DDDD": PCI vendor and device ids. */
static bool parse_ids(const char *s, struct selection *sel)
{
    unsigned vendor, device;

    if (strlen(s) != 9 || s[4] != ':' || !hex_field(s, 4, &vendor) ||
        !hex_field(s + 5, 4, &device))
        return false;
    sel->kind = SELECT_IDS;
    sel->vendor = (uint16_t)vendor;
    sel->device = (uint16_t)device;
    return true;
}

static bool parse_selection(const char *s, struct selection *sel)
{
    if (!s)
        return false;
    if (strcmp(s, "1") == 0) {
        sel->kind = SELECT_OTHER;
        return true;
    }
    return parse_pci_tag(s, sel) || parse_ids(s, sel);
}

static bool matches(const struct selection *sel, drmDevicePtr d, drmDevicePtr server)
{
    bool pci = d->bustype == DRM_BUS_PCI && d->businfo.pci && d->deviceinfo.pci;

    if (!(d->available_nodes & (1 << DRM_NODE_RENDER)))
        return false;
    switch (sel->kind) {
    case SELECT_PCI_TAG:
        return pci && d->businfo.pci->domain == sel->domain &&
               d->businfo.pci->bus == sel->bus && d->businfo.pci->dev == sel->dev &&
               d->businfo.pci->func == sel->func;
    case SELECT_IDS:
        return pci && d->deviceinfo.pci->vendor_id == sel->vendor &&
               d->deviceinfo.pci->device_id == sel->device;
    case SELECT_OTHER:
        return !server || !drmDevicesEqual(d, server);
    }
    return false;
}

/* libdrm's answer when it lists no device: a system without /dev/dri has
 * nothing to select, whatever libdrm says of the directory it could not
 * read. */
static int no_devices(int n)
{
    return n == -ENOMEM ? -ENOMEM : -ENOENT;
}

/* Opens the render node of the first device that matches. */
static int open_first_match(const struct selection *sel, drmDevicePtr server)
{
    drmDevicePtr *devices;
    int n = drmGetDevices2(0, NULL, 0), ret = -ENOENT;

    if (n <= 0)
        return no_devices(n);
    devices = calloc((size_t)n, sizeof *devices);
    if (!devices)
        return -ENOMEM;
    n = drmGetDevices2(0, devices, n);
    if (n <= 0) {
        free(devices);
        return no_devices(n);
    }
    for (int i = 0; i < n; i++) {
        if (matches(sel, devices[i], server)) {
            int fd = open(devices[i]->nodes[DRM_NODE_RENDER], O_RDWR | O_CLOEXEC);

            ret = fd >= 0 ? fd : -errno;
            break;
        }
    }
    drmFreeDevices(devices, n);
    free(devices);
    return ret;
}

int xcb_dri3_util_device_open_selected(const char *selection, int server_fd)
{
    struct selection sel = { 0 };
    drmDevicePtr server = NULL;
    int ret;

    if (!parse_selection(selection, &sel))
        return fail(EINVAL);
    if (server_fd != -1 && fcntl(server_fd, F_GETFD) < 0)
        return fail(EBADF);
    /* A server_fd that is no DRM device leaves server NULL: every render
     * node is then another device. */
    if (sel.kind == SELECT_OTHER && server_fd != -1 && drmGetDevice2(server_fd, 0, &server) != 0)
        server = NULL;
    ret = open_first_match(&sel, server);
    drmFreeDevice(&server);
    return ret < 0 ? fail(-ret) : ret;
}
