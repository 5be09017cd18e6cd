/* The core requests the mock understands, and the two small extensions a
 * libxcb client needs around them: BIG-REQUESTS and the Generic Event
 * Extension.  Requests outside this set get BadRequest. */
#include "mock-internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    X_CREATE_WINDOW = 1, X_DESTROY_WINDOW = 4, X_MAP_WINDOW = 8, X_CONFIGURE_WINDOW = 12,
    X_GET_GEOMETRY = 14, X_INTERN_ATOM = 16, X_CHANGE_PROPERTY = 18,
    X_GET_INPUT_FOCUS = 43, X_CREATE_PIXMAP = 53, X_FREE_PIXMAP = 54, X_GET_IMAGE = 73,
    X_QUERY_EXTENSION = 98, X_NO_OPERATION = 127,
};

static size_t pad4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

static unsigned popcount(uint32_t v)
{
    return (unsigned)__builtin_popcount(v);
}

static uint32_t field32(const struct mock_request *req, size_t off)
{
    return mock_get32(mock_req_field(req, off));
}

static uint16_t field16(const struct mock_request *req, size_t off)
{
    return mock_get16(mock_req_field(req, off));
}

/* ---- windows and pixmaps --------------------------------------------- */

static void create_window(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t wid = field32(req, 4), parent_id = field32(req, 8);
    uint16_t width = field16(req, 16), height = field16(req, 18);
    uint8_t depth = req->minor;
    struct mock_drawable *parent, *w;

    /* The value list is ignored, but it must be as long as its mask says. */
    if (mock_req_size(req) != 32 + 4 * popcount(field32(req, 28))) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    parent = mock_drawable_find(s, parent_id, 1);
    if (!parent) {
        mock_send_error(req, MOCK_BAD_WINDOW, parent_id);
        return;
    }
    if (width == 0 || height == 0) {
        mock_send_error(req, MOCK_BAD_VALUE, 0);
        return;
    }
    if (depth == 0)
        depth = parent->depth;
    if (depth != 24 && depth != 32) {
        mock_send_error(req, MOCK_BAD_MATCH, 0);
        return;
    }
    w = mock_drawable_new(width, height, depth);
    if (!w) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    w->id = wid;
    w->is_window = true;
    w->parent = parent_id;
    w->x = (int16_t)field16(req, 12);
    w->y = (int16_t)field16(req, 14);
    w->border_width = field16(req, 20);
    mock_resource_add_or_refuse(req, wid, MOCK_RES_WINDOW, w, mock_drawable_free);
}

/* The window a one-window request names, or NULL after BadWindow. */
static struct mock_drawable *named_window(struct mock_request *req)
{
    uint32_t id = field32(req, 4);
    struct mock_drawable *w = mock_drawable_find(req->client->server, id, 1);

    if (!w)
        mock_send_error(req, MOCK_BAD_WINDOW, id);
    return w;
}

static void destroy_window(struct mock_request *req)
{
    struct mock_drawable *w = named_window(req);

    /* The root cannot be destroyed; the protocol says nothing happens. */
    if (w && w->id != req->client->server->root)
        mock_resource_free(req->client->server, w->id);
}

static void map_window(struct mock_request *req)
{
    struct mock_drawable *w = named_window(req);

    if (w)
        w->mapped = true;
}

static void configure_window(struct mock_request *req)
{
    uint16_t mask = field16(req, 8);
    struct mock_drawable *w;
    int32_t v[7] = { 0 };
    size_t at = 12;
    uint16_t width, height;
    bool resized;

    if (mock_req_size(req) != 12 + 4 * popcount(mask)) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    if (!(w = named_window(req)))
        return;
    /* x, y, width, height, border-width, sibling, stack-mode, in mask order */
    for (int bit = 0; bit < 7; bit++)
        if (mask & (1u << bit)) {
            v[bit] = (int32_t)field32(req, at);
            at += 4;
        }
    if (mask & ~0x7fu) {
        mock_send_error(req, MOCK_BAD_VALUE, mask);
        return;
    }
    width = mask & 4 ? (uint16_t)v[2] : w->width;
    height = mask & 8 ? (uint16_t)v[3] : w->height;
    if (width == 0 || height == 0) {
        mock_send_error(req, MOCK_BAD_VALUE, 0);
        return;
    }
    resized = width != w->width || height != w->height;
    if (resized && mock_drawable_resize(w, width, height) < 0) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    if (mask & 1)
        w->x = (int16_t)v[0];
    if (mask & 2)
        w->y = (int16_t)v[1];
    if (mask & 16)
        w->border_width = (uint16_t)v[4];
    mock_hook_window_configured(req->client->server, w, resized);
}

static void create_pixmap(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t pid = field32(req, 4), drawable = field32(req, 8);
    uint16_t width = field16(req, 12), height = field16(req, 14);
    struct mock_drawable *p;

    if (!mock_drawable_find(s, drawable, -1)) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return;
    }
    if (width == 0 || height == 0) {
        mock_send_error(req, MOCK_BAD_VALUE, 0);
        return;
    }
    /* Every mock drawable is 32 bits per pixel: depths 24 and 32 only. */
    if (req->minor != 24 && req->minor != 32) {
        mock_send_error(req, MOCK_BAD_VALUE, req->minor);
        return;
    }
    p = mock_drawable_new(width, height, req->minor);
    if (!p) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    p->id = pid;
    mock_resource_add_or_refuse(req, pid, MOCK_RES_PIXMAP, p, mock_drawable_free);
}

static void free_pixmap(struct mock_request *req)
{
    uint32_t id = field32(req, 4);

    if (!mock_drawable_find(req->client->server, id, 0))
        mock_send_error(req, MOCK_BAD_PIXMAP, id);
    else
        mock_resource_free(req->client->server, id);
}

static void get_geometry(struct mock_request *req)
{
    uint32_t id = field32(req, 4);
    struct mock_drawable *d = mock_drawable_find(req->client->server, id, -1);
    uint8_t reply[32] = { 1 };

    if (!d) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, id);
        return;
    }
    reply[1] = d->depth;
    mock_put32(reply + 8, req->client->server->root);
    mock_put16(reply + 12, (uint16_t)d->x);
    mock_put16(reply + 14, (uint16_t)d->y);
    mock_put16(reply + 16, d->width);
    mock_put16(reply + 18, d->height);
    mock_put16(reply + 20, d->border_width);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void get_image(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint8_t format = req->minor;
    uint32_t id = field32(req, 4);
    int x = (int16_t)field16(req, 8), y = (int16_t)field16(req, 10);
    int w = field16(req, 12), h = field16(req, 14);
    uint32_t plane_mask = field32(req, 16);
    struct mock_drawable *d;
    uint8_t *reply;
    size_t size;

    if (format != 1 && format != 2) {
        mock_send_error(req, MOCK_BAD_VALUE, format);
        return;
    }
    if (!(d = mock_drawable_find(s, id, -1))) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, id);
        return;
    }
    /* XYPixmap is not worth a mock; a rectangle outside is BadMatch. */
    if (format == 1 || x < 0 || y < 0 || x + w > d->width || y + h > d->height) {
        mock_send_error(req, MOCK_BAD_MATCH, 0);
        return;
    }
    size = 32 + (size_t)w * h * 4;
    reply = calloc(1, size);
    if (!reply) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    reply[0] = 1;
    reply[1] = d->depth;
    if (d->is_window)
        mock_put32(reply + 8, d->depth == 32 ? s->argb_visual : s->root_visual);
    for (int row = 0; row < h; row++)
        for (int col = 0; col < w; col++)
            mock_put32(reply + 32 + ((size_t)row * w + col) * 4,
                       mock_drawable_pixel(d, x + col, y + row) & plane_mask);
    mock_send_reply(req, reply, size, NULL, 0);
    free(reply);
}

/* ---- atoms, properties, focus, extensions ----------------------------- */

static void intern_atom(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    size_t len = field16(req, 4);
    const char *name = (const char *)mock_req_field(req, 8);
    uint8_t reply[32] = { 1 };
    uint32_t atom = 0;

    if (mock_req_size(req) != 8 + pad4(len)) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    for (size_t i = 0; i < s->n_atoms && !atom; i++)
        if (strlen(s->atom_names[i]) == len && memcmp(s->atom_names[i], name, len) == 0)
            atom = 69 + (uint32_t)i;
    if (!atom && !req->minor) {   /* not only-if-exists: make it */
        char **names = realloc(s->atom_names, (s->n_atoms + 1) * sizeof *names);
        char *copy = names ? strndup(name, len) : NULL;

        if (names)
            s->atom_names = names;
        if (!copy) {
            mock_send_error(req, MOCK_BAD_ALLOC, 0);
            return;
        }
        s->atom_names[s->n_atoms] = copy;
        atom = 69 + (uint32_t)s->n_atoms++;
        s->atoms_next = atom + 1;
    }
    mock_put32(reply + 8, atom);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

/* Accepted and forgotten (clients set WM_NAME and the like); only the
 * window and the length are checked. */
static void change_property(struct mock_request *req)
{
    uint8_t format = *mock_req_field(req, 16);
    uint64_t bytes = (uint64_t)field32(req, 20) * (format / 8);

    if (format != 8 && format != 16 && format != 32) {
        mock_send_error(req, MOCK_BAD_VALUE, format);
        return;
    }
    if (mock_req_size(req) != 24 + pad4(bytes)) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    named_window(req);
}

static void get_input_focus(struct mock_request *req)
{
    uint8_t reply[32] = { 1, 1 };   /* revert-to PointerRoot */

    mock_put32(reply + 8, 1);       /* focus: PointerRoot */
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void query_extension(struct mock_request *req)
{
    size_t len = field16(req, 4);
    const struct mock_extension *e;
    uint8_t reply[32] = { 1 };

    if (mock_req_size(req) != 8 + pad4(len)) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    e = mock_find_extension(req->client->server, (const char *)mock_req_field(req, 8), len);
    if (e) {
        reply[8] = 1;
        reply[9] = e->major;
        reply[10] = e->first_event;
        reply[11] = e->first_error;
    }
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

/* ---- dispatch ---------------------------------------------------------- */

/* Fixed sizes; 0 for requests whose handler checks a variable length. */
static const struct {
    uint8_t opcode;
    uint8_t size;
    void (*handle)(struct mock_request *);
} core_requests[] = {
    { X_CREATE_WINDOW, 0, create_window },
    { X_DESTROY_WINDOW, 8, destroy_window },
    { X_MAP_WINDOW, 8, map_window },
    { X_CONFIGURE_WINDOW, 0, configure_window },
    { X_GET_GEOMETRY, 8, get_geometry },
    { X_INTERN_ATOM, 0, intern_atom },
    { X_CHANGE_PROPERTY, 0, change_property },
    { X_GET_INPUT_FOCUS, 4, get_input_focus },
    { X_CREATE_PIXMAP, 16, create_pixmap },
    { X_FREE_PIXMAP, 8, free_pixmap },
    { X_GET_IMAGE, 20, get_image },
    { X_QUERY_EXTENSION, 0, query_extension },
};

/* The smallest size of the variable-length ones, before they look at
 * their fields. */
static size_t min_size(uint8_t opcode)
{
    switch (opcode) {
    case X_CREATE_WINDOW: return 32;
    case X_CONFIGURE_WINDOW: return 12;
    case X_CHANGE_PROPERTY: return 24;
    default: return 8;      /* InternAtom, QueryExtension */
    }
}

void mock_core_dispatch(struct mock_request *req)
{
    size_t size = mock_req_size(req);

    if (req->major == X_NO_OPERATION) {
        mock_resources_write_stats(req->client->server);
        return;
    }
    for (size_t i = 0; i < sizeof core_requests / sizeof core_requests[0]; i++) {
        if (core_requests[i].opcode != req->major)
            continue;
        if (core_requests[i].size ? size != core_requests[i].size
                                  : size < min_size(req->major)) {
            mock_send_error(req, MOCK_BAD_LENGTH, 0);
            return;
        }
        core_requests[i].handle(req);
        return;
    }
    if (mock_core_draw_dispatch(req))
        return;
    mock_send_error(req, MOCK_BAD_REQUEST, 0);
}

void mock_bigreq_dispatch(struct mock_request *req)
{
    uint8_t reply[32] = { 1 };

    if (req->minor != 0) {
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    if (mock_req_size(req) != 4) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    req->client->big_requests = true;
    mock_put32(reply + 8, 4194303);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

void mock_ge_dispatch(struct mock_request *req)
{
    uint8_t reply[32] = { 1 };

    if (req->minor != 0) {
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    if (mock_req_size(req) != 8) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    mock_put16(reply + 8, 1);
    mock_put16(reply + 10, 0);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

const struct mock_extension mock_bigreq_extension = {
    .name = "BIG-REQUESTS",
    .major = MOCK_BIGREQ_MAJOR,
    .dispatch = mock_bigreq_dispatch,
};

const struct mock_extension mock_ge_extension = {
    .name = "Generic Event Extension",
    .major = MOCK_GE_MAJOR,
    .first_event = 0,
    .dispatch = mock_ge_dispatch,
};
