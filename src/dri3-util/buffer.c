/*
 * Buffers: making them (memfd, import), the checks that keep a layout
 * inside its fds, CPU mapping with dma-buf sync, accessors, destroy.
 */
#include "buffer-private.h"
#include "buffer-formats.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rows of memfd buffers start on 64-byte boundaries, which every GPU
 * that might import them copes with and which keeps rows cache-aligned. */
#define MEMFD_STRIDE_ALIGN 64u

void close_distinct_fds(const int *fds, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        bool seen = false;

        for (unsigned j = 0; j < i; j++)
            seen = seen || fds[j] == fds[i];
        if (!seen && fds[i] >= 0)
            close(fds[i]);
    }
}

/* Whether fd is a dma-buf: the kernel names their files "/dmabuf:NAME"
 * (Linux 5.3 and later) or "anon_inode:dmabuf" (before). */
static bool fd_is_dmabuf(int fd)
{
    char path[64], target[64];
    ssize_t n;

    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    return strncmp(target, "/dmabuf:", 8) == 0 || strcmp(target, "anon_inode:dmabuf") == 0;
}

/*
 * Learns what a plane's fd is and how big.  0, -EBADF, or -EINVAL for
 * files that cannot hold pixels (pipes, sockets, directories, devices).
 *
 * The size is known wherever the kernel tells it: st_size for memfds and
 * regular files, and lseek(SEEK_END) for dma-bufs, which report it only
 * there (since Linux 3.19).  Either can be 0, an empty file: that is a
 * known size in which no plane fits.  The size is unknown only for a
 * dma-buf whose lseek fails (an older kernel); its planes are then taken
 * on trust, the one case where a plane is not checked against its fd.
 */
static int probe_fd(struct buffer_plane *p)
{
    struct stat st;

    if (fstat(p->fd, &st) < 0)
        return -EBADF;
    p->dmabuf = fd_is_dmabuf(p->fd);
    if (p->dmabuf) {
        off_t end = lseek(p->fd, 0, SEEK_END);

        p->size_known = end >= 0;
        p->fd_size = end >= 0 ? (uint64_t)end : 0;
        lseek(p->fd, 0, SEEK_SET);
        return 0;
    }
    if (!S_ISREG(st.st_mode))
        return -EINVAL;
    p->size_known = true;
    p->fd_size = (uint64_t)st.st_size;
    return 0;
}

/*
 * Every plane the format defines must lie within its fd, hold one row of
 * pixels per stride, and start (and step from row to row) at the
 * alignment of its pixels; auxiliary planes of a modifier (compression
 * data, whose layout only the driver knows) need only start inside it.
 * The row rule holds for tiled layouts too: their pitch covers the row
 * and its padding to whole tiles.
 */
static int check_layout(const struct xcb_dri3_util_buffer *b, const struct format_info *f)
{
    for (unsigned i = 0; i < b->n_planes; i++) {
        const struct buffer_plane *p = &b->planes[i];
        uint32_t align;
        uint64_t end;

        if (i >= f->n_planes) {
            if (p->size_known && p->offset >= p->fd_size)
                return -EINVAL;
            continue;
        }
        align = format_plane_align(f, i);
        if (p->stride == 0 || p->stride < format_plane_row_bytes(f, i, b->width) ||
            p->stride % align != 0 || p->offset % align != 0)
            return -EINVAL;
        end = (uint64_t)p->offset + (uint64_t)p->stride * format_plane_rows(f, i, b->height);
        if (p->size_known && end > p->fd_size)
            return -EINVAL;
    }
    return 0;
}

int buffer_import(uint16_t width, uint16_t height, uint32_t fourcc, uint64_t modifier,
                  unsigned n_planes, const int *fds, const uint32_t *strides,
                  const uint32_t *offsets, xcb_dri3_util_buffer_t **out)
{
    const struct format_info *f = format_lookup(fourcc);
    struct xcb_dri3_util_buffer *b;
    int ret;

    *out = NULL;
    if (n_planes < 1 || n_planes > 4 || !fds) {
        if (fds)
            close_distinct_fds(fds, n_planes);
        return -EINVAL;
    }
    if (!strides || !offsets || width == 0 || height == 0 || !f || n_planes < f->n_planes ||
        /* extra planes belong to a modifier's layout, never to these */
        (n_planes > f->n_planes &&
         (modifier == XCB_DRI3_UTIL_MOD_LINEAR || modifier == XCB_DRI3_UTIL_MOD_INVALID))) {
        close_distinct_fds(fds, n_planes);
        return -EINVAL;
    }
    b = calloc(1, sizeof *b);
    if (!b) {
        close_distinct_fds(fds, n_planes);
        return -ENOMEM;
    }
    b->width = width;
    b->height = height;
    b->depth = f->depth;
    b->bpp = f->bpp;
    b->fourcc = fourcc;
    b->modifier = modifier;
    b->n_planes = n_planes;
    for (unsigned i = 0; i < 4; i++)
        b->planes[i].fd = i < n_planes ? fds[i] : -1;
    ret = 0;
    for (unsigned i = 0; i < n_planes; i++) {
        struct buffer_plane *p = &b->planes[i];

        p->stride = strides[i];
        p->offset = offsets[i];
        if (ret == 0)
            ret = probe_fd(p);
    }
    if (ret == 0)
        ret = check_layout(b, f);
    if (ret == 0) {
        /* Fds from other parties (libxcb gives inheritable ones) are made
         * close-on-exec like everything the library holds. */
        for (unsigned i = 0; i < n_planes; i++)
            fcntl(b->planes[i].fd, F_SETFD, FD_CLOEXEC);
        *out = b;
        return 0;
    }
    close_distinct_fds(fds, n_planes);
    free(b);
    return ret;
}

xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_import(uint16_t width, uint16_t height,
                                                    uint32_t fourcc, uint64_t modifier,
                                                    unsigned n_planes, const int *fds,
                                                    const uint32_t *strides,
                                                    const uint32_t *offsets)
{
    xcb_dri3_util_buffer_t *b;
    int ret = buffer_import(width, height, fourcc, modifier, n_planes, fds, strides, offsets,
                            &b);

    if (ret < 0)
        errno = -ret;
    return b;
}

xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_memfd(uint16_t width, uint16_t height,
                                                          uint32_t fourcc)
{
    const struct format_info *f = format_lookup(fourcc);
    uint32_t stride, offset = 0;
    xcb_dri3_util_buffer_t *b;
    int fd, ret;

    if (!f || f->n_planes != 1 || f->bpp % 8 != 0 || width == 0 || height == 0) {
        errno = EINVAL;
        return NULL;
    }
    stride = ((uint32_t)width * (f->bpp / 8) + MEMFD_STRIDE_ALIGN - 1) &
             ~(MEMFD_STRIDE_ALIGN - 1);
    fd = memfd_create("xcb-dri3-util-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, (off_t)stride * height) < 0) {
        ret = errno;
        close(fd);
        errno = ret;
        return NULL;
    }
    /* The server maps this file: nobody may shrink it under the mapping. */
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    ret = buffer_import(width, height, fourcc, XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd, &stride,
                        &offset, &b);
    if (ret < 0)
        errno = -ret;
    return b;
}

/* DMA_BUF_IOCTL_SYNC, retried when a signal interrupts it. */
static int dmabuf_sync(int fd, uint64_t flags)
{
    struct dma_buf_sync sync = { .flags = flags };

    for (;;) {
        if (ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync) == 0)
            return 0;
        if (errno != EINTR && errno != EAGAIN)
            return -errno;
    }
}

static uint64_t sync_flags(unsigned map_flags)
{
    uint64_t f = 0;

    if (map_flags & XCB_DRI3_UTIL_MAP_READ)
        f |= DMA_BUF_SYNC_READ;
    if (map_flags & XCB_DRI3_UTIL_MAP_WRITE)
        f |= DMA_BUF_SYNC_WRITE;
    return f;
}

void *xcb_dri3_util_buffer_map(xcb_dri3_util_buffer_t *buf, unsigned plane, unsigned flags,
                               uint32_t *stride)
{
    const struct format_info *f;
    struct buffer_plane *p;
    int prot = 0, ret;
    size_t len;
    void *m;

    if (!buf || plane >= buf->n_planes ||
        (flags & (XCB_DRI3_UTIL_MAP_READ | XCB_DRI3_UTIL_MAP_WRITE)) == 0 ||
        (flags & ~(XCB_DRI3_UTIL_MAP_READ | XCB_DRI3_UTIL_MAP_WRITE))) {
        errno = EINVAL;
        return NULL;
    }
    p = &buf->planes[plane];
    f = format_lookup(buf->fourcc);
    /* Only linear layouts have rows a CPU can walk.  "No modifier" is the
     * driver's private layout on a dma-buf, but a memfd is linear. */
    if (buf->modifier != XCB_DRI3_UTIL_MOD_LINEAR &&
        !(buf->modifier == XCB_DRI3_UTIL_MOD_INVALID && !p->dmabuf)) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    if (p->map) {
        errno = EBUSY;
        return NULL;
    }
    len = (size_t)p->offset + (size_t)p->stride * format_plane_rows(f, plane, buf->height);
    if (flags & XCB_DRI3_UTIL_MAP_READ)
        prot |= PROT_READ;
    if (flags & XCB_DRI3_UTIL_MAP_WRITE)
        prot |= PROT_WRITE;
    m = mmap(NULL, len, prot, MAP_SHARED, p->fd, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (p->dmabuf) {
        ret = dmabuf_sync(p->fd, DMA_BUF_SYNC_START | sync_flags(flags));
        if (ret < 0) {
            munmap(m, len);
            errno = -ret;
            return NULL;
        }
    }
    p->in_access = true;
    p->map = m;
    p->map_len = len;
    p->map_flags = flags;
    if (stride)
        *stride = p->stride;
    return (uint8_t *)m + p->offset;
}

int xcb_dri3_util_buffer_unmap(xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    struct buffer_plane *p;
    int ret = 0;

    if (!buf || plane >= buf->n_planes || !buf->planes[plane].map) {
        errno = EINVAL;
        return -EINVAL;
    }
    p = &buf->planes[plane];
    if (p->dmabuf && p->in_access)
        ret = dmabuf_sync(p->fd, DMA_BUF_SYNC_END | sync_flags(p->map_flags));
    p->in_access = false;
    munmap(p->map, p->map_len);
    p->map = NULL;
    p->map_len = 0;
    if (ret < 0)
        errno = -ret;
    return ret;
}

/* The mapped plane of buf, or NULL with errno EINVAL. */
static struct buffer_plane *mapped_plane(xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    if (!buf || plane >= buf->n_planes || !buf->planes[plane].map) {
        errno = EINVAL;
        return NULL;
    }
    return &buf->planes[plane];
}

/*
 * A mapping kept across frames (a swapchain's) needs the sync around each
 * frame's writes, not around the mapping's life: the start waits for the
 * GPU and the server to finish with the buffer, the end flushes the CPU's
 * caches before they read it.  A begin or end that is already in effect
 * is a no-op, so that a caller need not track which came last.
 */
int xcb_dri3_util_buffer_begin_access(xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    struct buffer_plane *p = mapped_plane(buf, plane);
    int ret;

    if (!p)
        return -EINVAL;
    if (p->in_access)
        return 0;
    if (p->dmabuf) {
        ret = dmabuf_sync(p->fd, DMA_BUF_SYNC_START | sync_flags(p->map_flags));
        if (ret < 0) {
            errno = -ret;
            return ret;
        }
    }
    p->in_access = true;
    return 0;
}

int xcb_dri3_util_buffer_end_access(xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    struct buffer_plane *p = mapped_plane(buf, plane);
    int ret = 0;

    if (!p)
        return -EINVAL;
    if (!p->in_access)
        return 0;
    if (p->dmabuf)
        ret = dmabuf_sync(p->fd, DMA_BUF_SYNC_END | sync_flags(p->map_flags));
    /* ended even when the ioctl failed: the next begin starts afresh */
    p->in_access = false;
    if (ret < 0)
        errno = -ret;
    return ret;
}

uint16_t xcb_dri3_util_buffer_width(const xcb_dri3_util_buffer_t *buf)
{
    return buf->width;
}

uint16_t xcb_dri3_util_buffer_height(const xcb_dri3_util_buffer_t *buf)
{
    return buf->height;
}

uint8_t xcb_dri3_util_buffer_depth(const xcb_dri3_util_buffer_t *buf)
{
    return buf->depth;
}

uint8_t xcb_dri3_util_buffer_bpp(const xcb_dri3_util_buffer_t *buf)
{
    return buf->bpp;
}

uint32_t xcb_dri3_util_buffer_fourcc(const xcb_dri3_util_buffer_t *buf)
{
    return buf->fourcc;
}

uint64_t xcb_dri3_util_buffer_modifier(const xcb_dri3_util_buffer_t *buf)
{
    return buf->modifier;
}

unsigned xcb_dri3_util_buffer_n_planes(const xcb_dri3_util_buffer_t *buf)
{
    return buf->n_planes;
}

int xcb_dri3_util_buffer_fd(const xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    return plane < buf->n_planes ? buf->planes[plane].fd : -1;
}

uint32_t xcb_dri3_util_buffer_stride(const xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    return plane < buf->n_planes ? buf->planes[plane].stride : 0;
}

uint32_t xcb_dri3_util_buffer_offset(const xcb_dri3_util_buffer_t *buf, unsigned plane)
{
    return plane < buf->n_planes ? buf->planes[plane].offset : 0;
}

void xcb_dri3_util_buffer_destroy(xcb_dri3_util_buffer_t *buf)
{
    int fds[4];

    if (!buf)
        return;
    for (unsigned i = 0; i < buf->n_planes; i++) {
        if (buf->planes[i].map)
            xcb_dri3_util_buffer_unmap(buf, i);
        fds[i] = buf->planes[i].fd;
    }
    close_distinct_fds(fds, buf->n_planes);
    if (buf->gbm_bo && buf->gbm_destroy)
        buf->gbm_destroy(buf->gbm_bo);
    free(buf);
}
