/*
 * Fuzz target: libxcb-dri3-util's calls that talk to the server (the
 * probe and window_caps, device_open, get_supported_modifiers,
 * buffer_from_pixmap and buffer_to_pixmap, fence_from_server and
 * fence_to_server, syncobjs and timelines) against the scripted server of
 * fuzz-server.h.
 *
 * Input: 8 bytes for this driver, then the server's script.
 *   byte 0  which calls (bits: probe, device, modifiers, buffer from a
 *           pixmap, fence from the server, buffer to a pixmap, fence to
 *           the server, syncobj and PresentPixmapSynced); 0 means all
 *   byte 1  depth and bpp for the modifiers (% 8 of a table)
 *   byte 2  the DRI3 provider
 *   byte 3  bit 0: the calls twice (the second time from the caches)
 * Everything handed over is checked (fds open and close-on-exec, lists
 * read to their last element, mappings to their last byte) and given
 * back; errno values must be the documented ones.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-conn.h"
#include "fuzz-server.h"
#include "fuzz-util-run.h"
#include "xcb_dri3_util.h"
#include "xcb_present_util.h"

#define PIXMAP 0x00400002u
#define SYNC_FENCE 0x00400003u
#define WAIT_NS 1000000ll

enum {
    DO_PROBE = 1, DO_DEVICE = 2, DO_MODIFIERS = 4, DO_FROM_PIXMAP = 8, DO_FENCE_FROM = 16,
    DO_TO_PIXMAP = 32, DO_FENCE_TO = 64, DO_SYNCOBJ = 128,
};

static const int device_errors[] = { EIO, EPROTO, ENOTSUP, EPIPE, ENOMEM, ETIMEDOUT, 0 };
static const int modifier_errors[] = { EIO, EPROTO, ENOTSUP, EINVAL, EPIPE, ENOMEM, ETIMEDOUT, 0 };
static const int from_pixmap_errors[] = { EIO, EPROTO, EINVAL, ENOTSUP, EPIPE, ENOMEM, ETIMEDOUT, 0 };
static const int to_pixmap_errors[] = { EIO, EPROTO, EOPNOTSUPP, EINVAL, ENOTSUP, EPIPE, ETIMEDOUT, 0 };

static void free_err(xcb_generic_error_t *err)
{
    if (err != NULL)
        fuzz_touch(err, sizeof(*err));
    free(err);
}

static void probe(xcb_connection_t *c)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    int r = xcb_dri3_util_probe(c, &caps);

    if (r == 0)
        fuzz_touch(&caps, sizeof(caps));
    else if (r != -EPIPE && r != -ENOMEM && r != -ETIMEDOUT && r != -EPROTO)
        fuzz_finding("probe() returned %d", r);
    if (r == 0) {
        uint32_t wcaps;

        r = xcb_dri3_util_window_caps(c, FUZZ_WINDOW, &wcaps);
        if (r != 0 && r != -ENOTSUP && r != -ENODEV && r != -EPIPE && r != -ENOMEM &&
            r != -ETIMEDOUT && r != -EPROTO)
            fuzz_finding("window_caps() returned %d", r);
    }
}

static void check_string(const char *s, size_t size, const char *what)
{
    if (memchr(s, '\0', size) == NULL)
        fuzz_finding("device_open(): %s is not terminated", what);
}

/* A timeline on whatever the server called a DRM device. */
static void timeline(xcb_connection_t *c, int fd, int64_t *budget)
{
    xcb_dri3_util_timeline_t *tl = xcb_dri3_util_timeline_create(fd);
    xcb_generic_error_t *err = NULL;
    uint64_t point;
    uint32_t id;

    if (tl == NULL)
        return;
    fuzz_util_check_fd(xcb_dri3_util_timeline_fd(tl), "timeline_fd()");
    xcb_dri3_util_timeline_signal(tl, 1);
    xcb_dri3_util_timeline_query(tl, &point);
    *budget += WAIT_NS;
    xcb_dri3_util_timeline_wait(tl, 2, WAIT_NS);
    id = xcb_dri3_util_syncobj_import(c, FUZZ_WINDOW, xcb_dri3_util_timeline_fd(tl), &err);
    free_err(err);
    if (id)
        xcb_dri3_util_syncobj_free(c, id);
    xcb_dri3_util_timeline_destroy(tl);
}

static void device(xcb_connection_t *c, uint32_t provider, int64_t *budget)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_device_t *dev = xcb_dri3_util_device_open(c, FUZZ_WINDOW, provider, &err);

    free_err(err);
    if (dev == NULL) {
        if (!fuzz_util_errno_in(errno, device_errors))
            fuzz_finding("device_open() failed with errno %d", errno);
        return;
    }
    fuzz_util_check_fd(dev->fd, "device_open()");
    check_string(dev->kind, sizeof(dev->kind), "kind");
    check_string(dev->driver, sizeof(dev->driver), "driver");
    check_string(dev->render_node, sizeof(dev->render_node), "render_node");
    check_string(dev->bus_id, sizeof(dev->bus_id), "bus_id");
    check_string(dev->note, sizeof(dev->note), "note");
    xcb_dri3_util_device_same(dev->fd, dev->fd);
    xcb_dri3_util_device_set_in_use(c, FUZZ_WINDOW, dev);
    timeline(c, dev->fd, budget);
    xcb_dri3_util_device_close(dev);
}

static void modifiers(xcb_connection_t *c, uint8_t pick)
{
    static const uint8_t formats[8][2] = {
        { 24, 32 }, { 32, 32 }, { 16, 16 }, { 30, 32 }, { 8, 8 }, { 0, 0 }, { 24, 24 },
        { 255, 255 },
    };
    const uint8_t *f = formats[pick % 8];
    uint64_t *win = NULL, *scr = NULL;
    uint32_t n_win = 7, n_scr = 7;
    xcb_generic_error_t *err = NULL;
    int r = xcb_dri3_util_modifiers_query(c, FUZZ_WINDOW, f[0], f[1], &win, &n_win,
                                          &scr, &n_scr, &err);

    free_err(err);
    if (r != 0) {
        if (!fuzz_util_errno_in(-r, modifier_errors))
            fuzz_finding("get_supported_modifiers() returned %d", r);
        if (win || scr || n_win || n_scr)
            fuzz_finding("get_supported_modifiers() failed and left lists");
        return;
    }
    if ((n_win && !win) || (n_scr && !scr))
        fuzz_finding("get_supported_modifiers(): a count without a list");
    fuzz_touch(win, n_win * sizeof(*win));
    fuzz_touch(scr, n_scr * sizeof(*scr));
    free(win);
    free(scr);
}

/* The buffer's every plane: fds, and a CPU mapping to its last byte. */
static void buffer_planes(xcb_dri3_util_buffer_t *buf)
{
    unsigned n = xcb_dri3_util_buffer_n_planes(buf);

    if (n < 1 || n > 4)
        fuzz_finding("a buffer of %u planes", n);
    for (unsigned p = 0; p < n; p++) {
        uint32_t stride = 0;
        uint8_t *m;

        fuzz_util_check_fd(xcb_dri3_util_buffer_fd(buf, p), "buffer_from_pixmap()");
        if (getenv("FUZZ_DEBUG")) {
            struct stat st = { 0 };

            fstat(xcb_dri3_util_buffer_fd(buf, p), &st);
            fprintf(stderr, "buffer: %ux%u bpp %u fourcc 0x%x modifier 0x%llx, plane %u of %u: "
                    "stride %u offset %u, fd size %lld\n", xcb_dri3_util_buffer_width(buf),
                    xcb_dri3_util_buffer_height(buf), xcb_dri3_util_buffer_bpp(buf),
                    xcb_dri3_util_buffer_fourcc(buf),
                    (unsigned long long)xcb_dri3_util_buffer_modifier(buf), p, n,
                    xcb_dri3_util_buffer_stride(buf, p), xcb_dri3_util_buffer_offset(buf, p),
                    (long long)st.st_size);
        }
        m = xcb_dri3_util_buffer_map(buf, p, XCB_DRI3_UTIL_MAP_READ, &stride);
        if (m == NULL)
            continue;
        /* The header promises that the plane fits in its fd: the last
         * row's last byte is there. One-plane formats only: the others'
         * rows are the library's to know. */
        if (p == 0 && n == 1 && xcb_dri3_util_buffer_height(buf) > 0)
            fuzz_touch(m + (size_t)stride * (xcb_dri3_util_buffer_height(buf) - 1) +
                           (size_t)xcb_dri3_util_buffer_width(buf) *
                               (xcb_dri3_util_buffer_bpp(buf) / 8) - 1, 1);
        fuzz_touch(m, 1);
        xcb_dri3_util_buffer_unmap(buf, p);
    }
}

static void to_pixmap(xcb_connection_t *c, const xcb_dri3_util_buffer_t *buf)
{
    xcb_generic_error_t *err = NULL;
    xcb_pixmap_t pixmap = xcb_dri3_util_buffer_to_pixmap(c, FUZZ_WINDOW, buf, &err);

    free_err(err);
    if (pixmap == XCB_NONE && !fuzz_util_errno_in(errno, to_pixmap_errors))
        fuzz_finding("buffer_to_pixmap() failed with errno %d", errno);
}

static void from_pixmap(xcb_connection_t *c)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_buffer_t *buf = xcb_dri3_util_buffer_from_pixmap(c, PIXMAP, &err);

    free_err(err);
    if (buf == NULL) {
        if (!fuzz_util_errno_in(errno, from_pixmap_errors))
            fuzz_finding("buffer_from_pixmap() failed with errno %d", errno);
        return;
    }
    buffer_planes(buf);
    to_pixmap(c, buf);
    xcb_dri3_util_buffer_destroy(buf);
}

static void fence_from(xcb_connection_t *c, int64_t *budget)
{
    xcb_generic_error_t *err = NULL;
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_from_server(c, FUZZ_WINDOW, SYNC_FENCE,
                                                               &err);

    free_err(err);
    if (f == NULL)
        return;
    fuzz_util_check_fd(xcb_dri3_util_fence_fd(f), "fence_from_server()");
    xcb_dri3_util_fence_is_triggered(f);
    *budget += 2 * WAIT_NS;
    xcb_dri3_util_fence_wait(f, WAIT_NS);
    xcb_dri3_util_fence_trigger(f);
    xcb_dri3_util_fence_reset(f);
    xcb_dri3_util_fence_wait_conn(f, c, WAIT_NS);
    err = NULL;
    xcb_dri3_util_fence_to_server(c, FUZZ_WINDOW, f, &err);
    free_err(err);
    xcb_dri3_util_fence_destroy(f);
}

static void fence_to(xcb_connection_t *c, int64_t *budget)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_generic_error_t *err = NULL;

    if (f == NULL)
        fuzz_finding("harness: fence_create failed");
    xcb_dri3_util_fence_to_server(c, FUZZ_WINDOW, f, &err);
    free_err(err);
    *budget += WAIT_NS;
    xcb_dri3_util_fence_wait_conn(f, c, WAIT_NS);
    xcb_dri3_util_fence_destroy(f);
}

static void memfd_to_pixmap(xcb_connection_t *c)
{
    xcb_dri3_util_buffer_t *buf = xcb_dri3_util_buffer_create_memfd(16, 16, 0x34325258);

    if (buf == NULL)
        fuzz_finding("harness: buffer_create_memfd failed");
    to_pixmap(c, buf);
    xcb_dri3_util_buffer_destroy(buf);
}

/* A syncobj from an fd that is none (the server does not look), and a
 * synced presentation with it. */
static void syncobj(xcb_connection_t *c)
{
    int fd = memfd_create("fuzz-syncobj", MFD_CLOEXEC);
    xcb_generic_error_t *err = NULL;
    uint32_t id;

    if (fd < 0)
        fuzz_finding("harness: memfd_create failed");
    id = xcb_dri3_util_syncobj_import(c, FUZZ_WINDOW, fd, &err);
    free_err(err);
    close(fd);
    if (id) {
        xcb_present_util_present_synced(c, FUZZ_WINDOW, PIXMAP, 1, id, 1, id, 2, 0, 0, 0, 0,
                                        NULL);
        xcb_dri3_util_syncobj_free(c, id);
    }
}

void fuzz_util_drive(xcb_connection_t *c, const uint8_t head[FUZZ_UTIL_HEAD], int64_t *budget)
{
    unsigned calls = head[0] ? head[0] : 0xff;

    for (int round = 0; round < ((head[3] & 1) ? 2 : 1); round++) {
        if (calls & DO_PROBE)
            probe(c);
        if (calls & DO_DEVICE)
            device(c, head[2], budget);
        if (calls & DO_MODIFIERS)
            modifiers(c, head[1]);
        if (calls & DO_FROM_PIXMAP)
            from_pixmap(c);
        if (calls & DO_FENCE_FROM)
            fence_from(c, budget);
        if (calls & DO_TO_PIXMAP)
            memfd_to_pixmap(c);
        if (calls & DO_FENCE_TO)
            fence_to(c, budget);
        if (calls & DO_SYNCOBJ)
            syncobj(c);
    }
}
