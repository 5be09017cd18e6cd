/*
 * The scripted server's insides, shared by its two files:
 * fuzz-server.c (the thread, the socket, fds and the model of libxcb's fd
 * queue) and fuzz-server-answer.c (what to answer to each request).
 */
#ifndef FUZZ_SERVER_INT_H
#define FUZZ_SERVER_INT_H

#include <pthread.h>

#include "fuzz-server.h"

/* Major opcodes of the extensions the server may offer beyond the two that
 * fuzz_conn_open() answered. */
#define FSRV_SYNC_MAJOR 142
#define FSRV_XFIXES_MAJOR 143
#define FSRV_SHM_MAJOR 144
#define FSRV_BIGREQ_MAJOR 145

#define FSRV_MAX_SENT 512           /* fds sent per input, at most */
#define FSRV_MAX_RX 64              /* fds received and not yet claimed */
#define FSRV_MAX_FENCES 16          /* FenceFromFD pages the server maps */
#define FSRV_MAX_PACKET (256 * 1024)

struct fsrv_sent {
    dev_t dev;
    ino_t ino;
    bool attached;          /* libxcb gave it to a reply ... */
    bool first;             /* ... the first one to its request ... */
    uint64_t seq;           /* ... of this sequence number */
};

/* The answer being built for one request. */
struct fsrv_answer {
    uint8_t b[32 + 8 * 16];
    size_t len;             /* 0: the request has no reply */
    unsigned good_fds;      /* fds a good server sends with it */
    uint64_t good_size;     /* the size of those memfds */
    bool fd_reply;          /* libxcb attaches fds to this reply */
};

/* Where the reader is in the client's byte stream. */
enum fsrv_stage {
    FSRV_SETUP,             /* the 12-byte connection setup request */
    FSRV_HEAD,              /* a request's first 4 bytes */
    FSRV_BIGLEN,            /* ... and BIG-REQUESTS' length word */
    FSRV_BODY,              /* the rest, up to FSRV_MAX_PACKET */
    FSRV_DROP,              /* what is beyond that, read and dropped */
};

/* A packet written, or waiting for room in the socket (fuzz-server.c). */
struct fsrv_pkt;

struct fuzz_server {
    int fd;
    int client_fd;          /* the other end: libxcb's */
    const uint8_t *script;
    size_t len, pos;
    pthread_t client;       /* the thread that started the server */
    bool allow_drop;
    bool gone;              /* hung up, or the client did */
    bool shut;              /* ... and the socket is shut down */
    bool in_pump;           /* the server's own calls pass through */

    /* reading requests */
    enum fsrv_stage stage;
    uint8_t *req;           /* the request being read (FSRV_MAX_PACKET) */
    size_t got, want, drop, req_len;
    unsigned setup_replies; /* the QueryExtensions answered so far */
    uint8_t in[64 * 1024];  /* what came and is not read yet: the one
                             * field fuzz_server_start() does not clear */
    size_t in_lo, in_hi;
    bool client_wrote;      /* since the socket was last read empty */
    /* What the socket holds, counted on both sides: bytes written and not
     * yet read, each way. fuzz-vtime.c answers the client's polls and its
     * reads of an empty socket from them, without a system call, and the
     * server reads only when there is something. Once `uncounted` (the
     * client shut its end down, the server did, the kernel said otherwise
     * than the counts) every answer is the kernel's again. */
    size_t to_client, to_server;
    bool uncounted;
    bool nonblocking;       /* the client's end: O_NONBLOCK, seen once */
    int64_t now;            /* the clock at the start of the server's turn */
    uint64_t acts;          /* what the server did that a client's wait
                             * could see: bytes written or read, a shutdown,
                             * a fence triggered */
    int64_t waiting_since;  /* for the watchdog: the last answer, or the
                             * last bytes of a request cut short */

    /* packets not yet written */
    struct fsrv_pkt *out_head, **out_tail;

    /* an answer held back by a stall until `due` */
    bool stalled;
    int64_t due;
    struct fsrv_answer pend;
    int pend_act;

    /* protocol state */
    uint64_t seq;           /* of the request being answered */
    bool replied;           /* a reply to it has gone (for "first") */
    bool errored;           /* an error for it has gone (libxcb retires it) */
    bool bigreq;
    uint8_t majors[4];      /* what QueryExtension said of SYNC, XFIXES,
                             * MIT-SHM, BIG-REQUESTS (0: absent) */
    bool confused;          /* a request came that may want a reply the
                             * server cannot give (an opcode it does not
                             * know, a major it gave twice) */
    uint32_t eid, window, last_serial, last_pixmap;
    uint64_t msc, ust;
    uint16_t win_w, win_h;
    struct {
        uint32_t id;
        void *page;
    } fences[FSRV_MAX_FENCES];
    int rx[FSRV_MAX_RX];    /* fds that came with requests, in order */
    unsigned n_rx;

    /* libxcb's queue of received fds, as the server sent them */
    unsigned queue[FSRV_MAX_SENT];
    unsigned q_head, q_tail;
    bool model_ok;          /* false once the stream is beyond modelling */

    struct fuzz_server_report report;
    bool outstanding;       /* the current request's reply is owed */
};

/* A script byte; 0 once the script has run out. */
uint8_t fsrv_byte(struct fuzz_server *s);
/* Field values: kept when the script says 0, else one of the edge cases. */
uint64_t fsrv_pick(struct fuzz_server *s, uint64_t good, unsigned bits);

/* A packet to the client with nfds fds of script-chosen kinds (good_size:
 * the memfd size a good server would send). `fd_reply` says libxcb
 * attaches byte 1's count of queued fds to it (a reply to a request that
 * returns fds). Written at once where the socket has room, else as soon
 * as the client has read enough. Returns false once the connection is
 * gone. */
bool fsrv_send(struct fuzz_server *s, const uint8_t *p, size_t len, unsigned nfds,
               uint64_t good_size, bool fd_reply);
/* Hangs up: nothing more is read or answered; what was sent before is
 * still written, then the socket is shut down. */
void fsrv_hang_up(struct fuzz_server *s);
/* Takes the oldest fd that came with a request (-1 if none). */
int fsrv_take_rx(struct fuzz_server *s);

/* Answers one request (fuzz-server-answer.c). `req` holds it whole (it is
 * s->req, which stays as it is while a stall holds the answer back). */
void fsrv_answer(struct fuzz_server *s, const uint8_t *req, size_t len);
/* Goes on with the answer that a stall held back, once it is due. */
void fsrv_answer_resume(struct fuzz_server *s);
/* Unmaps the fence pages (fuzz-server-answer.c). */
void fsrv_fences_free(struct fuzz_server *s);

static inline void fsrv_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void fsrv_put32(uint8_t *p, uint32_t v)
{
    fsrv_put16(p, (uint16_t)v);
    fsrv_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void fsrv_put64(uint8_t *p, uint64_t v)
{
    fsrv_put32(p, (uint32_t)v);
    fsrv_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t fsrv_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t fsrv_get32(const uint8_t *p)
{
    return (uint32_t)fsrv_get16(p) | (uint32_t)fsrv_get16(p + 2) << 16;
}

static inline uint64_t fsrv_get64(const uint8_t *p)
{
    return (uint64_t)fsrv_get32(p) | (uint64_t)fsrv_get32(p + 4) << 32;
}

#endif
