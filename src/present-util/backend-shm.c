/*
 * The MIT-SHM back end: each buffer is a memfd that we map and the server
 * maps too (ShmAttachFd, MIT-SHM 1.2), with a pixmap on it
 * (ShmCreatePixmap).  No copy on our side; the server reads our pages.
 * Local servers only: the fd travels over the Unix socket.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xcb/shm.h>

#include "swapchain-private.h"

static int make_memfd(size_t size)
{
    int fd = memfd_create("xcb-present-util", MFD_CLOEXEC | MFD_ALLOW_SEALING);

    if (fd < 0)
        return -errno;
    if (ftruncate(fd, (off_t)size) < 0) {
        int r = -errno;

        close(fd);
        return r;
    }
    /* Nobody may shrink the file under the server's mapping or ours. */
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    return fd;
}

/* Attaches fd (libxcb takes it and closes it once sent) as a new segment. */
static uint32_t attach(sc_t *sc, int fd, xcb_void_cookie_t *ck)
{
    uint32_t seg = xcb_generate_id(sc->c);

    *ck = xcb_shm_attach_fd_checked(sc->c, seg, fd, 0);
    sc_log(sc, "request: ShmAttachFd seg 0x%x", seg);
    return seg;
}

/* MIT-SHM 1.2 with shared pixmaps in ZPixmap format, and an fd the server
 * accepts: a one-page segment is attached and detached to find out. */
static int shm_init(sc_t *sc)
{
    xcb_shm_query_version_reply_t *v;
    xcb_generic_error_t *e;
    xcb_void_cookie_t ck;
    uint32_t seg;
    int r, fd;
    const xcb_query_extension_reply_t *ext = sc_extension(sc, &xcb_shm_id, &r);

    if (r)
        return r;
    if (!ext || !ext->present)
        return -ENOTSUP;
    r = sc_wait_reply(sc, xcb_shm_query_version(sc->c).sequence, (void **)&v, &e);
    if (r)
        return r < 0 ? r : (free(e), -ENOTSUP);
    r = v->shared_pixmaps && v->pixmap_format == XCB_IMAGE_FORMAT_Z_PIXMAP &&
        (v->major_version > 1 || v->minor_version >= 2) ? 0 : -ENOTSUP;
    sc_log(sc, "MIT-SHM %u.%u, shared pixmaps %u, format %u", v->major_version,
           v->minor_version, v->shared_pixmaps, v->pixmap_format);
    free(v);
    if (r)
        return r;
    fd = make_memfd(4096);
    if (fd < 0)
        return fd;
    seg = attach(sc, fd, &ck);
    r = sc_check_void(sc, ck);
    if (r == -ETIMEDOUT)    /* the server may still attach it */
        sc_forget_checked(sc, xcb_shm_detach_checked(sc->c, seg));
    if (r < 0)
        return r;
    if (r > 0) {
        sc_log(sc, "ShmAttachFd refused (error %d): a remote display?", r);
        return -ENOTSUP;
    }
    xcb_shm_detach(sc->c, seg);
    return 0;
}

/* The caller's image (a one-plane linear buffer on a memfd or shared
 * memory) as a segment of its own: the pixmap is stride / 4 pixels wide,
 * the window shows the image's width of it.  Its pixels are the caller's
 * to write; we never map them. */
static int shm_alloc_caller(sc_t *sc, struct buffer *b)
{
    const xcb_dri3_util_buffer_t *img = sc->images[b->index];
    int fd = fcntl(xcb_dri3_util_buffer_fd(img, 0), F_DUPFD_CLOEXEC, 0);
    xcb_void_cookie_t ck;
    uint32_t seg;
    int r;

    if (fd < 0)
        return -errno;
    b->stride = xcb_dri3_util_buffer_stride(img, 0);
    seg = attach(sc, fd, &ck);
    b->pixmap = xcb_generate_id(sc->c);
    ck = xcb_shm_create_pixmap_checked(sc->c, b->pixmap, sc->window,
                                       (uint16_t)(b->stride / 4), b->height, sc->depth, seg,
                                       xcb_dri3_util_buffer_offset(img, 0));
    r = sc_check_void(sc, ck);
    if (r == -ETIMEDOUT)
        sc_forget_checked(sc, xcb_free_pixmap_checked(sc->c, b->pixmap));
    if (r != 0) {
        sc_log(sc, "ShmCreatePixmap of image %u failed (%d)", b->index, r);
        if (r == -ETIMEDOUT)
            sc_forget_checked(sc, xcb_shm_detach_checked(sc->c, seg));
        else if (r != -EPIPE)
            xcb_shm_detach(sc->c, seg);
        return r < 0 ? r : -EINVAL;
    }
    b->priv = (void *)(uintptr_t)seg;
    return 0;
}

static int shm_alloc(sc_t *sc, struct buffer *b)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    xcb_void_cookie_t ck;
    uint32_t seg;
    void *map;
    int fd, r;

    if (sc->caller_images)
        return shm_alloc_caller(sc, b);
    b->stride = (uint32_t)b->width * 4;
    b->size = ((size_t)b->stride * b->height + page - 1) / page * page;
    fd = make_memfd(b->size);
    if (fd < 0)
        return fd;
    map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        r = -errno;
        close(fd);
        return r;
    }
    /* Our mapping keeps the pages; the fd goes to the server. */
    seg = attach(sc, fd, &ck);
    b->pixmap = xcb_generate_id(sc->c);
    ck = xcb_shm_create_pixmap_checked(sc->c, b->pixmap, sc->window, b->width, b->height,
                                       sc->depth, seg, 0);
    r = sc_check_void(sc, ck);
    if (r == -ETIMEDOUT)    /* the server may still make it, and pin the memory */
        sc_forget_checked(sc, xcb_free_pixmap_checked(sc->c, b->pixmap));
    if (r != 0) {
        sc_log(sc, "ShmCreatePixmap failed (%d)", r);
        if (r == -ETIMEDOUT)
            sc_forget_checked(sc, xcb_shm_detach_checked(sc->c, seg));
        else if (r != -EPIPE)
            xcb_shm_detach(sc->c, seg);
        munmap(map, b->size);
        return r < 0 ? r : -ENOMEM;
    }
    b->pixels = map;
    b->priv = (void *)(uintptr_t)seg;
    return 0;
}

static void shm_free(sc_t *sc, struct buffer *b)
{
    if (!xcb_connection_has_error(sc->c)) {
        xcb_free_pixmap(sc->c, b->pixmap);
        xcb_shm_detach(sc->c, (uint32_t)(uintptr_t)b->priv);
    }
    if (b->pixels)
        munmap(b->pixels, b->size);
    b->priv = NULL;
}

const struct backend_ops sc_backend_shm = {
    .kind = XCB_PRESENT_UTIL_BACKEND_SHM,
    .init = shm_init,
    .alloc = shm_alloc,
    .free = shm_free,
};
