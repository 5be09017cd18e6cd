/*
 * API compatibility with libxcb 1.15: a program written against the documented
 * interface of Debian's <xcb/dri3.h> and <xcb/present.h> that touches every
 * name those headers declare.  If our generated headers drop, rename or retype
 * anything, this file stops compiling (with -Wall -Wextra -Werror); if our
 * libraries lack a symbol, it stops linking; and the run checks the behaviour
 * that needs no X server: pure accessors on local buffers, the extension ids,
 * and every request and reply function on an errored connection (which must
 * send nothing, return sequence 0 and still close the fds it was given).
 *
 * Output is TAP.  Nothing here talks to a server: the only connection is the
 * error object libxcb returns for an unparsable display name.
 *
 * The 1.3/1.4 additions, which Debian's headers lack, are in api-use-14.c.
 */
/* O_CLOEXEC under -std=c11 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h> /* the members of xcb_extension_t */
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "api-check.h"

/* ---- compile-time checks ---------------------------------------------- */

#define REQUEST_HEAD(T) \
    MEMBER(T, major_opcode, uint8_t); MEMBER(T, minor_opcode, uint8_t); \
    MEMBER(T, length, uint16_t)
#define REPLY_HEAD(T) \
    MEMBER(T, response_type, uint8_t); MEMBER(T, sequence, uint16_t); \
    MEMBER(T, length, uint32_t)
#define EVENT_HEAD(T) \
    MEMBER(T, response_type, uint8_t); MEMBER(T, extension, uint8_t); \
    MEMBER(T, sequence, uint16_t); MEMBER(T, length, uint32_t)
#define COOKIE(T) MEMBER(T, sequence, unsigned int); SIZE(T, 4)

/* The version and opcode macros must be plain integers the preprocessor can
 * test: programs write #if XCB_PRESENT_MINOR_VERSION >= 2.  The minor
 * versions may only grow (ours are 4). */
#if XCB_DRI3_MAJOR_VERSION != 1 || XCB_DRI3_MINOR_VERSION < 3
#error "XCB_DRI3_MAJOR_VERSION/XCB_DRI3_MINOR_VERSION"
#endif
#if XCB_PRESENT_MAJOR_VERSION != 1 || XCB_PRESENT_MINOR_VERSION < 2
#error "XCB_PRESENT_MAJOR_VERSION/XCB_PRESENT_MINOR_VERSION"
#endif
#if XCB_DRI3_QUERY_VERSION != 0 || XCB_DRI3_OPEN != 1 || XCB_DRI3_PIXMAP_FROM_BUFFER != 2 \
    || XCB_DRI3_BUFFER_FROM_PIXMAP != 3 || XCB_DRI3_FENCE_FROM_FD != 4 \
    || XCB_DRI3_FD_FROM_FENCE != 5 || XCB_DRI3_GET_SUPPORTED_MODIFIERS != 6 \
    || XCB_DRI3_PIXMAP_FROM_BUFFERS != 7 || XCB_DRI3_BUFFERS_FROM_PIXMAP != 8 \
    || XCB_DRI3_SET_DRM_DEVICE_IN_USE != 9
#error "a DRI3 opcode macro"
#endif
#if XCB_PRESENT_QUERY_VERSION != 0 || XCB_PRESENT_PIXMAP != 1 || XCB_PRESENT_NOTIFY_MSC != 2 \
    || XCB_PRESENT_SELECT_INPUT != 3 || XCB_PRESENT_QUERY_CAPABILITIES != 4
#error "a Present request opcode macro"
#endif
#if XCB_PRESENT_GENERIC != 0 || XCB_PRESENT_CONFIGURE_NOTIFY != 0 \
    || XCB_PRESENT_COMPLETE_NOTIFY != 1 || XCB_PRESENT_IDLE_NOTIFY != 2 \
    || XCB_PRESENT_REDIRECT_NOTIFY != 3
#error "a Present event number macro"
#endif
/* The include guards are macros these headers define, and code that includes
 * them conditionally may test them. */
#if !defined(__DRI3_H) || !defined(__PRESENT_H)
#error "include guard __DRI3_H / __PRESENT_H"
#endif

/* Enum constants: their values here, their enum type below (-Wswitch). */
_Static_assert(XCB_PRESENT_EVENT_CONFIGURE_NOTIFY == 0, "enum value");
_Static_assert(XCB_PRESENT_EVENT_COMPLETE_NOTIFY == 1, "enum value");
_Static_assert(XCB_PRESENT_EVENT_IDLE_NOTIFY == 2, "enum value");
_Static_assert(XCB_PRESENT_EVENT_REDIRECT_NOTIFY == 3, "enum value");
_Static_assert(XCB_PRESENT_EVENT_MASK_NO_EVENT == 0, "enum value");
_Static_assert(XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY == 1, "enum value");
_Static_assert(XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY == 2, "enum value");
_Static_assert(XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY == 4, "enum value");
_Static_assert(XCB_PRESENT_EVENT_MASK_REDIRECT_NOTIFY == 8, "enum value");
_Static_assert(XCB_PRESENT_OPTION_NONE == 0, "enum value");
_Static_assert(XCB_PRESENT_OPTION_ASYNC == 1, "enum value");
_Static_assert(XCB_PRESENT_OPTION_COPY == 2, "enum value");
_Static_assert(XCB_PRESENT_OPTION_UST == 4, "enum value");
_Static_assert(XCB_PRESENT_OPTION_SUBOPTIMAL == 8, "enum value");
_Static_assert(XCB_PRESENT_CAPABILITY_NONE == 0, "enum value");
_Static_assert(XCB_PRESENT_CAPABILITY_ASYNC == 1, "enum value");
_Static_assert(XCB_PRESENT_CAPABILITY_FENCE == 2, "enum value");
_Static_assert(XCB_PRESENT_CAPABILITY_UST == 4, "enum value");
_Static_assert(XCB_PRESENT_COMPLETE_KIND_PIXMAP == 0, "enum value");
_Static_assert(XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC == 1, "enum value");
_Static_assert(XCB_PRESENT_COMPLETE_MODE_COPY == 0, "enum value");
_Static_assert(XCB_PRESENT_COMPLETE_MODE_FLIP == 1, "enum value");
_Static_assert(XCB_PRESENT_COMPLETE_MODE_SKIP == 2, "enum value");
_Static_assert(XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY == 3, "enum value");

/* DRI3 types.  Sizes are those of libxcb 1.15 on LP64 and ILP32 alike. */
COOKIE(xcb_dri3_query_version_cookie_t);
COOKIE(xcb_dri3_open_cookie_t);
COOKIE(xcb_dri3_buffer_from_pixmap_cookie_t);
COOKIE(xcb_dri3_fd_from_fence_cookie_t);
COOKIE(xcb_dri3_get_supported_modifiers_cookie_t);
COOKIE(xcb_dri3_buffers_from_pixmap_cookie_t);

SIZE(xcb_dri3_query_version_request_t, 12);
REQUEST_HEAD(xcb_dri3_query_version_request_t);
MEMBER(xcb_dri3_query_version_request_t, major_version, uint32_t);
MEMBER(xcb_dri3_query_version_request_t, minor_version, uint32_t);

SIZE(xcb_dri3_query_version_reply_t, 16);
REPLY_HEAD(xcb_dri3_query_version_reply_t);
MEMBER(xcb_dri3_query_version_reply_t, pad0, uint8_t);
MEMBER(xcb_dri3_query_version_reply_t, major_version, uint32_t);
MEMBER(xcb_dri3_query_version_reply_t, minor_version, uint32_t);

SIZE(xcb_dri3_open_request_t, 12);
REQUEST_HEAD(xcb_dri3_open_request_t);
MEMBER(xcb_dri3_open_request_t, drawable, xcb_drawable_t);
MEMBER(xcb_dri3_open_request_t, provider, uint32_t);

SIZE(xcb_dri3_open_reply_t, 32);
REPLY_HEAD(xcb_dri3_open_reply_t);
MEMBER(xcb_dri3_open_reply_t, nfd, uint8_t);
ARRAY(xcb_dri3_open_reply_t, pad0, uint8_t, 24);

SIZE(xcb_dri3_pixmap_from_buffer_request_t, 24);
REQUEST_HEAD(xcb_dri3_pixmap_from_buffer_request_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, pixmap, xcb_pixmap_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, drawable, xcb_drawable_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, size, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, width, uint16_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, height, uint16_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, stride, uint16_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, depth, uint8_t);
MEMBER(xcb_dri3_pixmap_from_buffer_request_t, bpp, uint8_t);

SIZE(xcb_dri3_buffer_from_pixmap_request_t, 8);
REQUEST_HEAD(xcb_dri3_buffer_from_pixmap_request_t);
MEMBER(xcb_dri3_buffer_from_pixmap_request_t, pixmap, xcb_pixmap_t);

SIZE(xcb_dri3_buffer_from_pixmap_reply_t, 32);
REPLY_HEAD(xcb_dri3_buffer_from_pixmap_reply_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, nfd, uint8_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, size, uint32_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, width, uint16_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, height, uint16_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, stride, uint16_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, depth, uint8_t);
MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, bpp, uint8_t);
ARRAY(xcb_dri3_buffer_from_pixmap_reply_t, pad0, uint8_t, 12);

SIZE(xcb_dri3_fence_from_fd_request_t, 16);
REQUEST_HEAD(xcb_dri3_fence_from_fd_request_t);
MEMBER(xcb_dri3_fence_from_fd_request_t, drawable, xcb_drawable_t);
MEMBER(xcb_dri3_fence_from_fd_request_t, fence, uint32_t);
MEMBER(xcb_dri3_fence_from_fd_request_t, initially_triggered, uint8_t);
ARRAY(xcb_dri3_fence_from_fd_request_t, pad0, uint8_t, 3);

SIZE(xcb_dri3_fd_from_fence_request_t, 12);
REQUEST_HEAD(xcb_dri3_fd_from_fence_request_t);
MEMBER(xcb_dri3_fd_from_fence_request_t, drawable, xcb_drawable_t);
MEMBER(xcb_dri3_fd_from_fence_request_t, fence, uint32_t);

SIZE(xcb_dri3_fd_from_fence_reply_t, 32);
REPLY_HEAD(xcb_dri3_fd_from_fence_reply_t);
MEMBER(xcb_dri3_fd_from_fence_reply_t, nfd, uint8_t);
ARRAY(xcb_dri3_fd_from_fence_reply_t, pad0, uint8_t, 24);

SIZE(xcb_dri3_get_supported_modifiers_request_t, 12);
REQUEST_HEAD(xcb_dri3_get_supported_modifiers_request_t);
MEMBER(xcb_dri3_get_supported_modifiers_request_t, window, uint32_t);
MEMBER(xcb_dri3_get_supported_modifiers_request_t, depth, uint8_t);
MEMBER(xcb_dri3_get_supported_modifiers_request_t, bpp, uint8_t);
ARRAY(xcb_dri3_get_supported_modifiers_request_t, pad0, uint8_t, 2);

SIZE(xcb_dri3_get_supported_modifiers_reply_t, 32);
REPLY_HEAD(xcb_dri3_get_supported_modifiers_reply_t);
MEMBER(xcb_dri3_get_supported_modifiers_reply_t, pad0, uint8_t);
MEMBER(xcb_dri3_get_supported_modifiers_reply_t, num_window_modifiers, uint32_t);
MEMBER(xcb_dri3_get_supported_modifiers_reply_t, num_screen_modifiers, uint32_t);
ARRAY(xcb_dri3_get_supported_modifiers_reply_t, pad1, uint8_t, 16);

/* 64 bytes: the fixed part the design notes call easy to get wrong. */
SIZE(xcb_dri3_pixmap_from_buffers_request_t, 64);
REQUEST_HEAD(xcb_dri3_pixmap_from_buffers_request_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, pixmap, xcb_pixmap_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, window, xcb_window_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, num_buffers, uint8_t);
ARRAY(xcb_dri3_pixmap_from_buffers_request_t, pad0, uint8_t, 3);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, width, uint16_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, height, uint16_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride0, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset0, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride1, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset1, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride2, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset2, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride3, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset3, uint32_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, depth, uint8_t);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, bpp, uint8_t);
ARRAY(xcb_dri3_pixmap_from_buffers_request_t, pad1, uint8_t, 2);
MEMBER(xcb_dri3_pixmap_from_buffers_request_t, modifier, uint64_t);

SIZE(xcb_dri3_buffers_from_pixmap_request_t, 8);
REQUEST_HEAD(xcb_dri3_buffers_from_pixmap_request_t);
MEMBER(xcb_dri3_buffers_from_pixmap_request_t, pixmap, xcb_pixmap_t);

SIZE(xcb_dri3_buffers_from_pixmap_reply_t, 32);
REPLY_HEAD(xcb_dri3_buffers_from_pixmap_reply_t);
MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, nfd, uint8_t);
MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, width, uint16_t);
MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, height, uint16_t);
ARRAY(xcb_dri3_buffers_from_pixmap_reply_t, pad0, uint8_t, 4);
MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, modifier, uint64_t);
MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, depth, uint8_t);
MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, bpp, uint8_t);
ARRAY(xcb_dri3_buffers_from_pixmap_reply_t, pad1, uint8_t, 6);

SIZE(xcb_dri3_set_drm_device_in_use_request_t, 16);
REQUEST_HEAD(xcb_dri3_set_drm_device_in_use_request_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, window, xcb_window_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, drmMajor, uint32_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, drmMinor, uint32_t);

/* Present types. */
_Static_assert(_Generic((xcb_present_event_t)0, uint32_t: 1, default: 0),
               "xcb_present_event_t is uint32_t");

SIZE(xcb_present_notify_t, 8);
MEMBER(xcb_present_notify_t, window, xcb_window_t);
MEMBER(xcb_present_notify_t, serial, uint32_t);

MEMBER(xcb_present_notify_iterator_t, data, xcb_present_notify_t *);
MEMBER(xcb_present_notify_iterator_t, rem, int);
MEMBER(xcb_present_notify_iterator_t, index, int);
MEMBER(xcb_present_event_iterator_t, data, xcb_present_event_t *);
MEMBER(xcb_present_event_iterator_t, rem, int);
MEMBER(xcb_present_event_iterator_t, index, int);

COOKIE(xcb_present_query_version_cookie_t);
COOKIE(xcb_present_query_capabilities_cookie_t);

SIZE(xcb_present_query_version_request_t, 12);
REQUEST_HEAD(xcb_present_query_version_request_t);
MEMBER(xcb_present_query_version_request_t, major_version, uint32_t);
MEMBER(xcb_present_query_version_request_t, minor_version, uint32_t);

SIZE(xcb_present_query_version_reply_t, 16);
REPLY_HEAD(xcb_present_query_version_reply_t);
MEMBER(xcb_present_query_version_reply_t, pad0, uint8_t);
MEMBER(xcb_present_query_version_reply_t, major_version, uint32_t);
MEMBER(xcb_present_query_version_reply_t, minor_version, uint32_t);

/* 72 bytes: the notifies list starts right after it (18 + 2n words). */
SIZE(xcb_present_pixmap_request_t, 72);
REQUEST_HEAD(xcb_present_pixmap_request_t);
MEMBER(xcb_present_pixmap_request_t, window, xcb_window_t);
MEMBER(xcb_present_pixmap_request_t, pixmap, xcb_pixmap_t);
MEMBER(xcb_present_pixmap_request_t, serial, uint32_t);
MEMBER(xcb_present_pixmap_request_t, valid, xcb_xfixes_region_t);
MEMBER(xcb_present_pixmap_request_t, update, xcb_xfixes_region_t);
MEMBER(xcb_present_pixmap_request_t, x_off, int16_t);
MEMBER(xcb_present_pixmap_request_t, y_off, int16_t);
MEMBER(xcb_present_pixmap_request_t, target_crtc, xcb_randr_crtc_t);
MEMBER(xcb_present_pixmap_request_t, wait_fence, xcb_sync_fence_t);
MEMBER(xcb_present_pixmap_request_t, idle_fence, xcb_sync_fence_t);
MEMBER(xcb_present_pixmap_request_t, options, uint32_t);
ARRAY(xcb_present_pixmap_request_t, pad0, uint8_t, 4);
MEMBER(xcb_present_pixmap_request_t, target_msc, uint64_t);
MEMBER(xcb_present_pixmap_request_t, divisor, uint64_t);
MEMBER(xcb_present_pixmap_request_t, remainder, uint64_t);

SIZE(xcb_present_notify_msc_request_t, 40);
REQUEST_HEAD(xcb_present_notify_msc_request_t);
MEMBER(xcb_present_notify_msc_request_t, window, xcb_window_t);
MEMBER(xcb_present_notify_msc_request_t, serial, uint32_t);
ARRAY(xcb_present_notify_msc_request_t, pad0, uint8_t, 4);
MEMBER(xcb_present_notify_msc_request_t, target_msc, uint64_t);
MEMBER(xcb_present_notify_msc_request_t, divisor, uint64_t);
MEMBER(xcb_present_notify_msc_request_t, remainder, uint64_t);

SIZE(xcb_present_select_input_request_t, 16);
REQUEST_HEAD(xcb_present_select_input_request_t);
MEMBER(xcb_present_select_input_request_t, eid, xcb_present_event_t);
MEMBER(xcb_present_select_input_request_t, window, xcb_window_t);
MEMBER(xcb_present_select_input_request_t, event_mask, uint32_t);

SIZE(xcb_present_query_capabilities_request_t, 8);
REQUEST_HEAD(xcb_present_query_capabilities_request_t);
MEMBER(xcb_present_query_capabilities_request_t, target, uint32_t);

SIZE(xcb_present_query_capabilities_reply_t, 12);
REPLY_HEAD(xcb_present_query_capabilities_reply_t);
MEMBER(xcb_present_query_capabilities_reply_t, pad0, uint8_t);
MEMBER(xcb_present_query_capabilities_reply_t, capabilities, uint32_t);

SIZE(xcb_present_generic_event_t, 16);
EVENT_HEAD(xcb_present_generic_event_t);
MEMBER(xcb_present_generic_event_t, evtype, uint16_t);
ARRAY(xcb_present_generic_event_t, pad0, uint8_t, 2);
MEMBER(xcb_present_generic_event_t, event, xcb_present_event_t);

/* Event structs are the wire layout with libxcb's full_sequence inserted at
 * byte 32, hence 4 bytes over the wire size. */
SIZE(xcb_present_configure_notify_event_t, 44);
EVENT_HEAD(xcb_present_configure_notify_event_t);
MEMBER(xcb_present_configure_notify_event_t, event_type, uint16_t);
ARRAY(xcb_present_configure_notify_event_t, pad0, uint8_t, 2);
MEMBER(xcb_present_configure_notify_event_t, event, xcb_present_event_t);
MEMBER(xcb_present_configure_notify_event_t, window, xcb_window_t);
MEMBER(xcb_present_configure_notify_event_t, x, int16_t);
MEMBER(xcb_present_configure_notify_event_t, y, int16_t);
MEMBER(xcb_present_configure_notify_event_t, width, uint16_t);
MEMBER(xcb_present_configure_notify_event_t, height, uint16_t);
MEMBER(xcb_present_configure_notify_event_t, off_x, int16_t);
MEMBER(xcb_present_configure_notify_event_t, off_y, int16_t);
MEMBER(xcb_present_configure_notify_event_t, full_sequence, uint32_t);
MEMBER(xcb_present_configure_notify_event_t, pixmap_width, uint16_t);
MEMBER(xcb_present_configure_notify_event_t, pixmap_height, uint16_t);
MEMBER(xcb_present_configure_notify_event_t, pixmap_flags, uint32_t);

/* Packed (alignment 1): its 64-bit fields sit at unaligned offsets. */
SIZE(xcb_present_complete_notify_event_t, 44);
_Static_assert(_Alignof(xcb_present_complete_notify_event_t) == 1, "packed");
EVENT_HEAD(xcb_present_complete_notify_event_t);
MEMBER(xcb_present_complete_notify_event_t, event_type, uint16_t);
MEMBER(xcb_present_complete_notify_event_t, kind, uint8_t);
MEMBER(xcb_present_complete_notify_event_t, mode, uint8_t);
MEMBER(xcb_present_complete_notify_event_t, event, xcb_present_event_t);
MEMBER(xcb_present_complete_notify_event_t, window, xcb_window_t);
MEMBER(xcb_present_complete_notify_event_t, serial, uint32_t);
MEMBER(xcb_present_complete_notify_event_t, ust, uint64_t);
MEMBER(xcb_present_complete_notify_event_t, full_sequence, uint32_t);
MEMBER(xcb_present_complete_notify_event_t, msc, uint64_t);
_Static_assert(offsetof(xcb_present_complete_notify_event_t, msc) == 36, "msc after seq");

SIZE(xcb_present_idle_notify_event_t, 36);
EVENT_HEAD(xcb_present_idle_notify_event_t);
MEMBER(xcb_present_idle_notify_event_t, event_type, uint16_t);
ARRAY(xcb_present_idle_notify_event_t, pad0, uint8_t, 2);
MEMBER(xcb_present_idle_notify_event_t, event, xcb_present_event_t);
MEMBER(xcb_present_idle_notify_event_t, window, xcb_window_t);
MEMBER(xcb_present_idle_notify_event_t, serial, uint32_t);
MEMBER(xcb_present_idle_notify_event_t, pixmap, xcb_pixmap_t);
MEMBER(xcb_present_idle_notify_event_t, idle_fence, xcb_sync_fence_t);
MEMBER(xcb_present_idle_notify_event_t, full_sequence, uint32_t);

SIZE(xcb_present_redirect_notify_event_t, 108);
_Static_assert(_Alignof(xcb_present_redirect_notify_event_t) == 1, "packed");
EVENT_HEAD(xcb_present_redirect_notify_event_t);
MEMBER(xcb_present_redirect_notify_event_t, event_type, uint16_t);
MEMBER(xcb_present_redirect_notify_event_t, update_window, uint8_t);
MEMBER(xcb_present_redirect_notify_event_t, pad0, uint8_t);
MEMBER(xcb_present_redirect_notify_event_t, event, xcb_present_event_t);
MEMBER(xcb_present_redirect_notify_event_t, event_window, xcb_window_t);
MEMBER(xcb_present_redirect_notify_event_t, window, xcb_window_t);
MEMBER(xcb_present_redirect_notify_event_t, pixmap, xcb_pixmap_t);
MEMBER(xcb_present_redirect_notify_event_t, serial, uint32_t);
MEMBER(xcb_present_redirect_notify_event_t, full_sequence, uint32_t);
MEMBER(xcb_present_redirect_notify_event_t, valid_region, xcb_xfixes_region_t);
MEMBER(xcb_present_redirect_notify_event_t, update_region, xcb_xfixes_region_t);
MEMBER(xcb_present_redirect_notify_event_t, valid_rect, xcb_rectangle_t);
MEMBER(xcb_present_redirect_notify_event_t, update_rect, xcb_rectangle_t);
MEMBER(xcb_present_redirect_notify_event_t, x_off, int16_t);
MEMBER(xcb_present_redirect_notify_event_t, y_off, int16_t);
MEMBER(xcb_present_redirect_notify_event_t, target_crtc, xcb_randr_crtc_t);
MEMBER(xcb_present_redirect_notify_event_t, wait_fence, xcb_sync_fence_t);
MEMBER(xcb_present_redirect_notify_event_t, idle_fence, xcb_sync_fence_t);
MEMBER(xcb_present_redirect_notify_event_t, options, uint32_t);
ARRAY(xcb_present_redirect_notify_event_t, pad1, uint8_t, 4);
MEMBER(xcb_present_redirect_notify_event_t, target_msc, uint64_t);
MEMBER(xcb_present_redirect_notify_event_t, divisor, uint64_t);
MEMBER(xcb_present_redirect_notify_event_t, remainder, uint64_t);

/* Each constant belongs to its enum type: gcc's -Wswitch (in -Wall) rejects a
 * case label that is not a member of the switched enum.  The default label
 * keeps the check valid when an enum gains members (ours adds 1.3/1.4 ones). */
static int enum_event(xcb_present_event_enum_t v)
{
    switch (v) {
    case XCB_PRESENT_EVENT_CONFIGURE_NOTIFY:
    case XCB_PRESENT_EVENT_COMPLETE_NOTIFY:
    case XCB_PRESENT_EVENT_IDLE_NOTIFY:
    case XCB_PRESENT_EVENT_REDIRECT_NOTIFY:
        return 1;
    default:
        return 0;
    }
}

static int enum_event_mask(xcb_present_event_mask_t v)
{
    switch (v) {
    case XCB_PRESENT_EVENT_MASK_NO_EVENT:
    case XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY:
    case XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY:
    case XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY:
    case XCB_PRESENT_EVENT_MASK_REDIRECT_NOTIFY:
        return 1;
    default:
        return 0;
    }
}

static int enum_option(xcb_present_option_t v)
{
    switch (v) {
    case XCB_PRESENT_OPTION_NONE:
    case XCB_PRESENT_OPTION_ASYNC:
    case XCB_PRESENT_OPTION_COPY:
    case XCB_PRESENT_OPTION_UST:
    case XCB_PRESENT_OPTION_SUBOPTIMAL:
        return 1;
    default:
        return 0;
    }
}

static int enum_capability(xcb_present_capability_t v)
{
    switch (v) {
    case XCB_PRESENT_CAPABILITY_NONE:
    case XCB_PRESENT_CAPABILITY_ASYNC:
    case XCB_PRESENT_CAPABILITY_FENCE:
    case XCB_PRESENT_CAPABILITY_UST:
        return 1;
    default:
        return 0;
    }
}

static int enum_complete_kind(xcb_present_complete_kind_t v)
{
    switch (v) {
    case XCB_PRESENT_COMPLETE_KIND_PIXMAP:
    case XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC:
        return 1;
    default:
        return 0;
    }
}

static int enum_complete_mode(xcb_present_complete_mode_t v)
{
    switch (v) {
    case XCB_PRESENT_COMPLETE_MODE_COPY:
    case XCB_PRESENT_COMPLETE_MODE_FLIP:
    case XCB_PRESENT_COMPLETE_MODE_SKIP:
    case XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY:
        return 1;
    default:
        return 0;
    }
}

/* ---- every function, by its exact prototype ---------------------------- */

static void test_functions(void)
{
    const struct fn fns[] = {
        /* DRI3 */
        FN(xcb_dri3_query_version_cookie_t, xcb_dri3_query_version,
           (xcb_connection_t *, uint32_t, uint32_t)),
        FN(xcb_dri3_query_version_cookie_t, xcb_dri3_query_version_unchecked,
           (xcb_connection_t *, uint32_t, uint32_t)),
        FN(xcb_dri3_query_version_reply_t *, xcb_dri3_query_version_reply,
           (xcb_connection_t *, xcb_dri3_query_version_cookie_t, xcb_generic_error_t **)),
        FN(xcb_dri3_open_cookie_t, xcb_dri3_open,
           (xcb_connection_t *, xcb_drawable_t, uint32_t)),
        FN(xcb_dri3_open_cookie_t, xcb_dri3_open_unchecked,
           (xcb_connection_t *, xcb_drawable_t, uint32_t)),
        FN(xcb_dri3_open_reply_t *, xcb_dri3_open_reply,
           (xcb_connection_t *, xcb_dri3_open_cookie_t, xcb_generic_error_t **)),
        FN(int *, xcb_dri3_open_reply_fds,
           (xcb_connection_t *, xcb_dri3_open_reply_t *)),
        FN(xcb_void_cookie_t, xcb_dri3_pixmap_from_buffer_checked,
           (xcb_connection_t *, xcb_pixmap_t, xcb_drawable_t, uint32_t, uint16_t, uint16_t,
            uint16_t, uint8_t, uint8_t, int32_t)),
        FN(xcb_void_cookie_t, xcb_dri3_pixmap_from_buffer,
           (xcb_connection_t *, xcb_pixmap_t, xcb_drawable_t, uint32_t, uint16_t, uint16_t,
            uint16_t, uint8_t, uint8_t, int32_t)),
        FN(xcb_dri3_buffer_from_pixmap_cookie_t, xcb_dri3_buffer_from_pixmap,
           (xcb_connection_t *, xcb_pixmap_t)),
        FN(xcb_dri3_buffer_from_pixmap_cookie_t, xcb_dri3_buffer_from_pixmap_unchecked,
           (xcb_connection_t *, xcb_pixmap_t)),
        FN(xcb_dri3_buffer_from_pixmap_reply_t *, xcb_dri3_buffer_from_pixmap_reply,
           (xcb_connection_t *, xcb_dri3_buffer_from_pixmap_cookie_t,
            xcb_generic_error_t **)),
        FN(int *, xcb_dri3_buffer_from_pixmap_reply_fds,
           (xcb_connection_t *, xcb_dri3_buffer_from_pixmap_reply_t *)),
        FN(xcb_void_cookie_t, xcb_dri3_fence_from_fd_checked,
           (xcb_connection_t *, xcb_drawable_t, uint32_t, uint8_t, int32_t)),
        FN(xcb_void_cookie_t, xcb_dri3_fence_from_fd,
           (xcb_connection_t *, xcb_drawable_t, uint32_t, uint8_t, int32_t)),
        FN(xcb_dri3_fd_from_fence_cookie_t, xcb_dri3_fd_from_fence,
           (xcb_connection_t *, xcb_drawable_t, uint32_t)),
        FN(xcb_dri3_fd_from_fence_cookie_t, xcb_dri3_fd_from_fence_unchecked,
           (xcb_connection_t *, xcb_drawable_t, uint32_t)),
        FN(xcb_dri3_fd_from_fence_reply_t *, xcb_dri3_fd_from_fence_reply,
           (xcb_connection_t *, xcb_dri3_fd_from_fence_cookie_t, xcb_generic_error_t **)),
        FN(int *, xcb_dri3_fd_from_fence_reply_fds,
           (xcb_connection_t *, xcb_dri3_fd_from_fence_reply_t *)),
        FN(int, xcb_dri3_get_supported_modifiers_sizeof, (const void *)),
        FN(xcb_dri3_get_supported_modifiers_cookie_t, xcb_dri3_get_supported_modifiers,
           (xcb_connection_t *, uint32_t, uint8_t, uint8_t)),
        FN(xcb_dri3_get_supported_modifiers_cookie_t,
           xcb_dri3_get_supported_modifiers_unchecked,
           (xcb_connection_t *, uint32_t, uint8_t, uint8_t)),
        FN(uint64_t *, xcb_dri3_get_supported_modifiers_window_modifiers,
           (const xcb_dri3_get_supported_modifiers_reply_t *)),
        FN(int, xcb_dri3_get_supported_modifiers_window_modifiers_length,
           (const xcb_dri3_get_supported_modifiers_reply_t *)),
        FN(xcb_generic_iterator_t, xcb_dri3_get_supported_modifiers_window_modifiers_end,
           (const xcb_dri3_get_supported_modifiers_reply_t *)),
        FN(uint64_t *, xcb_dri3_get_supported_modifiers_screen_modifiers,
           (const xcb_dri3_get_supported_modifiers_reply_t *)),
        FN(int, xcb_dri3_get_supported_modifiers_screen_modifiers_length,
           (const xcb_dri3_get_supported_modifiers_reply_t *)),
        FN(xcb_generic_iterator_t, xcb_dri3_get_supported_modifiers_screen_modifiers_end,
           (const xcb_dri3_get_supported_modifiers_reply_t *)),
        FN(xcb_dri3_get_supported_modifiers_reply_t *, xcb_dri3_get_supported_modifiers_reply,
           (xcb_connection_t *, xcb_dri3_get_supported_modifiers_cookie_t,
            xcb_generic_error_t **)),
        FN(xcb_void_cookie_t, xcb_dri3_pixmap_from_buffers_checked,
           (xcb_connection_t *, xcb_pixmap_t, xcb_window_t, uint8_t, uint16_t, uint16_t,
            uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
            uint8_t, uint8_t, uint64_t, const int32_t *)),
        FN(xcb_void_cookie_t, xcb_dri3_pixmap_from_buffers,
           (xcb_connection_t *, xcb_pixmap_t, xcb_window_t, uint8_t, uint16_t, uint16_t,
            uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
            uint8_t, uint8_t, uint64_t, const int32_t *)),
        FN(int, xcb_dri3_buffers_from_pixmap_sizeof, (const void *, int32_t)),
        FN(xcb_dri3_buffers_from_pixmap_cookie_t, xcb_dri3_buffers_from_pixmap,
           (xcb_connection_t *, xcb_pixmap_t)),
        FN(xcb_dri3_buffers_from_pixmap_cookie_t, xcb_dri3_buffers_from_pixmap_unchecked,
           (xcb_connection_t *, xcb_pixmap_t)),
        FN(uint32_t *, xcb_dri3_buffers_from_pixmap_strides,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(int, xcb_dri3_buffers_from_pixmap_strides_length,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(xcb_generic_iterator_t, xcb_dri3_buffers_from_pixmap_strides_end,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(uint32_t *, xcb_dri3_buffers_from_pixmap_offsets,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(int, xcb_dri3_buffers_from_pixmap_offsets_length,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(xcb_generic_iterator_t, xcb_dri3_buffers_from_pixmap_offsets_end,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(int32_t *, xcb_dri3_buffers_from_pixmap_buffers,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(int, xcb_dri3_buffers_from_pixmap_buffers_length,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(xcb_generic_iterator_t, xcb_dri3_buffers_from_pixmap_buffers_end,
           (const xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(xcb_dri3_buffers_from_pixmap_reply_t *, xcb_dri3_buffers_from_pixmap_reply,
           (xcb_connection_t *, xcb_dri3_buffers_from_pixmap_cookie_t,
            xcb_generic_error_t **)),
        FN(int *, xcb_dri3_buffers_from_pixmap_reply_fds,
           (xcb_connection_t *, xcb_dri3_buffers_from_pixmap_reply_t *)),
        FN(xcb_void_cookie_t, xcb_dri3_set_drm_device_in_use_checked,
           (xcb_connection_t *, xcb_window_t, uint32_t, uint32_t)),
        FN(xcb_void_cookie_t, xcb_dri3_set_drm_device_in_use,
           (xcb_connection_t *, xcb_window_t, uint32_t, uint32_t)),

        /* Present */
        FN(void, xcb_present_notify_next, (xcb_present_notify_iterator_t *)),
        FN(xcb_generic_iterator_t, xcb_present_notify_end, (xcb_present_notify_iterator_t)),
        FN(xcb_present_query_version_cookie_t, xcb_present_query_version,
           (xcb_connection_t *, uint32_t, uint32_t)),
        FN(xcb_present_query_version_cookie_t, xcb_present_query_version_unchecked,
           (xcb_connection_t *, uint32_t, uint32_t)),
        FN(xcb_present_query_version_reply_t *, xcb_present_query_version_reply,
           (xcb_connection_t *, xcb_present_query_version_cookie_t, xcb_generic_error_t **)),
        FN(int, xcb_present_pixmap_sizeof, (const void *, uint32_t)),
        FN(xcb_void_cookie_t, xcb_present_pixmap_checked,
           (xcb_connection_t *, xcb_window_t, xcb_pixmap_t, uint32_t, xcb_xfixes_region_t,
            xcb_xfixes_region_t, int16_t, int16_t, xcb_randr_crtc_t, xcb_sync_fence_t,
            xcb_sync_fence_t, uint32_t, uint64_t, uint64_t, uint64_t, uint32_t,
            const xcb_present_notify_t *)),
        FN(xcb_void_cookie_t, xcb_present_pixmap,
           (xcb_connection_t *, xcb_window_t, xcb_pixmap_t, uint32_t, xcb_xfixes_region_t,
            xcb_xfixes_region_t, int16_t, int16_t, xcb_randr_crtc_t, xcb_sync_fence_t,
            xcb_sync_fence_t, uint32_t, uint64_t, uint64_t, uint64_t, uint32_t,
            const xcb_present_notify_t *)),
        FN(xcb_present_notify_t *, xcb_present_pixmap_notifies,
           (const xcb_present_pixmap_request_t *)),
        FN(int, xcb_present_pixmap_notifies_length, (const xcb_present_pixmap_request_t *)),
        FN(xcb_present_notify_iterator_t, xcb_present_pixmap_notifies_iterator,
           (const xcb_present_pixmap_request_t *)),
        FN(xcb_void_cookie_t, xcb_present_notify_msc_checked,
           (xcb_connection_t *, xcb_window_t, uint32_t, uint64_t, uint64_t, uint64_t)),
        FN(xcb_void_cookie_t, xcb_present_notify_msc,
           (xcb_connection_t *, xcb_window_t, uint32_t, uint64_t, uint64_t, uint64_t)),
        FN(void, xcb_present_event_next, (xcb_present_event_iterator_t *)),
        FN(xcb_generic_iterator_t, xcb_present_event_end, (xcb_present_event_iterator_t)),
        FN(xcb_void_cookie_t, xcb_present_select_input_checked,
           (xcb_connection_t *, xcb_present_event_t, xcb_window_t, uint32_t)),
        FN(xcb_void_cookie_t, xcb_present_select_input,
           (xcb_connection_t *, xcb_present_event_t, xcb_window_t, uint32_t)),
        FN(xcb_present_query_capabilities_cookie_t, xcb_present_query_capabilities,
           (xcb_connection_t *, uint32_t)),
        FN(xcb_present_query_capabilities_cookie_t, xcb_present_query_capabilities_unchecked,
           (xcb_connection_t *, uint32_t)),
        FN(xcb_present_query_capabilities_reply_t *, xcb_present_query_capabilities_reply,
           (xcb_connection_t *, xcb_present_query_capabilities_cookie_t,
            xcb_generic_error_t **)),
        FN(int, xcb_present_redirect_notify_sizeof, (const void *, uint32_t)),
        FN(xcb_present_notify_t *, xcb_present_redirect_notify_notifies,
           (const xcb_present_redirect_notify_event_t *)),
        FN(int, xcb_present_redirect_notify_notifies_length,
           (const xcb_present_redirect_notify_event_t *)),
        FN(xcb_present_notify_iterator_t, xcb_present_redirect_notify_notifies_iterator,
           (const xcb_present_redirect_notify_event_t *)),
    };
    size_t n = sizeof(fns) / sizeof(fns[0]);

    /* 47 DRI3 + 24 Present functions are all that libxcb 1.15 declares. */
    CHECK_EQ(n, 71);
    for (size_t i = 0; i < n; i++) {
        if (fns[i].addr == NULL) {
            printf("# %s resolved to NULL\n", fns[i].name);
            test_failed = 1;
        }
    }
}

/* ---- extension ids ------------------------------------------------------ */

static void test_extension_ids(void)
{
    /* libxcb matches these names against QueryExtension; global_id is 0 until
     * the first xcb_get_extension_data() on them, and nothing has run yet. */
    xcb_extension_t *dri3 = &xcb_dri3_id;
    xcb_extension_t *present = &xcb_present_id;

    CHECK(dri3->name != NULL && strcmp(dri3->name, "DRI3") == 0);
    CHECK(present->name != NULL && strcmp(present->name, "Present") == 0);
    CHECK_EQ(dri3->global_id, 0);
    CHECK_EQ(present->global_id, 0);
}

/* ---- enums -------------------------------------------------------------- */

static void test_enums(void)
{
    CHECK(enum_event(XCB_PRESENT_EVENT_REDIRECT_NOTIFY));
    CHECK(enum_event_mask(XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY));
    CHECK(enum_option(XCB_PRESENT_OPTION_SUBOPTIMAL));
    CHECK(enum_capability(XCB_PRESENT_CAPABILITY_UST));
    CHECK(enum_complete_kind(XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC));
    CHECK(enum_complete_mode(XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY));
    /* Enum types are int-sized, as libxcb's are. */
    CHECK_EQ(sizeof(xcb_present_option_t), sizeof(int));
}

/* ---- accessors on local buffers ----------------------------------------- */

/* Replies and requests as they lie in memory, aligned like libxcb's
 * malloc()ed buffers. */
union buf {
    uint64_t align;
    unsigned char bytes[512];
};

static void test_dri3_reply_fds(void)
{
    union buf b;
    xcb_connection_t *c;

    /* The fds follow the reply's 32 + 4 * length bytes.  No request is made:
     * the accessor only computes that address (libxcb ignores c), but a real,
     * errored connection is passed rather than NULL. */
    c = xcb_connect(":not-a-display-number", NULL);
    CHECK(c != NULL);
    if (c == NULL)
        return;

    memset(&b, 0, sizeof(b));
    xcb_dri3_open_reply_t *open = (xcb_dri3_open_reply_t *)b.bytes;
    open->nfd = 1;
    open->length = 3;
    CHECK_EQ(OFF(xcb_dri3_open_reply_fds(c, open), b.bytes), 32 + 12);

    xcb_dri3_buffer_from_pixmap_reply_t *bfp = (xcb_dri3_buffer_from_pixmap_reply_t *)b.bytes;
    bfp->length = 0;
    CHECK_EQ(OFF(xcb_dri3_buffer_from_pixmap_reply_fds(c, bfp), b.bytes), 32);

    xcb_dri3_fd_from_fence_reply_t *ffe = (xcb_dri3_fd_from_fence_reply_t *)b.bytes;
    ffe->length = 1;
    CHECK_EQ(OFF(xcb_dri3_fd_from_fence_reply_fds(c, ffe), b.bytes), 36);

    xcb_dri3_buffers_from_pixmap_reply_t *bsfp = (xcb_dri3_buffers_from_pixmap_reply_t *)b.bytes;
    bsfp->nfd = 2;
    bsfp->length = 4;
    CHECK_EQ(OFF(xcb_dri3_buffers_from_pixmap_reply_fds(c, bsfp), b.bytes), 48);

    xcb_disconnect(c);
}

static void test_dri3_get_supported_modifiers(void)
{
    union buf b;
    xcb_generic_iterator_t end;

    memset(&b, 0, sizeof(b));
    xcb_dri3_get_supported_modifiers_reply_t *r =
        (xcb_dri3_get_supported_modifiers_reply_t *)b.bytes;
    r->response_type = 1;      /* X_Reply */
    r->num_window_modifiers = 2;
    r->num_screen_modifiers = 3;
    r->length = 2 * (2 + 3);
    uint64_t mods[5] = { 1, 2, 0x00ffffffffffffffull, 4, 5 };
    memcpy(b.bytes + 32, mods, sizeof(mods));

    /* The window list follows the 32-byte reply, the screen list follows it,
     * and an _end iterator's index is its byte offset from the reply. */
    CHECK_EQ(xcb_dri3_get_supported_modifiers_sizeof(r), 32 + 5 * 8);
    CHECK_EQ(OFF(xcb_dri3_get_supported_modifiers_window_modifiers(r), r), 32);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_window_modifiers_length(r), 2);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_window_modifiers(r)[1], 2);
    end = xcb_dri3_get_supported_modifiers_window_modifiers_end(r);
    CHECK_EQ(OFF(end.data, r), 48);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 48);
    CHECK_EQ(OFF(xcb_dri3_get_supported_modifiers_screen_modifiers(r), r), 48);
    CHECK_EQ(xcb_dri3_get_supported_modifiers_screen_modifiers_length(r), 3);
    CHECK(xcb_dri3_get_supported_modifiers_screen_modifiers(r)[0] == 0x00ffffffffffffffull);
    end = xcb_dri3_get_supported_modifiers_screen_modifiers_end(r);
    CHECK_EQ(OFF(end.data, r), 72);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 72);
}

static void test_dri3_buffers_from_pixmap(void)
{
    union buf b;
    xcb_generic_iterator_t end;

    memset(&b, 0, sizeof(b));
    xcb_dri3_buffers_from_pixmap_reply_t *r = (xcb_dri3_buffers_from_pixmap_reply_t *)b.bytes;
    r->response_type = 1;      /* X_Reply */
    r->nfd = 2;
    r->length = 4;      /* strides and offsets; the fds are not in the data */
    r->width = 640;
    r->height = 480;
    r->modifier = 0;
    r->depth = 24;
    r->bpp = 32;

    CHECK_EQ(OFF(xcb_dri3_buffers_from_pixmap_strides(r), r), 32);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_strides_length(r), 2);
    end = xcb_dri3_buffers_from_pixmap_strides_end(r);
    CHECK_EQ(OFF(end.data, r), 40);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 40);
    CHECK_EQ(OFF(xcb_dri3_buffers_from_pixmap_offsets(r), r), 40);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_offsets_length(r), 2);
    end = xcb_dri3_buffers_from_pixmap_offsets_end(r);
    CHECK_EQ(OFF(end.data, r), 48);
    CHECK_EQ(end.index, 48);
    /* The "buffers" list is where the fds are appended, after the data. */
    CHECK_EQ(OFF(xcb_dri3_buffers_from_pixmap_buffers(r), r), 48);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_buffers_length(r), 2);
    end = xcb_dri3_buffers_from_pixmap_buffers_end(r);
    CHECK_EQ(OFF(end.data, r), 56);
    CHECK_EQ(end.index, 56);
    /* sizeof counts wire bytes only, whatever its (fd list) argument says. */
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_sizeof(r, 0), 48);
    CHECK_EQ(xcb_dri3_buffers_from_pixmap_sizeof(r, 2), 48);
}

static void test_present_pixmap_notifies(void)
{
    union buf b;
    xcb_present_notify_iterator_t it;
    xcb_generic_iterator_t end;

    memset(&b, 0, sizeof(b));
    xcb_present_pixmap_request_t *r = (xcb_present_pixmap_request_t *)b.bytes;
    r->major_opcode = 140;
    r->minor_opcode = XCB_PRESENT_PIXMAP;
    r->length = 18 + 2 * 3;     /* 72 fixed bytes and three notifies */
    r->window = 0x200001;
    r->pixmap = 0x200002;
    r->serial = 7;
    r->valid = XCB_NONE;
    r->update = XCB_NONE;
    r->x_off = -1;
    r->y_off = -2;
    r->target_crtc = XCB_NONE;
    r->wait_fence = XCB_NONE;
    r->idle_fence = XCB_NONE;
    r->options = XCB_PRESENT_OPTION_NONE;
    r->target_msc = 100;
    r->divisor = 0;
    r->remainder = 0;
    xcb_present_notify_t notifies[3] = { { 0x300001, 1 }, { 0x300002, 2 }, { 0x300003, 3 } };
    memcpy(b.bytes + 72, notifies, sizeof(notifies));

    CHECK_EQ(xcb_present_pixmap_sizeof(r, 0), 72);
    CHECK_EQ(xcb_present_pixmap_sizeof(r, 3), 96);
    CHECK_EQ(OFF(xcb_present_pixmap_notifies(r), r), 72);
    CHECK_EQ(xcb_present_pixmap_notifies_length(r), 3);

    it = xcb_present_pixmap_notifies_iterator(r);
    CHECK_EQ(OFF(it.data, r), 72);
    CHECK_EQ(it.rem, 3);
    CHECK_EQ(it.index, 72);
    CHECK_EQ(it.data->window, 0x300001);
    xcb_present_notify_next(&it);
    CHECK_EQ(OFF(it.data, r), 80);
    CHECK_EQ(it.rem, 2);
    CHECK_EQ(it.index, 80);
    CHECK_EQ(it.data->serial, 2);
    end = xcb_present_notify_end(it);
    CHECK_EQ(OFF(end.data, r), 96);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 96);
}

static void test_present_redirect_notify(void)
{
    union buf b;
    xcb_present_notify_iterator_t it;

    memset(&b, 0, sizeof(b));
    xcb_present_redirect_notify_event_t *e = (xcb_present_redirect_notify_event_t *)b.bytes;
    e->response_type = XCB_GE_GENERIC;
    e->event_type = XCB_PRESENT_REDIRECT_NOTIFY;
    e->length = (104 - 32) / 4 + 2;     /* one notify on the wire */
    e->update_window = 1;
    e->valid_rect.width = 10;
    e->update_rect.height = 20;
    e->remainder = 1;

    /* In memory the list follows the struct (full_sequence moved it 4 bytes
     * along).  The length accessor's value is left to the wire tests: libxcb
     * derives it from length as if this were a request. */
    CHECK_EQ(xcb_present_redirect_notify_sizeof(e, 0), 108);
    CHECK_EQ(xcb_present_redirect_notify_sizeof(e, 1), 116);
    CHECK_EQ(OFF(xcb_present_redirect_notify_notifies(e), e), 108);
    it = xcb_present_redirect_notify_notifies_iterator(e);
    CHECK_EQ(OFF(it.data, e), 108);
    CHECK_EQ(it.index, 108);
    CHECK_EQ(it.rem, xcb_present_redirect_notify_notifies_length(e));
}

static void test_present_event_iterator(void)
{
    xcb_present_event_t eids[3] = { 0x400001, 0x400002, 0x400003 };
    xcb_present_event_iterator_t it = { eids, 3, 0 };
    xcb_generic_iterator_t end;

    xcb_present_event_next(&it);
    CHECK(it.data == &eids[1]);
    CHECK_EQ(it.rem, 2);
    CHECK_EQ(it.index, (int)sizeof(xcb_present_event_t));
    end = xcb_present_event_end(it);
    CHECK(end.data == &eids[3]);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 3 * (int)sizeof(xcb_present_event_t));

    xcb_present_notify_t n[2] = { { 1, 1 }, { 2, 2 } };
    xcb_present_notify_iterator_t nit = { n, 2, 0 };
    end = xcb_present_notify_end(nit);
    CHECK(end.data == &n[2]);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 2 * (int)sizeof(xcb_present_notify_t));
}

/* ---- requests on an errored connection ---------------------------------- */

/* Every request function is called once with well-typed arguments on the
 * error connection libxcb returns for an unparsable display: nothing can be
 * sent, so each returns sequence 0, each reply function returns NULL and
 * clears *e, and each fd handed over is closed all the same (fds belong to
 * libxcb once passed, even on failure). */
static void test_requests_on_error_connection(void)
{
    xcb_connection_t *c = xcb_connect(":not-a-display-number", NULL);
    xcb_generic_error_t *e;
    int fd, fds[2];

    CHECK(c != NULL);
    if (c == NULL)
        return;
    CHECK(xcb_connection_has_error(c) != 0);

#define NO_REPLY(call)                                                       \
    do {                                                                     \
        e = (xcb_generic_error_t *)&e; /* any non-NULL value */              \
        CHECK((call) == NULL);                                               \
        CHECK(e == NULL);                                                    \
    } while (0)

    /* DRI3 */
    xcb_dri3_query_version_cookie_t qv = xcb_dri3_query_version(c, 1, 2);
    CHECK_EQ(qv.sequence, 0);
    qv = xcb_dri3_query_version_unchecked(c, XCB_DRI3_MAJOR_VERSION, XCB_DRI3_MINOR_VERSION);
    CHECK_EQ(qv.sequence, 0);
    NO_REPLY(xcb_dri3_query_version_reply(c, qv, &e));

    xcb_dri3_open_cookie_t op = xcb_dri3_open(c, 0x100, 0);
    CHECK_EQ(op.sequence, 0);
    op = xcb_dri3_open_unchecked(c, 0x100, XCB_NONE);
    NO_REPLY(xcb_dri3_open_reply(c, op, &e));

    fd = new_fd();
    CHECK_EQ(xcb_dri3_pixmap_from_buffer_checked(c, 0x101, 0x100, 4096, 32, 32, 128, 24, 32,
                                                 fd).sequence, 0);
    CHECK(fd_is_closed(fd));
    fd = new_fd();
    CHECK_EQ(xcb_dri3_pixmap_from_buffer(c, 0x101, 0x100, 4096, 32, 32, 128, 24, 32,
                                         fd).sequence, 0);
    CHECK(fd_is_closed(fd));

    xcb_dri3_buffer_from_pixmap_cookie_t bfp = xcb_dri3_buffer_from_pixmap(c, 0x101);
    CHECK_EQ(bfp.sequence, 0);
    bfp = xcb_dri3_buffer_from_pixmap_unchecked(c, 0x101);
    NO_REPLY(xcb_dri3_buffer_from_pixmap_reply(c, bfp, &e));

    fd = new_fd();
    CHECK_EQ(xcb_dri3_fence_from_fd_checked(c, 0x100, 0x102, 0, fd).sequence, 0);
    CHECK(fd_is_closed(fd));
    fd = new_fd();
    CHECK_EQ(xcb_dri3_fence_from_fd(c, 0x100, 0x102, 1, fd).sequence, 0);
    CHECK(fd_is_closed(fd));

    xcb_dri3_fd_from_fence_cookie_t ffe = xcb_dri3_fd_from_fence(c, 0x100, 0x102);
    CHECK_EQ(ffe.sequence, 0);
    ffe = xcb_dri3_fd_from_fence_unchecked(c, 0x100, 0x102);
    NO_REPLY(xcb_dri3_fd_from_fence_reply(c, ffe, &e));

    xcb_dri3_get_supported_modifiers_cookie_t gsm =
        xcb_dri3_get_supported_modifiers(c, 0x100, 24, 32);
    CHECK_EQ(gsm.sequence, 0);
    gsm = xcb_dri3_get_supported_modifiers_unchecked(c, 0x100, 24, 32);
    NO_REPLY(xcb_dri3_get_supported_modifiers_reply(c, gsm, &e));

    fds[0] = new_fd();
    fds[1] = new_fd();
    CHECK_EQ(xcb_dri3_pixmap_from_buffers_checked(c, 0x103, 0x100, 2, 64, 64, 256, 0, 128,
                                                  16384, 0, 0, 0, 0, 24, 32, 0,
                                                  fds).sequence, 0);
    CHECK(fd_is_closed(fds[0]) && fd_is_closed(fds[1]));
    fds[0] = new_fd();
    fds[1] = new_fd();
    CHECK_EQ(xcb_dri3_pixmap_from_buffers(c, 0x103, 0x100, 2, 64, 64, 256, 0, 128, 16384,
                                          0, 0, 0, 0, 24, 32, UINT64_C(0x00ffffffffffffff),
                                          fds).sequence, 0);
    CHECK(fd_is_closed(fds[0]) && fd_is_closed(fds[1]));

    xcb_dri3_buffers_from_pixmap_cookie_t bsfp = xcb_dri3_buffers_from_pixmap(c, 0x103);
    CHECK_EQ(bsfp.sequence, 0);
    bsfp = xcb_dri3_buffers_from_pixmap_unchecked(c, 0x103);
    NO_REPLY(xcb_dri3_buffers_from_pixmap_reply(c, bsfp, &e));

    CHECK_EQ(xcb_dri3_set_drm_device_in_use_checked(c, 0x100, 226, 128).sequence, 0);
    CHECK_EQ(xcb_dri3_set_drm_device_in_use(c, 0x100, 226, 128).sequence, 0);

    /* Present */
    xcb_present_query_version_cookie_t pqv = xcb_present_query_version(c, 1, 2);
    CHECK_EQ(pqv.sequence, 0);
    pqv = xcb_present_query_version_unchecked(c, XCB_PRESENT_MAJOR_VERSION,
                                              XCB_PRESENT_MINOR_VERSION);
    NO_REPLY(xcb_present_query_version_reply(c, pqv, &e));

    const xcb_present_notify_t notifies[2] = { { 0x200, 1 }, { 0x201, 2 } };
    CHECK_EQ(xcb_present_pixmap_checked(c, 0x100, 0x101, 1, XCB_NONE, XCB_NONE, 0, 0,
                                        XCB_NONE, XCB_NONE, XCB_NONE,
                                        XCB_PRESENT_OPTION_NONE, 0, 0, 0, 0,
                                        NULL).sequence, 0);
    CHECK_EQ(xcb_present_pixmap(c, 0x100, 0x101, 2, XCB_NONE, XCB_NONE, -3, 4, XCB_NONE,
                                XCB_NONE, XCB_NONE,
                                XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_COPY,
                                100, 2, 1, 2, notifies).sequence, 0);

    CHECK_EQ(xcb_present_notify_msc_checked(c, 0x100, 3, 100, 0, 0).sequence, 0);
    CHECK_EQ(xcb_present_notify_msc(c, 0x100, 4, 0, 2, 1).sequence, 0);

    CHECK_EQ(xcb_present_select_input_checked(c, 0x104, 0x100,
                                              XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
                                              XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                                              XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY).sequence, 0);
    CHECK_EQ(xcb_present_select_input(c, 0x104, 0x100,
                                      XCB_PRESENT_EVENT_MASK_NO_EVENT).sequence, 0);

    xcb_present_query_capabilities_cookie_t qc = xcb_present_query_capabilities(c, 0x100);
    CHECK_EQ(qc.sequence, 0);
    qc = xcb_present_query_capabilities_unchecked(c, 0x100);
    NO_REPLY(xcb_present_query_capabilities_reply(c, qc, &e));

#undef NO_REPLY

    /* Nothing above may have touched the extension ids: no request was sent
     * and no extension data was looked up. */
    CHECK(strcmp(xcb_dri3_id.name, "DRI3") == 0);
    CHECK(strcmp(xcb_present_id.name, "Present") == 0);

    xcb_disconnect(c);
}

int main(void)
{
    /* The extension ids first, before anything could have used them. */
    run("extension ids xcb_dri3_id and xcb_present_id", test_extension_ids);
    run("every 1.15 function has its 1.15 prototype", test_functions);
    run("enum constants belong to their enum types", test_enums);
    run("DRI3 *_reply_fds point after the reply data", test_dri3_reply_fds);
    run("DRI3 GetSupportedModifiers reply accessors", test_dri3_get_supported_modifiers);
    run("DRI3 BuffersFromPixmap reply accessors", test_dri3_buffers_from_pixmap);
    run("Present PresentPixmap request notifies accessors", test_present_pixmap_notifies);
    run("Present RedirectNotify event notifies accessors", test_present_redirect_notify);
    run("Present event and notify iterators", test_present_event_iterator);
    run("every request on an errored connection: seq 0, NULL replies, fds closed",
        test_requests_on_error_connection);
    printf("1..%d\n", test_count);
    return any_failed ? 1 : 0;
}
