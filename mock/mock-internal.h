/*
 * The mock server's insides, shared by its source files:
 *   mock-core.c       event loop, clients, input with fds, framing, dispatch
 *   mock-output.c     replies, errors and events with their fds; faults
 *   mock-record.c     the transcript writer
 *   mock-setup.c      the X11 connection handshake
 *   mock-config.c     configuration keys and fault specs
 *   mock-resources.c  the XID table, windows and pixmaps (memfd backed)
 *   mock-core-requests.c  core protocol, BIG-REQUESTS, Generic Event Ext.
 *   mock-sync.c       SYNC fences, all backed by a futex page
 *   mock-syncobj.c    imported syncobjs, PixmapSynced's release points
 *   mock-xfixes.c     XFixes regions (update regions in the transcript)
 *   mock-dri3.c       DRI3 1.4
 *   mock-present.c    Present 1.4: requests and the queue of presentations
 *   mock-present-events.c  Present's SelectInput and events (mock-present.h)
 *   mock-crtc.c       the fake CRTC's vblank clock
 *   mock-child.c      mock_server_start/stop/connect for tests
 *   mock-socket.c     mock_listen_unix
 *   mock-transcript.c reading the transcript back
 *   mock-x-server.c   the program
 *
 * The server is single-threaded: one poll() loop, no locks.  Times are
 * microseconds of CLOCK_MONOTONIC.
 */
#ifndef MOCK_INTERNAL_H
#define MOCK_INTERNAL_H

#include "mock-server.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The mock's clock (UST, the CRTC, held output): CLOCK_MONOTONIC, the
 * clock of the libraries' deadlines and of the tests, so that a client
 * compares its own times with the mock's directly. */
static inline int64_t mock_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct mock_server_state;
struct flip_hold;

#define MOCK_MAX_CLIENTS 64
#define MOCK_MAX_FAULTS 16
#define MOCK_MAX_MODIFIERS 64
#define MOCK_MAX_FDS_IN 64       /* fds queued per client, not yet taken */

/* X error codes (core), and the ones the mock's extensions add. */
enum {
    MOCK_BAD_REQUEST = 1, MOCK_BAD_VALUE = 2, MOCK_BAD_WINDOW = 3,
    MOCK_BAD_PIXMAP = 4, MOCK_BAD_ATOM = 5, MOCK_BAD_MATCH = 8,
    MOCK_BAD_DRAWABLE = 9, MOCK_BAD_ALLOC = 11, MOCK_BAD_ID_CHOICE = 14,
    MOCK_BAD_LENGTH = 16, MOCK_BAD_IMPLEMENTATION = 17, MOCK_BAD_GC = 13,
    MOCK_BAD_ACCESS = 10,
    /* SYNC: first_error + 2 */
    MOCK_BAD_FENCE = MOCK_SYNC_FIRST_ERROR + 2,
};

/* Present capability bits and options (protocol values). */
enum {
    MOCK_CAP_ASYNC = 1, MOCK_CAP_FENCE = 2, MOCK_CAP_UST = 4,
    MOCK_CAP_ASYNC_MAY_TEAR = 8, MOCK_CAP_SYNCOBJ = 16,
};

/* ---- configuration ---------------------------------------------------- */

enum mock_fault_kind {
    MOCK_FAULT_REPLY_LENGTH, MOCK_FAULT_EXTRA_FDS, MOCK_FAULT_MISSING_FDS,
    MOCK_FAULT_WRONG_FD, MOCK_FAULT_BAD_EVENT, MOCK_FAULT_CLOSE_AFTER,
    MOCK_FAULT_CLOSE_MID_REPLY, MOCK_FAULT_STALL, MOCK_FAULT_ERROR, MOCK_FAULT_EMPTY_FD,
    MOCK_FAULT_NO_REPLY,
};

struct mock_fault {
    enum mock_fault_kind kind;
    int major, minor;           /* minor -1: a core request (major only) */
    uint32_t seq;               /* nonzero: "seq=N" target instead */
    int arg;                    /* DELTA, N, MS or CODE */
};

enum mock_open_mode { MOCK_OPEN_MEMFD, MOCK_OPEN_NONE, MOCK_OPEN_PATH };

/* "present-event-fault": mock-present-faults.c */
#define MOCK_MAX_EVENT_FAULTS 4
enum mock_event_fault_kind {
    MOCK_EVENT_DROP_IDLE, MOCK_EVENT_COMPLETE_MSC, MOCK_EVENT_DROP_ALL, MOCK_EVENT_CONFIGURE_ZERO,
    MOCK_EVENT_PROXY,
};
struct mock_event_fault {
    enum mock_event_fault_kind kind;
    uint64_t n;             /* every N-th / the K-th */
    uint64_t msc;
    uint64_t count, every;  /* drop-all: how many from the K-th on, repeated every EVERY */
};
bool mock_event_fault_parse(const char *spec, struct mock_event_fault *f);
struct mock_server_state;
/* Counts an IdleNotify about to go out: false when a fault drops it. */
bool mock_event_fault_idle(struct mock_server_state *s);
/* Counts a pixmap's CompleteNotify about to go out; may change its msc.
 * False when a fault drops it. */
bool mock_event_fault_complete(struct mock_server_state *s, uint64_t *msc);
/* After a pixmap's CompleteNotify (sent or dropped): true when a fault
 * sends a ConfigureNotify of 0x0 for the window now. */
bool mock_event_fault_configure_zero(const struct mock_server_state *s);
/* "proxy": how many copies of a pixmap's CompleteNotify or an IdleNotify
 * go out (0: lost, 1, or 2: duplicated); may alter *serial. */
int mock_event_fault_proxy(struct mock_server_state *s, const char *what, uint32_t *serial);

struct mock_config {
    int dri3_major, dri3_minor;         /* major 0: no DRI3 */
    int present_major, present_minor;   /* major 0: no Present */
    uint32_t present_caps;
    uint32_t window_caps;               /* QueryCapabilities of other windows */
    bool window_caps_set;               /* false: window_caps follows present_caps */
    enum mock_open_mode open_mode;
    char *open_path;
    /* "dri3-pixmap-fds dmabuf": PixmapFromBuffer(s) refuses every fd
     * but a dma-buf (BadAlloc), as a GPU server's glamor does */
    bool pixmaps_dmabuf_only;
    uint64_t modifiers_window[MOCK_MAX_MODIFIERS];
    int n_modifiers_window;
    uint64_t modifiers_screen[MOCK_MAX_MODIFIERS];
    int n_modifiers_screen;
    /* "modifiers-window-later": the window's list from later_modifiers_ms
     * after the start on; 0 ms: none */
    int later_modifiers_ms;
    uint64_t later_modifiers_window[MOCK_MAX_MODIFIERS];
    int n_later_modifiers_window;
    int msc_rate_hz;
    int later_rate_ms, later_rate_hz;   /* "msc-rate-later"; 0: none */
    struct mock_event_fault event_faults[MOCK_MAX_EVENT_FAULTS];
    int n_event_faults;
    int screen_width, screen_height;
    char *transcript_path;
    bool transcript_off;                /* "transcript off": none at all */
    char *stats_path;                   /* NoOperation writes counts here */
    bool shm;                           /* "shm on": MIT-SHM (default off) */
    bool xfixes;                        /* "xfixes on": regions (default off) */
    int complete_mode;                  /* mock-present-modes.c */
    bool release_attach_only;           /* "syncobj-release attach" */
    struct mock_fault faults[MOCK_MAX_FAULTS];
    int n_faults;
};

/* ---- resources --------------------------------------------------------- */

enum mock_res_type {
    MOCK_RES_WINDOW, MOCK_RES_PIXMAP, MOCK_RES_FENCE, MOCK_RES_SYNCOBJ,
    MOCK_RES_PRESENT_EVENT,
    MOCK_RES_GC, MOCK_RES_SHM_SEG,     /* mock-core-draw.c, mock-shm.c */
    MOCK_RES_REGION,                    /* mock-xfixes.c */
};

struct mock_client;

/* Windows and pixmaps.  Every drawable's pixels live in a shared memfd
 * mapping (32 bits per pixel for depth 24 and 32), so that a pixmap
 * imported with DRI3 shows the client's writes without a copy and
 * BufferFromPixmap can hand out any pixmap. */
struct mock_plane {
    int fd;                 /* -1 for unused planes */
    uint32_t offset, stride;
};

struct mock_drawable {
    uint32_t id;
    bool is_window;
    uint16_t width, height;
    uint8_t depth, bpp;
    /* the pixels: plane 0 of map, at planes[0].offset, rows of
     * planes[0].stride bytes */
    struct mock_plane planes[4];
    int nplanes;
    uint64_t modifier;      /* DRM_FORMAT_MOD_INVALID unless imported */
    uint8_t *map;           /* mapping of planes[0].fd, map_size bytes */
    size_t map_size;
    /* windows only */
    uint32_t parent;
    int16_t x, y;
    uint16_t border_width;
    bool mapped;
};

struct mock_fence {
    uint32_t id;
    uint32_t drawable;      /* the drawable it was created for */
    int fd;                 /* the futex page (memfd, or the client's fd) */
    int32_t *word;          /* mapped futex word, libxshmfence's layout */
};

struct mock_resource {
    uint32_t id;
    enum mock_res_type type;
    struct mock_client *owner;  /* freed with the client; NULL: server's */
    void *data;
    void (*destroy)(struct mock_server_state *, void *data);
};

/* ---- the server and its clients ---------------------------------------- */

struct mock_out_marker {        /* fds to attach at byte `offset` of out */
    size_t offset;
    int fds[8];
    int nfds;
};

struct mock_client {
    struct mock_server_state *server;
    int index;                  /* 1, 2, ... in connection order */
    int fd;
    bool setup_done;
    bool closing;               /* flush what is queued, then close */
    /* closing, all written: our side is shut down for writing and we wait
     * until then for the client to go (closing at once could make the
     * client's poll() see POLLHUP before it has read the last reply) */
    uint64_t linger_until;
    bool big_requests;          /* BIG-REQUESTS enabled */
    uint32_t seq;               /* requests handled so far */
    uint32_t id_base, id_mask;

    uint8_t *in; size_t in_len, in_cap;
    size_t in_skip;             /* bytes of a refused oversized request
                                 * still to be thrown away */
    int in_fds[MOCK_MAX_FDS_IN]; int n_in_fds;

    uint8_t *out; size_t out_len, out_cap;
    struct mock_out_marker *markers; size_t n_markers, cap_markers;
    uint64_t out_hold_until;    /* stall fault: write nothing before */

    /* AwaitFence: while set, the client's requests wait; the core calls
     * blocked() before reading on and clears it when it returns false. */
    bool (*blocked)(struct mock_client *, void *data);
    void *blocked_data;
    /* optional: frees blocked_data, called when blocked() has returned
     * false or when the client goes away while blocked */
    void (*blocked_free)(void *data);
};

/* One request as the dispatcher sees it. */
struct mock_request {
    struct mock_client *client;
    uint32_t seq;
    uint8_t major, minor;       /* minor: byte 1 */
    const uint8_t *data;        /* the whole request as received */
    size_t length;              /* bytes */
    size_t body;                /* offset of the first byte after the
                                 * header: 4, or 8 for a BIG-REQUESTS form */
    /* fds the handler took with mock_take_fd(), for the transcript */
    int taken[8]; int ntaken;
    /* what each taken fd was when it was taken (the handler may close it
     * before the transcript line is written) */
    struct mock_fd_record taken_info[8];
    bool errored;               /* an X error was sent for it */
    bool replied;               /* its reply went out (and took its faults) */
};

/* A request field at wire offset `off` of the ordinary (non-BIG-REQUESTS)
 * encoding, wherever the request's header put it. */
static inline const uint8_t *mock_req_field(const struct mock_request *req, size_t off)
{
    return req->data + off + (req->body - 4);
}
/* The request's size in bytes as if it had the ordinary 4-byte header, to
 * compare with the wire offsets that mock_req_field takes. */
static inline size_t mock_req_size(const struct mock_request *req)
{
    return req->length - (req->body - 4);
}

struct mock_extension {
    const char *name;           /* as QueryExtension is asked */
    uint8_t major, first_event, first_error;
    bool (*present)(const struct mock_config *);   /* advertised? */
    void (*dispatch)(struct mock_request *req);
    /* optional hooks */
    uint64_t (*next_wakeup)(struct mock_server_state *);  /* UINT64_MAX: none */
    void (*wakeup)(struct mock_server_state *);           /* time passed */
    void (*drawable_destroyed)(struct mock_server_state *, struct mock_drawable *);
    void (*window_configured)(struct mock_server_state *, struct mock_drawable *,
                              bool resized);
    /* called after the client's resources were freed (and their
     * drawable_destroyed hooks ran) */
    void (*client_gone)(struct mock_client *);
    void (*fence_triggered)(struct mock_server_state *, struct mock_fence *);
    /* shutdown, after every client is gone: free the extension's state */
    void (*server_gone)(struct mock_server_state *);
};

struct mock_server_state {
    const struct mock_config *cfg;
    struct mock_client *clients[MOCK_MAX_CLIENTS];
    int next_client_index;
    int listen_fd;
    FILE *transcript;
    bool faults_used[MOCK_MAX_FAULTS];
    struct mock_resource *resources; size_t n_resources, cap_resources;
    uint32_t root, root_visual, argb_visual;
    uint32_t bgr30_visual;              /* depth 30, red in the low bits */
    uint32_t atoms_next; char **atom_names; size_t n_atoms;
    uint64_t start_us;          /* the CRTC's MSC 0 */
    uint64_t n_idle_sent, n_complete_sent;  /* for "present-event-fault" */
    uint64_t proxy_rng;                     /* "proxy": its random state, 0: unseeded */
    void *present;              /* mock-present.c's state */
    void *dri3;                 /* mock-dri3.c's state */
    struct flip_hold *present_flips;    /* mock-present-modes.c */
    void *syncobjs;                     /* mock-syncobj.c's state */
};

/* mock-core.c --------------------------------------------------------- */

/* Takes the next fd that came with the client's requests, or -1 (a
 * handler answers BadLength / BadMatch then, as its request demands).  The
 * handler owns it. */
int mock_take_fd(struct mock_request *req);
/* Queues a reply: buf holds len bytes (>= 32, a multiple of 4) with byte 0
 * = 1 and byte 1 and bytes 8.. filled in; the core writes the sequence
 * number and the length field and applies faults.  fds (may be NULL) are
 * sent with the reply's first byte and closed afterwards; ownership passes
 * to the core whatever happens. */
void mock_send_reply(struct mock_request *req, void *buf, size_t len,
                     const int *fds, int nfds);
/* An X error for the request (the sequence number is req's). */
void mock_send_error(struct mock_request *req, uint8_t code, uint32_t bad_value);
/* An event: 32 bytes, or a Generic Event (byte 0 = 35) of len bytes whose
 * length field the core fills in.  The core writes the sequence number of
 * the last request the client's handled. */
void mock_send_event(struct mock_client *client, void *buf, size_t len);
/* Queues bytes as they are, with no sequence number (the handshake). */
void mock_queue_bytes(struct mock_client *client, const void *buf, size_t len);
/* Appends an "info" line to the transcript. */
void mock_info(struct mock_server_state *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The extensions the server has (for QueryExtension and dispatch). */
const struct mock_extension *mock_find_extension(struct mock_server_state *s,
                                                 const char *name, size_t len);
/* Run the advertised extensions' hooks of the same names. */
void mock_hook_drawable_destroyed(struct mock_server_state *s, struct mock_drawable *d);
void mock_hook_window_configured(struct mock_server_state *s, struct mock_drawable *d,
                                 bool resized);
void mock_hook_fence_triggered(struct mock_server_state *s, struct mock_fence *f);

/* Little-endian access to request and reply bytes (the mock only speaks
 * LSB-first, which is what x86 libxcb sends; a 'B' setup is refused). */
static inline uint16_t mock_get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t mock_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t mock_get64(const uint8_t *p)
{
    return (uint64_t)mock_get32(p) | (uint64_t)mock_get32(p + 4) << 32;
}
static inline void mock_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void mock_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void mock_put64(uint8_t *p, uint64_t v)
{
    mock_put32(p, (uint32_t)v); mock_put32(p + 4, (uint32_t)(v >> 32));
}

/* mock-output.c ------------------------------------------------------- */

/* Writes what the client's queue holds, as far as it goes without
 * blocking and its stall fault allows. */
void mock_flush_out(struct mock_client *c);
/* The fault of this kind that the request triggers, marked used; NULL if
 * none does. */
const struct mock_fault *mock_take_fault(struct mock_request *req, enum mock_fault_kind kind);
/* Closes the fds that are not -1. */
void mock_close_fds(const int *fds, int n);

/* mock-record.c ------------------------------------------------------- */

/* What kind of file fd is, for the transcript. */
void mock_describe_fd(int fd, struct mock_fd_record *r);
/* The "request" line and its "fd" lines. */
void mock_record_request(struct mock_server_state *s, const struct mock_request *req);

/* mock-setup.c -------------------------------------------------------- */

/* Handles the handshake once the client's setup request is complete in
 * client->in: answers success or failure and consumes the bytes.  Returns
 * the number of bytes consumed, 0 if more are needed, -1 after queuing a
 * failure reply (the core closes the client once it is flushed). */
long mock_setup_handle(struct mock_client *client);

/* mock-resources.c ---------------------------------------------------- */

/* 0, or an X error code (BadIDChoice) when id is taken or outside the
 * client's range (owner NULL skips the range check). */
int mock_resource_add(struct mock_server_state *s, struct mock_client *owner,
                      uint32_t id, enum mock_res_type type, void *data,
                      void (*destroy)(struct mock_server_state *, void *));
/* A request's new resource id for data: added (true), or else data
 * destroyed and the X error sent (false). */
bool mock_resource_add_or_refuse(struct mock_request *req, uint32_t id, enum mock_res_type type,
                                 void *data, void (*destroy)(struct mock_server_state *, void *));
void *mock_resource_find(struct mock_server_state *s, uint32_t id, enum mock_res_type type);
/* Runs destroy and forgets the id; false if there was none.  For windows
 * and pixmaps the drawable_destroyed hooks run first. */
bool mock_resource_free(struct mock_server_state *s, uint32_t id);
void mock_resources_free_client(struct mock_server_state *s, struct mock_client *c);
void mock_resources_free_all(struct mock_server_state *s);
/* Writes the resource counts to the config's stats file, if any (a
 * NoOperation request asks for it; see mock_server_stats()). */
void mock_resources_write_stats(struct mock_server_state *s);

/* A window or pixmap (type MOCK_RES_WINDOW or MOCK_RES_PIXMAP, or either
 * for "drawable" with want_window < 0). */
struct mock_drawable *mock_drawable_find(struct mock_server_state *s, uint32_t id,
                                         int want_window);
/* A new memfd-backed drawable, zero-filled, depth 24 or 32 (bpp 32), or
 * NULL when memory runs out.  Not registered yet. */
struct mock_drawable *mock_drawable_new(uint16_t width, uint16_t height, uint8_t depth);
/* A pixmap whose plane 0 maps the client's fd at offset/stride (DRI3);
 * takes ownership of fds (nplanes of them).  NULL with *error set to the X
 * error (BadAlloc when the fd is too small for offset + stride * height or
 * cannot be mapped, BadMatch when it is neither a regular file, a memfd
 * nor a dma-buf). */
struct mock_drawable *mock_drawable_import(uint16_t width, uint16_t height, uint8_t depth,
                                           uint8_t bpp, const struct mock_plane *planes,
                                           int nplanes, uint64_t modifier, int *error);
void mock_drawable_free(struct mock_server_state *s, void *drawable);
/* Whether fd is a dma-buf (a GPU driver's buffer, which only a machine
 * with a DRM device makes): its /proc link names it. */
bool mock_fd_is_dmabuf(int fd);
/* Resizes a window's pixel store, keeping the overlapping pixels. */
int mock_drawable_resize(struct mock_drawable *d, uint16_t width, uint16_t height);
uint32_t mock_drawable_pixel(const struct mock_drawable *d, int x, int y);
/* Copies src into dst at (dx, dy), clipped to dst. */
void mock_drawable_copy(struct mock_drawable *dst, const struct mock_drawable *src,
                        int dx, int dy);

/* mock-sync.c ---------------------------------------------------------- */

/* Fences follow libxshmfence's futex protocol on *word: 0 not triggered,
 * 1 triggered, -1 not triggered with waiters (trigger wakes them). */
struct mock_fence *mock_fence_new(uint32_t id, uint32_t drawable, bool triggered);
/* Takes ownership of fd; NULL with *error set (BadMatch when it cannot be
 * mapped or is smaller than 4 bytes). */
struct mock_fence *mock_fence_import(uint32_t id, uint32_t drawable, int fd, int *error);
bool mock_fence_is_triggered(const struct mock_fence *f);
/* Triggers (waking futex waiters) and tells the extensions' hooks. */
void mock_fence_trigger(struct mock_server_state *s, struct mock_fence *f);
void mock_fence_reset(struct mock_fence *f);
void mock_fence_free(struct mock_server_state *s, void *fence);
void mock_sync_dispatch(struct mock_request *req);

/* mock-syncobj.c ------------------------------------------------------- */

struct mock_syncobj;
struct mock_release;
/* Takes ownership of fd, whatever happens: a memfd timeline page, a DRM
 * syncobj (with a DRM device) or an opaque stand-in; NULL with *error set
 * (BadAlloc). */
struct mock_syncobj *mock_syncobj_import(struct mock_server_state *s, int fd, int *error);
const char *mock_syncobj_kind(const struct mock_syncobj *so);
struct mock_syncobj *mock_syncobj_ref(struct mock_syncobj *so);
/* A resource's destroy function too (syncobj may be NULL). */
void mock_syncobj_unref(struct mock_server_state *s, void *syncobj);
/* True when point is signalled (always, for an opaque stand-in). */
bool mock_syncobj_signalled(struct mock_server_state *s, const struct mock_syncobj *so,
                            uint64_t point);
/* A synced presentation's claim on its pixmap, until its release point is
 * signalled; NULL when memory ran out (the point is then never signalled). */
struct mock_release *mock_release_new(struct mock_server_state *s, uint32_t window,
                                      uint32_t pixmap, uint32_t serial, uint32_t syncobj_id,
                                      struct mock_syncobj *syncobj, uint64_t point);
/* Signals the release point, says so in the transcript ("why": copied,
 * skipped, ...) and frees r (NULL is allowed). */
void mock_release_signal(struct mock_server_state *s, struct mock_release *r, const char *why);
void mock_syncobj_server_gone(struct mock_server_state *s);

/* mock-xfixes.c: a region's rectangles in words, for the transcript. */
void mock_region_describe(struct mock_server_state *s, uint32_t id, char *buf, size_t size);

/* mock-core-requests.c ------------------------------------------------- */
void mock_core_dispatch(struct mock_request *req);
void mock_bigreq_dispatch(struct mock_request *req);
void mock_ge_dispatch(struct mock_request *req);

/* mock-core-draw.c: GCs, PutImage, CopyArea, window attributes, the
 * queries Xlib makes; true when it handled the request. */
bool mock_core_draw_dispatch(struct mock_request *req);
/* mock-core.c: the names of the advertised extensions (at most max). */
size_t mock_extension_names(struct mock_server_state *s, const char **names, size_t max);

/* mock-crtc.c: the fake CRTC's clock ----------------------------------- */

/* The current MSC. */
uint64_t mock_crtc_msc(const struct mock_server_state *s);
/* When msc begins (its UST), in microseconds; UINT64_MAX for an MSC too
 * far ahead. */
uint64_t mock_crtc_vblank_us(const struct mock_server_state *s, uint64_t msc);

/* mock-dri3.c, mock-present.c ------------------------------------------ */
extern const struct mock_extension mock_dri3_extension;
extern const struct mock_extension mock_present_extension;
extern const struct mock_extension mock_sync_extension;
extern const struct mock_extension mock_bigreq_extension;
extern const struct mock_extension mock_ge_extension;
extern const struct mock_extension mock_shm_extension;
extern const struct mock_extension mock_xfixes_extension;

/* mock-present-modes.c: "copy", "flip", "suboptimal" to a MOCK_COMPLETE_*
 * value, or -1. */
enum { MOCK_COMPLETE_COPY, MOCK_COMPLETE_FLIP, MOCK_COMPLETE_SUBOPTIMAL };
int mock_present_mode_parse(const char *value);

/* mock-config.c -------------------------------------------------------- */
void mock_config_defaults(struct mock_config *cfg);

#endif
