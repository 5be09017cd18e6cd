/*
 * xcb-present-demo: an animated window presented on vblank through
 * libxcb-present-util, with frame-timing figures.
 *
 * A bright bar sweeps across the window at a constant speed per vblank and
 * a checkerboard scrolls downwards: a torn frame shows the bar broken in
 * two, a stutter (a frame shown twice or skipped) shows as a jump.
 * Without a DISPLAY it starts an Xvfb of its own on a free display and
 * stops it by its PID at the end.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

#include "clock.h"
#include "demo-report.h"
#include "png-write.h"
#include "xcb_dri3_util.h"
#include "xcb_dri3_util_wait.h"
#include "xcb_present_util.h"
#include "xvfb-spawn.h"

#define SECOND 1000000000LL

/* The name in its messages, whatever argv[0] is (libtool's wrapper runs
 * tools/.libs/xcb-present-demo or lt-xcb-present-demo in the build tree). */
#define PROG "xcb-present-demo"

/* A run without --frames or --seconds: about FIFO's 300 frames at 60 Hz,
 * in every mode (MAILBOX and IMMEDIATE present as fast as they can). */
#define DEFAULT_SECONDS 5.0

struct demo {
    uint32_t frames, buffers, width, height;   /* frames: 0 without --frames */
    double seconds;                 /* 0 without --seconds */
    const char *display;            /* --display; NULL: $DISPLAY */
    uint32_t latency;               /* max_latency; 0: the library's default */
    bool pacing_given, latency_given;
    xcb_present_util_mode_t mode;
    xcb_present_util_pacing_t pacing;
    xcb_present_util_backend_t backend;
    const char *plot, *screenshot;
    xcb_connection_t *c;
    xcb_window_t window;
    struct xvfb xvfb;
    uint32_t last_rendered;         /* frame number of the last present() */
    /* Its size: the window's by then, which a window manager may have
     * changed from the one asked for (Xwayland's kiosk-shell fills the
     * output), and what the screenshot takes. */
    uint16_t last_width, last_height;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: xcb-present-demo [options]\n"
            "  --display NAME      the X server to present on (default $DISPLAY)\n"
            "  --frames N          stop after N frames\n"
            "  --seconds S         stop after S seconds (0.1 to 3600; default 5 in every\n"
            "                      mode when --frames is not given either; with both,\n"
            "                      whichever comes first)\n"
            "  --mode M            fifo, fifo-relaxed, mailbox or immediate (default fifo)\n"
            "  --backend B         auto, dri3, shm or put-image (default auto)\n"
            "  --buffers N         2 to 8 (default: the library's choice)\n"
            "  --pacing P          throughput or low-latency (FIFO modes only; default\n"
            "                      throughput)\n"
            "  --latency N         frames queued ahead of the screen at most, 1 to 7\n"
            "                      (FIFO modes only; default 2; at most buffers - 1)\n"
            "  --size WxH          window size (default 640x480)\n"
            "  --plot FILE.svg     write a plot of the intervals between shown frames and\n"
            "                      of each frame's latency (acquire() to shown)\n"
            "  --screenshot FILE.png  save the window's contents at the end\n"
            "  --help\n"
            "Without --display or DISPLAY, an Xvfb of its own is started and stopped again.\n");
}

static int unknown(const char *what, const char *arg)
{
    fprintf(stderr, PROG ": unknown %s '%s'\n", what, arg);
    return -1;
}

static int parse_mode(const char *s, xcb_present_util_mode_t *m)
{
    for (int i = XCB_PRESENT_UTIL_MODE_FIFO; i <= XCB_PRESENT_UTIL_MODE_IMMEDIATE; i++)
        if (strcmp(s, xcb_present_util_mode_name((xcb_present_util_mode_t)i)) == 0) {
            *m = (xcb_present_util_mode_t)i;
            return 0;
        }
    return unknown("mode", s);
}

static int parse_backend(const char *s, xcb_present_util_backend_t *b)
{
    for (int i = XCB_PRESENT_UTIL_BACKEND_AUTO; i <= XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE; i++)
        if (strcmp(s, xcb_present_util_backend_name((xcb_present_util_backend_t)i)) == 0) {
            *b = (xcb_present_util_backend_t)i;
            return 0;
        }
    return unknown("back end", s);
}

static int parse_pacing(const char *s, xcb_present_util_pacing_t *p)
{
    for (int i = XCB_PRESENT_UTIL_PACING_THROUGHPUT; i <= XCB_PRESENT_UTIL_PACING_LOW_LATENCY; i++)
        if (strcmp(s, demo_pacing_name((xcb_present_util_pacing_t)i)) == 0) {
            *p = (xcb_present_util_pacing_t)i;
            return 0;
        }
    return unknown("pacing", s);
}

/* A whole number from lo to hi for --opt; says what it wants otherwise. */
static int parse_count(const char *opt, const char *arg, uint32_t lo, uint32_t hi,
                       uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(arg, &end, 10);

    if (*arg < '0' || *arg > '9' || *end || v < lo || v > hi) {
        fprintf(stderr, PROG ": --%s wants %u to %u\n", opt, lo, hi);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* A duration in seconds, 0.1 to 3600, for --seconds. */
static int parse_seconds(const char *arg, double *out)
{
    char *end;
    double v = strtod(arg, &end);

    if (end == arg || *end || !isfinite(v) || v < 0.1 || v > 3600) {
        fprintf(stderr, PROG ": --seconds wants a duration from 0.1 to 3600\n");
        return -1;
    }
    *out = v;
    return 0;
}

/* What the options mean together: pacing and max_latency belong to the
 * FIFO modes (refused elsewhere, where they would do nothing), and a
 * max_latency the buffers cannot hold is said, with what it becomes. */
static int check_args(struct demo *d)
{
    uint32_t buffers = d->buffers ? d->buffers : 3;

    if (d->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED && (d->pacing_given || d->latency_given)) {
        fprintf(stderr, PROG ": --%s applies to the FIFO modes only (fifo, fifo-relaxed): "
                "%s mode presents as fast as the buffers come back and has no pacing\n",
                d->pacing_given ? "pacing" : "latency", xcb_present_util_mode_name(d->mode));
        return -1;
    }
    if (d->latency_given && d->latency > buffers - 1)
        fprintf(stderr, PROG ": warning: --latency %u needs %u buffers and there are %u "
                "(%s): max latency is %u frame%s (add --buffers %u)\n", d->latency,
                d->latency + 1, buffers, d->buffers ? "--buffers" : "the default",
                buffers - 1, buffers - 1 == 1 ? "" : "s", d->latency + 1);
    return 0;
}

static int parse_args(struct demo *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "frames", required_argument, NULL, 'f' }, { "mode", required_argument, NULL, 'm' },
        { "backend", required_argument, NULL, 'b' }, { "buffers", required_argument, NULL, 'n' },
        { "size", required_argument, NULL, 's' }, { "plot", required_argument, NULL, 'p' },
        { "pacing", required_argument, NULL, 'P' }, { "latency", required_argument, NULL, 'l' },
        { "screenshot", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
        { "display", required_argument, NULL, 'd' }, { "seconds", required_argument, NULL, 't' },
        { NULL, 0, NULL, 0 },
    };
    int opt;

    /* getopt's own messages start with argv[0]: ours, not libtool's path */
    argv[0] = (char *)PROG;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 'd':
            if (!*optarg) {
                fprintf(stderr, PROG ": --display wants a display name, such as :0\n");
                return -1;
            }
            d->display = optarg;
            break;
        case 't':
            if (parse_seconds(optarg, &d->seconds) < 0)
                return -1;
            break;
        case 'f':
            if (parse_count("frames", optarg, 1, 1000000, &d->frames) < 0)
                return -1;
            break;
        case 'm':
            if (parse_mode(optarg, &d->mode) < 0)
                return -1;
            break;
        case 'b':
            if (parse_backend(optarg, &d->backend) < 0)
                return -1;
            break;
        case 'n':
            if (parse_count("buffers", optarg, 2, 8, &d->buffers) < 0)
                return -1;
            break;
        case 'P':
            if (parse_pacing(optarg, &d->pacing) < 0)
                return -1;
            d->pacing_given = true;
            break;
        case 'l':
            if (parse_count("latency", optarg, 1, 7, &d->latency) < 0)
                return -1;
            d->latency_given = true;
            break;
        case 's':
            if (sscanf(optarg, "%ux%u", &d->width, &d->height) != 2 || d->width < 16 ||
                d->height < 16 || d->width > 4096 || d->height > 4096) {
                fprintf(stderr, PROG ": --size wants WxH, 16 to 4096 each\n");
                return -1;
            }
            break;
        case 'p':
            d->plot = optarg;
            break;
        case 'o':
            d->screenshot = optarg;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        return -1;
    }
    if (!d->frames && !d->seconds)
        d->seconds = DEFAULT_SECONDS;
    return check_args(d);
}

/* Frame n: the bar advances 8 pixels and the checkerboard 2 rows a frame. */
static void render(const xcb_present_util_image_t *img, uint32_t n)
{
    uint32_t bar = (n * 8) % img->width, bar_w = img->width / 16 + 4;

    for (uint32_t y = 0; y < img->height; y++) {
        uint32_t *row = (uint32_t *)((uint8_t *)img->pixels + (size_t)y * img->stride);
        uint32_t band = ((y + 2 * n) / 32) & 1;

        for (uint32_t x = 0; x < img->width; x++) {
            uint32_t check = band ^ ((x / 32) & 1);
            uint32_t shade = 0x30 + (x * 0x40) / img->width;

            row[x] = check ? shade << 16 | shade << 8 | 0x60 : 0x202020 | (y & 0x1f);
        }
        for (uint32_t x = bar; x < bar + bar_w && x < img->width; x++)
            row[x] = 0xffd000;
    }
}

/* What the server says to the connection (errors included) is not ours
 * to act on beyond reading it, so that it does not pile up. */
static void drain_events(xcb_connection_t *c)
{
    xcb_generic_event_t *ev;

    while ((ev = xcb_poll_for_event(c)))
        free(ev);
}

static int make_window(struct demo *d)
{
    const xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(d->c)).data;
    static const char title[] = "xcb-present-demo";
    uint32_t values[1] = { screen->black_pixel };

    d->window = xcb_generate_id(d->c);
    xcb_create_window(d->c, XCB_COPY_FROM_PARENT, d->window, screen->root, 0, 0,
                      (uint16_t)d->width, (uint16_t)d->height, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL,
                      values);
    xcb_change_property(d->c, XCB_PROP_MODE_REPLACE, d->window, XCB_ATOM_WM_NAME,
                        XCB_ATOM_STRING, 8, sizeof title - 1, title);
    xcb_map_window(d->c, d->window);
    xcb_flush(d->c);
    return xcb_connection_has_error(d->c) ? -1 : 0;
}

/* GetImage, then a PNG.  The wait is the library's bounded one (the one
 * the swapchain uses), with four seconds more than the connection's bound:
 * a whole window's pixels may take a while out of a busy server. */
static int screenshot(struct demo *d, const char *path)
{
    uint32_t w = d->last_width, h = d->last_height;
    xcb_get_image_cookie_t ck = xcb_get_image(d->c, XCB_IMAGE_FORMAT_Z_PIXMAP, d->window, 0, 0,
                                              (uint16_t)w, (uint16_t)h, ~0u);
    xcb_get_image_reply_t *img = NULL;
    int r = -1;

    xcb_dri3_util_wait_reply(d->c, ck.sequence, 0, xcb_dri3_util_deadline(d->c) + 4 * SECOND,
                             -1, (void **)&img, NULL);
    if (img && w && xcb_get_image_data_length(img) == (int)(w * h * 4))
        r = png_write_xrgb(path, (const uint32_t *)xcb_get_image_data(img), w * 4, w, h);
    if (r < 0)
        fprintf(stderr, PROG ": cannot save the screenshot to %s\n", path);
    else
        printf("screenshot of frame %u saved to %s\n", d->last_rendered, path);
    free(img);
    return r;
}

/* max_latency as the library takes it (xcb_present_util_options_t): 0 is
 * its default, 2, and no value goes above buffers - 1.  The library does
 * not report it, so the summary says what was asked for, clamped alike. */
static uint32_t effective_latency(uint32_t asked, uint32_t buffers)
{
    uint32_t l = asked ? asked : 2;

    return l > buffers - 1 ? buffers - 1 : l;
}

static const char *explain(int err)
{
    switch (err) {
    case -ENODEV: return "the window is gone";
    case -EPIPE: return "the connection to the X server broke";
    case -ETIMEDOUT: return "no buffer came back within a second (hidden or throttled window?)";
    case -ENOTSUP: return "not supported by this server or window";
    default: return strerror(-err);
    }
}

/* Why create() said -ENOTSUP, from what the server offers (the probe of
 * libxcb-dri3-util, which is the one the DRI3 back end makes): the
 * extension that is missing for the back end asked for, into buf. */
static void why_unsupported(xcb_connection_t *c, xcb_present_util_backend_t backend,
                            char *buf, size_t size)
{
    xcb_dri3_util_caps_t caps;
    const char *name = xcb_present_util_backend_name(backend);
    int r;

    xcb_dri3_util_caps_init(&caps);
    r = xcb_dri3_util_probe(c, &caps);
    if (r < 0) {
        snprintf(buf, size, "the %s back end cannot be used here, and the server did not "
                 "say what it offers (%s)", name, strerror(-r));
        return;
    }
    if (!caps.present) {
        snprintf(buf, size, "the server has no Present extension, which every back end "
                 "needs");
        return;
    }
    switch (backend) {
    case XCB_PRESENT_UTIL_BACKEND_DRI3:
        if (!caps.dri3)
            snprintf(buf, size, "the server has no DRI3 extension, which --backend dri3 "
                     "needs (try --backend shm or auto)");
        else if (!caps.sync)
            snprintf(buf, size, "the server has no SYNC extension, which --backend dri3 "
                     "needs for its fences");
        else if (!caps.fd_passing)
            snprintf(buf, size, "the connection is not local: DRI3 buffers are file "
                     "descriptors, which cannot cross it");
        else
            snprintf(buf, size, "the server has DRI3 %u.%u but refused the back end's "
                     "buffers (XCB_PRESENT_UTIL_DEBUG=1 says more)", caps.dri3_major,
                     caps.dri3_minor);
        return;
    case XCB_PRESENT_UTIL_BACKEND_SHM:
        if (!caps.shm)
            snprintf(buf, size, "the server has no MIT-SHM extension, which --backend shm "
                     "needs (try --backend put-image)");
        else if (!caps.shm_pixmaps || caps.shm_major < 1 ||
                 (caps.shm_major == 1 && caps.shm_minor < 2))
            snprintf(buf, size, "the server's MIT-SHM %u.%u lacks %s, which --backend shm "
                     "needs (try --backend put-image)", caps.shm_major, caps.shm_minor,
                     caps.shm_pixmaps ? "version 1.2 (segments from fds)" : "shared pixmaps");
        else if (!caps.fd_passing)
            snprintf(buf, size, "the connection is not local: MIT-SHM segments are file "
                     "descriptors, which cannot cross it (try --backend put-image)");
        else
            snprintf(buf, size, "the server refused a shared memory segment "
                     "(XCB_PRESENT_UTIL_DEBUG=1 says more)");
        return;
    default:
        snprintf(buf, size, "the server has Present %u.%u, but the %s back end%s cannot "
                 "present to this window (XCB_PRESENT_UTIL_DEBUG=1 says why)",
                 caps.present_major, caps.present_minor, name,
                 backend == XCB_PRESENT_UTIL_BACKEND_AUTO ? "s" : "");
    }
}

/* Presents the frames; returns 0 or the error that ended the run. */
static int run(struct demo *d, xcb_present_util_swapchain_t *sc, struct demo_report *rep)
{
    double end = d->seconds ? tool_now_s() + d->seconds : 0;
    int timeouts = 0;

    for (uint32_t n = 1; (!d->frames || n <= d->frames) && (!end || tool_now_s() < end); n++) {
        xcb_present_util_image_t img = { .size = sizeof img };
        int r = xcb_present_util_acquire(sc, SECOND, &img);

        if (r == -ETIMEDOUT && ++timeouts < 5) {
            fprintf(stderr, PROG ": %s\n", explain(r));
            n--;
            continue;
        }
        if (r)
            return r;
        render(&img, n);
        r = xcb_present_util_present(sc, &img, NULL, 0);
        if (r)
            return r;
        d->last_rendered = n;
        d->last_width = img.width;
        d->last_height = img.height;
        drain_events(d->c);
        demo_report_tick(rep, sc, stdout);
    }
    /* Let the last frames come out (at most two seconds). */
    for (double end = tool_now_s() + 2; tool_now_s() < end; ) {
        struct pollfd p = { .fd = xcb_present_util_swapchain_fd(sc), .events = POLLIN };
        xcb_present_util_stats_t st = { .size = sizeof st };

        if (xcb_present_util_swapchain_stats(sc, &st) == 0 && st.completed >= st.presented)
            break;
        poll(&p, 1, 50);
        if (xcb_present_util_dispatch(sc) < 0)
            break;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct demo d = { .width = 640, .height = 480,
                      .mode = XCB_PRESENT_UTIL_MODE_FIFO,
                      .backend = XCB_PRESENT_UTIL_BACKEND_AUTO };
    xcb_present_util_options_t o;
    xcb_present_util_swapchain_t *sc;
    xcb_present_util_stats_t st = { .size = sizeof st };
    struct demo_report rep;
    struct demo_setup setup = { 0 };
    const char *display;
    char what[256], length[64];
    double t0;
    int err = 0, status = 0;

    if (parse_args(&d, argc, argv) < 0)
        return 2;
    display = d.display ? d.display : getenv("DISPLAY");
    d.xvfb.pid = -1;
    if (!display || !*display) {
        char screen[48];

        snprintf(screen, sizeof screen, "%ux%ux24", d.width < 640 ? 640 : d.width,
                 d.height < 480 ? 480 : d.height);
        if (xvfb_start(&d.xvfb, screen) < 0) {
            fprintf(stderr, PROG ": no --display or DISPLAY, and no Xvfb could be started\n");
            return 1;
        }
        display = d.xvfb.display;
        printf("no DISPLAY: started Xvfb on %s (pid %d)\n", display, (int)d.xvfb.pid);
    }
    d.c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(d.c) || make_window(&d) < 0) {
        fprintf(stderr, PROG ": cannot connect to %s\n", display);
        xcb_dri3_util_probe_forget(d.c);
        xcb_disconnect(d.c);
        xvfb_stop(&d.xvfb);
        return 1;
    }
    xcb_present_util_options_init(&o);
    o.mode = d.mode;
    o.backend = d.backend;
    o.num_buffers = d.buffers;
    o.pacing = d.pacing;
    o.max_latency = d.latency;
    sc = xcb_present_util_swapchain_create(d.c, d.window, &o);
    if (!sc)
        err = -errno;
    else if (demo_report_init(&rep, d.frames ? d.frames : 1024) < 0)
        err = -ENOMEM;
    if (err == -ENOTSUP)
        why_unsupported(d.c, d.backend, what, sizeof what);
    else
        snprintf(what, sizeof what, "%s", explain(err));
    if (err) {
        fprintf(stderr, PROG ": no swapchain: %s\n", what);
        xcb_present_util_swapchain_destroy(sc);
        xcb_dri3_util_probe_forget(d.c);
        xcb_disconnect(d.c);
        xvfb_stop(&d.xvfb);
        return 1;
    }
    xcb_present_util_swapchain_set_frame_callback(sc, demo_report_frame, &rep);
    setup = (struct demo_setup){ display, d.xvfb.pid > 0 ? (int)d.xvfb.pid : 0,
                                 xcb_present_util_swapchain_backend(sc), d.mode,
                                 d.buffers ? d.buffers : 3, d.width, d.height, d.pacing,
                                 0, 0, 0 };
    setup.max_latency = effective_latency(d.latency, setup.buffers);
    setup.asked_latency = d.latency;
    if (d.frames && d.seconds)
        snprintf(length, sizeof length, "%u frames (at most %g s)", d.frames, d.seconds);
    else if (d.frames)
        snprintf(length, sizeof length, "%u frames", d.frames);
    else
        snprintf(length, sizeof length, "for %g s", d.seconds);
    if (d.mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED)
        printf("presenting %s, %ux%u, %s, %s pacing, max latency %u frame%s, %s back end\n",
               length, d.width, d.height, xcb_present_util_mode_name(d.mode),
               demo_pacing_name(d.pacing), setup.max_latency, setup.max_latency == 1 ? "" : "s",
               xcb_present_util_backend_name(setup.backend));
    else
        printf("presenting %s, %ux%u, %s (no pacing in this mode), %s back end\n", length,
               d.width, d.height, xcb_present_util_mode_name(d.mode),
               xcb_present_util_backend_name(setup.backend));
    fflush(stdout);
    t0 = tool_now_s();
    err = run(&d, sc, &rep);
    setup.seconds = tool_now_s() - t0;
    if (err) {
        fprintf(stderr, PROG ": stopped after frame %u: %s\n", d.last_rendered,
                explain(err));
        status = 1;
    }
    xcb_present_util_swapchain_stats(sc, &st);
    xcb_present_util_swapchain_set_frame_callback(sc, NULL, NULL);
    demo_report_summary(&rep, &setup, &st, stdout);
    if (d.plot && demo_report_plot(&rep, &st, d.plot) < 0) {
        fprintf(stderr, PROG ": cannot write the plot to %s\n", d.plot);
        status = 1;
    } else if (d.plot) {
        printf("plot of frame intervals and latency (acquire() to shown) written to %s\n",
               d.plot);
    }
    if (d.screenshot && !err && screenshot(&d, d.screenshot) < 0)
        status = 1;
    xcb_present_util_swapchain_destroy(sc);
    demo_report_free(&rep);
    if (!xcb_connection_has_error(d.c))
        xcb_destroy_window(d.c, d.window);
    xcb_dri3_util_probe_forget(d.c);
    xcb_disconnect(d.c);
    if (d.xvfb.pid > 0) {
        int pid = (int)d.xvfb.pid;

        xvfb_stop(&d.xvfb);
        printf("stopped Xvfb (pid %d)\n", pid);
    }
    return status;
}
