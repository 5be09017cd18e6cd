/*
 * Buffers without a server: memfd creation, the layout checks of import,
 * ownership of the fds whatever the outcome, CPU mapping rules, accessors.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buffer-test-util.h"

TEST(memfd_formats_and_strides)
{
    static const struct { uint32_t fourcc; uint16_t width; uint32_t stride; uint8_t depth, bpp; }
        cases[] = {
            { XRGB8888, 1, 64, 24, 32 },   { XRGB8888, 16, 64, 24, 32 },
            { XRGB8888, 17, 128, 24, 32 }, { ARGB8888, 100, 448, 32, 32 },
            { RGB565, 33, 128, 16, 16 },   { RGB565, 32, 64, 16, 16 },
            { XRGB2101010, 65, 320, 30, 32 },
        };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xcb_dri3_util_buffer_t *b =
            xcb_dri3_util_buffer_create_memfd(cases[i].width, 3, cases[i].fourcc);
        struct stat st;
        int fd;

        test_note("case %zu", i);
        CHECK(b != NULL);
        fd = xcb_dri3_util_buffer_fd(b, 0);
        E2E_CHECK_MEMFD(fd, "xcb-dri3-util-buffer");
        CHECK(fstat(fd, &st) == 0);
        CHECK_EQ(st.st_size, 3 * cases[i].stride);
        CHECK_EQ(xcb_dri3_util_buffer_stride(b, 0), cases[i].stride);
        CHECK_EQ(xcb_dri3_util_buffer_stride(b, 0) % 64, 0);
        CHECK_EQ(xcb_dri3_util_buffer_offset(b, 0), 0);
        CHECK_EQ(xcb_dri3_util_buffer_depth(b), cases[i].depth);
        CHECK_EQ(xcb_dri3_util_buffer_bpp(b), cases[i].bpp);
        CHECK_EQ(xcb_dri3_util_buffer_fourcc(b), cases[i].fourcc);
        CHECK_EQ(xcb_dri3_util_buffer_modifier(b), XCB_DRI3_UTIL_MOD_LINEAR);
        CHECK_EQ(xcb_dri3_util_buffer_n_planes(b), 1);
        CHECK_EQ(xcb_dri3_util_buffer_width(b), cases[i].width);
        CHECK_EQ(xcb_dri3_util_buffer_height(b), 3);
        /* planes it does not have */
        CHECK_EQ(xcb_dri3_util_buffer_fd(b, 1), -1);
        CHECK_EQ(xcb_dri3_util_buffer_stride(b, 3), 0);
        CHECK_EQ(xcb_dri3_util_buffer_offset(b, 9), 0);
        /* sealed against shrinking */
        CHECK(ftruncate(fd, 1) < 0);
        xcb_dri3_util_buffer_destroy(b);
        CHECK_FD_CLOSED(fd);
    }
    xcb_dri3_util_buffer_destroy(NULL);
}

TEST(memfd_refusals)
{
    errno = 0;
    CHECK(xcb_dri3_util_buffer_create_memfd(0, 4, XRGB8888) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(xcb_dri3_util_buffer_create_memfd(4, 0, XRGB8888) == NULL);
    CHECK(xcb_dri3_util_buffer_create_memfd(4, 4, NV12) == NULL);
    CHECK(xcb_dri3_util_buffer_create_memfd(4, 4, FOURCC('?', '?', '?', '?')) == NULL);
    CHECK_EQ(errno, EINVAL);
}

/* Imports that must fail close their fds. */
static void check_import_refused(uint16_t w, uint16_t h, uint32_t fourcc, uint64_t mod,
                                 unsigned n, int *fds, const uint32_t *strides,
                                 const uint32_t *offsets, int expected)
{
    errno = 0;
    CHECK(xcb_dri3_util_buffer_import(w, h, fourcc, mod, n, fds, strides, offsets) == NULL);
    CHECK_EQ(errno, expected);
    for (unsigned i = 0; i < n && i < 4; i++)
        CHECK_FD_CLOSED(fds[i]);
}

TEST(import_layouts_that_do_not_fit)
{
    uint32_t strides[4] = { 256, 256, 256, 256 }, offsets[4] = { 0, 0, 0, 0 };
    int fds[4];

    /* 16 rows of 256 bytes need 4096 */
    fds[0] = test_memfd("small", 4095, NULL);
    check_import_refused(64, 16, XRGB8888, 0, 1, fds, strides, offsets, EINVAL);
    /* offset pushes it out */
    fds[0] = test_memfd("small", 4096, NULL);
    offsets[0] = 4;
    check_import_refused(64, 16, XRGB8888, 0, 1, fds, strides, offsets, EINVAL);
    offsets[0] = 0;
    /* stride 0 */
    fds[0] = test_memfd("small", 4096, NULL);
    strides[0] = 0;
    check_import_refused(64, 16, XRGB8888, 0, 1, fds, strides, offsets, EINVAL);
    strides[0] = 256;
    /* an overflowing offset + stride * rows */
    fds[0] = test_memfd("small", 4096, NULL);
    strides[0] = 0xffffffffu;
    offsets[0] = 0xffffffffu;
    check_import_refused(64, 0xffff, XRGB8888, 0, 1, fds, strides, offsets, EINVAL);
    strides[0] = 256;
    offsets[0] = 0;
    /* NV12: the chroma plane (8 rows of 256) at 4096 needs 6144 */
    fds[0] = test_memfd("nv12", 6143, NULL);
    fds[1] = dup(fds[0]);
    offsets[1] = 4096;
    check_import_refused(64, 16, NV12, 0, 2, fds, strides, offsets, EINVAL);
    /* NV12 with one plane */
    fds[0] = test_memfd("nv12", 8192, NULL);
    check_import_refused(64, 16, NV12, 0, 1, fds, strides, offsets, EINVAL);
    /* LINEAR with more planes than the format has */
    fds[0] = test_memfd("a", 8192, NULL);
    fds[1] = test_memfd("b", 8192, NULL);
    check_import_refused(64, 16, XRGB8888, 0, 2, fds, strides, offsets, EINVAL);
    /* an aux plane that starts beyond its fd */
    fds[0] = test_memfd("a", 8192, NULL);
    fds[1] = test_memfd("b", 8192, NULL);
    offsets[1] = 8192;
    check_import_refused(64, 16, XRGB8888, MOD_TWO_PLANES, 2, fds, strides, offsets, EINVAL);
    offsets[1] = 0;
    /* zero sizes, unknown fourcc */
    fds[0] = test_memfd("a", 8192, NULL);
    check_import_refused(0, 16, XRGB8888, 0, 1, fds, strides, offsets, EINVAL);
    fds[0] = test_memfd("a", 8192, NULL);
    check_import_refused(64, 16, FOURCC('?', '?', '?', '?'), 0, 1, fds, strides, offsets,
                         EINVAL);
    /* plane counts */
    fds[0] = test_memfd("a", 8192, NULL);
    check_import_refused(64, 16, XRGB8888, 0, 0, fds, strides, offsets, EINVAL);
    CHECK(close(fds[0]) == 0);      /* n_planes 0: nothing taken */
    CHECK(xcb_dri3_util_buffer_import(64, 16, XRGB8888, 0, 1, NULL, strides, offsets) == NULL);
}

/* Issue 22, case 12: an empty memfd has a size, 0, and no plane fits in
 * it (the check used to be skipped for a size of 0, and the first write
 * through the mapping died of SIGBUS). */
TEST(import_empty_fd_refused)
{
    uint32_t strides[2] = { 256, 256 }, offsets[2] = { 0, 0 };
    int fds[2];

    fds[0] = test_memfd("empty", 0, NULL);
    check_import_refused(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, fds, strides, offsets,
                         EINVAL);
    fds[0] = test_memfd("empty", 0, NULL);
    check_import_refused(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_INVALID, 1, fds, strides,
                         offsets, EINVAL);
    /* an empty fd for a modifier's aux plane: nothing starts inside it */
    fds[0] = test_memfd("main", 4096, NULL);
    fds[1] = test_memfd("empty-aux", 0, NULL);
    check_import_refused(64, 16, XRGB8888, MOD_TWO_PLANES, 2, fds, strides, offsets, EINVAL);
    /* the chroma plane of NV12 in an empty fd of its own */
    fds[0] = test_memfd("luma", 4096, NULL);
    fds[1] = test_memfd("empty-chroma", 0, NULL);
    strides[0] = strides[1] = 64;
    check_import_refused(64, 16, NV12, 0, 2, fds, strides, offsets, EINVAL);
}

/* Case 13: a stride must hold one row of the plane (width x bytes per
 * pixel; half the width for subsampled chroma).  Stride 64 for a 64-pixel
 * XRGB8888 row of 256 bytes used to pass, and every row written through
 * the mapping ran into the next. */
TEST(import_short_stride_refused)
{
    uint32_t strides[2] = { 64, 64 }, offsets[2] = { 0, 4096 };
    xcb_dri3_util_buffer_t *b;
    int fds[2];

    fds[0] = test_memfd("short-rows", 65536, NULL);
    check_import_refused(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, fds, strides, offsets,
                         EINVAL);
    fds[0] = test_memfd("short-rows", 65536, NULL);
    strides[0] = 252;
    check_import_refused(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, fds, strides, offsets,
                         EINVAL);
    /* NV12, 64 wide: luma rows of 64 bytes, chroma rows of 32 pairs = 64 */
    fds[0] = test_memfd("nv12", 8192, NULL);
    fds[1] = dup(fds[0]);
    strides[0] = 64;
    strides[1] = 62;
    check_import_refused(64, 16, NV12, 0, 2, fds, strides, offsets, EINVAL);
    /* exactly one row is enough */
    fds[0] = test_memfd("nv12", 8192, NULL);
    fds[1] = fds[0];
    strides[1] = 64;
    b = xcb_dri3_util_buffer_import(64, 16, NV12, 0, 2, fds, strides, offsets);
    CHECK(b != NULL);
    xcb_dri3_util_buffer_destroy(b);
    fds[0] = test_memfd("rows", 4096, NULL);
    strides[0] = 256;
    offsets[0] = 0;
    b = xcb_dri3_util_buffer_import(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, fds, strides,
                                    offsets);
    CHECK(b != NULL);
    xcb_dri3_util_buffer_destroy(b);
}

/* Offsets and strides at the alignment of the plane's pixels: 4 bytes for
 * 32-bit pixels, 2 for 16-bit ones, none for 8- and 24-bit ones. */
TEST(import_misaligned_plane_refused)
{
    uint32_t stride = 256, offset = 2;
    xcb_dri3_util_buffer_t *b;
    int fd;

    fd = test_memfd("misaligned", 8192, NULL);
    check_import_refused(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd, &stride, &offset,
                         EINVAL);
    fd = test_memfd("misaligned", 8192, NULL);
    offset = 0;
    stride = 258;
    check_import_refused(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd, &stride, &offset,
                         EINVAL);
    fd = test_memfd("misaligned", 8192, NULL);
    offset = 1;
    stride = 128;
    check_import_refused(64, 16, RGB565, XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd, &stride, &offset,
                         EINVAL);
    /* 24-bit pixels have no alignment of their own */
    fd = test_memfd("rgb888", 8192, NULL);
    offset = 1;
    stride = 195;
    b = xcb_dri3_util_buffer_import(64, 16, FOURCC('R', 'G', '2', '4'),
                                    XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd, &stride, &offset);
    CHECK(b != NULL);
    xcb_dri3_util_buffer_destroy(b);
}

TEST(import_fds_that_hold_no_pixels)
{
    uint32_t stride = 256, offset = 0;
    int fds[2], sv[2];

    CHECK(pipe2(fds, O_CLOEXEC) == 0);
    CHECK(close(fds[1]) == 0);
    check_import_refused(64, 16, XRGB8888, 0, 1, fds, &stride, &offset, EINVAL);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    CHECK(close(sv[1]) == 0);
    check_import_refused(64, 16, XRGB8888, 0, 1, sv, &stride, &offset, EINVAL);
    fds[0] = 1000;      /* not open */
    errno = 0;
    CHECK(xcb_dri3_util_buffer_import(64, 16, XRGB8888, 0, 1, fds, &stride, &offset) == NULL);
    CHECK_EQ(errno, EBADF);
}

/* Planes sharing one fd: the buffer closes it once. */
TEST(import_shared_fd)
{
    uint32_t strides[3] = { 64, 32, 32 }, offsets[3] = { 0, 1024, 1280 };
    int fd = test_memfd("yuv", 1536, NULL), fds[3] = { fd, fd, fd };
    xcb_dri3_util_buffer_t *b;
    struct fd_id id = FD_ID(fd);

    b = xcb_dri3_util_buffer_import(64, 16, FOURCC('Y', 'U', '1', '2'), 0, 3, fds, strides,
                                    offsets);
    CHECK(b != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_n_planes(b), 3);
    CHECK_EQ(xcb_dri3_util_buffer_depth(b), 0);    /* no X depth for YUV */
    CHECK_FD_IS(xcb_dri3_util_buffer_fd(b, 2), id);
    CHECK_CLOEXEC(fd);
    xcb_dri3_util_buffer_destroy(b);
    CHECK_FD_CLOSED(fd);
}

TEST(map_rules)
{
    uint32_t strides[2] = { 256, 256 }, offsets[2] = { 0, 4096 }, stride = 0;
    int fds[2];
    xcb_dri3_util_buffer_t *b, *tiled, *implicit;
    uint8_t *p, *q;

    b = xcb_dri3_util_buffer_create_memfd(64, 16, XRGB8888);
    CHECK(b != NULL);
    errno = 0;
    CHECK(xcb_dri3_util_buffer_map(b, 1, XCB_DRI3_UTIL_MAP_READ, NULL) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(xcb_dri3_util_buffer_map(b, 0, 0, NULL) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(xcb_dri3_util_buffer_map(b, 0, 4, NULL) == NULL);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), -EINVAL);
    p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ | XCB_DRI3_UTIL_MAP_WRITE,
                                 &stride);
    CHECK(p != NULL);
    CHECK_EQ(stride, 256);
    p[0] = 0x5a;
    p[16 * 256 - 1] = 0xa5;
    CHECK(xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ, NULL) == NULL);
    CHECK_EQ(errno, EBUSY);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
    q = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ, NULL);
    CHECK(q != NULL);
    CHECK_EQ(q[0], 0x5a);
    CHECK_EQ(q[16 * 256 - 1], 0xa5);
    /* destroy unmaps what is still mapped */
    xcb_dri3_util_buffer_destroy(b);

    /* a plane at an offset that is not page-aligned maps at that offset */
    fds[0] = test_memfd("offset", 100 + 4096, NULL);
    offsets[0] = 100;
    b = xcb_dri3_util_buffer_import(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_LINEAR, 1, fds,
                                    strides, offsets);
    CHECK(b != NULL);
    p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_WRITE, NULL);
    CHECK(p != NULL);
    p[0] = 7;
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
    CHECK(pread(xcb_dri3_util_buffer_fd(b, 0), &stride, 1, 100) == 1);
    CHECK_EQ(stride & 0xff, 7);
    xcb_dri3_util_buffer_destroy(b);
    offsets[0] = 0;

    /* a tiled layout: no */
    fds[0] = test_memfd("tiled", 8192, NULL);
    fds[1] = test_memfd("aux", 8192, NULL);
    tiled = xcb_dri3_util_buffer_import(64, 16, XRGB8888, MOD_TWO_PLANES, 2, fds, strides,
                                        offsets);
    CHECK(tiled != NULL);
    CHECK(xcb_dri3_util_buffer_map(tiled, 0, XCB_DRI3_UTIL_MAP_READ, NULL) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    xcb_dri3_util_buffer_destroy(tiled);
    /* "no modifier" on a memfd: linear by construction, mappable */
    fds[0] = test_memfd("implicit", 4096, NULL);
    implicit = xcb_dri3_util_buffer_import(64, 16, XRGB8888, XCB_DRI3_UTIL_MOD_INVALID, 1, fds,
                                           strides, offsets);
    CHECK(implicit != NULL);
    CHECK(xcb_dri3_util_buffer_map(implicit, 0, XCB_DRI3_UTIL_MAP_READ, NULL) != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(implicit, 0), 0);
    xcb_dri3_util_buffer_destroy(implicit);
}

/* Every ioctl of the process goes through here (the executable's symbol
 * comes before libc's for the library's calls): the test below counts the
 * dma-buf syncs and hands everything on. */
static int sync_ioctls;

int ioctl(int fd, unsigned long request, ...)
{
    static int (*real)(int, unsigned long, ...);
    va_list ap;
    void *arg;

    va_start(ap, request);
    arg = va_arg(ap, void *);
    va_end(ap);
    if (!real)
        real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    if (request == DMA_BUF_IOCTL_SYNC)
        sync_ioctls++;
    return real(fd, request, arg);
}

/* A mapping kept across frames: end and begin the CPU's access again and
 * again.  A memfd needs no sync, so no ioctl is made at all (a dma-buf's
 * brackets are tested on a render node, tests/dri3-util/drm-nodevice). */
TEST(access_brackets_on_a_memfd)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(64, 16, XRGB8888);
    uint8_t *p;

    CHECK(b != NULL);
    /* not mapped: nothing to bracket */
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_begin_access(b, 0), -EINVAL);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(xcb_dri3_util_buffer_end_access(b, 0), -EINVAL);
    CHECK_EQ(xcb_dri3_util_buffer_begin_access(NULL, 0), -EINVAL);
    sync_ioctls = 0;
    p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ | XCB_DRI3_UTIL_MAP_WRITE, NULL);
    CHECK(p != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_begin_access(b, 1), -EINVAL);    /* no such plane */
    for (int frame = 0; frame < 3; frame++) {
        /* map began an access: a second begin is a no-op */
        CHECK_EQ(xcb_dri3_util_buffer_begin_access(b, 0), 0);
        CHECK_EQ(xcb_dri3_util_buffer_begin_access(b, 0), 0);
        p[frame] = (uint8_t)(frame + 1);
        CHECK_EQ(xcb_dri3_util_buffer_end_access(b, 0), 0);
        CHECK_EQ(xcb_dri3_util_buffer_end_access(b, 0), 0);
    }
    /* the mapping survived the brackets; unmap after an end ends nothing */
    CHECK_EQ(p[0] + p[1] + p[2], 6);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
    CHECK_EQ(sync_ioctls, 0);
    CHECK_EQ(xcb_dri3_util_buffer_end_access(b, 0), -EINVAL);
    xcb_dri3_util_buffer_destroy(b);
}

/* The fds the buffer holds never leak into exec'd programs, even those
 * it was handed without the flag. */
TEST(import_sets_cloexec)
{
    uint32_t stride = 256, offset = 0;
    int fd = memfd_create("inheritable", 0);
    xcb_dri3_util_buffer_t *b;

    CHECK(fd >= 0);
    CHECK(ftruncate(fd, 4096) == 0);
    b = xcb_dri3_util_buffer_import(64, 16, XRGB8888, 0, 1, &fd, &stride, &offset);
    CHECK(b != NULL);
    CHECK_CLOEXEC(fd);
    xcb_dri3_util_buffer_destroy(b);
}
