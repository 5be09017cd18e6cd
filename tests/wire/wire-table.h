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

/* Runs every row on a new fake server, both variants in turn. */
#define WIRE_RUN(rows) wire_run((rows), sizeof(rows) / sizeof((rows)[0]))
void wire_run(const struct wire_row *rows, size_t n);

#endif
