/*
 * An X server just big enough for wire tests, in the test's own process, on
 * the other end of a socketpair from libxcb (the handshake is
 * mock-inproc.h's, shared with the fuzz targets and the codec benchmark).
 *
 * After the connection handshake (see fake_start) everything is
 * single-threaded and deterministic: the test makes libxcb send
 * (xcb_flush), reads what arrived with fake_read_request(), and writes replies
 * and events with fake_write() *before* calling the libxcb function that
 * waits for them, since libxcb only blocks on data already in the socket.
 *
 * The fake_* functions report failures through the test runner (they end
 * the test with a file:line diagnostic), so callers need not check them.
 * Every socket read or write gives up after two seconds, so a test that
 * waits for something that never comes fails instead of hanging.
 */
#ifndef FAKE_SERVER_H
#define FAKE_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "mock-inproc.h"

/* Major opcodes the fake server assigns; any free value above 127 would do,
 * and distinct ones catch a request sent with the other extension's. */
#define FAKE_DRI3_MAJOR 140
#define FAKE_PRESENT_MAJOR 141

/* Fixed ids of the setup's single screen, and its maximum-request-length
 * in 4-byte words (16 KiB): the setup of mock-inproc.h. */
#define FAKE_ROOT MOCK_INPROC_ROOT
#define FAKE_COLORMAP MOCK_INPROC_COLORMAP
#define FAKE_VISUAL MOCK_INPROC_VISUAL
#define FAKE_MAX_REQUEST_WORDS MOCK_INPROC_MAX_REQUEST_WORDS

/* The most fds one fake_read_request() accepts (libxcb passes at most 16 in
 * one write, and DRI3 requests carry at most 4). */
#define FAKE_MAX_FDS 32

typedef struct fake_server fake_server_t;

/*
 * Connects a new libxcb connection to a new fake server, and makes DRI3 and
 * Present known to it: the QueryExtension requests for them are sequence
 * numbers 1 and 2, so the test's first request is number 3.  A helper
 * thread serves the connection handshake and is gone when this returns.
 * Skips the test on a big-endian host, where the byte-exact expectations,
 * written little-endian, do not apply.
 */
fake_server_t *fake_start(xcb_connection_t **c);

/*
 * Reads one whole request into buf (BIG-REQUESTS form included) and returns
 * its size in bytes.  The fds that arrived with its bytes are stored in fds
 * (room for FAKE_MAX_FDS; the caller owns and closes them) and counted in
 * *nfds; pass fds == NULL (nfds may then be NULL too) to require that none
 * came.  libxcb attaches all the
 * fds of one flush to its first byte, so flush after each fd-carrying request
 * when the fds of several requests must be told apart.
 */
size_t fake_read_request(fake_server_t *srv, uint8_t *buf, size_t cap, int *fds, int *nfds);

/* Reads the client's QueryExtension request (core opcode 98) for name and
 * answers that the extension is present with the given major opcode.  For
 * a test's own extensions beyond DRI3 and Present (BIG-REQUESTS, say). */
void fake_answer_query_extension(fake_server_t *srv, const char *name, uint8_t major);

/* Writes len bytes to the client, with nfds fds (SCM_RIGHTS) attached to the
 * first byte.  The caller keeps its fds: sendmsg passes copies. */
void fake_write(fake_server_t *srv, const void *bytes, size_t len, const int *fds, int nfds);

/* Sequence number of the last request read (what a real server would put in
 * its reply to it). */
uint32_t fake_seq(const fake_server_t *srv);

/* Bytes the client has sent that fake_read_request() has not consumed. */
size_t fake_pending(fake_server_t *srv);

/* Shuts the server's end down, as a crashed server would: libxcb sees the
 * connection break at its next read or write.  fake_stop() then skips its
 * checks. */
void fake_hangup(fake_server_t *srv);

/*
 * Checks that the test consumed everything: no unread request bytes, no
 * unread event or error in libxcb's queue, no connection error.  Then
 * disconnects the client and closes the server end.
 */
void fake_stop(fake_server_t *srv);

#endif
