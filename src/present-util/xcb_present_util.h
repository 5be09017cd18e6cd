/*
 * xcb_present_util.h: a small vsync presentation loop (a swapchain) on the
 * X11 Present extension.
 *
 * Installed as <xcb/xcb_present_util.h>; pkg-config name xcb-present-util.
 *
 * Hand the library a window; it allocates 2 to 16 buffers the server can
 * show, hands them out one at a time (acquire), shows them on vertical
 * blanks through PresentPixmap (present) and takes them back when the
 * server says it is done with them (IdleNotify, or an idle fence).  The
 * pixels of an acquired buffer are ordinary memory the caller writes.
 *
 * Three back ends share the API and are chosen automatically:
 *   DRI3       buffers the client allocates and hands over as file
 *              descriptors (direct rendering): dma-bufs from GBM on the
 *              server's GPU where DRI3 Open gives one, else memfds;
 *   SHM        memfd pixmaps through MIT-SHM (ShmAttachFd, ShmCreatePixmap),
 *              for local servers without DRI3, such as Xvfb;
 *   PUT_IMAGE  server pixmaps filled with PutImage: works everywhere,
 *              remote displays included, at the cost of a copy per frame.
 * Pacing comes from Present in all three.
 *
 * Errors follow the rule of libxcb-dri3-util (<xcb/xcb_dri3_util.h>):
 * swapchain_create() returns NULL with errno set; functions returning int
 * return 0 (or the fd or count they document) or a negative errno:
 *   -ETIMEDOUT   the wait ran out before anything happened
 *   -EPIPE       the connection to the X server is broken
 *   -ENODEV      the window is gone
 *   -EINVAL      a bad argument (described with XCB_PRESENT_UTIL_DEBUG=1)
 *   -ECANCELED   the swapchain is being destroyed by another thread
 *   -EPROTO      the server broke the protocol: it answered later requests
 *                and never one of the swapchain's round trips
 * The swapchain never blocks without a bound, and libxcb's own unbounded
 * waits are never used: round trips end at the connection's bound
 * (xcb_dri3_util_set_timeout() of <xcb/xcb_dri3_util_wait.h>, 1 s unless
 * changed), and every wait also wakes when another thread (a toolkit's
 * event thread in xcb_wait_for_event()) read what it waits for.
 *
 * A server that loses events does not take buffers away: a buffer whose
 * frame completed but whose IdleNotify never came is taken back after
 * 100 ms or two later frames (a copy leaves nothing for the server to
 * read; a flipped buffer waits until a later frame is shown), and a frame
 * whose completion never came is given up once later frames completed,
 * or by time when nothing comes any more (16 refresh periods after the
 * vblank that should have shown it, 0.5 s at least; its buffer comes back
 * after a second or more, or as soon as the server shows it is done with it).
 * A ConfigureNotify with a size no window can have (0, above 32767) is
 * ignored.
 * MSC and UST readings that go backwards or jump far ahead are absorbed:
 * the caller is never told a time earlier than one it was told before.
 *
 * Threads: the functions may be called from several threads; they lock
 * the swapchain.  xcb_present_util_swapchain_destroy() may run while
 * another thread waits in xcb_present_util_acquire(): that wait returns
 * -ECANCELED before the swapchain is freed.  Calling anything else on a
 * swapchain that is being destroyed is a use after free, as with free().
 *
 * XCB_PRESENT_UTIL_DEBUG=1 in the environment logs every request, event
 * and invariant check to stderr.
 *
 * Callers with pixmaps and DRM syncobjs of their own (a Vulkan WSI, a GL
 * loader) present without a swapchain: <xcb/xcb_present_util_synced.h>,
 * included at the end of this header.
 */
#ifndef XCB_PRESENT_UTIL_H
#define XCB_PRESENT_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>
#include <xcb/xproto.h>
#include <xcb/dri3.h>

/* A buffer of libxcb-dri3-util, for the caller's images.  Its header is
 * <xcb/xcb_dri3_util_buffer.h>; declared once whichever header comes
 * first. */
#ifndef XCB_DRI3_UTIL_BUFFER_T_DEFINED
#define XCB_DRI3_UTIL_BUFFER_T_DEFINED
typedef struct xcb_dri3_util_buffer xcb_dri3_util_buffer_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A vsync swapchain on one window: its buffers, their frames and timing.
 *
 * Opaque: made with xcb_present_util_swapchain_create(), freed with
 * xcb_present_util_swapchain_destroy().  Its life cycle, back ends, modes
 * and threading rules are described in xcb_present_util(7).
 *
 * See also xcb_present_util_swapchain_create(), xcb_present_util_acquire(),
 * xcb_present_util_present(), xcb_present_util(7).
 */
typedef struct xcb_present_util_swapchain xcb_present_util_swapchain_t;

/*
 * When a presented frame is shown: the swapchain's present modes.
 *
 * options.mode at create, xcb_present_util_swapchain_set_mode() later;
 * xcb_present_util_mode_name() names them.
 *
 * See also xcb_present_util_options_t(3), xcb_present_util_swapchain_set_mode().
 */
typedef enum {
    /* Every frame is shown, each for at least one vblank, never torn. */
    XCB_PRESENT_UTIL_MODE_FIFO,
    /* FIFO, but a frame that misses its vblank is shown at once (it may
     * tear) instead of a whole vblank later. */
    XCB_PRESENT_UTIL_MODE_FIFO_RELAXED,
    /* The newest frame wins at each vblank; frames replaced before their
     * vblank count as skipped.  Never tears. */
    XCB_PRESENT_UTIL_MODE_MAILBOX,
    /* Shown as soon as possible; may tear. */
    XCB_PRESENT_UTIL_MODE_IMMEDIATE
} xcb_present_util_mode_t;

/*
 * How a swapchain's buffers reach the server: DRI3, MIT-SHM or PutImage.
 *
 * options.backend: AUTO picks DRI3 where the server has it and fds can
 * travel, else SHM on a local server, else PUT_IMAGE (the top of
 * <xcb/xcb_present_util.h> describes the three).
 * xcb_present_util_swapchain_backend() says which one is in use.
 *
 * See also xcb_present_util_options_t(3), xcb_present_util_backend_name().
 */
typedef enum {
    XCB_PRESENT_UTIL_BACKEND_AUTO,
    XCB_PRESENT_UTIL_BACKEND_DRI3,
    XCB_PRESENT_UTIL_BACKEND_SHM,
    XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE
} xcb_present_util_backend_t;

/*
 * Sized structs.  Every struct below that the caller allocates starts with
 * `size`, which the caller sets to sizeof the struct as its header knows
 * it (the struct's _init() function does that and sets the defaults).
 * The library reads and writes only the first `size` bytes and treats
 * fields beyond them as their defaults, so that a program built against
 * this header keeps working when a later version adds fields at the end;
 * a size smaller than the struct's first version (this one) is refused
 * with -EINVAL.
 */

/* How acquire() chooses its moment in the FIFO modes. */
typedef enum {
    /* acquire() returns as soon as a buffer is free and fewer than
     * max_latency frames wait to be shown. */
    XCB_PRESENT_UTIL_PACING_THROUGHPUT,
    /* acquire() returns at the latest moment that still makes the next
     * vblank: half a refresh before the predicted vblank (the last
     * moment a frame reaches it on every server), less the time the
     * caller takes from acquire() to present() (learned from its recent
     * frames), less a safety margin that grows after a missed vblank and
     * shrinks after a run of hits.  The frame is then shown about half a
     * refresh plus the render time plus the margin after acquire()
     * returned (10 to 12 ms at 60 Hz for a short render), not one render
     * time after: xcb_present_util(7), LATENCY, says why and what was
     * measured.  A caller slower than a refresh is paced at the rate it
     * can sustain (every second vblank, every third...), never
     * alternating between two.  The first frames and the first after a
     * pause are paced as THROUGHPUT. */
    XCB_PRESENT_UTIL_PACING_LOW_LATENCY
} xcb_present_util_pacing_t;

/* A copy of the caller's image into its PRIME display buffer.
 *
 * PRIME's copy (options.prime_copy): renders src (the caller's image)
 * into dst (its linear display buffer, the same size and format) for the
 * rectangles in damage (n_damage 0: all of it), done or queued on the
 * caller's GPU before it returns so that the server's read of dst comes
 * after it (implicit sync of the dma-buf).  Returns 0 or a negative errno,
 * which present() returns (the frame is not sent).  Called in the
 * presenting thread without the swapchain's lock: it may call the
 * swapchain, and destroy() waits for it. */
typedef int (*xcb_present_util_prime_copy_t)(void *data, const xcb_dri3_util_buffer_t *src,
                                             const xcb_dri3_util_buffer_t *dst,
                                             const xcb_rectangle_t *damage, uint32_t n_damage);

/*
 * How to make a swapchain: mode, back end, buffers, pacing, caller images.
 *
 * A sized struct (see above): fill it with xcb_present_util_options_init()
 * and change the fields wanted; xcb_present_util_swapchain_create() reads
 * only the first `size` bytes.  The fields after each `-- after ... --`
 * marker are those a program built against an earlier version lacks.
 *
 * See also xcb_present_util_options_init(), xcb_present_util_swapchain_create(),
 * xcb_present_util(7).
 */
typedef struct {
    uint32_t size;          /* sizeof(xcb_present_util_options_t) */
    xcb_present_util_mode_t mode;
    xcb_present_util_backend_t backend;
    uint32_t num_buffers;   /* 0: the library's choice (3); else 2 to 16;
                               ignored with caller images */
    /* -- after the first version -- */
    /* FIFO modes: frames presented and not yet shown, at most; acquire()
     * waits while that many are queued.  1 .. num_buffers - 1; 0 takes the
     * default (2), and a value above num_buffers - 1 is taken as
     * num_buffers - 1.  MAILBOX and IMMEDIATE queue at most one frame ahead
     * of the screen by their nature and are bounded by their buffers. */
    uint32_t max_latency;
    xcb_present_util_pacing_t pacing;   /* FIFO modes; THROUGHPUT by default */
    /* -- after the second version -- */
    /* The caller's own images (a driver's GPU images): 1 .. 16 buffers of
     * one size and format, whose depth is the window's.  The DRI3 back
     * end takes any; the SHM and PUT_IMAGE back ends take one-plane linear
     * buffers whose fd can be mapped (a memfd or shared memory: the SHM
     * back end attaches it with ShmAttachFd, and a stride wider than the
     * width makes a pixmap stride / 4 pixels wide, of which the window
     * shows the image's width).  options.backend AUTO picks DRI3 for
     * them.
     * The library makes them pixmaps (one round trip for all), never
     * allocates, maps, reallocates or destroys them; they must outlive the
     * swapchain.  num_buffers is then num_images.  See acquire() for what
     * changes: image->pixels is NULL, and acquire() says SUBOPTIMAL where
     * the library would have reallocated. */
    xcb_dri3_util_buffer_t *const *images;
    uint32_t num_images;
    /* FIFO modes: each frame stays on screen at least this many vblanks
     * (GLX_EXT_swap_control).  0 takes the default, 1, so that a zeroed
     * struct keeps vsync: a swapchain without it is MODE_IMMEDIATE, or
     * xcb_present_util_swapchain_set_swap_interval(sc, 0) after create. */
    uint32_t swap_interval;
    /* PRIME, caller images only: the DRM device the caller renders with
     * (borrowed), -1 (the default; 0 too, which is no render device) for
     * the server's.  When it is another
     * device (xcb_dri3_util_device_needs_prime()), the library keeps one
     * linear display buffer per image on the server's side, makes those the
     * pixmaps, and before each present copies the image into its display
     * buffer: with prime_copy when set, else with the CPU (both must then
     * be mappable). */
    int render_fd;
    xcb_present_util_prime_copy_t prime_copy;
    void *prime_data;
    /* PresentOption bits every frame gets besides the mode's: only
     * XCB_PRESENT_OPTION_COPY (never flip: a driver that cannot render to
     * a buffer the server scans out); 0 by default. */
    uint32_t present_options;
    /* -- after the third version -- */
    /* Where the swapchain holds the caller back when frames queue up
     * (xcb_present_util_throttle_t); XCB_PRESENT_UTIL_THROTTLE_ACQUIRE by
     * default. */
    uint32_t throttle;
    /* A swapchain on the same window that this one replaces (Vulkan's
     * oldSwapchain, a GL drawable made again after a resize), or NULL.
     * The new one goes on where it is: frame ids (the SBC) continue after
     * its last, MSCs and USTs never go back, and the frame clock and the
     * pacing start from what it learnt.  It is only read during create()
     * (with its lock taken) and may be destroyed afterwards, before or
     * after the new one's first frame. */
    xcb_present_util_swapchain_t *predecessor;
    /* DRI3 back end: how a frame's rendering and the server's reading are
     * ordered (xcb_present_util_sync_t); XCB_PRESENT_UTIL_SYNC_AUTO by
     * default. */
    uint32_t sync;
} xcb_present_util_options_t;

/* options.sync */
typedef enum {
    /* explicit sync (timeline syncobjs, PresentPixmapSynced) where the
     * window has the Syncobj capability and the device gives timelines,
     * else implicit: idle fences */
    XCB_PRESENT_UTIL_SYNC_AUTO,
    /* never explicit: idle fences and the dma-bufs' implicit fences, for
     * a driver that cannot wait on or signal timelines */
    XCB_PRESENT_UTIL_SYNC_IMPLICIT,
    /* explicit or nothing: create() fails with ENOTSUP where the window
     * or the device cannot do it */
    XCB_PRESENT_UTIL_SYNC_EXPLICIT
} xcb_present_util_sync_t;

/* options.throttle: where the caller waits for the screen in the FIFO
 * modes.  Whatever the setting, acquire() waits while no buffer is free. */
typedef enum {
    /* acquire() waits while max_latency frames are queued, and after a
     * frame sent for "the next vblank" (the first, or the first after a
     * pause) until it completed: a toolkit's loop. */
    XCB_PRESENT_UTIL_THROTTLE_ACQUIRE,
    /* No throttle of the swapchain's own: acquire() hands out any free
     * buffer at once (acquire(0) fails only when none is free), as many
     * frames may be queued as there are buffers (Vulkan's
     * vkAcquireNextImageKHR).  A FIFO frame presented while the frame sent
     * for "the next vblank" has not completed waits in present() for that
     * completion (at most a few refresh periods), so that two frames never
     * land on one vblank. */
    XCB_PRESENT_UTIL_THROTTLE_NONE,
    /* As NONE at acquire(); present() returns once at most max_latency
     * frames are queued (GL's SwapBuffers). */
    XCB_PRESENT_UTIL_THROTTLE_PRESENT
} xcb_present_util_throttle_t;

/*
 * Set an options struct's size and defaults.
 *
 * size, FIFO, the automatic back end, 3 buffers, max_latency 2,
 * THROUGHPUT pacing, no caller images, swap_interval 1, render_fd -1,
 * THROTTLE_ACQUIRE.  A 0 in any field means its default, so that a struct
 * zeroed with only its size set is this one.  NULL does nothing.
 *
 * See also xcb_present_util_swapchain_create().
 */
void xcb_present_util_options_init(xcb_present_util_options_t *o);

/*
 * A buffer handed out by acquire(): its pixels, size, age and timing.
 *
 * A sized struct (see above): set up with xcb_present_util_image_init(),
 * filled by xcb_present_util_acquire() as far as its `size` goes and given
 * back with xcb_present_util_present() or xcb_present_util_release().
 *
 * See also xcb_present_util_image_init(), xcb_present_util_acquire(),
 * xcb_present_util_present().
 */
typedef struct {
    uint32_t size;          /* sizeof(xcb_present_util_image_t) */
    void *pixels;           /* height rows of stride bytes */
    uint32_t stride;        /* bytes per row */
    uint16_t width, height;
    uint32_t fourcc;        /* DRM fourcc: XRGB8888 (depth 24), ARGB8888 (32) */
    uint32_t index;         /* which buffer: 0 .. num_buffers - 1 */
    /* -- after the first version -- */
    uint64_t frame_id;      /* the id present() gives this frame (1, 2, ...),
                               when images are presented in the order they
                               were acquired */
    uint32_t age;           /* 0: the contents are undefined (a new or
                               reallocated buffer); n: they are those of the
                               frame presented n frames before this one
                               (EGL_EXT_buffer_age) */
    /* FIFO modes: the vblank that shows this frame if it is presented now,
     * in the caller's MSC count and UST (microseconds); 0 when unknown (the
     * first frames, after a pause, MAILBOX and IMMEDIATE). */
    uint64_t predicted_msc, predicted_ust;
    uint64_t refresh_ns;    /* the measured refresh period, 0 until known */
    /* -- after the second version -- */
    /* The buffer behind the image: the caller's image (options.images),
     * or the library's own DRI3 buffer, NULL for the SHM and PutImage back
     * ends.  Its fds, strides, offsets and modifier
     * (<xcb/xcb_dri3_util_buffer.h>) let a GPU import it (EGL's
     * EGL_LINUX_DMA_BUF_EXT, Vulkan's VK_EXT_external_memory_dma_buf;
     * dup() the fds); it stays the library's and lives until the buffer
     * is reallocated (a later acquire() says so with age 0) or the
     * swapchain is destroyed.  The library's own buffers are linear
     * (pixels maps them): dma-bufs from GBM on the server's device where
     * it has one (stats.buffer_alloc), else memfds.
     *
     * When the GPU may write: from acquire()'s return on, with no fence
     * to wait for; the buffer is idle then (its idle fence triggered, or
     * its release point signalled).  Its rendering must be done before
     * the server reads it: under explicit sync, the GPU signals
     * acquire_point (XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS) or the caller
     * waits for the GPU before present(); without it, a GBM dma-buf
     * carries the GPU's work in its implicit fences, so rendering
     * submitted before present() is enough, but a memfd is read at once:
     * wait for the GPU before present().  acquire() begins and present()
     * ends the CPU's access to pixels (DMA_BUF_IOCTL_SYNC on a dma-buf),
     * so CPU writes and GPU rendering into one frame are ordered only by
     * the caller. */
    const xcb_dri3_util_buffer_t *buffer;
    /* Explicit sync (the window's Syncobj capability, DRI3 1.4): the
     * image's timeline syncobj fd (owned by the library; -1 without explicit
     * sync) and its points.  acquire() hands the image out once the server
     * signalled release_point of its last frame.  present() sends
     * acquire_point, which the library signals at present() unless the
     * caller sets XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS in flags (its GPU
     * signals the point when rendering is done); release_point is the point
     * the server will signal for this frame. */
    int sync_fd;
    uint64_t acquire_point, release_point;
    uint32_t flags;         /* set by the caller before present() */
} xcb_present_util_image_t;

/* image.flags: the caller signals image.acquire_point itself. */
#define XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS 1u

/* What acquire() returns when caller images no longer fit the window.
 *
 * acquire()'s return with caller images: an image was handed out, but the
 * images no longer fit the window (its size, or the modifiers it can
 * show, changed).  The image can still be presented (the server scales or
 * copies); the caller makes a new swapchain with new images when
 * convenient. */
#define XCB_PRESENT_UTIL_SUBOPTIMAL 1

/*
 * Zeroes *img, sets its size, and sync_fd to -1.  NULL does nothing.
 *
 * See also xcb_present_util_acquire(), xcb_present_util_present().
 */
void xcb_present_util_image_init(xcb_present_util_image_t *img);

/*
 * A swapchain's statistics: frames, completions, latency, buffers.
 *
 * A sized struct (see above): set up with xcb_present_util_stats_init()
 * and filled by xcb_present_util_swapchain_stats() as far as its `size`
 * goes.
 *
 * See also xcb_present_util_stats_init(), xcb_present_util_swapchain_stats().
 */
typedef struct {
    uint32_t size;              /* sizeof(xcb_present_util_stats_t) */
    uint64_t presented;         /* present() calls that were sent */
    uint64_t completed;         /* CompleteNotify received, skipped ones included */
    uint64_t skipped;           /* completed with mode Skip (replaced) */
    uint64_t missed_vblanks;    /* FIFO frames: sum of vblanks past their target */
    uint64_t last_msc, last_ust;    /* of the last completion (UST: microseconds) */
    uint64_t refresh_ns;        /* the display's refresh period: MSC against UST
                                   over the last 32 vblank readings (frames
                                   shown at their target, NotifyMSCs), never
                                   from completions that are not vblanks; the
                                   same figure as image.refresh_ns; 0 until
                                   known */
    uint64_t latency_mean_ns;   /* present() to completion, last 256 frames */
    uint64_t latency_p99_ns;
    uint64_t copies, flips;     /* completion modes (SuboptimalCopy counts as a copy) */
    /* -- after the first version -- */
    /* acquire() returning to the UST of the vblank that showed the frame,
     * last 256 frames shown: the latency a user sees */
    uint64_t shown_latency_mean_ns, shown_latency_p50_ns, shown_latency_p99_ns;
    uint64_t render_ns;         /* acquire() to present(): the high percentile
                                   LOW_LATENCY pacing plans with, 0 until known */
    uint64_t margin_ns;         /* LOW_LATENCY pacing's safety margin now */
    uint64_t late_frames;       /* frames that missed the vblank they were
                                   paced for (the caller or the server late) */
    /* -- after the second version -- */
    uint64_t prime_copies;      /* frames copied into a PRIME display buffer */
    /* Where the DRI3 back end's own buffers (and PRIME's display buffers)
     * come from now, an xcb_present_util_alloc_t; XCB_PRESENT_UTIL_DEBUG=1
     * says why at create. */
    uint32_t buffer_alloc;
    /* Times the back end turned from GBM to memfds: GBM could not open the
     * device or allocate, or the server refused a GBM buffer. */
    uint32_t gbm_fallbacks;
    /* Buffers the DRI3 back end keeps, made by each (reallocations after a
     * resize included; not init's trial buffer). */
    uint64_t gbm_buffers, memfd_buffers;
} xcb_present_util_stats_t;

/* stats.buffer_alloc */
typedef enum {
    /* nothing allocated for DRI3: another back end, or the caller's images
     * without PRIME */
    XCB_PRESENT_UTIL_ALLOC_NONE,
    /* linear memfds (xcb_dri3_util_buffer_create_memfd()): the server's
     * DRI3 Open gave no DRM device (the mock server), the library was
     * built without GBM, or GBM failed */
    XCB_PRESENT_UTIL_ALLOC_MEMFD,
    /* linear dma-bufs from GBM on the DRM device that DRI3 Open gave
     * (xcb_dri3_util_buffer_create_gbm()), which a GPU server's
     * PixmapFromBuffers takes */
    XCB_PRESENT_UTIL_ALLOC_GBM
} xcb_present_util_alloc_t;

/*
 * Zeroes *st and sets its size.  NULL does nothing.
 *
 * See also xcb_present_util_swapchain_stats().
 */
void xcb_present_util_stats_init(xcb_present_util_stats_t *st);

/*
 * Makes a swapchain for window, whose depth must be 24 or 32.  options may
 * be NULL (the defaults of xcb_present_util_options_init(): FIFO,
 * automatic back end, 3 buffers).  The window must exist;
 * the connection must stay open until the swapchain is destroyed.  Makes a
 * few round trips, all of them together bounded by the connection's bound
 * (xcb_dri3_util_set_timeout(), 1 s by default).
 *
 * Returns NULL with errno set on failure: EINVAL for bad options, ENOTSUP
 * when the server lacks Present or the back end asked for, ENODEV when the
 * window does not exist, EPIPE for a broken connection, ETIMEDOUT when the
 * server did not answer, EPROTO when it skipped an answer, ENOMEM.
 *
 * See also xcb_present_util_swapchain_destroy(), xcb_present_util_acquire(),
 * xcb_present_util_present().
 */
xcb_present_util_swapchain_t *
xcb_present_util_swapchain_create(xcb_connection_t *c, xcb_window_t window,
                                  const xcb_present_util_options_t *options);

/*
 * Wait for a free buffer of a swapchain.
 *
 * Waits until a buffer is free, at most timeout_ns nanoseconds (0: only
 * look; negative: up to 10 seconds, the library's bound), and hands it
 * out in *image.  The buffer has the window's current size (reallocated
 * after a resize, once the size has settled) and holds what it held when
 * it was last presented, or zeros when it is new.  Takes in what the
 * server sent before it answers, also with timeout 0.  Waits no longer
 * than timeout_ns, except that reallocating buffers after a resize (a
 * round trip) gets at least 50 ms; destroy() from another thread ends the
 * wait at once.  In FIFO modes the first frame after a long pause (or the
 * first of all) goes to the next vblank, and the next buffer is handed
 * out once that frame completed; acquire() also waits while max_latency
 * frames are queued, and in LOW_LATENCY pacing until the moment it
 * planned for the frame.  image gets the buffer's age, its frame_id and
 * the predicted vblank (as far as image->size goes).
 *
 * With caller images (options.images) the image is one of them, never
 * reallocated: pixels is NULL, buffer is the caller's, and where a resize
 * or a change of the window's modifiers would have reallocated, acquire()
 * returns XCB_PRESENT_UTIL_SUBOPTIMAL instead of 0 (the size mismatch
 * while it lasts, a modifier change until the swapchain goes).  The
 * image is free: its idle fence triggered, or its release point signalled.
 *
 * Returns 0, XCB_PRESENT_UTIL_SUBOPTIMAL, -ETIMEDOUT (no buffer came
 * free: a hidden, throttled or stalled window), -ENODEV, -EPIPE,
 * -ECANCELED, -EINVAL (image NULL, or image->size below the first
 * version), -ENOMEM (a reallocation failed).
 *
 * See also xcb_present_util_present(), xcb_present_util_dispatch().
 */
int xcb_present_util_acquire(xcb_present_util_swapchain_t *sc, int64_t timeout_ns,
                             xcb_present_util_image_t *image);

/*
 * Presents an acquired buffer at the vblank its mode calls for.  damage
 * lists the rectangles that changed since the previous frame (the update
 * region); n_damage 0 means the whole buffer.  Does not wait for the
 * server.
 *
 * Returns 0, -EINVAL (the image was not acquired, or a rectangle lies
 * outside the buffer), -ENODEV, -EPIPE, -ETIMEDOUT (PutImage back end: the
 * server stopped reading and the pixels could not be sent within the
 * connection's bound), -ENOTSUP (PutImage back end: one row of the window
 * is more than the server takes in a request, a window over 65 000 pixels
 * wide without BigRequests).  The buffer is given back to the swapchain
 * even when an error is returned.
 *
 * See also xcb_present_util_acquire(), xcb_present_util_swapchain_stats(),
 * xcb_present_util_swapchain_set_frame_callback().
 */
int xcb_present_util_present(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image,
                             const xcb_rectangle_t *damage, uint32_t n_damage);

/*
 * Copies the statistics into the first stats->size bytes of *stats.
 *
 * Returns 0, or -EINVAL (NULL, or a size below the first version).
 *
 * See also xcb_present_util_swapchain_set_frame_callback().
 */
int xcb_present_util_swapchain_stats(xcb_present_util_swapchain_t *sc,
                                     xcb_present_util_stats_t *stats);

/*
 * A file descriptor for main loops.
 *
 * A file descriptor (owned by the swapchain, close-on-exec) for a main
 * loop: it is readable when acquire(sc, 0, ...) would hand out a buffer
 * at once (in LOW_LATENCY pacing too: when the planned moment came), when
 * the swapchain has failed (acquire() then says why), and when the server
 * sent something.  When it is readable, call xcb_present_util_dispatch(),
 * which takes in what arrived and says how many buffers can be acquired
 * now; after dispatch() the fd stays readable exactly while that number is
 * above 0 or new data arrived.  No thread is involved: a timer fd inside
 * it marks LOW_LATENCY's moment.  When
 * the application reads the X connection itself elsewhere (its own
 * xcb_wait_for_reply()), libxcb may take our events off the socket: call
 * dispatch() after such waits too.
 *
 * Returns the fd, or -EINVAL.
 *
 * See also xcb_present_util_dispatch().
 */
int xcb_present_util_swapchain_fd(xcb_present_util_swapchain_t *sc);

/*
 * Processes what arrived, without blocking.
 *
 * Returns the number of
 * buffers acquire(sc, 0, ...) can hand out now (0 or more: a free buffer
 * does not count while max_latency frames are queued or, in LOW_LATENCY
 * pacing, before the planned moment), -ENODEV or -EPIPE.
 *
 * See also xcb_present_util_swapchain_fd(), xcb_present_util_acquire().
 */
int xcb_present_util_dispatch(xcb_present_util_swapchain_t *sc);

/*
 * The back end in use (never XCB_PRESENT_UTIL_BACKEND_AUTO).
 *
 * See also xcb_present_util_backend_name(),
 * xcb_present_util_swapchain_create().
 */
xcb_present_util_backend_t xcb_present_util_swapchain_backend(xcb_present_util_swapchain_t *sc);

/* A name for a back end or a mode ("dri3", "shm", "put-image", "auto";
 * "fifo", "fifo-relaxed", "mailbox", "immediate"), or "unknown". */

/*
 * A back end's name.
 *
 * Names a back end for people and command lines: "auto", "dri3", "shm",
 * "put-image".
 *
 * Returns A static string; "unknown" for a value that is no back end.
 *
 * See also xcb_present_util_mode_name(), xcb_present_util_swapchain_backend().
 */
const char *xcb_present_util_backend_name(xcb_present_util_backend_t backend);

/*
 * A presentation mode's name.
 *
 * Names a mode for people and command lines: "fifo", "fifo-relaxed",
 * "mailbox", "immediate".
 *
 * Returns A static string; "unknown" for a value that is no mode.
 *
 * See also xcb_present_util_backend_name().
 */
const char *xcb_present_util_mode_name(xcb_present_util_mode_t mode);

/* ---- changes between frames (what a driver needs) --------------------- */

/*
 * Give an acquired image back without presenting it.
 *
 * Gives an acquired image back without presenting it
 * (VK_EXT_swapchain_maintenance1's vkReleaseSwapchainImagesEXT, or a
 * frame a toolkit abandons).  Its contents count as undefined afterwards
 * (the next acquire() says age 0).
 *
 * Returns 0, or -EINVAL when the image
 * was not acquired.
 *
 * See also xcb_present_util_acquire(), xcb_present_util_present().
 */
int xcb_present_util_release(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image);

/*
 * Change the present mode between frames.
 *
 * The present mode of the frames presented from now on (Vulkan's
 * per-present mode of VK_EXT_swapchain_maintenance1, a toolkit's vsync
 * switch).  Frames already queued keep theirs; a FIFO frame after MAILBOX
 * or IMMEDIATE ones goes to the vblank after the last of them.
 *
 * Returns 0
 * or -EINVAL (an unknown mode).
 *
 * See also xcb_present_util_swapchain_set_swap_interval(),
 * xcb_present_util_swapchain_create().
 */
int xcb_present_util_swapchain_set_mode(xcb_present_util_swapchain_t *sc,
                                        xcb_present_util_mode_t mode);

/*
 * Change the swap interval between frames.
 *
 * The swap interval of the frames presented from now on
 * (glXSwapIntervalEXT): in the FIFO modes each frame stays on screen at
 * least interval vblanks; 0 presents as IMMEDIATE until an interval above
 * 0 is set again.
 *
 * Returns 0 or -EINVAL (sc NULL).
 *
 * See also xcb_present_util_swapchain_set_mode(),
 * xcb_present_util_options_init().
 */
int xcb_present_util_swapchain_set_swap_interval(xcb_present_util_swapchain_t *sc,
                                                 uint32_t interval);

/*
 * Replace a swapchain's caller images in place.
 *
 * Replaces the caller images (options.images) of a swapchain made with
 * them, in place: a GL drawable's new back buffers after a resize, images
 * with another modifier set, more images or fewer (1 .. 16, one size and
 * format, the window's depth, as for create()).  Frame ids, the MSC count,
 * the frame clock and the pacing go on as before; frames already sent
 * stay queued and complete as usual.  images[i] is image index i from now
 * on; an image may be in both sets (its pixmap is made again all the
 * same).  Makes the new pixmaps first (the DRI3 back end in one round
 * trip, within the connection's bound), then lets the old ones go: the
 * server keeps what it still shows or reads of them, and the library
 * touches none of the old images once this returns, so the caller may
 * free them.  The new images start with age 0.  On failure nothing
 * changed.
 *
 * Returns 0, -EBUSY (an image is acquired: present or release it first),
 * -EINVAL (no caller images at create, images the swapchain cannot take,
 * or on the SHM back end images the server could not map), -ENOTSUP (the
 * server refused the DRI3 images), -ENOMEM, -ENODEV, -EPIPE, -ETIMEDOUT.
 *
 * See also xcb_present_util_swapchain_create(),
 * xcb_present_util_swapchain_set_num_buffers(), xcb_present_util_release(),
 * xcb_present_util_swapchain_status().
 */
int xcb_present_util_swapchain_set_images(xcb_present_util_swapchain_t *sc,
                                          xcb_dri3_util_buffer_t *const *images,
                                          uint32_t num_images);

/*
 * Change the number of a swapchain's own buffers in place.
 *
 * The number of the library's own buffers, changed in place (2 .. 16): a
 * toolkit that wants one more frame of queue, or memory back.  New buffers
 * are made at once, with age 0; dropped ones (the highest indices) are
 * freed at once, the server keeping what it still shows of them.  Frame
 * ids and timing go on; max_latency is taken again as asked at create,
 * within the new number.  On failure nothing changed.
 *
 * Returns 0, -EBUSY (a buffer that would go is acquired), -EINVAL (caller
 * images: use set_images(); or n out of range), -ENOMEM, -ENODEV, -EPIPE,
 * -ETIMEDOUT.
 *
 * See also xcb_present_util_swapchain_create(),
 * xcb_present_util_swapchain_set_images().
 */
int xcb_present_util_swapchain_set_num_buffers(xcb_present_util_swapchain_t *sc, uint32_t n);

/*
 * The swapchain's state for a driver's state machine.
 *
 * The swapchain's state as a driver's state machine wants it, without
 * waiting and without reading the connection: 0 (all well),
 * XCB_PRESENT_UTIL_SUBOPTIMAL (caller images that no longer fit the
 * window: its size, as last heard, differs from theirs, or the modifiers
 * it can show changed), -ENODEV (the window is gone) or -EPIPE (the
 * connection broke).  The two errors are sticky: once reported, every
 * later call of the swapchain reports them too.
 *
 * See also xcb_present_util_swapchain_window_size(),
 * xcb_present_util_acquire().
 */
int xcb_present_util_swapchain_status(xcb_present_util_swapchain_t *sc);

/*
 * The window's size as the swapchain last heard it.
 *
 * The window's size as the swapchain last heard it (Present's
 * ConfigureNotify, or the probe of a quiet window): what a driver reports
 * as the surface's extent, and what a resize hook compares with.
 *
 * Returns
 * 0, or -EINVAL (a NULL argument).
 *
 * See also xcb_present_util_swapchain_status().
 */
int xcb_present_util_swapchain_window_size(xcb_present_util_swapchain_t *sc,
                                           uint16_t *width, uint16_t *height);

/*
 * Free a swapchain and everything it holds.
 *
 * Waits for what is in flight and makes the server forget the swapchain's
 * event selection (at most 100 ms in all, on a stopped server too), frees
 * every pixmap, shared memory segment, fd and mapping, and frees the
 * swapchain.  Safe on a dead connection or a destroyed window.  On a
 * server that did not answer within those 100 ms, a Present event for the
 * swapchain that comes later reaches the application's event queue.  NULL
 * does nothing.
 *
 * See also xcb_present_util_swapchain_create().
 */
void xcb_present_util_swapchain_destroy(xcb_present_util_swapchain_t *sc);

#ifdef __cplusplus
}
#endif

/* The parts of the API by concern: when frames are shown, and presenting
 * without a swapchain, with explicit sync. */
#include "xcb_present_util_timing.h"
#include "xcb_present_util_synced.h"

#endif
