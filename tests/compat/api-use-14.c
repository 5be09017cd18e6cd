/*
 * API of the DRI3 1.3/1.4 and Present 1.3/1.4 additions, which our headers
 * declare and Debian's libxcb 1.15 ones (mostly) do not: every name, with the
 * spelling, prototype and layout libxcb 1.17 gives them, so that code written
 * for 1.17 (Mesa's explicit-sync WSI) builds against ours unchanged.
 *
 * Like api-use.c: compile-time checks first (-Wall -Wextra -Werror turns a
 * wrong prototype or member type into an error), then TAP-reported run-time
 * checks on local buffers and on libxcb's error connection.  Builds only
 * against our headers and libraries.
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
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "api-check.h"

/* ---- versions and opcodes (preprocessor-testable, as in libxcb) -------- */

#if XCB_DRI3_MAJOR_VERSION != 1 || XCB_DRI3_MINOR_VERSION != 4
#error "DRI3 version macros are not 1.4"
#endif
#if XCB_PRESENT_MAJOR_VERSION != 1 || XCB_PRESENT_MINOR_VERSION != 4
#error "Present version macros are not 1.4"
#endif
/* 10 and 11, as dri3proto.h and the servers have it (the spec text's
 * encoding section says 11 and 12). */
#if XCB_DRI3_SET_DRM_DEVICE_IN_USE != 9 || XCB_DRI3_IMPORT_SYNCOBJ != 10 \
    || XCB_DRI3_FREE_SYNCOBJ != 11
#error "DRI3 1.3/1.4 opcode macros"
#endif
#if XCB_PRESENT_PIXMAP_SYNCED != 5
#error "XCB_PRESENT_PIXMAP_SYNCED"
#endif

_Static_assert(XCB_PRESENT_OPTION_ASYNC_MAY_TEAR == 16, "Option AsyncMayTear is bit 4");
_Static_assert(XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR == 8, "Capability AsyncMayTear is bit 3");
_Static_assert(XCB_PRESENT_CAPABILITY_SYNCOBJ == 16, "Capability Syncobj is bit 4");

/* The new constants extend the existing enum types (-Wswitch rejects a case
 * label that is not a member of the switched enum). */
static int option_is_known(xcb_present_option_t v)
{
    switch (v) {
    case XCB_PRESENT_OPTION_NONE:
    case XCB_PRESENT_OPTION_ASYNC:
    case XCB_PRESENT_OPTION_COPY:
    case XCB_PRESENT_OPTION_UST:
    case XCB_PRESENT_OPTION_SUBOPTIMAL:
    case XCB_PRESENT_OPTION_ASYNC_MAY_TEAR:
        return 1;
    default:
        return 0;
    }
}

static int capability_is_known(xcb_present_capability_t v)
{
    switch (v) {
    case XCB_PRESENT_CAPABILITY_NONE:
    case XCB_PRESENT_CAPABILITY_ASYNC:
    case XCB_PRESENT_CAPABILITY_FENCE:
    case XCB_PRESENT_CAPABILITY_UST:
    case XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR:
    case XCB_PRESENT_CAPABILITY_SYNCOBJ:
        return 1;
    default:
        return 0;
    }
}

/* ---- types ------------------------------------------------------------- */

_Static_assert(_Generic((xcb_dri3_syncobj_t)0, uint32_t: 1, default: 0),
               "xcb_dri3_syncobj_t is uint32_t");
MEMBER(xcb_dri3_syncobj_iterator_t, data, xcb_dri3_syncobj_t *);
MEMBER(xcb_dri3_syncobj_iterator_t, rem, int);
MEMBER(xcb_dri3_syncobj_iterator_t, index, int);
AT(xcb_dri3_syncobj_iterator_t, data, 0);
AT(xcb_dri3_syncobj_iterator_t, rem, sizeof(void *));
AT(xcb_dri3_syncobj_iterator_t, index, sizeof(void *) + sizeof(int));

/* Already in libxcb 1.15; repeated because the 1.4 requests sit after it. */
SIZE(xcb_dri3_set_drm_device_in_use_request_t, 16);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, major_opcode, uint8_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, minor_opcode, uint8_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, length, uint16_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, window, xcb_window_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, drmMajor, uint32_t);
MEMBER(xcb_dri3_set_drm_device_in_use_request_t, drmMinor, uint32_t);

/* ImportSyncobj: 3 words; the fd travels beside the request. */
SIZE(xcb_dri3_import_syncobj_request_t, 12);
MEMBER(xcb_dri3_import_syncobj_request_t, major_opcode, uint8_t);
MEMBER(xcb_dri3_import_syncobj_request_t, minor_opcode, uint8_t);
MEMBER(xcb_dri3_import_syncobj_request_t, length, uint16_t);
MEMBER(xcb_dri3_import_syncobj_request_t, syncobj, xcb_dri3_syncobj_t);
MEMBER(xcb_dri3_import_syncobj_request_t, drawable, xcb_drawable_t);
AT(xcb_dri3_import_syncobj_request_t, major_opcode, 0);
AT(xcb_dri3_import_syncobj_request_t, minor_opcode, 1);
AT(xcb_dri3_import_syncobj_request_t, length, 2);
AT(xcb_dri3_import_syncobj_request_t, syncobj, 4);
AT(xcb_dri3_import_syncobj_request_t, drawable, 8);

SIZE(xcb_dri3_free_syncobj_request_t, 8);
MEMBER(xcb_dri3_free_syncobj_request_t, major_opcode, uint8_t);
MEMBER(xcb_dri3_free_syncobj_request_t, minor_opcode, uint8_t);
MEMBER(xcb_dri3_free_syncobj_request_t, length, uint16_t);
MEMBER(xcb_dri3_free_syncobj_request_t, syncobj, xcb_dri3_syncobj_t);
AT(xcb_dri3_free_syncobj_request_t, syncobj, 4);

/* PixmapSynced: 88 fixed bytes (22 words), notifies from byte 88.  Its 64-bit
 * fields are naturally aligned, so like xcb_present_pixmap_request_t it is
 * not packed and has that struct's alignment. */
SIZE(xcb_present_pixmap_synced_request_t, 88);
_Static_assert(_Alignof(xcb_present_pixmap_synced_request_t)
               == _Alignof(xcb_present_pixmap_request_t), "PixmapSynced request alignment");
MEMBER(xcb_present_pixmap_synced_request_t, major_opcode, uint8_t);
MEMBER(xcb_present_pixmap_synced_request_t, minor_opcode, uint8_t);
MEMBER(xcb_present_pixmap_synced_request_t, length, uint16_t);
MEMBER(xcb_present_pixmap_synced_request_t, window, xcb_window_t);
MEMBER(xcb_present_pixmap_synced_request_t, pixmap, xcb_pixmap_t);
MEMBER(xcb_present_pixmap_synced_request_t, serial, uint32_t);
MEMBER(xcb_present_pixmap_synced_request_t, valid, xcb_xfixes_region_t);
MEMBER(xcb_present_pixmap_synced_request_t, update, xcb_xfixes_region_t);
MEMBER(xcb_present_pixmap_synced_request_t, x_off, int16_t);
MEMBER(xcb_present_pixmap_synced_request_t, y_off, int16_t);
MEMBER(xcb_present_pixmap_synced_request_t, target_crtc, xcb_randr_crtc_t);
MEMBER(xcb_present_pixmap_synced_request_t, acquire_syncobj, xcb_dri3_syncobj_t);
MEMBER(xcb_present_pixmap_synced_request_t, release_syncobj, xcb_dri3_syncobj_t);
MEMBER(xcb_present_pixmap_synced_request_t, acquire_point, uint64_t);
MEMBER(xcb_present_pixmap_synced_request_t, release_point, uint64_t);
MEMBER(xcb_present_pixmap_synced_request_t, options, uint32_t);
ARRAY(xcb_present_pixmap_synced_request_t, pad0, uint8_t, 4);
MEMBER(xcb_present_pixmap_synced_request_t, target_msc, uint64_t);
MEMBER(xcb_present_pixmap_synced_request_t, divisor, uint64_t);
MEMBER(xcb_present_pixmap_synced_request_t, remainder, uint64_t);
AT(xcb_present_pixmap_synced_request_t, major_opcode, 0);
AT(xcb_present_pixmap_synced_request_t, minor_opcode, 1);
AT(xcb_present_pixmap_synced_request_t, length, 2);
AT(xcb_present_pixmap_synced_request_t, window, 4);
AT(xcb_present_pixmap_synced_request_t, pixmap, 8);
AT(xcb_present_pixmap_synced_request_t, serial, 12);
AT(xcb_present_pixmap_synced_request_t, valid, 16);
AT(xcb_present_pixmap_synced_request_t, update, 20);
AT(xcb_present_pixmap_synced_request_t, x_off, 24);
AT(xcb_present_pixmap_synced_request_t, y_off, 26);
AT(xcb_present_pixmap_synced_request_t, target_crtc, 28);
AT(xcb_present_pixmap_synced_request_t, acquire_syncobj, 32);
AT(xcb_present_pixmap_synced_request_t, release_syncobj, 36);
AT(xcb_present_pixmap_synced_request_t, acquire_point, 40);
AT(xcb_present_pixmap_synced_request_t, release_point, 48);
AT(xcb_present_pixmap_synced_request_t, options, 56);
AT(xcb_present_pixmap_synced_request_t, pad0, 60);
AT(xcb_present_pixmap_synced_request_t, target_msc, 64);
AT(xcb_present_pixmap_synced_request_t, divisor, 72);
AT(xcb_present_pixmap_synced_request_t, remainder, 80);

/* ---- prototypes --------------------------------------------------------- */

static void test_functions(void)
{
    const struct fn fns[] = {
        FN(xcb_void_cookie_t, xcb_dri3_set_drm_device_in_use_checked,
           (xcb_connection_t *, xcb_window_t, uint32_t, uint32_t)),
        FN(xcb_void_cookie_t, xcb_dri3_set_drm_device_in_use,
           (xcb_connection_t *, xcb_window_t, uint32_t, uint32_t)),
        FN(void, xcb_dri3_syncobj_next, (xcb_dri3_syncobj_iterator_t *)),
        FN(xcb_generic_iterator_t, xcb_dri3_syncobj_end, (xcb_dri3_syncobj_iterator_t)),
        FN(xcb_void_cookie_t, xcb_dri3_import_syncobj_checked,
           (xcb_connection_t *, xcb_dri3_syncobj_t, xcb_drawable_t, int32_t)),
        FN(xcb_void_cookie_t, xcb_dri3_import_syncobj,
           (xcb_connection_t *, xcb_dri3_syncobj_t, xcb_drawable_t, int32_t)),
        FN(xcb_void_cookie_t, xcb_dri3_free_syncobj_checked,
           (xcb_connection_t *, xcb_dri3_syncobj_t)),
        FN(xcb_void_cookie_t, xcb_dri3_free_syncobj,
           (xcb_connection_t *, xcb_dri3_syncobj_t)),
        FN(int, xcb_present_pixmap_synced_sizeof, (const void *, uint32_t)),
        FN(xcb_void_cookie_t, xcb_present_pixmap_synced_checked,
           (xcb_connection_t *, xcb_window_t, xcb_pixmap_t, uint32_t, xcb_xfixes_region_t,
            xcb_xfixes_region_t, int16_t, int16_t, xcb_randr_crtc_t, xcb_dri3_syncobj_t,
            xcb_dri3_syncobj_t, uint64_t, uint64_t, uint32_t, uint64_t, uint64_t, uint64_t,
            uint32_t, const xcb_present_notify_t *)),
        FN(xcb_void_cookie_t, xcb_present_pixmap_synced,
           (xcb_connection_t *, xcb_window_t, xcb_pixmap_t, uint32_t, xcb_xfixes_region_t,
            xcb_xfixes_region_t, int16_t, int16_t, xcb_randr_crtc_t, xcb_dri3_syncobj_t,
            xcb_dri3_syncobj_t, uint64_t, uint64_t, uint32_t, uint64_t, uint64_t, uint64_t,
            uint32_t, const xcb_present_notify_t *)),
        FN(xcb_present_notify_t *, xcb_present_pixmap_synced_notifies,
           (const xcb_present_pixmap_synced_request_t *)),
        FN(int, xcb_present_pixmap_synced_notifies_length,
           (const xcb_present_pixmap_synced_request_t *)),
        FN(xcb_present_notify_iterator_t, xcb_present_pixmap_synced_notifies_iterator,
           (const xcb_present_pixmap_synced_request_t *)),
    };
    size_t n = sizeof(fns) / sizeof(fns[0]);

    CHECK_EQ(n, 14);
    for (size_t i = 0; i < n; i++) {
        if (fns[i].addr == NULL) {
            printf("# %s resolved to NULL\n", fns[i].name);
            test_failed = 1;
        }
    }
}

static void test_enums(void)
{
    CHECK(option_is_known(XCB_PRESENT_OPTION_ASYNC_MAY_TEAR));
    CHECK(capability_is_known(XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR));
    CHECK(capability_is_known(XCB_PRESENT_CAPABILITY_SYNCOBJ));
    /* Still int-sized now that the enums have grown. */
    CHECK_EQ(sizeof(xcb_present_option_t), sizeof(int));
    CHECK_EQ(sizeof(xcb_present_capability_t), sizeof(int));
}

static void test_syncobj_iterator(void)
{
    xcb_dri3_syncobj_t ids[3] = { 0x500001, 0x500002, 0x500003 };
    xcb_dri3_syncobj_iterator_t it = { ids, 3, 0 };
    xcb_generic_iterator_t end;

    /* As for every XID iterator: data and rem step by one element, index by
     * its size; _end points past the last element. */
    xcb_dri3_syncobj_next(&it);
    CHECK(it.data == &ids[1]);
    CHECK_EQ(it.rem, 2);
    CHECK_EQ(it.index, (int)sizeof(xcb_dri3_syncobj_t));
    CHECK_EQ(*it.data, 0x500002);
    end = xcb_dri3_syncobj_end(it);
    CHECK(end.data == &ids[3]);
    CHECK_EQ(end.rem, 0);
    CHECK_EQ(end.index, 3 * (int)sizeof(xcb_dri3_syncobj_t));
}

static void test_pixmap_synced_notifies(void)
{
    union {
        uint64_t align;
        unsigned char bytes[256];
    } b;
    xcb_present_notify_iterator_t it;
    xcb_generic_iterator_t end;

    memset(&b, 0, sizeof(b));
    xcb_present_pixmap_synced_request_t *r = (xcb_present_pixmap_synced_request_t *)b.bytes;
    r->major_opcode = 140;
    r->minor_opcode = XCB_PRESENT_PIXMAP_SYNCED;
    r->length = 22 + 2 * 2;     /* 88 fixed bytes and two notifies */
    r->window = 0x200001;
    r->pixmap = 0x200002;
    r->serial = 9;
    r->valid = XCB_NONE;
    r->update = XCB_NONE;
    r->x_off = -5;
    r->y_off = 6;
    r->target_crtc = XCB_NONE;
    r->acquire_syncobj = 0x500001;
    r->release_syncobj = 0x500001;
    r->acquire_point = 1;
    r->release_point = 2;
    r->options = XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_ASYNC_MAY_TEAR;
    r->target_msc = 0;
    r->divisor = 0;
    r->remainder = 0;
    xcb_present_notify_t notifies[2] = { { 0x300001, 11 }, { 0x300002, 12 } };
    memcpy(b.bytes + 88, notifies, sizeof(notifies));

    CHECK_EQ(xcb_present_pixmap_synced_sizeof(r, 0), 88);
    CHECK_EQ(xcb_present_pixmap_synced_sizeof(r, 2), 104);
    CHECK_EQ(OFF(xcb_present_pixmap_synced_notifies(r), r), 88);
    CHECK_EQ(xcb_present_pixmap_synced_notifies_length(r), 2);
    it = xcb_present_pixmap_synced_notifies_iterator(r);
    CHECK_EQ(OFF(it.data, r), 88);
    CHECK_EQ(it.rem, 2);
    CHECK_EQ(it.index, 88);
    CHECK_EQ(it.data->serial, 11);
    xcb_present_notify_next(&it);
    CHECK_EQ(it.data->window, 0x300002);
    end = xcb_present_notify_end(it);
    CHECK_EQ(OFF(end.data, r), 104);
    CHECK_EQ(end.index, 104);
}

/* On libxcb's error connection nothing is sent: sequence 0, and the syncobj
 * fd is closed all the same, since it belongs to libxcb once passed. */
static void test_requests_on_error_connection(void)
{
    xcb_connection_t *c = xcb_connect(":not-a-display-number", NULL);
    int fd;

    CHECK(c != NULL);
    if (c == NULL)
        return;
    CHECK(xcb_connection_has_error(c) != 0);

    CHECK_EQ(xcb_dri3_set_drm_device_in_use_checked(c, 0x100, 226, 128).sequence, 0);
    CHECK_EQ(xcb_dri3_set_drm_device_in_use(c, 0x100, 226, 128).sequence, 0);

    fd = new_fd();
    CHECK_EQ(xcb_dri3_import_syncobj_checked(c, 0x500001, 0x100, fd).sequence, 0);
    CHECK(fd_is_closed(fd));
    fd = new_fd();
    CHECK_EQ(xcb_dri3_import_syncobj(c, 0x500002, 0x100, fd).sequence, 0);
    CHECK(fd_is_closed(fd));

    CHECK_EQ(xcb_dri3_free_syncobj_checked(c, 0x500001).sequence, 0);
    CHECK_EQ(xcb_dri3_free_syncobj(c, 0x500002).sequence, 0);

    const xcb_present_notify_t notifies[1] = { { 0x200, 1 } };
    CHECK_EQ(xcb_present_pixmap_synced_checked(c, 0x100, 0x101, 1, XCB_NONE, XCB_NONE, 0, 0,
                                               XCB_NONE, 0x500001, 0x500001, 1, 2,
                                               XCB_PRESENT_OPTION_NONE, 0, 0, 0, 0,
                                               NULL).sequence, 0);
    CHECK_EQ(xcb_present_pixmap_synced(c, 0x100, 0x101, 2, XCB_NONE, XCB_NONE, -1, 1,
                                       XCB_NONE, 0x500001, 0x500002, 3, 1,
                                       XCB_PRESENT_OPTION_ASYNC |
                                       XCB_PRESENT_OPTION_ASYNC_MAY_TEAR,
                                       100, 2, 1, 1, notifies).sequence, 0);

    xcb_disconnect(c);
}

int main(void)
{
    run("every 1.3/1.4 function has its libxcb 1.17 prototype", test_functions);
    run("1.3/1.4 enum constants extend their enum types", test_enums);
    run("xcb_dri3_syncobj_next/_end", test_syncobj_iterator);
    run("PixmapSynced request notifies accessors", test_pixmap_synced_notifies);
    run("1.3/1.4 requests on an errored connection: seq 0, fds closed",
        test_requests_on_error_connection);
    printf("1..%d\n", test_count);
    return any_failed ? 1 : 0;
}
