/*
 * Helpers for writing expected X11 bytes field by field, as the protocol
 * specs' encoding sections list them, and for following fds by identity.
 */
#ifndef WIRE_UTIL_H
#define WIRE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fake-server.h"
#include "test-fds.h"

/* A growing byte buffer written little-endian.  Zero-initialise it
 * (struct wire w = { 0 };) and release it with wire_free(). */
struct wire {
    uint8_t *data;
    size_t len, cap;
};

void w8(struct wire *w, uint8_t v);
void w16(struct wire *w, uint16_t v);
void w32(struct wire *w, uint32_t v);
void w64(struct wire *w, uint64_t v);
void wpad(struct wire *w, size_t n);    /* n zero bytes ("unused") */
void wire_free(struct wire *w);

/* The first 8 bytes of a reply: 1, the spare byte (nfd for replies with
 * fds), sequence number, reply length in 4-byte units beyond 32 bytes. */
void w_reply_head(struct wire *w, uint8_t byte1, uint32_t seq, uint32_t length);

/* A QueryVersion reply (either extension's: the same bytes) to request
 * seq, answering major.minor. */
void w_version_reply(struct wire *w, uint32_t seq, uint32_t major, uint32_t minor);

/* A core protocol error (32 bytes) for request seq. */
void w_error(struct wire *w, uint8_t code, uint32_t seq, uint32_t resource, uint16_t minor,
             uint8_t major);

/* Sends w's bytes, and fds, from the fake server. */
void fake_write_wire(fake_server_t *srv, const struct wire *w, const int *fds, int nfds);

/*
 * Reads one request and compares it with the expected bytes; fds (room for
 * FAKE_MAX_FDS) and nfds receive the fds that came with it, or pass NULL to
 * require none.  Reports at the caller's line.
 */
#define EXPECT_REQUEST(srv, w, fds, nfds) \
    expect_request(__FILE__, __LINE__, (srv), (w), (fds), (nfds))
void expect_request(const char *file, int line, fake_server_t *srv, const struct wire *want,
                    int *fds, int *nfds);

/* A reply test starts its error pointer as &wire_not_set, so that a
 * successful _reply() is seen to have set it to NULL. */
extern xcb_generic_error_t wire_not_set;

/* What every reply test checks first, at the caller's line: a reply came
 * (r) and no error (e == NULL), then its header: type 1, byte 1 (nfd for
 * a reply with fds; -1: not looked at), seq's low 16 bits and length. */
#define CHECK_REPLY_HEAD(r, e, seq, byte1, length) \
    check_reply_head(__FILE__, __LINE__, (r), (e), (seq), (byte1), (length))
void check_reply_head(const char *file, int line, const void *r, const xcb_generic_error_t *e,
                      unsigned int seq, int byte1, uint32_t length);

/* The connection is still in step after a refused reply: a DRI3
 * QueryVersion round trip works (the fake server answers 1.4). */
void check_still_usable(xcb_connection_t *c, fake_server_t *srv);

/*
 * The layout of a struct laid over the wire bytes, as the protocol's
 * encoding fixes it (and so a drop-in replacement's ABI), one struct a line:
 *     LAYOUT(xcb_x_request_t, SIZEOF(12) OFFSET(field, 8));
 * checks each SIZEOF and OFFSET in turn, with CHECK_EQ (a failure's notes
 * name the struct).
 */
#define LAYOUT(type, ...)                   \
    do {                                    \
        typedef type layout_type_;          \
        test_note("layout of %s", #type);   \
        __VA_ARGS__                         \
    } while (0)
#define SIZEOF(bytes) CHECK_EQ(sizeof(layout_type_), (bytes));
#define OFFSET(field, at) CHECK_EQ(offsetof(layout_type_, field), (at));

#endif
