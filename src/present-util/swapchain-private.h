/*
 * The swapchain's insides, shared by its source files:
 *   swapchain.c       create, destroy, the public getters
 *   swapchain-wait.c  bounded waits: replies, events, the window probe
 *   swapchain-events.c  Present events: completion, idle, configure
 *   swapchain-frame.c acquire and present, the pacing of each mode
 *   swapchain-stats.c statistics and the latency window
 *   swapchain-debug.c XCB_PRESENT_UTIL_DEBUG logging
 *   backend-shm.c, backend-put-image.c, backend-dri3.c  the back ends
 *
 * Locking: sc->lock guards everything below it in the struct; it is held
 * while events are processed and never across a poll().
 */
#ifndef SWAPCHAIN_PRIVATE_H
#define SWAPCHAIN_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <xcb/present.h>

#include "xcb_present_util.h"

#pragma GCC visibility push(hidden)

/* The public handle's struct, under a short name. */
typedef struct xcb_present_util_swapchain sc_t;

/* ConfigureNotify pixmap_flags bit 0 (Present 1.2): the window is gone. */
#define SC_WINDOW_DESTROYED 1u
#define SC_MAX_BUFFERS 8
#define SC_DEFAULT_BUFFERS 3
#define SC_MAX_FRAMES 256           /* frames awaiting completion, at most */
#define SC_LATENCY_WINDOW 256
#define SC_ROUND_TRIP_NS 1000000000LL   /* bound of every round trip */
#define SC_MAX_WAIT_NS 10000000000LL    /* acquire's bound for "forever" */
#define SC_PROBE_AFTER_NS 30000000LL    /* quiet this long: is the window there? */
#define SC_RESIZE_SETTLE_NS 30000000LL  /* a new size this old is used */
#define SC_RESIZE_FORCE_NS 100000000LL  /* during a drag, reallocate this often */

struct buffer;

/* A back end makes and frees the server-side pixmap of a buffer and its
 * pixels in our memory. */
struct backend_ops {
    xcb_present_util_backend_t kind;
    /* -ENOTSUP when the server cannot do it; may set sc->backend_data */
    int (*init)(sc_t *sc);
    /* b->width/height are set; fills pixels, stride, pixmap */
    int (*alloc)(sc_t *sc, struct buffer *b);
    void (*free)(sc_t *sc, struct buffer *b);
    /* optional: the pixels reach the pixmap (PutImage) before presenting */
    int (*upload)(sc_t *sc, struct buffer *b);
    /* optional: the buffer's idle fence, 0 for none */
    uint32_t (*idle_fence)(sc_t *sc, struct buffer *b);
    /* optional: after IdleNotify, true when the buffer can be written
     * (its idle fence triggered); may wait up to timeout_ns */
    bool (*is_idle)(sc_t *sc, struct buffer *b, int64_t timeout_ns);
    /* optional: sends the presentation itself (PresentPixmapSynced) and
     * returns 1; 0 lets the core send PresentPixmap; a negative errno
     * refuses the frame.  update: the XFixes region of the frame's
     * damage, 0 for the whole buffer */
    int (*present)(sc_t *sc, struct buffer *b, uint32_t options, uint64_t target,
                   uint32_t update);
    /* optional: a SuboptimalCopy completion; true when buffers must be
     * reallocated */
    bool (*suboptimal)(sc_t *sc);
    void (*fini)(sc_t *sc);
};

extern const struct backend_ops sc_backend_shm;
extern const struct backend_ops sc_backend_put_image;
extern const struct backend_ops sc_backend_dri3;

enum buffer_state { BUF_FREE, BUF_ACQUIRED, BUF_PRESENTED };

struct buffer {
    uint32_t index;
    enum buffer_state state;
    bool idle_notified;             /* IdleNotify seen for last_serial */
    bool stale;                     /* reallocate before the next use */
    uint16_t width, height;
    uint32_t stride;
    void *pixels;
    size_t size;
    xcb_pixmap_t pixmap;            /* 0 while not allocated */
    uint64_t last_serial;           /* of its last presentation */
    void *priv;                     /* the back end's */
};

struct frame {
    uint64_t serial;                /* 0: slot unused */
    uint64_t target_msc;
    uint64_t submit_us;
    uint32_t index;
    bool client_late;
};

struct xcb_present_util_swapchain {
    xcb_connection_t *c;
    xcb_window_t window;
    xcb_present_util_mode_t mode;
    const struct backend_ops *backend;
    void *backend_data;
    uint32_t backend_options;       /* PresentOption bits the back end adds */
    uint32_t num_buffers;
    uint8_t depth;
    uint32_t fourcc;
    uint32_t caps;                  /* Present capabilities of the window */
    uint32_t event_id;
    xcb_special_event_t *special;
    uint32_t stamp;                 /* libxcb counts events it queues for us */
    uint32_t drained_stamp;         /* stamp when our queue was last empty */
    uint32_t region;                /* XFixes region for damage, 0: none */
    bool debug;
    int epoll_fd, work_fd, cancel_fd;   /* get_fd's epoll, its eventfd, destroy's */

    pthread_mutex_t lock;
    pthread_cond_t idle_cond;       /* waiters left, for destroy */
    int waiters;                    /* threads inside acquire() */
    bool destroying;
    int dead;                       /* 0, -ENODEV or -EPIPE, once known */

    uint16_t win_width, win_height;     /* as last heard */
    uint64_t size_changed_ns;           /* when win_* last changed */
    uint64_t mismatch_since_ns;         /* first acquire with stale size */
    struct buffer buffers[SC_MAX_BUFFERS];

    uint64_t serial;                /* last serial sent (64-bit) */
    uint64_t last_target;           /* FIFO chain: target of the last frame */
    bool have_msc;                  /* last_msc is a reading (0 is one) */
    uint64_t last_msc, last_ust;    /* last completion, sanitised */
    uint64_t anchor_msc, anchor_ust;    /* refresh measurement */
    struct frame frames[SC_MAX_FRAMES];
    uint64_t last_activity_ns;      /* last event from the server */
    bool work_signalled;

    xcb_present_util_stats_t stats;
    uint64_t latency[SC_LATENCY_WINDOW];
    uint32_t n_latency, latency_next;
    uint64_t out_of_order, last_completed_serial;

    xcb_present_util_frame_cb_t frame_cb;
    void *frame_cb_data;
    int fds_open;                   /* fds the back end holds: fd accounting */
};

/* swapchain-debug.c */
void sc_log(const sc_t *sc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An invariant that failed is a bug of ours: logged (debug or not), and
 * the caller refuses the operation. */
bool sc_check(const sc_t *sc, bool ok, const char *what);

/* swapchain-wait.c */
uint64_t sc_now_ns(void);
/* 0 when the connection works, else -EPIPE (and sc->dead is set). */
int sc_conn_ok(sc_t *sc);
/* Waits for a reply to a request with a reply (or for an error), up to
 * SC_ROUND_TRIP_NS.  0 with *reply set, or -EPIPE, -ETIMEDOUT, or 1 with
 * *error set (caller frees). */
int sc_wait_reply(sc_t *sc, unsigned int sequence, void **reply,
                  xcb_generic_error_t **error);
/* A checked void request's outcome: a round trip after it, then its
 * error.  0, the X error code as a positive number, -EPIPE, -ETIMEDOUT. */
int sc_check_void(sc_t *sc, xcb_void_cookie_t cookie);
/* GetGeometry: 0 when the window exists (and updates win_* size),
 * -ENODEV when it is gone, -EPIPE, -ETIMEDOUT. */
int sc_probe_window(sc_t *sc);
/* Sleeps in poll() on the connection and the cancel fd until something
 * arrives or deadline_ns (CLOCK_MONOTONIC) passes; the lock is released
 * meanwhile. */
void sc_sleep_unlocked(sc_t *sc, uint64_t deadline_ns);

/* swapchain-events.c */
/* Takes every queued Present event and processes it.  Returns the number
 * of events processed, or sc->dead when the connection broke. */
int sc_drain_events(sc_t *sc);
void sc_signal_work(sc_t *sc);
void sc_clear_work(sc_t *sc);

/* swapchain-frame.c */
int sc_buffer_alloc(sc_t *sc, struct buffer *b);
void sc_buffer_free(sc_t *sc, struct buffer *b);
int sc_free_buffers(sc_t *sc);

/* swapchain-stats.c */
void sc_stats_presented(sc_t *sc);
void sc_stats_completed(sc_t *sc, const struct frame *f, uint8_t mode,
                        uint64_t msc, uint64_t ust);
void sc_stats_latency(const sc_t *sc, uint64_t *mean, uint64_t *p99);

#pragma GCC visibility pop

#endif
