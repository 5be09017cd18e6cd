/*
 * xcb_dri3_util_device.h: the GPU a DRI3 client renders with
 * (libxcb-dri3-util; included by <xcb/xcb_dri3_util.h>, whose overview
 * gives the library's rules for errors, names and round trips).
 *
 * Objects and their life cycle:
 *   - the DRM device (xcb_dri3_util_device_t) that the X server hands out
 *     with DRI3 Open, from _device_open to _device_close, and the window
 *     hint that says which GPU renders it (_device_set_in_use);
 *   - PRIME, where the GPU that renders is not the one the server shows
 *     with: _device_same and _device_needs_prime compare two fds, and
 *     _device_open_selected opens the render node that a selection in the
 *     shape of Mesa's DRI_PRIME variable names.
 */
#ifndef XCB_DRI3_UTIL_DEVICE_H
#define XCB_DRI3_UTIL_DEVICE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The device that DRI3 Open gave, and what libdrm says about it.  When the
 * fd is no DRM device (the mock server hands out a memfd; a server may
 * hand out anything), is_drm is false, the DRM fields are empty and
 * `kind` and `note` say what the fd is instead of guessing.
 */
typedef struct xcb_dri3_util_device {
    int fd;                     /* owned; close-on-exec */
    bool is_drm;                /* a DRM device node */
    bool is_render_node;        /* fd is a render node */
    bool swapped;               /* the server gave a primary node, which was
                                 * swapped for its render node */
    char kind[16];              /* "render", "primary", "memfd", "file",
                                 * "other" */
    char driver[64];            /* the kernel driver ("i915", "amdgpu"), or "" */
    char render_node[64];       /* e.g. "/dev/dri/renderD128", or "" */
    uint32_t dev_major, dev_minor;  /* of the device node fd is; 0 if none */
    int bus_type;               /* libdrm's DRM_BUS_* value, -1 unknown */
    char bus_id[32];            /* "pci:0000:00:02.0" for PCI, or "" */
    uint16_t vendor_id, device_id;  /* PCI ids, 0 when not PCI */
    char note[128];             /* for people: what the fd is, or why not */
} xcb_dri3_util_device_t;

/*
 * Open the DRM device the X server renders with.
 *
 * DRI3 Open on drawable's screen (provider: 0 for the default), then
 * libdrm's facts about the fd; a primary node is swapped for its render
 * node where the system has one (the render node needs no DRM master).
 * NULL with errno: EIO (X error in *err), EPROTO (the reply does not carry
 * exactly one fd), ENOTSUP (no DRI3), EPIPE, ETIMEDOUT (the server did not
 * answer within the connection's timeout: the fd of its late reply is
 * closed when it comes), ECANCELED, ENOMEM.  A non-DRM fd is not an
 * error: see is_drm.
 *
 * See also xcb_dri3_util_device_close(), xcb_dri3_util_device_same(),
 * xcb_dri3_util_device_set_in_use(), xcb_dri3_util_probe().
 */
xcb_dri3_util_device_t *xcb_dri3_util_device_open(xcb_connection_t *c,
                                                  xcb_drawable_t drawable,
                                                  uint32_t provider,
                                                  xcb_generic_error_t **err);

/*
 * Tell whether two DRM fds are the same GPU.
 *
 * Whether two fds are the same GPU (whatever node each one is), so that a
 * loader knows when it must share buffers through PRIME.
 *
 * Returns 1 (the
 * same), 0 (different GPUs), -ENODEV (either fd is no DRM device), -EBADF.
 *
 * See also xcb_dri3_util_device_open(), xcb_dri3_util_device_needs_prime().
 */
int xcb_dri3_util_device_same(int fd_a, int fd_b);

/*
 * Closes the fd and frees the device.  NULL is allowed.
 *
 * See also xcb_dri3_util_device_open().
 */
void xcb_dri3_util_device_close(xcb_dri3_util_device_t *dev);

/*
 * Tell the X server which GPU renders a window.
 *
 * Tells the server (DRI3 1.3 SetDRMDeviceInUse) that window is rendered
 * with dev, so it can prefer that GPU's buffers.  A no-op returning 0 on
 * servers older than 1.3.  The request is unchecked: an X error goes to
 * the event queue.
 *
 * Returns 0, -ENODEV (dev is no DRM device), -ENOTSUP
 * (no DRI3), -EPIPE.
 *
 * See also xcb_dri3_util_device_open(), xcb_dri3_util_modifiers_query().
 */
int xcb_dri3_util_device_set_in_use(xcb_connection_t *c, xcb_window_t window,
                                    const xcb_dri3_util_device_t *dev);

/*
 * Tell whether rendered buffers must cross to the server's GPU.
 *
 * Whether buffers rendered on render_fd's device must be copied into a
 * buffer of server_fd's device (the one from xcb_dri3_util_device_open())
 * to be shown: PRIME.  Two DRM devices are compared by their bus, as
 * xcb_dri3_util_device_same() does.  When either fd is no DRM device (the
 * mock server's memfd, a file), the two are one device only when they are
 * one file (the same inode on the same filesystem).
 *
 * Returns 1 (copy:
 * different devices), 0 (the same device), -EBADF (either fd is not open).
 *
 * See also xcb_dri3_util_device_same(), xcb_dri3_util_device_open(),
 * xcb_dri3_util_device_open_selected().
 */
int xcb_dri3_util_device_needs_prime(int server_fd, int render_fd);

/*
 * Open the render node a DRI_PRIME\-style selection names.
 *
 * Opens (read-write, close-on-exec) the render node that selection names,
 * in the shape of Mesa's DRI_PRIME variable:
 *   "pci-0000_01_00_0"  the GPU at that PCI address (domain_bus_dev_func,
 *                       as in /dev/dri/by-path), lower- or upper-case hex;
 *   "VVVV:DDDD"         the first GPU with that PCI vendor and device id
 *                       (hex);
 *   "1"                 the first render node that is not server_fd's
 *                       device (server_fd may be -1: any render node;
 *                       a server_fd that is no DRM device matches none).
 * The devices are libdrm's (drmGetDevices2), in its order.
 *
 * Returns the
 * fd, or -EINVAL (a selection of none of these shapes, or NULL), -EBADF
 * (server_fd is neither -1 nor open), -ENOENT (no render node matches,
 * also on a system with no DRM device), -ENOMEM, or open()'s error.
 *
 * See also xcb_dri3_util_device_needs_prime(), xcb_dri3_util_device_open(),
 * xcb_dri3_util_device_same().
 */
int xcb_dri3_util_device_open_selected(const char *selection, int server_fd);

#ifdef __cplusplus
}
#endif

#endif
