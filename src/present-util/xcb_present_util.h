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
     * vblank: the server's latch before the predicted vblank (half a
     * refresh at first, the last moment a frame reaches it on every
     * server; then learnt from the completions, later where the server
     * allows: stats.latch_ns), less the time the caller takes from
     * acquire() to present() (learned from its recent frames), less a
     * safety margin that grows after a missed vblank and shrinks after a
     * run of hits.  The frame is then shown about the latch plus the
     * render time plus the margin after acquire() returned (10 to 12 ms
     * at 60 Hz for a short render), not one render time after:
     * xcb_present_util(7), LATENCY, says why and what was measured.  A caller slower than a refresh is paced at the rate it
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
    /* XCB_PRESENT_UTIL_SYNC_GPU_WAITS or 0 (the default). */
    uint32_t sync_flags;
} xcb_present_util_options_t;

/* A flag of options.sync_flags: the caller's GPU waits for the release point.
 *
 * options.sync_flags, explicit sync: the caller's GPU waits for
 * image.wait_point before it writes an image (a Vulkan driver imports
 * image.sync_fd's point as the acquire semaphore, a GL driver queues a
 * syncobj wait), so acquire() hands an image out once the server has
 * attached the fence that will signal its release point, not once that
 * fence signalled: the CPU no longer waits for the server's GPU.  While
 * no image is free, acquire() sleeps on the kernel's eventfd of the
 * release points (DRM_IOCTL_SYNCOBJ_EVENTFD) with or without this flag,
 * and looks every millisecond only where the kernel cannot notify. */
#define XCB_PRESENT_UTIL_SYNC_GPU_WAITS 1u

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
 * Set an options struct's size and defaults.  Zeroes *p and sets p->size to
 * sizeof(xcb_present_util_options_t), as the program's header knows it, and
 * the defaults: FIFO mode, the automatic back end, 3 buffers, at most 2 frames
 * queued ahead of the screen (max_latency), THROUGHPUT pacing, no caller
 * images, a swap interval of 1, a render_fd of -1 and the throttle at acquire
 * (XCB_PRESENT_UTIL_THROTTLE_ACQUIRE).  Each default is also what a 0 in its
 * field means, so that a struct zeroed with only its size set gets the
 * defaults: a swap_interval of 0 is 1 (vsync stays on; a swapchain without
 * vsync is XCB_PRESENT_UTIL_MODE_IMMEDIATE, or calls
 * xcb_present_util_swapchain_set_swap_interval() with 0), and a render_fd of 0
 * is none.
 *
 * throttle says where the caller waits when frames queue up:
 * XCB_PRESENT_UTIL_THROTTLE_ACQUIRE (acquire() waits while max_latency frames
 * are queued: a toolkit's loop), XCB_PRESENT_UTIL_THROTTLE_NONE (acquire()
 * hands out any free buffer at once: Vulkan's vkAcquireNextImageKHR) or
 * XCB_PRESENT_UTIL_THROTTLE_PRESENT (present() returns once at most
 * max_latency frames are queued: GL's SwapBuffers).
 *
 * predecessor names a swapchain on the same window that this one replaces
 * (Vulkan's oldSwapchain, a GL drawable made again): frame ids, MSCs and the
 * frame clock go on from it.  sync (DRI3 back end) orders rendering and the
 * server's reading: XCB_PRESENT_UTIL_SYNC_AUTO (explicit sync where the window
 * has the Syncobj capability and the device gives timelines, else idle
 * fences), XCB_PRESENT_UTIL_SYNC_IMPLICIT (never explicit) or
 * XCB_PRESENT_UTIL_SYNC_EXPLICIT (explicit or no swapchain: create() fails
 * with ENOTSUP).  sync_flags XCB_PRESENT_UTIL_SYNC_GPU_WAITS says that the
 * caller's GPU waits for an image's wait_point before it writes the image (see
 * xcb_present_util_acquire()): acquire() then hands an image out once the
 * server has attached the fence of its release point, without waiting for that
 * fence to signal.  The flag with XCB_PRESENT_UTIL_SYNC_IMPLICIT or an unknown
 * flag is refused (EINVAL).
 *
 * images and num_images hand the swapchain the caller's own images (the DRI3
 * back end; one-plane linear memfds on the SHM and PutImage back ends too):
 * see xcb_present_util_acquire() for what changes.  swap_interval (FIFO modes)
 * keeps each frame at least that many vblanks.  render_fd names the DRM device
 * the caller renders its images with; when it is not the server's, each image
 * is copied into a linear display buffer before it is presented, by prime_copy
 * (called with prime_data) or by the CPU.  present_options adds PresentOption
 * bits to every frame: only XCB_PRESENT_OPTION_COPY (the server copies and
 * never flips), for a driver whose images the display cannot scan out; 0 by
 * default.
 *
 * max_latency (FIFO modes) bounds the frames presented and not yet shown:
 * xcb_present_util_acquire() waits while that many are queued. It is
 * independent of num_buffers: 3 buffers with max_latency 1 keep a spare buffer
 * that is never waited for. Values above num_buffers - 1 are taken as
 * num_buffers - 1.
 *
 * pacing (FIFO modes) chooses when acquire() returns:
 * XCB_PRESENT_UTIL_PACING_THROUGHPUT as soon as a buffer is free and the
 * latency allows; XCB_PRESENT_UTIL_PACING_LOW_LATENCY at the latest moment
 * that still makes the next vblank: the predicted vblank less a quarter period
 * (the last moment a frame is still aimed at it), less the caller's render
 * time (the 90th percentile of its last 64 acquire()-to-present() times), less
 * a safety margin (2 ms at first; half as much again and 1 ms more after a
 * frame misses the vblank it was paced for, at most half a period; an eighth
 * less after 120 hits in a row, at least 1 ms). A caller slower than a period
 * is paced every second (third, fourth) vblank, one rate it can hold. The
 * first four frames, and the first after a pause, are paced as THROUGHPUT.
 *
 * Every struct of the library that the caller allocates starts with size.  The
 * library reads and writes only the first size bytes and takes fields beyond
 * them at their defaults, so that a program built against an older header
 * keeps working with a newer library, whose structs have more fields at their
 * end; a size smaller than the struct's first version is refused with -EINVAL.
 * Setting size by hand, as in xcb_present_util_options_t x = { .size = sizeof
 * x };, is the same but for the two fields above.  p may be NULL, which does
 * nothing.
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
    /* Explicit sync with XCB_PRESENT_UTIL_SYNC_GPU_WAITS: the point of
     * sync_fd's timeline that must be signalled before anything writes
     * the image (its last frame's release point, which the server may
     * still be reading); the caller's GPU waits for it.  0 when nothing
     * needs waiting for (acquire() waited, or the image is new). */
    uint64_t wait_point;
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
 * Prepare an image struct for acquire.  Zeroes *p and sets p->size to
 * sizeof(xcb_present_util_image_t), as the program's header knows it, and
 * sync_fd to -1 (no timeline).
 *
 * Every struct of the library that the caller allocates starts with size.  The
 * library reads and writes only the first size bytes and takes fields beyond
 * them at their defaults, so that a program built against an older header
 * keeps working with a newer library, whose structs have more fields at their
 * end; a size smaller than the struct's first version is refused with -EINVAL.
 * Setting size by hand, as in xcb_present_util_image_t x = { .size = sizeof x
 * };, is the same.  p may be NULL, which does nothing.
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
    /* -- after the third version -- */
    /* LOW_LATENCY pacing: how long before a vblank a frame must reach the
     * server to be shown at it, as learnt from the completions (half a
     * refresh at first, a quarter at least); 0 until the refresh is
     * known */
    uint64_t latch_ns;
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
 * Prepare a stats struct.  Zeroes *p and sets p->size to
 * sizeof(xcb_present_util_stats_t), as the program's header knows it.
 *
 * Every struct of the library that the caller allocates starts with size.  The
 * library reads and writes only the first size bytes and takes fields beyond
 * them at their defaults, so that a program built against an older header
 * keeps working with a newer library, whose structs have more fields at their
 * end; a size smaller than the struct's first version is refused with -EINVAL.
 * Setting size by hand, as in xcb_present_util_stats_t x = { .size = sizeof x
 * };, is the same.  p may be NULL, which does nothing.
 *
 * See also xcb_present_util_swapchain_stats().
 */
void xcb_present_util_stats_init(xcb_present_util_stats_t *st);

/*
 * Make a vsync swapchain for a window.  Makes a swapchain: 2 to 16 buffers
 * that the X server can show in window through the Present extension, handed
 * out with xcb_present_util_acquire() and shown on vertical blanks with
 * xcb_present_util_present().  The window's depth must be 24 or 32.  The
 * window must exist; the connection must stay open until the swapchain is
 * destroyed.
 *
 * options may be NULL (FIFO, automatic back end, 3 buffers).  Its mode is one
 * of XCB_PRESENT_UTIL_MODE_FIFO (every frame shown, each for at least one
 * vblank, never torn), _FIFO_RELAXED (a frame that missed its vblank is shown
 * at once and may tear), _MAILBOX (the newest frame wins at each vblank;
 * replaced frames count as skipped) and _IMMEDIATE.  Its backend is
 * XCB_PRESENT_UTIL_BACKEND_AUTO (DRI3 buffers where the server takes them,
 * else MIT-SHM memfd pixmaps, else PutImage into server pixmaps), or one of
 * _DRI3, _SHM and _PUT_IMAGE to insist on one.  num_buffers 0 lets the library
 * choose (3).
 *
 * The function asks the server for Present's version and the window's
 * capabilities, selects Present's events on a special event queue (registered
 * before SelectInput), reads the current MSC with NotifyMSC to aim the first
 * frame, and allocates the buffers. All of its round trips, those of
 * libxcb-dri3-util for the DRI3 back end included, end within one bound, the
 * connection's (see xcb_dri3_util_set_timeout(); one second unless changed).
 *
 * The DRI3 back end allocates linear buffers the CPU can write: where DRI3
 * Open gives a DRM device and the library was built with GBM, dma-bufs from
 * GBM on that device (a server with a GPU takes nothing else), with the LINEAR
 * modifier where the server lists it; otherwise memfds (a server that hands
 * out no DRM device, such as the mock server). One trial buffer is made a
 * pixmap first: a GBM buffer the server refuses, or one GBM cannot allocate,
 * makes it turn to memfds, and memfds it refuses make the automatic choice go
 * on to MIT-SHM.  buffer_alloc and gbm_fallbacks of
 * xcb_present_util_swapchain_stats() say what was used, and the debug log says
 * why (a line "DRI3: buffers from GBM on DEVICE..." or "DRI3: buffers from
 * memfd: REASON").
 *
 * XCB_PRESENT_UTIL_DEBUG=1 in the environment logs every request, event and
 * invariant check to stderr.
 *
 * Returns the swapchain, or NULL with errno set to EINVAL (bad options, an
 * options->size below the struct's first version, no window), ENOTSUP (no
 * Present, a depth other than 24 or 32, or a back end the server cannot do),
 * ENODEV (the window does not exist), EPIPE (the connection is broken),
 * ETIMEDOUT (the server did not answer), EPROTO (the server skipped an answer:
 * it answered later requests and never one of create's), or ENOMEM.
 *
 * See also xcb_present_util_swapchain_destroy(), xcb_present_util_acquire(),
 * xcb_present_util_present().
 */
xcb_present_util_swapchain_t *
xcb_present_util_swapchain_create(xcb_connection_t *c, xcb_window_t window,
                                  const xcb_present_util_options_t *options);

/*
 * Wait for a free buffer of a swapchain.  Waits until a buffer is free (the
 * server sent IdleNotify for its last presentation and, for DRI3 buffers, its
 * idle fence triggered) and describes it in *image: pixels, stride (bytes per
 * row), width, height (the window's current size), fourcc (XRGB8888 for depth
 * 24, ARGB8888 for 32) and index; as far as image->size goes (fields after the
 * first version), also frame_id (the id present() gives the frame, when images
 * are presented in the order they were acquired), age (EGL_EXT_buffer_age: 0
 * when the contents are undefined, a new or reallocated buffer or one whose
 * present() was refused; n when they are those of the frame presented n frames
 * before this one), predicted_msc and predicted_ust (FIFO modes: the vblank
 * that shows the frame if it is presented now, in the frame callback's MSC
 * count and UST; 0 when unknown) and refresh_ns.  The buffer holds what it
 * held when it was last presented, or zeros when it is new.
 *
 * As far as image->size goes, buffer is the buffer behind the image: for the
 * DRI3 back end's own buffers a linear dma-buf from GBM on the server's
 * device, or a memfd (see xcb_present_util_swapchain_create()); NULL for the
 * SHM and PutImage back ends.  Its fds, strides, offsets and modifier
 * (xcb_dri3_util_buffer_fd() and the other accessors) let a GPU import the
 * same memory (EGL's EGL_LINUX_DMA_BUF_EXT, Vulkan's
 * VK_EXT_external_memory_dma_buf; dup() the fds). It stays the library's until
 * a reallocation (a later acquire() of the index with age 0) or the
 * swapchain's destroy.
 *
 * The GPU may write it from acquire()'s return on, without a fence: the buffer
 * is idle then (its idle fence triggered, or its release point signalled). Its
 * rendering must be complete before the server reads the frame: under explicit
 * sync the GPU signals acquire_point (with
 * XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS) or the caller waits for it before
 * present(); without explicit sync a GBM dma-buf carries the GPU's work in its
 * implicit fences, so rendering submitted before present() suffices, but a
 * memfd is read at once: wait for the GPU before present().
 *
 * acquire() begins the CPU's access to pixels and xcb_present_util_present()
 * ends it: on a GBM dma-buf, DMA_BUF_IOCTL_SYNC start (which waits for the
 * server's and the GPU's work on it) and end; a memfd needs neither. A failed
 * sync is logged, not returned.
 *
 * In the FIFO modes acquire() also waits while max_latency frames are
 * presented and not yet shown, and in LOW_LATENCY pacing until the moment
 * planned for the frame (see xcb_present_util_options_init()).
 *
 * timeout_ns 0 only looks (after taking in what the server sent); a negative
 * timeout waits up to 10 seconds, the library's bound. The wait is a poll(2)
 * on the connection: libxcb's unbounded waits are never used. It also wakes
 * when another thread (an event thread in xcb_wait_for_event()) read the
 * events it waits for. A reallocation after a resize makes a round trip, which
 * gets at least 50 ms even when timeout_ns is shorter.
 *
 * A buffer whose frame completed but whose IdleNotify never came (a server or
 * proxy that lost it) is taken back after 100 ms or two later frames; a
 * flipped buffer only once a later frame was shown.  A frame whose
 * CompleteNotify never came, when nothing else comes either, is given up 16
 * refresh periods (at least 0.5 s) after the vblank that should have shown it,
 * so that acquire() does not wait for ever; its buffer comes back once a later
 * frame was shown, its idle fence triggered, or after a second (more after
 * several such frames in a row).  The frames after it are aimed after it, as a
 * server that was only slow (a hidden or throttled window) may still show it;
 * its late completion is not counted.  A ConfigureNotify with a size no window
 * can have (0, or above 32767) is ignored.
 *
 * In the FIFO modes, the first frame, and the first after a pause longer than
 * four refresh periods, goes to the server's next vblank; the next buffer is
 * handed out once that frame completed, so that no two frames meet on one
 * vblank.
 *
 * After a resize the buffers are reallocated at the new size once the size has
 * held for 30 ms (every 100 ms during a long drag). When the server has been
 * quiet for 30 ms during the wait, a GetGeometry probe finds out whether the
 * window still exists: Xvfb drops a destroyed window's presentations without a
 * word. The probe does not hold the wait: its answer is taken in whenever it
 * comes.
 *
 * With the caller's own images (options.images, a driver's GPU images), the
 * image handed out is one of them and is never reallocated: pixels is NULL,
 * buffer is the caller's image, and where a resize or a change of the window's
 * supported modifiers would have made the library reallocate its own buffers,
 * XCB_PRESENT_UTIL_SUBOPTIMAL is returned instead of 0: the image can still be
 * presented (the server scales or copies), and the caller makes a new
 * swapchain with new images when convenient. A size mismatch is reported while
 * it lasts, a modifier change until the swapchain is destroyed. The image is
 * free when handed out: its idle fence triggered, or under explicit sync its
 * last release point signalled. Under explicit sync sync_fd is the image's
 * timeline syncobj (the library's; import it into the GPU context to signal or
 * wait), acquire_point the point xcb_present_util_present() sends for the
 * server to wait for (signalled by the library at present() unless flags has
 * XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS), and release_point the point the
 * server will signal once done with the frame.  With
 * XCB_PRESENT_UTIL_SYNC_GPU_WAITS (xcb_present_util_options_init()) the image
 * is handed out once its last release point is available (the server attached
 * the fence that will signal it), and wait_point names that point: the
 * caller's GPU waits for it before writing (0 for an image never presented).
 * While no image is free, the wait sleeps on the kernel's notification of the
 * release points (DRM_IOCTL_SYNCOBJ_EVENTFD, Linux 6.6), and looks at them
 * every millisecond only where the kernel cannot notify.
 *
 * Returns 0, XCB_PRESENT_UTIL_SUBOPTIMAL (caller images only, see above), or
 * -ETIMEDOUT (no buffer came free: a hidden, throttled or stalled window),
 * -ENODEV (the window is gone), -EPROTO (the server never answered a round
 * trip of the reallocation and answered later requests), -EPIPE (the
 * connection broke), -ECANCELED (another thread destroys the swapchain),
 * -EINVAL (image is NULL, or its size is below the struct's first version: see
 * xcb_present_util_image_init()), -ENOMEM (a reallocation failed).
 *
 * See also xcb_present_util_present(), xcb_present_util_dispatch().
 */
int xcb_present_util_acquire(xcb_present_util_swapchain_t *sc, int64_t timeout_ns,
                             xcb_present_util_image_t *image);

/*
 * Show an acquired buffer on the vblank its mode calls for.  Sends
 * PresentPixmap for the buffer that image describes (as
 * xcb_present_util_acquire() filled it in).  FIFO frames are aimed at the
 * vblank after the previous frame's, computed from completions rather than
 * from a fresh MSC reading, and kept past the server's current MSC;
 * FIFO_RELAXED adds the Async option, IMMEDIATE sends Async (and AsyncMayTear
 * where the window has that capability), MAILBOX aims at the next vblank. The
 * divisor and remainder are 0.
 *
 * damage lists n_damage rectangles that changed since the previous frame; they
 * become the update region (through XFixes, where the server has it). With
 * n_damage 0 the whole buffer is the update. The PutImage back end uploads the
 * whole buffer before presenting; the DRI3 back end ends the CPU's access to
 * its own buffer first (DMA_BUF_IOCTL_SYNC end on a GBM dma-buf; see
 * xcb_dri3_util_buffer_end_access()), and with PRIME copies the image into its
 * display buffer.
 *
 * Does not wait for the server.
 *
 * Returns 0, or -EINVAL (the image was not acquired from this swapchain, its
 * size is below the struct's first version, or a rectangle lies outside the
 * buffer), -ENODEV (the window is gone), -EPIPE (the connection broke),
 * -ETIMEDOUT (PutImage back end: the server stopped reading, and the pixels
 * could not be sent within the connection's bound, see
 * xcb_dri3_util_set_timeout(); the upload goes in bands of at most 64 KiB,
 * each sent only once the socket takes data), -ENOTSUP (PutImage back end: one
 * row of the window is more than the server takes in one request, a window
 * over about 65 000 pixels wide).  On an error the buffer goes back to the
 * swapchain unshown.
 *
 * See also xcb_present_util_acquire(), xcb_present_util_swapchain_stats(),
 * xcb_present_util_swapchain_set_frame_callback().
 */
int xcb_present_util_present(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image,
                             const xcb_rectangle_t *damage, uint32_t n_damage);

/*
 * A swapchain's frame counters and timings.  Copies the statistics: presented
 * (frames sent), completed (CompleteNotify received, skipped ones included),
 * skipped (completed with mode Skip), missed_vblanks (FIFO frames: the sum of
 * the vblanks by which they came after their target), last_msc and last_ust
 * (the last completion; UST in microseconds), refresh_ns (measured from
 * completions, 0 until two are known), latency_mean_ns and latency_p99_ns
 * (from present() to the frame's UST, over the last 256 frames), copies and
 * flips (completion modes; SuboptimalCopy counts as a copy); as far as
 * stats->size goes (fields after the first version), shown_latency_mean_ns,
 * shown_latency_p50_ns and shown_latency_p99_ns (from acquire() returning to
 * the UST of the vblank that showed the frame, over the last 256 frames shown:
 * the latency a user sees), render_ns (the 90th percentile of the caller's
 * acquire()-to-present() times that LOW_LATENCY pacing plans with, 0 until
 * known), margin_ns (LOW_LATENCY pacing's safety margin now) and late_frames
 * (frames shown after the vblank LOW_LATENCY paced them for); as far as
 * stats->size goes (fields after the second version), prime_copies (frames
 * copied into a PRIME display buffer), buffer_alloc (where the DRI3 back end's
 * own buffers and PRIME's display buffers come from now:
 * XCB_PRESENT_UTIL_ALLOC_GBM on the server's DRM device,
 * XCB_PRESENT_UTIL_ALLOC_MEMFD or, for another back end or the caller's images
 * without PRIME, XCB_PRESENT_UTIL_ALLOC_NONE), gbm_fallbacks (times the back
 * end turned from GBM to memfds: GBM could not open the device or allocate, or
 * the server refused a GBM buffer; the debug log says why), gbm_buffers and
 * memfd_buffers (the buffers it kept from each, reallocations included).
 *
 * Returns 0, or -EINVAL when an argument is NULL or stats->size is below the
 * struct's first version (see xcb_present_util_stats_init()).  Only the first
 * stats->size bytes are written.
 *
 * See also xcb_present_util_swapchain_set_frame_callback().
 */
int xcb_present_util_swapchain_stats(xcb_present_util_swapchain_t *sc,
                                     xcb_present_util_stats_t *stats);

/*
 * A file descriptor for main loops.  Returns an epoll fd, owned by the
 * swapchain and close-on-exec, for a main loop. It is readable while
 * xcb_present_util_acquire() with timeout 0 would hand out a buffer at once
 * (in LOW_LATENCY pacing: once the moment planned for the next frame came,
 * which a timer fd inside it marks, without a thread), while the swapchain has
 * failed (acquire() then says why), and when the X connection has something to
 * read or the library took in events that xcb_present_util_dispatch() has not
 * reported yet.  Poll it, call dispatch when it is readable, and acquire as
 * many buffers as dispatch says; after dispatch the fd stays readable exactly
 * while that number is above 0, until new data arrives.
 *
 * When the application reads the connection itself elsewhere (its own
 * xcb_wait_for_reply()), libxcb may take the swapchain's events off the
 * socket: call dispatch after such waits too.
 *
 * Returns the fd, or -EINVAL when sc is NULL.
 *
 * See also xcb_present_util_dispatch().
 */
int xcb_present_util_swapchain_fd(xcb_present_util_swapchain_t *sc);

/*
 * Process what arrived for a swapchain, without blocking.  Takes every Present
 * event that arrived for the swapchain (completions, IdleNotify,
 * ConfigureNotify) and processes it, then sets the readiness of
 * xcb_present_util_swapchain_fd() to what it returns: readable while a buffer
 * can be acquired.  Never blocks.
 *
 * Returns the number of buffers that xcb_present_util_acquire() with timeout 0
 * can hand out now (0 or more): a free buffer does not count while max_latency
 * frames are queued or, in LOW_LATENCY pacing, before the moment planned for
 * the next frame; or -ENODEV (the window is gone), -EPIPE (the connection
 * broke), -EINVAL (sc is NULL).
 *
 * See also xcb_present_util_swapchain_fd(), xcb_present_util_acquire().
 */
int xcb_present_util_dispatch(xcb_present_util_swapchain_t *sc);

/*
 * The back end a swapchain uses.  Tells which back end the swapchain chose or
 * was given: XCB_PRESENT_UTIL_BACKEND_DRI3, _SHM or _PUT_IMAGE.
 *
 * Returns the back end; XCB_PRESENT_UTIL_BACKEND_AUTO only for a NULL sc.
 *
 * See also xcb_present_util_backend_name(),
 * xcb_present_util_swapchain_create().
 */
xcb_present_util_backend_t xcb_present_util_swapchain_backend(xcb_present_util_swapchain_t *sc);

/* A name for a back end or a mode ("dri3", "shm", "put-image", "auto";
 * "fifo", "fifo-relaxed", "mailbox", "immediate"), or "unknown". */

/*
 * A back end's name.  Names a back end for people and command lines: "auto",
 * "dri3", "shm", "put-image".
 *
 * Returns a static string; "unknown" for a value that is no back end.
 *
 * See also xcb_present_util_mode_name(), xcb_present_util_swapchain_backend().
 */
const char *xcb_present_util_backend_name(xcb_present_util_backend_t backend);

/*
 * A presentation mode's name.  Names a mode for people and command lines:
 * "fifo", "fifo-relaxed", "mailbox", "immediate".
 *
 * Returns a static string; "unknown" for a value that is no mode.
 *
 * See also xcb_present_util_backend_name().
 */
const char *xcb_present_util_mode_name(xcb_present_util_mode_t mode);

/* ---- changes between frames (what a driver needs) --------------------- */

/*
 * Give an acquired image back without presenting it.  Gives an image that
 * xcb_present_util_acquire() handed out back to the swapchain without
 * presenting it (VK_EXT_swapchain_maintenance1's vkReleaseSwapchainImagesEXT,
 * or a frame a toolkit abandons). Its contents count as undefined afterwards:
 * the next acquire() of it reports age 0.
 *
 * Returns 0, or -EINVAL (sc or image NULL, or the image was not acquired).
 *
 * See also xcb_present_util_acquire(), xcb_present_util_present().
 */
int xcb_present_util_release(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image);

/*
 * Change the present mode between frames.  Sets the present mode of the frames
 * presented from now on (Vulkan's per-present mode of
 * VK_EXT_swapchain_maintenance1, a toolkit's vsync switch), without making a
 * new swapchain. Frames already queued keep their mode; a FIFO frame after
 * MAILBOX or IMMEDIATE ones goes to the vblank after the last of them. A swap
 * interval of 0 (xcb_present_util_swapchain_set_swap_interval()) keeps the
 * FIFO modes IMMEDIATE until it is raised again.
 *
 * Returns 0, or -EINVAL (sc NULL, or an unknown mode).
 *
 * See also xcb_present_util_swapchain_set_swap_interval(),
 * xcb_present_util_swapchain_create().
 */
int xcb_present_util_swapchain_set_mode(xcb_present_util_swapchain_t *sc,
                                        xcb_present_util_mode_t mode);

/*
 * Change the swap interval between frames.  Sets the swap interval of the
 * frames presented from now on (glXSwapIntervalEXT): in the FIFO modes each
 * frame stays on screen at least interval vblanks. 0 presents as IMMEDIATE
 * until an interval above 0 is set again.  Frame ids, the MSC count and the
 * pacing go on as before.
 *
 * Returns 0, or -EINVAL (sc NULL).
 *
 * See also xcb_present_util_swapchain_set_mode(),
 * xcb_present_util_options_init().
 */
int xcb_present_util_swapchain_set_swap_interval(xcb_present_util_swapchain_t *sc,
                                                 uint32_t interval);

/*
 * Replace a swapchain's caller images in place.  Replaces the caller images
 * (options.images) of a swapchain made with them, without making a new
 * swapchain: a GL drawable's new back buffers after a resize, images with
 * another modifier set, more images or fewer (1 to 16, one size and format,
 * the window's depth, as for xcb_present_util_swapchain_create()).  Frame ids,
 * the MSC count, the frame clock and the pacing go on as before; frames
 * already sent stay queued and complete as usual.  images[i] is image index i
 * from now on; an image may be in both sets (its pixmap is made again all the
 * same).
 *
 * The new pixmaps are made first (the DRI3 back end makes all of them in one
 * round trip, within the connection's bound), then the old ones are let go:
 * the server keeps what it still shows or reads of them, and the library
 * touches none of the old images once the call returned, so the caller may
 * free them. The new images start with age 0. On failure nothing changed.
 *
 * Returns 0, -EBUSY (an image is acquired: present or release it first),
 * -EINVAL (the swapchain was made without caller images, images it cannot
 * take, or on the SHM back end images the server could not map), -ENOTSUP (the
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
 * Change the number of a swapchain's own buffers in place.  Changes the number
 * of the library's own buffers to n (2 to 16) without making a new swapchain:
 * a toolkit that wants one more frame of queue, or memory back. New buffers
 * are made at once, with age 0; dropped ones (the highest indices) are freed
 * at once, the server keeping what it still shows of them. Frame ids and
 * timing go on; max_latency is taken again as asked at create, within the new
 * number. On failure nothing changed.
 *
 * Returns 0, -EBUSY (a buffer that would go is acquired), -EINVAL (a swapchain
 * with caller images: use xcb_present_util_swapchain_set_images(); or n out of
 * range), -ENOMEM, -ENODEV, -EPIPE, -ETIMEDOUT.
 *
 * See also xcb_present_util_swapchain_create(),
 * xcb_present_util_swapchain_set_images().
 */
int xcb_present_util_swapchain_set_num_buffers(xcb_present_util_swapchain_t *sc, uint32_t n);

/*
 * The swapchain's state for a driver's state machine.  Says how the swapchain
 * stands, without waiting and without reading the connection: all well, caller
 * images that no longer fit the window (its size as last heard differs from
 * theirs, or the modifiers it can show changed), the window gone, or the
 * connection broken. The two errors are sticky: once reported, every later
 * call of the swapchain reports them too.
 *
 * Returns 0, XCB_PRESENT_UTIL_SUBOPTIMAL (caller images only), -ENODEV (the
 * window is gone), -EPIPE (the connection broke), or -EINVAL (sc NULL).
 *
 * See also xcb_present_util_swapchain_window_size(),
 * xcb_present_util_acquire().
 */
int xcb_present_util_swapchain_status(xcb_present_util_swapchain_t *sc);

/*
 * The window's size as the swapchain last heard it.  Stores the window's size
 * as the swapchain last heard it (Present's ConfigureNotify, or the probe of a
 * quiet window) in *width and *height: what a driver reports as the surface's
 * extent, and what a resize hook compares with. Makes no round trip.
 *
 * Returns 0, or -EINVAL (a NULL argument).
 *
 * See also xcb_present_util_swapchain_status().
 */
int xcb_present_util_swapchain_window_size(xcb_present_util_swapchain_t *sc,
                                           uint16_t *width, uint16_t *height);

/*
 * Free a swapchain and everything it holds.  Wakes any thread waiting in
 * xcb_present_util_acquire() (its call returns -ECANCELED) and waits until it
 * has left, waits for presentations in flight, then frees every pixmap, shared
 * memory segment, fd and mapping, deselects Present's events with a checked
 * request and unregisters the special event queue: 100 ms at most for all of
 * it, on a server that stopped answering too (a Present event that such a
 * server sends later reaches the application's event queue).  Safe on a broken
 * connection and on a destroyed window.  NULL does nothing.  Calling any other
 * function on sc once destroy has begun is a use after free.
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
