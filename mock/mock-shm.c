/*
 * MIT-SHM 1.2 for the mock server, as far as a swapchain needs it:
 * QueryVersion (shared pixmaps in ZPixmap), AttachFd, Detach and
 * CreatePixmap.  A pixmap made on a segment maps the client's memfd like a
 * DRI3 pixmap does, so what the client writes is what Present copies.
 * The other requests (Attach of SysV segments, PutImage, GetImage,
 * CreateSegment) get BadRequest.  Offered only with "shm on" in the
 * configuration, so that a default mock stays a DRI3 server without it.
 */
#include "mock-internal.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    SHM_QUERY_VERSION = 0, SHM_DETACH = 2, SHM_CREATE_PIXMAP = 5, SHM_ATTACH_FD = 6,
};

struct segment {
    int fd;
    bool read_only;
};

static void segment_free(struct mock_server_state *s, void *data)
{
    struct segment *seg = data;

    (void)s;
    close(seg->fd);
    free(seg);
}

static void query_version(struct mock_request *req)
{
    uint8_t reply[32] = { 1, 1 };       /* shared pixmaps */

    mock_put16(reply + 8, 1);
    mock_put16(reply + 10, 2);
    mock_put16(reply + 12, (uint16_t)getuid());
    mock_put16(reply + 14, (uint16_t)getgid());
    reply[16] = 2;                      /* ZPixmap */
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void attach_fd(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t id = mock_get32(mock_req_field(req, 4));
    int fd = mock_take_fd(req), err;
    struct segment *seg;
    struct stat st;

    if (fd < 0) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(seg = malloc(sizeof *seg))) {
        close(fd);
        mock_send_error(req, MOCK_BAD_ACCESS, 0);
        return;
    }
    seg->fd = fd;
    seg->read_only = *mock_req_field(req, 8) != 0;
    err = mock_resource_add(s, req->client, id, MOCK_RES_SHM_SEG, seg, segment_free);
    if (err) {
        segment_free(s, seg);
        mock_send_error(req, (uint8_t)err, id);
    }
}

static void detach(struct mock_request *req)
{
    uint32_t id = mock_get32(mock_req_field(req, 4));

    if (!mock_resource_find(req->client->server, id, MOCK_RES_SHM_SEG))
        mock_send_error(req, MOCK_SHM_FIRST_ERROR, id);    /* BadShmSeg */
    else
        mock_resource_free(req->client->server, id);
}

static void create_pixmap(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    const uint8_t *f = mock_req_field(req, 0);
    uint32_t pid = mock_get32(f + 4), drawable = mock_get32(f + 8);
    uint16_t width = mock_get16(f + 12), height = mock_get16(f + 14);
    uint8_t depth = f[16];
    uint32_t seg_id = mock_get32(f + 20), offset = mock_get32(f + 24);
    struct segment *seg = mock_resource_find(s, seg_id, MOCK_RES_SHM_SEG);
    struct mock_plane plane = { .offset = offset, .stride = (uint32_t)width * 4 };
    struct mock_drawable *d;
    int err;

    if (!mock_drawable_find(s, drawable, -1)) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return;
    }
    if (!seg) {
        mock_send_error(req, MOCK_SHM_FIRST_ERROR, seg_id);
        return;
    }
    if (!width || !height || (depth != 24 && depth != 32)) {
        mock_send_error(req, MOCK_BAD_VALUE, depth);
        return;
    }
    plane.fd = dup(seg->fd);
    d = mock_drawable_import(width, height, depth, 32, &plane, 1, ~(uint64_t)0 >> 8, &err);
    if (!d) {
        mock_send_error(req, (uint8_t)err, 0);
        return;
    }
    d->id = pid;
    err = mock_resource_add(s, req->client, pid, MOCK_RES_PIXMAP, d, mock_drawable_free);
    if (err) {
        mock_drawable_free(s, d);
        mock_send_error(req, (uint8_t)err, pid);
    }
}

static void shm_dispatch(struct mock_request *req)
{
    static const struct {
        uint8_t size;
        void (*handle)(struct mock_request *);
    } requests[] = {
        [SHM_QUERY_VERSION] = { 4, query_version },
        [SHM_DETACH] = { 8, detach },
        [SHM_CREATE_PIXMAP] = { 28, create_pixmap },
        [SHM_ATTACH_FD] = { 12, attach_fd },
    };

    if (req->minor >= sizeof requests / sizeof requests[0] || !requests[req->minor].handle) {
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    if (mock_req_size(req) != requests[req->minor].size) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    requests[req->minor].handle(req);
}

static bool shm_advertised(const struct mock_config *cfg)
{
    return cfg->shm;
}

const struct mock_extension mock_shm_extension = {
    .name = "MIT-SHM",
    .major = MOCK_SHM_MAJOR,
    .first_event = MOCK_SHM_FIRST_EVENT,
    .first_error = MOCK_SHM_FIRST_ERROR,
    .present = shm_advertised,
    .dispatch = shm_dispatch,
};
