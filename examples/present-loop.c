/*
 * present-loop: a complete poll() main loop around a libxcb-present-util
 * swapchain, the one xcb_present_util(7) walks through.
 *
 *     cc present-loop.c $(pkg-config --cflags --libs xcb-present-util) -o present-loop
 *     ./present-loop [--frames N] [--low-latency]
 *
 * It opens a window, makes a swapchain for it and renders a frame each
 * time the swapchain's fd says a buffer can be acquired at once, until N
 * frames were presented (0: until the window is closed or a key is
 * pressed).  The application's own events and the swapchain's come over
 * the same connection, and each side's reads can take the other's
 * events off the socket; the loop below keeps both in step:
 *
 *   1. xcb_present_util_dispatch(): takes in what arrived for the
 *      swapchain (it reads the socket, and may queue the application's
 *      events in libxcb on the way) and says how many buffers are ready;
 *   2. render a frame when one is;
 *   3. xcb_poll_for_queued_event(): the application's events that libxcb
 *      already holds, without reading the socket (xcb_poll_for_event()
 *      would read it and could take the swapchain's events, which would
 *      then not wake the fd);
 *   4. poll() the swapchain's fd, which also covers the X connection.
 *
 * Exit status 0 when every frame presented was shown (or skipped), 1 on
 * an error.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>
#include <xcb/xcb_present_util.h>

/* What the frame callback learns: it runs inside the swapchain's calls,
 * with the swapchain locked, so it only records. */
struct tally {
    uint64_t shown, skipped, last_msc;
};

static void on_frame(void *data, const xcb_present_util_frame_t *frame)
{
    struct tally *t = data;

    if (frame->mode == XCB_PRESENT_COMPLETE_MODE_SKIP)
        t->skipped++;
    else
        t->shown++;
    t->last_msc = frame->msc;
}

/* A bar that moves one pixel a frame. */
static void draw(const xcb_present_util_image_t *img, uint64_t n)
{
    uint32_t bar = (uint32_t)(n % (img->width ? img->width : 1));

    for (uint32_t y = 0; y < img->height; y++) {
        uint32_t *row = (uint32_t *)((char *)img->pixels + (size_t)y * img->stride);

        for (uint32_t x = 0; x < img->width; x++)
            row[x] = x >= bar && x < bar + 16 ? 0xffffffffu : 0xff203040u;
    }
}

static xcb_atom_t intern(xcb_connection_t *c, const char *name)
{
    xcb_intern_atom_reply_t *r =
        xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t atom = r ? r->atom : XCB_NONE;

    free(r);
    return atom;
}

/* The application's events; true when it should stop. */
static bool handle_event(const xcb_generic_event_t *ev, xcb_atom_t wm_delete)
{
    switch (ev->response_type & 0x7f) {
    case XCB_KEY_PRESS:
        return true;
    case XCB_CLIENT_MESSAGE: {
        const xcb_client_message_event_t *cm = (const xcb_client_message_event_t *)ev;

        return wm_delete && cm->data.data32[0] == wm_delete;
    }
    case XCB_EXPOSE:            /* the next frame repaints it all */
    case XCB_CONFIGURE_NOTIFY:  /* the swapchain follows the size itself */
    default:
        return false;
    }
}

int main(int argc, char **argv)
{
    uint64_t frames = 120, presented = 0;
    bool low_latency = false, quit = false;
    struct tally tally = { 0 };
    int screen_no, idle_ms = 0, status = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--low-latency")) {
            low_latency = true;
        } else {
            fprintf(stderr, "usage: %s [--frames N] [--low-latency]\n", argv[0]);
            return 2;
        }
    }

    xcb_connection_t *c = xcb_connect(NULL, &screen_no);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "present-loop: cannot open the display\n");
        xcb_disconnect(c);
        return 1;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screen_no; i++)
        xcb_screen_next(&it);
    xcb_screen_t *screen = it.data;

    /* The window: it need not be mapped for create(), but frames
     * presented before it is mapped show nothing. */
    xcb_window_t window = xcb_generate_id(c);
    uint32_t events = XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_KEY_PRESS |
                      XCB_EVENT_MASK_STRUCTURE_NOTIFY;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 320, 240, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_EVENT_MASK,
                      &events);
    /* WM_DELETE_WINDOW: the window manager's close button.  These are
     * libxcb's own (unbounded) round trips, made before the swapchain
     * exists; made later, a dispatch() after them would take in what
     * they read for the swapchain. */
    xcb_atom_t wm_protocols = intern(c, "WM_PROTOCOLS");
    xcb_atom_t wm_delete = intern(c, "WM_DELETE_WINDOW");
    if (wm_protocols && wm_delete)
        xcb_change_property(c, XCB_PROP_MODE_REPLACE, window, wm_protocols, XCB_ATOM_ATOM,
                            32, 1, &wm_delete);
    xcb_map_window(c, window);
    xcb_flush(c);

    xcb_present_util_options_t options;
    xcb_present_util_options_init(&options);
    if (low_latency)
        options.pacing = XCB_PRESENT_UTIL_PACING_LOW_LATENCY;
    xcb_present_util_swapchain_t *sc = xcb_present_util_swapchain_create(c, window, &options);
    if (!sc) {
        fprintf(stderr, "present-loop: swapchain: %s\n", strerror(errno));
        xcb_disconnect(c);
        return 1;
    }
    xcb_present_util_swapchain_set_frame_callback(sc, on_frame, &tally);
    printf("present-loop: back end %s, %s pacing\n",
           xcb_present_util_backend_name(xcb_present_util_swapchain_backend(sc)),
           low_latency ? "low-latency" : "throughput");

    struct pollfd pfd = { .fd = xcb_present_util_swapchain_fd(sc), .events = POLLIN };
    while (!quit) {
        /* 1. What arrived for the swapchain; the frame callback may run. */
        int ready = xcb_present_util_dispatch(sc);
        if (ready < 0) {
            fprintf(stderr, "present-loop: dispatch: %s\n", strerror(-ready));
            status = 1;
            break;
        }
        /* 2. A frame, when a buffer can be had at once. */
        if (ready > 0 && (frames == 0 || presented < frames)) {
            xcb_present_util_image_t img;
            xcb_present_util_image_init(&img);
            int r = xcb_present_util_acquire(sc, 0, &img);
            if (r == -ETIMEDOUT)
                continue;           /* taken by another thread: not here */
            if (r < 0) {
                fprintf(stderr, "present-loop: acquire: %s\n", strerror(-r));
                status = 1;
                break;
            }
            draw(&img, img.frame_id);
            r = xcb_present_util_present(sc, &img, NULL, 0);
            if (r < 0) {
                fprintf(stderr, "present-loop: present: %s\n", strerror(-r));
                status = 1;
                break;
            }
            presented++;
            idle_ms = 0;
        }
        if (frames && presented >= frames)
            break;
        /* 3. The application's events libxcb already holds: dispatch(),
         * acquire() and present() read the socket and queue them. */
        bool handled = false;
        xcb_generic_event_t *ev;
        while ((ev = xcb_poll_for_queued_event(c))) {
            quit |= handle_event(ev, wm_delete);
            handled = true;
            free(ev);
        }
        if (xcb_connection_has_error(c)) {
            fprintf(stderr, "present-loop: the connection broke\n");
            status = 1;
            break;
        }
        if (handled || ready > 0)
            continue;               /* back to dispatch() before sleeping */
        /* 4. Sleep until the swapchain or the connection has something. */
        int n = poll(&pfd, 1, 1000);
        if (n < 0 && errno != EINTR) {
            perror("present-loop: poll");
            status = 1;
            break;
        }
        if (n == 0 && (idle_ms += 1000) >= 5000) {
            fprintf(stderr, "present-loop: no buffer for 5 s (a hidden window?)\n");
            status = 1;
            break;
        }
    }

    /* Every frame presented: shown, skipped or given up (at most 1 s). */
    if (presented) {
        xcb_present_util_frame_t last;
        xcb_present_util_frame_init(&last);
        int r = xcb_present_util_wait_frame(sc, 0, 1000 * 1000 * 1000, &last);
        if (r < 0) {
            fprintf(stderr, "present-loop: wait_frame: %s\n", strerror(-r));
            status = 1;
        }
    }
    xcb_present_util_stats_t st;
    xcb_present_util_stats_init(&st);
    xcb_present_util_swapchain_stats(sc, &st);
    /* Times: refresh_ns and the latencies in ns, UST in microseconds. */
    printf("present-loop: %" PRIu64 " frames presented, %" PRIu64 " completed (%" PRIu64
           " skipped), %" PRIu64 " missed vblanks\n",
           st.presented, st.completed, st.skipped, st.missed_vblanks);
    printf("present-loop: refresh %.2f ms, acquire() to shown: mean %.2f ms, p99 %.2f ms\n",
           st.refresh_ns / 1e6, st.shown_latency_mean_ns / 1e6, st.shown_latency_p99_ns / 1e6);
    printf("present-loop: frame callback: %" PRIu64 " shown, %" PRIu64 " skipped, last msc %"
           PRIu64 "\n", tally.shown, tally.skipped, tally.last_msc);
    if (!status && st.completed != st.presented)
        status = 1;
    /* destroy() may still call the frame callback, for the frames whose
     * completion arrives while it waits: tally must outlive it. */
    xcb_present_util_swapchain_destroy(sc);
    xcb_destroy_window(c, window);
    xcb_disconnect(c);
    return status;
}
