/*
 * A scripted X server for Xlib, for the libXpresent fuzz target.
 *
 * Xlib opens displays by name only, so the server listens on an abstract
 * Unix socket named like display :N's (libxcb tries that name first) and
 * takes one client per input in a thread of the same process.  It answers
 * the handshake (with the setup reply of fuzz-conn.c's server, captured
 * once), the requests Xlib makes for itself (QueryExtension, GetProperty,
 * GetInputFocus), and Present's QueryExtension as the input says.  Then, at
 * the trigger, it writes the fuzzed stream and end-of-file:
 *
 *  - a Present request with a reply (QueryVersion, QueryCapabilities): the
 *    stream answers it, every packet carrying that request's sequence;
 *  - otherwise the next GetInputFocus (the harness's XSync): the stream
 *    (replies turned into Generic Events, sequence of the last Present
 *    request), then the GetInputFocus reply unless the stream is cut short.
 *
 * Packets other than errors, replies and Generic Events become Generic
 * Events: core events and stray sequence numbers test Xlib, not us, and
 * Xlib aborts on some of them by design.
 *
 * Every wait is bounded (FUZZ_XSERVER_TIMEOUT_MS); a server that waited
 * that long for its client says so in timed_out, which the harness counts
 * as a finding: the client was stuck on something the server never sends.
 */
#ifndef FUZZ_XSERVER_H
#define FUZZ_XSERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz-conn.h"

#define FUZZ_XSERVER_TIMEOUT_MS 5000

struct fuzz_xserver {
    /* What the input says. */
    bool present;                   /* QueryExtension("Present") says present */
    uint8_t major, first_event, first_error;
    bool present_events;            /* Generic Events get Present's major */
    const uint8_t *input;           /* the stream's bytes (fuzz_stream_build) */
    size_t input_len;
    bool truncate;
    unsigned int nfds;              /* fds sent with the stream */

    /* What happened. */
    bool sent;                      /* the stream went out */
    bool timed_out;
    struct fuzz_conn fc;            /* server: the accepted socket; nfds, inodes */

    pthread_t thread;
};

/* Once per process: binds the socket, captures the setup reply, points
 * XAUTHORITY away from the user's.  The display name, or NULL on failure. */
const char *fuzz_xserver_listen(void);

/* Starts the thread that takes the next client; false if it cannot. */
bool fuzz_xserver_start(struct fuzz_xserver *s);

/* Waits for the thread (bounded: it ends when the client closes or goes
 * silent) and closes the server's end. */
void fuzz_xserver_join(struct fuzz_xserver *s);

#endif
