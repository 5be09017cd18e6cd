/*
 * xcb-dri3-info: what an X server offers for direct rendering and
 * presentation: the DRI3 and Present versions, Present's capabilities, the
 * DRM device behind DRI3 Open, the supported format modifiers for the
 * common depths, and the refresh rate measured from two MSC/UST pairs.
 * Text for people, --json for scripts.  Without a DISPLAY it starts an
 * Xvfb of its own and stops it by its PID.
 *
 * The probe, the device, the modifier lists and the names of formats and
 * modifiers are libxcb-dri3-util's: the tool is meant to show what a
 * program using the library sees, and to be an example of its use.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xcb/present.h>
#include <xcb/randr.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>     /* xcb_extension_t */

#include "clock.h"
#include "info-report.h"
#include "xcb_dri3_util.h"
#include "xvfb-spawn.h"


/* DRI3 Open through the library; why there is no device otherwise. */
static void open_device(xcb_connection_t *c, xcb_window_t root, struct info *in)
{
    xcb_generic_error_t *e = NULL;

    in->device = xcb_dri3_util_device_open(c, root, 0, &e);
    if (in->device)
        return;
    if (errno == EIO && e && e->error_code == XCB_MATCH)
        snprintf(in->device_error, sizeof in->device_error,
                 "the server has no DRM device for this screen (Open: BadMatch)");
    else if (errno == EIO && e)
        snprintf(in->device_error, sizeof in->device_error, "Open failed with X error %u",
                 e->error_code);
    else if (errno == EPROTO)
        snprintf(in->device_error, sizeof in->device_error,
                 "the Open reply did not carry exactly one fd");
    else if (errno == ETIMEDOUT)
        snprintf(in->device_error, sizeof in->device_error, "Open got no answer in time");
    else
        snprintf(in->device_error, sizeof in->device_error, "Open failed: %s",
                 strerror(errno));
    free(e);
}

/* The window's and the screen's lists for one depth, with the format the
 * library gives that depth. */
static void query_modifiers(xcb_connection_t *c, xcb_window_t root, struct info_modifiers *m)
{
    xcb_generic_error_t *e = NULL;

    m->fourcc = xcb_dri3_util_fourcc_from_depth(m->depth, m->bpp);
    m->error = xcb_dri3_util_modifiers_query(c, root, m->depth, m->bpp, &m->window,
                                             &m->n_window, &m->screen, &m->n_screen,
                                             &e);
    if (e)
        m->x_error = e->error_code;
    free(e);
}

/* The next CompleteNotify of our NotifyMSC, within two seconds. */
static xcb_present_complete_notify_event_t *next_msc(xcb_connection_t *c,
                                                     xcb_special_event_t *se)
{
    double deadline = tool_now_s() + 2;

    xcb_flush(c);
    for (;;) {
        xcb_generic_event_t *ev = xcb_poll_for_special_event(c, se);
        struct pollfd p = { .fd = xcb_get_file_descriptor(c), .events = POLLIN };

        if (ev && ((xcb_ge_generic_event_t *)ev)->event_type == XCB_PRESENT_COMPLETE_NOTIFY)
            return (xcb_present_complete_notify_event_t *)ev;
        free(ev);
        if (ev)
            continue;
        if (xcb_connection_has_error(c) || tool_now_s() > deadline)
            return NULL;
        poll(&p, 1, 20);
    }
}

/* Two MSC/UST pairs, thirty vblanks apart, on a small window of our own. */
static void measure_refresh(xcb_connection_t *c, const xcb_screen_t *screen, struct info *in)
{
    uint32_t values[1] = { 1 };
    xcb_window_t w = xcb_generate_id(c);
    uint32_t eid = xcb_generate_id(c);
    xcb_present_complete_notify_event_t *a = NULL, *b = NULL;
    xcb_get_input_focus_reply_t *focus = NULL;
    xcb_special_event_t *se;

    xcb_create_window(c, XCB_COPY_FROM_PARENT, w, screen->root, 0, 0, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                      XCB_CW_OVERRIDE_REDIRECT, values);
    xcb_map_window(c, w);
    se = xcb_register_for_special_xge(c, &xcb_present_id, eid, NULL);
    xcb_present_select_input(c, eid, w, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    xcb_present_notify_msc(c, w, 1, 0, 0, 0);
    a = next_msc(c, se);
    if (a) {
        xcb_present_notify_msc(c, w, 2, a->msc + 30, 0, 0);
        b = next_msc(c, se);
    }
    if (a && b && b->msc > a->msc && b->ust > a->ust) {
        in->refresh_ok = true;
        in->refresh_hz = (double)(b->msc - a->msc) * 1e6 / (double)(b->ust - a->ust);
        in->msc = b->msc;
        in->ust = b->ust;
    } else {
        snprintf(in->refresh_error, sizeof in->refresh_error,
                 a ? "the MSC did not advance within two seconds" : "no NotifyMSC completion");
    }
    free(a);
    free(b);
    xcb_present_select_input(c, eid, w, 0);
    xcb_destroy_window(c, w);
    /* The server must have dropped the selection before the queue goes,
     * or a late event would land in the main queue; the library's
     * bounded wait, so that a stalled server cannot hold the tool. */
    xcb_dri3_util_wait_reply(c, xcb_get_input_focus(c).sequence, 0, xcb_dri3_util_deadline(c),
                             -1, (void **)&focus, NULL);
    free(focus);
    xcb_unregister_for_special_event(c, se);
}

/* Xwayland: its XWAYLAND extension (Xwayland 23.1 on) or, before it, the
 * names of its RandR outputs, XWAYLAND0, XWAYLAND1... (Mesa's Vulkan WSI
 * asks the same two questions).  The waits are the library's bounded ones. */
static bool is_xwayland(xcb_connection_t *c, xcb_window_t root)
{
    static xcb_extension_t xwayland_id = { "XWAYLAND", 0 };
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xwayland_id);
    xcb_randr_query_version_reply_t *v = NULL;
    xcb_randr_get_screen_resources_current_reply_t *res = NULL;
    xcb_randr_get_output_info_reply_t *out = NULL;
    uint64_t deadline = xcb_dri3_util_deadline(c);
    bool found = false;

    if (ext && ext->present)
        return true;
    ext = xcb_get_extension_data(c, &xcb_randr_id);
    if (!ext || !ext->present)
        return false;
    /* GetScreenResourcesCurrent is RandR 1.3's, for clients that said so */
    xcb_dri3_util_wait_reply(c, xcb_randr_query_version(c, 1, 3).sequence, 0, deadline, -1,
                             (void **)&v, NULL);
    if (v && (v->major_version > 1 || v->minor_version >= 3))
        xcb_dri3_util_wait_reply(c, xcb_randr_get_screen_resources_current(c, root).sequence,
                                 0, deadline, -1, (void **)&res, NULL);
    if (res && xcb_randr_get_screen_resources_current_outputs_length(res) > 0) {
        xcb_randr_output_t first = xcb_randr_get_screen_resources_current_outputs(res)[0];

        xcb_dri3_util_wait_reply(c, xcb_randr_get_output_info(c, first,
                                                              res->config_timestamp).sequence,
                                 0, deadline, -1, (void **)&out, NULL);
    }
    if (out) {
        int len = xcb_randr_get_output_info_name_length(out);

        found = len >= 8 && memcmp(xcb_randr_get_output_info_name(out), "XWAYLAND", 8) == 0;
    }
    free(v);
    free(res);
    free(out);
    return found;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
        { "display", required_argument, NULL, 'd' }, { NULL, 0, NULL, 0 },
    };
    struct info in = { .mods = { { .depth = 24, .bpp = 32 }, { .depth = 32, .bpp = 32 } } };
    struct xvfb xvfb = { .pid = -1 };
    const xcb_screen_t *screen;
    xcb_connection_t *c;
    const char *display = NULL;
    bool json = false;
    int opt, ret;

    /* getopt's messages start with argv[0]: ours, not libtool's path */
    argv[0] = (char *)"xcb-dri3-info";
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (opt == 'j') {
            json = true;
        } else if (opt == 'd' && *optarg) {
            display = optarg;
        } else {
            fprintf(opt == 'h' ? stdout : stderr,
                    "usage: xcb-dri3-info [--json] [--display NAME]\n"
                    "Prints what the X server on NAME (default $DISPLAY) offers for DRI3 and\n"
                    "Present; without either, an Xvfb of its own is started and stopped again.\n"
                    "--json prints one object, as xcb-dri3-info.schema.json (installed in\n"
                    "share/xcb-dri3-present) describes it.\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "xcb-dri3-info: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    in.display = display ? display : getenv("DISPLAY");
    if (!in.display || !*in.display) {
        if (xvfb_start(&xvfb, "640x480x24") < 0) {
            fprintf(stderr, "xcb-dri3-info: no DISPLAY, and no Xvfb could be started\n");
            return 1;
        }
        in.display = xvfb.display;
        in.xvfb_pid = (int)xvfb.pid;
    }
    c = xcb_connect(in.display, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "xcb-dri3-info: cannot connect to %s\n", in.display);
        xcb_disconnect(c);
        xvfb_stop(&xvfb);
        return 1;
    }
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    info_read_server(c, &in.server);
    in.server.xwayland = is_xwayland(c, screen->root);
    /* One probe answers every version and capability question, and the
     * library's helpers below consult it too: nothing is sent to an
     * extension the server lacks. */
    xcb_dri3_util_caps_init(&in.caps);
    ret = xcb_dri3_util_probe(c, &in.caps);
    if (ret == 0 && in.caps.dri3) {
        open_device(c, screen->root, &in);
        for (int i = 0; i < INFO_N_DEPTHS; i++)
            query_modifiers(c, screen->root, &in.mods[i]);
    }
    if (ret == 0 && in.caps.present)
        measure_refresh(c, screen, &in);
    if (ret < 0 || xcb_connection_has_error(c)) {
        if (ret < 0)
            fprintf(stderr, "xcb-dri3-info: no answer from %s: %s\n", in.display,
                    strerror(-ret));
        else
            fprintf(stderr, "xcb-dri3-info: the connection to %s broke\n", in.display);
        info_free(&in);
        xcb_dri3_util_probe_forget(c);
        xcb_disconnect(c);
        xvfb_stop(&xvfb);
        return 1;
    }
    if (json)
        info_print_json(&in, stdout);
    else
        info_print_text(&in, stdout);
    info_free(&in);
    xcb_dri3_util_probe_forget(c);
    xcb_disconnect(c);
    xvfb_stop(&xvfb);
    return 0;
}
