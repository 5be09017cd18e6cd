/*
 * The in-process handshake of mock-inproc.h.
 */
#include "mock-inproc.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define IO_TIMEOUT_MS 2000

static size_t put8(uint8_t *p, uint8_t v)
{
    p[0] = v;
    return 1;
}

static size_t put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    return 2;
}

static size_t put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
    return 4;
}

/* Little-endian, as the client's 'l' asks. */
size_t mock_inproc_setup_reply(uint8_t b[MOCK_INPROC_SETUP_MAX])
{
    size_t n = 0;

    memset(b, 0, MOCK_INPROC_SETUP_MAX);
    n += put8(b + n, 1);                    /* Success */
    n += 1;
    n += put16(b + n, 11);                  /* protocol 11.0 */
    n += put16(b + n, 0);
    n += 2;                                 /* length, below */
    n += put32(b + n, 12101004);            /* release-number */
    n += put32(b + n, 0x00200000);          /* resource-id-base */
    n += put32(b + n, 0x001fffff);          /* resource-id-mask */
    n += put32(b + n, 256);                 /* motion-buffer-size */
    n += put16(b + n, 4);                   /* length of vendor */
    n += put16(b + n, MOCK_INPROC_MAX_REQUEST_WORDS);
    n += put8(b + n, 1);                    /* SCREENs */
    n += put8(b + n, 1);                    /* FORMATs */
    n += 2;                                 /* LSBFirst, LeastSignificant */
    n += put8(b + n, 32);                   /* bitmap scanline unit and pad */
    n += put8(b + n, 32);
    n += put8(b + n, 8);                    /* keycodes 8..255 */
    n += put8(b + n, 255);
    n += 4;
    memcpy(b + n, "mock", 4);               /* vendor: 4 bytes, no padding */
    n += 4;
    n += put8(b + n, 24);                   /* FORMAT: depth 24, 32 bpp, pad 32 */
    n += put8(b + n, 32);
    n += put8(b + n, 32);
    n += 5;
    n += put32(b + n, MOCK_INPROC_ROOT);    /* SCREEN */
    n += put32(b + n, MOCK_INPROC_COLORMAP);
    n += put32(b + n, 0x00ffffff);          /* white, black */
    n += put32(b + n, 0);
    n += put32(b + n, 0);                   /* current input masks */
    n += put16(b + n, 1920);                /* pixels, millimetres */
    n += put16(b + n, 1080);
    n += put16(b + n, 508);
    n += put16(b + n, 286);
    n += put16(b + n, 1);                   /* installed maps */
    n += put16(b + n, 1);
    n += put32(b + n, MOCK_INPROC_VISUAL);  /* root visual */
    n += 2;                                 /* backing stores, save unders */
    n += put8(b + n, 24);                   /* root depth */
    n += put8(b + n, 1);                    /* DEPTHs */
    n += put8(b + n, 24);                   /* DEPTH 24 */
    n += 1;
    n += put16(b + n, 1);                   /* VISUALTYPEs */
    n += 4;
    n += put32(b + n, MOCK_INPROC_VISUAL);  /* VISUALTYPE */
    n += put8(b + n, 4);                    /* TrueColor */
    n += put8(b + n, 8);                    /* bits per RGB value */
    n += put16(b + n, 256);                 /* colormap entries */
    n += put32(b + n, 0x00ff0000);
    n += put32(b + n, 0x0000ff00);
    n += put32(b + n, 0x000000ff);
    n += 4;
    put16(b + 6, (uint16_t)((n - 8) / 4));  /* in words, after the first 8 bytes */
    return n;
}

struct handshake {
    int fd;
    uint8_t request[MOCK_INPROC_REQUEST_SIZE];
    const char *error;          /* NULL when it went through */
};

static bool ready(int fd, short events)
{
    struct pollfd p = { .fd = fd, .events = events };
    int n;

    do
        n = poll(&p, 1, IO_TIMEOUT_MS);
    while (n < 0 && errno == EINTR);
    return n > 0;
}

bool mock_inproc_write(int fd, const void *bytes, size_t len)
{
    const uint8_t *b = bytes;

    while (len > 0) {
        ssize_t n;

        if (!ready(fd, POLLOUT))
            return false;
        n = send(fd, b, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return false;
        b += n;
        len -= (size_t)n;
    }
    return true;
}

/* libxcb reads while it writes its setup request and would take a setup
 * reply written ahead for packets, so the answer comes from a thread once
 * the 12-byte request has arrived. */
static void *answer(void *arg)
{
    struct handshake *h = arg;
    uint8_t setup[MOCK_INPROC_SETUP_MAX];
    size_t got = 0, len;

    while (got < sizeof h->request) {
        ssize_t n;

        if (!ready(h->fd, POLLIN)) {
            h->error = "timed out waiting for the setup request";
            return NULL;
        }
        n = recv(h->fd, h->request + got, sizeof h->request - got, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0) {
            h->error = "could not read the setup request";
            return NULL;
        }
        got += (size_t)n;
    }
    len = mock_inproc_setup_reply(setup);
    if (!mock_inproc_write(h->fd, setup, len))
        h->error = "could not write the setup reply";
    return NULL;
}

xcb_connection_t *mock_inproc_connect(int *server_fd,
                                      uint8_t request[MOCK_INPROC_REQUEST_SIZE],
                                      const char **error)
{
    struct handshake h = { .fd = -1 };
    xcb_connection_t *c;
    pthread_t thread;
    int sv[2];

    *server_fd = -1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        *error = "socketpair failed";
        return NULL;
    }
    h.fd = sv[1];
    if (pthread_create(&thread, NULL, answer, &h) != 0) {
        close(sv[0]);
        close(sv[1]);
        *error = "pthread_create failed";
        return NULL;
    }
    c = xcb_connect_to_fd(sv[0], NULL);     /* owns sv[0] from here */
    pthread_join(thread, NULL);
    if (!h.error && xcb_connection_has_error(c))
        h.error = "libxcb refused the setup reply";
    if (h.error) {
        xcb_disconnect(c);
        close(sv[1]);
        *error = h.error;
        return NULL;
    }
    if (request)
        memcpy(request, h.request, sizeof h.request);
    *server_fd = sv[1];
    return c;
}

int mock_inproc_know_extensions(xcb_connection_t *c, int server_fd, uint8_t dri3_major,
                                uint8_t present_major)
{
    extern xcb_extension_t xcb_dri3_id, xcb_present_id;
    uint8_t replies[64] = { 0 };

    xcb_prefetch_extension_data(c, &xcb_dri3_id);
    xcb_prefetch_extension_data(c, &xcb_present_id);
    for (int i = 0; i < 2; i++) {
        uint8_t *r = replies + 32 * i;

        r[0] = 1;                           /* a reply ... */
        put16(r + 2, (uint16_t)(i + 1));    /* ... to sequence 1 or 2 */
        r[8] = 1;                           /* present */
        r[9] = i == 0 ? dri3_major : present_major;
    }
    if (!mock_inproc_write(server_fd, replies, sizeof replies) ||
        xcb_get_extension_data(c, &xcb_dri3_id) == NULL ||
        xcb_get_extension_data(c, &xcb_present_id) == NULL || xcb_connection_has_error(c))
        return -1;
    return 0;
}
