/* The scripted X server for Xlib; see fuzz-xserver.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-xserver.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Display numbers far above what X servers use; the first free one wins. */
enum { FIRST_DISPLAY = 47000, DISPLAYS_TRIED = 2000 };

enum { X_GetProperty = 20, X_GetInputFocus = 43, X_QueryExtension = 98, X_Reply = 1,
       X_GenericEvent = 35 };

static int listener = -1;
static char display_name[32];
static uint8_t *setup_reply;
static size_t setup_len;

/* libxcb (1.15) on Linux tries the abstract name of display :N first. */
static int bind_display(int n)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    int len = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "/tmp/.X11-unix/X%d", n);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
                                                     1 + (size_t)len)) < 0 ||
        listen(fd, 4) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The setup reply fuzz-conn.c's server gives libxcb, as libxcb kept it. */
static bool capture_setup(void)
{
    struct fuzz_conn fc;
    if (!fuzz_conn_open(&fc))
        return false;
    const xcb_setup_t *setup = xcb_get_setup(fc.c);
    setup_len = 8 + 4 * (size_t)setup->length;
    setup_reply = malloc(setup_len);
    if (setup_reply)
        memcpy(setup_reply, setup, setup_len);
    fuzz_conn_close(&fc);
    return setup_reply != NULL;
}

const char *fuzz_xserver_listen(void)
{
    if (listener >= 0)
        return display_name;
    /* No cookie file to read for each connection. */
    setenv("XAUTHORITY", "/dev/null", 1);
    if (!capture_setup())
        return NULL;
    int start = FIRST_DISPLAY + (int)(getpid() % DISPLAYS_TRIED);
    for (int i = 0; i < DISPLAYS_TRIED && listener < 0; i++) {
        int n = FIRST_DISPLAY + (start - FIRST_DISPLAY + i) % DISPLAYS_TRIED;
        listener = bind_display(n);
        if (listener >= 0)
            snprintf(display_name, sizeof(display_name), ":%d", n);
    }
    return listener >= 0 ? display_name : NULL;
}

/* ---- the connection ------------------------------------------------------ */

/* 1: read; 0: end-of-file or an error; -1: the client was silent too long. */
static int read_exact(int fd, uint8_t *b, size_t n)
{
    while (n > 0) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int r = poll(&p, 1, FUZZ_XSERVER_TIMEOUT_MS);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return -1;
        ssize_t got = recv(fd, b, n, 0);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            return 0;
        b += got;
        n -= (size_t)got;
    }
    return 1;
}

static void send_bytes(int fd, const uint8_t *b, size_t n)
{
    struct fuzz_conn out = { .server = fd };
    struct fuzz_stream s = { .bytes = (uint8_t *)b, .len = n };
    fuzz_conn_send(&out, &s, 0, false);
}

static void put16(uint8_t *b, size_t off, uint16_t v)
{
    memcpy(b + off, &v, sizeof(v));
}

static uint16_t get16(const uint8_t *b, size_t off)
{
    uint16_t v;
    memcpy(&v, b + off, sizeof(v));
    return v;
}

static size_t pad4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

/* A 32-byte reply with no data after it; the caller fills the rest. */
static void reply_head(uint8_t *r, uint16_t seq)
{
    memset(r, 0, 32);
    r[0] = X_Reply;
    put16(r, 2, seq);
}

static void answer_query_extension(const struct fuzz_xserver *s, int fd, uint16_t seq,
                                   const uint8_t *req, size_t len)
{
    uint8_t r[32];
    size_t n = get16(req, 4);
    reply_head(r, seq);
    if (s->present && 8 + n <= len && n == 7 && memcmp(req + 8, "Present", 7) == 0) {
        r[8] = 1;
        r[9] = s->major;
        r[10] = s->first_event;
        r[11] = s->first_error;
    }
    send_bytes(fd, r, sizeof(r));
}

/* Everything becomes an error, a reply or a Generic Event with the
 * trigger's sequence number, and Generic Events Present's when asked. */
struct patch_ctx {
    const struct fuzz_xserver *s;
    uint16_t seq;
    bool replies_too;       /* turn replies into events as well */
};

static void patch_packet(uint8_t *p, size_t len, void *data)
{
    const struct patch_ctx *ctx = data;
    (void)len;
    bool keep = p[0] == 0 || (p[0] == X_Reply && !ctx->replies_too) ||
                (p[0] & 0x7f) == X_GenericEvent;
    if (!keep) {
        /* A reply keeps its length; anything else was framed as 32 bytes,
         * and the event must say so. */
        if (p[0] != X_Reply)
            memset(p + 4, 0, 4);
        p[0] = (uint8_t)((p[0] & 0x80) | X_GenericEvent);
    }
    if ((p[0] & 0x7f) == X_GenericEvent && ctx->s->present_events)
        p[1] = ctx->s->major;
    put16(p, 2, ctx->seq);
}

/* Writes the fuzzed stream (with its fds), and for a GetInputFocus its
 * reply after it, then end-of-file. */
static void send_stream(struct fuzz_xserver *s, uint16_t seq, bool replies_too,
                        int focus_seq)
{
    struct patch_ctx ctx = { s, seq, replies_too };
    struct fuzz_stream st;
    fuzz_stream_build(&st, s->input, s->input_len, seq, true, s->truncate, patch_packet, &ctx);
    fuzz_conn_send(&s->fc, &st, s->nfds, false);
    fuzz_stream_free(&st);
    if (focus_seq >= 0 && !s->truncate) {
        uint8_t r[32];
        reply_head(r, (uint16_t)focus_seq);
        send_bytes(s->fc.server, r, sizeof(r));
    }
    shutdown(s->fc.server, SHUT_WR);
    s->sent = true;
}

/* The handshake: the client's setup request (with any authorization),
 * then the setup reply. */
static int handshake(int fd)
{
    uint8_t req[12], skip[512];
    int r = read_exact(fd, req, sizeof(req));
    if (r <= 0)
        return r;
    size_t more = pad4(get16(req, 6)) + pad4(get16(req, 8));
    if (more > sizeof(skip))
        return 0;
    if (more > 0 && (r = read_exact(fd, skip, more)) <= 0)
        return r;
    send_bytes(fd, setup_reply, setup_len);
    return 1;
}

/* Serves requests until the client closes (1) or goes silent (-1). */
static int serve(struct fuzz_xserver *s)
{
    int fd = s->fc.server;
    uint16_t seq = 0, present_seq = 0;
    bool asked_present = false;
    static uint8_t req[4 * 65536];
    for (;;) {
        int r = read_exact(fd, req, 4);
        if (r <= 0)
            return r;
        size_t len = 4 * (size_t)get16(req, 2);
        if (len < 4)
            return 0;       /* BIG-REQUESTS was never enabled */
        if ((r = read_exact(fd, req + 4, len - 4)) <= 0)
            return r;
        seq++;
        if (s->sent)
            continue;       /* after end-of-file, only read */
        uint8_t rep[32];
        switch (req[0]) {
        case X_QueryExtension:
            answer_query_extension(s, fd, seq, req, len);
            asked_present |= len >= 15 && memcmp(req + 8, "Present", 7) == 0;
            break;
        case X_GetProperty:
            reply_head(rep, seq);
            send_bytes(fd, rep, sizeof(rep));
            break;
        case X_GetInputFocus:
            if (asked_present) {
                send_stream(s, present_seq ? present_seq : seq, true, seq);
            } else {
                reply_head(rep, seq);
                send_bytes(fd, rep, sizeof(rep));
            }
            break;
        default:
            if (!s->present || req[0] != s->major)
                break;
            present_seq = seq;
            /* QueryVersion and QueryCapabilities have replies. */
            if (req[1] == 0 || req[1] == 4)
                send_stream(s, seq, false, -1);
            break;
        }
    }
}

static void *server_thread(void *arg)
{
    struct fuzz_xserver *s = arg;
    struct pollfd p = { .fd = listener, .events = POLLIN };
    if (poll(&p, 1, FUZZ_XSERVER_TIMEOUT_MS) <= 0) {
        s->timed_out = true;
        return NULL;
    }
    s->fc.server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (s->fc.server < 0)
        return NULL;
    int r = handshake(s->fc.server);
    if (r > 0)
        r = serve(s);
    s->timed_out = r < 0;
    /* A client stuck waiting reads end-of-file and ends its wait. */
    if (r < 0)
        shutdown(s->fc.server, SHUT_RDWR);
    return NULL;
}

bool fuzz_xserver_start(struct fuzz_xserver *s)
{
    s->sent = false;
    s->timed_out = false;
    memset(&s->fc, 0, sizeof(s->fc));
    s->fc.server = -1;
    return listener >= 0 && pthread_create(&s->thread, NULL, server_thread, s) == 0;
}

void fuzz_xserver_join(struct fuzz_xserver *s)
{
    pthread_join(s->thread, NULL);
    if (s->fc.server >= 0)
        close(s->fc.server);
    s->fc.server = -1;
}
