/*
 * Fuzz target: every reply of DRI3 and Present, as a malicious server may
 * send it, through a real libxcb connection.
 *
 * Input: byte 0 picks the request (bits 0-2), its unchecked variant (bit 3),
 * a stream cut short instead of zero-padded (bit 4) and sequence numbers
 * left as the input has them instead of the request's (bit 5); byte 1 % 5
 * is the number of fds sent with the stream; the rest is the stream of
 * packets (see fuzz_stream_build). The harness calls the request's
 * _reply() once, as a client does, reads every accessor and every byte each
 * points at, closes every fd handed over, and then checks that no fd is
 * left open.
 *
 * Built against our libraries (FUZZ_OURS: the fds handed over must also be
 * close-on-exec) or against Debian's, for the comparison in README.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "fuzz-conn.h"

#ifdef FUZZ_OURS
#define WANT_CLOEXEC true
#else
#define WANT_CLOEXEC false
#endif

/* libxcb's core leaks fds that no reply claims and those of replies that
 * nobody fetches; FUZZ_STRICT_LEAKS=1 counts those too (README.md,
 * fuzz_strict_leaks()). */

/*
 * Whether libxcb handed the library a reply to the request: only then are
 * the fds it attached the library's to close or hand over. Known by
 * standing in for xcb_wait_for_reply() (the executable's definition comes
 * first for our code linked in and for Debian's shared libraries alike).
 */
static bool reply_fetched;

void *xcb_wait_for_reply(xcb_connection_t *c, unsigned int request, xcb_generic_error_t **e)
{
    static void *(*real)(xcb_connection_t *, unsigned int, xcb_generic_error_t **);
    void *r;

    if (real == NULL)
        *(void **)&real = dlsym(RTLD_NEXT, "xcb_wait_for_reply");
    r = real(c, request, e);
    if (request == FUZZ_FIRST_SEQ && r != NULL)
        reply_fetched = true;
    return r;
}

static void close_fds(const int *fds, int n)
{
    for (int i = 0; i < n; i++)
        fuzz_close_handed(fds[i], WANT_CLOEXEC);
}

static void check_iter_end(const void *data, const void *end_data)
{
    if (data != end_data)
        fuzz_finding("a list's _end() does not point after its last element");
}

/* The cookie of request req sent with its arguments, checked or not as
 * the input picked. */
#define SEND(req, ...) \
    (unchecked ? xcb_##req##_unchecked(c, __VA_ARGS__) : xcb_##req(c, __VA_ARGS__))

/* What a fixed-size reply hands over besides its bytes: nothing, or fds
 * that are ours to close. */
#define NO_FDS(req)
#define CLOSE_FDS(req) close_fds(xcb_##req##_reply_fds(c, r), r->nfd);

/* A reply of fixed size (no lists): every byte read, its fds closed. The
 * function is named as the request, as the table below wants it. */
#define FIXED_REPLY(req, fds, ...)                                              \
    static void req(xcb_connection_t *c, bool unchecked, xcb_generic_error_t **e) \
    {                                                                           \
        xcb_##req##_reply_t *r = xcb_##req##_reply(c, SEND(req, __VA_ARGS__), e); \
                                                                                \
        if (r != NULL) {                                                        \
            fuzz_touch(r, sizeof(*r));                                          \
            fds(req)                                                            \
        }                                                                       \
        free(r);                                                                \
    }

FIXED_REPLY(dri3_query_version, NO_FDS, 1, 4)
FIXED_REPLY(dri3_open, CLOSE_FDS, 0x123, 0)
FIXED_REPLY(dri3_buffer_from_pixmap, CLOSE_FDS, 0x200001)
FIXED_REPLY(dri3_fd_from_fence, CLOSE_FDS, 0x123, 0x200002)
FIXED_REPLY(present_query_version, NO_FDS, 1, 4)
FIXED_REPLY(present_query_capabilities, NO_FDS, 0x123)

static void dri3_get_supported_modifiers(xcb_connection_t *c, bool unchecked,
                                         xcb_generic_error_t **e)
{
    xcb_dri3_get_supported_modifiers_cookie_t ck =
        SEND(dri3_get_supported_modifiers, 0x123, 24, 32);
    xcb_dri3_get_supported_modifiers_reply_t *r =
        xcb_dri3_get_supported_modifiers_reply(c, ck, e);

    if (r != NULL) {
        const uint64_t *wm = xcb_dri3_get_supported_modifiers_window_modifiers(r);
        int wn = xcb_dri3_get_supported_modifiers_window_modifiers_length(r);
        const uint64_t *sm = xcb_dri3_get_supported_modifiers_screen_modifiers(r);
        int sn = xcb_dri3_get_supported_modifiers_screen_modifiers_length(r);

        fuzz_touch(r, sizeof(*r));
        if (wn > 0)
            fuzz_touch(wm, (size_t)wn * sizeof(*wm));
        if (sn > 0)
            fuzz_touch(sm, (size_t)sn * sizeof(*sm));
        check_iter_end(wm + wn, xcb_dri3_get_supported_modifiers_window_modifiers_end(r).data);
        check_iter_end(sm + sn, xcb_dri3_get_supported_modifiers_screen_modifiers_end(r).data);
        fuzz_touch(&(int){ xcb_dri3_get_supported_modifiers_sizeof(r) }, sizeof(int));
    }
    free(r);
}

static void dri3_buffers_from_pixmap(xcb_connection_t *c, bool unchecked,
                                     xcb_generic_error_t **e)
{
    xcb_dri3_buffers_from_pixmap_cookie_t ck = SEND(dri3_buffers_from_pixmap, 0x200001);
    xcb_dri3_buffers_from_pixmap_reply_t *r = xcb_dri3_buffers_from_pixmap_reply(c, ck, e);

    if (r != NULL) {
        const uint32_t *st = xcb_dri3_buffers_from_pixmap_strides(r);
        int stn = xcb_dri3_buffers_from_pixmap_strides_length(r);
        const uint32_t *of = xcb_dri3_buffers_from_pixmap_offsets(r);
        int ofn = xcb_dri3_buffers_from_pixmap_offsets_length(r);
        const int32_t *bu = xcb_dri3_buffers_from_pixmap_buffers(r);
        int bun = xcb_dri3_buffers_from_pixmap_buffers_length(r);
        const int *fds = xcb_dri3_buffers_from_pixmap_reply_fds(c, r);

        fuzz_touch(r, sizeof(*r));
        if (stn > 0)
            fuzz_touch(st, (size_t)stn * sizeof(*st));
        if (ofn > 0)
            fuzz_touch(of, (size_t)ofn * sizeof(*of));
        if (bun > 0)
            fuzz_touch(bu, (size_t)bun * sizeof(*bu));
        check_iter_end(st + stn, xcb_dri3_buffers_from_pixmap_strides_end(r).data);
        check_iter_end(of + ofn, xcb_dri3_buffers_from_pixmap_offsets_end(r).data);
        check_iter_end(bu + bun, xcb_dri3_buffers_from_pixmap_buffers_end(r).data);
        fuzz_touch(&(int){ xcb_dri3_buffers_from_pixmap_sizeof(r, r->nfd) }, sizeof(int));
        /* The buffers list is the fds libxcb received: one set to close. */
        close_fds(fds, r->nfd);
    }
    free(r);
}

/* The requests whose replies carry fds: Open, BufferFromPixmap,
 * FDFromFence, BuffersFromPixmap. */
#define FD_REQUESTS (1u << 1 | 1u << 2 | 1u << 3 | 1u << 5)

typedef void (*request_fn)(xcb_connection_t *c, bool unchecked, xcb_generic_error_t **e);

static const request_fn requests[8] = {
    dri3_query_version, dri3_open, dri3_buffer_from_pixmap, dri3_fd_from_fence,
    dri3_get_supported_modifiers, dri3_buffers_from_pixmap,
    present_query_version, present_query_capabilities,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_fds before;
    struct fuzz_conn fc;
    struct fuzz_stream s;
    xcb_generic_error_t *e = NULL;
    uint8_t mode, nfds;
    unsigned int claimed;
    int ours, libxcbs;

    if (size < 2)
        return -1;      /* not worth keeping in the corpus */
    mode = data[0];
    nfds = data[1] % (FUZZ_MAX_FDS + 1);
    fuzz_fds_snapshot(&before);
    reply_fetched = false;
    if (!fuzz_conn_open(&fc))
        fuzz_finding("harness: cannot connect over a socketpair");

    fuzz_stream_build(&s, data + 2, size - 2, FUZZ_FIRST_SEQ, !(mode & 0x20),
                      (mode & 0x10) != 0, NULL, NULL);
    fuzz_conn_send(&fc, &s, nfds, true);
    requests[mode & 7](fc.c, (mode & 8) != 0, &e);
    if (e != NULL)
        fuzz_touch(e, sizeof(*e));
    if (getenv("FUZZ_DEBUG"))
        fprintf(stderr, "request %d: error %d, connection error %d\n", mode & 7,
                e != NULL ? e->error_code : -1, xcb_connection_has_error(fc.c));
    free(e);
    fuzz_conn_close(&fc);

    /* Ours to close or hand over: the fds libxcb attached to the reply that
     * _reply() fetched. libxcb's core leaks the others (fds no reply
     * claimed, fds of replies nobody fetched): see README.md. */
    claimed = reply_fetched && ((1u << (mode & 7)) & FD_REQUESTS)
        ? fuzz_stream_claimed_fds(&s, FUZZ_FIRST_SEQ - 1, FUZZ_FIRST_SEQ, nfds) : 0;
    fuzz_fds_leaked(&before, &fc, claimed, &ours, &libxcbs);
    if (ours > 0)
        fuzz_finding("%d fd(s) that the library received with its reply left open", ours);
    if (fuzz_strict_leaks() && libxcbs > 0)
        fuzz_finding("%d fd(s) that libxcb's core received left open", libxcbs);
    fuzz_stream_free(&s);
    return 0;
}
