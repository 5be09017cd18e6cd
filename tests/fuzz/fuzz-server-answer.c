/*
 * What the scripted server answers: the replies of every request the util
 * libraries make (core, DRI3, Present, SYNC, XFixes, MIT-SHM,
 * BIG-REQUESTS), laid out as the protocol says with each field open to the
 * script, the faults of the action byte, and Present's events.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-server-int.h"
#include "fuzz-vtime.h"

#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum action {
    ACT_NORMAL, ACT_ERROR, ACT_STALL, ACT_HANG_UP, ACT_RAW, ACT_CUT, ACT_TWICE, ACT_PAD,
    ACT_DROP,
};

static enum action pick_action(struct fuzz_server *s)
{
    static const enum action table[8] = {
        ACT_ERROR, ACT_STALL, ACT_HANG_UP, ACT_RAW, ACT_CUT, ACT_TWICE, ACT_PAD, ACT_DROP,
    };
    uint8_t b = fsrv_byte(s);

    return b < 0x80 ? ACT_NORMAL : table[b & 7];
}

static void reply_head(struct fuzz_server *s, struct fsrv_answer *a, uint8_t byte1,
                       unsigned extra_words)
{
    memset(a->b, 0, sizeof(a->b));
    a->b[0] = 1;
    a->b[1] = byte1;
    fsrv_put16(a->b + 2, (uint16_t)s->seq);
    fsrv_put32(a->b + 4, extra_words);
    a->len = 32 + 4 * (size_t)extra_words;
}

/* DRI3's and Present's QueryVersion reply: version 1.4 as a good server
 * gives it, unless the script picks another major and minor. */
static void reply_version_1_4(struct fuzz_server *s, struct fsrv_answer *a)
{
    reply_head(s, a, 0, 0);
    fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, 1, 32));
    fsrv_put32(a->b + 12, (uint32_t)fsrv_pick(s, 4, 32));
}

/* -------------------------------------------------------------- fences */

static void fence_map(struct fuzz_server *s, uint32_t id, int fd)
{
    struct stat st;

    for (unsigned i = 0; i < FSRV_MAX_FENCES; i++) {
        if (s->fences[i].page)
            continue;
        /* The X server maps what it is given; a page too small to hold
         * the futex word is refused here rather than faulting later. */
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 4) {
            void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

            if (p != MAP_FAILED) {
                s->fences[i].id = id;
                s->fences[i].page = p;
            }
        }
        return;
    }
}

static void fence_unmap(struct fuzz_server *s, unsigned i)
{
    munmap(s->fences[i].page, 4096);
    s->fences[i].page = NULL;
}

void fsrv_fences_free(struct fuzz_server *s)
{
    for (unsigned i = 0; i < FSRV_MAX_FENCES; i++)
        if (s->fences[i].page)
            fence_unmap(s, i);
}

/* As the X server does when the pixmap is idle: 1, and a wake-up. */
static void fence_trigger(struct fuzz_server *s, uint32_t id)
{
    for (unsigned i = 0; i < FSRV_MAX_FENCES; i++) {
        if (s->fences[i].page && s->fences[i].id == id) {
            atomic_int *w = s->fences[i].page;

            s->acts++;
            if (atomic_exchange(w, 1) != 1)
                syscall(SYS_futex, w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
        }
    }
}

/* -------------------------------------------------------------- events */

/* MSC and UST: a good server counts up by `step`; the script may send
 * them backwards, to 0, to the edge of wrapping, or anywhere. The server
 * carries on from what it sent. */
static uint64_t clock_value(struct fuzz_server *s, uint64_t *state, uint64_t step)
{
    uint8_t b = fsrv_byte(s);
    uint64_t v;

    if (b < 0xc0) {
        v = *state + step;
    } else {
        switch (b & 7) {
        case 0: v = 0; break;
        case 1: v = *state - (fsrv_byte(s) + 1u); break;
        case 2: v = UINT64_MAX - fsrv_byte(s); break;
        case 3: v = 1ull << 63; break;
        case 4: v = UINT64_MAX; break;
        case 5: v = *state; break;
        case 6: v = *state + (1ull << 32); break;
        default:
            v = 0;
            for (unsigned i = 0; i < 8; i++)
                v |= (uint64_t)fsrv_byte(s) << (8 * i);
            break;
        }
    }
    *state = v;
    return v;
}

/* Sends a Present Generic Event of `size` bytes, cut to 32 or padded
 * where the script says. */
static void send_event(struct fuzz_server *s, uint8_t *ev, size_t size, uint16_t evtype)
{
    uint8_t buf[40 + 4 * 8] = { 0 };
    uint8_t l = fsrv_byte(s);

    ev[0] = 35;
    ev[1] = FUZZ_PRESENT_MAJOR;
    fsrv_put16(ev + 2, (uint16_t)s->seq);
    fsrv_put16(ev + 8, evtype);
    if (l >= 0xe0 && (l & 1) == 0) {
        size = 32;                              /* cut short: length 0 */
    } else if (l >= 0xe0) {
        size_t extra = 4 * (1 + (l >> 1) % 8);  /* padded */

        for (size_t i = 0; i < extra; i++)
            ev[size + i] = fsrv_byte(s);
        size += extra;
    }
    fsrv_put32(ev + 4, (uint32_t)((size - 32) / 4));
    memcpy(buf, ev, size);
    fsrv_send(s, buf, size, 0, 0, false);
}

static void event_complete(struct fuzz_server *s, uint8_t kind, uint32_t serial)
{
    uint8_t ev[40 + 4 * 8] = { 0 };

    ev[10] = (uint8_t)fsrv_pick(s, kind, 8);
    ev[11] = (uint8_t)fsrv_pick(s, 0, 8);          /* mode: Copy */
    fsrv_put32(ev + 12, (uint32_t)fsrv_pick(s, s->eid, 32));
    fsrv_put32(ev + 16, (uint32_t)fsrv_pick(s, s->window, 32));
    fsrv_put32(ev + 20, (uint32_t)fsrv_pick(s, serial, 32));
    fsrv_put64(ev + 24, clock_value(s, &s->ust, 16667));
    fsrv_put64(ev + 32, clock_value(s, &s->msc, 1));
    send_event(s, ev, 40, 1);
}

static void event_idle(struct fuzz_server *s, uint32_t serial, uint32_t pixmap,
                       uint32_t fence)
{
    uint8_t ev[40 + 4 * 8] = { 0 };

    fsrv_put32(ev + 12, (uint32_t)fsrv_pick(s, s->eid, 32));
    fsrv_put32(ev + 16, (uint32_t)fsrv_pick(s, s->window, 32));
    fsrv_put32(ev + 20, (uint32_t)fsrv_pick(s, serial, 32));
    fsrv_put32(ev + 24, (uint32_t)fsrv_pick(s, pixmap, 32));
    fsrv_put32(ev + 28, (uint32_t)fsrv_pick(s, fence, 32));
    send_event(s, ev, 32, 2);
}

/* A window whose buffers would take between FSRV_FRAME_BYTES_MAX and
 * 1 GiB (the swapchain's own limit, above which it refuses the size) is
 * made shorter: the library takes every such size the same way, and a
 * PutImage swapchain sends its whole frame each time, so an input with a
 * 2559x65280 window moved 4 GB through the socket and ran for seconds,
 * too slow for the fuzzer, and past its time bound, without a finding.
 * Sizes no buffer may have (65535x65535) stay as they are, and the width
 * is kept (a row wider than a request is a path of its own). */
#define FSRV_FRAME_BYTES_MAX (4u << 20)

static void window_size(uint16_t *w, uint16_t *h)
{
    uint64_t bytes = (uint64_t)*w * *h * 4;

    if (bytes > FSRV_FRAME_BYTES_MAX && bytes <= (1ull << 30)) {
        uint32_t rows = FSRV_FRAME_BYTES_MAX / (4u * *w);

        *h = (uint16_t)(rows ? rows : 1);
    }
}

static void event_configure(struct fuzz_server *s)
{
    uint8_t ev[40 + 4 * 8] = { 0 };
    uint8_t b = fsrv_byte(s);
    uint16_t w = s->win_w, h = s->win_h;

    switch (b < 0xc0 ? 0 : b & 7) {
    case 1: w = h = 0; break;
    case 2: w = h = 65535; break;
    case 3: w = h = 1; break;
    case 4: w = (uint16_t)(w + 1); break;
    case 5: h = (uint16_t)(h + 1); break;
    case 6: w = (uint16_t)(w + 8); h = (uint16_t)(h + 8); break;
    case 7:
        w = (uint16_t)(fsrv_byte(s) | fsrv_byte(s) << 8);
        h = (uint16_t)(fsrv_byte(s) | fsrv_byte(s) << 8);
        break;
    default: break;
    }
    window_size(&w, &h);
    /* A good server's GetGeometry agrees from now on. */
    s->win_w = w;
    s->win_h = h;
    fsrv_put32(ev + 12, (uint32_t)fsrv_pick(s, s->eid, 32));
    fsrv_put32(ev + 16, (uint32_t)fsrv_pick(s, s->window, 32));
    fsrv_put16(ev + 20, (uint16_t)fsrv_pick(s, 0, 16));
    fsrv_put16(ev + 22, (uint16_t)fsrv_pick(s, 0, 16));
    fsrv_put16(ev + 24, w);
    fsrv_put16(ev + 26, h);
    fsrv_put16(ev + 28, (uint16_t)fsrv_pick(s, 0, 16));
    fsrv_put16(ev + 30, (uint16_t)fsrv_pick(s, 0, 16));
    fsrv_put16(ev + 32, (uint16_t)fsrv_pick(s, w, 16));
    fsrv_put16(ev + 34, (uint16_t)fsrv_pick(s, h, 16));
    fsrv_put32(ev + 36, (uint32_t)fsrv_pick(s, 0, 32));    /* 1: window destroyed */
    send_event(s, ev, 40, 0);
}

/* Events nobody asked for, after any answer. */
static void extra_events(struct fuzz_server *s)
{
    unsigned n = fsrv_byte(s) % 4;

    for (unsigned i = 0; i < n && !s->gone; i++) {
        uint8_t ev[40 + 4 * 8] = { 0 };
        uint8_t kind = fsrv_byte(s) % 6;

        switch (kind) {
        case 0: event_configure(s); break;
        case 1: event_complete(s, 0, s->last_serial); break;
        case 2: event_idle(s, s->last_serial, s->last_pixmap, 0); break;
        case 3: event_complete(s, 1, s->last_serial); break;
        case 4:     /* an event type Present does not have */
            fsrv_put32(ev + 12, (uint32_t)fsrv_pick(s, s->eid, 32));
            send_event(s, ev, 32, (uint16_t)fsrv_pick(s, 3, 16));
            break;
        default:    /* a core event (Expose) */
            ev[0] = 12;
            fsrv_put16(ev + 2, (uint16_t)s->seq);
            fsrv_put32(ev + 4, s->window);
            fsrv_send(s, ev, 32, 0, 0, false);
            break;
        }
    }
}

/* ------------------------------------------------------------- replies */

static const char *const ext_names[] = { "SYNC", "XFIXES", "MIT-SHM", "BIG-REQUESTS" };

static void query_extension(struct fuzz_server *s, const uint8_t *req, size_t len,
                            struct fsrv_answer *a)
{
    size_t n = len >= 8 ? fsrv_get16(req + 4) : 0;
    uint8_t major = 0;

    for (unsigned i = 0; i < 4; i++)
        if (8 + n <= len && strlen(ext_names[i]) == n && memcmp(req + 8, ext_names[i], n) == 0)
            major = (uint8_t)(FSRV_SYNC_MAJOR + i);
    reply_head(s, a, 0, 0);
    /* BIG-REQUESTS is off unless the script turns it on. */
    a->b[8] = (uint8_t)fsrv_pick(s, major && major != FSRV_BIGREQ_MAJOR, 8);
    a->b[9] = (uint8_t)fsrv_pick(s, major, 8);
    /* The server follows what it said: the client sends to that major. */
    if (major) {
        uint8_t said = a->b[8] ? a->b[9] : 0;

        s->majors[major - FSRV_SYNC_MAJOR] = said;
        for (unsigned i = 0; i < 4; i++)
            if (said && i != (unsigned)(major - FSRV_SYNC_MAJOR) && s->majors[i] == said)
                s->confused = true;
        if (a->b[8] && (said == FUZZ_DRI3_MAJOR || said == FUZZ_PRESENT_MAJOR || said < 128))
            s->confused = true;
    }
}

/* Core requests with a reply that no util library sends: the server has
 * no answer for them. */
static bool core_has_reply(uint8_t op)
{
    static const uint8_t ops[] = { 3, 15, 16, 17, 20, 21, 23, 26, 31, 38, 39, 40, 44, 47, 48,
                                   49, 50, 52, 73, 83, 84, 85, 86, 87, 91, 92, 97, 99, 101,
                                   103, 106, 108, 110, 116, 117, 118, 119 };

    for (size_t i = 0; i < sizeof(ops); i++)
        if (ops[i] == op)
            return true;
    return false;
}

static void core(struct fuzz_server *s, const uint8_t *req, size_t len, struct fsrv_answer *a)
{
    switch (req[0]) {
    case 14: {  /* GetGeometry */
        uint16_t w, h;

        reply_head(s, a, (uint8_t)fsrv_pick(s, 24, 8), 0);
        fsrv_put32(a->b + 8, 0x123);
        w = (uint16_t)fsrv_pick(s, s->win_w, 16);
        h = (uint16_t)fsrv_pick(s, s->win_h, 16);
        window_size(&w, &h);
        fsrv_put16(a->b + 16, w);
        fsrv_put16(a->b + 18, h);
        break;
    }
    case 43:    /* GetInputFocus */
        reply_head(s, a, 0, 0);
        fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, 0x123, 32));
        break;
    case 98:
        query_extension(s, req, len, a);
        break;
    default:
        if (core_has_reply(req[0]))
            s->confused = true;
        break;
    }
}

static void close_rx(struct fuzz_server *s, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        int fd = fsrv_take_rx(s);

        if (fd >= 0)
            close(fd);
    }
}

static void dri3(struct fuzz_server *s, const uint8_t *req, size_t len, struct fsrv_answer *a)
{
    uint32_t w, h, stride, n;

    switch (req[1]) {
    case 0:     /* QueryVersion */
        reply_version_1_4(s, a);
        break;
    case 1:     /* Open: a memfd, as the mock server gives */
        reply_head(s, a, (uint8_t)fsrv_pick(s, 1, 8), 0);
        a->good_fds = 1;
        a->fd_reply = true;
        break;
    case 3:     /* BufferFromPixmap */
        w = (uint32_t)fsrv_pick(s, 64, 16);
        h = (uint32_t)fsrv_pick(s, 48, 16);
        stride = (uint32_t)fsrv_pick(s, 256, 16);
        reply_head(s, a, (uint8_t)fsrv_pick(s, 1, 8), 0);
        fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, stride * h, 32));
        fsrv_put16(a->b + 12, (uint16_t)w);
        fsrv_put16(a->b + 14, (uint16_t)h);
        fsrv_put16(a->b + 16, (uint16_t)stride);
        a->b[18] = (uint8_t)fsrv_pick(s, 24, 8);
        a->b[19] = (uint8_t)fsrv_pick(s, 32, 8);
        a->good_fds = 1;
        a->good_size = (uint64_t)stride * h;
        a->fd_reply = true;
        break;
    case 5:     /* FDFromFence: a fresh, untriggered page */
        reply_head(s, a, (uint8_t)fsrv_pick(s, 1, 8), 0);
        a->good_fds = 1;
        a->good_size = 4096;
        a->fd_reply = true;
        break;
    case 6:     /* GetSupportedModifiers: LINEAR for both, counts open to
                 * disagree with the lists' length */
        n = 1 + fsrv_byte(s) % 8;
        reply_head(s, a, 0, 2 * n);
        fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, n / 2, 32));
        fsrv_put32(a->b + 12, (uint32_t)fsrv_pick(s, n - n / 2, 32));
        for (uint32_t i = 0; i < n; i++)
            fsrv_put64(a->b + 32 + 8 * i, fsrv_pick(s, 0, 64));
        break;
    case 8:     /* BuffersFromPixmap */
        n = (uint32_t)fsrv_pick(s, 1, 8) % 17;
        w = (uint32_t)fsrv_pick(s, 64, 16);
        h = (uint32_t)fsrv_pick(s, 48, 16);
        reply_head(s, a, (uint8_t)fsrv_pick(s, n, 8), 2 * n);
        fsrv_put16(a->b + 8, (uint16_t)w);
        fsrv_put16(a->b + 10, (uint16_t)h);
        fsrv_put64(a->b + 16, fsrv_pick(s, 0, 64));
        a->b[24] = (uint8_t)fsrv_pick(s, 24, 8);
        a->b[25] = (uint8_t)fsrv_pick(s, 32, 8);
        for (uint32_t i = 0; i < n; i++) {
            fsrv_put32(a->b + 32 + 4 * i, (uint32_t)fsrv_pick(s, 256, 32));
            fsrv_put32(a->b + 32 + 4 * n + 4 * i, (uint32_t)fsrv_pick(s, 0, 32));
        }
        a->good_fds = a->b[1];
        a->good_size = 256ull * h;
        a->fd_reply = true;
        break;
    case 2:     /* PixmapFromBuffer */
    case 10:    /* ImportSyncobj */
        close_rx(s, 1);
        break;
    case 4: {   /* FenceFromFD */
        int fd = fsrv_take_rx(s);

        if (fd >= 0 && len >= 12)
            fence_map(s, fsrv_get32(req + 8), fd);
        if (fd >= 0)
            close(fd);
        break;
    }
    case 7:     /* PixmapFromBuffers */
        close_rx(s, len > 12 ? req[12] : 0);
        break;
    default:
        break;
    }
}

/* What a good server sends after a Present request: completion, and the
 * pixmap back. */
static void present_events(struct fuzz_server *s, const uint8_t *req, size_t len)
{
    switch (req[1]) {
    case 1:     /* Pixmap */
    case 5:     /* PixmapSynced */
        if (len < 16)
            return;
        s->last_pixmap = fsrv_get32(req + 8);
        s->last_serial = fsrv_get32(req + 12);
        if (req[1] == 1 && len >= 40) {
            uint32_t fence = fsrv_get32(req + 36);

            /* A server that forgets the fence leaves the buffer busy. */
            if (fsrv_byte(s) < 0xf0)
                fence_trigger(s, fence);
            event_idle(s, s->last_serial, s->last_pixmap, fence);
        }
        event_complete(s, 0, s->last_serial);
        break;
    case 2:     /* NotifyMSC */
        if (len >= 12)
            event_complete(s, 1, fsrv_get32(req + 8));
        break;
    default:
        break;
    }
}

static void present(struct fuzz_server *s, const uint8_t *req, size_t len, struct fsrv_answer *a)
{
    switch (req[1]) {
    case 0:     /* QueryVersion */
        reply_version_1_4(s, a);
        break;
    case 3:     /* SelectInput */
        if (len >= 16 && fsrv_get32(req + 12) != 0) {
            s->eid = fsrv_get32(req + 4);
            s->window = fsrv_get32(req + 8);
        }
        break;
    case 4:     /* QueryCapabilities */
        reply_head(s, a, 0, 0);
        fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, 0, 32));
        break;
    default:
        break;
    }
}

static void other(struct fuzz_server *s, unsigned ext, const uint8_t *req, size_t len,
                  struct fsrv_answer *a)
{
    switch (FSRV_SYNC_MAJOR + ext) {
    case FSRV_SYNC_MAJOR:
        if (req[1] == 0) {          /* Initialize */
            reply_head(s, a, 0, 0);
            a->b[8] = (uint8_t)fsrv_pick(s, 3, 8);
            a->b[9] = (uint8_t)fsrv_pick(s, 1, 8);
        } else if (req[1] == 5 || req[1] == 10 || req[1] == 12 || req[1] == 18) {
            s->confused = true;     /* Query*, GetPriority: not ours */
        } else if (req[1] == 17 && len >= 8) {  /* DestroyFence */
            for (unsigned i = 0; i < FSRV_MAX_FENCES; i++)
                if (s->fences[i].page && s->fences[i].id == fsrv_get32(req + 4))
                    fence_unmap(s, i);
        }
        break;
    case FSRV_XFIXES_MAJOR:
        if (req[1] == 0 && len >= 12) {     /* QueryVersion: what was asked */
            reply_head(s, a, 0, 0);
            fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, fsrv_get32(req + 4), 32));
            fsrv_put32(a->b + 12, (uint32_t)fsrv_pick(s, fsrv_get32(req + 8), 32));
        } else if (req[1] > 18) {
            s->confused = true;     /* requests with replies, not ours */
        }
        break;
    case FSRV_SHM_MAJOR:
        if (req[1] == 0) {          /* QueryVersion */
            reply_head(s, a, (uint8_t)fsrv_pick(s, 1, 8), 0);
            fsrv_put16(a->b + 8, (uint16_t)fsrv_pick(s, 1, 16));
            fsrv_put16(a->b + 10, (uint16_t)fsrv_pick(s, 2, 16));
            a->b[16] = (uint8_t)fsrv_pick(s, 2, 8);    /* ZPixmap */
        } else if (req[1] == 6) {   /* AttachFd */
            close_rx(s, 1);
        } else if (req[1] == 4 || req[1] == 7) {
            s->confused = true;     /* GetImage, CreateSegment */
        }
        break;
    case FSRV_BIGREQ_MAJOR:
        if (req[1] == 0) {          /* Enable */
            reply_head(s, a, 0, 0);
            fsrv_put32(a->b + 8, (uint32_t)fsrv_pick(s, 0x3fffff, 32));
            s->bigreq = true;
        }
        break;
    default:
        break;
    }
}

static void send_error(struct fuzz_server *s, const uint8_t *req)
{
    static const uint8_t codes[8] = { 2, 3, 4, 8, 9, 11, 16, 17 };
    uint8_t e[32] = { 0 };
    uint8_t c = fsrv_byte(s);

    e[1] = c < 0xf8 ? codes[c % 8] : fsrv_byte(s);
    fsrv_put16(e + 2, (uint16_t)s->seq);
    fsrv_put32(e + 4, (uint32_t)fsrv_pick(s, 0, 32));
    fsrv_put16(e + 8, req[0] >= 128 ? req[1] : 0);
    e[10] = req[0];
    c = fsrv_byte(s);
    fsrv_send(s, e, 32, c ? (c - 1u) % 6 : 0, 4096, false);
}

/* The reply with its fds: byte 0 of the script's fd count means "what a
 * good server sends". */
static void send_reply(struct fuzz_server *s, const struct fsrv_answer *a, size_t len)
{
    uint8_t c = fsrv_byte(s);

    fsrv_send(s, a->b, len, c ? (c - 1u) % 6 : a->good_fds, a->good_size, a->fd_reply);
}

static void finish(struct fuzz_server *s, const uint8_t *req, size_t len, struct fsrv_answer *ap,
                   enum action act);

void fsrv_answer(struct fuzz_server *s, const uint8_t *req, size_t len)
{
    struct fsrv_answer a = { .len = 0 };
    enum action act = pick_action(s);
    unsigned ext;

    snprintf(s->report.last_request, sizeof(s->report.last_request), "%u %u", req[0],
             req[0] >= 128 ? req[1] : 0);
    for (ext = 0; ext < 4 && s->majors[ext] != req[0]; ext++)
        ;
    if (req[0] == FUZZ_DRI3_MAJOR)
        dri3(s, req, len, &a);
    else if (req[0] == FUZZ_PRESENT_MAJOR)
        present(s, req, len, &a);
    else if (req[0] != 0 && ext < 4)
        other(s, ext, req, len, &a);
    else if (req[0] < 128)
        core(s, req, len, &a);
    else
        s->confused = true;     /* an extension the server never offered */

    if (act == ACT_DROP && !(s->allow_drop && a.len))
        act = ACT_NORMAL;
    /* FUZZ_DEBUG=1: what the server saw and did, to read a finding by. */
    if (getenv("FUZZ_DEBUG"))
        fprintf(stderr, "server: seq %llu request %s, %zu bytes: action %d, reply %zu bytes\n",
                (unsigned long long)s->seq, s->report.last_request, len, (int)act, a.len);
    if (act == ACT_STALL) {
        unsigned ms = fsrv_byte(s) % (FUZZ_MAX_STALL_MS + 1);

        /* The rest waits until the clock comes to it (fuzz-vtime.h):
         * fuzz-server.c reads nothing more until then. */
        s->report.stall_ms += ms;
        s->stalled = true;
        s->due = s->now + (int64_t)ms * 1000000;
        s->pend = a;
        s->pend_act = ACT_NORMAL;
        return;
    }
    finish(s, req, len, &a, act);
}

void fsrv_answer_resume(struct fuzz_server *s)
{
    struct fsrv_answer a = s->pend;

    s->stalled = false;
    finish(s, s->req, s->req_len, &a, (enum action)s->pend_act);
}

/* What follows the stall, if there was one: the action and the events. */
static void finish(struct fuzz_server *s, const uint8_t *req, size_t len, struct fsrv_answer *ap,
                   enum action act)
{
    struct fsrv_answer a = *ap;
    uint8_t raw[96];
    size_t n;

    switch (act) {
    case ACT_ERROR:
        send_error(s, req);
        break;
    case ACT_HANG_UP:
        fsrv_hang_up(s);
        return;
    case ACT_RAW:
        /* Anything at all, sequence number included: libxcb may wait for
         * a reply that is not coming, and the fd model ends here. */
        n = 1 + fsrv_byte(s) % sizeof(raw);
        for (size_t i = 0; i < n; i++)
            raw[i] = fsrv_byte(s);
        s->model_ok = false;
        s->confused = true;
        s->report.raw_bytes = true;
        fsrv_send(s, raw, n, fsrv_byte(s) % 6, 4096, false);
        if (a.len) {
            s->outstanding = true;
            s->report.unanswered++;
        }
        break;
    case ACT_CUT:
        if (a.len == 0) {
            fsrv_hang_up(s);
            return;
        }
        s->model_ok = false;
        send_reply(s, &a, fsrv_byte(s) % a.len);
        fsrv_hang_up(s);
        return;
    case ACT_DROP:
        s->outstanding = true;
        s->report.unanswered++;
        break;
    case ACT_PAD:
        if (a.len && a.len + 32 <= sizeof(a.b)) {
            size_t extra = 4 * (1 + fsrv_byte(s) % 8);

            for (size_t i = 0; i < extra; i++)
                a.b[a.len + i] = fsrv_byte(s);
            a.len += extra;
            fsrv_put32(a.b + 4, (uint32_t)((a.len - 32) / 4));
        }
        /* fall through */
    case ACT_TWICE:
    case ACT_NORMAL:
    default:
        if (a.len)
            send_reply(s, &a, a.len);
        if (act == ACT_TWICE && a.len)
            send_reply(s, &a, a.len);
        if (req[0] == FUZZ_PRESENT_MAJOR)
            present_events(s, req, len);
        break;
    }
    extra_events(s);
}
