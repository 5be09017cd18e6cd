/*
 * A plain libxcb client, of the kind anyone writes, for the mock server
 * started by hand (by-hand.sh): it connects through $DISPLAY, opens DRI3,
 * makes a pixmap of a memfd it painted, presents it in a window, waits for
 * CompleteNotify and IdleNotify, and reads the window back with GetImage.
 * It knows nothing of the mock's library; `make check` builds it against
 * libxcb's own extension libraries where they are installed.
 *
 * Exits 0 when every step worked, 1 with a message on stderr otherwise.
 */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/xcb.h>

#define WIDTH 64
#define HEIGHT 48
#define STRIDE (WIDTH * 4)

__attribute__((noreturn, format(printf, 1, 2)))
static void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("any-client: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static uint32_t pattern(int x, int y)
{
    return 0xff000000u | (uint32_t)(x * 4) << 16 | (uint32_t)(y * 5) << 8 | (uint32_t)(x ^ y);
}

/* A memfd of WIDTH x HEIGHT pixels at 32 bpp, painted with pattern(). */
static int painted_buffer(void)
{
    int fd = memfd_create("any-client-buffer", MFD_CLOEXEC);
    uint32_t *pixels;

    if (fd < 0 || ftruncate(fd, STRIDE * HEIGHT) != 0)
        die("memfd: %m");
    pixels = mmap(NULL, STRIDE * HEIGHT, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED)
        die("mmap: %m");
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++)
            pixels[y * WIDTH + x] = pattern(x, y);
    munmap(pixels, STRIDE * HEIGHT);
    return fd;
}

/* The next Present event, or death after 2 s: the special event queue
 * has no timed wait, so poll the connection between looks. */
static xcb_present_generic_event_t *next_event(xcb_connection_t *c, xcb_special_event_t *se)
{
    for (int waited = 0; waited < 2000; waited += 10) {
        xcb_generic_event_t *ev = xcb_poll_for_special_event(c, se);
        struct pollfd p = { .fd = xcb_get_file_descriptor(c), .events = POLLIN };

        if (ev)
            return (xcb_present_generic_event_t *)ev;
        if (xcb_connection_has_error(c))
            die("the connection broke while waiting for an event");
        poll(&p, 1, 10);
    }
    die("no Present event within 2 s");
}

int main(void)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    const xcb_query_extension_reply_t *ext;
    xcb_generic_error_t *e = NULL;

    if (xcb_connection_has_error(c))
        die("cannot connect to DISPLAY=%s", getenv("DISPLAY") ? getenv("DISPLAY") : "");
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;

    ext = xcb_get_extension_data(c, &xcb_dri3_id);
    if (!ext || !ext->present)
        die("no DRI3");
    ext = xcb_get_extension_data(c, &xcb_present_id);
    if (!ext || !ext->present)
        die("no Present");

    xcb_dri3_query_version_reply_t *dv =
        xcb_dri3_query_version_reply(c, xcb_dri3_query_version(c, 1, 2), NULL);
    xcb_present_query_version_reply_t *pv =
        xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 2), NULL);
    if (!dv || !pv)
        die("QueryVersion failed");
    printf("DRI3 %u.%u, Present %u.%u\n", dv->major_version, dv->minor_version,
           pv->major_version, pv->minor_version);
    free(dv);
    free(pv);

    /* DRI3 Open: the device fd is ours to close. */
    xcb_dri3_open_reply_t *open = xcb_dri3_open_reply(c, xcb_dri3_open(c, screen->root, 0), &e);
    if (!open)
        die("DRI3 Open failed (error %d)", e ? e->error_code : -1);
    close(xcb_dri3_open_reply_fds(c, open)[0]);
    free(open);

    xcb_window_t window = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, WIDTH, HEIGHT, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
    xcb_map_window(c, window);

    xcb_pixmap_t pixmap = xcb_generate_id(c);
    e = xcb_request_check(c, xcb_dri3_pixmap_from_buffer_checked(
                                 c, pixmap, window, STRIDE * HEIGHT, WIDTH, HEIGHT, STRIDE,
                                 screen->root_depth, 32, painted_buffer()));
    if (e)
        die("PixmapFromBuffer: error %d", e->error_code);

    xcb_present_event_t eid = xcb_generate_id(c);
    xcb_special_event_t *se = xcb_register_for_special_xge(c, &xcb_present_id, eid, NULL);
    xcb_present_select_input(c, eid, window,
                             XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                                 XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY);
    e = xcb_request_check(c, xcb_present_pixmap_checked(
                                 c, window, pixmap, 7, XCB_NONE, XCB_NONE, 0, 0, XCB_NONE,
                                 XCB_NONE, XCB_NONE, XCB_PRESENT_OPTION_NONE, 0, 0, 0, 0, NULL));
    if (e)
        die("PresentPixmap: error %d", e->error_code);

    /* IdleNotify may come before or after CompleteNotify. */
    int complete = 0, idle = 0;
    while (!complete || !idle) {
        xcb_present_generic_event_t *ev = next_event(c, se);

        if (ev->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
            xcb_present_complete_notify_event_t *ce = (void *)ev;
            if (ce->serial != 7 || ce->kind != XCB_PRESENT_COMPLETE_KIND_PIXMAP)
                die("CompleteNotify serial %u kind %u", ce->serial, ce->kind);
            printf("CompleteNotify at MSC %llu\n", (unsigned long long)ce->msc);
            complete = 1;
        } else if (ev->evtype == XCB_PRESENT_IDLE_NOTIFY) {
            xcb_present_idle_notify_event_t *ie = (void *)ev;
            if (ie->serial != 7 || ie->pixmap != pixmap)
                die("IdleNotify serial %u pixmap 0x%x", ie->serial, ie->pixmap);
            idle = 1;
        }
        free(ev);
    }

    xcb_get_image_reply_t *img = xcb_get_image_reply(
        c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0, WIDTH, HEIGHT, ~0u), &e);
    if (!img)
        die("GetImage: error %d", e ? e->error_code : -1);
    if (xcb_get_image_data_length(img) != STRIDE * HEIGHT)
        die("GetImage: %d bytes", xcb_get_image_data_length(img));
    const uint8_t *data = xcb_get_image_data(img);
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            uint32_t got;
            memcpy(&got, data + y * STRIDE + x * 4, 4);
            /* depth 24: the top byte is not part of the pixel */
            if ((got & 0xffffff) != (pattern(x, y) & 0xffffff))
                die("pixel (%d,%d) is 0x%08x, wanted 0x%08x", x, y, got, pattern(x, y));
        }
    free(img);
    printf("the window holds the %dx%d pixels the client wrote\n", WIDTH, HEIGHT);

    /* Deselect with a checked request before unregistering, so that no
     * event for eid can arrive after the queue is gone. */
    e = xcb_request_check(c, xcb_present_select_input_checked(c, eid, window, 0));
    if (e)
        die("SelectInput(0): error %d", e->error_code);
    xcb_unregister_for_special_event(c, se);
    xcb_free_pixmap(c, pixmap);
    xcb_destroy_window(c, window);
    xcb_disconnect(c);
    return 0;
}
