/*
 * The PutImage back end, the last resort: the pixels live in our memory
 * and each frame is copied into an ordinary server pixmap with PutImage
 * before it is presented.  Works wherever Present does, remote displays
 * included.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>

#include "swapchain-private.h"

struct put_image {
    xcb_gcontext_t gc;
};

/* The server must store depth 24 and 32 as 32 bits per pixel in ZPixmap,
 * which is how our buffers are laid out. */
static bool format_is_32bpp(xcb_connection_t *c, uint8_t depth)
{
    const xcb_setup_t *setup = xcb_get_setup(c);
    xcb_format_iterator_t it = xcb_setup_pixmap_formats_iterator(setup);

    for (; it.rem; xcb_format_next(&it))
        if (it.data->depth == depth)
            return it.data->bits_per_pixel == 32;
    return false;
}

static int put_image_init(sc_t *sc)
{
    struct put_image *p;
    int r;

    if (!format_is_32bpp(sc->c, sc->depth))
        return -ENOTSUP;
    p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    p->gc = xcb_generate_id(sc->c);
    r = sc_check_void(sc, xcb_create_gc_checked(sc->c, p->gc, sc->window, 0, NULL));
    if (r == -ETIMEDOUT)    /* the server may still make it */
        sc_forget_checked(sc, xcb_free_gc_checked(sc->c, p->gc));
    if (r) {
        free(p);
        return r < 0 ? r : -ENODEV;
    }
    sc->backend_data = p;
    return 0;
}

/* The caller's image (one linear plane on a memfd or shared memory),
 * mapped whole from the start of its fd; b->priv keeps the mapping. */
static int map_caller_image(sc_t *sc, struct buffer *b)
{
    const xcb_dri3_util_buffer_t *img = sc->images[b->index];
    uint32_t offset = xcb_dri3_util_buffer_offset(img, 0);
    void *map;

    b->stride = xcb_dri3_util_buffer_stride(img, 0);
    b->size = offset + (size_t)b->stride * b->height;
    map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED,
               xcb_dri3_util_buffer_fd(img, 0), 0);
    if (map == MAP_FAILED)
        return -errno;
    b->priv = map;
    b->pixels = (uint8_t *)map + offset;
    return 0;
}

/* Our own pixels: anonymous pages, zero until written and taken from the
 * kernel only when touched, so a window's worth of buffers costs what
 * the frames draw (calloc() would clear, and under a sanitizer fill,
 * every byte of each one up front).  b->priv keeps the mapping. */
static int map_own_pixels(struct buffer *b)
{
    void *map;

    b->stride = (uint32_t)b->width * 4;
    b->size = (size_t)b->stride * b->height;
    map = mmap(NULL, b->size ? b->size : 1, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return -ENOMEM;
    b->priv = map;
    b->pixels = map;
    return 0;
}

static void free_pixels(sc_t *sc, struct buffer *b)
{
    (void)sc;
    if (b->priv)
        munmap(b->priv, b->size ? b->size : 1);
    b->priv = NULL;
    b->pixels = NULL;
}

static int put_image_alloc(sc_t *sc, struct buffer *b)
{
    xcb_void_cookie_t ck;
    int r;

    r = sc->caller_images ? map_caller_image(sc, b) : map_own_pixels(b);
    if (r < 0)
        return r;
    b->pixmap = xcb_generate_id(sc->c);
    ck = xcb_create_pixmap_checked(sc->c, sc->depth, b->pixmap, sc->window, b->width,
                                   b->height);
    r = sc_check_void(sc, ck);
    if (r == -ETIMEDOUT)    /* the server may still make it */
        sc_forget_checked(sc, xcb_free_pixmap_checked(sc->c, b->pixmap));
    if (r) {
        free_pixels(sc, b);
        return r < 0 ? r : -ENOMEM;
    }
    return 0;
}

static void put_image_free(sc_t *sc, struct buffer *b)
{
    if (b->pixmap && !xcb_connection_has_error(sc->c))
        xcb_free_pixmap(sc->c, b->pixmap);
    free_pixels(sc, b);
}

/* A band is sent only once the socket is writable, which on Linux means a
 * quarter of its buffer at most is in use (unix sockets; TCP is alike): a
 * band this small then fits without blocking, with libxcb's own buffer
 * flushed before it. */
#define BAND_BYTES 65536u

/* The whole buffer, in bands: the caller may have drawn anywhere since
 * this pixmap was last shown.  libxcb's write has no timeout, and a server
 * that stops reading leaves a large PutImage blocked in it for ever, so
 * the bands are small and each waits for a writable socket, up to the
 * connection's bound.  -ETIMEDOUT when the server stopped reading (part of
 * the pixmap may then be written: it is presented no more). */
static int put_image_upload(sc_t *sc, struct buffer *b, const xcb_rectangle_t *damage,
                            uint32_t n_damage)
{
    /* the whole buffer: the damage only limits what the server copies */
    (void)damage;
    (void)n_damage;
    const struct put_image *p = sc->backend_data;
    /* The setup's limit, not xcb_get_maximum_request_length(), which
     * makes an unbounded round trip (BigRequests) the first time: a band
     * is far below either. */
    size_t max_bytes = (size_t)xcb_get_setup(sc->c)->maximum_request_length * 4;
    uint64_t deadline = sc_round_trip_deadline(sc);
    uint32_t rows;

    /* A 0x0 window (a ConfigureNotify may say so) has nothing to send. */
    if (b->stride == 0 || b->height == 0)
        return 0;
    /* A request must hold PutImage's header and at least one row. */
    if (max_bytes < 64 + (size_t)b->stride)
        return -ENOTSUP;
    rows = (uint32_t)((max_bytes - 64) / b->stride);
    if (rows > BAND_BYTES / b->stride)
        rows = BAND_BYTES / b->stride;
    if (rows == 0)
        rows = 1;       /* a row over 64 KiB (wider than 16384 pixels) alone */
    if ((size_t)rows * b->stride + 64 > max_bytes)
        return -ENOTSUP;
    for (uint32_t y = 0; y < b->height; y += rows) {
        uint32_t n = b->height - y < rows ? b->height - y : rows;
        int r = sc_wait_writable(sc, deadline);

        if (r < 0) {
            sc_log(sc, "PutImage: the server stopped reading (%s)",
                   r == -ETIMEDOUT ? "timed out" : "connection broken");
            return r;
        }
        /* a caller's stride may be wider than the pixmap: the server clips */
        xcb_put_image(sc->c, XCB_IMAGE_FORMAT_Z_PIXMAP, b->pixmap, p->gc,
                      (uint16_t)(b->stride / 4),
                      (uint16_t)n, 0, (int16_t)y, 0, sc->depth, n * b->stride,
                      (const uint8_t *)b->pixels + (size_t)y * b->stride);
        xcb_flush(sc->c);
    }
    sc_log(sc, "request: PutImage %ux%u into pixmap 0x%x", b->width, b->height, b->pixmap);
    return 0;
}

static void put_image_fini(sc_t *sc)
{
    struct put_image *p = sc->backend_data;

    if (!p)
        return;
    if (!xcb_connection_has_error(sc->c))
        xcb_free_gc(sc->c, p->gc);
    free(p);
    sc->backend_data = NULL;
}

const struct backend_ops sc_backend_put_image = {
    .kind = XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE,
    .init = put_image_init,
    .alloc = put_image_alloc,
    .free = put_image_free,
    .upload = put_image_upload,
    .fini = put_image_fini,
};
