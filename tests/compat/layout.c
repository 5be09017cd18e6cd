/*
 * Prints the ABI-visible shape of every type and the value of every constant
 * that libxcb 1.15's <xcb/dri3.h> and <xcb/present.h> declare, one fact per
 * line.  The build compiles this file twice, once against Debian's headers and
 * once against ours, and layout-compare.sh diffs the two outputs: a program
 * compiled against one header set and run against the other library only works
 * if all of these agree.
 *
 * Output lines (the second field is the group layout-compare.sh reports on):
 *   type   <type> <sizeof> <alignof>
 *   member <type> <member> <offsetof> <sizeof> <kind>
 *   enum   <enum type> <NAME> <value>
 *   define <dri3|present> <NAME> <value>
 * <kind> is the member's C type class (u8 ... i64, a pointer or a nested
 * struct), so that a signedness change, which keeps size and offset, shows too.
 *
 * Only the 1.15 names are listed: the 1.3/1.4 additions exist in our headers
 * alone and api-use-14.c checks their layout with static assertions.
 *
 * Needs no library: only sizeof, offsetof and constants are used.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <xcb/dri3.h>
#include <xcb/present.h>

/* The class of an lvalue's type.  &(x) rather than (x) because _Generic's
 * lvalue conversion would drop qualifiers and decay arrays. */
#define KIND(x) _Generic(&(x),                              \
    uint8_t *: "u8", int8_t *: "i8",                        \
    uint16_t *: "u16", int16_t *: "i16",                    \
    uint32_t *: "u32", int32_t *: "i32",                    \
    uint64_t *: "u64", int64_t *: "i64",                    \
    xcb_rectangle_t *: "xcb_rectangle_t",                   \
    xcb_present_notify_t **: "xcb_present_notify_t*",       \
    uint32_t **: "u32*",                                    \
    default: "other")

#define TYPE(T) \
    printf("type %s %zu %zu\n", #T, sizeof(T), _Alignof(T))

#define MEMBER(T, m)                                                  \
    printf("member %s %s %zu %zu %s\n", #T, #m, offsetof(T, m),       \
           sizeof(((T *)0)->m), KIND(((T *)0)->m))

/* Arrays print their element class and count, e.g. u8[4]. */
#define ARRAY(T, m)                                                   \
    printf("member %s %s %zu %zu %s[%zu]\n", #T, #m, offsetof(T, m),  \
           sizeof(((T *)0)->m), KIND(((T *)0)->m[0]),                 \
           sizeof(((T *)0)->m) / sizeof(((T *)0)->m[0]))

#define ENUM(E, NAME) printf("enum %s %s %lld\n", #E, #NAME, (long long)(NAME))
#define DEFINE(group, NAME) printf("define %s %s %lld\n", group, #NAME, (long long)(NAME))

/* The four request/reply headers every protocol struct starts with. */
#define REQUEST_HEAD(T) \
    MEMBER(T, major_opcode); MEMBER(T, minor_opcode); MEMBER(T, length)
#define REPLY_HEAD(T) \
    MEMBER(T, response_type); MEMBER(T, sequence); MEMBER(T, length)
#define EVENT_HEAD(T) \
    MEMBER(T, response_type); MEMBER(T, extension); MEMBER(T, sequence); MEMBER(T, length)
#define COOKIE(T) TYPE(T); MEMBER(T, sequence)

static void dri3(void)
{
    /* Programs may test the include guard to see whether the header was
     * included, so its name is part of the interface too. */
#ifdef __DRI3_H
    printf("define dri3 __DRI3_H defined\n");
#else
    printf("define dri3 __DRI3_H undefined\n");
#endif
    DEFINE("dri3", XCB_DRI3_MAJOR_VERSION);
    DEFINE("dri3", XCB_DRI3_MINOR_VERSION);
    DEFINE("dri3", XCB_DRI3_QUERY_VERSION);
    DEFINE("dri3", XCB_DRI3_OPEN);
    DEFINE("dri3", XCB_DRI3_PIXMAP_FROM_BUFFER);
    DEFINE("dri3", XCB_DRI3_BUFFER_FROM_PIXMAP);
    DEFINE("dri3", XCB_DRI3_FENCE_FROM_FD);
    DEFINE("dri3", XCB_DRI3_FD_FROM_FENCE);
    DEFINE("dri3", XCB_DRI3_GET_SUPPORTED_MODIFIERS);
    DEFINE("dri3", XCB_DRI3_PIXMAP_FROM_BUFFERS);
    DEFINE("dri3", XCB_DRI3_BUFFERS_FROM_PIXMAP);
    DEFINE("dri3", XCB_DRI3_SET_DRM_DEVICE_IN_USE);

    COOKIE(xcb_dri3_query_version_cookie_t);
    COOKIE(xcb_dri3_open_cookie_t);
    COOKIE(xcb_dri3_buffer_from_pixmap_cookie_t);
    COOKIE(xcb_dri3_fd_from_fence_cookie_t);
    COOKIE(xcb_dri3_get_supported_modifiers_cookie_t);
    COOKIE(xcb_dri3_buffers_from_pixmap_cookie_t);

    TYPE(xcb_dri3_query_version_request_t);
    REQUEST_HEAD(xcb_dri3_query_version_request_t);
    MEMBER(xcb_dri3_query_version_request_t, major_version);
    MEMBER(xcb_dri3_query_version_request_t, minor_version);

    TYPE(xcb_dri3_query_version_reply_t);
    REPLY_HEAD(xcb_dri3_query_version_reply_t);
    MEMBER(xcb_dri3_query_version_reply_t, pad0);
    MEMBER(xcb_dri3_query_version_reply_t, major_version);
    MEMBER(xcb_dri3_query_version_reply_t, minor_version);

    TYPE(xcb_dri3_open_request_t);
    REQUEST_HEAD(xcb_dri3_open_request_t);
    MEMBER(xcb_dri3_open_request_t, drawable);
    MEMBER(xcb_dri3_open_request_t, provider);

    TYPE(xcb_dri3_open_reply_t);
    REPLY_HEAD(xcb_dri3_open_reply_t);
    MEMBER(xcb_dri3_open_reply_t, nfd);
    ARRAY(xcb_dri3_open_reply_t, pad0);

    TYPE(xcb_dri3_pixmap_from_buffer_request_t);
    REQUEST_HEAD(xcb_dri3_pixmap_from_buffer_request_t);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, pixmap);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, drawable);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, size);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, width);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, height);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, stride);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, depth);
    MEMBER(xcb_dri3_pixmap_from_buffer_request_t, bpp);

    TYPE(xcb_dri3_buffer_from_pixmap_request_t);
    REQUEST_HEAD(xcb_dri3_buffer_from_pixmap_request_t);
    MEMBER(xcb_dri3_buffer_from_pixmap_request_t, pixmap);

    TYPE(xcb_dri3_buffer_from_pixmap_reply_t);
    REPLY_HEAD(xcb_dri3_buffer_from_pixmap_reply_t);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, nfd);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, size);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, width);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, height);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, stride);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, depth);
    MEMBER(xcb_dri3_buffer_from_pixmap_reply_t, bpp);
    ARRAY(xcb_dri3_buffer_from_pixmap_reply_t, pad0);

    TYPE(xcb_dri3_fence_from_fd_request_t);
    REQUEST_HEAD(xcb_dri3_fence_from_fd_request_t);
    MEMBER(xcb_dri3_fence_from_fd_request_t, drawable);
    MEMBER(xcb_dri3_fence_from_fd_request_t, fence);
    MEMBER(xcb_dri3_fence_from_fd_request_t, initially_triggered);
    ARRAY(xcb_dri3_fence_from_fd_request_t, pad0);

    TYPE(xcb_dri3_fd_from_fence_request_t);
    REQUEST_HEAD(xcb_dri3_fd_from_fence_request_t);
    MEMBER(xcb_dri3_fd_from_fence_request_t, drawable);
    MEMBER(xcb_dri3_fd_from_fence_request_t, fence);

    TYPE(xcb_dri3_fd_from_fence_reply_t);
    REPLY_HEAD(xcb_dri3_fd_from_fence_reply_t);
    MEMBER(xcb_dri3_fd_from_fence_reply_t, nfd);
    ARRAY(xcb_dri3_fd_from_fence_reply_t, pad0);

    TYPE(xcb_dri3_get_supported_modifiers_request_t);
    REQUEST_HEAD(xcb_dri3_get_supported_modifiers_request_t);
    MEMBER(xcb_dri3_get_supported_modifiers_request_t, window);
    MEMBER(xcb_dri3_get_supported_modifiers_request_t, depth);
    MEMBER(xcb_dri3_get_supported_modifiers_request_t, bpp);
    ARRAY(xcb_dri3_get_supported_modifiers_request_t, pad0);

    TYPE(xcb_dri3_get_supported_modifiers_reply_t);
    REPLY_HEAD(xcb_dri3_get_supported_modifiers_reply_t);
    MEMBER(xcb_dri3_get_supported_modifiers_reply_t, pad0);
    MEMBER(xcb_dri3_get_supported_modifiers_reply_t, num_window_modifiers);
    MEMBER(xcb_dri3_get_supported_modifiers_reply_t, num_screen_modifiers);
    ARRAY(xcb_dri3_get_supported_modifiers_reply_t, pad1);

    TYPE(xcb_dri3_pixmap_from_buffers_request_t);
    REQUEST_HEAD(xcb_dri3_pixmap_from_buffers_request_t);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, pixmap);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, window);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, num_buffers);
    ARRAY(xcb_dri3_pixmap_from_buffers_request_t, pad0);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, width);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, height);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride0);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset0);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride1);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset1);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride2);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset2);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, stride3);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, offset3);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, depth);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, bpp);
    ARRAY(xcb_dri3_pixmap_from_buffers_request_t, pad1);
    MEMBER(xcb_dri3_pixmap_from_buffers_request_t, modifier);

    TYPE(xcb_dri3_buffers_from_pixmap_request_t);
    REQUEST_HEAD(xcb_dri3_buffers_from_pixmap_request_t);
    MEMBER(xcb_dri3_buffers_from_pixmap_request_t, pixmap);

    TYPE(xcb_dri3_buffers_from_pixmap_reply_t);
    REPLY_HEAD(xcb_dri3_buffers_from_pixmap_reply_t);
    MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, nfd);
    MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, width);
    MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, height);
    ARRAY(xcb_dri3_buffers_from_pixmap_reply_t, pad0);
    MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, modifier);
    MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, depth);
    MEMBER(xcb_dri3_buffers_from_pixmap_reply_t, bpp);
    ARRAY(xcb_dri3_buffers_from_pixmap_reply_t, pad1);

    TYPE(xcb_dri3_set_drm_device_in_use_request_t);
    REQUEST_HEAD(xcb_dri3_set_drm_device_in_use_request_t);
    MEMBER(xcb_dri3_set_drm_device_in_use_request_t, window);
    MEMBER(xcb_dri3_set_drm_device_in_use_request_t, drmMajor);
    MEMBER(xcb_dri3_set_drm_device_in_use_request_t, drmMinor);
}

static void present(void)
{
#ifdef __PRESENT_H
    printf("define present __PRESENT_H defined\n");
#else
    printf("define present __PRESENT_H undefined\n");
#endif
    DEFINE("present", XCB_PRESENT_MAJOR_VERSION);
    DEFINE("present", XCB_PRESENT_MINOR_VERSION);
    DEFINE("present", XCB_PRESENT_QUERY_VERSION);
    DEFINE("present", XCB_PRESENT_PIXMAP);
    DEFINE("present", XCB_PRESENT_NOTIFY_MSC);
    DEFINE("present", XCB_PRESENT_SELECT_INPUT);
    DEFINE("present", XCB_PRESENT_QUERY_CAPABILITIES);
    DEFINE("present", XCB_PRESENT_GENERIC);
    DEFINE("present", XCB_PRESENT_CONFIGURE_NOTIFY);
    DEFINE("present", XCB_PRESENT_COMPLETE_NOTIFY);
    DEFINE("present", XCB_PRESENT_IDLE_NOTIFY);
    DEFINE("present", XCB_PRESENT_REDIRECT_NOTIFY);

    TYPE(xcb_present_event_enum_t);
    ENUM(xcb_present_event_enum_t, XCB_PRESENT_EVENT_CONFIGURE_NOTIFY);
    ENUM(xcb_present_event_enum_t, XCB_PRESENT_EVENT_COMPLETE_NOTIFY);
    ENUM(xcb_present_event_enum_t, XCB_PRESENT_EVENT_IDLE_NOTIFY);
    ENUM(xcb_present_event_enum_t, XCB_PRESENT_EVENT_REDIRECT_NOTIFY);

    TYPE(xcb_present_event_mask_t);
    ENUM(xcb_present_event_mask_t, XCB_PRESENT_EVENT_MASK_NO_EVENT);
    ENUM(xcb_present_event_mask_t, XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY);
    ENUM(xcb_present_event_mask_t, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    ENUM(xcb_present_event_mask_t, XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY);
    ENUM(xcb_present_event_mask_t, XCB_PRESENT_EVENT_MASK_REDIRECT_NOTIFY);

    TYPE(xcb_present_option_t);
    ENUM(xcb_present_option_t, XCB_PRESENT_OPTION_NONE);
    ENUM(xcb_present_option_t, XCB_PRESENT_OPTION_ASYNC);
    ENUM(xcb_present_option_t, XCB_PRESENT_OPTION_COPY);
    ENUM(xcb_present_option_t, XCB_PRESENT_OPTION_UST);
    ENUM(xcb_present_option_t, XCB_PRESENT_OPTION_SUBOPTIMAL);

    TYPE(xcb_present_capability_t);
    ENUM(xcb_present_capability_t, XCB_PRESENT_CAPABILITY_NONE);
    ENUM(xcb_present_capability_t, XCB_PRESENT_CAPABILITY_ASYNC);
    ENUM(xcb_present_capability_t, XCB_PRESENT_CAPABILITY_FENCE);
    ENUM(xcb_present_capability_t, XCB_PRESENT_CAPABILITY_UST);

    TYPE(xcb_present_complete_kind_t);
    ENUM(xcb_present_complete_kind_t, XCB_PRESENT_COMPLETE_KIND_PIXMAP);
    ENUM(xcb_present_complete_kind_t, XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC);

    TYPE(xcb_present_complete_mode_t);
    ENUM(xcb_present_complete_mode_t, XCB_PRESENT_COMPLETE_MODE_COPY);
    ENUM(xcb_present_complete_mode_t, XCB_PRESENT_COMPLETE_MODE_FLIP);
    ENUM(xcb_present_complete_mode_t, XCB_PRESENT_COMPLETE_MODE_SKIP);
    ENUM(xcb_present_complete_mode_t, XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY);

    TYPE(xcb_present_notify_t);
    MEMBER(xcb_present_notify_t, window);
    MEMBER(xcb_present_notify_t, serial);

    TYPE(xcb_present_notify_iterator_t);
    MEMBER(xcb_present_notify_iterator_t, data);
    MEMBER(xcb_present_notify_iterator_t, rem);
    MEMBER(xcb_present_notify_iterator_t, index);

    TYPE(xcb_present_event_t);

    TYPE(xcb_present_event_iterator_t);
    MEMBER(xcb_present_event_iterator_t, data);
    MEMBER(xcb_present_event_iterator_t, rem);
    MEMBER(xcb_present_event_iterator_t, index);

    COOKIE(xcb_present_query_version_cookie_t);
    COOKIE(xcb_present_query_capabilities_cookie_t);

    TYPE(xcb_present_query_version_request_t);
    REQUEST_HEAD(xcb_present_query_version_request_t);
    MEMBER(xcb_present_query_version_request_t, major_version);
    MEMBER(xcb_present_query_version_request_t, minor_version);

    TYPE(xcb_present_query_version_reply_t);
    REPLY_HEAD(xcb_present_query_version_reply_t);
    MEMBER(xcb_present_query_version_reply_t, pad0);
    MEMBER(xcb_present_query_version_reply_t, major_version);
    MEMBER(xcb_present_query_version_reply_t, minor_version);

    TYPE(xcb_present_pixmap_request_t);
    REQUEST_HEAD(xcb_present_pixmap_request_t);
    MEMBER(xcb_present_pixmap_request_t, window);
    MEMBER(xcb_present_pixmap_request_t, pixmap);
    MEMBER(xcb_present_pixmap_request_t, serial);
    MEMBER(xcb_present_pixmap_request_t, valid);
    MEMBER(xcb_present_pixmap_request_t, update);
    MEMBER(xcb_present_pixmap_request_t, x_off);
    MEMBER(xcb_present_pixmap_request_t, y_off);
    MEMBER(xcb_present_pixmap_request_t, target_crtc);
    MEMBER(xcb_present_pixmap_request_t, wait_fence);
    MEMBER(xcb_present_pixmap_request_t, idle_fence);
    MEMBER(xcb_present_pixmap_request_t, options);
    ARRAY(xcb_present_pixmap_request_t, pad0);
    MEMBER(xcb_present_pixmap_request_t, target_msc);
    MEMBER(xcb_present_pixmap_request_t, divisor);
    MEMBER(xcb_present_pixmap_request_t, remainder);

    TYPE(xcb_present_notify_msc_request_t);
    REQUEST_HEAD(xcb_present_notify_msc_request_t);
    MEMBER(xcb_present_notify_msc_request_t, window);
    MEMBER(xcb_present_notify_msc_request_t, serial);
    ARRAY(xcb_present_notify_msc_request_t, pad0);
    MEMBER(xcb_present_notify_msc_request_t, target_msc);
    MEMBER(xcb_present_notify_msc_request_t, divisor);
    MEMBER(xcb_present_notify_msc_request_t, remainder);

    TYPE(xcb_present_select_input_request_t);
    REQUEST_HEAD(xcb_present_select_input_request_t);
    MEMBER(xcb_present_select_input_request_t, eid);
    MEMBER(xcb_present_select_input_request_t, window);
    MEMBER(xcb_present_select_input_request_t, event_mask);

    TYPE(xcb_present_query_capabilities_request_t);
    REQUEST_HEAD(xcb_present_query_capabilities_request_t);
    MEMBER(xcb_present_query_capabilities_request_t, target);

    TYPE(xcb_present_query_capabilities_reply_t);
    REPLY_HEAD(xcb_present_query_capabilities_reply_t);
    MEMBER(xcb_present_query_capabilities_reply_t, pad0);
    MEMBER(xcb_present_query_capabilities_reply_t, capabilities);

    TYPE(xcb_present_generic_event_t);
    EVENT_HEAD(xcb_present_generic_event_t);
    MEMBER(xcb_present_generic_event_t, evtype);
    ARRAY(xcb_present_generic_event_t, pad0);
    MEMBER(xcb_present_generic_event_t, event);

    TYPE(xcb_present_configure_notify_event_t);
    EVENT_HEAD(xcb_present_configure_notify_event_t);
    MEMBER(xcb_present_configure_notify_event_t, event_type);
    ARRAY(xcb_present_configure_notify_event_t, pad0);
    MEMBER(xcb_present_configure_notify_event_t, event);
    MEMBER(xcb_present_configure_notify_event_t, window);
    MEMBER(xcb_present_configure_notify_event_t, x);
    MEMBER(xcb_present_configure_notify_event_t, y);
    MEMBER(xcb_present_configure_notify_event_t, width);
    MEMBER(xcb_present_configure_notify_event_t, height);
    MEMBER(xcb_present_configure_notify_event_t, off_x);
    MEMBER(xcb_present_configure_notify_event_t, off_y);
    MEMBER(xcb_present_configure_notify_event_t, full_sequence);
    MEMBER(xcb_present_configure_notify_event_t, pixmap_width);
    MEMBER(xcb_present_configure_notify_event_t, pixmap_height);
    MEMBER(xcb_present_configure_notify_event_t, pixmap_flags);

    TYPE(xcb_present_complete_notify_event_t);
    EVENT_HEAD(xcb_present_complete_notify_event_t);
    MEMBER(xcb_present_complete_notify_event_t, event_type);
    MEMBER(xcb_present_complete_notify_event_t, kind);
    MEMBER(xcb_present_complete_notify_event_t, mode);
    MEMBER(xcb_present_complete_notify_event_t, event);
    MEMBER(xcb_present_complete_notify_event_t, window);
    MEMBER(xcb_present_complete_notify_event_t, serial);
    MEMBER(xcb_present_complete_notify_event_t, ust);
    MEMBER(xcb_present_complete_notify_event_t, full_sequence);
    MEMBER(xcb_present_complete_notify_event_t, msc);

    TYPE(xcb_present_idle_notify_event_t);
    EVENT_HEAD(xcb_present_idle_notify_event_t);
    MEMBER(xcb_present_idle_notify_event_t, event_type);
    ARRAY(xcb_present_idle_notify_event_t, pad0);
    MEMBER(xcb_present_idle_notify_event_t, event);
    MEMBER(xcb_present_idle_notify_event_t, window);
    MEMBER(xcb_present_idle_notify_event_t, serial);
    MEMBER(xcb_present_idle_notify_event_t, pixmap);
    MEMBER(xcb_present_idle_notify_event_t, idle_fence);
    MEMBER(xcb_present_idle_notify_event_t, full_sequence);

    TYPE(xcb_present_redirect_notify_event_t);
    EVENT_HEAD(xcb_present_redirect_notify_event_t);
    MEMBER(xcb_present_redirect_notify_event_t, event_type);
    MEMBER(xcb_present_redirect_notify_event_t, update_window);
    MEMBER(xcb_present_redirect_notify_event_t, pad0);
    MEMBER(xcb_present_redirect_notify_event_t, event);
    MEMBER(xcb_present_redirect_notify_event_t, event_window);
    MEMBER(xcb_present_redirect_notify_event_t, window);
    MEMBER(xcb_present_redirect_notify_event_t, pixmap);
    MEMBER(xcb_present_redirect_notify_event_t, serial);
    MEMBER(xcb_present_redirect_notify_event_t, full_sequence);
    MEMBER(xcb_present_redirect_notify_event_t, valid_region);
    MEMBER(xcb_present_redirect_notify_event_t, update_region);
    MEMBER(xcb_present_redirect_notify_event_t, valid_rect);
    MEMBER(xcb_present_redirect_notify_event_t, update_rect);
    MEMBER(xcb_present_redirect_notify_event_t, x_off);
    MEMBER(xcb_present_redirect_notify_event_t, y_off);
    MEMBER(xcb_present_redirect_notify_event_t, target_crtc);
    MEMBER(xcb_present_redirect_notify_event_t, wait_fence);
    MEMBER(xcb_present_redirect_notify_event_t, idle_fence);
    MEMBER(xcb_present_redirect_notify_event_t, options);
    ARRAY(xcb_present_redirect_notify_event_t, pad1);
    MEMBER(xcb_present_redirect_notify_event_t, target_msc);
    MEMBER(xcb_present_redirect_notify_event_t, divisor);
    MEMBER(xcb_present_redirect_notify_event_t, remainder);
}

int main(void)
{
    dri3();
    present();
    /* A full disk or closed pipe must not pass as an empty, equal layout. */
    if (fflush(stdout) != 0 || ferror(stdout))
        return 1;
    return 0;
}
