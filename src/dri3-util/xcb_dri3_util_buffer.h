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
 * Zeroes *caps and sets its size to sizeof(xcb_dri3_util_caps_t).  NULL is
 * allowed.
 *
 * See also xcb_dri3_util_probe().
 */
void xcb_dri3_util_caps_init(xcb_dri3_util_caps_t *caps);

/*
 * Find out which DRI3-related extensions the X server offers.
 *
 * Finds out what the server offers and fills the first caps->size bytes
 * of *caps (caps may be NULL: the probe is then only made and cached).  The first call on a
 * connection makes two round trips, each sending every request before it
 * waits for any reply: the QueryExtension requests of the five extensions
 * (none where libxcb already knows the answer) with a GetInputFocus (whose
 * reply, waited for with a bound, proves theirs are in), then, together,
 * the version requests of those present and Present's QueryCapabilities;
 * no request goes to a missing extension.  Both round trips together are
 * bounded by the connection's timeout (see the conventions in <xcb/xcb_dri3_util.h>).  The
 * result is cached per connection: later calls, and every helper of this
 * library, use it without a round trip.  A probe that failed is not
 * cached: the next call probes again.  Thread-safe.
 *
 * The cache is keyed on the connection; call
 * xcb_dri3_util_probe_forget() before xcb_disconnect() when a program
 * opens and closes many connections.
 *
 * Returns 0, -EINVAL (caps->size is smaller than this struct's first
 * version, which ended with present_caps: nothing is asked), -EPIPE (the
 * connection has or gets an error), -ETIMEDOUT, -ECANCELED, -EPROTO (the
 * server skipped an answer), -ENOMEM.
 *
 * See also xcb_dri3_util_caps_init(), xcb_dri3_util_probe_forget(),
 * xcb_dri3_util_buffer_to_pixmap(), xcb_dri3_util_device_open().
 */
int xcb_dri3_util_probe(xcb_connection_t *c, xcb_dri3_util_caps_t *caps);

/*
 * The Present capabilities (XCB_PRESENT_CAPABILITY_*) of `window` in
 * *caps.  Asked with PresentQueryCapabilities, bounded like the probe's
 * round trips; the answer for the last window asked on a connection is
 * kept with the probe's, so that a loop presenting to one window asks
 * once (xcb_dri3_util_probe_refresh() drops it: capabilities can change
 * when a window moves to another output).  Thread-safe.
 *
 * Returns 0, -EINVAL (c or caps NULL), -ENOTSUP (the server lacks
 * Present), -ENODEV (the server refused: no such window), -EPIPE,
 * -ETIMEDOUT, -ECANCELED, -EPROTO, -ENOMEM.
 *
 * See also xcb_dri3_util_probe(), xcb_dri3_util_probe_refresh(),
 * xcb_present_util_present_pixmap_synced().
 */
int xcb_dri3_util_window_caps(xcb_connection_t *c, xcb_window_t window, uint32_t *caps);

/*
 * Drop what the library cached for a connection.
 *
 * What the library keeps for a connection is one entry: the server's
 * answers (the probe's, the modifier lists, the last window's
 * capabilities) and what the application set or still owes (the waits'
 * timeout, requests whose waits gave up).
 *
 * xcb_dri3_util_probe_forget() drops the whole entry (late answers that
 * have come are freed now; those still to come stay libxcb's): call it
 * before xcb_disconnect().
 *
 * See also xcb_dri3_util_probe(), xcb_dri3_util_set_timeout(),
 * xcb_dri3_util_collect_abandoned().
 */
void xcb_dri3_util_probe_forget(xcb_connection_t *c);

/*
 * Drops only the server's answers kept for c: the next call asks the
 * server again.  What the application set (the waits' timeout) and the
 * abandoned requests stay.  For a user of the connection that goes while
 * others stay (a swapchain's teardown).
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
 * Make a linear buffer on a memfd for software rendering.
 *
 * A linear buffer on a fresh memfd (close-on-exec, sealed against
 * shrinking), zero-filled, for software rendering.  fourcc is a one-plane
 * RGB format (XRGB8888, ARGB8888, RGB565, XRGB2101010, ...: see
 * xcb_dri3_util_fourcc_to_depth()); rows are aligned to 64 bytes.
 * NULL with errno EINVAL (zero size, or a fourcc that is not a known
 * one-plane format), ENOMEM, or memfd_create()'s error.
 *
 * See also xcb_dri3_util_buffer_map(), xcb_dri3_util_buffer_to_pixmap(),
 * xcb_dri3_util_buffer_destroy(), xcb_dri3_util_buffer_import().
 */
xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_memfd(uint16_t width, uint16_t height,
                                                          uint32_t fourcc);

/*
 * Makes a buffer of n_planes fds with their strides and offsets (a GPU
 * renderer's dma-bufs).  Takes ownership of every fd whatever the outcome
 * (on failure they are closed; the same fd may appear for several planes).
 * Each plane the format defines must
 *   - fit in its fd: offset + stride * rows within the fd's size.  The
 *     size of memfds and files (fstat) and of dma-bufs (lseek SEEK_END)
 *     is known, and an empty fd has size 0, in which nothing fits; only
 *     a dma-buf whose kernel cannot tell its size is taken on trust;
 *   - hold a row per stride: stride >= width * bytes per pixel of that
 *     plane (chroma planes: their subsampled width);
 *   - be aligned to its pixels: offset and stride multiples of 4 for
 *     32-bit pixels, 8 for 64-bit, 2 for 16-bit (none for 8- and 24-bit).
 * The extra planes of a modifier (compression data) must start inside
 * their fd.  NULL with errno EINVAL (zero size, unknown fourcc, n_planes
 * not 1..4, fewer planes than the format has, a plane that breaks a rule
 * above, a pipe or socket), EBADF (an fd that is not open), ENOMEM.
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
 * Make an X pixmap of a buffer.
 *
 * Creates a pixmap of the buffer (drawable picks the screen; on DRI3 1.2
 * and later it must be a window).  DRI3 >= 1.2: PixmapFromBuffers, with
 * the buffer's modifier when the server lists it for the window or the
 * screen (GetSupportedModifiers, cached per window, depth and bpp), and
 * with XCB_DRI3_UTIL_MOD_INVALID for a linear one-plane buffer when it
 * does not.  DRI3 1.0/1.1: PixmapFromBuffer.  Sends dups: the buffer stays
 * usable.  Waits for the server's answer (a checked request), so a refusal
 * comes back here and the connection stays usable.
 *
 * The buffer's layout passed xcb_dri3_util_buffer_import()'s checks
 * (every buffer does), so the server is never handed planes that do not
 * fit their fds.
 *
 * Returns the pixmap, or XCB_NONE with errno: EIO (the server refused,
 * *err says why), EOPNOTSUPP (what the server's version cannot express:
 * several planes, a modifier, an offset or a stride beyond 16 bits on 1.0;
 * a modifier the server does not list on 1.2; nothing was sent), EINVAL
 * (a buffer with a fourcc of no X depth), ENOTSUP (no DRI3), EPIPE,
 * ETIMEDOUT or ECANCELED (see the conventions in <xcb/xcb_dri3_util.h>; the pixmap that the
 * server may still make is freed with a checked FreePixmap, so neither it
 * nor an error of it is left behind).
 *
 * See also xcb_dri3_util_buffer_from_pixmap(),
 * xcb_dri3_util_modifiers_query(), xcb_dri3_util_probe(),
 * xcb_dri3_util_buffer_create_memfd().
 */
xcb_pixmap_t xcb_dri3_util_buffer_to_pixmap(xcb_connection_t *c, xcb_drawable_t drawable,
                                            const xcb_dri3_util_buffer_t *buf,
                                            xcb_generic_error_t **err);

/*
 * Make pixmaps of several buffers with one round trip.
 *
 * buffer_to_pixmap() for n buffers with one round trip: every request is
 * decided before the first goes, then all are sent and waited for once,
 * within the same bound.  Sends dups.  0 with pixmaps[0..n) filled (n 0:
 * nothing to do), or a negative errno with every pixmap made freed and
 * pixmaps[] XCB_NONE: -EIO (the first X error in *err), -EINVAL (an array
 * or a buffer NULL), -ENOMEM, or what buffer_to_pixmap() gives as errno.
 *
 * See also xcb_dri3_util_buffer_to_pixmap(), xcb_dri3_util_buffer_import().
 */
int xcb_dri3_util_buffers_to_pixmaps(xcb_connection_t *c, xcb_drawable_t drawable,
                                     xcb_dri3_util_buffer_t *const *buffers, uint32_t n,
                                     xcb_pixmap_t *pixmaps, xcb_generic_error_t **err);

/*
 * The buffer behind a pixmap: BuffersFromPixmap on DRI3 >= 1.2,
 * BufferFromPixmap on 1.0.  The reply's fds become the buffer's; fds it
 * cannot use are closed.  The fourcc follows from the pixmap's depth and
 * bpp.  The server's layout must pass xcb_dri3_util_buffer_import()'s
 * checks.  NULL with errno: EIO (X error in *err), EPROTO (the reply's
 * plane count, sizes or fds do not add up, or its layout breaks import's
 * rules: a plane beyond its fd, an empty fd, a stride shorter than a
 * row, a misaligned plane), EINVAL (a depth and bpp of no known fourcc),
 * ENOTSUP (no DRI3), EPIPE, ETIMEDOUT, ECANCELED (the late reply's fds are
 * closed when it comes), ENOMEM.
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
 * Map a plane of a buffer for the CPU.
 *
 * Maps plane `plane` for the CPU (flags: XCB_DRI3_UTIL_MAP_READ and/or
 * _WRITE) and returns its first byte; *stride (if not NULL) receives the
 * row pitch.  On a dma-buf the access is bracketed by DMA_BUF_IOCTL_SYNC
 * (start here, end in xcb_dri3_util_buffer_unmap()); memfds need no sync.
 * Only linear layouts can be mapped: XCB_DRI3_UTIL_MOD_LINEAR, or
 * XCB_DRI3_UTIL_MOD_INVALID on a memfd (which is linear by construction).
 * NULL with errno EINVAL (no such plane, no flags), EOPNOTSUPP (a
 * non-linear modifier), EBUSY (already mapped), or mmap()'s or the sync
 * ioctl's error.
 *
 * See also xcb_dri3_util_buffer_unmap(), xcb_dri3_util_buffer_begin_access(),
 * xcb_dri3_util_buffer_create_memfd(), xcb_dri3_util_buffer_from_pixmap().
 */
void *xcb_dri3_util_buffer_map(xcb_dri3_util_buffer_t *buf, unsigned plane, unsigned flags,
                               uint32_t *stride);

/*
 * Ends the CPU access that xcb_dri3_util_buffer_map() began and unmaps.
 *
 * Returns 0, -EINVAL (the plane is not mapped), or the sync ioctl's error
 * (the mapping is gone all the same).
 *
 * See also xcb_dri3_util_buffer_map(), xcb_dri3_util_buffer_begin_access().
 */
int xcb_dri3_util_buffer_unmap(xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * Bracket the CPU's access to a plane that stays mapped.
 *
 * For a mapping kept across frames, as a swapchain keeps its buffers mapped:
 * xcb_dri3_util_buffer_end_access ends the CPU's access to plane plane of buf
 * before the X server or a GPU reads what the CPU wrote, and
 * xcb_dri3_util_buffer_begin_access begins it again before the CPU writes the
 * next frame. On a dma-buf each is DMA_BUF_IOCTL_SYNC (end, or start, with the
 * read and write flags of the mapping): the start waits for the GPU's and the
 * server's work on the buffer, the end makes the CPU's writes visible to them.
 * A memfd needs no sync: both return 0 without a system call.
 *
 * xcb_dri3_util_buffer_map() begins an access and xcb_dri3_util_buffer_unmap()
 * ends the one still open. A begin while an access is open, or an end while
 * none is, does nothing, so a caller need not track which came last.
 *
 * Returns 0, or a negative errno (also in errno): -EINVAL when the plane is
 * not mapped (or buf is NULL), or the sync ioctl's error. After a failed end
 * the access counts as ended all the same; after a failed begin it is not
 * begun.
 *
 * See also xcb_dri3_util_buffer_end_access(), xcb_dri3_util_buffer_map(),
 * xcb_dri3_util_buffer_unmap().
 */
int xcb_dri3_util_buffer_begin_access(xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * End the CPU's access to a plane that stays mapped.
 *
 * Ends the CPU's access to plane plane of buf, which stays mapped, before the
 * X server or a GPU reads what the CPU wrote: on a dma-buf, DMA_BUF_IOCTL_SYNC
 * (end, with the mapping's read and write flags), which makes the CPU's writes
 * visible to them. A memfd needs no sync: nothing is called. An end while no
 * access is open does nothing; xcb_dri3_util_buffer_begin_access() begins the
 * next.
 *
 * Returns 0, or a negative errno (also in errno): -EINVAL when the plane is
 * not mapped (or buf is NULL), or the sync ioctl's error, after which the
 * access counts as ended all the same.
 *
 * See also xcb_dri3_util_buffer_begin_access(), xcb_dri3_util_buffer_unmap().
 */
int xcb_dri3_util_buffer_end_access(xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * The width of a buffer.
 *
 * Returns the width in pixels of buf.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_height(), xcb_dri3_util_buffer_depth(),
 * xcb_dri3_util_buffer_bpp(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint16_t xcb_dri3_util_buffer_width(const xcb_dri3_util_buffer_t *buf);

/*
 * The height of a buffer.
 *
 * Returns the height in pixels of buf.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_depth(),
 * xcb_dri3_util_buffer_bpp(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint16_t xcb_dri3_util_buffer_height(const xcb_dri3_util_buffer_t *buf);

/*
 * The depth of a buffer.
 *
 * Returns the X depth of the format of buf, or 0 for formats with none (YUV
 * formats).
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_bpp(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint8_t xcb_dri3_util_buffer_depth(const xcb_dri3_util_buffer_t *buf);

/*
 * The bpp of a buffer.
 *
 * Returns the bits per pixel of the format of buf, or 0 for YUV formats.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_fourcc(),
 * xcb_dri3_util_buffer_import().
 */
uint8_t xcb_dri3_util_buffer_bpp(const xcb_dri3_util_buffer_t *buf);

/*
 * The fourcc of a buffer.
 *
 * Returns the DRM format code of buf.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint32_t xcb_dri3_util_buffer_fourcc(const xcb_dri3_util_buffer_t *buf);

/*
 * The modifier of a buffer.
 *
 * Returns the DRM format modifier of buf.
 *
 * XCB_DRI3_UTIL_MOD_LINEAR (0) is a plain row-major layout;
 * XCB_DRI3_UTIL_MOD_INVALID means that no modifier is known (the driver's
 * implicit layout). xcb_dri3_util_modifier_name() names the others.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint64_t xcb_dri3_util_buffer_modifier(const xcb_dri3_util_buffer_t *buf);

/*
 * The n planes of a buffer.
 *
 * Returns the number of planes of buf, 1 to 4.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
unsigned xcb_dri3_util_buffer_n_planes(const xcb_dri3_util_buffer_t *buf);

/*
 * The plane fd of a buffer.
 *
 * Returns the fd of plane plane of buf, or -1 when the buffer has no such
 * plane.
 *
 * The fd stays the buffer's: do not close it. To hand it to somebody who will
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
 * The plane stride of a buffer.
 *
 * Returns the bytes from one row to the next of plane plane of buf, or 0 when
 * the buffer has no such plane.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint32_t xcb_dri3_util_buffer_stride(const xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * The plane offset of a buffer.
 *
 * Returns the byte offset in its fd of plane plane of buf, or 0 when the
 * buffer has no such plane.
 *
 * The function never fails; buf must be a buffer.
 *
 * See also xcb_dri3_util_buffer_width(), xcb_dri3_util_buffer_height(),
 * xcb_dri3_util_buffer_depth(), xcb_dri3_util_buffer_bpp(),
 * xcb_dri3_util_buffer_import().
 */
uint32_t xcb_dri3_util_buffer_offset(const xcb_dri3_util_buffer_t *buf, unsigned plane);

/*
 * Free a buffer and close its file descriptors.
 *
 * Unmaps what is mapped, closes the fds (each once) and frees the buffer
 * (and its GBM buffer object, if any).  NULL is allowed.
 *
 * See also xcb_dri3_util_buffer_create_memfd(), xcb_dri3_util_buffer_import(),
 * xcb_dri3_util_buffer_from_pixmap().
 */
void xcb_dri3_util_buffer_destroy(xcb_dri3_util_buffer_t *buf);

struct gbm_device;

/*
 * A buffer allocated by GBM on device, for rendering and scan-out by the
 * X server.  modifiers[0..n_modifiers) are tried one at a time in their
 * order (pass the server's window list followed by its screen list, as
 * xcb_dri3_util_modifiers_query() returns them), then a linear
 * buffer.  The buffer keeps the GBM buffer object until it is destroyed.
 * NULL with errno EINVAL (device NULL, zero size, modifiers NULL with a
 * count), ENOTSUP (the library was built without GBM), EPROTO (GBM gave
 * more than 4 planes), or GBM's error (ENOMEM when it gives none).
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
 * The DRM format of an X depth.
 *
 * The DRM fourcc that X servers use by default for a pixmap depth and bits
 * per pixel (16/16 RGB565, 24/32 XRGB8888, 30/32 XRGB2101010, 32/32
 * ARGB8888, 15/16 XRGB1555, 24/24 RGB888, 8/8 R8), or 0 when there is
 * none (also for 48/64 and 64/64, shared by the 16-bit unorm and
 * half-float formats).  The channel order follows no visual: prefer
 * xcb_dri3_util_fourcc_from_visual() for a window's pixmaps.
 *
 * See also xcb_dri3_util_fourcc_from_visual(),
 * xcb_dri3_util_fourcc_to_depth(), xcb_dri3_util_fourcc_name().
 */
uint32_t xcb_dri3_util_fourcc_from_depth(uint8_t depth, uint8_t bpp);

/*
 * The DRM format whose channels match an X visual.
 *
 * The DRM fourcc whose channels sit where a TrueColor or DirectColor
 * visual's red, green and blue masks say, at that depth and bpp; alpha is
 * what the masks leave over at depth 32 (none at 15, 16, 24, 30).  So
 * depth 30 gives XBGR2101010 for red mask 0x3ff and XRGB2101010 for
 * 0x3ff00000, depth 32 ABGR8888 for 0xff and ARGB8888 for 0xff0000, depth
 * 16 RGB565 for 0xf800.  0 for a NULL visual, another class, or masks that
 * no format has.  The whole table is in the man page.
 *
 * See also xcb_dri3_util_fourcc_from_depth(), xcb_dri3_util_fourcc_to_depth(),
 * xcb_dri3_util_fourcc_name(), xcb_dri3_util_buffer_to_pixmap().
 */
uint32_t xcb_dri3_util_fourcc_from_visual(const xcb_visualtype_t *visual, uint8_t depth,
                                          uint8_t bpp);

/*
 * The X depth of a DRM format.
 *
 * The X depth and bpp of a one-plane RGB fourcc, the other way round
 * (other channel orders of a depth give that depth; ARGB2101010 and
 * ABGR2101010 give 32, the depth of their 10-bit visuals with alpha;
 * the 16-bit-per-channel formats give 48 (X...) and 64 (A...) at bpp 64,
 * which a server accepts only where it lists that depth).  depth and bpp
 * may be NULL.
 *
 * Returns 0, or -EINVAL for a fourcc with no X depth (YUV
 * formats, several planes, unknown codes).
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
 * A human-readable name of a DRM format.
 *
 * Returns the name of fourcc: "XRGB8888", "RGB565", "NV12" for the formats
 * this library knows, libdrm's name (the four characters of the code) for
 * other printable codes, and the number in hexadecimal ("0x01020304") for the
 * rest. The caller frees the string with free().
 *
 * Returns the name, or NULL with errno set to ENOMEM.
 *
 * See also xcb_dri3_util_modifier_name(), xcb_dri3_util_fourcc_from_depth().
 */
char *xcb_dri3_util_fourcc_name(uint32_t fourcc);

/*
 * A human-readable name of a DRM format modifier.
 *
 * Returns the name of modifier: "LINEAR", "INVALID" (no modifier), or libdrm's
 * vendor and name joined by an underscore ("INTEL_Y_TILED", "AMD_GFX9"), and
 * the number in hexadecimal for modifiers libdrm cannot name. The caller frees
 * the string with free().
 *
 * Returns the name, or NULL with errno set to ENOMEM.
 *
 * See also xcb_dri3_util_fourcc_name(), xcb_dri3_util_modifiers_query().
 */
char *xcb_dri3_util_modifier_name(uint64_t modifier);

/*
 * The format modifiers the X server takes for a window.
 *
 * The server's modifiers for buffers of depth/bpp on window (DRI3 1.2
 * GetSupportedModifiers): *window_mods receives the list for the window
 * (n_window entries), *screen_mods the one for its screen; arrays the
 * caller frees with free() (NULL when empty).  The answer also refreshes
 * the cache that xcb_dri3_util_buffer_to_pixmap() uses.
 *
 * Returns 0, -EIO
 * (X error in *err), -ENOTSUP (no DRI3, or DRI3 older than 1.2), -EINVAL
 * (an output pointer is NULL), -EPIPE, -ETIMEDOUT, -ECANCELED, -EPROTO
 * (the reply's counts exceed its length), -ENOMEM; on failure the outputs
 * are NULL and 0.
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
