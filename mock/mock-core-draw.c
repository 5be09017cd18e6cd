/*
 * Core requests beyond mock-core-requests.c's set, for toolkits and plain
 * Xlib clients (xdpyinfo completes against the mock with these): graphics
 * contexts, PutImage and CopyArea into the memfd-backed drawables, window
 * attributes, GetProperty (no property ever exists: ChangeProperty
 * forgets), ListExtensions, QueryBestSize and the keyboard and pointer
 * queries Xlib makes on its own.
 *
 * GCs keep no state: every drawing request copies pixels as GXcopy with
 * all planes, which is what a swapchain's GC does.
 */
#include "mock-internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    X_CHANGE_WINDOW_ATTRIBUTES = 2, X_GET_WINDOW_ATTRIBUTES = 3, X_GET_PROPERTY = 20,
    X_CREATE_GC = 55, X_CHANGE_GC = 56, X_FREE_GC = 60, X_COPY_AREA = 62,
    X_PUT_IMAGE = 72, X_QUERY_BEST_SIZE = 97, X_LIST_EXTENSIONS = 99,
    X_GET_KEYBOARD_MAPPING = 101, X_GET_KEYBOARD_CONTROL = 103, X_GET_POINTER_MAPPING = 117,
    X_GET_MODIFIER_MAPPING = 119,
};

static size_t pad4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

static uint32_t field32(const struct mock_request *req, size_t off)
{
    return mock_get32(mock_req_field(req, off));
}

static uint16_t field16(const struct mock_request *req, size_t off)
{
    return mock_get16(mock_req_field(req, off));
}

/* A value list must be as long as its mask says. */
static bool values_fit(struct mock_request *req, size_t fixed, uint32_t mask)
{
    if (mock_req_size(req) != fixed + 4 * (size_t)__builtin_popcount(mask)) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return false;
    }
    return true;
}

static void gc_free(struct mock_server_state *s, void *gc)
{
    (void)s;
    free(gc);
}

static void create_gc(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t gc = field32(req, 4), drawable = field32(req, 8);
    uint32_t *data;
    int err;

    if (!values_fit(req, 16, field32(req, 12)))
        return;
    if (!mock_drawable_find(s, drawable, -1)) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return;
    }
    data = malloc(sizeof *data);
    if (!data) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    *data = gc;
    err = mock_resource_add(s, req->client, gc, MOCK_RES_GC, data, gc_free);
    if (err) {
        free(data);
        mock_send_error(req, (uint8_t)err, gc);
    }
}

static bool gc_exists(struct mock_request *req, uint32_t gc)
{
    if (mock_resource_find(req->client->server, gc, MOCK_RES_GC))
        return true;
    mock_send_error(req, MOCK_BAD_GC, gc);
    return false;
}

static void change_gc(struct mock_request *req)
{
    if (values_fit(req, 12, field32(req, 8)))
        gc_exists(req, field32(req, 4));
}

static void free_gc(struct mock_request *req)
{
    uint32_t gc = field32(req, 4);

    if (gc_exists(req, gc))
        mock_resource_free(req->client->server, gc);
}

static uint32_t *pixel_at(struct mock_drawable *d, int x, int y)
{
    return (uint32_t *)(d->map + d->planes[0].offset + (size_t)y * d->planes[0].stride +
                        (size_t)x * 4);
}

/* ZPixmap only, 32 bits per pixel (every mock drawable), clipped. */
static void put_image(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint8_t format = req->minor;
    uint32_t id = field32(req, 4);
    int w = field16(req, 12), h = field16(req, 14);
    int dx = (int16_t)field16(req, 16), dy = (int16_t)field16(req, 18);
    uint8_t depth = *mock_req_field(req, 21);
    const uint8_t *data = mock_req_field(req, 24);
    struct mock_drawable *d;

    if (mock_req_size(req) != 24 + pad4((size_t)w * h * 4) || format != 2) {
        mock_send_error(req, format != 2 ? MOCK_BAD_MATCH : MOCK_BAD_LENGTH, 0);
        return;
    }
    if (!(d = mock_drawable_find(s, id, -1))) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, id);
        return;
    }
    if (!gc_exists(req, field32(req, 8)))
        return;
    if (depth != d->depth) {
        mock_send_error(req, MOCK_BAD_MATCH, 0);
        return;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (dx + x >= 0 && dy + y >= 0 && dx + x < d->width && dy + y < d->height)
                *pixel_at(d, dx + x, dy + y) = mock_get32(data + ((size_t)y * w + x) * 4);
}

static void copy_area(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t src_id = field32(req, 4), dst_id = field32(req, 8);
    int sx = (int16_t)field16(req, 16), sy = (int16_t)field16(req, 18);
    int dx = (int16_t)field16(req, 20), dy = (int16_t)field16(req, 22);
    int w = field16(req, 24), h = field16(req, 26);
    struct mock_drawable *src = mock_drawable_find(s, src_id, -1);
    struct mock_drawable *dst = mock_drawable_find(s, dst_id, -1);

    if (!src || !dst) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, src ? dst_id : src_id);
        return;
    }
    if (!gc_exists(req, field32(req, 12)))
        return;
    if (src->depth != dst->depth) {
        mock_send_error(req, MOCK_BAD_MATCH, 0);
        return;
    }
    /* memmove row by row: source and destination may be the same */
    for (int i = 0; i < h; i++) {
        int y = dy < sy ? i : h - 1 - i;

        for (int j = 0; j < w; j++) {
            int x = dx < sx ? j : w - 1 - j;

            if (sx + x < 0 || sy + y < 0 || sx + x >= src->width || sy + y >= src->height ||
                dx + x < 0 || dy + y < 0 || dx + x >= dst->width || dy + y >= dst->height)
                continue;
            *pixel_at(dst, dx + x, dy + y) = *pixel_at(src, sx + x, sy + y);
        }
    }
}

static void change_window_attributes(struct mock_request *req)
{
    uint32_t id = field32(req, 4);

    if (!values_fit(req, 12, field32(req, 8)))
        return;
    if (!mock_drawable_find(req->client->server, id, 1))
        mock_send_error(req, MOCK_BAD_WINDOW, id);
}

static void get_window_attributes(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t id = field32(req, 4);
    struct mock_drawable *w = mock_drawable_find(s, id, 1);
    uint8_t reply[44] = { 1 };

    if (!w) {
        mock_send_error(req, MOCK_BAD_WINDOW, id);
        return;
    }
    mock_put32(reply + 8, w->depth == 32 ? s->argb_visual : s->root_visual);
    mock_put16(reply + 12, 1);              /* InputOutput */
    reply[14] = 0;                          /* bit gravity Forget */
    reply[15] = 1;                          /* win gravity NorthWest */
    mock_put32(reply + 16, ~0u);            /* backing planes */
    reply[25] = 1;                          /* map is installed */
    reply[26] = w->mapped || w->id == s->root ? 2 : 0;     /* Viewable or Unmapped */
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

/* No property exists: type None, format 0, nothing after. */
static void get_property(struct mock_request *req)
{
    uint32_t id = field32(req, 4);
    uint8_t reply[32] = { 1 };

    if (!mock_drawable_find(req->client->server, id, 1)) {
        mock_send_error(req, MOCK_BAD_WINDOW, id);
        return;
    }
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void query_best_size(struct mock_request *req)
{
    uint8_t reply[32] = { 1 };

    mock_put16(reply + 8, field16(req, 8));
    mock_put16(reply + 10, field16(req, 10));
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void list_extensions(struct mock_request *req)
{
    const char *names[16];
    size_t n = mock_extension_names(req->client->server, names, 16), len = 0;
    uint8_t *reply;

    for (size_t i = 0; i < n; i++)
        len += 1 + strlen(names[i]);
    reply = calloc(1, 32 + pad4(len));
    if (!reply) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    reply[0] = 1;
    reply[1] = (uint8_t)n;
    len = 32;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(names[i]);

        reply[len] = (uint8_t)l;
        memcpy(reply + len + 1, names[i], l);
        len += 1 + l;
    }
    mock_send_reply(req, reply, 32 + pad4(len - 32), NULL, 0);
    free(reply);
}

/* Keyboard and pointer: no keys, no modifiers, three buttons. */
static void get_keyboard_mapping(struct mock_request *req)
{
    uint8_t count = *mock_req_field(req, 5);
    size_t size = 32 + (size_t)count * 4;
    uint8_t *reply = calloc(1, size);

    if (!reply) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    reply[0] = 1;
    reply[1] = 1;       /* one keysym per keycode, all NoSymbol */
    mock_send_reply(req, reply, size, NULL, 0);
    free(reply);
}

static void get_keyboard_control(struct mock_request *req)
{
    uint8_t reply[52] = { 1, 1 };       /* global auto-repeat on */

    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void get_pointer_mapping(struct mock_request *req)
{
    uint8_t reply[36] = { 1, 3 };

    reply[32] = 1;
    reply[33] = 2;
    reply[34] = 3;
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void get_modifier_mapping(struct mock_request *req)
{
    uint8_t reply[32 + 8] = { 1, 1 };   /* one keycode per modifier, all none */

    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static const struct {
    uint8_t opcode;
    uint8_t size;           /* 0: variable, checked by the handler */
    uint8_t min_size;
    void (*handle)(struct mock_request *);
} draw_requests[] = {
    { X_CHANGE_WINDOW_ATTRIBUTES, 0, 12, change_window_attributes },
    { X_GET_WINDOW_ATTRIBUTES, 8, 8, get_window_attributes },
    { X_GET_PROPERTY, 24, 24, get_property },
    { X_CREATE_GC, 0, 16, create_gc },
    { X_CHANGE_GC, 0, 12, change_gc },
    { X_FREE_GC, 8, 8, free_gc },
    { X_COPY_AREA, 28, 28, copy_area },
    { X_PUT_IMAGE, 0, 24, put_image },
    { X_QUERY_BEST_SIZE, 12, 12, query_best_size },
    { X_LIST_EXTENSIONS, 4, 4, list_extensions },
    { X_GET_KEYBOARD_MAPPING, 8, 8, get_keyboard_mapping },
    { X_GET_KEYBOARD_CONTROL, 4, 4, get_keyboard_control },
    { X_GET_POINTER_MAPPING, 4, 4, get_pointer_mapping },
    { X_GET_MODIFIER_MAPPING, 4, 4, get_modifier_mapping },
};

bool mock_core_draw_dispatch(struct mock_request *req)
{
    size_t size = mock_req_size(req);

    for (size_t i = 0; i < sizeof draw_requests / sizeof draw_requests[0]; i++) {
        if (draw_requests[i].opcode != req->major)
            continue;
        if (draw_requests[i].size ? size != draw_requests[i].size
                                  : size < draw_requests[i].min_size)
            mock_send_error(req, MOCK_BAD_LENGTH, 0);
        else
            draw_requests[i].handle(req);
        return true;
    }
    return false;
}
