/*
 * Both headers from C++: they must parse as C++ (no C-only constructs outside
 * what g++ accepts) and wrap their declarations in extern "C", or the calls
 * below would reference C++-mangled names and fail to link against the C
 * libraries.  Only pure accessors run, on local buffers; TAP on stdout.
 */
#include <xcb/dri3.h>
#include <xcb/present.h>

#include <cstdio>
#include <cstring>

int main()
{
    int failed = 0;

    // Function pointers of the C prototypes, as C++ code would keep them.
    xcb_dri3_open_cookie_t (*open_fn)(xcb_connection_t *, xcb_drawable_t, uint32_t) =
        xcb_dri3_open;
    xcb_void_cookie_t (*select_fn)(xcb_connection_t *, xcb_present_event_t, xcb_window_t,
                                   uint32_t) = xcb_present_select_input;
    bool have_fns = open_fn != nullptr && select_fn != nullptr;
    std::printf("%s 1 - request functions link from C++\n", have_fns ? "ok" : "not ok");
    failed |= !have_fns;

    // A GetSupportedModifiers reply with one window and two screen modifiers.
    union {
        uint64_t align;
        unsigned char bytes[64];
    } buf;
    std::memset(&buf, 0, sizeof(buf));
    xcb_dri3_get_supported_modifiers_reply_t *reply =
        reinterpret_cast<xcb_dri3_get_supported_modifiers_reply_t *>(buf.bytes);
    reply->num_window_modifiers = 1;
    reply->num_screen_modifiers = 2;
    reply->length = 6;
    bool accessors = xcb_dri3_get_supported_modifiers_sizeof(reply) == 56
        && xcb_dri3_get_supported_modifiers_screen_modifiers_length(reply) == 2
        && reinterpret_cast<unsigned char *>(
               xcb_dri3_get_supported_modifiers_screen_modifiers(reply)) == buf.bytes + 40;
    std::printf("%s 2 - DRI3 reply accessors callable from C++\n",
                accessors ? "ok" : "not ok");
    failed |= !accessors;

    xcb_present_notify_t notifies[2] = { { 1, 10 }, { 2, 20 } };
    xcb_present_notify_iterator_t it = { notifies, 2, 0 };
    xcb_present_notify_next(&it);
    xcb_generic_iterator_t end = xcb_present_notify_end(it);
    bool iter = it.data == &notifies[1] && it.rem == 1 && end.data == &notifies[2];
    std::printf("%s 3 - Present iterators callable from C++\n", iter ? "ok" : "not ok");
    failed |= !iter;

    // Enum constants and bitwise use, as C++ callers combine them.
    uint32_t mask = XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY | XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY;
    bool enums = mask == 6 && XCB_PRESENT_OPTION_ASYNC == 1;
    std::printf("%s 4 - enum constants usable from C++\n", enums ? "ok" : "not ok");
    failed |= !enums;

    std::printf("1..4\n");
    return failed ? 1 : 0;
}
