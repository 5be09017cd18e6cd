/* The X11 connection handshake: the client's setup request, and either a
 * failure reply with a reason or the description of our one screen.
 * Layouts from the core protocol (xproto.xml: Setup, Screen, Depth,
 * VisualType, Format). */
#include "mock-internal.h"

#include <string.h>

#define VENDOR "xcb-dri3-present mock"
/* Authorization names and data are a few dozen bytes; anything this long
 * is garbage, and waiting for it would hang the client. */
#define MAX_AUTH_BYTES 1024
#define TRUE_COLOR 4
#define DEFAULT_COLORMAP 0x20

static size_t pad4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

/* Byte 0 = 0, the reason's length, protocol 11.0, the length of what
 * follows in words, the reason.  In the client's byte order, even for
 * the order we refuse, so that it can read why. */
static void send_failure(struct mock_client *c, bool msb_first, const char *reason)
{
    size_t len = strlen(reason);
    uint8_t buf[8 + 128] = { 0, (uint8_t)len };
    size_t words = pad4(len) / 4;

    if (msb_first) {
        buf[3] = 11;
        buf[7] = (uint8_t)words;
    } else {
        mock_put16(buf + 2, 11);
        mock_put16(buf + 6, (uint16_t)words);
    }
    memcpy(buf + 8, reason, len);
    mock_queue_bytes(c, buf, 8 + pad4(len));
    mock_info(c->server, "client %d: setup refused: %s", c->index, reason);
}

/* A TrueColor visual's channels. */
struct visual_masks {
    uint32_t red, green, blue;
    uint8_t bits_per_rgb;
};

/* 8 bits a channel in X's usual order, and 10 bits a channel in the order
 * some GPUs scan out (red in the low bits: XBGR2101010), which a client
 * can tell from the other only by the masks. */
static const struct visual_masks rgb888 = { 0xff0000, 0x00ff00, 0x0000ff, 8 };
static const struct visual_masks bgr101010 = { 0x3ff, 0xffc00, 0x3ff00000, 10 };

/* A DEPTH with at most one TrueColor visual; returns the bytes written. */
static size_t put_depth(uint8_t *p, uint8_t depth, uint32_t visual,
                        const struct visual_masks *m)
{
    memset(p, 0, 8);
    p[0] = depth;
    if (!visual)
        return 8;
    mock_put16(p + 2, 1);
    p += 8;
    memset(p, 0, 24);
    mock_put32(p, visual);
    p[4] = TRUE_COLOR;
    p[5] = m->bits_per_rgb;
    mock_put16(p + 6, (uint16_t)(1u << m->bits_per_rgb));   /* colormap entries */
    mock_put32(p + 8, m->red);
    mock_put32(p + 12, m->green);
    mock_put32(p + 16, m->blue);
    return 8 + 24;
}

static void send_success(struct mock_client *c)
{
    struct mock_server_state *s = c->server;
    static const uint8_t formats[][2] = { { 1, 1 }, { 24, 32 }, { 32, 32 }, { 30, 32 } };
    uint8_t buf[320];
    uint8_t *p = buf + 40;
    size_t vendor_len = strlen(VENDOR);

    memset(buf, 0, sizeof buf);
    buf[0] = 1;
    mock_put16(buf + 2, 11);
    mock_put32(buf + 8, 1);                     /* release number */
    mock_put32(buf + 12, c->id_base);
    mock_put32(buf + 16, c->id_mask);
    mock_put16(buf + 24, (uint16_t)vendor_len);
    mock_put16(buf + 26, 65535);                /* maximum request length */
    buf[28] = 1;                                /* screens */
    buf[29] = (uint8_t)(sizeof formats / sizeof formats[0]); /* pixmap formats */
    buf[30] = 0;                                /* image byte order: LSB first */
    buf[31] = 0;                                /* bitmap bit order: LSB first */
    buf[32] = 32;                               /* bitmap scanline unit */
    buf[33] = 32;                               /* bitmap scanline pad */
    buf[34] = 8;                                /* min keycode */
    buf[35] = 255;                              /* max keycode */
    memcpy(p, VENDOR, vendor_len);
    p += pad4(vendor_len);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++, p += 8) {
        p[0] = formats[i][0];
        p[1] = formats[i][1];
        p[2] = 32;                              /* scanline pad */
    }

    mock_put32(p, s->root);
    mock_put32(p + 4, DEFAULT_COLORMAP);
    mock_put32(p + 8, 0xffffff);                /* white pixel */
    mock_put32(p + 12, 0);                      /* black pixel */
    mock_put16(p + 20, (uint16_t)s->cfg->screen_width);
    mock_put16(p + 22, (uint16_t)s->cfg->screen_height);
    /* millimetres at 96 dpi */
    mock_put16(p + 24, (uint16_t)(s->cfg->screen_width * 254 / 960));
    mock_put16(p + 26, (uint16_t)(s->cfg->screen_height * 254 / 960));
    mock_put16(p + 28, 1);                      /* min installed maps */
    mock_put16(p + 30, 1);                      /* max installed maps */
    mock_put32(p + 32, s->root_visual);
    p[38] = 24;                                 /* root depth */
    p[39] = 4;                                  /* allowed depths */
    p += 40;
    p += put_depth(p, 24, s->root_visual, &rgb888);
    p += put_depth(p, 32, s->argb_visual, &rgb888);
    p += put_depth(p, 1, 0, NULL);
    p += put_depth(p, 30, s->bgr30_visual, &bgr101010);

    mock_put16(buf + 6, (uint16_t)((size_t)(p - buf - 8) / 4));
    mock_queue_bytes(c, buf, (size_t)(p - buf));
}

long mock_setup_handle(struct mock_client *c)
{
    const uint8_t *in = c->in;
    size_t name_len, data_len, total;

    if (c->in_len < 12)
        return 0;
    if (in[0] == 'B') {
        send_failure(c, true, "mock supports LSB-first only");
        return -1;
    }
    if (in[0] != 'l') {
        send_failure(c, false, "bad byte order byte");
        return -1;
    }
    if (mock_get16(in + 2) != 11) {
        send_failure(c, false, "mock supports protocol 11.0 only");
        return -1;
    }
    name_len = mock_get16(in + 6);
    data_len = mock_get16(in + 8);
    if (name_len > MAX_AUTH_BYTES || data_len > MAX_AUTH_BYTES) {
        send_failure(c, false, "authorization name or data too long");
        return -1;
    }
    total = 12 + pad4(name_len) + pad4(data_len);
    if (c->in_len < total)
        return 0;
    /* Any authorization is accepted: the socket lives in a private
     * directory, and the mock has nothing to protect. */
    send_success(c);
    mock_info(c->server, "client %d: setup done", c->index);
    return (long)total;
}
