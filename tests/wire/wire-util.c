#define _GNU_SOURCE
#include "wire-util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xcb/dri3.h>

#include "test-runner.h"

static uint8_t *wgrow(struct wire *w, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 64;

        while (cap < w->len + n)
            cap *= 2;
        w->data = realloc(w->data, cap);
        CHECK(w->data != NULL);
        w->cap = cap;
    }
    w->len += n;
    return w->data + w->len - n;
}

void w8(struct wire *w, uint8_t v)
{
    *wgrow(w, 1) = v;
}

void w16(struct wire *w, uint16_t v)
{
    uint8_t *p = wgrow(w, 2);

    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void w32(struct wire *w, uint32_t v)
{
    uint8_t *p = wgrow(w, 4);

    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void w64(struct wire *w, uint64_t v)
{
    uint8_t *p = wgrow(w, 8);

    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void wpad(struct wire *w, size_t n)
{
    memset(wgrow(w, n), 0, n);
}

void wire_free(struct wire *w)
{
    free(w->data);
    w->data = NULL;
    w->len = w->cap = 0;
}

void w_reply_head(struct wire *w, uint8_t byte1, uint32_t seq, uint32_t length)
{
    w8(w, 1);                   /* Reply */
    w8(w, byte1);
    w16(w, (uint16_t)seq);      /* sequence number */
    w32(w, length);             /* reply length */
}

void w_version_reply(struct wire *w, uint32_t seq, uint32_t major, uint32_t minor)
{
    w_reply_head(w, 0, seq, 0);
    w32(w, major);              /* major version */
    w32(w, minor);              /* minor version */
    wpad(w, 16);                /* unused */
}

void w_error(struct wire *w, uint8_t code, uint32_t seq, uint32_t resource, uint16_t minor,
             uint8_t major)
{
    w8(w, 0);                   /* Error */
    w8(w, code);
    w16(w, (uint16_t)seq);      /* sequence number */
    w32(w, resource);           /* bad resource id / value */
    w16(w, minor);              /* minor opcode */
    w8(w, major);               /* major opcode */
    wpad(w, 21);                /* unused */
}

void fake_write_wire(fake_server_t *srv, const struct wire *w, const int *fds, int nfds)
{
    fake_write(srv, w->data, w->len, fds, nfds);
}

void expect_request(const char *file, int line, fake_server_t *srv, const struct wire *want,
                    int *fds, int *nfds)
{
    /* Large enough for any request of these tests (BIG-REQUESTS aside). */
    static uint8_t got[256 * 1024];
    size_t len = fake_read_request(srv, got, sizeof(got), fds, nfds);

    if (len != want->len)
        test_fail(file, line, "request of %zu bytes, expected %zu (opcode %u.%u)", len,
                  want->len, got[0], got[1]);
    if (memcmp(got, want->data, len) != 0)
        test_fail_mem(file, line, "received", "expected", got, want->data, len);
}

xcb_generic_error_t wire_not_set;

void check_reply_head(const char *file, int line, const void *r, const xcb_generic_error_t *e,
                      unsigned int seq, int byte1, uint32_t length)
{
    const xcb_generic_reply_t *h = r;

    if (!h)
        test_fail(file, line, "no reply");
    if (e)
        test_fail(file, line, "the error pointer is not NULL after a reply");
    if (h->response_type != 1)
        test_fail_eq(file, line, "response_type", "1", h->response_type, 1);
    if (byte1 >= 0 && h->pad0 != byte1)
        test_fail_eq(file, line, "byte 1 (nfd)", "expected", h->pad0, (unsigned)byte1);
    if (h->sequence != (uint16_t)seq)
        test_fail_eq(file, line, "sequence", "(uint16_t)seq", h->sequence, (uint16_t)seq);
    if (h->length != length)
        test_fail_eq(file, line, "length", "expected", h->length, length);
}

void check_still_usable(xcb_connection_t *c, fake_server_t *srv)
{
    struct wire rep = { 0 };
    xcb_dri3_query_version_cookie_t ck = xcb_dri3_query_version(c, 1, 4);
    xcb_dri3_query_version_reply_t *r;
    uint8_t req[64];

    CHECK(xcb_flush(c) > 0);
    CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 12);
    w_version_reply(&rep, fake_seq(srv), 1, 4);
    fake_write_wire(srv, &rep, NULL, 0);
    r = xcb_dri3_query_version_reply(c, ck, NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->minor_version, 4);
    free(r);
    wire_free(&rep);
}
