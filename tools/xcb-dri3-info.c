/*
 * xcb-dri3-info: what an X server offers for direct rendering and
 * presentation: the DRI3 and Present versions, Present's capabilities, the
 * DRM device behind DRI3 Open, the supported format modifiers for the
 * common depths, and the refresh rate measured from two MSC/UST pairs.
 * Text for people, --json for scripts.  Without a DISPLAY it starts an
 * Xvfb of its own and stops it by its PID.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

#include "info-names.h"
#include "xvfb-spawn.h"

#define MAX_MODS 64

struct modifiers {
    uint8_t depth;
    bool ok;
    uint64_t window[MAX_MODS], screen[MAX_MODS];
    uint32_t n_window, n_screen;
};

struct info {
    const char *display;
    int xvfb_pid;
    bool present, dri3;
    uint32_t present_major, present_minor, caps;
    uint32_t dri3_major, dri3_minor;
    bool device_ok;
    char device_error[128];
    struct info_device device;
    struct modifiers mods[2];
    bool refresh_ok;
    char refresh_error[128];
    double refresh_hz;
    uint64_t msc, ust;
};

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A reply within two seconds, or NULL (with *e set for an X error). */
static void *reply_of(xcb_connection_t *c, unsigned int seq, xcb_generic_error_t **e)
{
    double deadline = now_s() + 2;
    void *reply = NULL;

    *e = NULL;
    xcb_flush(c);
    while (!xcb_poll_for_reply(c, seq, &reply, e)) {
        struct pollfd p = { .fd = xcb_get_file_descriptor(c), .events = POLLIN };

        if (xcb_connection_has_error(c) || now_s() > deadline)
            return NULL;
        poll(&p, 1, 50);
    }
    return reply;
}

static void query_present(xcb_connection_t *c, xcb_window_t root, struct info *in)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_present_id);
    xcb_present_query_version_reply_t *v;
    xcb_present_query_capabilities_reply_t *caps;
    xcb_generic_error_t *e;

    if (!ext || !ext->present)
        return;
    v = reply_of(c, xcb_present_query_version(c, 1, 4).sequence, &e);
    free(e);
    if (!v)
        return;
    in->present = true;
    in->present_major = v->major_version;
    in->present_minor = v->minor_version;
    free(v);
    caps = reply_of(c, xcb_present_query_capabilities(c, root).sequence, &e);
    free(e);
    if (caps)
        in->caps = caps->capabilities;
    free(caps);
}

static void query_dri3(xcb_connection_t *c, xcb_window_t root, struct info *in)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_dri3_id);
    xcb_dri3_query_version_reply_t *v;
    xcb_dri3_open_reply_t *open;
    xcb_generic_error_t *e;

    if (!ext || !ext->present)
        return;
    v = reply_of(c, xcb_dri3_query_version(c, 1, 4).sequence, &e);
    free(e);
    if (!v)
        return;
    in->dri3 = true;
    in->dri3_major = v->major_version;
    in->dri3_minor = v->minor_version;
    free(v);
    open = reply_of(c, xcb_dri3_open(c, root, 0).sequence, &e);
    if (open) {
        int *fds = xcb_dri3_open_reply_fds(c, open);

        if (open->nfd == 1 && fds[0] >= 0) {
            info_describe_device(fds[0], &in->device);
            in->device_ok = true;
        } else {
            snprintf(in->device_error, sizeof in->device_error, "Open sent %u fds", open->nfd);
        }
        for (int i = 0; i < open->nfd; i++)
            close(fds[i]);
        free(open);
    } else if (e) {
        snprintf(in->device_error, sizeof in->device_error,
                 e->error_code == XCB_MATCH ? "the server has no DRM device for this screen "
                                              "(Open: BadMatch)"
                                            : "Open failed with X error %u", e->error_code);
    } else {
        snprintf(in->device_error, sizeof in->device_error, "Open got no answer");
    }
    free(e);
}

static void query_modifiers(xcb_connection_t *c, xcb_window_t root, struct modifiers *m)
{
    xcb_dri3_get_supported_modifiers_reply_t *r;
    xcb_generic_error_t *e;
    const uint64_t *list;

    r = reply_of(c, xcb_dri3_get_supported_modifiers(c, root, m->depth, 32).sequence, &e);
    free(e);
    if (!r)
        return;
    m->ok = true;
    list = xcb_dri3_get_supported_modifiers_window_modifiers(r);
    for (int i = 0; i < xcb_dri3_get_supported_modifiers_window_modifiers_length(r) &&
                    m->n_window < MAX_MODS; i++)
        m->window[m->n_window++] = list[i];
    list = xcb_dri3_get_supported_modifiers_screen_modifiers(r);
    for (int i = 0; i < xcb_dri3_get_supported_modifiers_screen_modifiers_length(r) &&
                    m->n_screen < MAX_MODS; i++)
        m->screen[m->n_screen++] = list[i];
    free(r);
}

/* The next CompleteNotify of our NotifyMSC, within two seconds. */
static xcb_present_complete_notify_event_t *next_msc(xcb_connection_t *c,
                                                     xcb_special_event_t *se)
{
    double deadline = now_s() + 2;

    xcb_flush(c);
    for (;;) {
        xcb_generic_event_t *ev = xcb_poll_for_special_event(c, se);
        struct pollfd p = { .fd = xcb_get_file_descriptor(c), .events = POLLIN };

        if (ev && ((xcb_ge_generic_event_t *)ev)->event_type == XCB_PRESENT_COMPLETE_NOTIFY)
            return (xcb_present_complete_notify_event_t *)ev;
        free(ev);
        if (ev)
            continue;
        if (xcb_connection_has_error(c) || now_s() > deadline)
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
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    xcb_unregister_for_special_event(c, se);
}

static void print_mods(FILE *out, const char *which, const uint64_t *list, uint32_t n)
{
    char name[64];

    fprintf(out, "    %s modifiers:%s\n", which, n ? "" : " none listed");
    for (uint32_t i = 0; i < n; i++) {
        info_modifier_name(list[i], name, sizeof name);
        fprintf(out, "      0x%016llx  %s\n", (unsigned long long)list[i], name);
    }
}

static void print_text(const struct info *in, FILE *out)
{
    char caps[128];

    fprintf(out, "display: %s", in->display);
    if (in->xvfb_pid)
        fprintf(out, " (an Xvfb started for this, pid %d)", in->xvfb_pid);
    fprintf(out, "\n");
    if (in->present) {
        info_caps_names(in->caps, caps, sizeof caps);
        fprintf(out, "Present: version %u.%u\n  capabilities: %s (0x%x)\n", in->present_major,
                in->present_minor, caps, in->caps);
    } else {
        fprintf(out, "Present: missing: this server cannot show frames on vblank "
                "(no Present extension)\n");
    }
    if (!in->dri3) {
        fprintf(out, "DRI3: missing: no direct rendering on this server (no DRI3 extension); "
                "clients fall back to shared memory or PutImage\n");
    } else {
        fprintf(out, "DRI3: version %u.%u\n", in->dri3_major, in->dri3_minor);
        if (in->device_ok) {
            fprintf(out, "  device: %s%s%s\n", in->device.kind, in->device.path[0] ? ", " : "",
                    in->device.path);
            if (in->device.driver[0])
                fprintf(out, "  driver: %s\n", in->device.driver);
            if (in->device.render_node[0])
                fprintf(out, "  render node: %s\n", in->device.render_node);
            if (in->device.bus[0])
                fprintf(out, "  bus: %s\n", in->device.bus);
        } else {
            fprintf(out, "  device: none: %s\n", in->device_error);
        }
        for (int i = 0; i < 2; i++) {
            const struct modifiers *m = &in->mods[i];

            fprintf(out, "  depth %u, 32 bpp:%s\n", m->depth, m->ok ? "" : " no answer");
            if (!m->ok)
                continue;
            print_mods(out, "window", m->window, m->n_window);
            print_mods(out, "screen", m->screen, m->n_screen);
        }
    }
    if (in->refresh_ok)
        fprintf(out, "refresh: %.2f Hz (measured over 30 vblanks; msc %llu, ust %llu us)\n",
                in->refresh_hz, (unsigned long long)in->msc, (unsigned long long)in->ust);
    else if (in->present)
        fprintf(out, "refresh: unknown: %s\n", in->refresh_error);
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void json_mods(FILE *out, const uint64_t *list, uint32_t n)
{
    char name[64];

    fprintf(out, "[");
    for (uint32_t i = 0; i < n; i++) {
        info_modifier_name(list[i], name, sizeof name);
        fprintf(out, "%s{\"value\": \"0x%016llx\", \"name\": ", i ? ", " : "",
                (unsigned long long)list[i]);
        json_str(out, name);
        fprintf(out, "}");
    }
    fprintf(out, "]");
}

static void print_json(const struct info *in, FILE *out)
{
    char caps[128];

    fprintf(out, "{\n  \"display\": ");
    json_str(out, in->display);
    fprintf(out, ",\n  \"present\": ");
    if (in->present) {
        info_caps_names(in->caps, caps, sizeof caps);
        fprintf(out, "{\"version\": \"%u.%u\", \"capabilities\": %u, \"capability_names\": ",
                in->present_major, in->present_minor, in->caps);
        json_str(out, caps);
        fprintf(out, "}");
    } else {
        fprintf(out, "null");
    }
    fprintf(out, ",\n  \"dri3\": ");
    if (!in->dri3) {
        fprintf(out, "null");
    } else {
        fprintf(out, "{\"version\": \"%u.%u\",\n    \"device\": ", in->dri3_major,
                in->dri3_minor);
        if (in->device_ok) {
            fprintf(out, "{\"kind\": ");
            json_str(out, in->device.kind);
            fprintf(out, ", \"path\": ");
            json_str(out, in->device.path);
            fprintf(out, ", \"driver\": ");
            json_str(out, in->device.driver);
            fprintf(out, ", \"render_node\": ");
            json_str(out, in->device.render_node);
            fprintf(out, ", \"bus\": ");
            json_str(out, in->device.bus);
            fprintf(out, "}");
        } else {
            fprintf(out, "null, \"device_error\": ");
            json_str(out, in->device_error);
        }
        fprintf(out, ",\n    \"modifiers\": [");
        for (int i = 0; i < 2; i++) {
            const struct modifiers *m = &in->mods[i];

            fprintf(out, "%s\n      {\"depth\": %u, \"bpp\": 32, \"window\": ", i ? "," : "",
                    m->depth);
            json_mods(out, m->window, m->n_window);
            fprintf(out, ", \"screen\": ");
            json_mods(out, m->screen, m->n_screen);
            fprintf(out, "}");
        }
        fprintf(out, "]}");
    }
    fprintf(out, ",\n  \"refresh_hz\": ");
    if (in->refresh_ok)
        fprintf(out, "%.3f", in->refresh_hz);
    else
        fprintf(out, "null");
    fprintf(out, "\n}\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct info in = { .mods = { { .depth = 24 }, { .depth = 32 } } };
    struct xvfb xvfb = { .pid = -1 };
    const xcb_screen_t *screen;
    xcb_connection_t *c;
    bool json = false;
    int opt;

    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (opt == 'j') {
            json = true;
        } else {
            fprintf(opt == 'h' ? stdout : stderr,
                    "usage: xcb-dri3-info [--json]\n"
                    "Prints what the X server on $DISPLAY offers for DRI3 and Present;\n"
                    "without DISPLAY, an Xvfb of its own is started and stopped again.\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    in.display = getenv("DISPLAY");
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
    query_present(c, screen->root, &in);
    query_dri3(c, screen->root, &in);
    if (in.dri3)
        for (int i = 0; i < 2; i++)
            query_modifiers(c, screen->root, &in.mods[i]);
    if (in.present)
        measure_refresh(c, screen, &in);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "xcb-dri3-info: the connection to %s broke\n", in.display);
        xcb_disconnect(c);
        xvfb_stop(&xvfb);
        return 1;
    }
    if (json)
        print_json(&in, stdout);
    else
        print_text(&in, stdout);
    xcb_disconnect(c);
    xvfb_stop(&xvfb);
    return 0;
}
