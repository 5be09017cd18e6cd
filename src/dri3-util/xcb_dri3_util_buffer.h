/*
 * xcb_dri3_util_buffer.h: buffers and what the server offers for them
 * (libxcb-dri3-util; included by <xcb/xcb_dri3_util.h>, whose overview
 * gives the library's rules for errors, names and round trips).
 *
 * Objects and their life cycle:
 *   - the probe: what the server offers (extensions, versions, Present's
 *     capabilities), asked once per connection and cached until
 *     xcb_dri3_util_probe_forget(); every call of the library consults it;
 *   - a buffer (xcb_dri3_util_buffer_t): 1 to 4 planes of fds, made with
 *     _create_memfd, _create_gbm, _import or _from_pixmap; turned into as
 *     many pixmaps as needed with _to_pixmap (each pixmap is the caller's
 *     to free); mapped for the CPU between _map and _unmap; freed with
 *     _destroy, which closes its fds;
 *   - formats and modifiers: DRM fourccs, their X depths, visuals and
 *     names, and the server's modifier lists
 *     (xcb_dri3_util_modifiers_query()).
 * The DRM device that renders them is <xcb/xcb_dri3_util_device.h>'s.
 */
#ifndef XCB_DRI3_UTIL_BUFFER_H
#define XCB_DRI3_UTIL_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DRM's "no explicit modifier" and "linear" modifiers (drm_fourcc.h). */
#define XCB_DRI3_UTIL_MOD_INVALID 0x00ffffffffffffffULL
#define XCB_DRI3_UTIL_MOD_LINEAR 0ULL

/* ---- the probe ---------------------------------------------------------- */

/*
 * What the server offers, as xcb_dri3_util_probe() found it.  A version
 * is 0.0 when its extension is missing.  DRI3 and Present were asked for
 * 1.4; the others for the newest version this library knows (SYNC 3.1,
 * XFixes 6.0, MIT-SHM whatever the server has).
 *
 * The caller allocates it and sets size (xcb_dri3_util_caps_init() does):
 * the library fills only the first `size` bytes, so that a program built
 * against this header keeps working when later versions add fields at the
 * end.
 */
typedef struct xcb_dri3_util_caps {
    uint32_t size;              /* sizeof(xcb_dri3_util_caps_t) of the
                                 * caller's header */
    bool fd_passing;            /* a local Unix socket: fds can travel */
    bool dri3, present, sync, xfixes, shm;
    uint32_t dri3_major, dri3_minor;
    uint32_t present_major, present_minor;
    uint32_t sync_major, sync_minor;
    uint32_t xfixes_major, xfixes_minor;
    uint32_t shm_major, shm_minor;
    bool shm_pixmaps;           /* MIT-SHM's shared pixmaps */
    /* Present's capabilities (XCB_PRESENT_CAPABILITY_*) of the first
     * screen's root window; 0 without Present */
    uint32_t present_caps;
} xcb_dri3_util_caps_t;

/*
 * Prepare a caps struct for the probe.  Zeroes *caps and sets its size field
 * to sizeof(xcb_dri3_util_caps_t), as the program's header knows it.
 * xcb_dri3_util_probe() fills only the first size bytes, so that a program
 * built against an older header, whose struct is shorter, keeps working with a
 * newer library; fields a newer header adds come at the end.  Setting size by
 * hand, as in xcb_dri3_util_caps_t caps = { .size = sizeof caps };, is the
 * same.  caps may be NULL, which does nothing.
 *
 * See also xcb_dri3_util_probe().
 */
void xcb_dri3_util_caps_init(xcb_dri3_util_caps_t *caps);

/*
 * Find out which DRI3-related extensions the X server offers.  Fills *caps
 * with what the server behind c offers: whether DRI3, Present, SYNC, XFixes
 * and MIT-SHM are present and at which versions (DRI3 and Present are asked
 * for 1.4, and the server answers with the lower of its version and that),
 * Present's capabilities of the first screen's root window
 * (XCB_PRESENT_CAPABILITY_* bits), whether MIT-SHM offers shared pixmaps, and
 * whether file descriptors can pass at all (fd_passing: the connection is a
 * local Unix socket).  A missing extension has version 0.0.  Only the first
 * caps->size bytes are written: set size with xcb_dri3_util_caps_init() first.
 *
 * The first call on a connection makes two round trips, each sending every
 * request before it waits for any reply: the QueryExtension requests of the
 * five extensions together (none where libxcb already knows the answer) with a
 * GetInputFocus, whose reply proves theirs are in (libxcb's own wait for them
 * has no bound); then the version requests of the extensions that are present
 * and Present's QueryCapabilities, again together.  Both round trips together
 * end within the connection's timeout (xcb_dri3_util_set_timeout()) and the
 * calling thread's scope (xcb_dri3_util_wait_scope_push()).  A probe that
 * failed is not cached.  No request goes to an extension the server lacks,
 * which would make libxcb shut the connection down.
 *
 * The answer is cached per connection.  Later calls, and every other function
 * of this library that sends a request, use the cache without a round trip;
 * those functions fail with ENOTSUP and send nothing when the extension or
 * version they need is missing.  The function is thread-safe.  caps may be
 * NULL to fill the cache only.  The cache is keyed on the connection: call
 * xcb_dri3_util_probe_forget() before xcb_disconnect() when a program opens
 * and closes many connections.
 *
 * Returns 0, or a negative errno: -EINVAL when caps->size is smaller than the
 * struct's first version (which ended with present_caps; nothing is asked),
 * -EPIPE when the connection has or gets an error, -ETIMEDOUT when the server
 * did not answer in time, -ECANCELED when the scope's cancel fd turned
 * readable, -EPROTO when the server answered later requests and never one of
 * the probe's, -ENOMEM when the cache entry cannot be allocated.
 *
 * See also xcb_dri3_util_caps_init(), xcb_dri3_util_probe_forget(),
 * xcb_dri3_util_buffer_to_pixmap(), xcb_dri3_util_device_open().
 */
int xcb_dri3_util_probe(xcb_connection_t *c, xcb_dri3_util_caps_t *caps);

/*
 * The Present capabilities of a window, asked once.  Stores in *caps the
 * Present capabilities of window (the XCB_PRESENT_CAPABILITY_* bits: ASYNC,
 * FENCE, UST, ASYNC_MAY_TEAR, SYNCOBJ). The first call asks the server with
 * PresentQueryCapabilities, bounded like the probe's round trips (the
 * connection's timeout of xcb_dri3_util_set_timeout(), capped by the caller's
 * scope of xcb_dri3_util_wait_scope_push()); the answer for the last window
 * asked on a connection is kept with the probe's, so that a loop that presents
 * to one window asks once.  xcb_dri3_util_probe_refresh() drops it:
 * capabilities can change when a window moves to another output.  It probes
 * first when the connection has not been probed (see xcb_dri3_util_probe()).
 * Thread-safe.
 *
 * Returns 0, or a negative errno: -EINVAL (c or caps is NULL), -ENOTSUP (the
 * server lacks Present), -ENODEV (the server refused: no such window), -EPIPE,
 * -ETIMEDOUT, -ECANCELED, -EPROTO (the server skipped an answer), -ENOMEM.
 *
 * See also xcb_dri3_util_probe(), xcb_dri3_util_probe_refresh(),
 * xcb_present_util_present_pixmap_synced().
 */
int xcb_dri3_util_window_caps(xcb_connection_t *c, xcb_window_t window, uint32_t *caps);

/*
 * Drop what the library cached for a connection.  Frees what the library keeps
 * for c: its one entry: the probe's answer, the modifier lists, the last
 * window's capabilities, and the state of the bounded waits (the timeout that
 * xcb_dri3_util_set_timeout() set, and the requests whose waits gave up: the
 * answers that have come are freed now, those still to come stay libxcb's).
 * Call it before xcb_disconnect() in programs that open and close many
 * connections: the cache recognises a connection by its address, its setup and
 * its socket, and a new connection that reuses all three would otherwise
 * inherit a stale answer.  Calling it for a connection with nothing cached
 * does nothing.
 *
 * The next function of the library that needs the answer probes again.
 *
 * See also xcb_dri3_util_probe(), xcb_dri3_util_set_timeout(),
 * xcb_dri3_util_collect_abandoned().
 */
void xcb_dri3_util_probe_forget(xcb_connection_t *c);

/*
 * Drop the answers cached for a connection, keep its settings.  Frees the
 * answers the library cached for c: the probe's, the modifier lists of
 * GetSupportedModifiers and the last window's capabilities of
 * xcb_dri3_util_window_caps().  The next function that needs them asks the
 * server again. Unlike xcb_dri3_util_probe_forget(), it keeps what the
 * application set (the timeout of xcb_dri3_util_set_timeout()) and the
 * requests whose waits gave up: it is for one user of the connection that goes
 * while the connection and its other users stay (a swapchain's teardown calls
 * it). Calling it for a connection with nothing cached does nothing.
 *
 * See also xcb_dri3_util_probe(), xcb_dri3_util_probe_forget(),
 * xcb_dri3_util_set_timeout(), xcb_dri3_util_window_caps().
 */
void xcb_dri3_util_probe_refresh(xcb_connection_t *c);

/* ---- buffers -------------------------------------------------------------- */

/*
 * A dma-buf or memfd buffer of 1 to 4 planes, which owns their fds.
 *
 * A buffer: 1 to 4 planes of {fd, stride, offset} with a size, a DRM
 * fourcc and a modifier; the buffer owns the fds (several planes may share
 * one fd).  Dma-bufs from a GPU driver and memfds for software rendering
 * are both buffers.  Not thread-safe: one thread at a time per buffer.
 */
#ifndef XCB_DRI3_UTIL_BUFFER_T_DEFINED
#define XCB_DRI3_UTIL_BUFFER_T_DEFINED
typedef struct xcb_dri3_util_buffer xcb_dri3_util_buffer_t;
#endif

/*
 * Make a linear buffer on a memfd for software rendering.  Creates a buffer of
 * one plane on a fresh memfd (close-on-exec, sealed against shrinking, so that
 * nobody can truncate it under the X server's mapping), zero-filled, with the
 * linear modifier (XCB_DRI3_UTIL_MOD_LINEAR).  Rows start every stride bytes,
 * the row size rounded up to a multiple of 64.
 *
 * fourcc is a DRM format code of one plane with a whole number of bytes per
 * pixel: XRGB8888 (depth 24), ARGB8888 (32), RGB565 (16), XRGB2101010 (30),
 * XRGB1555, RGB888, R8, and the BGR orders of these.  The depth and bits per
 * pixel follow from it (xcb_dri3_util_fourcc_to_depth()).
 *
 * The buffer owns its fd; the memfd stands in for a dma-buf wherever the
 * server maps client memory (software rendering, tests, the mock server).
 *
 * Returns a new buffer, or NULL with errno set to EINVAL (a zero width or
 * height, a fourcc that is not a known one-plane format), ENOMEM, or what
 * memfd_create(2) or ftruncate(2) reported.
 *
 * See also xcb_dri3_util_buffer_map(), xcb_dri3_util_buffer_to_pixmap(),
 * xcb_dri3_util_buffer_destroy(), xcb_dri3_util_buffer_import().
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_memfd(uint16_t width, uint16_t height,
                                                          uint32_t fourcc);

/*
 * Make a buffer of dma-buf file descriptors.  Makes a buffer of n_planes (1 to
 * 4) planes, plane i being fds[i] with rows of strides[i] bytes starting at
 * byte offsets[i], laid out as fourcc and modifier say: the dma-bufs a GPU
 * renderer exported, or memfds.
 *
 * The function takes ownership of every fd, whatever the outcome: on failure
 * they are closed.  The same fd may be given for several planes (a common
 * layout for YUV formats and compressed modifiers); it is closed once.  The
 * fds are made close-on-exec.
 *
 * Each plane the format defines must fit in its fd: offset + stride x rows
 * within the size of the file (memfds and files report it through fstat(2),
 * dma-bufs through lseek(2) with SEEK_END).  An empty fd has size 0, in which
 * no plane fits; the size is unknown, and the plane taken on trust, only for a
 * dma-buf whose kernel does not report it.  A chroma plane of a subsampled
 * format has fewer rows.
 *
 * Each such plane's stride must hold one row: the width (a chroma plane's
 * subsampled width) times the plane's bytes per pixel.  Its offset and stride
 * must be multiples of the alignment of its pixels: 4 for 32-bit pixels, 8 for
 * 64-bit ones, 2 for 16-bit ones (none for 8- and 24-bit ones), so that no
 * pixel is misaligned.  A modifier other than linear and
 * XCB_DRI3_UTIL_MOD_INVALID may add planes beyond the format's (compression
 * data); these only need to start inside their fd.
 *
 * Returns a new buffer, or NULL with errno set to EINVAL (a zero width or
 * height, an unknown fourcc, n_planes not 1 to 4, fewer planes than the format
 * has, more planes with a linear or no modifier, a plane that does not fit, an
 * empty fd, a stride of 0 or shorter than a row, a misaligned offset or
 * stride, an fd that is a pipe, a socket or a device), EBADF (an fd that is
 * not open), or ENOMEM.
 *
 * See also xcb_dri3_util_buffer_create_memfd(),
 * xcb_dri3_util_buffer_to_pixmap(), xcb_dri3_util_buffer_destroy(),
 * xcb_dri3_util_fourcc_to_depth().
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_import(uint16_t width, uint16_t height,
                                                    uint32_t fourcc, uint64_t modifier,
                                                    unsigned n_planes, const int *fds,
                                                    const uint32_t *strides,
                                                    const uint32_t *offsets);

/*
 * Make an X pixmap of a buffer.  Creates a pixmap that the X server reads from
 * and renders into the buffer's memory, on the screen of drawable.
 *
 * On DRI3 1.2 and later the request is PixmapFromBuffers, and drawable must be
 * a window.  The buffer's modifier goes with it when the server lists it for
 * that window or for its screen (DRI3 GetSupportedModifiers, asked once per
 * window, depth and bits per pixel and then cached per connection).  A linear
 * one-plane buffer whose modifier the server does not list goes with
 * XCB_DRI3_UTIL_MOD_INVALID (the server's implicit layout), as Mesa's loader
 * does; any other buffer is refused with EOPNOTSUPP.
 *
 * On DRI3 1.0 and 1.1 the request is PixmapFromBuffer, which can only say one
 * plane at offset 0 with a stride below 65536 and no modifier; anything else
 * is refused with EOPNOTSUPP.
 *
 * Refusals happen before anything is sent.  The fds sent are duplicates: the
 * buffer stays usable and keeps its fds.  The request is checked and waited
 * for, so that a refusal by the server comes back here and the connection
 * stays usable.
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).  When the server does not
 * answer in time, the pixmap it may still make is freed with a checked
 * FreePixmap, whose error (if the pixmap never came to be) is taken in and
 * freed like the request's own late answer: nothing is left on the server and
 * nothing reaches the event queue.
 *
 * The buffer passed xcb_dri3_util_buffer_import()'s checks (every buffer
 * does), so the server is never handed a plane that does not fit its fd.
 *
 * When err is not NULL, *err receives the server's X error when it refused
 * (the caller frees it), and NULL otherwise.
 *
 * Returns the new pixmap, or XCB_NONE with errno set to EIO (the server
 * refused; see *err), EPROTO (the server broke the protocol: a modifier list
 * longer than its reply, or no answer to a round trip while it answered later
 * requests), EOPNOTSUPP, EINVAL (a buffer whose fourcc has no X depth, such as
 * a YUV format), ENOTSUP (the server has no DRI3: nothing was sent), EPIPE
 * (the connection has an error), ETIMEDOUT (no answer within the bound),
 * ECANCELED (the scope's cancel fd), or what dup(2) reported.
 *
 * See also xcb_dri3_util_buffer_from_pixmap(),
 * xcb_dri3_util_modifiers_query(), xcb_dri3_util_probe(),
 * xcb_dri3_util_buffer_create_memfd().
 */
xcb_pixmap_t xcb_dri3_util_buffer_to_pixmap(xcb_connection_t *c, xcb_drawable_t drawable,
                                            const xcb_dri3_util_buffer_t *buf,
                                            xcb_generic_error_t **err);

/*
 * Make pixmaps of several buffers with one round trip.  Makes a pixmap of each
 * of the n buffers, as xcb_dri3_util_buffer_to_pixmap() does for one
 * (PixmapFromBuffers on DRI3 1.2 and later, with the modifier it chooses;
 * PixmapFromBuffer on 1.0), for a loader that creates all its back buffers at
 * once.  Everything that can refuse (the modifier, what DRI3 1.0 can express)
 * is decided for every buffer before the first request is sent; then the n
 * checked requests go out back to back and one round trip tells how each went,
 * so the call costs one round trip however many buffers it takes (a modifier
 * query the cache cannot answer adds one per window, depth and bpp).  All of
 * it is bounded by the connection's timeout (xcb_dri3_util_set_timeout()) and
 * the caller's scope.
 *
 * The buffers stay the caller's: the requests carry dups of their fds, which
 * libxcb closes once sent.  The pixmaps are the caller's to free.
 *
 * Returns 0 with pixmaps[0..n) filled (n 0 does nothing), or a negative errno
 * with every pixmap that was made freed and pixmaps set to XCB_NONE: -EIO (the
 * server refused a request: *err, when err is not NULL, receives the error of
 * the first one it refused, which the caller frees; the pixmaps of the others
 * are freed with FreePixmap), -EINVAL (buffers, pixmaps or a buffer NULL, a
 * buffer with a fourcc of no X depth), -EOPNOTSUPP (a buffer the server's
 * version cannot express; nothing was sent), -ENOTSUP, -EPIPE, -ETIMEDOUT or
 * -ECANCELED (the pixmaps the server may still make are freed with checked
 * FreePixmaps whose errors never reach the event queue), -EPROTO, or the error
 * of dup(2).  In every case but -EIO *err is NULL.
 *
 * See also xcb_dri3_util_buffer_to_pixmap(), xcb_dri3_util_buffer_import().
 */
int xcb_dri3_util_buffers_to_pixmaps(xcb_connection_t *c, xcb_drawable_t drawable,
                                     xcb_dri3_util_buffer_t *const *buffers, uint32_t n,
                                     xcb_pixmap_t *pixmaps, xcb_generic_error_t **err);

/*
 * Get the buffer behind an X pixmap.  Asks the server for the memory of pixmap
 * (DRI3 BuffersFromPixmap on DRI3 1.2 and later, BufferFromPixmap on 1.0) and
 * makes a buffer of it.  The reply's fds become the buffer's; any it cannot
 * use are closed.  The plane count, the strides and offsets and the sizes are
 * checked against the fds, as xcb_dri3_util_buffer_import() does.  The fourcc
 * follows from the pixmap's depth and bits per pixel
 * (xcb_dri3_util_fourcc_from_depth()).  On DRI3 1.0 the modifier is
 * XCB_DRI3_UTIL_MOD_INVALID, because that version says nothing of layouts.
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).  The fds of a reply that
 * comes after the call gave up are closed when it comes.
 *
 * *err is set as for xcb_dri3_util_buffer_to_pixmap().
 *
 * Returns a new buffer, or NULL with errno set to EIO (an X error, in *err),
 * EPROTO (the reply's planes, sizes or fds do not add up, an fd is no buffer
 * or is empty, a stride is shorter than a row, a plane is misaligned), EINVAL
 * (a depth and bits per pixel with no known fourcc), ENOTSUP (no DRI3), EPIPE,
 * ETIMEDOUT (no answer within the bound), ECANCELED (the scope's cancel fd) or
 * ENOMEM.
 *
 * See also xcb_dri3_util_buffer_to_pixmap(), xcb_dri3_util_buffer_map(),
 * xcb_dri3_util_buffer_destroy().
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_from_pixmap(xcb_connection_t *c,
                                                         xcb_pixmap_t pixmap,
                                                         xcb_generic_error_t **err);

/* The access flags of xcb_dri3_util_buffer_map(): the CPU reads, writes. */
#define XCB_DRI3_UTIL_MAP_READ 1u
#define XCB_DRI3_UTIL_MAP_WRITE 2u

/*
 * Map a plane of a buffer for the CPU.  Maps plane plane of buf for reading,
 * writing or both (flags is XCB_DRI3_UTIL_MAP_READ, XCB_DRI3_UTIL_MAP_WRITE or
 * both) and returns the address of its first pixel; when stride is not NULL,
 * *stride receives the bytes from one row to the next.
 *
 * On a dma-buf the CPU access begins with DMA_BUF_IOCTL_SYNC (start, with the
 * read and write flags of the mapping), which waits for the GPU and keeps
 * caches coherent; xcb_dri3_util_buffer_unmap() ends it.  A memfd needs no
 * such bracket.  A mapping kept across frames brackets each frame's access
 * instead with xcb_dri3_util_buffer_end_access() and
 * xcb_dri3_util_buffer_begin_access().
 *
 * Only linear layouts can be mapped: the linear modifier, or
 * XCB_DRI3_UTIL_MOD_INVALID on a memfd, which is linear by construction (a
 * dma-buf without a modifier has the driver's private layout).  A plane can be
 * mapped once at a time.
 *
 * Returns the address, or NULL with errno set to EINVAL (no such plane, no
 * flags or unknown ones), EOPNOTSUPP (a layout that is not linear), EBUSY (the
 * plane is mapped already), or what mmap(2) or the sync ioctl reported.
 *
 * See also xcb_dri3_util_buffer_unmap(), xcb_dri3_util_buffer_begin_access(),
 * xcb_dri3_util_buffer_create_memfd(), xcb_dri3_util_buffer_from_pixmap().
 */
void *xcb_dri3_util_buffer_map(xcb_dri3_util_buffer_t *buf, unsigned plane, unsigned flags,
                               uint32_t *stride);

/*
 * End CPU access to a plane of a buffer.  Ends the CPU access that
 * xcb_dri3_util_buffer_map() began on plane plane: on a dma-buf,
 * DMA_BUF_IOCTL_SYNC (end, with the mapping's flags) unless
 * xcb_dri3_util_buffer_end_access() ended the access already; then the mapping
 * goes.  Call it before the X server or a GPU uses what the CPU wrote.
 *
 * Returns 0, or a negative errno (also in errno): -EINVAL when the plane is
 * not mapped, or the sync ioctl's error, in which case the mapping is gone all
 * the same.
 *
 * See also xcb_dri3_util_buffer_map(), xcb_dri3_util_buffer_begin_access().
 */
int xcb_dri3_util_buffer_unmap(xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * Bracket the CPU's access to a plane that stays mapped.  For a mapping kept
 * across frames, as a swapchain keeps its buffers mapped:
 * xcb_dri3_util_buffer_end_access ends the CPU's access to plane plane of buf
 * before the X server or a GPU reads what the CPU wrote, and
 * xcb_dri3_util_buffer_begin_access begins it again before the CPU writes the
 * next frame.  On a dma-buf each is DMA_BUF_IOCTL_SYNC (end, or start, with
 * the read and write flags of the mapping): the start waits for the GPU's and
 * the server's work on the buffer, the end makes the CPU's writes visible to
 * them.  A memfd needs no sync: both return 0 without a system call.
 *
 * xcb_dri3_util_buffer_map() begins an access and xcb_dri3_util_buffer_unmap()
 * ends the one still open.  A begin while an access is open, or an end while
 * none is, does nothing, so a caller need not track which came last.
 *
 * Returns 0, or a negative errno (also in errno): -EINVAL when the plane is
 * not mapped (or buf is NULL), or the sync ioctl's error.  After a failed end
 * the access counts as ended all the same; after a failed begin it is not
 * begun.
 *
 * See also xcb_dri3_util_buffer_end_access(), xcb_dri3_util_buffer_map(),
 * xcb_dri3_util_buffer_unmap().
 */
int xcb_dri3_util_buffer_begin_access(xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * End the CPU's access to a plane that stays mapped.  Ends the CPU's access to
 * plane plane of buf, which stays mapped, before the X server or a GPU reads
 * what the CPU wrote: on a dma-buf, DMA_BUF_IOCTL_SYNC (end, with the
 * mapping's read and write flags), which makes the CPU's writes visible to
 * them.  A memfd needs no sync: nothing is called.  An end while no access is
 * open does nothing; xcb_dri3_util_buffer_begin_access() begins the next.
 *
 * Returns 0, or a negative errno (also in errno): -EINVAL when the plane is
 * not mapped (or buf is NULL), or the sync ioctl's error, after which the
 * access counts as ended all the same.
 *
 * See also xcb_dri3_util_buffer_begin_access(), xcb_dri3_util_buffer_unmap().
 */
int xcb_dri3_util_buffer_end_access(xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * The width of a buffer.  Returns the width in pixels of buf.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_height(), xcb_dri3_util_buffer_depth(),
 * xcb_dri3_util_buffer_bpp(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint16_t xcb_dri3_util_buffer_width(const xcb_dri3_util_buffer_t *buf);

/*
 * The height of a buffer.  Returns the height in pixels of buf.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_depth(),
 * xcb_dri3_util_buffer_bpp(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint16_t xcb_dri3_util_buffer_height(const xcb_dri3_util_buffer_t *buf);

/*
 * The depth of a buffer.  Returns the X depth of the format of buf, or 0 for
 * formats with none (YUV formats).
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_bpp(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint8_t xcb_dri3_util_buffer_depth(const xcb_dri3_util_buffer_t *buf);

/*
 * The bpp of a buffer.  Returns the bits per pixel of the format of buf, or 0
 * for YUV formats.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint8_t xcb_dri3_util_buffer_bpp(const xcb_dri3_util_buffer_t *buf);

/*
 * The fourcc of a buffer.  Returns the DRM format code of buf.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint32_t xcb_dri3_util_buffer_fourcc(const xcb_dri3_util_buffer_t *buf);

/*
 * The modifier of a buffer.  Returns the DRM format modifier of buf.
 *
 * XCB_DRI3_UTIL_MOD_LINEAR (0) is a plain row-major layout;
 * XCB_DRI3_UTIL_MOD_INVALID means that no modifier is known (the driver's
 * implicit layout).  xcb_dri3_util_modifier_name() names the others.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint64_t xcb_dri3_util_buffer_modifier(const xcb_dri3_util_buffer_t *buf);

/*
 * The n planes of a buffer.  Returns the number of planes of buf, 1 to 4.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
unsigned xcb_dri3_util_buffer_n_planes(const xcb_dri3_util_buffer_t *buf);

/*
 * The plane fd of a buffer.  Returns the fd of plane plane of buf, or -1 when
 * the buffer has no such plane.
 *
 * The fd stays the buffer's: do not close it.  To hand it to somebody who will
 * close it, such as a libxcb request, pass a dup(2).
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
int xcb_dri3_util_buffer_fd(const xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * The plane stride of a buffer.  Returns the bytes from one row to the next of
 * plane plane of buf, or 0 when the buffer has no such plane.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint32_t xcb_dri3_util_buffer_stride(const xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * The plane offset of a buffer.  Returns the byte offset in its fd of plane
 * plane of buf, or 0 when the buffer has no such plane.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint32_t xcb_dri3_util_buffer_offset(const xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * Free a buffer and close its file descriptors.  Unmaps the planes that are
 * still mapped (ending their dma-buf CPU access), closes the buffer's fds
 * (each fd once, however many planes share it), destroys the GBM buffer object
 * of a buffer from xcb_dri3_util_buffer_create_gbm(), and frees the buffer.
 * buf may be NULL.
 *
 * Pixmaps made of the buffer live on in the server, which holds its own
 * references to the memory.
 *
 * See also xcb_dri3_util_buffer_create_memfd(), xcb_dri3_util_buffer_import(),
 * xcb_dri3_util_buffer_from_pixmap().
 */
void xcb_dri3_util_buffer_destroy(xcb_dri3_util_buffer_t *buf);

struct gbm_device;

/*
 * Allocate a buffer with GBM.  Allocates a buffer for rendering and scan-out
 * on device (a gbm_create_device(3) of a DRM render node) and makes a buffer
 * of its planes.  The modifiers modifiers[0..  n_modifiers) are tried one at a
 * time, in their order; pass the server's window list followed by its screen
 * list, as xcb_dri3_util_modifiers_query() returns them, to get the layout the
 * server prefers for the window.  XCB_DRI3_UTIL_MOD_INVALID entries are
 * skipped.  When none can be allocated, a linear buffer is.  The buffer keeps
 * the GBM buffer object until it is destroyed.
 *
 * The function exists in every build of the library; when it was configured
 * without GBM (configure --without-gbm, or gbm not found) it fails with
 * ENOTSUP.
 *
 * Returns a new buffer, or NULL with errno set to EINVAL (device NULL, a zero
 * size, modifiers NULL with a count), ENOTSUP (no GBM in this build), EPROTO
 * (GBM gave a buffer of more than 4 planes), or GBM's error (ENOMEM when it
 * gives none).
 *
 * See also xcb_dri3_util_buffer_destroy(), xcb_dri3_util_modifiers_query(),
 * xcb_dri3_util_device_open().
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_gbm(struct gbm_device *device,
                                                        uint16_t width, uint16_t height,
                                                        uint32_t fourcc,
                                                        const uint64_t *modifiers,
                                                        unsigned n_modifiers);

/* ---- formats and modifiers ------------------------------------------ */

/*
 * The DRM format of an X depth.  Returns the DRM fourcc that X servers use by
 * default for pixmaps of depth and bpp bits per pixel: 16/16 RGB565, 24/32
 * XRGB8888, 30/32 XRGB2101010, 32/32 ARGB8888, 15/16 XRGB1555, 24/24 RGB888,
 * 8/8 R8.
 *
 * The default is one channel order of several: a visual whose red mask is 0xff
 * or 0x3ff wants XBGR8888, ABGR8888 or XBGR2101010 instead.  For a window's
 * pixmaps, xcb_dri3_util_fourcc_from_visual() reads the order from the visual.
 * Depths 48 and 64 at 64 bits per pixel have no default: the unsigned and the
 * half-float formats of 16 bits a channel share them.
 *
 * Returns the fourcc, or 0 when no format is the default for that depth and
 * bits per pixel.
 *
 * See also xcb_dri3_util_fourcc_from_visual(),
 * xcb_dri3_util_fourcc_to_depth(), xcb_dri3_util_fourcc_name().
 */
uint32_t xcb_dri3_util_fourcc_from_depth(uint8_t depth, uint8_t bpp);

/*
 * The DRM format whose channels match an X visual.  Returns the DRM fourcc of
 * the pixmaps to make for windows of visual: the format of depth and bpp bits
 * per pixel whose red, green and blue channels sit where the visual's
 * red_mask, green_mask and blue_mask say.  Alpha is what the masks leave over
 * at depth 32; depths 15, 16, 24 and 30 have none.  The visual must be
 * TrueColor or DirectColor, the classes with masks.
 *
 * The depth alone does not say the channel order: a depth-30 visual whose red
 * mask is 0x3ff is XBGR2101010, one whose red mask is 0x3ff00000 is
 * XRGB2101010, and a buffer of the wrong one shows red and blue swapped.
 * Mesa's GL loader and Vulkan X11 WSI choose by the visual's masks in the same
 * way.
 *
 * The formats
 * -----------
 *
 * Every RGB format the library gives an X depth, with its depth, bits per
 * pixel and masks (the pixel read as one little-endian integer of bpp bits),
 * and the calls that pick it.  "depth" is xcb_dri3_util_fourcc_from_depth(),
 * the default of a depth; "visual" is this function;
 * xcb_dri3_util_fourcc_to_depth() gives every row's depth and bpp.
 *
 * | fourcc          depth bpp red        green      blue       alpha      picked by
 * | XRGB8888         24   32  0x00ff0000 0x0000ff00 0x000000ff -          depth, visual
 * | XBGR8888         24   32  0x000000ff 0x0000ff00 0x00ff0000 -          visual
 * | RGBX8888         24   32  0xff000000 0x00ff0000 0x0000ff00 -          visual
 * | BGRX8888         24   32  0x0000ff00 0x00ff0000 0xff000000 -          visual
 * | ARGB8888         32   32  0x00ff0000 0x0000ff00 0x000000ff 0xff000000 depth, visual
 * | ABGR8888         32   32  0x000000ff 0x0000ff00 0x00ff0000 0xff000000 visual
 * | RGBA8888         32   32  0xff000000 0x00ff0000 0x0000ff00 0x000000ff visual
 * | BGRA8888         32   32  0x0000ff00 0x00ff0000 0xff000000 0x000000ff visual
 * | XRGB2101010      30   32  0x3ff00000 0x000ffc00 0x000003ff -          depth, visual
 * | XBGR2101010      30   32  0x000003ff 0x000ffc00 0x3ff00000 -          visual
 * | ARGB2101010      32   32  0x3ff00000 0x000ffc00 0x000003ff 0xc0000000 visual
 * | ABGR2101010      32   32  0x000003ff 0x000ffc00 0x3ff00000 0xc0000000 visual
 * | RGB565           16   16  0xf800     0x07e0     0x001f     -          depth, visual
 * | BGR565           16   16  0x001f     0x07e0     0xf800     -          visual
 * | XRGB1555         15   16  0x7c00     0x03e0     0x001f     -          depth, visual
 * | XBGR1555         15   16  0x001f     0x03e0     0x7c00     -          visual
 * | RGB888           24   24  0xff0000   0x00ff00   0x0000ff   -          depth, visual
 * | BGR888           24   24  0x0000ff   0x00ff00   0xff0000   -          visual
 * | R8                8    8  (grey: no RGB visual)                       depth
 * | XBGR16161616     48   64  (16 bits a channel: no visual)              none
 * | ABGR16161616     64   64  (16 bits a channel: no visual)              none
 * | XBGR16161616F    48   64  (half float: no visual)                     none
 * | ABGR16161616F    64   64  (half float: no visual)                     none
 *
 * The formats of 16 bits a channel, unsigned or half float, are those Mesa's
 * GL loader presents with 64 bits per pixel; their depth is what their colour
 * bits (and alpha) add up to.  An X visual's masks are 32 bits wide and cannot
 * describe them, and their unsigned and half-float forms share depth and bpp,
 * so neither call picks them: pass the fourcc to
 * xcb_dri3_util_buffer_create_memfd() or xcb_dri3_util_buffer_import().  A
 * server makes pixmaps of them only when it lists a pixmap format of depth 48
 * or 64 with 64 bits per pixel; the servers in common use list none, and
 * refuse them with BadValue.  Likewise a depth-30 format needs a server with
 * depth 30 in its pixmap formats (Xorg with DefaultDepth 30, for one).
 *
 * Returns the fourcc, or 0 when visual is NULL or of another class, or when no
 * format has those masks at that depth and bpp.
 *
 * See also xcb_dri3_util_fourcc_from_depth(), xcb_dri3_util_fourcc_to_depth(),
 * xcb_dri3_util_fourcc_name(), xcb_dri3_util_buffer_to_pixmap().
 */
uint32_t xcb_dri3_util_fourcc_from_visual(const xcb_visualtype_t *visual, uint8_t depth,
                                          uint8_t bpp);

/*
 * The X depth of a DRM format.  Stores the X depth and bits per pixel of the
 * one-plane RGB format fourcc in *depth and *bpp (either may be NULL).  Every
 * format that xcb_dri3_util_fourcc_from_depth() returns maps back to its
 * depth; the other channel orders of the same depths (XBGR8888, RGBX8888,
 * BGRX8888, ABGR8888, RGBA8888, BGRA8888, BGR565, XBGR2101010, BGR888,
 * XBGR1555) map to the same depths.  ARGB2101010 and ABGR2101010 map to depth
 * 32, which counts their two alpha bits (a depth-32 visual with 10-bit masks).
 * The formats of 16 bits a channel map to bpp 64 and depth 48 (XBGR16161616,
 * XBGR16161616F) or 64 (ABGR16161616, ABGR16161616F), which a server accepts
 * only where it lists that depth.  The table of all of them is in
 * xcb_dri3_util_fourcc_from_visual().
 *
 * Returns 0, or -EINVAL (also in errno) for a format with no X depth: YUV
 * formats, formats of several planes, unknown codes.
 *
 * See also xcb_dri3_util_fourcc_from_depth(),
 * xcb_dri3_util_fourcc_from_visual(), xcb_dri3_util_buffer_create_memfd().
 */
int xcb_dri3_util_fourcc_to_depth(uint32_t fourcc, uint8_t *depth, uint8_t *bpp);

/*
 * Names for people: "XRGB8888", and libdrm's modifier names
 * ("I915_Y_TILED", "LINEAR", ...).  Unknown values come back as their
 * characters or hex value.  The caller frees the string with free().  NULL
 * with errno ENOMEM.
 */

/*
 * A human-readable name of a DRM format.  Returns the name of fourcc:
 * "XRGB8888", "RGB565", "NV12" for the formats this library knows, libdrm's
 * name (the four characters of the code) for other printable codes, and the
 * number in hexadecimal ("0x01020304") for the rest.  The caller frees the
 * string with free(3).
 *
 * Returns the name, or NULL with errno set to ENOMEM.
 *
 * See also xcb_dri3_util_modifier_name(), xcb_dri3_util_fourcc_from_depth().
 */
char *xcb_dri3_util_fourcc_name(uint32_t fourcc);

/*
 * A human-readable name of a DRM format modifier.  Returns the name of
 * modifier: "LINEAR", "INVALID" (no modifier), or libdrm's vendor and name
 * joined by an underscore ("INTEL_Y_TILED", "AMD_GFX9"), and the number in
 * hexadecimal for modifiers libdrm cannot name.  The caller frees the string
 * with free(3).
 *
 * Returns the name, or NULL with errno set to ENOMEM.
 *
 * See also xcb_dri3_util_fourcc_name(), xcb_dri3_util_modifiers_query().
 */
char *xcb_dri3_util_modifier_name(uint64_t modifier);

/*
 * The format modifiers the X server takes for a window.  Asks the server (DRI3
 * GetSupportedModifiers, DRI3 1.2) which modifiers it takes for buffers of
 * depth and bpp on window.  *window_mods receives the list for the window
 * (*n_window entries), the layouts the server can show in it directly
 * (scan-out); it may change when the window moves between CRTCs.  *screen_mods
 * receives the list for the screen (*n_screen entries).  Both are arrays that
 * the caller frees with free(3), or NULL when empty.  Real servers list
 * XCB_DRI3_UTIL_MOD_LINEAR in both.
 *
 * The answer also refreshes the cache that xcb_dri3_util_buffer_to_pixmap()
 * consults.
 *
 * The call is bounded: all its round trips (the probe's on a connection's
 * first call included) end within the connection's timeout
 * (xcb_dri3_util_set_timeout(), 1 s by default) and within the calling
 * thread's scope (xcb_dri3_util_wait_scope_push()).
 *
 * Returns 0, or a negative errno (also in errno): -EIO (an X error, in *err
 * when err is not NULL), -ENOTSUP (no DRI3, or DRI3 older than 1.2: nothing
 * was sent), -EINVAL (an output pointer is NULL), -EPIPE, -ETIMEDOUT (no
 * answer within the bound), -ECANCELED (the scope's cancel fd), -EPROTO (the
 * reply's counts exceed its length), -ENOMEM.  On failure the outputs are NULL
 * and 0.
 *
 * See also xcb_dri3_util_buffer_to_pixmap(),
 * xcb_dri3_util_buffer_create_gbm(), xcb_dri3_util_modifier_name().
 */
int xcb_dri3_util_modifiers_query(xcb_connection_t *c, xcb_window_t window,
                                  uint8_t depth, uint8_t bpp,
                                  uint64_t **window_mods, uint32_t *n_window,
                                  uint64_t **screen_mods, uint32_t *n_screen,
                                  xcb_generic_error_t **err);

#ifdef __cplusplus
}
#endif

#endif
