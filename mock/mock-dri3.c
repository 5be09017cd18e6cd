/*
 * DRI3 1.4 for the mock server.
 *
 * Memfds stand in for dma-bufs and for the DRM device: a pixmap made from a
 * buffer maps the client's fd, so the client's writes show up in the
 * server's pixels without a copy, and a buffer handed back is a dup of the
 * very fd the pixmap maps.
 *
 * Choices where the specification leaves the error open (the X server's
 * answers where we know them):
 *   - a request that should carry an fd but came without one: BadValue;
 *   - FDFromFence for an id that is no fence: SYNC's Fence error;
 *   - FreeSyncobj for an id that is no syncobj: BadValue;
 *   - a request of a version beyond the configured one: BadRequest, as an
 *     older server that does not know the opcode would answer.
 */
#include "mock-internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The modifier that means "no explicit modifier": one plane, the driver's
 * implicit layout. */
#define DRM_FORMAT_MOD_INVALID 0x00ffffffffffffffULL

enum {
    DRI3_QUERY_VERSION = 0, DRI3_OPEN = 1, DRI3_PIXMAP_FROM_BUFFER = 2,
    DRI3_BUFFER_FROM_PIXMAP = 3, DRI3_FENCE_FROM_FD = 4, DRI3_FD_FROM_FENCE = 5,
    DRI3_GET_SUPPORTED_MODIFIERS = 6, DRI3_PIXMAP_FROM_BUFFERS = 7,
    DRI3_BUFFERS_FROM_PIXMAP = 8, DRI3_SET_DRM_DEVICE_IN_USE = 9,
    DRI3_IMPORT_SYNCOBJ = 10, DRI3_FREE_SYNCOBJ = 11,
};

/* True when the request has exactly `size` bytes (every DRI3 request has
 * a fixed size; fds travel beside it); otherwise answers BadLength. */
static bool check_length(struct mock_request *req, size_t size)
{
    if (mock_req_size(req) == size)
        return true;
    mock_send_error(req, MOCK_BAD_LENGTH, 0);
    return false;
}

/* A close-on-exec copy of fd for a reply, or -1 (the caller answers
 * BadAlloc). */
static int dup_for_reply(int fd)
{
    return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

/* Depth and bits per pixel that the mock renders: 32-bit pixels only, of
 * the depths its setup lists (24, 32, and 30 for its BGR visual). */
static bool format_supported(uint8_t depth, uint8_t bpp)
{
    return bpp == 32 && (depth == 24 || depth == 30 || depth == 32);
}

static void query_version(struct mock_request *req)
{
    const struct mock_config *cfg = req->client->server->cfg;
    if (!check_length(req, 12))
        return;
    uint32_t major = mock_get32(mock_req_field(req, 4));
    uint32_t minor = mock_get32(mock_req_field(req, 8));
    /* The lower of the two versions, compared as (major, minor) pairs. */
    if (major > (uint32_t)cfg->dri3_major ||
        (major == (uint32_t)cfg->dri3_major && minor > (uint32_t)cfg->dri3_minor)) {
        major = (uint32_t)cfg->dri3_major;
        minor = (uint32_t)cfg->dri3_minor;
    }
    uint8_t reply[32] = { 1 };
    mock_put32(reply + 8, major);
    mock_put32(reply + 12, minor);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

/* The fd that stands in for the DRM device, per the dri3-open key, or -1
 * with *error set. */
static int open_device(struct mock_server_state *s, int *error)
{
    int fd;
    switch (s->cfg->open_mode) {
    case MOCK_OPEN_NONE:
        *error = MOCK_BAD_MATCH;
        return -1;
    case MOCK_OPEN_PATH:
        fd = open(s->cfg->open_path, O_RDWR | O_CLOEXEC);
        break;
    case MOCK_OPEN_MEMFD:
    default:
        fd = memfd_create("mock-drm-device", MFD_CLOEXEC);
        break;
    }
    if (fd < 0)
        *error = MOCK_BAD_ALLOC;
    return fd;
}

static void dri3_open(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_length(req, 12))
        return;
    uint32_t drawable = mock_get32(mock_req_field(req, 4));
    if (!mock_drawable_find(s, drawable, -1)) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return;
    }
    int error = 0;
    int fd = open_device(s, &error);
    if (fd < 0) {
        mock_send_error(req, (uint8_t)error, 0);
        return;
    }
    mock_info(s, "dri3 open: device fd handed to client %d", req->client->index);
    uint8_t reply[32] = { 1, 1 };       /* nfd = 1 */
    mock_send_reply(req, reply, sizeof reply, &fd, 1);
}

static void close_fds(const int *fds, int n)
{
    for (int i = 0; i < n; i++)
        close(fds[i]);
}

static void close_planes(const struct mock_plane *planes, int n)
{
    for (int i = 0; i < n; i++)
        close(planes[i].fd);
}

/* Validates what PixmapFromBuffer(s) share and registers the imported
 * pixmap.  Takes ownership of the planes' fds whatever happens. */
static void import_pixmap(struct mock_request *req, uint32_t pixmap, uint16_t width,
                          uint16_t height, uint8_t depth, uint8_t bpp,
                          const struct mock_plane *planes, int nplanes, uint64_t modifier)
{
    struct mock_server_state *s = req->client->server;
    uint32_t bad_value = 0;
    int error = 0;
    if (width == 0 || height == 0 || planes[0].stride == 0) {
        error = MOCK_BAD_VALUE;
    } else if (!format_supported(depth, bpp)) {
        error = MOCK_BAD_VALUE;
        bad_value = depth;
    } else if (planes[0].stride < (uint32_t)width * (bpp / 8)) {
        error = MOCK_BAD_VALUE;
        bad_value = planes[0].stride;
    } else if (s->cfg->pixmaps_dmabuf_only && !mock_fd_is_dmabuf(planes[0].fd)) {
        /* glamor's import through GBM fails on anything but a dma-buf */
        mock_info(s, "dri3 pixmap 0x%x refused: not a dma-buf (dri3-pixmap-fds dmabuf)",
                  pixmap);
        error = MOCK_BAD_ALLOC;
    }
    if (error) {
        close_planes(planes, nplanes);
        mock_send_error(req, (uint8_t)error, bad_value);
        return;
    }

    struct mock_drawable *d = mock_drawable_import(width, height, depth, bpp, planes,
                                                   nplanes, modifier, &error);
    if (!d) {
        mock_send_error(req, (uint8_t)error, pixmap);
        return;
    }
    d->id = pixmap;
    if (!mock_resource_add_or_refuse(req, pixmap, MOCK_RES_PIXMAP, d, mock_drawable_free))
        return;
    mock_info(s, "dri3 pixmap 0x%x imported: %ux%u depth %u bpp %u, %d plane(s), "
              "stride %u, modifier 0x%llx", pixmap, width, height, depth, bpp, nplanes,
              planes[0].stride, (unsigned long long)modifier);
}

/* The one fd a request carries, for a request on an existing drawable.
 * On failure the error is sent, the fd (if any) closed and -1 returned. */
static int take_fd_for_drawable(struct mock_request *req, uint32_t drawable)
{
    int fd = mock_take_fd(req);
    if (fd < 0) {
        mock_send_error(req, MOCK_BAD_VALUE, 0);
        return -1;
    }
    if (!mock_drawable_find(req->client->server, drawable, -1)) {
        close(fd);
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return -1;
    }
    return fd;
}

/* A request of `size` bytes (else BadLength) with one fd, for the drawable
 * whose id stands at byte `drawable_at`: the fd, *f the request's bytes;
 * or -1 once the error is sent. */
static int fd_request(struct mock_request *req, size_t size, size_t drawable_at,
                      const uint8_t **f)
{
    if (!check_length(req, size))
        return -1;
    *f = mock_req_field(req, 0);
    return take_fd_for_drawable(req, mock_get32(*f + drawable_at));
}

static void pixmap_from_buffer(struct mock_request *req)
{
    const uint8_t *f;
    int fd = fd_request(req, 24, 8, &f);
    if (fd < 0)
        return;
    struct mock_plane plane = { .fd = fd, .offset = 0, .stride = mock_get16(f + 20) };
    import_pixmap(req, mock_get32(f + 4), mock_get16(f + 16), mock_get16(f + 18),
                  f[22], f[23], &plane, 1, DRM_FORMAT_MOD_INVALID);
}

/* The pixmap (its id in *pixmap) that a BufferFromPixmap or
 * BuffersFromPixmap request names, or NULL once BadLength or BadPixmap is
 * sent. */
static struct mock_drawable *pixmap_request(struct mock_request *req, uint32_t *pixmap)
{
    if (!check_length(req, 8))
        return NULL;
    *pixmap = mock_get32(mock_req_field(req, 4));
    struct mock_drawable *d = mock_drawable_find(req->client->server, *pixmap, 0);
    if (!d)
        mock_send_error(req, MOCK_BAD_PIXMAP, *pixmap);
    return d;
}

static void buffer_from_pixmap(struct mock_request *req)
{
    uint32_t pixmap;
    struct mock_drawable *d = pixmap_request(req, &pixmap);
    if (!d)
        return;
    /* The single-buffer reply has 16-bit stride and 32-bit size fields. */
    if (d->planes[0].stride > UINT16_MAX || d->map_size > UINT32_MAX) {
        mock_send_error(req, MOCK_BAD_MATCH, pixmap);
        return;
    }
    int fd = dup_for_reply(d->planes[0].fd);
    if (fd < 0) {
        mock_send_error(req, MOCK_BAD_ALLOC, pixmap);
        return;
    }
    uint8_t reply[32] = { 1, 1 };
    mock_put32(reply + 8, (uint32_t)d->map_size);
    mock_put16(reply + 12, d->width);
    mock_put16(reply + 14, d->height);
    mock_put16(reply + 16, (uint16_t)d->planes[0].stride);
    reply[18] = d->depth;
    reply[19] = d->bpp;
    mock_send_reply(req, reply, sizeof reply, &fd, 1);
}

static void fence_from_fd(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    const uint8_t *f;
    int fd = fd_request(req, 16, 4, &f);
    if (fd < 0)
        return;
    uint32_t drawable = mock_get32(f + 4), id = mock_get32(f + 8);
    int error = 0;
    struct mock_fence *fence = mock_fence_import(id, drawable, fd, &error);
    if (!fence) {
        mock_send_error(req, (uint8_t)error, id);
        return;
    }
    if (!mock_resource_add_or_refuse(req, id, MOCK_RES_FENCE, fence, mock_fence_free))
        return;
    /* Otherwise the page's word says what state the fence is in: the
     * client may have triggered it already. */
    if (f[12])
        mock_fence_trigger(s, fence);
    mock_info(s, "dri3 fence 0x%x imported%s", id, f[12] ? ", triggered" : "");
}

static void fd_from_fence(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_length(req, 12))
        return;
    uint32_t drawable = mock_get32(mock_req_field(req, 4));
    uint32_t id = mock_get32(mock_req_field(req, 8));
    if (!mock_drawable_find(s, drawable, -1)) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return;
    }
    struct mock_fence *fence = mock_resource_find(s, id, MOCK_RES_FENCE);
    if (!fence) {
        mock_send_error(req, MOCK_BAD_FENCE, id);
        return;
    }
    int fd = dup_for_reply(fence->fd);
    if (fd < 0) {
        mock_send_error(req, MOCK_BAD_ALLOC, id);
        return;
    }
    uint8_t reply[32] = { 1, 1 };
    mock_send_reply(req, reply, sizeof reply, &fd, 1);
}

static void get_supported_modifiers(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    const struct mock_config *cfg = s->cfg;
    if (!check_length(req, 12))
        return;
    uint32_t window = mock_get32(mock_req_field(req, 4));
    if (!mock_drawable_find(s, window, 1)) {
        mock_send_error(req, MOCK_BAD_WINDOW, window);
        return;
    }
    const uint64_t *win = cfg->modifiers_window;
    size_t nw = (size_t)cfg->n_modifiers_window, ns = (size_t)cfg->n_modifiers_screen;
    if (cfg->later_modifiers_ms &&
        (uint64_t)mock_now_us() >= s->start_us + (uint64_t)cfg->later_modifiers_ms * 1000) {
        win = cfg->later_modifiers_window;
        nw = (size_t)cfg->n_later_modifiers_window;
    }
    size_t len = 32 + 8 * (nw + ns);
    uint8_t *reply = calloc(1, len);
    if (!reply) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    reply[0] = 1;
    mock_put32(reply + 8, (uint32_t)nw);
    mock_put32(reply + 12, (uint32_t)ns);
    for (size_t i = 0; i < nw; i++)
        mock_put64(reply + 32 + 8 * i, win[i]);
    for (size_t i = 0; i < ns; i++)
        mock_put64(reply + 32 + 8 * (nw + i), cfg->modifiers_screen[i]);
    mock_send_reply(req, reply, len, NULL, 0);
    free(reply);
}

static bool modifier_listed(const uint64_t *list, int n, uint64_t modifier)
{
    for (int i = 0; i < n; i++)
        if (list[i] == modifier)
            return true;
    return false;
}

/* DRM_FORMAT_MOD_INVALID names one implicit plane; any other modifier must
 * be one the server offered for windows or for the screen. */
static bool modifier_acceptable(const struct mock_config *cfg, uint64_t modifier, int nplanes)
{
    if (modifier == DRM_FORMAT_MOD_INVALID)
        return nplanes == 1;
    return modifier_listed(cfg->modifiers_window, cfg->n_modifiers_window, modifier) ||
           modifier_listed(cfg->modifiers_screen, cfg->n_modifiers_screen, modifier);
}

static void pixmap_from_buffers(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_length(req, 64))
        return;
    const uint8_t *f = mock_req_field(req, 0);
    uint8_t num_buffers = f[12];
    /* Take every fd the request declares, so that none is left queued
     * for a later request, even on an error; more than 4 are closed at
     * once (the request is refused below). */
    struct mock_plane planes[4];
    int nfds = 0;
    for (int i = 0; i < num_buffers; i++) {
        int fd = mock_take_fd(req);
        if (fd < 0)
            break;
        if (i >= 4) {
            close(fd);
            continue;
        }
        planes[nfds].fd = fd;
        planes[nfds].stride = mock_get32(f + 20 + 8 * i);
        planes[nfds].offset = mock_get32(f + 24 + 8 * i);
        nfds++;
    }

    uint32_t window = mock_get32(f + 8);
    uint64_t modifier = mock_get64(f + 56);
    uint8_t error = 0;
    uint32_t value = 0;
    if (num_buffers < 1 || num_buffers > 4)
        error = MOCK_BAD_VALUE, value = num_buffers;
    else if (nfds < num_buffers)            /* the request came with too few */
        error = MOCK_BAD_VALUE;
    else if (!mock_drawable_find(s, window, 1))
        error = MOCK_BAD_WINDOW, value = window;
    else if (!modifier_acceptable(s->cfg, modifier, num_buffers))
        error = MOCK_BAD_VALUE;     /* the spec: "bpp, depth, and modifier
                                     * combination is not supported" */
    if (error) {
        close_planes(planes, nfds);
        mock_send_error(req, error, value);
        return;
    }
    import_pixmap(req, mock_get32(f + 4), mock_get16(f + 16), mock_get16(f + 18),
                  f[52], f[53], planes, nfds, modifier);
}

static void buffers_from_pixmap(struct mock_request *req)
{
    uint32_t pixmap;
    struct mock_drawable *d = pixmap_request(req, &pixmap);
    if (!d)
        return;
    int n = d->nplanes;
    int fds[4];
    for (int i = 0; i < n; i++) {
        fds[i] = dup_for_reply(d->planes[i].fd);
        if (fds[i] < 0) {
            close_fds(fds, i);
            mock_send_error(req, MOCK_BAD_ALLOC, pixmap);
            return;
        }
    }
    uint8_t reply[32 + 8 * 4] = { 1, (uint8_t)n };
    mock_put16(reply + 8, d->width);
    mock_put16(reply + 10, d->height);
    mock_put64(reply + 16, d->modifier);
    reply[24] = d->depth;
    reply[25] = d->bpp;
    for (int i = 0; i < n; i++) {
        mock_put32(reply + 32 + 4 * i, d->planes[i].stride);
        mock_put32(reply + 32 + 4 * (n + i), d->planes[i].offset);
    }
    mock_send_reply(req, reply, 32 + 8 * (size_t)n, fds, n);
}

static void set_drm_device_in_use(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_length(req, 16))
        return;
    const uint8_t *f = mock_req_field(req, 0);
    uint32_t window = mock_get32(f + 4);
    if (!mock_drawable_find(s, window, 1)) {
        mock_send_error(req, MOCK_BAD_WINDOW, window);
        return;
    }
    mock_info(s, "dri3 window 0x%x uses DRM device %u:%u", window,
              mock_get32(f + 8), mock_get32(f + 12));
}

static void import_syncobj(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    const uint8_t *f;
    int fd = fd_request(req, 12, 8, &f);
    if (fd < 0)
        return;
    uint32_t id = mock_get32(f + 4);
    /* a memfd timeline or a DRM syncobj the mock can signal (see
     * mock-syncobj.c), else a stand-in kept for its lifetime */
    int error = 0;
    struct mock_syncobj *syncobj = mock_syncobj_import(s, fd, &error);
    if (!syncobj) {
        mock_send_error(req, (uint8_t)error, id);
        return;
    }
    if (!mock_resource_add_or_refuse(req, id, MOCK_RES_SYNCOBJ, syncobj, mock_syncobj_unref))
        return;
    mock_info(s, "dri3 syncobj 0x%x imported (%s)", id, mock_syncobj_kind(syncobj));
}

static void free_syncobj(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_length(req, 8))
        return;
    uint32_t id = mock_get32(mock_req_field(req, 4));
    if (!mock_resource_find(s, id, MOCK_RES_SYNCOBJ)) {
        mock_send_error(req, MOCK_BAD_VALUE, id);
        return;
    }
    mock_resource_free(s, id);
    mock_info(s, "dri3 syncobj 0x%x freed", id);
}

/* The minor version of DRI3 that introduced each request. */
static int introduced_in(uint8_t minor)
{
    if (minor <= DRI3_FD_FROM_FENCE)
        return 0;
    if (minor <= DRI3_BUFFERS_FROM_PIXMAP)
        return 2;
    if (minor == DRI3_SET_DRM_DEVICE_IN_USE)
        return 3;
    return 4;
}

static void dri3_dispatch(struct mock_request *req)
{
    static void (*const handlers[])(struct mock_request *) = {
        [DRI3_QUERY_VERSION] = query_version,
        [DRI3_OPEN] = dri3_open,
        [DRI3_PIXMAP_FROM_BUFFER] = pixmap_from_buffer,
        [DRI3_BUFFER_FROM_PIXMAP] = buffer_from_pixmap,
        [DRI3_FENCE_FROM_FD] = fence_from_fd,
        [DRI3_FD_FROM_FENCE] = fd_from_fence,
        [DRI3_GET_SUPPORTED_MODIFIERS] = get_supported_modifiers,
        [DRI3_PIXMAP_FROM_BUFFERS] = pixmap_from_buffers,
        [DRI3_BUFFERS_FROM_PIXMAP] = buffers_from_pixmap,
        [DRI3_SET_DRM_DEVICE_IN_USE] = set_drm_device_in_use,
        [DRI3_IMPORT_SYNCOBJ] = import_syncobj,
        [DRI3_FREE_SYNCOBJ] = free_syncobj,
    };
    const struct mock_config *cfg = req->client->server->cfg;
    size_t n = sizeof handlers / sizeof handlers[0];
    /* A server of an older configured version does not know the newer
     * requests at all. */
    if (req->minor >= n || cfg->dri3_major < 1 ||
        (cfg->dri3_major == 1 && cfg->dri3_minor < introduced_in(req->minor))) {
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    handlers[req->minor](req);
}

static bool dri3_advertised(const struct mock_config *cfg)
{
    return cfg->dri3_major != 0;
}

const struct mock_extension mock_dri3_extension = {
    .name = "DRI3",
    .major = MOCK_DRI3_MAJOR,
    .present = dri3_advertised,
    .dispatch = dri3_dispatch,
};
