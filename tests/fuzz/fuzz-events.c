/*
 * Fuzz target: Present events (ConfigureNotify, CompleteNotify, IdleNotify,
 * RedirectNotify with its notifies, unknown ones) and whatever else a
 * malicious server mixes in, through a real libxcb connection, read with
 * xcb_wait_for_event(), xcb_poll_for_event() and a special event queue.
 *
 * Input: byte 0 registers a special event queue for Present (bit 0), makes
 * each Generic Event's event id the queue's (bit 1) and its extension
 * Present's (bit 2), cuts the stream short instead of zero-padding it
 * (bit 3) and reads with the polling calls instead of the waiting ones
 * (bit 4); byte 1 % 5 is the number of fds sent with the stream, which no
 * event claims; the rest is the stream of packets (see fuzz_stream_build).
 * Every field of every event is read where the event's length says it
 * exists, and every notify that the accessors count.
 */
#include <stdlib.h>
#include <string.h>
#include <xcb/present.h>

#include "fuzz-conn.h"

#define EID 0x00200010u
/* An event type Present does not have: the harness's own last event. */
#define SENTINEL_TYPE 0xfffe

/* The fds sent with the stream are claimed by no reply, so libxcb's core
 * keeps and leaks them (README.md); FUZZ_STRICT_LEAKS=1 counts them
 * (fuzz_strict_leaks()). */

static void patch_event(uint8_t *p, size_t len, void *data)
{
    uint8_t mode = *(const uint8_t *)data;

    (void)len;
    if ((p[0] & 0x7f) != 35)
        return;
    if (mode & 4)
        p[1] = FUZZ_PRESENT_MAJOR;
    if (mode & 2) {
        p[12] = (uint8_t)EID;
        p[13] = (uint8_t)(EID >> 8);
        p[14] = (uint8_t)(EID >> 16);
        p[15] = (uint8_t)(EID >> 24);
    }
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static void redirect_notify(const xcb_present_redirect_notify_event_t *ev, size_t have)
{
    const xcb_present_notify_t *n = xcb_present_redirect_notify_notifies(ev);
    int len = xcb_present_redirect_notify_notifies_length(ev);
    xcb_present_notify_iterator_t it = xcb_present_redirect_notify_notifies_iterator(ev);
    int seen = 0;

    fuzz_touch(ev, min_size(sizeof(*ev), have));
    if (len > 0)
        fuzz_touch(n, (size_t)len * sizeof(*n));
    for (; it.rem > 0 && seen < len; xcb_present_notify_next(&it), seen++)
        fuzz_touch(it.data, sizeof(*it.data));
    if (len > 0 && seen != len)
        fuzz_finding("the notifies iterator gave %d of %d notifies", seen, len);
    if (len > 0 && xcb_present_notify_end(xcb_present_redirect_notify_notifies_iterator(ev)).data
                       != n + len)
        fuzz_finding("xcb_present_notify_end() does not point after the last notify");
    fuzz_touch(&(int){ xcb_present_redirect_notify_sizeof(ev, len > 0 ? (uint32_t)len : 0) },
               sizeof(int));
}

static void handle(xcb_generic_event_t *ev)
{
    size_t have = sizeof(xcb_generic_event_t);  /* what libxcb allocates */
    const xcb_ge_generic_event_t *ge = (const void *)ev;

    if ((ev->response_type & 0x7f) == 35)
        have += (size_t)ge->length * 4;
    fuzz_touch(ev, have);
    if ((ev->response_type & 0x7f) == 35 && ge->extension == FUZZ_PRESENT_MAJOR) {
        switch (ge->event_type) {
        case XCB_PRESENT_CONFIGURE_NOTIFY:
            fuzz_touch(ev, min_size(sizeof(xcb_present_configure_notify_event_t), have));
            break;
        case XCB_PRESENT_COMPLETE_NOTIFY:
            fuzz_touch(ev, min_size(sizeof(xcb_present_complete_notify_event_t), have));
            break;
        case XCB_PRESENT_IDLE_NOTIFY:
            fuzz_touch(ev, min_size(sizeof(xcb_present_idle_notify_event_t), have));
            break;
        case XCB_PRESENT_REDIRECT_NOTIFY:
            redirect_notify((const void *)ev, have);
            break;
        default:
            fuzz_touch(ev, min_size(sizeof(xcb_present_generic_event_t), have));
            break;
        }
    }
    free(ev);
}

/*
 * After the fuzzed stream comes one more special event, so that reading the
 * special queue can stop before end-of-file: libxcb 1.15 leaks a special
 * queue that is unregistered after the connection failed (README.md).
 * An input whose lengths swallow the sentinel still ends at end-of-file.
 */
static void append_sentinel(struct fuzz_stream *s)
{
    uint8_t *b = realloc(s->bytes, s->len + 32);

    if (b == NULL)
        abort();
    memset(b + s->len, 0, 32);
    b[s->len] = 35;
    b[s->len + 1] = FUZZ_PRESENT_MAJOR;
    b[s->len + 2] = FUZZ_FIRST_SEQ - 1;
    b[s->len + 8] = (uint8_t)SENTINEL_TYPE;
    b[s->len + 9] = (uint8_t)(SENTINEL_TYPE >> 8);
    b[s->len + 12] = (uint8_t)EID;
    b[s->len + 13] = (uint8_t)(EID >> 8);
    b[s->len + 14] = (uint8_t)(EID >> 16);
    b[s->len + 15] = (uint8_t)(EID >> 24);
    s->bytes = b;
    s->len += 32;
}

static bool is_sentinel(const xcb_generic_event_t *ev)
{
    const xcb_ge_generic_event_t *ge = (const void *)ev;

    return (ev->response_type & 0x7f) == 35 && ge->extension == FUZZ_PRESENT_MAJOR &&
           ge->event_type == SENTINEL_TYPE && ge->length == 0 &&
           ((const xcb_present_generic_event_t *)ev)->event == EID;
}

static void read_events(xcb_connection_t *c, xcb_special_event_t **se, bool poll)
{
    xcb_generic_event_t *ev;

    if (!poll) {
        /* Each returns NULL once the connection has read end-of-file. */
        if (*se != NULL) {
            while ((ev = xcb_wait_for_special_event(c, *se)) != NULL) {
                bool last = is_sentinel(ev);

                handle(ev);
                if (last) {
                    xcb_unregister_for_special_event(c, *se);
                    *se = NULL;
                    break;
                }
            }
        }
        while ((ev = xcb_wait_for_event(c)) != NULL)
            handle(ev);
        return;
    }
    /* All the stream and its end-of-file are in the socket already, so each
     * round without an event reads further; the cap only guards the harness. */
    for (int round = 0; round < 100000; round++) {
        bool progress = false;

        if (*se != NULL && (ev = xcb_poll_for_special_event(c, *se)) != NULL) {
            bool last = is_sentinel(ev);

            handle(ev);
            if (last) {
                xcb_unregister_for_special_event(c, *se);
                *se = NULL;
            }
            progress = true;
        }
        if ((ev = xcb_poll_for_event(c)) != NULL) {
            handle(ev);
            progress = true;
        }
        if (!progress && xcb_connection_has_error(c))
            break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    extern xcb_extension_t xcb_present_id;
    struct fuzz_fds before;
    struct fuzz_conn fc;
    struct fuzz_stream s;
    xcb_special_event_t *se = NULL;
    uint8_t mode;
    int ours, libxcbs;

    if (size < 2)
        return -1;
    mode = data[0];
    fuzz_fds_snapshot(&before);
    if (!fuzz_conn_open(&fc))
        fuzz_finding("harness: cannot connect over a socketpair");
    if (mode & 1)
        se = xcb_register_for_special_xge(fc.c, &xcb_present_id, EID, NULL);

    fuzz_stream_build(&s, data + 2, size - 2, FUZZ_FIRST_SEQ - 1, true, (mode & 8) != 0,
                      patch_event, &mode);
    if (se != NULL)
        append_sentinel(&s);
    /* End-of-file even for the polling calls: libxcb's poll functions block
     * until the rest of a packet whose first 32 bytes they have read. */
    fuzz_conn_send(&fc, &s, data[1] % (FUZZ_MAX_FDS + 1), true);
    read_events(fc.c, &se, (mode & 0x10) != 0);
    if (se != NULL) {
        /* After a connection error libxcb 1.15 returns without freeing the
         * queue: keep it reachable, so that leak checkers outside libFuzzer
         * (valgrind, for the replay in `make check`) do not blame the
         * input. One process replays one input, so one is kept. */
        fuzz_keep_reachable = se;
        xcb_unregister_for_special_event(fc.c, se);
    }
    fuzz_conn_close(&fc);

    fuzz_fds_leaked(&before, &fc, 0, &ours, &libxcbs);
    if (ours > 0)
        fuzz_finding("%d fd(s) left open that the harness did not send", ours);
    if (fuzz_strict_leaks() && libxcbs > 0)
        fuzz_finding("%d fd(s) that libxcb's core received left open", libxcbs);
    fuzz_stream_free(&s);
    return 0;
}
