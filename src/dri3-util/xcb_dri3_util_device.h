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
 * Open the DRM device the X server renders with.  Sends DRI3 Open for the
 * screen of drawable (provider: 0 for the screen's default) and returns the
 * device that the server handed out, with what libdrm knows about it.  The fd
 * is close-on-exec.  A primary node is swapped for its render node where the
 * system has one, because a render node needs neither authentication nor DRM
 * master.
 *
 * The fields of xcb_dri3_util_device_t:
 *
 *   fd  the device, owned by the structure
 *   is_drm  whether the fd is a DRM device node
 *   is_render_node  whether it is a render node
 *   swapped  whether the server's primary node was swapped for its render node
 *   kind  "render", "primary", or, for an fd that is no DRM device, "memfd",
 *         "file" or "other"
 *   driver  the kernel driver's name ("i915", "amdgpu"), or empty
 *   render_node  the render node's path, or empty
 *   dev_major, dev_minor  the device number of the node (what DRI3
 *                         SetDRMDeviceInUse takes)
 *   bus_type  libdrm's DRM_BUS_* value, or -1
 *   bus_id  "pci:DOMAIN:BUS:DEV.FUNC" for PCI devices, or empty
 *   vendor_id, device_id  the PCI ids, or 0
 *   note  a line for people: what the device is, or what the fd is instead
 *
 * A server may hand out an fd that is no DRM device (the project's mock server
 * gives a memfd).  That is not an error: the structure says so (is_drm false,
 * the DRM fields empty, kind and note saying what the fd is) rather than
 * guessing.
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).  When the server does not
 * answer in time, the fd of its late reply is closed when it comes.
 *
 * Returns a new device, which xcb_dri3_util_device_close() frees, or NULL with
 * errno set to EIO (the server refused, with the X error in *err when err is
 * not NULL), EPROTO (the reply did not carry exactly one fd), ENOTSUP (no
 * DRI3: nothing was sent), EPIPE, ETIMEDOUT (no answer within the bound),
 * ECANCELED (the scope's cancel fd) or ENOMEM.
 *
 * See also xcb_dri3_util_device_close(), xcb_dri3_util_device_same(),
 * xcb_dri3_util_device_set_in_use(), xcb_dri3_util_probe().
 */
xcb_dri3_util_device_t *xcb_dri3_util_device_open(xcb_connection_t *c,
                                                  xcb_drawable_t drawable,
                                                  uint32_t provider,
                                                  xcb_generic_error_t **err);

/*
 * Tell whether two DRM fds are the same GPU.  Compares the GPUs behind two DRM
 * fds, whichever nodes they are (a primary and a render node of one GPU are
 * the same GPU), by their bus as libdrm reports it.  A loader calls it with
 * the device from xcb_dri3_util_device_open(),
 * xcb_dri3_util_device_needs_prime() and the device it renders with: when they
 * differ, buffers must cross between the GPUs (PRIME), in a layout both
 * understand.
 *
 * Returns 1 (the same GPU), 0 (different GPUs), or a negative errno (also in
 * errno): -ENODEV (either fd is no DRM device) or -EBADF (either fd is not
 * open).
 *
 * See also xcb_dri3_util_device_open(), xcb_dri3_util_device_needs_prime().
 */
int xcb_dri3_util_device_same(int fd_a, int fd_b);

/*
 * Close a device.  Closes the device's fd and frees the structure that
 * xcb_dri3_util_device_open() returned.  dev may be NULL.
 *
 * See also xcb_dri3_util_device_open().
 */
void xcb_dri3_util_device_close(xcb_dri3_util_device_t *dev);

/*
 * Tell the X server which GPU renders a window.  Sends DRI3 SetDRMDeviceInUse
 * (DRI3 1.3) with the device number of dev, so that the server can offer
 * modifiers that suit the GPU the client renders window with.  On servers
 * older than DRI3 1.3 it does nothing and succeeds.  The request is unchecked:
 * an X error goes to the event queue.
 *
 * Returns 0, or a negative errno (also in errno): -ENODEV (dev is NULL or no
 * DRM device), -ENOTSUP (no DRI3), -EPIPE.
 *
 * See also xcb_dri3_util_device_open(), xcb_dri3_util_modifiers_query().
 */
int xcb_dri3_util_device_set_in_use(xcb_connection_t *c, xcb_window_t window,
                                    const xcb_dri3_util_device_t *dev);

/*
 * Tell whether rendered buffers must cross to the server's GPU.  A driver
 * renders on one GPU while the X server may show the window through another
 * (PRIME, as on laptops with an integrated and a discrete GPU).  Then every
 * frame rendered on render_fd's device must be copied into a buffer that
 * server_fd's device can scan out or composite, usually a linear one, before
 * it becomes a pixmap.
 *
 * server_fd is the device of the X server, from xcb_dri3_util_device_open();
 * render_fd is the device the driver renders with, for instance the one
 * xcb_dri3_util_device_open_selected() opened.  Two DRM devices are compared
 * by their bus, as xcb_dri3_util_device_same() does, so a primary and a render
 * node of one GPU are one device.  When either fd is no DRM device (the mock X
 * server hands out a memfd, or the file its dri3-open key names), the two are
 * one device only when they are one file: the same inode on the same
 * filesystem, whichever fds reach it.
 *
 * Returns 1 (different devices: copy), 0 (the same device), or -EBADF (also in
 * errno) when either fd is not open.
 *
 * See also xcb_dri3_util_device_same(), xcb_dri3_util_device_open(),
 * xcb_dri3_util_device_open_selected().
 */
int xcb_dri3_util_device_needs_prime(int server_fd, int render_fd);

/*
 * Open the render node a DRI_PRIME-style selection names.  Opens, read-write
 * and close-on-exec, the render node of the GPU that selection names, in one
 * of the shapes of Mesa's DRI_PRIME environment variable:
 *
 *   pci-0000_01_00_0  the GPU at that PCI address: domain (4 hex digits), bus
 *                     (2), device (2) and function (1), as the names under
 *                     /dev/dri/by-path write it; hex digits in either case.
 *   1002:73ff  the first GPU with that PCI vendor and device id, 4 hex digits
 *              each.
 *   1  the first render node that is not server_fd's device: the other GPU of
 *      a two-GPU machine.  server_fd may be -1 (any render node will do); one
 *      that is no DRM device matches no render node, so every render node is
 *      another device.
 *
 * The devices are those libdrm lists (drmGetDevices2), in its order; a device
 * without a render node is never selected.  Whether the GPU opened needs PRIME
 * copies is xcb_dri3_util_device_needs_prime()'s question.
 *
 * Returns the new fd, which the caller closes, or a negative errno (also in
 * errno): -EINVAL (selection is NULL or of none of the shapes above), -EBADF
 * (server_fd is neither -1 nor open), -ENOENT (no render node matches, also on
 * a system without DRM devices), -ENOMEM, or the error of open(2).
 *
 * See also xcb_dri3_util_device_needs_prime(), xcb_dri3_util_device_open(),
 * xcb_dri3_util_device_same().
 */
int xcb_dri3_util_device_open_selected(const char *selection, int server_fd);

#ifdef __cplusplus
}
#endif

#endif
