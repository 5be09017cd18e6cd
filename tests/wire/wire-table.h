/*
 * Table-driven request tests: one loop sends every row's request through
 * both of its C functions (the checked and the unchecked variant) and
 * compares what reaches the server with the row's bytes, written from the
 * protocol's encoding section, and with the row's fds.
 */
#ifndef WIRE_TABLE_H
#define WIRE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "fake-server.h"
#include "wire-util.h"

struct wire_row {
    const char *name;
    /* Sends the request through its function number `variant` (0 or 1),
     * with `fds` (nfds fresh memfds, now libxcb's to close), and returns
     * the cookie's sequence number. */
    unsigned int (*send)(xcb_connection_t *c, int variant, const int32_t *fds, int arg);
    /* The bytes the request must have on the wire. */
    void (*bytes)(struct wire *w, int variant, int arg);
    /* How many fds it must carry, in order: the ones send() was given. */
    unsigned int nfds;
    /* NULL for a request without a reply; else writes the server's reply
     * to the request numbered seq and checks what the reply function
     * returns. */
    void (*reply)(xcb_connection_t *c, fake_server_t *srv, unsigned int seq, int arg);
    /* The row's parameter (a list length, a number of planes). */
    int arg;
    /* NULL, or checks the request-side accessors on the request's bytes
     * (those just proven to be what the spec says). */
    void (*accessors)(const uint8_t *request, int arg);
};

/*
 * The QueryVersion row's three functions, the same in DRI3 and Present but
 * for the names: ext is dri3 or present, major_opcode the extension's (the
 * fake server's), answer the minor version the server answers to 1.4.
 */
#define WIRE_QUERY_VERSION_FUNCTIONS(ext, major_opcode, answer)                       \
    static unsigned int send_query_version(xcb_connection_t *c, int v,               \
                                           const int32_t *fds, int arg)              \
    {                                                                                 \
        (void)fds, (void)arg;                                                         \
        return (v ? xcb_##ext##_query_version_unchecked : xcb_##ext##_query_version)( \
                   c, 1, 4).sequence;                                                 \
    }                                                                                 \
                                                                                      \
    static void bytes_query_version(struct wire *w, int v, int arg)                  \
    {                                                                                 \
        (void)v, (void)arg;                                                           \
        w8(w, (major_opcode));  /* major opcode */                                    \
        w8(w, 0);               /* QueryVersion */                                    \
        w16(w, 3);              /* length */                                          \
        w32(w, 1);              /* major version */                                   \
        w32(w, 4);              /* minor version */                                   \
    }                                                                                 \
                                                                                      \
    static void reply_query_version(xcb_connection_t *c, fake_server_t *srv,         \
                                    unsigned int seq, int arg)                        \
    {                                                                                 \
        xcb_##ext##_query_version_cookie_t ck = { seq };                              \
        xcb_generic_error_t *e = &wire_not_set;                                       \
        struct wire rep = { 0 };                                                      \
        xcb_##ext##_query_version_reply_t *r;                                         \
                                                                                      \
        (void)arg;                                                                    \
        w_version_reply(&rep, seq, 1, (answer));                                      \
        fake_write_wire(srv, &rep, NULL, 0);                                          \
        wire_free(&rep);                                                              \
        r = xcb_##ext##_query_version_reply(c, ck, &e);                               \
        CHECK_REPLY_HEAD(r, e, seq, -1, 0);                                           \
        CHECK_EQ(r->major_version, 1);                                                \
        CHECK_EQ(r->minor_version, (answer));                                         \
        free(r);                                                                      \
    }

/* Runs every row on a new fake server, both variants in turn. */
#define WIRE_RUN(rows) wire_run((rows), sizeof(rows) / sizeof((rows)[0]))
void wire_run(const struct wire_row *rows, size_t n);

#endif
