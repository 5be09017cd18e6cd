/*
 * DRI3 on the wire: every request's bytes and fds, every reply's fields,
 * lists and fds, checked against expectations written from the encoding
 * section of dri3proto.txt, corrected where its numbers are wrong: opcodes 6
 * to 11 as in dri3proto.h and the servers, Open's length (3, not 4) and
 * PixmapFromBuffers' (16: a 64-byte fixed part, not 8).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/dri3.h>

#include "fake-server.h"
#include "test-runner.h"
#include "wire-table.h"
#include "wire-util.h"

/* Arbitrary ids, distinct so that a field written in the wrong place shows. */
#define PIXMAP 0x00200001u
#define WINDOW 0x00400007u
#define FENCE 0x00200009u
#define PROVIDER 0x0000004bu

/* Where the body of a reply starts: libxcb hands replies over as they came,
 * 32-byte header first. */
#define REPLY_BODY(r) ((const uint8_t *)(r) + 32)

/* The request header: extension major opcode, DRI3 opcode, length. */
static void dri3_head(struct wire *w, uint8_t opcode, uint16_t length)
{
    w8(w, FAKE_DRI3_MAJOR);     /* major opcode */
    w8(w, opcode);              /* DRI3 opcode */
    w16(w, length);             /* length */
}

/* Distinct values that use all 64 bits, so a truncated or misplaced element
 * shows; list 0 is the window list, 1 the screen list. */
static uint64_t modifier(int list, uint32_t i)
{
    return ((uint64_t)(list + 1) << 56) | ((uint64_t)i << 20) | 0xa5u;
}

/* A reply's fd: the one the server sent, now the caller's and close-on-exec. */
static void check_reply_fd(int fd, struct fd_id id)
{
    CHECK_FD_IS(fd, id);
#ifdef XCBDP_HARDENED
    CHECK_CLOEXEC(fd);
#endif
    close(fd);
}

/* ---- QueryVersion -------------------------------------------------------- */

WIRE_QUERY_VERSION_FUNCTIONS(dri3, FAKE_DRI3_MAJOR, 2)

/* ---- Open ---------------------------------------------------------------- */

static unsigned int send_open(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_open_unchecked : xcb_dri3_open)(c, FAKE_ROOT, PROVIDER).sequence;
}

static void bytes_open(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    /* length 3: the spec text's 4 is wrong (12 bytes, sz_xDRI3OpenReq) */
    dri3_head(w, 1, 3);
    w32(w, FAKE_ROOT);          /* drawable */
    w32(w, PROVIDER);           /* provider */
}

static void reply_open(xcb_connection_t *c, fake_server_t *srv, unsigned int seq, int arg)
{
    xcb_dri3_open_cookie_t ck = { seq };
    xcb_generic_error_t *e = &wire_not_set;
    struct wire rep = { 0 };
    xcb_dri3_open_reply_t *r;
    struct fd_id id;
    int sent = test_memfd("dri3-device", 0, &id), device;

    (void)arg;
    w_reply_head(&rep, 1, seq, 0);      /* nfd = 1 */
    wpad(&rep, 24);                     /* unused */
    fake_write_wire(srv, &rep, &sent, 1);   /* device */
    wire_free(&rep);
    close(sent);

    r = xcb_dri3_open_reply(c, ck, &e);
    CHECK_REPLY_HEAD(r, e, seq, 1, 0);
    /* The fd array lives in the reply's memory, the fds do not: the caller
     * owns them and freeing the reply leaves them open. */
    device = xcb_dri3_open_reply_fds(c, r)[0];
    free(r);
    check_reply_fd(device, id);
}

/* ---- PixmapFromBuffer ---------------------------------------------------- */

static unsigned int send_pixmap_from_buffer(xcb_connection_t *c, int v, const int32_t *fds,
                                            int arg)
{
    (void)arg;
    return (v ? xcb_dri3_pixmap_from_buffer : xcb_dri3_pixmap_from_buffer_checked)(
               c, PIXMAP, FAKE_ROOT, 7680 * 1080, 1920, 1080, 7680, 24, 32, fds[0])
        .sequence;
}

static void bytes_pixmap_from_buffer(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 2, 6);
    w32(w, PIXMAP);             /* pixmap */
    w32(w, FAKE_ROOT);          /* drawable */
    w32(w, 7680 * 1080);        /* size */
    w16(w, 1920);               /* width */
    w16(w, 1080);               /* height */
    w16(w, 7680);               /* stride */
    w8(w, 24);                  /* depth */
    w8(w, 32);                  /* bpp */
    /* fds: buffer */
}

/* ---- BufferFromPixmap ---------------------------------------------------- */

static unsigned int send_buffer_from_pixmap(xcb_connection_t *c, int v, const int32_t *fds,
                                            int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_buffer_from_pixmap_unchecked : xcb_dri3_buffer_from_pixmap)(c, PIXMAP)
        .sequence;
}

static void bytes_buffer_from_pixmap(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 3, 2);
    w32(w, PIXMAP);             /* pixmap */
}

static void reply_buffer_from_pixmap(xcb_connection_t *c, fake_server_t *srv, unsigned int seq,
                                     int arg)
{
    xcb_dri3_buffer_from_pixmap_cookie_t ck = { seq };
    xcb_generic_error_t *e = &wire_not_set;
    struct wire rep = { 0 };
    xcb_dri3_buffer_from_pixmap_reply_t *r;
    struct fd_id id;
    int sent = test_memfd("dri3-buffer", 0, &id), buffer;

    (void)arg;
    w_reply_head(&rep, 1, seq, 0);      /* nfd = 1 */
    w32(&rep, 0x00a8c000);      /* size */
    w16(&rep, 1366);            /* width */
    w16(&rep, 768);             /* height */
    w16(&rep, 5504);            /* stride */
    w8(&rep, 30);               /* depth */
    w8(&rep, 32);               /* bpp */
    wpad(&rep, 12);             /* unused */
    fake_write_wire(srv, &rep, &sent, 1);
    wire_free(&rep);
    close(sent);

    r = xcb_dri3_buffer_from_pixmap_reply(c, ck, &e);
    CHECK_REPLY_HEAD(r, e, seq, 1, 0);
    CHECK_EQ(r->size, 0x00a8c000);
    CHECK_EQ(r->width, 1366);
    CHECK_EQ(r->height, 768);
    CHECK_EQ(r->stride, 5504);
    CHECK_EQ(r->depth, 30);
    CHECK_EQ(r->bpp, 32);
    buffer = xcb_dri3_buffer_from_pixmap_reply_fds(c, r)[0];
    free(r);
    check_reply_fd(buffer, id);
}

/* ---- FenceFromFD --------------------------------------------------------- */

/* initially triggered alternates with the variant, so both values are seen. */
static unsigned int send_fence_from_fd(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)arg;
    return (v ? xcb_dri3_fence_from_fd : xcb_dri3_fence_from_fd_checked)(
               c, WINDOW, FENCE, (uint8_t)(v == 0), fds[0])
        .sequence;
}

static void bytes_fence_from_fd(struct wire *w, int v, int arg)
{
    (void)arg;
    dri3_head(w, 4, 4);
    w32(w, WINDOW);             /* drawable */
    w32(w, FENCE);              /* fence */
    w8(w, v == 0);              /* initially triggered */
    wpad(w, 3);                 /* unused */
    /* fds: fence fd */
}

/* ---- FDFromFence --------------------------------------------------------- */

static unsigned int send_fd_from_fence(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_fd_from_fence_unchecked : xcb_dri3_fd_from_fence)(c, WINDOW, FENCE)
        .sequence;
}

static void bytes_fd_from_fence(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 5, 3);
    w32(w, WINDOW);             /* drawable */
    w32(w, FENCE);              /* fence */
}

static void reply_fd_from_fence(xcb_connection_t *c, fake_server_t *srv, unsigned int seq,
                                int arg)
{
    xcb_dri3_fd_from_fence_cookie_t ck = { seq };
    xcb_generic_error_t *e = &wire_not_set;
    struct wire rep = { 0 };
    xcb_dri3_fd_from_fence_reply_t *r;
    struct fd_id id;
    int sent = test_memfd("dri3-fence", 0, &id), fence_fd;

    (void)arg;
    w_reply_head(&rep, 1, seq, 0);      /* nfd = 1 */
    wpad(&rep, 24);                     /* unused */
    fake_write_wire(srv, &rep, &sent, 1);   /* fence fd */
    wire_free(&rep);
    close(sent);

    r = xcb_dri3_fd_from_fence_reply(c, ck, &e);
    CHECK_REPLY_HEAD(r, e, seq, 1, 0);
    fence_fd = xcb_dri3_fd_from_fence_reply_fds(c, r)[0];
    free(r);
    check_reply_fd(fence_fd, id);
}

/* ---- GetSupportedModifiers ----------------------------------------------- */

/* The row's arg holds both list lengths: window * 10000 + screen. */
static unsigned int send_get_modifiers(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_get_supported_modifiers_unchecked
              : xcb_dri3_get_supported_modifiers)(c, WINDOW, 24, 32)
        .sequence;
}

static void bytes_get_modifiers(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 6, 3);
    w32(w, WINDOW);             /* window */
    w8(w, 24);                  /* depth */
    w8(w, 32);                  /* bpp */
    wpad(w, 2);                 /* unused */
}

static void reply_get_modifiers(xcb_connection_t *c, fake_server_t *srv, unsigned int seq,
                                int arg)
{
    const uint32_t nwin = (uint32_t)arg / 10000, nscr = (uint32_t)arg % 10000;
    xcb_dri3_get_supported_modifiers_cookie_t ck = { seq };
    xcb_generic_error_t *e = &wire_not_set;
    struct wire rep = { 0 };
    xcb_dri3_get_supported_modifiers_reply_t *r;
    xcb_generic_iterator_t end;
    uint64_t *wm, *sm;

    w_reply_head(&rep, 0, seq, 2 * (nwin + nscr));
    w32(&rep, nwin);            /* num_window_modifiers */
    w32(&rep, nscr);            /* num_screen_modifiers */
    wpad(&rep, 16);             /* unused */
    for (uint32_t i = 0; i < nwin; i++)
        w64(&rep, modifier(0, i));      /* window_modifiers */
    for (uint32_t i = 0; i < nscr; i++)
        w64(&rep, modifier(1, i));      /* screen_modifiers */
    fake_write_wire(srv, &rep, NULL, 0);
    wire_free(&rep);

    r = xcb_dri3_get_supported_modifiers_reply(c, ck, &e);
    CHECK_REPLY_HEAD(r, e, seq, -1, 2 * (nwin + nscr));
    CHECK_EQ(r->num_window_modifiers, nwin);
    CHECK_EQ(r->num_screen_modifiers, nscr);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_sizeof(r), 32 + 8 * (nwin + nscr));

    wm = xcb_dri3_get_supported_modifiers_window_modifiers(r);
    CHECK((const uint8_t *)wm == REPLY_BODY(r));
    CHECK_EQ(xcb_dri3_get_supported_modifiers_window_modifiers_length(r), nwin);
    for (uint32_t i = 0; i < nwin; i++)
        CHECK_EQ(wm[i], modifier(0, i));
    end = xcb_dri3_get_supported_modifiers_window_modifiers_end(r);
    CHECK(end.data == wm + nwin);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 32 + 8 * nwin);         /* byte offset from the reply */

    /* The screen list follows the window list directly (both 8-byte
     * elements, so no alignment padding between them). */
    sm = xcb_dri3_get_supported_modifiers_screen_modifiers(r);
    CHECK(sm == wm + nwin);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_screen_modifiers_length(r), nscr);
    for (uint32_t i = 0; i < nscr; i++)
        CHECK_EQ(sm[i], modifier(1, i));
    end = xcb_dri3_get_supported_modifiers_screen_modifiers_end(r);
    CHECK(end.data == sm + nscr);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 32 + 8 * (nwin + nscr));
    free(r);
}

/* ---- PixmapFromBuffers --------------------------------------------------- */

/* A multi-planar layout; planes past the row's arg (the number of planes)
 * are unused and sent as 0. */
static const uint32_t plane_stride[4] = { 7680, 3840, 3840, 1920 };
static const uint32_t plane_offset[4] = { 0, 8294400, 12441600, 16588800 };
#define Y_TILED 0x0100000000000002ull   /* an Intel Y-tiling modifier */

static unsigned int send_pixmap_from_buffers(xcb_connection_t *c, int v, const int32_t *fds,
                                             int nbuf)
{
    uint32_t s[4] = { 0 }, o[4] = { 0 };

    for (int i = 0; i < nbuf; i++) {
        s[i] = plane_stride[i];
        o[i] = plane_offset[i];
    }
    return (v ? xcb_dri3_pixmap_from_buffers : xcb_dri3_pixmap_from_buffers_checked)(
               c, PIXMAP, WINDOW, (uint8_t)nbuf, 1920, 1080, s[0], o[0], s[1], o[1], s[2],
               o[2], s[3], o[3], 30, 32, Y_TILED, fds)
        .sequence;
}

static void bytes_pixmap_from_buffers(struct wire *w, int v, int nbuf)
{
    (void)v;
    dri3_head(w, 7, 16);        /* 64 bytes, whatever the count of fds */
    w32(w, PIXMAP);             /* pixmap */
    w32(w, WINDOW);             /* window */
    w8(w, (uint8_t)nbuf);       /* num_buffers */
    wpad(w, 3);                 /* unused */
    w16(w, 1920);               /* width */
    w16(w, 1080);               /* height */
    for (int i = 0; i < 4; i++) {
        w32(w, i < nbuf ? plane_stride[i] : 0);  /* stride<i> */
        w32(w, i < nbuf ? plane_offset[i] : 0);  /* offset<i> */
    }
    w8(w, 30);                  /* depth */
    w8(w, 32);                  /* bpp */
    wpad(w, 2);                 /* unused */
    w64(w, Y_TILED);            /* modifier */
    /* fds: buffers[num_buffers], in plane order */
}

/* ---- BuffersFromPixmap --------------------------------------------------- */

#define LINEAR_AMD 0x0300000000000010ull

static unsigned int send_buffers_from_pixmap(xcb_connection_t *c, int v, const int32_t *fds,
                                             int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_buffers_from_pixmap_unchecked : xcb_dri3_buffers_from_pixmap)(c,
                                                                                     PIXMAP)
        .sequence;
}

static void bytes_buffers_from_pixmap(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 8, 2);
    w32(w, PIXMAP);             /* pixmap */
}

/* The row's arg is the number of planes (and fds) the server answers with. */
static void reply_buffers_from_pixmap(xcb_connection_t *c, fake_server_t *srv,
                                      unsigned int seq, int nfd)
{
    xcb_dri3_buffers_from_pixmap_cookie_t ck = { seq };
    xcb_generic_error_t *e = &wire_not_set;
    struct wire rep = { 0 };
    xcb_dri3_buffers_from_pixmap_reply_t *r;
    xcb_generic_iterator_t end;
    struct fd_id id[4];
    int sent[4], mine[4];
    uint32_t *strides, *offsets;
    int *fds;

    for (int i = 0; i < nfd; i++)
        sent[i] = test_memfd("dri3-plane", 0, &id[i]);
    w_reply_head(&rep, (uint8_t)nfd, seq, 2u * (unsigned)nfd);  /* nfd, reply length */
    w16(&rep, 2560);            /* width */
    w16(&rep, 1440);            /* height */
    wpad(&rep, 4);              /* unused */
    w64(&rep, LINEAR_AMD);      /* modifier */
    w8(&rep, 24);               /* depth */
    w8(&rep, 32);               /* bpp */
    wpad(&rep, 6);              /* unused */
    for (int i = 0; i < nfd; i++)
        w32(&rep, 10240u + 64u * (unsigned)i);          /* strides[nfd] */
    for (int i = 0; i < nfd; i++)
        w32(&rep, 0x01000000u * (unsigned)i + 4096u);   /* offsets[nfd] */
    fake_write_wire(srv, &rep, sent, nfd);              /* buffer[nfd] */
    wire_free(&rep);
    for (int i = 0; i < nfd; i++)
        close(sent[i]);

    r = xcb_dri3_buffers_from_pixmap_reply(c, ck, &e);
    CHECK_REPLY_HEAD(r, e, seq, nfd, 2u * (unsigned)nfd);
    CHECK_EQ(r->width, 2560);
    CHECK_EQ(r->height, 1440);
    CHECK_EQ(r->modifier, LINEAR_AMD);
    CHECK_EQ(r->depth, 24);
    CHECK_EQ(r->bpp, 32);
    /* The fds are not in the reply's length, so not in its size. */
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_sizeof(r, nfd), 32 + 8 * nfd);

    strides = xcb_dri3_buffers_from_pixmap_strides(r);
    CHECK((const uint8_t *)strides == REPLY_BODY(r));
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_strides_length(r), nfd);
    for (int i = 0; i < nfd; i++)
        CHECK_EQ(strides[i], 10240u + 64u * (unsigned)i);
    end = xcb_dri3_buffers_from_pixmap_strides_end(r);
    CHECK(end.data == strides + nfd);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 32 + 4 * nfd);

    offsets = xcb_dri3_buffers_from_pixmap_offsets(r);
    CHECK(offsets == strides + nfd);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_offsets_length(r), nfd);
    for (int i = 0; i < nfd; i++)
        CHECK_EQ(offsets[i], 0x01000000u * (unsigned)i + 4096u);
    end = xcb_dri3_buffers_from_pixmap_offsets_end(r);
    CHECK(end.data == offsets + nfd);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 32 + 8 * nfd);

    /* The fd list: libxcb stores received fds right after the reply's
     * length, which with a tight length is where this accessor points. */
    fds = xcb_dri3_buffers_from_pixmap_reply_fds(c, r);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_buffers_length(r), nfd);
    CHECK((void *)xcb_dri3_buffers_from_pixmap_buffers(r) == (void *)fds);
    end = xcb_dri3_buffers_from_pixmap_buffers_end(r);
    CHECK(end.data == fds + nfd);
    CHECK_EQ(end.rem, 0);

    for (int i = 0; i < nfd; i++)
        mine[i] = fds[i];
    free(r);
    for (int i = 0; i < nfd; i++)
        check_reply_fd(mine[i], id[i]);
}

/* ---- SetDRMDeviceInUse --------------------------------------------------- */

static unsigned int send_set_drm_device(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_set_drm_device_in_use : xcb_dri3_set_drm_device_in_use_checked)(
               c, WINDOW, 226, 128)
        .sequence;
}

static void bytes_set_drm_device(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 9, 4);
    w32(w, WINDOW);             /* window */
    w32(w, 226);                /* drmMajor */
    w32(w, 128);                /* drmMinor */
}

/* ---- ImportSyncobj, FreeSyncobj (DRI3 1.4) ------------------------------- */

#define SYNCOBJ 0x0020000cu

#ifdef XCB_DRI3_IMPORT_SYNCOBJ
static unsigned int send_import_syncobj(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)arg;
    return (v ? xcb_dri3_import_syncobj : xcb_dri3_import_syncobj_checked)(c, SYNCOBJ, WINDOW,
                                                                          fds[0])
        .sequence;
}

static void bytes_import_syncobj(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 10, 3);        /* opcode 10, not the spec text's 11 */
    w32(w, SYNCOBJ);            /* syncobj */
    w32(w, WINDOW);             /* drawable */
    /* fds: syncobj fd */
}

static unsigned int send_free_syncobj(xcb_connection_t *c, int v, const int32_t *fds, int arg)
{
    (void)fds, (void)arg;
    return (v ? xcb_dri3_free_syncobj : xcb_dri3_free_syncobj_checked)(c, SYNCOBJ).sequence;
}

static void bytes_free_syncobj(struct wire *w, int v, int arg)
{
    (void)v, (void)arg;
    dri3_head(w, 11, 2);        /* opcode 11, not the spec text's 12 */
    w32(w, SYNCOBJ);            /* syncobj */
}
#endif

/* ---- the table ----------------------------------------------------------- */

static const struct wire_row dri3_requests[] = {
    /* name, send, bytes, fds sent, reply, arg, request accessors */
    { "QueryVersion", send_query_version, bytes_query_version, 0, reply_query_version, 0, NULL },
    { "Open", send_open, bytes_open, 0, reply_open, 0, NULL },
    { "PixmapFromBuffer", send_pixmap_from_buffer, bytes_pixmap_from_buffer, 1, NULL, 0, NULL },
    { "BufferFromPixmap", send_buffer_from_pixmap, bytes_buffer_from_pixmap, 0,
      reply_buffer_from_pixmap, 0, NULL },
    { "FenceFromFD", send_fence_from_fd, bytes_fence_from_fd, 1, NULL, 0, NULL },
    { "FDFromFence", send_fd_from_fence, bytes_fd_from_fence, 0, reply_fd_from_fence, 0, NULL },
    /* window and screen modifiers: 0 and 0, 1 and 0, 0 and 3, 1000 and 2000 */
    { "GetSupportedModifiers", send_get_modifiers, bytes_get_modifiers, 0,
      reply_get_modifiers, 0, NULL },
    { "GetSupportedModifiers", send_get_modifiers, bytes_get_modifiers, 0,
      reply_get_modifiers, 1 * 10000, NULL },
    { "GetSupportedModifiers", send_get_modifiers, bytes_get_modifiers, 0,
      reply_get_modifiers, 3, NULL },
    { "GetSupportedModifiers", send_get_modifiers, bytes_get_modifiers, 0,
      reply_get_modifiers, 1000 * 10000 + 2000, NULL },
    /* 1 to 4 planes, one fd each */
    { "PixmapFromBuffers", send_pixmap_from_buffers, bytes_pixmap_from_buffers, 1, NULL, 1, NULL },
    { "PixmapFromBuffers", send_pixmap_from_buffers, bytes_pixmap_from_buffers, 2, NULL, 2, NULL },
    { "PixmapFromBuffers", send_pixmap_from_buffers, bytes_pixmap_from_buffers, 3, NULL, 3, NULL },
    { "PixmapFromBuffers", send_pixmap_from_buffers, bytes_pixmap_from_buffers, 4, NULL, 4, NULL },
    /* replies with 1 to 4 planes */
    { "BuffersFromPixmap", send_buffers_from_pixmap, bytes_buffers_from_pixmap, 0,
      reply_buffers_from_pixmap, 1, NULL },
    { "BuffersFromPixmap", send_buffers_from_pixmap, bytes_buffers_from_pixmap, 0,
      reply_buffers_from_pixmap, 2, NULL },
    { "BuffersFromPixmap", send_buffers_from_pixmap, bytes_buffers_from_pixmap, 0,
      reply_buffers_from_pixmap, 3, NULL },
    { "BuffersFromPixmap", send_buffers_from_pixmap, bytes_buffers_from_pixmap, 0,
      reply_buffers_from_pixmap, 4, NULL },
    { "SetDRMDeviceInUse", send_set_drm_device, bytes_set_drm_device, 0, NULL, 0, NULL },
#ifdef XCB_DRI3_IMPORT_SYNCOBJ
    { "ImportSyncobj", send_import_syncobj, bytes_import_syncobj, 1, NULL, 0, NULL },
    { "FreeSyncobj", send_free_syncobj, bytes_free_syncobj, 0, NULL, 0, NULL },
#endif
};

/* Every request through both of its functions: bytes, fds, sequence, reply. */
TEST(dri3_requests)
{
    WIRE_RUN(dri3_requests);
}

#ifndef XCB_DRI3_IMPORT_SYNCOBJ
TEST(dri3_syncobj_requests)
{
    SKIP("the library has no DRI3 1.4 (ImportSyncobj, FreeSyncobj)");
}
#endif

/* ---- replies that contradict themselves --------------------------------- */

/* A reply longer than its lists need is fine: the lists are where their
 * counts say, and the rest is ignored (as for any reply of a newer server). */
TEST(dri3_get_supported_modifiers_long_reply)
{
    struct wire rep = { 0 };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_dri3_get_supported_modifiers_cookie_t ck;
    xcb_dri3_get_supported_modifiers_reply_t *r;
    uint8_t req[64];

    ck = xcb_dri3_get_supported_modifiers(c, WINDOW, 24, 32);
    CHECK(xcb_flush(c) > 0);
    CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 12);

    w_reply_head(&rep, 0, fake_seq(srv), 8);   /* room for 4, holds 2 */
    w32(&rep, 1);                   /* num_window_modifiers */
    w32(&rep, 1);                   /* num_screen_modifiers */
    wpad(&rep, 16);                 /* unused */
    w64(&rep, modifier(0, 0));      /* window_modifiers */
    w64(&rep, modifier(1, 0));      /* screen_modifiers */
    wpad(&rep, 16);                 /* whatever a newer server appends */
    fake_write_wire(srv, &rep, NULL, 0);

    r = xcb_dri3_get_supported_modifiers_reply(c, ck, NULL);
    CHECK(r != NULL);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_window_modifiers_length(r), 1);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_window_modifiers(r)[0], modifier(0, 0));
    CHECK_EQ(xcb_dri3_get_supported_modifiers_screen_modifiers_length(r), 1);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_screen_modifiers(r)[0], modifier(1, 0));
    free(r);
    wire_free(&rep);
    fake_stop(srv);
}

#ifdef XCBDP_HARDENED
/* Our library turns a reply it cannot trust into BadLength for the request,
 * as if the server had sent that error. */
#define CHECK_LENGTH_ERROR(e, ck, minor)                                    \
    do {                                                                    \
        CHECK((e) != NULL);                                                 \
        CHECK_EQ((e)->response_type, 0);                                    \
        CHECK_EQ((e)->error_code, XCB_LENGTH);                              \
        CHECK_EQ((e)->sequence, (uint16_t)(ck).sequence);                   \
        CHECK_EQ((e)->full_sequence, (ck).sequence);                        \
        CHECK_EQ((e)->major_code, FAKE_DRI3_MAJOR);                         \
        CHECK_EQ((e)->minor_code, (minor));                                 \
    } while (0)

/* Sends a reply header (nfd_byte, length) and `body` zero bytes, carrying
 * nsend new memfds, and closes the server's copies. */
static void send_fd_reply(fake_server_t *srv, uint8_t nfd_byte, uint32_t length,
                          size_t body, int nsend)
{
    struct wire rep = { 0 };
    int sent[4];

    for (int i = 0; i < nsend; i++)
        sent[i] = test_memfd("dri3-bad-reply", 0, NULL);
    w_reply_head(&rep, nfd_byte, fake_seq(srv), length);
    wpad(&rep, body);
    fake_write_wire(srv, &rep, sent, nsend);
    for (int i = 0; i < nsend; i++)
        close(sent[i]);
    wire_free(&rep);
}
#endif

TEST(dri3_open_reply_nfd_mismatch)
{
#ifdef XCBDP_HARDENED
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int before = test_count_fds();

    /* Once with an error pointer, once without: the fds go either way. */
    for (size_t v = 0; v < 2; v++) {
        xcb_generic_error_t *e = &wire_not_set;
        xcb_dri3_open_cookie_t ck = xcb_dri3_open(c, FAKE_ROOT, 0);
        uint8_t req[64];

        CHECK(xcb_flush(c) > 0);
        CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 12);
        send_fd_reply(srv, 2, 0, 24, 2);    /* nfd = 2 where Open has one */
        CHECK(xcb_dri3_open_reply(c, ck, v == 0 ? &e : NULL) == NULL);
        if (v == 0) {
            CHECK_LENGTH_ERROR(e, ck, XCB_DRI3_OPEN);
            free(e);
        }
        CHECK_EQ(test_count_fds(), before);     /* both fds closed */
    }
    check_still_usable(c, srv);
    fake_stop(srv);
#else
    SKIP("not a hardened build: the reference library takes any nfd");
#endif
}

TEST(dri3_buffer_from_pixmap_reply_nfd_mismatch)
{
#ifdef XCBDP_HARDENED
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int before = test_count_fds();
    xcb_generic_error_t *e = &wire_not_set;
    xcb_dri3_buffer_from_pixmap_cookie_t ck = xcb_dri3_buffer_from_pixmap(c, PIXMAP);
    uint8_t req[64];

    CHECK(xcb_flush(c) > 0);
    CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 8);
    send_fd_reply(srv, 3, 0, 24, 3);
    CHECK(xcb_dri3_buffer_from_pixmap_reply(c, ck, &e) == NULL);
    CHECK_LENGTH_ERROR(e, ck, XCB_DRI3_BUFFER_FROM_PIXMAP);
    free(e);
    CHECK_EQ(test_count_fds(), before);
    check_still_usable(c, srv);
    fake_stop(srv);
#else
    SKIP("not a hardened build: the reference library takes any nfd");
#endif
}

TEST(dri3_fd_from_fence_reply_without_fd)
{
#ifdef XCBDP_HARDENED
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_generic_error_t *e = &wire_not_set;
    xcb_dri3_fd_from_fence_cookie_t ck = xcb_dri3_fd_from_fence(c, WINDOW, FENCE);
    uint8_t req[64];

    CHECK(xcb_flush(c) > 0);
    CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 12);
    send_fd_reply(srv, 0, 0, 24, 0);        /* nfd = 0: no fence fd at all */
    CHECK(xcb_dri3_fd_from_fence_reply(c, ck, &e) == NULL);
    CHECK_LENGTH_ERROR(e, ck, XCB_DRI3_FD_FROM_FENCE);
    free(e);
    check_still_usable(c, srv);
    fake_stop(srv);
#else
    SKIP("not a hardened build: the reference library takes any nfd");
#endif
}

#ifdef XCBDP_HARDENED
/* A GetSupportedModifiers reply whose counts need more than its length. */
static void check_modifiers_refused(uint32_t nwin, uint32_t nscr, uint32_t length)
{
    struct wire rep = { 0 };
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    xcb_generic_error_t *e = &wire_not_set;
    xcb_dri3_get_supported_modifiers_cookie_t ck;
    uint8_t req[64];

    ck = xcb_dri3_get_supported_modifiers(c, WINDOW, 24, 32);
    CHECK(xcb_flush(c) > 0);
    CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 12);
    w_reply_head(&rep, 0, fake_seq(srv), length);
    w32(&rep, nwin);                /* num_window_modifiers */
    w32(&rep, nscr);                /* num_screen_modifiers */
    wpad(&rep, 16 + 4 * (size_t)length);
    fake_write_wire(srv, &rep, NULL, 0);

    CHECK(xcb_dri3_get_supported_modifiers_reply(c, ck, &e) == NULL);
    CHECK_LENGTH_ERROR(e, ck, XCB_DRI3_GET_SUPPORTED_MODIFIERS);
    free(e);
    check_still_usable(c, srv);
    wire_free(&rep);
    fake_stop(srv);
}
#endif

TEST(dri3_get_supported_modifiers_count_overflow)
{
#ifdef XCBDP_HARDENED
    check_modifiers_refused(0x40000000, 0, 2);
    /* 8 * (nwin + nscr) is 2^32 here: computed in 32 bits it would be 0 and
     * "fit" in an empty reply. */
    check_modifiers_refused(0x10000000, 0x10000000, 0);
    check_modifiers_refused(2, 1, 4);       /* one modifier short */
#else
    SKIP("not a hardened build: the reference library trusts the counts");
#endif
}

TEST(dri3_buffers_from_pixmap_reply_too_short)
{
#ifdef XCBDP_HARDENED
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int before = test_count_fds();
    xcb_generic_error_t *e = &wire_not_set;
    xcb_dri3_buffers_from_pixmap_cookie_t ck = xcb_dri3_buffers_from_pixmap(c, PIXMAP);
    uint8_t req[64];

    CHECK(xcb_flush(c) > 0);
    CHECK_EQ(fake_read_request(srv, req, sizeof(req), NULL, NULL), 8);
    /* nfd = 3 needs 24 bytes of strides and offsets; length 2 gives 8. */
    send_fd_reply(srv, 3, 2, 24 + 8, 3);
    CHECK(xcb_dri3_buffers_from_pixmap_reply(c, ck, &e) == NULL);
    CHECK_LENGTH_ERROR(e, ck, XCB_DRI3_BUFFERS_FROM_PIXMAP);
    free(e);
    CHECK_EQ(test_count_fds(), before);     /* all three fds closed */
    check_still_usable(c, srv);
    fake_stop(srv);
#else
    SKIP("not a hardened build: the reference library trusts nfd");
#endif
}

/* ---- xcb_dri3_syncobj_t (DRI3 1.4) -------------------------------------- */

TEST(dri3_syncobj_iterator)
{
#ifdef XCB_DRI3_IMPORT_SYNCOBJ
    xcb_dri3_syncobj_t list[3] = { 7, 8, 9 };
    xcb_dri3_syncobj_iterator_t it = { list, 3, 0 };
    xcb_generic_iterator_t end = xcb_dri3_syncobj_end(it);

    CHECK(end.data == list + 3);
    CHECK_EQ(end.rem, 0);
    xcb_dri3_syncobj_next(&it);
    CHECK(it.data == list + 1);
    CHECK_EQ(it.rem, 2);
    CHECK_EQ(*it.data, 8);
#else
    SKIP("the library has no DRI3 1.4 (xcb_dri3_syncobj_t)");
#endif
}

/* ---- names, numbers and layouts that programs compile against ------------ */

TEST(dri3_opcodes)
{
    CHECK_EQ(XCB_DRI3_QUERY_VERSION, 0);
    CHECK_EQ(XCB_DRI3_OPEN, 1);
    CHECK_EQ(XCB_DRI3_PIXMAP_FROM_BUFFER, 2);
    CHECK_EQ(XCB_DRI3_BUFFER_FROM_PIXMAP, 3);
    CHECK_EQ(XCB_DRI3_FENCE_FROM_FD, 4);
    CHECK_EQ(XCB_DRI3_FD_FROM_FENCE, 5);
    CHECK_EQ(XCB_DRI3_GET_SUPPORTED_MODIFIERS, 6);
    CHECK_EQ(XCB_DRI3_PIXMAP_FROM_BUFFERS, 7);
    CHECK_EQ(XCB_DRI3_BUFFERS_FROM_PIXMAP, 8);
    CHECK_EQ(XCB_DRI3_SET_DRM_DEVICE_IN_USE, 9);
#ifdef XCB_DRI3_IMPORT_SYNCOBJ
    CHECK_EQ(XCB_DRI3_IMPORT_SYNCOBJ, 10);
    CHECK_EQ(XCB_DRI3_FREE_SYNCOBJ, 11);
    CHECK_EQ(XCB_DRI3_MINOR_VERSION, 4);
#endif
    CHECK_EQ(XCB_DRI3_MAJOR_VERSION, 1);
}

/* The structs are laid over the wire bytes, so their layout is the protocol's
 * (and a drop-in replacement's ABI). */
TEST(dri3_struct_layout)
{
    LAYOUT(xcb_dri3_query_version_request_t, SIZEOF(12));
    LAYOUT(xcb_dri3_query_version_reply_t, SIZEOF(16));
    LAYOUT(xcb_dri3_open_request_t, SIZEOF(12));
    LAYOUT(xcb_dri3_open_reply_t, SIZEOF(32));
    LAYOUT(xcb_dri3_pixmap_from_buffer_request_t, SIZEOF(24) OFFSET(stride, 20) OFFSET(bpp, 23));
    LAYOUT(xcb_dri3_buffer_from_pixmap_request_t, SIZEOF(8));
    LAYOUT(xcb_dri3_buffer_from_pixmap_reply_t, SIZEOF(32) OFFSET(size, 8) OFFSET(bpp, 19));
    LAYOUT(xcb_dri3_fence_from_fd_request_t, SIZEOF(16) OFFSET(initially_triggered, 12));
    LAYOUT(xcb_dri3_fd_from_fence_request_t, SIZEOF(12));
    LAYOUT(xcb_dri3_fd_from_fence_reply_t, SIZEOF(32));
    LAYOUT(xcb_dri3_get_supported_modifiers_request_t, SIZEOF(12));
    LAYOUT(xcb_dri3_get_supported_modifiers_reply_t, SIZEOF(32) OFFSET(num_screen_modifiers, 12));
    LAYOUT(xcb_dri3_pixmap_from_buffers_request_t, SIZEOF(64) OFFSET(num_buffers, 12)
                                                   OFFSET(width, 16) OFFSET(stride0, 20)
                                                   OFFSET(offset3, 48) OFFSET(depth, 52)
                                                   OFFSET(modifier, 56));
    LAYOUT(xcb_dri3_buffers_from_pixmap_request_t, SIZEOF(8));
    LAYOUT(xcb_dri3_buffers_from_pixmap_reply_t, SIZEOF(32) OFFSET(width, 8) OFFSET(modifier, 16)
                                                 OFFSET(depth, 24));
    LAYOUT(xcb_dri3_set_drm_device_in_use_request_t, SIZEOF(16) OFFSET(drmMinor, 12));
#ifdef XCB_DRI3_IMPORT_SYNCOBJ
    LAYOUT(xcb_dri3_syncobj_t, SIZEOF(4));
    LAYOUT(xcb_dri3_import_syncobj_request_t, SIZEOF(12) OFFSET(drawable, 8));
    LAYOUT(xcb_dri3_free_syncobj_request_t, SIZEOF(8));
#endif
}

/* ---- fds handed to a request belong to libxcb, even when it fails -------- */

TEST(dri3_request_fd_closed_on_broken_connection)
{
    xcb_connection_t *c;
    fake_server_t *srv = fake_start(&c);
    int32_t planes[2];
    int fd;

    /* The server hangs up instead of replying, so libxcb marks the
     * connection broken; requests after that send nothing, and must still
     * close the fds they were given. */
    fake_hangup(srv);
    CHECK(xcb_dri3_query_version_reply(c, xcb_dri3_query_version(c, 1, 4), NULL) == NULL);
    CHECK(xcb_connection_has_error(c) != 0);

    fd = test_memfd("dri3-buffer", 0, NULL);
    xcb_dri3_pixmap_from_buffer(c, PIXMAP, WINDOW, 4096, 32, 32, 128, 24, 32, fd);
    CHECK_FD_CLOSED(fd);

    fd = test_memfd("dri3-fence", 0, NULL);
    xcb_dri3_fence_from_fd_checked(c, WINDOW, FENCE, 0, fd);
    CHECK_FD_CLOSED(fd);

    planes[0] = test_memfd("dri3-plane", 0, NULL);
    planes[1] = test_memfd("dri3-plane", 0, NULL);
    xcb_dri3_pixmap_from_buffers(c, PIXMAP, WINDOW, 2, 32, 32, 128, 0, 64, 4096, 0, 0, 0, 0,
                                 24, 32, 0, planes);
    CHECK_FD_CLOSED(planes[0]);
    CHECK_FD_CLOSED(planes[1]);

#ifdef XCB_DRI3_IMPORT_SYNCOBJ
    fd = test_memfd("dri3-syncobj", 0, NULL);
    xcb_dri3_import_syncobj(c, SYNCOBJ, WINDOW, fd);
    CHECK_FD_CLOSED(fd);
#endif
    fake_stop(srv);
}
