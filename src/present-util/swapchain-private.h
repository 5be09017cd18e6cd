/*
 * The swapchain's insides, shared by its source files:
 *   swapchain.c       create, destroy, the public getters
 *   swapchain-wait.c  bounded waits: replies, events, the window probe
 *   swapchain-events.c  Present events: completion, idle, configure
 *   swapchain-frame.c acquire and present, the pacing of each mode
 *   swapchain-stats.c statistics and the latency window
 *   swapchain-clock.c the display's clock: predicted vblanks, UST to MSC
 *   swapchain-pacing.c  max_latency, LOW_LATENCY pacing, fd readiness
 *   swapchain-oml.c   present_msc() and wait_msc(): GLX_OML_sync_control
 *   swapchain-debug.c XCB_PRESENT_UTIL_DEBUG logging
 *   swapchain-hooks.c the callbacks, run outside the lock
 *   swapchain-driver.c  release, mode and interval, status, present ids
 *   swapchain-ring.c  the image ring changed in place: set_images(),
 *                     set_num_buffers()
 *   backend-shm.c, backend-put-image.c, backend-dri3.c  the back ends;
 *   backend-dri3-images.c  the DRI3 back end's caller images and PRIME;
 *   backend-dri3-alloc.c  where the DRI3 back end's buffers come from
 *
 * Locking: sc->lock guards everything below it in the struct; it is held
 * while events are processed and never across a poll() or a callback
 * (public functions let it go with sc_unlock(), which runs them).
 */
#ifndef SWAPCHAIN_PRIVATE_H
#define SWAPCHAIN_PRIVATE_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <xcb/present.h>

/* The swapchain's times are libxcb-dri3-util's clock, deadline_now_ns()
 * (CLOCK_MONOTONIC ns), held as uint64_t: the deadlines it hands to that
 * library's waits must be on the same clock. */
#include "util-internal/deadline.h"
#include "xcb_dri3_util_buffer.h"
#include "xcb_present_util.h"

#pragma GCC visibility push(hidden)

/* The public handle's struct, under a short name. */
typedef struct xcb_present_util_swapchain sc_t;

/* r (a negative errno) says the server did not answer: a broken
 * connection, the bound spent, a cancel, a skipped reply.  Such errors go
 * to the caller as they are, never read as "the server cannot do this". */
static inline bool sc_unanswered(int r)
{
    return r == -EPIPE || r == -ETIMEDOUT || r == -ECANCELED || r == -EPROTO;
}

/* ConfigureNotify pixmap_flags bit 0 (Present 1.2): the window is gone. */
#define SC_WINDOW_DESTROYED 1u
#define SC_MAX_BUFFERS 16
#define SC_DEFAULT_BUFFERS 3
#define SC_MAX_BUFFER_BYTES (1ull << 30)   /* 16384x16384 at 4 bytes a pixel */
#define SC_MAX_FRAMES 256           /* frames awaiting completion, at most */
#define SC_LATENCY_WINDOW 256
#define SC_MAX_WAIT_NS 10000000000LL    /* acquire's bound for "forever" */
#define SC_PROBE_AFTER_NS 30000000LL    /* quiet this long: is the window there? */
#define SC_RESIZE_SETTLE_NS 30000000LL  /* a new size this old is used */
#define SC_RESIZE_FORCE_NS 100000000LL  /* during a drag, reallocate this often */
#define SC_DESTROY_NS 100000000LL       /* destroy()'s whole bound */
#define SC_MIN_REALLOC_NS 50000000LL    /* acquire()'s round trips get at least this */
/* A buffer whose frame completed but whose IdleNotify never came (a
 * server or proxy that lost it) is taken back after this long, or after
 * SC_IDLE_GRACE_FRAMES later completions: a copy leaves nothing for the
 * server to read once its completion is sent. */
#define SC_IDLE_GRACE_NS 100000000LL
#define SC_IDLE_GRACE_FRAMES 2
/* A frame whose CompleteNotify never came is given up once a later frame
 * completed and it is this old. */
#define SC_LOST_FRAME_NS 500000000LL
/* ... or by time alone, when nothing comes any more (a server or proxy
 * lost the completions of every frame in flight): SC_LOST_PERIODS refresh
 * periods after the vblank that should have shown it, at least
 * SC_LOST_MIN_NS and at most SC_LOST_MAX_NS; with the refresh unknown,
 * SC_LOST_UNKNOWN_NS after it was sent, more for one aimed further ahead. */
#define SC_LOST_PERIODS 16
#define SC_LOST_MIN_NS 500000000ull
#define SC_LOST_MAX_NS 2000000000ull
#define SC_LOST_UNKNOWN_NS 1000000000ull
#define SC_LOST_UNKNOWN_PERIOD_NS 50000000ull
/* The buffer of a frame given up by time has had no word from the server:
 * a hidden or throttled window (a 1 Hz fake CRTC) may still show it.  It
 * is taken back once a later frame was shown at or past its vblank, its
 * idle fence triggered, or SC_LOST_BUFFER_PERIODS refresh periods (at
 * least SC_LOST_BUFFER_MIN_NS) after it was given up. */
#define SC_LOST_BUFFER_PERIODS 8
#define SC_LOST_BUFFER_MIN_NS 1000000000ull
/* Each frame given up by time in a row doubles both bounds, this many
 * times at most: a slow server's frames are not given up at the pace of
 * lost ones. */
#define SC_LOST_BACKOFF 3
/* A ConfigureNotify or GetGeometry size no window can have (a width or
 * height of 0, or past X11's coordinate range) is ignored. */
#define SC_MAX_WINDOW_SIDE 32767
/* Waits look at the event queue at least this often, because another
 * thread reading the connection takes our events off the socket without
 * waking our poll(); once that has been seen, every SC_FOREIGN_TICK_NS. */
#define SC_WAIT_TICK_NS 8000000LL
#define SC_FOREIGN_TICK_NS 1000000LL
/* A wait that only waits for LOW_LATENCY's moment, this close, sleeps on
 * the cancel fd alone: what the server sends meanwhile is taken in when
 * the moment comes, in one read, rather than waking the wait early to be
 * read and then sleep again (two system calls per frame fewer). */
#define SC_MOMENT_ONLY_NS 40000000LL
#define SC_FOREIGN_MEMORY_NS 5000000000LL
/* The refresh is the median of the last few completion-to-completion
 * measurements, so that it follows a change within a few frames. */
#define SC_REFRESH_SAMPLES 5
/* A reading of the MSC more than this many vblanks per second ahead of
 * the last one (plus SC_MSC_SLACK) is taken as noise unless the next
 * reading agrees with it. */
#define SC_MSC_MAX_HZ 1000
#define SC_MSC_SLACK 1024
/* A FIFO frame is aimed from the last reading of the MSC only while that
 * reading is at most this many refresh periods old; an older one may come
 * from another refresh rate (a blanked screen counts at 1 Hz), so the
 * chain restarts at the server's next vblank instead. */
#define SC_FRESH_PERIODS 4
/* The clock keeps this many readings that came at their vblank. */
#define SC_CLOCK_READINGS 32
/* wait_frame() keeps the timing of this many recent frames. */
#define SC_DONE_FRAMES 64
/* LOW_LATENCY pacing: the render time is this percentile of the last
 * SC_RENDER_SAMPLES frames; pacing starts after SC_RENDER_WARMUP frames.
 * The margin starts at SC_MARGIN_START_NS; after a miss of a frame sent
 * after its deadline it grows by how late that was and SC_MARGIN_GUARD_NS,
 * after a miss of one sent SC_MARGIN_MIN_NS or less before it (the
 * request may have reached the server too late) by SC_MARGIN_GUARD_NS, up
 * to half a refresh; it shrinks by an eighth after SC_MARGIN_HITS hits in
 * a row, down to SC_MARGIN_FLOOR_NS.
 * The latch (how long before a vblank a frame must reach the server) is
 * learnt (swapchain-pacing.c): it starts at half a refresh, moves
 * SC_LATCH_STEP_NS later after SC_LATCH_HITS hits in a row, never later
 * than a quarter refresh before the vblank, goes back two steps at a
 * miss and then holds for SC_LATCH_HOLD hits. */
#define SC_RENDER_SAMPLES 64
#define SC_RENDER_PERCENTILE 90
#define SC_RENDER_WARMUP 4
#define SC_MARGIN_START_NS 1000000ull
#define SC_MARGIN_MIN_NS 1000000ull
#define SC_MARGIN_FLOOR_NS 250000ull
#define SC_MARGIN_GUARD_NS 250000ull
#define SC_MARGIN_HITS 30
#define SC_LATCH_STEP_NS 250000ull
#define SC_LATCH_HITS 60
#define SC_LATCH_HOLD 1200
#define SC_DEFAULT_LATENCY 2
/* wait_msc() calls waiting at once, at most. */
#define SC_MSC_WAITS 8
/* Without the throttle at acquire(), present() waits this long at most
 * for the frame sent for "the next vblank" before aiming another. */
#define SC_SETTLE_WAIT_NS 100000000LL
/* present_at() waits this long at most for the display's timing. */
#define SC_CLOCK_WAIT_NS 150000000LL

struct buffer;

/* Where a frame is aimed, in the server's count: target, and with a
 * divisor the server's rule of PresentPixmap (the next msc with
 * msc % divisor == remainder once target has passed). */
struct sc_aim {
    uint64_t target, divisor, remainder;
};

/* One frame's presentation as the server will get it: the core fills
 * everything but the explicit-sync fields, a back end with timelines adds
 * those (prepare_submit), and sc_submit() sends it, PresentPixmapSynced
 * when acquire_syncobj is set, else PresentPixmap.  The one place a frame
 * goes to the server. */
struct sc_submit {
    xcb_pixmap_t pixmap;
    uint32_t wire_serial;
    uint32_t update;                /* XFixes region, 0: the whole pixmap */
    uint32_t idle_fence;            /* PresentPixmap only, 0: none */
    uint32_t options;
    struct sc_aim aim;
    uint32_t acquire_syncobj, release_syncobj;  /* 0: implicit sync */
    uint64_t acquire_point, release_point;
};

/* Sends s (see struct sc_submit). */
void sc_submit(sc_t *sc, const struct sc_submit *s);

/* A back end makes and frees the server-side pixmap of a buffer and its
 * pixels in our memory. */
struct backend_ops {
    xcb_present_util_backend_t kind;
    /* -ENOTSUP when the server cannot do it; may set sc->backend_data */
    int (*init)(sc_t *sc);
    /* b->width/height are set; fills pixels, stride, pixmap */
    int (*alloc)(sc_t *sc, struct buffer *b);
    void (*free)(sc_t *sc, struct buffer *b);
    /* optional: the pixels reach the pixmap before presenting (PutImage;
     * PRIME's copy into the display buffer); damage: what changed, n 0
     * for all */
    int (*upload)(sc_t *sc, struct buffer *b, const xcb_rectangle_t *damage, uint32_t n);
    /* optional: the buffer's idle fence, 0 for none */
    uint32_t (*idle_fence)(sc_t *sc, struct buffer *b);
    /* optional: after IdleNotify, true when the buffer can be written
     * (its idle fence triggered); may wait up to timeout_ns */
    bool (*is_idle)(sc_t *sc, struct buffer *b, int64_t timeout_ns);
    /* optional: an fd that polls readable when a buffer that is_idle()
     * refused may have become idle, or -1 (is_idle() is then asked again
     * every millisecond); drain_idle_fd() empties it before is_idle() is
     * asked again */
    int (*idle_fd)(sc_t *sc);
    void (*drain_idle_fd)(sc_t *sc);
    /* optional: explicit sync for the frame about to be sent: signals or
     * leaves to the caller the acquire point and fills s's sync fields
     * (the idle fence then goes unused); 0 for implicit sync (s as it
     * was), a negative errno refuses the frame */
    int (*prepare_submit)(sc_t *sc, struct buffer *b, struct sc_submit *s);
    /* optional: acquire() hands out b's pixels: the CPU's access begins
     * (present()'s upload ends it) */
    void (*begin_access)(sc_t *sc, struct buffer *b);
    /* optional: what acquire() tells about the buffer beyond its pixels
     * (image->buffer, sync_fd, points) */
    void (*describe)(sc_t *sc, struct buffer *b, xcb_present_util_image_t *image);
    /* optional: an acquired buffer goes back unpresented (a present()
     * that failed, release()): what acquire() reported for its frame
     * (explicit sync's points) is not to be reported again */
    void (*abandon)(sc_t *sc, struct buffer *b);
    /* optional: a SuboptimalCopy completion; true when buffers must be
     * reallocated */
    bool (*suboptimal)(sc_t *sc);
    /* optional, caller images: sc->images now lists a new set, whose
     * server side is made before any buffer takes one (alloc); the old
     * buffers are still whole meanwhile.  discard_images undoes what
     * prepare_images made and no buffer took. */
    int (*prepare_images)(sc_t *sc);
    void (*discard_images)(sc_t *sc);
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
    uint32_t last_wire_serial;      /* the same, as the server knows it */
    /* Its last presentation completed (mode, when, and how many of our
     * later frames were shown since): the grounds for taking the buffer
     * back when its IdleNotify never comes. */
    bool completed;
    uint8_t complete_mode;
    uint64_t completed_ns;
    uint32_t shown_after;
    uint64_t shown_after_ns;        /* when the first later frame was shown */
    uint64_t acquired_ns;           /* when acquire() handed it out */
    uint32_t age;                   /* what acquire() said its age was */
    uint64_t planned_msc;           /* LOW_LATENCY: the vblank it was paced for, 0: none */
    bool caller_signals;            /* its frame's acquire point is the caller's to signal */
    void *priv;                     /* the back end's */
    /* Out with no word from the server since lost_ns (0: no such thing),
     * while last_serial is lost_serial: its frame was given up by time, or
     * (a flip) the frames after it were; lost_msc: that frame's target
     * (server's count; 0: the next vblank). */
    uint64_t lost_ns, lost_serial, lost_msc;
    uint64_t lost_until_ns;         /* then taken back by time */
};

struct frame {
    uint64_t serial;                /* 0: slot unused; else our frame number */
    uint32_t wire_serial;           /* the serial the server sees (see next_wire_serial) */
    uint64_t target_msc;
    uint64_t submit_us;
    uint32_t index;
    bool client_late;
    uint64_t acquire_us;            /* when its buffer was acquired */
    uint32_t age;
    uint64_t planned_msc;           /* LOW_LATENCY: the vblank it was paced for */
    uint64_t present_id;            /* the caller's id (present_with()), 0: none */
};

/* A reading of the window's MSC that came at its vblank (the completion of
 * something aimed at exactly that MSC), in the server's count. */
struct reading {
    uint64_t msc;
    uint64_t ust_ns;
};

/* The display's clock as the swapchain learns it (swapchain-clock.c). */
struct sc_clock {
    struct reading readings[SC_CLOCK_READINGS];
    uint32_t n_readings, reading_next;
    /* from the readings, once per reading (with two or more): the slope,
     * the phase and the spread that phase_ns() finds (sc_clock_derive()) */
    uint64_t slope_ns, phase_ns, spread_ns;
    uint64_t prime_msc;             /* the last NotifyMSC asked for to learn the
                                       clock (its target), 0: none */
};

/* LOW_LATENCY's pacing (swapchain-pacing.c): the render times it learns
 * and the plan for the next frame. */
struct sc_pace {
    uint64_t render_samples[SC_RENDER_SAMPLES];
    uint32_t n_render, render_next;
    uint32_t margin_hits;
    /* The learnt latch: a frame this long before its vblank still made it
     * (0: not learnt yet, half a refresh); hits since the last step, and
     * hits still to wait after a miss before the next try. */
    uint64_t latch_ns;
    uint32_t latch_hits, latch_hold;
    uint64_t plan_key;              /* the frame the plan is for (serial + acquired + 1), 0: none */
    uint64_t plan_msc, plan_slot;   /* its vblank and moment; 0: paced as THROUGHPUT */
    uint64_t slot_ns;               /* the moment the last planned acquire() waited for */
    uint64_t timer_armed_ns;        /* timer_fd's expiry, 0: disarmed */
};

/* The caller's callbacks (swapchain-hooks.c): completed frames and a size
 * change waiting for their callbacks, which run once the lock is let go
 * (sc_unlock()). */
struct sc_hooks {
    xcb_present_util_frame_cb_t frame_cb;
    void *frame_cb_data;
    xcb_present_util_frame_t cb_queue[SC_MAX_FRAMES];
    uint32_t cb_head, cb_count;
    bool delivering;                /* a thread is in a callback */
    xcb_present_util_resize_cb_t resize_cb;
    void *resize_cb_data;
    bool resize_pending;
};

/* Whether the window is still there (swapchain-wait.c): Xvfb drops a
 * destroyed window's presentations without a word, so a quiet while is
 * followed by a GetGeometry. */
struct sc_probe {
    uint32_t sequence;              /* GetGeometry in flight, 0: none */
    bool size_stale;                /* a ConfigureNotify newer than that
                                     * request was taken: its size wins */
    uint64_t deadline_ns;
    uint64_t after_ns;              /* no new probe before this */
};

/* The statistics' windows of recent frames (swapchain-stats.c). */
struct sc_windows {
    uint64_t latency[SC_LATENCY_WINDOW];
    uint32_t n_latency, latency_next;
    uint64_t shown_latency[SC_LATENCY_WINDOW];      /* acquire() to the UST shown */
    uint32_t n_shown_latency, shown_latency_next;
    uint64_t out_of_order, last_completed_serial;
};

/* The frames sent and not yet done with: numbered by serial, kept in a
 * ring by serial modulo SC_MAX_FRAMES, and the FIFO chain they form. */
struct sc_ring {
    uint64_t serial;                /* our last frame number (1, 2, ...) */
    uint64_t oldest;                /* no frame before this one is in flight */
    uint32_t in_flight;             /* frames sent and not completed */
    uint64_t last_target;           /* FIFO chain: target of the last frame */
    bool after_predecessor;         /* its frames may still be queued: the
                                     * first of ours goes after them */
    uint64_t restart_serial;        /* a FIFO frame sent for "the next vblank" */
    struct frame frames[SC_MAX_FRAMES];
    /* Frames given up by time since the last completion, not known to be
     * done with (no idle fence said so).  The server may still hold them
     * (a throttled window): the next FIFO frame is aimed after them (the
     * chain), never at "the next vblank", and restarts the chain from
     * where it lands; each doubles the time the next frame and buffer
     * get (up to SC_LOST_BACKOFF times). */
    uint32_t lost_streak;
};

/* The server's MSC as last read (completions, NotifyMSC), its refresh as
 * measured, and the caller's count of it (which never goes back). */
struct sc_msc {
    bool have_msc;                  /* last_msc is a reading (0 is one) */
    uint64_t last_msc, last_ust;    /* last accepted reading, server's terms */
    uint64_t last_reading_ns;       /* our clock when it came */
    uint64_t jump_msc;              /* a far-off reading waiting for a second */
    uint64_t refresh_samples[SC_REFRESH_SAMPLES];
    uint32_t n_refresh_samples, refresh_next;
    uint64_t msc_offset;            /* added (mod 2^64) to the MSCs the caller is told */
    uint64_t told_msc, told_ust;    /* the last times the caller was told */
    uint64_t told_ns;               /* our clock when told_ust last moved */
};

/* What has been shown, for wait_frame() and the caller's present ids. */
struct sc_shown {
    /* the timing of recent frames, by frame_id modulo */
    xcb_present_util_frame_t done[SC_DONE_FRAMES];
    uint64_t last_shown_id;         /* frame_id of the last frame shown */
    uint64_t last_present_id;       /* the caller's last present_id given */
    uint64_t done_present_id;       /* the highest present_id shown, skipped or lost */
};

struct xcb_present_util_swapchain {
    xcb_connection_t *c;
    xcb_window_t window;
    xcb_present_util_mode_t mode;   /* in effect: base_mode, or IMMEDIATE for interval 0 */
    xcb_present_util_mode_t base_mode;  /* the caller's */
    xcb_present_util_throttle_t throttle;
    xcb_present_util_sync_t sync;   /* options.sync */
    bool gpu_waits;                 /* XCB_PRESENT_UTIL_SYNC_GPU_WAITS */
    int xwayland;                   /* the server is Xwayland: 1, 0, -1 unknown */
    const struct backend_ops *backend;
    void *backend_data;
    uint32_t backend_options;       /* PresentOption bits the back end adds */
    uint32_t num_buffers;
    uint32_t max_latency;           /* FIFO modes: frames queued, at most */
    uint32_t wanted_latency;        /* max_latency as asked, before the clamp */
    uint32_t swap_interval;         /* FIFO modes: vblanks between frames, 1 or more */
    /* The caller's images (options.images), or NULL: never reallocated */
    xcb_dri3_util_buffer_t *images[SC_MAX_BUFFERS];
    bool caller_images;
    bool images_suboptimal;         /* the window's modifiers changed under them */
    int render_fd;                  /* PRIME: the caller's device, -1: none */
    xcb_present_util_prime_copy_t prime_copy;
    void *prime_data;
    xcb_present_util_pacing_t pacing;
    uint8_t depth;
    uint32_t fourcc;
    uint32_t caps;                  /* Present capabilities of the window */
    uint32_t event_id;
    xcb_special_event_t *special;
    uint32_t stamp;                 /* libxcb counts events it queues for us */
    uint32_t drained_stamp;         /* stamp when our queue was last empty */
    bool moment_only;               /* the wait's step waits for a moment soon, nothing else */
    uint32_t region;                /* XFixes region for damage, 0: none */
    bool debug;
    int epoll_fd, work_fd, cancel_fd;   /* get_fd's epoll, its eventfd, destroy's */
    int timer_fd;                   /* in the epoll: LOW_LATENCY's moment */
    bool fd_wanted;                 /* swapchain_fd() was called: keep its readiness */

    pthread_mutex_t lock;
    pthread_cond_t idle_cond;       /* waiters left, for destroy */
    int waiters;                    /* threads inside acquire() */
    bool destroying;
    int dead;                       /* 0, -ENODEV or -EPIPE, once known */

    uint16_t win_width, win_height;     /* as last heard */
    uint64_t size_changed_ns;           /* when win_* last changed */
    uint64_t mismatch_since_ns;         /* first acquire with stale size */
    struct buffer buffers[SC_MAX_BUFFERS];

    struct sc_ring ring;            /* the frames sent: swapchain-frame.c */
    struct sc_msc msc;              /* the server's MSC: swapchain-events.c */
    uint64_t last_activity_ns;      /* last event from the server */
    uint64_t foreign_reader_ns;     /* when another reader last took our events */
    bool work_signalled;
    struct sc_probe probe;          /* swapchain-events.c, swapchain-wait.c */
    bool suboptimal_pending;        /* a SuboptimalCopy to look into */

    struct sc_clock clock;          /* swapchain-clock.c */
    struct sc_pace pace;            /* swapchain-pacing.c */
    struct sc_shown shown;          /* swapchain-wait-frame.c */

    xcb_present_util_stats_t stats;
    struct sc_windows windows;      /* swapchain-stats.c */

    struct sc_hooks hooks;          /* swapchain-hooks.c */
    /* wait_msc(): the NotifyMSCs waited for, by serial (0: slot free) */
    struct msc_wait {
        uint32_t serial;
        bool done;
        uint64_t msc, ust;
    } msc_waits[SC_MSC_WAITS];
    int fds_open;                   /* fds the back end holds: fd accounting */
};

/* swapchain-hooks.c */
/* Lets the lock go, then runs the callbacks of what happened meanwhile
 * (frames completed, the window's size changed), one thread at a time
 * and in order, without the lock: a callback may call the swapchain. */
void sc_unlock(sc_t *sc);
/* The same without letting the lock go: a wait about to sleep runs what
 * came meanwhile. */
void sc_deliver_callbacks(sc_t *sc);
/* A completed frame for the frame callback. */
void sc_queue_frame(sc_t *sc, const xcb_present_util_frame_t *f);
/* The window's size as heard now: the resize callback runs if it changed. */
void sc_set_window_size(sc_t *sc, uint16_t width, uint16_t height);

/* swapchain-debug.c */
void sc_log(const sc_t *sc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An invariant that failed is a bug of ours: logged (debug or not), and
 * the caller refuses the operation. */
bool sc_check(const sc_t *sc, bool ok, const char *what);

/* swapchain-wait.c */
/* The deadline of a round trip that starts now (the connection's bound,
 * xcb_dri3_util_set_timeout()). */
uint64_t sc_round_trip_deadline(sc_t *sc);
/* 0 when the connection works, else -EPIPE (and sc->dead is set). */
int sc_conn_ok(sc_t *sc);
/* Waits for a reply to a request with a reply (or for an error), up to
 * the connection's bound (libxcb-dri3-util's bounded wait, which wakes
 * whoever read the reply).  0 with *reply set, or -EPIPE, -ETIMEDOUT, or
 * 1 with *error set (caller frees). */
int sc_wait_reply(sc_t *sc, unsigned int sequence, void **reply,
                  xcb_generic_error_t **error);
/* A checked void request's outcome: a round trip after it, then its
 * error.  0, the X error code as a positive number, -EPIPE, -ETIMEDOUT.
 * sc_check_void_by() waits until deadline_ns at most. */
int sc_check_void(sc_t *sc, xcb_void_cookie_t cookie);
int sc_check_void_by(sc_t *sc, xcb_void_cookie_t cookie, uint64_t deadline_ns);
/* A checked request whose outcome nobody waits for (the undoing of a
 * request that timed out): its error, if any, is swallowed later instead
 * of reaching the application's event queue. */
void sc_forget_checked(sc_t *sc, xcb_void_cookie_t cookie);
/* The extension's QueryExtension answer (libxcb's cache), fetched with a
 * bound: NULL with *error -ETIMEDOUT or -EPIPE when the server did not
 * answer; else *error is 0 (and NULL means no answer at all, as from
 * xcb_get_extension_data()). */
const xcb_query_extension_reply_t *sc_extension(sc_t *sc, xcb_extension_t *ext, int *error);
/* Asks whether the window is still there (GetGeometry) without waiting:
 * sc_probe_poll() takes the answer in when it has come.  It sets
 * sc->dead to -ENODEV when the window is gone, updates win_* otherwise,
 * and returns -ETIMEDOUT when the server has not answered within the
 * connection's bound (the probe is then given up, to be sent again after
 * a quiet while), else 0. */
void sc_probe_send(sc_t *sc);
int sc_probe_poll(sc_t *sc);
/* Sleeps in poll() on the connection and the cancel fd until something
 * arrives or deadline_ns (CLOCK_MONOTONIC) passes, the lock released
 * meanwhile; wakes at least every SC_WAIT_TICK_NS to look at the queue
 * (more often once another thread was seen reading our events).
 * Returns true when the sleep was quiet: it ran to its time with nothing
 * on either fd and nothing queued for us meanwhile, so that a drain now
 * would find nothing (and cost a read() that says so). */
bool sc_sleep_unlocked(sc_t *sc, uint64_t deadline_ns);
/* One look of a wait, the lock held and what arrived taken in: 1 when the
 * wait is over (*r its result), 0 to go on; *wake_ns: when to look again
 * without news from the server (0: at the deadline). */
/* The back end's fd that says a released buffer may be idle now, or -1. */
static inline int sc_idle_fd(sc_t *sc)
{
    return sc->backend && sc->backend->idle_fd ? sc->backend->idle_fd(sc) : -1;
}

typedef int (*sc_wait_step_t)(sc_t *sc, void *arg, int *r, uint64_t *wake_ns);
/* The lock held: looks (step) until it is done, timeout_ns passed (0: one
 * look; negative: SC_MAX_WAIT_NS), destroy() began (-ECANCELED), or the
 * window or connection died; a quiet window is probed meanwhile.  The
 * round trips a step makes get at least round_trip_min_ns.  what names
 * the wait in the debug log. */
int sc_wait_for(sc_t *sc, int64_t timeout_ns, uint64_t round_trip_min_ns, sc_wait_step_t step,
                void *arg, const char *what);
/* Waits until the connection's socket takes data again (a server that
 * stopped reading fills it): 0, or -ETIMEDOUT at deadline_ns, -EPIPE. */
int sc_wait_writable(sc_t *sc, uint64_t deadline_ns);

/* swapchain-events.c */
/* Takes every queued Present event and processes it.  Returns the number
 * of events processed, or sc->dead when the connection broke. */
int sc_drain_events(sc_t *sc);
/* Gives up, by time, frames whose completion should have come long ago
 * and takes back buffers out with no word from the server for long
 * (sc_drain_events() does it after taking in what came). */
void sc_recover_by_time(sc_t *sc, uint64_t now_ns);
/* When sc_recover_by_time() has something to do next, 0 for never. */
uint64_t sc_next_recovery_ns(const sc_t *sc);
void sc_signal_work(sc_t *sc);
void sc_clear_work(sc_t *sc);

/* swapchain-timing.c */
/* One refresh interval between two readings, into the median of the
 * last few (stats.refresh_ns inside: the FIFO aim's and the clock's
 * bootstrap; the caller is told the clock's period). */
void sc_measure_refresh(sc_t *sc, uint64_t last_msc, uint64_t last_ust, uint64_t msc,
                        uint64_t ust);

/* Takes a completion's MSC and UST as the window's current time, after
 * checking them: a reading behind the last one restarts the FIFO chain
 * (the window moved to another CRTC); one implausibly far ahead is ignored
 * unless the next agrees.  Also measures the refresh.  Returns true when
 * the reading was taken. */
bool sc_take_reading(sc_t *sc, uint64_t msc, uint64_t ust);
/* What the caller is told of a completion at msc/ust (taken: whether
 * sc_take_reading() believed it): never earlier than what it was told
 * before. */
void sc_tell_times(sc_t *sc, bool taken, uint64_t msc, uint64_t ust, uint64_t *told_msc,
                   uint64_t *told_ust);

/* swapchain-clock.c */
/* Forgets the readings (the count restarted). */
void sc_clock_reset(sc_t *sc);
/* A reading that came at its vblank (msc in the server's count). */
void sc_clock_add(sc_t *sc, uint64_t msc, uint64_t ust_us);
/* Works out the slope, phase and spread again (after readings were copied). */
void sc_clock_derive(sc_t *sc);
/* The refresh period the clock predicts with, in ns; 0 when unknown. */
uint64_t sc_clock_period_ns(const sc_t *sc);
/* The UST (ns) at which vblank msc (server's count) is predicted, 0 when
 * the clock is unknown. */
uint64_t sc_clock_vblank_ns(const sc_t *sc, uint64_t msc);
/* The first vblank (server's count) that certainly comes at or after
 * ust_ns, erring late, never early; 0 when the clock is unknown. */
uint64_t sc_clock_first_msc_at(const sc_t *sc, uint64_t ust_ns);
/* The server's UST is our CLOCK_MONOTONIC (a local server). */
bool sc_clock_is_local(const sc_t *sc);
/* When a frame aimed at target_msc (server's count; 0: the next vblank)
 * and sent at sent_ns should have been shown at the latest, on our clock
 * (its vblank, or one period after it was sent when that vblank had
 * come); *period_ns: the period that estimate used (0: the refresh is
 * unknown, and the time is only a guess). */
uint64_t sc_clock_due_ns(const sc_t *sc, uint64_t target_msc, uint64_t sent_ns,
                         uint64_t *period_ns);
/* Asks for two vblanks ahead (NotifyMSC) so that the clock becomes known
 * without frames; again once the count has passed them (they came late). */
void sc_clock_prime(sc_t *sc);

/* swapchain-pacing.c */
/* The frame limit of the FIFO modes: acquire() waits while it is reached. */
bool sc_latency_allows(const sc_t *sc);
/* LOW_LATENCY: plans the next frame at now_ns.  True with *msc the vblank
 * (server's count) and *slot_ns the moment acquire() returns; false when
 * the frame is paced as THROUGHPUT (the first frames, after a pause, no
 * clock, another pacing or mode). */
bool sc_pacing_plan(sc_t *sc, uint64_t now_ns, uint64_t *msc, uint64_t *slot_ns);
/* A frame was presented render_ns after its acquire(). */
void sc_pacing_rendered(sc_t *sc, uint64_t render_ns);
/* A paced frame completed at server_msc (0: lost, or not believed). */
void sc_pacing_completed(sc_t *sc, const struct frame *f, uint64_t server_msc);
/* The render time LOW_LATENCY plans with (its percentile), 0 until known. */
uint64_t sc_pacing_render_ns(const sc_t *sc);
uint64_t sc_pacing_margin_ns(const sc_t *sc);
/* How long before a vblank a frame must reach the server, as learnt:
 * a quarter to half a period. */
uint64_t sc_pacing_latch_ns(const sc_t *sc);
/* Makes get_fd()'s readiness say whether acquire(0) would succeed now:
 * signals or clears the work eventfd and arms the timer for LOW_LATENCY's
 * next moment, and returns sc_ready_count()'s number (0 once dead).  Does
 * nothing and returns -1 until the caller asked for the fd. */
int sc_update_readiness(sc_t *sc);

/* swapchain-oml.c */
/* A NotifyMSC completion that a wait_msc() waits for: taken (true), or
 * false for someone else's. */
bool sc_msc_wait_complete(sc_t *sc, const xcb_present_complete_notify_event_t *ev);

/* swapchain-frame.c */
/* present(), present_at() (target_ust), present_msc() (oml: the aim in
 * the server's count, target_ust 0), present_with() (present_id, and
 * *frame_id the frame_id it sent, when frame_id is not NULL). */
int sc_present_frame(sc_t *sc, const xcb_present_util_image_t *image,
                     const xcb_rectangle_t *damage, uint32_t n_damage, uint64_t target_ust,
                     const struct sc_aim *oml, uint64_t present_id, uint64_t *frame_id);
/* The buffer of an image the caller acquired (and has not presented or
 * released), or NULL (logged under `what`). */
struct buffer *sc_acquired_buffer(sc_t *sc, const xcb_present_util_image_t *image,
                                  const char *what);
/* An acquired buffer back to the swapchain unpresented: free, age 0,
 * its explicit-sync points spent. */
void sc_give_back(sc_t *sc, struct buffer *b);
/* Caller images: whether they still fit the window (size, modifiers). */
bool sc_images_fit(const sc_t *sc, const struct buffer *b);
/* Finds out, once, whether the server is Xwayland (sc->xwayland): its
 * MAILBOX wants PresentOptionAsync, or a frame waits for the compositor. */
void sc_detect_xwayland(sc_t *sc);
/* The mode in effect after a change of the caller's mode or interval. */
void sc_apply_mode(sc_t *sc);
/* Whether acquire() could hand out a buffer at now_ns; *wake_ns: when to
 * look again for a reason other than the server (LOW_LATENCY's moment, an
 * overdue IdleNotify), 0 for none.  Returns the buffer or NULL. */
struct buffer *sc_ready_buffer(sc_t *sc, uint64_t now_ns, uint64_t *wake_ns);
/* Buffers that acquire(0) could hand out now; *wake_ns as above when 0. */
int sc_ready_count(sc_t *sc, uint64_t now_ns, uint64_t *wake_ns);
/* When a buffer whose IdleNotify is overdue may be taken back, or 0. */
uint64_t sc_next_reclaim_ns(const sc_t *sc);
int sc_buffer_alloc(sc_t *sc, struct buffer *b);
void sc_buffer_free(sc_t *sc, struct buffer *b);
int sc_free_buffers(sc_t *sc);

/* swapchain.c */
/* Whether images (n of them) are caller images a swapchain on backend
 * (AUTO before one is chosen) can take: one size and format, no
 * duplicates, one mappable linear plane for SHM and PutImage.  0 or
 * -EINVAL. */
int sc_check_images(xcb_dri3_util_buffer_t *const *images, uint32_t n,
                    xcb_present_util_backend_t backend);
/* max_latency within what the buffers allow: one frame in flight at
 * least, even with a single image. */
void sc_clamp_latency(sc_t *sc);

/* swapchain-stats.c */
void sc_stats_presented(sc_t *sc);
/* server_msc: the completion's MSC in the server's count, 0 when it was
 * not believed; msc, ust: what the caller is told. */
void sc_stats_completed(sc_t *sc, const struct frame *f, uint8_t mode, uint64_t server_msc,
                        uint64_t msc, uint64_t ust);
void sc_stats_latency(const sc_t *sc, uint64_t *mean, uint64_t *p99);
/* The same for acquire() to the UST shown (p50 too). */
void sc_stats_shown_latency(const sc_t *sc, uint64_t *mean, uint64_t *p50, uint64_t *p99);
/* A frame given up as lost: wait_frame() hears of it. */
void sc_stats_lost(sc_t *sc, const struct frame *f);

#pragma GCC visibility pop

#endif
