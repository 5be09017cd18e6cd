/* See png-write.h.  The image data is a zlib stream of stored (type 0)
 * deflate blocks, which every PNG reader accepts. */
#include "png-write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;

        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
    while (n--)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return crc;
}

static void put32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static int chunk(FILE *f, const char *type, const uint8_t *data, size_t len)
{
    uint8_t head[8], tail[4];
    uint32_t crc;

    put32be(head, (uint32_t)len);
    memcpy(head + 4, type, 4);
    crc = crc_update(0xffffffffu, head + 4, 4);
    if (len)
        crc = crc_update(crc, data, len);
    crc ^= 0xffffffffu;
    put32be(tail, crc);
    return fwrite(head, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len) &&
           fwrite(tail, 1, 4, f) == 4 ? 0 : -1;
}

/* The raw scanlines (a filter byte 0, then RGB) wrapped as zlib with
 * stored blocks of at most 65535 bytes. */
static uint8_t *zlib_stored(const uint8_t *raw, size_t n, size_t *out_len)
{
    size_t blocks = n / 65535 + 1;
    uint8_t *out = malloc(2 + n + blocks * 5 + 4), *p = out;
    uint32_t a = 1, b = 0;

    if (!out)
        return NULL;
    *p++ = 0x78;
    *p++ = 0x01;
    size_t off = 0;

    do {
        size_t len = n - off > 65535 ? 65535 : n - off;

        *p++ = off + len == n ? 1 : 0;
        p[0] = (uint8_t)len;
        p[1] = (uint8_t)(len >> 8);
        p[2] = (uint8_t)~len;
        p[3] = (uint8_t)(~len >> 8);
        p += 4;
        memcpy(p, raw + off, len);
        p += len;
        off += len;
    } while (off < n);
    for (size_t i = 0; i < n; i++) {
        a = (a + raw[i]) % 65521;
        b = (b + a) % 65521;
    }
    put32be(p, b << 16 | a);
    p += 4;
    *out_len = (size_t)(p - out);
    return out;
}

int png_write_xrgb(const char *path, const uint32_t *pixels, uint32_t stride, uint32_t width,
                   uint32_t height)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    size_t row = 1 + (size_t)width * 3, n = row * height, zlen = 0;
    uint8_t ihdr[13] = { 0 }, *raw, *z;
    FILE *f;
    int r = -1;

    crc_init();
    raw = malloc(n ? n : 1);
    if (!raw)
        return -1;
    for (uint32_t y = 0; y < height; y++) {
        const uint32_t *src = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        uint8_t *dst = raw + y * row;

        *dst++ = 0;
        for (uint32_t x = 0; x < width; x++) {
            *dst++ = (uint8_t)(src[x] >> 16);
            *dst++ = (uint8_t)(src[x] >> 8);
            *dst++ = (uint8_t)src[x];
        }
    }
    z = zlib_stored(raw, n, &zlen);
    free(raw);
    if (!z)
        return -1;
    put32be(ihdr, width);
    put32be(ihdr + 4, height);
    ihdr[8] = 8;        /* bits per channel */
    ihdr[9] = 2;        /* RGB */
    f = fopen(path, "wbe");
    if (f) {
        r = fwrite(sig, 1, 8, f) == 8 && chunk(f, "IHDR", ihdr, 13) == 0 &&
            chunk(f, "IDAT", z, zlen) == 0 && chunk(f, "IEND", NULL, 0) == 0 ? 0 : -1;
        if (fclose(f) != 0)
            r = -1;
    }
    free(z);
    return r;
}
