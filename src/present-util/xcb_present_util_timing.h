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
 * Zeroes *f and sets its size.  NULL does nothing.
 *
 * See also xcb_present_util_swapchain_set_frame_callback().
 */
void xcb_present_util_frame_init(xcb_present_util_frame_t *f);

/* What the frame callback is called with: the caller's data and a frame. */
typedef void (*xcb_present_util_frame_cb_t)(void *data, const xcb_present_util_frame_t *frame);

/*
 * Be told about every completed frame.
 *
 * Calls cb(data, frame) once for every completed frame (its CompleteNotify
 * came; a frame given up as lost is not reported: wait_frame() says it
 * was, with mode XCB_PRESENT_UTIL_COMPLETE_LOST), in the order they came, without the swapchain's lock: cb may call the swapchain's
 * functions (all but destroy()).  It runs in the thread of a call that
 * took the completion in: acquire(), present() and its variants,
 * dispatch(), wait_frame(), wait_present(), wait_msc(), swapchain_stats()
 * or swapchain_fd(), when the call returns or while it waits; never in two
 * threads at once (a second thread leaves the frames to the first), and
 * never from create() or destroy(): frames still in flight when destroy()
 * runs are not reported.  cb NULL turns it off.  The msc and ust it is
 * told never go backwards: after the server's count stepped back (a
 * window moved to another CRTC), msc goes on from where it was.
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
 * Be told when the window's size changes.
 *
 * Calls cb(data, width, height) when the window's size changes (a GL
 * loader invalidates its drawable; a Vulkan WSI reports SUBOPTIMAL), under
 * the rules of the frame callback: without the lock, from the calls that
 * take the server's events in, one thread at a time.  cb NULL turns it
 * off.
 *
 * See also xcb_present_util_swapchain_set_frame_callback(),
 * xcb_present_util_swapchain_window_size().
 */
void xcb_present_util_swapchain_set_resize_callback(xcb_present_util_swapchain_t *sc,
                                                    xcb_present_util_resize_cb_t cb, void *data);

/* ---- aiming frames ----------------------------------------------------- */

/*
 * Show an acquired buffer at the first vblank at or after a time.
 *
 * present(), shown at the first vblank at or after target_ust (UST,
 * microseconds, the clock of the frame callback's ust), never before.  The
 * vblank is found from the measured refresh and the recent completions;
 * where the server's completions jitter (a timer-driven server on a busy
 * machine), the frame goes a vblank later rather than risk an early one;
 * in FIFO modes also never before the vblank of the frame presented
 * before.  Right after create, or after the window moved to another
 * display, the display's timing may not be known yet: present_at() then
 * waits for it for up to 150 ms.  target_ust 0 or in the past: as soon as
 * the mode allows, as present().
 *
 * Returns what present() returns, -EINVAL also for a target_ust above
 * UINT64_MAX / 1000, and -EAGAIN when the timing did not become known
 * (nothing is sent; the buffer stays acquired).
 *
 * See also xcb_present_util_present(), xcb_present_util_wait_frame(),
 * xcb_present_util_acquire().
 */
int xcb_present_util_present_at(xcb_present_util_swapchain_t *sc,
                                const xcb_present_util_image_t *image,
                                const xcb_rectangle_t *damage, uint32_t n_damage,
                                uint64_t target_ust);

/*
 * Present a frame at a vblank count (glXSwapBuffersMscOML).
 *
 * present(), aimed the way glXSwapBuffersMscOML aims (GLX_OML_sync_control):
 * at vblank target_msc when the count has not reached it; when it has (or
 * target_msc is 0), with divisor 0 as soon as the mode allows, and with
 * divisor > 0 at the next vblank whose count satisfies
 * msc % divisor == remainder.  The server applies the rule, on the
 * swapchain's MSC count (see the overview).  The mode's queueing still
 * applies (acquire() bounds the frames in flight), but not its aim: a
 * FIFO frame aimed before the vblank of the frame presented before it is
 * shown at that vblank, and replaces it (as with GLX).
 *
 * Returns what present() returns, and -EINVAL also for divisor > 0 with
 * remainder >= divisor.
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
 * Zeroes *t and sets its size.  NULL does nothing.
 *
 * See also xcb_present_util_wait_msc().
 */
void xcb_present_util_timing_init(xcb_present_util_timing_t *t);

/*
 * Wait for a vblank count (glXWaitForMscOML).
 *
 * Waits for a vblank the way glXWaitForMscOML does: until the count
 * reaches target_msc; when it already has, with divisor 0 returns at once
 * with the current count (the last vblank's), and with divisor > 0 waits
 * for the next vblank whose count satisfies msc % divisor == remainder.
 * Asks the server (PresentNotifyMSC) and waits for its answer, at most
 * timeout_ns (0: the answer must come at once; negative: up to 10
 * seconds); like acquire(), the wait reads what the server sent and wakes
 * when another thread read it.  Fills *t (may be NULL) as far as t->size
 * goes.
 *
 * Returns 0, -ETIMEDOUT, -ENODEV, -EPIPE, -ECANCELED, -EBUSY (8 waits
 * at once already), -EINVAL (divisor > 0 with remainder >= divisor,
 * t->size below the first version).
 *
 * See also xcb_present_util_present_msc(), xcb_present_util_wait_frame(),
 * xcb_present_util_timing_init().
 */
int xcb_present_util_wait_msc(xcb_present_util_swapchain_t *sc, uint64_t target_msc,
                              uint64_t divisor, uint64_t remainder, int64_t timeout_ns,
                              xcb_present_util_timing_t *t);

/*
 * Wait until a presented frame was shown, and learn when.
 *
 * Waits until frame frame_id was shown or skipped (its CompleteNotify
 * came, or it was given up as lost) and fills *frame, as far as
 * frame->size goes, with its timing (VK_KHR_present_wait,
 * glXWaitForSbcOML).  frame_id 0: the last frame presented so far, so
 * that every frame presented so far is done.  The timing of the last 64
 * frames is kept: an older frame returns 0 at once with only frame->frame
 * set.  frame may be NULL.  Like acquire(), the wait reads what the server
 * sent, wakes when another thread read it, and ends at once when destroy()
 * runs in another thread.
 *
 * Returns 0, -ETIMEDOUT, -ENODEV, -EPIPE, -ECANCELED, -EINVAL (a frame_id
 * not presented yet, nothing presented yet with frame_id 0, or
 * frame->size below the first version).
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
 * Zeroes *info and sets its size.  NULL does nothing.
 *
 * See also xcb_present_util_present_with().
 */
void xcb_present_util_present_info_init(xcb_present_util_present_info_t *info);

/*
 * Present a frame with the caller's present id.
 *
 * present() with the caller's id for the frame, and optionally a target
 * time (present_at()); info->frame_id says which frame_id the frame got
 * (frames presented out of acquire order get theirs in present order).
 * info NULL is present() with no damage.
 *
 * Returns
 * what present_at() returns, and -EINVAL also for an info->size below the
 * first version or a present_id not above the last one given (the frame
 * is not sent; the image is given back as by a failed present()).
 *
 * See also xcb_present_util_wait_present(),
 * xcb_present_util_present_info_init().
 */
int xcb_present_util_present_with(xcb_present_util_swapchain_t *sc,
                                  const xcb_present_util_image_t *image,
                                  xcb_present_util_present_info_t *info);

/*
 * Wait until a frame with the caller's present id was shown.
 *
 * Waits until a frame whose present_id is at least present_id was shown,
 * skipped (replaced in MAILBOX) or given up as lost: VK_KHR_present_wait's
 * rule.  The id need not have been presented yet: the wait also covers
 * frames another thread presents meanwhile.  timeout_ns 0: only look;
 * negative: no bound but the window's or the connection's end.  Like
 * acquire(), it reads what the server sent, wakes when another thread
 * read it, and ends at once when destroy() runs in another thread.
 * Fills *frame (may be NULL) with the timing of the frame with exactly
 * that id when it is among the last 64 frames, else only frame->present_id.
 *
 * Returns 0, -ETIMEDOUT, -ENODEV, -EPIPE, -ECANCELED, -EINVAL
 * (present_id 0, or frame->size below the first version).
 *
 * See also xcb_present_util_present_with(), xcb_present_util_wait_frame().
 */
int xcb_present_util_wait_present(xcb_present_util_swapchain_t *sc, uint64_t present_id,
                                  int64_t timeout_ns, xcb_present_util_frame_t *frame);

#ifdef __cplusplus
}
#endif

#endif
