/*
 * xcb_present_util_timing.h: when frames are shown (libxcb-present-util;
 * included by <xcb/xcb_present_util.h>, whose overview gives the rules for
 * errors, sized structs and threads).
 *
 * Every frame the swapchain presents gets a frame_id (1, 2, ...: the swap
 * count of GLX_OML_sync_control).  Its timing (the vblank that showed it,
 * MSC and UST, and how: copy, flip, skip) reaches the caller three ways:
 * a callback per completed frame, wait_frame() for one frame or all of
 * them (VK_KHR_present_wait, glXWaitForSbcOML), and the image of the next
 * acquire(), which predicts its vblank.  Frames can be aimed at a time
 * (present_at(), in UST) or at a vblank count (present_msc(), with
 * GLX_OML_sync_control's divisor and remainder), and wait_msc() waits for
 * a vblank count without presenting (glXWaitForMscOML).
 *
 * MSCs are the swapchain's own count: the server's, continued without a
 * step back when the window moves to another CRTC.  USTs are
 * CLOCK_MONOTONIC microseconds on a local server.
 */
#ifndef XCB_PRESENT_UTIL_TIMING_H
#define XCB_PRESENT_UTIL_TIMING_H

#include "xcb_present_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- per-frame timing ------------------------------------------------- */

/* What happened to one frame, for callers that want per-frame timing.
 *
 * The library fills it for the frame callback with size set to its own
 * sizeof (read only the fields that lie within size), and for
 * xcb_present_util_wait_frame() as far as the caller's size goes. */
typedef struct {
    uint32_t size;          /* sizeof(xcb_present_util_frame_t) */
    uint64_t frame;         /* its frame_id: 1 for the first present(), 2 for the next... */
    uint32_t index;         /* the buffer */
    uint8_t mode;           /* xcb_present_complete_mode_t: copy, flip, skip, suboptimal */
    bool client_late;       /* present() came after the target vblank was due */
    uint64_t target_msc;    /* FIFO modes; 0 when the server chose */
    uint64_t msc, ust;      /* when it was shown (UST: microseconds) */
    uint64_t submit_us;     /* CLOCK_MONOTONIC microseconds of present() */
    /* -- after the first version -- */
    uint64_t acquire_us;    /* CLOCK_MONOTONIC microseconds when acquire()
                               handed its buffer out */
    uint32_t age;           /* the buffer age acquire() reported for it */
    /* -- after the second version -- */
    uint64_t present_id;    /* the caller's id of present_with(), 0: none */
} xcb_present_util_frame_t;

/* The mode of a frame given up as lost.
 *
 * frame->mode of a frame whose CompleteNotify never came (a server or a
 * proxy lost it): the frame was given up; msc and ust are 0. */
#define XCB_PRESENT_UTIL_COMPLETE_LOST 0xff

/*
 * Prepare a frame struct.  Zeroes *p and sets p->size to
 * sizeof(xcb_present_util_frame_t), as the program's header knows it.  The
 * frame callback receives frames that the library filled, with size set to its
 * own sizeof: read only the fields within it.
 *
 * Every struct of the library that the caller allocates starts with size.  The
 * library reads and writes only the first size bytes and takes fields beyond
 * them at their defaults, so that a program built against an older header
 * keeps working with a newer library, whose structs have more fields at their
 * end; a size smaller than the struct's first version is refused with -EINVAL.
 * Setting size by hand, as in xcb_present_util_frame_t x = { .size = sizeof x
 * };, is the same.  p may be NULL, which does nothing.
 *
 * See also xcb_present_util_swapchain_set_frame_callback().
 */
void xcb_present_util_frame_init(xcb_present_util_frame_t *f);

/* What the frame callback is called with: the caller's data and a frame. */
typedef void (*xcb_present_util_frame_cb_t)(void *data, const xcb_present_util_frame_t *frame);

/*
 * Be told about every completed frame.  Calls cb(data, frame) once for every
 * completed frame (its CompleteNotify came), in the order they came, without
 * the swapchain's lock (a frame given up as lost is not reported here;
 * xcb_present_util_wait_frame() says it was, with mode
 * XCB_PRESENT_UTIL_COMPLETE_LOST): cb may call the swapchain's functions, all
 * but xcb_present_util_swapchain_destroy().  It runs in the thread of a call
 * that took the completion in, when that call returns or while it waits:
 * xcb_present_util_acquire(), xcb_present_util_present() and its variants
 * (they take nothing in themselves, but tell what a wait took in, and wait,
 * taking completions in, with XCB_PRESENT_UTIL_THROTTLE_PRESENT),
 * xcb_present_util_dispatch(), xcb_present_util_wait_frame(),
 * xcb_present_util_wait_present(), xcb_present_util_wait_msc(),
 * xcb_present_util_swapchain_stats() and xcb_present_util_swapchain_fd();
 * never in two threads at once (a second thread leaves the frames to the one
 * already in a callback), and never from xcb_present_util_swapchain_create()
 * or xcb_present_util_swapchain_destroy(): frames still in flight when
 * destroy() runs are not reported, so the callback's data may be freed once
 * destroy() has returned.
 *
 * xcb_present_util_swapchain_set_resize_callback() sets a callback for the
 * window's size under the same rules.  The frame record holds the frame's
 * number (1 for the first present()), its buffer, the completion mode, the
 * target MSC (FIFO modes; 0 when the server chose), the MSC and UST at which
 * it was shown, when present() was called (CLOCK_MONOTONIC microseconds), and
 * client_late: whether present() came after the target vblank was due; since
 * the first version also when its buffer was acquired (acquire_us) and the
 * buffer age acquire() reported (age).  The same record is what
 * xcb_present_util_wait_frame() returns.  cb NULL turns the calls off.  The
 * msc and ust it is told never go backwards: after the server's count
 * stepped back (a window moved to another CRTC), msc goes on from where it
 * was.
 *
 * See also xcb_present_util_swapchain_stats().
 */
void xcb_present_util_swapchain_set_frame_callback(xcb_present_util_swapchain_t *sc,
                                                   xcb_present_util_frame_cb_t cb, void *data);

/* What the resize callback is called with.
 *
 * The window's new size, as the swapchain heard it (Present's
 * ConfigureNotify, or the probe of a quiet window). */
typedef void (*xcb_present_util_resize_cb_t)(void *data, uint16_t width, uint16_t height);

/*
 * Be told when the window's size changes.  Calls cb(data, width, height) when
 * the window's size, as the swapchain hears it (Present's ConfigureNotify, or
 * the probe of a quiet window), changes: a GL loader invalidates its drawable,
 * a Vulkan WSI reports SUBOPTIMAL. It runs under the rules of the frame
 * callback (xcb_present_util_swapchain_set_frame_callback()): without the
 * swapchain's lock, in the thread of a call that took the server's events in,
 * one thread at a time, never from create() or destroy().
 * xcb_present_util_swapchain_window_size() reads the size at any time.  cb
 * NULL turns the calls off.
 *
 * See also xcb_present_util_swapchain_set_frame_callback(),
 * xcb_present_util_swapchain_window_size().
 */
void xcb_present_util_swapchain_set_resize_callback(xcb_present_util_swapchain_t *sc,
                                                    xcb_present_util_resize_cb_t cb, void *data);

/* ---- aiming frames ----------------------------------------------------- */

/*
 * Show an acquired buffer at the first vblank at or after a time.  Like
 * xcb_present_util_present(), but the frame is shown at the first vblank at or
 * after target_ust (microseconds of the server's UST, the clock of the ust
 * fields of the frame timing), never before: for video players and for callers
 * that schedule ahead.
 *
 * Present aims at vblank counts (MSC), not times. The swapchain maps the time
 * to a count through its clock: the refresh period, measured over the
 * completions that came at the vblank they were aimed at, and the phase of the
 * least late of them. Its errors are made to err late: a frame may be shown
 * one vblank after the first at or after target_ust, never before it. In the
 * FIFO modes the frame is also never shown before the frame presented before
 * it, and the frames after it follow it.
 *
 * Right after xcb_present_util_swapchain_create(), or after the window moved
 * to a display with another count, the clock is not known yet: present_at()
 * then asks the server for two vblanks ahead (NotifyMSC) and waits for them,
 * for up to 150 ms.
 *
 * target_ust 0, or a time that has come, presents as present() does.
 *
 * Returns what xcb_present_util_present() returns, -EINVAL also for a
 * target_ust above UINT64_MAX / 1000 (no time on a clock of nanoseconds), and
 * -EAGAIN when the display's timing did not become known within 150 ms
 * (nothing was sent; the buffer stays acquired), or -ECANCELED when the
 * swapchain is being destroyed meanwhile.
 *
 * See also xcb_present_util_present(), xcb_present_util_wait_frame(),
 * xcb_present_util_acquire().
 */
int xcb_present_util_present_at(xcb_present_util_swapchain_t *sc,
                                const xcb_present_util_image_t *image,
                                const xcb_rectangle_t *damage, uint32_t n_damage,
                                uint64_t target_ust);

/*
 * Present a frame at a vblank count (glXSwapBuffersMscOML).  Presents an
 * acquired image as xcb_present_util_present() does, aimed the way
 * GLX_OML_sync_control aims a swap:
 *
 *   - when the vblank count has not reached target_msc, at vblank target_msc;
 *   - when it has (or target_msc is 0) and divisor is 0, as soon as the mode
 *     allows: the next vblank in the FIFO modes and MAILBOX, at once in
 *     IMMEDIATE;
 *   - when it has and divisor is above 0, at the next vblank whose count
 *     satisfies msc % divisor == remainder.
 *
 * The server applies the rule (PresentPixmap's target, divisor and remainder),
 * in the swapchain's MSC count: the count that xcb_present_util_wait_msc(),
 * the frame callback and xcb_present_util_wait_frame() report, which goes on
 * without stepping back when the window moves to another CRTC. The mode's
 * queueing still applies (xcb_present_util_acquire() bounds the frames in
 * flight), its aim does not: a FIFO frame aimed at or before the vblank of the
 * frame before it is shown on that vblank and replaces it, as with GLX. The
 * next frame presented with xcb_present_util_present() is aimed after the
 * vblank this one lands on, times the swap interval.
 *
 * The swap count of GLX_OML_sync_control is the image's frame_id;
 * glXWaitForSbcOML is xcb_present_util_wait_frame().
 *
 * Returns what xcb_present_util_present() returns, and -EINVAL also for
 * divisor above 0 with remainder not below it, or divisor 0 with remainder not
 * 0.
 *
 * See also xcb_present_util_wait_msc(), xcb_present_util_present_at(),
 * xcb_present_util_wait_frame().
 */
int xcb_present_util_present_msc(xcb_present_util_swapchain_t *sc,
                                 const xcb_present_util_image_t *image,
                                 const xcb_rectangle_t *damage, uint32_t n_damage,
                                 uint64_t target_msc, uint64_t divisor, uint64_t remainder);

/* A vblank count: what glXGetSyncValuesOML and glXWaitForMscOML report. */
typedef struct {
    uint32_t size;          /* sizeof(xcb_present_util_timing_t) */
    uint64_t ust;           /* of the vblank, microseconds */
    uint64_t msc;           /* the vblank */
    uint64_t sbc;           /* frame_id of the last frame shown (0: none yet) */
} xcb_present_util_timing_t;

/*
 * Prepare a vblank timing struct.  Zeroes *t and sets t->size to
 * sizeof(xcb_present_util_timing_t), as the program's header knows it, for
 * xcb_present_util_wait_msc(), which fills only the first size bytes (the
 * sized-struct rule of <xcb/xcb_present_util.h>).  NULL does nothing.
 *
 * ust is the vblank's time in microseconds, msc its count, and sbc the
 * frame_id of the last frame shown (the swap count of GLX_OML_sync_control).
 *
 * See also xcb_present_util_wait_msc().
 */
void xcb_present_util_timing_init(xcb_present_util_timing_t *t);

/*
 * Wait for a vblank count (glXWaitForMscOML).  Waits for a vblank of the
 * swapchain's window the way glXWaitForMscOML waits: until the count reaches
 * target_msc; when it already has, with divisor 0 it returns at once with the
 * current count (that of the last vblank), and with divisor above 0 for the
 * next vblank whose count satisfies msc % divisor == remainder.  The count is
 * the swapchain's (see xcb_present_util_present_msc()).
 *
 * The server is asked (PresentNotifyMSC) and its answer waited for, at most
 * timeout_ns nanoseconds: 0 takes only an answer already there, a negative
 * value waits up to 10 seconds, the library's bound. Like
 * xcb_present_util_acquire(), the wait reads what the server sent, wakes when
 * another thread read it, and ends at once when
 * xcb_present_util_swapchain_destroy() runs in another thread. Up to 8 threads
 * may wait at once.
 *
 * When t is not NULL it is filled as far as t->size goes
 * (xcb_present_util_timing_init() sets it): the vblank's msc and ust
 * (microseconds), and sbc, the frame_id of the last frame shown so far (0
 * before the first).
 *
 * Returns 0, -ETIMEDOUT (no answer in time: a hidden or throttled window, a
 * stalled server), -ENODEV (the window is gone), -EPIPE (the connection
 * broke), -ECANCELED (the swapchain is being destroyed), -EBUSY (8 waits are
 * in progress already), -EINVAL (divisor above 0 with remainder not below it,
 * divisor 0 with remainder not 0, or t->size below the struct's first
 * version).
 *
 * See also xcb_present_util_present_msc(), xcb_present_util_wait_frame(),
 * xcb_present_util_timing_init().
 */
int xcb_present_util_wait_msc(xcb_present_util_swapchain_t *sc, uint64_t target_msc,
                              uint64_t divisor, uint64_t remainder, int64_t timeout_ns,
                              xcb_present_util_timing_t *t);

/*
 * Wait until a presented frame was shown, and learn when.  Waits until frame
 * frame_id (the frame_id that xcb_present_util_acquire() reported for its
 * image: 1 for the first present(), 2 for the next...) was shown or skipped,
 * that is until its CompleteNotify came, or until it was given up because its
 * CompleteNotify was lost (then frame->mode is XCB_PRESENT_UTIL_COMPLETE_LOST
 * and its msc and ust are 0). This is VK_KHR_present_wait and
 * glXWaitForSbcOML: the swap count is the frame_id.  frame_id 0 waits for the
 * last frame presented so far, and so for every one.
 *
 * When frame is not NULL, it is filled as far as frame->size goes with the
 * frame's timing: when it was shown (msc, ust in microseconds), its target,
 * the completion mode, when it was acquired and presented, and its buffer age.
 * The timing of the last 64 frames is kept; for an older frame, wait_frame()
 * returns 0 at once with only frame->frame set.
 *
 * timeout_ns 0 only looks; a negative one waits up to 10 seconds, the
 * library's bound.  The wait reads what the server sent, wakes when another
 * thread read it, probes a window that stays quiet, and ends at once when
 * xcb_present_util_swapchain_destroy() runs in another thread.
 *
 * Returns 0, -ETIMEDOUT (the frame was not shown in time: a hidden, throttled
 * or stalled window), -ENODEV (the window is gone), -EPIPE (the connection
 * broke), -ECANCELED (the swapchain is being destroyed), -EINVAL (the frame
 * was not presented yet, nothing was presented yet with frame_id 0, or
 * frame->size is below the struct's first version).
 *
 * See also xcb_present_util_present(), xcb_present_util_present_at(),
 * xcb_present_util_swapchain_set_frame_callback().
 */
int xcb_present_util_wait_frame(xcb_present_util_swapchain_t *sc, uint64_t frame_id,
                                int64_t timeout_ns, xcb_present_util_frame_t *frame);

/* ---- the caller's present ids ------------------------------------------ */

/* What present_with() is told beside the image. */
typedef struct {
    uint32_t size;          /* sizeof(xcb_present_util_present_info_t) */
    const xcb_rectangle_t *damage;  /* as present()'s; NULL with n_damage 0 */
    uint32_t n_damage;
    /* The caller's id of the frame (VK_KHR_present_id), 0 for none: each
     * id above the ones before it, gaps allowed.  wait_present() waits for
     * it; the frame callback and wait_frame() report it. */
    uint64_t present_id;
    /* 0, or as present_at(): shown at the first vblank at or after this
     * UST (microseconds), never before. */
    uint64_t target_ust;
    /* Set by present_with(): the frame_id the frame was given (what the
     * frame callback and wait_frame() call it), 0 when it was not sent. */
    uint64_t frame_id;
} xcb_present_util_present_info_t;

/*
 * Set up a present_with() description.  Zeroes *info and sets its size to the
 * size this header knows: no damage (the whole image), no present id, no
 * target time. NULL does nothing.
 *
 * See also xcb_present_util_present_with().
 */
void xcb_present_util_present_info_init(xcb_present_util_present_info_t *info);

/*
 * Present a frame with the caller's present id.  Presents an acquired image as
 * xcb_present_util_present() does, with what info adds: the damage rectangles,
 * the caller's id of the frame (present_id, VK_KHR_present_id: each id above
 * the ones before it, gaps allowed; 0 for none), and optionally a target time
 * (target_ust, as xcb_present_util_present_at()).
 * xcb_present_util_wait_present() waits for the id; the frame callback and
 * xcb_present_util_wait_frame() report it in frame->present_id.
 * info->frame_id is set to the frame_id the frame got (in the order of
 * present(), also when images are presented out of acquire order; 0 when it
 * was not sent).  info NULL presents the whole image with no id. Set info up
 * with xcb_present_util_present_info_init().
 *
 * Returns what xcb_present_util_present_at() returns, and -EINVAL also for an
 * info->size below the struct's first version or a present_id not above the
 * last one given (the frame is not sent; the image is given back).
 *
 * See also xcb_present_util_wait_present(),
 * xcb_present_util_present_info_init().
 */
int xcb_present_util_present_with(xcb_present_util_swapchain_t *sc,
                                  const xcb_present_util_image_t *image,
                                  xcb_present_util_present_info_t *info);

/*
 * Wait until a frame with the caller's present id was shown.  Waits until a
 * frame whose present id (given to xcb_present_util_present_with()) is at
 * least present_id was shown, skipped (replaced in MAILBOX) or given up as
 * lost: the rule of VK_KHR_present_wait. The id need not have been presented
 * yet: the wait also covers frames that another thread presents meanwhile.
 *
 * timeout_ns 0 only looks; a negative one has no bound but the end of the
 * window or of the connection. The wait reads what the server sent, wakes when
 * another thread read it, probes a window that stays quiet, and ends at once
 * when xcb_present_util_swapchain_destroy() runs in another thread. When frame
 * is not NULL it gets, as far as frame->size goes, the timing of the frame
 * with exactly that id when it is among the last 64 frames, else only
 * frame->present_id.
 *
 * Returns 0, -ETIMEDOUT , -ENODEV (the window is gone), -EPIPE (the connection
 * broke), -ECANCELED (the swapchain is being destroyed), -EINVAL (present_id
 * 0, or frame->size below the struct's first version).
 *
 * See also xcb_present_util_present_with(), xcb_present_util_wait_frame().
 */
int xcb_present_util_wait_present(xcb_present_util_swapchain_t *sc, uint64_t present_id,
                                  int64_t timeout_ns, xcb_present_util_frame_t *frame);

#ifdef __cplusplus
}
#endif

#endif
