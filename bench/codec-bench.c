/*
 * Per-call cost of every DRI3 and Present request encoder, reply decoder
 * and event decoder, built twice from this one file: against our
 * libraries (codec-bench) and against Debian's libxcb-dri3/libxcb-present
 * (codec-bench-ref). Run under callgrind (bench/codec-table.py does), each
 * operation runs N times between CALLGRIND_ZERO_STATS and
 * CALLGRIND_DUMP_STATS_AT(name), so each dump holds the instructions of N
 * calls; libxcb's core work (buffering, reading the socket) is included
 * and is the same code in both builds.
 *
 *     codec-bench            one round of every operation (for callgrind)
 *     codec-bench --cpu N    CPU time of N requests sent into the mock
 *                            server (NotifyMSC, with a round trip per 64 Ki)
 *     codec-bench --roundtrip N   CPU time per BuffersFromPixmap round trip
 *                            through the mock, 4 planes (4 fds back)
 *
 * The connection is the mock's in-process one (mock/mock-inproc.h): a
 * socketpair whose server end this program reads and writes between the
 * measured stretches, outside them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "mock-inproc.h"
#include "mock-server.h"

#define N 200               /* calls per measured stretch */
#define DRI3_MAJOR 140      /* the majors the connection gives the extensions */
#define PRESENT_MAJOR 141
#define MODS 4096           /* GetSupportedModifiers: modifiers per reply */

/* The client and the server's end of its socketpair (mock-inproc.h). */
static struct {
    xcb_connection_t *c;
    int server;
} fc = { NULL, -1 };
static int memfd;
static volatile uint64_t sink;

static void die(const char *what)
{
    fprintf(stderr, "codec-bench: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Reads and discards what the client sent, closing any fds that came. */
static void drain(void)
{
    char buf[65536];
    union {
        struct cmsghdr align;
        char b[CMSG_SPACE(sizeof(int) * 64)];
    } ctl;

    xcb_flush(fc.c);
    for (;;) {
        struct iovec iov = { buf, sizeof(buf) };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
                              .msg_controllen = sizeof(ctl.b) };
        ssize_t n = recvmsg(fc.server, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

        if (n <= 0)
            break;
        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
            int fds[64];
            size_t k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);

            memcpy(fds, CMSG_DATA(cm), k * sizeof(int));
            for (size_t i = 0; i < k; i++)
                close(fds[i]);
        }
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);   /* little-endian host (x86-64, the benchmark machine) */
}

/* Writes a reply with `nfd` fds (dups of one memfd) to the client. */
static void write_reply(uint16_t seq, uint8_t nfd, const uint8_t *body, size_t body_len)
{
    uint8_t buf[32 + 8 * MODS + 64] = { 1, nfd };
    size_t len = 32 > 8 + body_len ? 32 : 8 + body_len;
    int fds[4];
    union {
        struct cmsghdr align;
        char b[CMSG_SPACE(sizeof(int) * 4)];
    } ctl;
    struct iovec iov = { buf, (len + 3) & ~(size_t)3 };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    size_t done = 0;

    memcpy(buf + 2, &seq, 2);
    put32(buf + 4, (uint32_t)((iov.iov_len - 32) / 4));
    memcpy(buf + 8, body, body_len);
    if (nfd > 0) {
        struct cmsghdr *cm;

        for (int i = 0; i < nfd; i++)
            fds[i] = fcntl(memfd, F_DUPFD_CLOEXEC, 0);
        memset(&ctl, 0, sizeof(ctl));
        msg.msg_control = ctl.b;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfd);
        cm = CMSG_FIRSTHDR(&msg);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int) * nfd);
        memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfd);
    }
    while (done < iov.iov_len) {
        ssize_t n = sendmsg(fc.server, &msg, MSG_NOSIGNAL);

        if (n < 0)
            die("sendmsg");
        done += (size_t)n;
        iov.iov_base = buf + done;
        iov.iov_len -= (size_t)n;
        msg.msg_control = NULL;
        msg.msg_controllen = 0;
    }
    for (int i = 0; i < nfd; i++)
        close(fds[i]);
}

/* ------------------------------------------------------------ encoders */

static const xcb_present_notify_t notifies[2] = { { 0x400002, 1 }, { 0x400003, 2 } };

#define ENC(name, call)                                                     \
    static void enc_##name(int n)                                           \
    {                                                                       \
        for (int i = 0; i < n; i++)                                         \
            call;                                                           \
    }

ENC(dri3_query_version, xcb_dri3_query_version(fc.c, 1, 4))
ENC(dri3_open, xcb_dri3_open(fc.c, 0x123, 0))
ENC(dri3_pixmap_from_buffer,
    xcb_dri3_pixmap_from_buffer(fc.c, 0x200001, 0x123, 4096, 32, 32, 128, 24, 32,
                                fcntl(memfd, F_DUPFD_CLOEXEC, 0)))
ENC(dri3_buffer_from_pixmap, xcb_dri3_buffer_from_pixmap(fc.c, 0x200001))
ENC(dri3_fence_from_fd,
    xcb_dri3_fence_from_fd(fc.c, 0x123, 0x200002, 0, fcntl(memfd, F_DUPFD_CLOEXEC, 0)))
ENC(dri3_fd_from_fence, xcb_dri3_fd_from_fence(fc.c, 0x123, 0x200002))
ENC(dri3_get_supported_modifiers, xcb_dri3_get_supported_modifiers(fc.c, 0x123, 24, 32))
ENC(dri3_buffers_from_pixmap, xcb_dri3_buffers_from_pixmap(fc.c, 0x200001))
ENC(dri3_set_drm_device_in_use, xcb_dri3_set_drm_device_in_use(fc.c, 0x123, 226, 128))
ENC(present_query_version, xcb_present_query_version(fc.c, 1, 4))
ENC(present_pixmap,
    xcb_present_pixmap(fc.c, 0x400001, 0x200001, 7, 0, 0, 0, 0, 0, 0, 0, 0, 100, 1, 0,
                       2, notifies))
ENC(present_notify_msc, xcb_present_notify_msc(fc.c, 0x400001, 7, 100, 1, 0))
ENC(present_select_input, xcb_present_select_input(fc.c, 0x200010, 0x400001, 7))
ENC(present_query_capabilities, xcb_present_query_capabilities(fc.c, 0x123))

static void enc_dri3_pixmap_from_buffers(int n)
{
    for (int i = 0; i < n; i++) {
        int32_t fds[4];

        for (int k = 0; k < 4; k++)
            fds[k] = fcntl(memfd, F_DUPFD_CLOEXEC, 0);
        xcb_dri3_pixmap_from_buffers(fc.c, 0x200001, 0x400001, 4, 32, 32, 128, 0, 128, 4096,
                                     128, 8192, 128, 12288, 24, 32, 0, fds);
    }
}

#ifdef XCB_DRI3_IMPORT_SYNCOBJ
ENC(dri3_import_syncobj,
    xcb_dri3_import_syncobj(fc.c, 0x200003, 0x123, fcntl(memfd, F_DUPFD_CLOEXEC, 0)))
ENC(dri3_free_syncobj, xcb_dri3_free_syncobj(fc.c, 0x200003))
#endif
#ifdef XCB_PRESENT_PIXMAP_SYNCED
ENC(present_pixmap_synced,
    xcb_present_pixmap_synced(fc.c, 0x400001, 0x200001, 7, 0, 0, 0, 0, 0, 0x200003,
                              0x200003, 1, 2, 0, 100, 1, 0, 2, notifies))
#endif

/* ------------------------------------------------------------ decoders */

/* Each decoder bench first sends n requests and answers them (not
 * measured), then measures n calls of _reply() and every accessor. */
static unsigned int cookies[N];
static uint8_t body[8 * MODS + 64];
static size_t body_len;
static uint8_t body_nfd;

/* The decoder bench of request req (dri3_open): prep_ sends n with
 * `request` and answers them, dec_ takes each reply r and reads it with the
 * statements that follow (every accessor), then frees it. */
#define DEC(req, request, ...)                                              \
    static void prep_##req##_reply(int n)                                   \
    {                                                                       \
        for (int i = 0; i < n; i++)                                         \
            cookies[i] = request.sequence;                                  \
        drain();                                                            \
        for (int i = 0; i < n; i++)                                         \
            write_reply((uint16_t)cookies[i], body_nfd, body, body_len);    \
    }                                                                       \
    static void dec_##req##_reply(int n)                                    \
    {                                                                       \
        for (int i = 0; i < n; i++) {                                       \
            xcb_##req##_cookie_t ck = { cookies[i] };                       \
            xcb_##req##_reply_t *r = xcb_##req##_reply(fc.c, ck, NULL);     \
            __VA_ARGS__                                                     \
            free(r);                                                        \
        }                                                                   \
    }

static void close_all(const int *fds, int n)
{
    for (int i = 0; i < n; i++)
        close(fds[i]);
}

DEC(dri3_query_version, xcb_dri3_query_version(fc.c, 1, 4), sink += r->minor_version;)
DEC(dri3_open, xcb_dri3_open(fc.c, 0x123, 0),
    close_all(xcb_dri3_open_reply_fds(fc.c, r), r->nfd);)
DEC(dri3_buffer_from_pixmap, xcb_dri3_buffer_from_pixmap(fc.c, 0x200001),
    sink += r->stride;
    close_all(xcb_dri3_buffer_from_pixmap_reply_fds(fc.c, r), r->nfd);)
DEC(dri3_fd_from_fence, xcb_dri3_fd_from_fence(fc.c, 0x123, 0x200002),
    close_all(xcb_dri3_fd_from_fence_reply_fds(fc.c, r), r->nfd);)
DEC(dri3_get_supported_modifiers, xcb_dri3_get_supported_modifiers(fc.c, 0x123, 24, 32), {
    const uint64_t *w = xcb_dri3_get_supported_modifiers_window_modifiers(r);
    const uint64_t *s = xcb_dri3_get_supported_modifiers_screen_modifiers(r);
    int wn = xcb_dri3_get_supported_modifiers_window_modifiers_length(r);
    int sn = xcb_dri3_get_supported_modifiers_screen_modifiers_length(r);
    for (int k = 0; k < wn; k++)
        sink += w[k];
    for (int k = 0; k < sn; k++)
        sink += s[k];
})
DEC(dri3_buffers_from_pixmap, xcb_dri3_buffers_from_pixmap(fc.c, 0x200001), {
    const uint32_t *st = xcb_dri3_buffers_from_pixmap_strides(r);
    const uint32_t *of = xcb_dri3_buffers_from_pixmap_offsets(r);
    int n_st = xcb_dri3_buffers_from_pixmap_strides_length(r);
    int n_of = xcb_dri3_buffers_from_pixmap_offsets_length(r);
    for (int k = 0; k < n_st && k < n_of; k++)
        sink += st[k] + of[k];
    close_all(xcb_dri3_buffers_from_pixmap_reply_fds(fc.c, r), r->nfd);
})
DEC(present_query_version, xcb_present_query_version(fc.c, 1, 4), sink += r->minor_version;)
DEC(present_query_capabilities, xcb_present_query_capabilities(fc.c, 0x123),
    sink += r->capabilities;)

/* Events: n of one kind written (not measured), then n polled and decoded. */
static uint8_t event[32 + 72 + 16];
static size_t event_len;

static void prep_event(int n)
{
    /* Events carry the sequence number of the last request read. */
    uint16_t seq = (uint16_t)xcb_present_select_input(fc.c, 0x200010, 0x400001, 0).sequence;

    memcpy(event + 2, &seq, 2);
    drain();
    for (int i = 0; i < n; i++)
        if (write(fc.server, event, event_len) != (ssize_t)event_len)
            die("write");
}

static void dec_event(int n)
{
    for (int i = 0; i < n; i++) {
        xcb_generic_event_t *ev = xcb_poll_for_event(fc.c);
        const xcb_present_generic_event_t *ge = (const void *)ev;

        if (ge->evtype == XCB_PRESENT_REDIRECT_NOTIFY) {
            const xcb_present_redirect_notify_event_t *rn = (const void *)ev;
            xcb_present_notify_iterator_t it = xcb_present_redirect_notify_notifies_iterator(rn);

            for (; it.rem > 0; xcb_present_notify_next(&it))
                sink += it.data->serial;
        } else {
            sink += ge->event;
        }
        free(ev);
    }
}

static void make_event(uint16_t evtype, size_t len)
{
    memset(event, 0, sizeof(event));
    event[0] = 35;
    event[1] = PRESENT_MAJOR;
    put32(event + 4, (uint32_t)((len - 32) / 4));
    memcpy(event + 8, &evtype, 2);
    put32(event + 12, 0x200010);
    event_len = len;
    if (evtype == XCB_PRESENT_REDIRECT_NOTIFY) {
        put32(event + 104, 0x400002);       /* two notifies after the 104 bytes */
        put32(event + 108, 1);
        put32(event + 112, 0x400003);
        put32(event + 116, 2);
    }
}

/* ------------------------------------------------------------ driver */

/* Whether this is the measured round (the first one warms libxcb's
 * buffers and the dynamic linker's lookups up for both builds alike). */
static bool measuring;

/* The dump's name carries the count: "enc dri3_open /200". */
static void measure(const char *what, void (*prep)(int), void (*run)(int), int n)
{
    char name[128];

    snprintf(name, sizeof(name), "%s /%d", what, n);
    if (prep != NULL)
        prep(n);
    if (!measuring) {
        run(n);
        drain();
        return;
    }
    CALLGRIND_ZERO_STATS;
    run(n);
    CALLGRIND_DUMP_STATS_AT(name);
    drain();
    if (RUNNING_ON_VALGRIND == 0)
        printf("%s: ran %d\n", name, n);
}

#define E(name) measure("enc " #name, NULL, enc_##name, N)

static void set_body(uint8_t nfd, size_t len)
{
    memset(body, 0, sizeof(body));
    body_nfd = nfd;
    body_len = len;
}

static void decoders(void)
{
    set_body(0, 24);
    put32(body, 1);
    put32(body + 4, 4);
    measure("dec dri3_query_version", prep_dri3_query_version_reply,
            dec_dri3_query_version_reply, N);
    set_body(1, 24);
    measure("dec dri3_open", prep_dri3_open_reply, dec_dri3_open_reply, N);
    set_body(1, 24);
    measure("dec dri3_buffer_from_pixmap", prep_dri3_buffer_from_pixmap_reply,
            dec_dri3_buffer_from_pixmap_reply, N);
    set_body(1, 24);
    measure("dec dri3_fd_from_fence", prep_dri3_fd_from_fence_reply,
            dec_dri3_fd_from_fence_reply, N);
    set_body(0, 24 + 16);
    put32(body, 1);
    put32(body + 4, 1);
    measure("dec dri3_get_supported_modifiers", prep_dri3_get_supported_modifiers_reply,
            dec_dri3_get_supported_modifiers_reply, N);
    /* 4096 modifiers (32 KiB per reply): a few per stretch fit the socket. */
    set_body(0, 24 + 8 * MODS);
    put32(body, MODS / 2);
    put32(body + 4, MODS / 2);
    measure("dec dri3_get_supported_modifiers 4096", prep_dri3_get_supported_modifiers_reply,
            dec_dri3_get_supported_modifiers_reply, 4);
    /* BuffersFromPixmap, 4 planes: 4 fds per reply. */
    set_body(4, 24 + 32);
    put32(body, 32 | 32 << 16);
    body[16] = 24;
    body[17] = 32;
    for (int k = 0; k < 4; k++) {
        put32(body + 24 + 4 * k, 128);
        put32(body + 40 + 4 * k, 4096u * (uint32_t)k);
    }
    measure("dec dri3_buffers_from_pixmap 4 planes", prep_dri3_buffers_from_pixmap_reply,
            dec_dri3_buffers_from_pixmap_reply, 50);
    set_body(0, 24);
    put32(body, 1);
    put32(body + 4, 4);
    measure("dec present_query_version", prep_present_query_version_reply,
            dec_present_query_version_reply, N);
    set_body(0, 24);
    put32(body, 0x1f);
    measure("dec present_query_capabilities", prep_present_query_capabilities_reply,
            dec_present_query_capabilities_reply, N);
    make_event(XCB_PRESENT_CONFIGURE_NOTIFY, 40);
    measure("dec present_configure_notify", prep_event, dec_event, N);
    make_event(XCB_PRESENT_COMPLETE_NOTIFY, 40);
    measure("dec present_complete_notify", prep_event, dec_event, N);
    make_event(XCB_PRESENT_IDLE_NOTIFY, 32);
    measure("dec present_idle_notify", prep_event, dec_event, N);
    make_event(XCB_PRESENT_REDIRECT_NOTIFY, 104 + 16);
    measure("dec present_redirect_notify 2 notifies", prep_event, dec_event, N);
}

static void encoders(void)
{
    E(dri3_query_version);
    E(dri3_open);
    E(dri3_pixmap_from_buffer);
    E(dri3_buffer_from_pixmap);
    E(dri3_fence_from_fd);
    E(dri3_fd_from_fence);
    E(dri3_get_supported_modifiers);
    measure("enc dri3_pixmap_from_buffers", NULL, enc_dri3_pixmap_from_buffers, 50);
    E(dri3_buffers_from_pixmap);
    E(dri3_set_drm_device_in_use);
#ifdef XCB_DRI3_IMPORT_SYNCOBJ
    E(dri3_import_syncobj);
    E(dri3_free_syncobj);
#endif
    E(present_query_version);
    E(present_pixmap);
    E(present_notify_msc);
    E(present_select_input);
    E(present_query_capabilities);
#ifdef XCB_PRESENT_PIXMAP_SYNCED
    E(present_pixmap_synced);
#endif
}

/* Starts the mock X server (cfg NULL: its defaults) and connects to it, or
 * dies; *root is the screen's root window, and DRI3's version is set. */
static xcb_connection_t *start_mock(const struct mock_config *cfg, struct mock_server **srv,
                                    xcb_window_t *root)
{
    xcb_connection_t *c;

    *srv = mock_server_start(cfg);
    if (*srv == NULL)
        die("mock_server_start");
    c = mock_server_connect(*srv);
    if (xcb_connection_has_error(c))
        die("connecting to the mock");
    *root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    free(xcb_dri3_query_version_reply(c, xcb_dri3_query_version(c, 1, 4), NULL));
    return c;
}

/* CPU time (user + system, this process) for n NotifyMSC requests into
 * the mock X server, with a QueryVersion round trip every 64 Ki requests
 * so the mock keeps up. */
static int cpu_bench(long n)
{
    struct mock_server *srv;
    xcb_connection_t *c;
    struct timespec t0, t1;
    xcb_window_t root;

    c = start_mock(NULL, &srv, &root);
    free(xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 4), NULL));
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < n; i++) {
        xcb_present_notify_msc(c, root, (uint32_t)i, 0, 0, 0);
        if ((i & 0xffff) == 0xffff)
            free(xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 4), NULL));
    }
    free(xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 4), NULL));
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("cpu %ld requests: %.1f ms\n", n,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    if (xcb_poll_for_event(c) != NULL)
        fprintf(stderr, "codec-bench: the mock answered with an event or error\n");
    xcb_disconnect(c);
    mock_server_free(srv);
    return 0;
}

/* The client's CPU time per BuffersFromPixmap round trip through the mock
 * (the mock runs in another process), for a pixmap of 4 planes: request
 * out, reply and 4 fds back, fds closed. */
static int roundtrip_bench(long n)
{
    struct mock_config *cfg = mock_config_new();
    struct mock_server *srv;
    xcb_connection_t *c;
    struct timespec t0, t1;
    xcb_window_t root;
    xcb_pixmap_t pixmap;
    int32_t fds[4];
    xcb_generic_error_t *err;

    /* A 4-plane buffer needs an explicit modifier the server lists. */
    if (cfg == NULL || mock_config_set(cfg, "modifiers-screen", "0x0100000000000001") != 0)
        die("mock_config_set");
    c = start_mock(cfg, &srv, &root);
    pixmap = xcb_generate_id(c);
    for (int k = 0; k < 4; k++) {
        fds[k] = memfd_create("plane", MFD_CLOEXEC);
        if (fds[k] < 0 || ftruncate(fds[k], 64 * 256) < 0)
            die("memfd");
    }
    err = xcb_request_check(c, xcb_dri3_pixmap_from_buffers_checked(
        c, pixmap, root, 4, 64, 64, 256, 0, 256, 0, 256, 0, 256, 0, 24, 32,
        UINT64_C(0x0100000000000001), fds));
    if (err != NULL) {
        fprintf(stderr, "codec-bench: the mock refused PixmapFromBuffers (error %d)\n",
                err->error_code);
        return 1;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < n; i++) {
        xcb_dri3_buffers_from_pixmap_reply_t *r = xcb_dri3_buffers_from_pixmap_reply(
            c, xcb_dri3_buffers_from_pixmap(c, pixmap), NULL);

        if (r == NULL || r->nfd != 4)
            die("BuffersFromPixmap");
        close_all(xcb_dri3_buffers_from_pixmap_reply_fds(c, r), r->nfd);
        free(r);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("roundtrip %ld: %.2f us each\n", n,
           ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3 /
               (double)n);
    xcb_disconnect(c);
    mock_server_free(srv);
    mock_config_free(cfg);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--cpu") == 0)
        return cpu_bench(atol(argv[2]));
    if (argc == 3 && strcmp(argv[1], "--roundtrip") == 0)
        return roundtrip_bench(atol(argv[2]));
    memfd = memfd_create("codec-bench", MFD_CLOEXEC);
    if (memfd < 0)
        die("memfd_create");
    {
        const char *error = NULL;

        fc.c = mock_inproc_connect(&fc.server, NULL, &error);
        if (!fc.c ||
            mock_inproc_know_extensions(fc.c, fc.server, DRI3_MAJOR, PRESENT_MAJOR) < 0) {
            fprintf(stderr, "codec-bench: connect: %s\n", error ? error : "extensions");
            return 1;
        }
    }
    encoders();
    decoders();
    measuring = true;
    encoders();
    decoders();
    xcb_disconnect(fc.c);
    close(fc.server);
    close(memfd);
    return 0;
}
