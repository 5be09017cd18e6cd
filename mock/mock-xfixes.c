/*
 * XFixes regions for the mock server, as far as a swapchain needs them:
 * QueryVersion, CreateRegion, SetRegion and DestroyRegion, so that the
 * update region a client names in PresentPixmap or PresentPixmapSynced can
 * be written to the transcript as rectangles.  The other requests get
 * BadRequest.  Offered only with "xfixes on" in the configuration, so that
 * a default mock keeps the extension list it always had.
 */
#include "mock-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    XFIXES_QUERY_VERSION = 0, XFIXES_CREATE_REGION = 5, XFIXES_DESTROY_REGION = 10,
    XFIXES_SET_REGION = 11,
};

/* XFixes' Region error is its first error. */
#define BAD_REGION MOCK_XFIXES_FIRST_ERROR

struct region {
    size_t n;
    uint16_t (*rects)[4];       /* x, y, width, height as sent */
};

static void region_free(struct mock_server_state *s, void *data)
{
    struct region *r = data;

    (void)s;
    free(r->rects);
    free(r);
}

/* The rectangles that follow the request's fixed part (8 bytes). */
static bool region_set(struct region *r, const struct mock_request *req)
{
    size_t n = (mock_req_size(req) - 8) / 8;
    uint16_t (*rects)[4] = n ? calloc(n, sizeof *rects) : NULL;

    if (n && !rects)
        return false;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            rects[i][k] = mock_get16(mock_req_field(req, 8 + 8 * i + 2 * (size_t)k));
    free(r->rects);
    r->rects = rects;
    r->n = n;
    return true;
}

static void query_version(struct mock_request *req)
{
    uint8_t reply[32] = { 1 };
    uint32_t major = mock_get32(mock_req_field(req, 4));

    /* the lower of the two: the mock's regions are XFixes 5.0's */
    mock_put32(reply + 8, major < 5 ? major : 5);
    mock_put32(reply + 12, 0);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void create_region(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t id = mock_get32(mock_req_field(req, 4));
    struct region *r = calloc(1, sizeof *r);
    int error;

    if (!r || !region_set(r, req)) {
        free(r);
        mock_send_error(req, MOCK_BAD_ALLOC, id);
        return;
    }
    error = mock_resource_add(s, req->client, id, MOCK_RES_REGION, r, region_free);
    if (error) {
        region_free(s, r);
        mock_send_error(req, (uint8_t)error, id);
    }
}

static void set_region(struct mock_request *req)
{
    uint32_t id = mock_get32(mock_req_field(req, 4));
    struct region *r = mock_resource_find(req->client->server, id, MOCK_RES_REGION);

    if (!r)
        mock_send_error(req, BAD_REGION, id);
    else if (!region_set(r, req))
        mock_send_error(req, MOCK_BAD_ALLOC, id);
}

static void destroy_region(struct mock_request *req)
{
    uint32_t id = mock_get32(mock_req_field(req, 4));

    if (!mock_resource_find(req->client->server, id, MOCK_RES_REGION))
        mock_send_error(req, BAD_REGION, id);
    else
        mock_resource_free(req->client->server, id);
}

void mock_region_describe(struct mock_server_state *s, uint32_t id, char *buf, size_t size)
{
    const struct region *r = id ? mock_resource_find(s, id, MOCK_RES_REGION) : NULL;
    size_t used;

    if (!id) {
        snprintf(buf, size, "none");
        return;
    }
    if (!r) {
        snprintf(buf, size, "0x%x (no such region)", id);
        return;
    }
    used = (size_t)snprintf(buf, size, "0x%x rects %zu", id, r->n);
    for (size_t i = 0; i < r->n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, " %d,%d+%ux%u",
                                 (int16_t)r->rects[i][0], (int16_t)r->rects[i][1],
                                 r->rects[i][2], r->rects[i][3]);
}

static void xfixes_dispatch(struct mock_request *req)
{
    size_t size = mock_req_size(req);

    switch (req->minor) {
    case XFIXES_QUERY_VERSION:
        if (size != 12)
            break;
        query_version(req);
        return;
    case XFIXES_CREATE_REGION:
    case XFIXES_SET_REGION:
        if (size < 8 || (size - 8) % 8)
            break;
        (req->minor == XFIXES_CREATE_REGION ? create_region : set_region)(req);
        return;
    case XFIXES_DESTROY_REGION:
        if (size != 8)
            break;
        destroy_region(req);
        return;
    default:
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    mock_send_error(req, MOCK_BAD_LENGTH, 0);
}

static bool xfixes_advertised(const struct mock_config *cfg)
{
    return cfg->xfixes;
}

const struct mock_extension mock_xfixes_extension = {
    .name = "XFIXES",
    .major = MOCK_XFIXES_MAJOR,
    .first_event = MOCK_XFIXES_FIRST_EVENT,
    .first_error = MOCK_XFIXES_FIRST_ERROR,
    .present = xfixes_advertised,
    .dispatch = xfixes_dispatch,
};
