/*
 * Present's events: SelectInput binds a client's event id to a window and
 * a mask; ConfigureNotify, CompleteNotify and IdleNotify then go to every
 * selection that asked for them.  All are Generic Events (XGE) with the
 * layouts of presentproto.txt.
 */
#include "mock-present.h"

#include <stdlib.h>

/* Event types, and the SelectInput mask bits that ask for them
 * (RedirectNotify may be selected, but the mock never redirects). */
enum { EVENT_CONFIGURE = 0, EVENT_COMPLETE = 1, EVENT_IDLE = 2 };
enum {
    MASK_CONFIGURE = 1, MASK_COMPLETE = 2, MASK_IDLE = 4, MASK_REDIRECT = 8,
    MASK_ALL = MASK_CONFIGURE | MASK_COMPLETE | MASK_IDLE | MASK_REDIRECT,
};

/* One SelectInput: the client hears about `window` under event id eid.
 * Registered as a MOCK_RES_PRESENT_EVENT resource so that it goes with
 * its client. */
struct selection {
    uint32_t eid, window, mask;
    struct mock_client *client;
};

static void selection_free(struct mock_server_state *s, void *data)
{
    (void)s;
    free(data);
}

void mock_present_select_input(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (mock_req_size(req) != 16) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    uint32_t eid = mock_get32(mock_req_field(req, 4));
    uint32_t window = mock_get32(mock_req_field(req, 8));
    uint32_t mask = mock_get32(mock_req_field(req, 12));
    if (!mock_drawable_find(s, window, 1)) {
        mock_send_error(req, MOCK_BAD_WINDOW, window);
        return;
    }
    if (mask & ~(uint32_t)MASK_ALL) {
        mock_send_error(req, MOCK_BAD_VALUE, mask);
        return;
    }
    /* An event id this client already bound to this window: change its
     * mask, or forget it for mask 0. */
    struct selection *sel = mock_resource_find(s, eid, MOCK_RES_PRESENT_EVENT);
    if (sel && sel->window == window && sel->client == req->client) {
        if (mask)
            sel->mask = mask;
        else
            mock_resource_free(s, eid);
        return;
    }
    if (!mask && !sel)
        return;
    /* A new binding needs a new id of the client's (else BadIDChoice). */
    sel = malloc(sizeof *sel);
    if (!sel) {
        mock_send_error(req, MOCK_BAD_ALLOC, eid);
        return;
    }
    *sel = (struct selection){ .eid = eid, .window = window, .mask = mask,
                               .client = req->client };
    int error = mock_resource_add(s, req->client, eid, MOCK_RES_PRESENT_EVENT, sel,
                                  selection_free);
    if (error) {
        free(sel);
        mock_send_error(req, (uint8_t)error, eid);
    }
}

void mock_present_forget_window(struct mock_server_state *s, uint32_t window)
{
    size_t i = 0;
    while (i < s->n_resources) {
        const struct mock_resource *r = &s->resources[i];
        if (r->type == MOCK_RES_PRESENT_EVENT &&
            ((const struct selection *)r->data)->window == window) {
            mock_resource_free(s, r->id);
            i = 0;      /* freeing moves entries around: start over */
        } else {
            i++;
        }
    }
}

/* Sends the event in ev to every selection of `window` whose mask has
 * `bit`, each with its own event id. */
static void deliver(struct mock_server_state *s, uint32_t window, uint32_t bit,
                    uint8_t *ev, size_t len)
{
    for (size_t i = 0; i < s->n_resources; i++) {
        const struct selection *sel = s->resources[i].data;
        if (s->resources[i].type != MOCK_RES_PRESENT_EVENT || sel->window != window ||
            !(sel->mask & bit))
            continue;
        mock_put32(ev + 12, sel->eid);
        mock_send_event(sel->client, ev, len);
    }
}

/* A Generic Event header: byte 0 = 35, the extension, the event type; the
 * core fills in the sequence number and the length. */
static void event_header(uint8_t *ev, uint16_t evtype)
{
    ev[0] = 35;
    ev[1] = MOCK_PRESENT_MAJOR;
    mock_put16(ev + 8, evtype);
}

/* A ConfigureNotify saying the window is width x height. */
static void send_configure_sized(struct mock_server_state *s, const struct mock_drawable *window,
                                 uint16_t width, uint16_t height, uint32_t pixmap_flags)
{
    uint8_t ev[40] = { 0 };
    event_header(ev, EVENT_CONFIGURE);
    mock_put32(ev + 16, window->id);
    mock_put16(ev + 20, (uint16_t)window->x);
    mock_put16(ev + 22, (uint16_t)window->y);
    mock_put16(ev + 24, width);
    mock_put16(ev + 26, height);
    /* off_x and off_y stay 0: the window's pixmap is exactly the window */
    mock_put16(ev + 32, width);
    mock_put16(ev + 34, height);
    mock_put32(ev + 36, pixmap_flags);
    deliver(s, window->id, MASK_CONFIGURE, ev, sizeof ev);
}

void mock_present_send_configure(struct mock_server_state *s, const struct mock_drawable *window,
                                 uint32_t pixmap_flags)
{
    send_configure_sized(s, window, window->width, window->height, pixmap_flags);
}

void mock_present_send_complete(struct mock_server_state *s, uint32_t window, uint32_t serial,
                                uint8_t kind, uint8_t mode, uint64_t ust, uint64_t msc)
{
    uint8_t ev[40] = { 0 };
    event_header(ev, EVENT_COMPLETE);
    ev[10] = kind;
    ev[11] = mode;
    int copies = kind != MOCK_PRESENT_KIND_PIXMAP ? 1
                 : !mock_event_fault_complete(s, &msc) ? 0
                 : mock_event_fault_proxy(s, "CompleteNotify", &serial);
    mock_put32(ev + 16, window);
    mock_put32(ev + 20, serial);
    mock_put64(ev + 24, ust);
    mock_put64(ev + 32, msc);
    for (int i = 0; i < copies; i++)
        deliver(s, window, MASK_COMPLETE, ev, sizeof ev);
    const struct mock_drawable *w;
    if (kind == MOCK_PRESENT_KIND_PIXMAP && mock_event_fault_configure_zero(s) &&
        (w = mock_drawable_find(s, window, 1))) {
        mock_info(s, "fault: ConfigureNotify of 0x0 for window 0x%x", window);
        send_configure_sized(s, w, 0, 0, 0);
    }
}

void mock_present_send_idle(struct mock_server_state *s, uint32_t window, uint32_t serial,
                            uint32_t pixmap, uint32_t idle_fence)
{
    uint8_t ev[32] = { 0 };
    if (!mock_event_fault_idle(s))
        return;
    int copies = mock_event_fault_proxy(s, "IdleNotify", &serial);
    event_header(ev, EVENT_IDLE);
    mock_put32(ev + 16, window);
    mock_put32(ev + 20, serial);
    mock_put32(ev + 24, pixmap);
    mock_put32(ev + 28, idle_fence);
    for (int i = 0; i < copies; i++)
        deliver(s, window, MASK_IDLE, ev, sizeof ev);
}
