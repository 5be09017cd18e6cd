/* See info-report.h. */
#include "info-report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

#include "info-names.h"

void info_read_server(xcb_connection_t *c, struct info_server *s)
{
    const xcb_setup_t *setup = xcb_get_setup(c);
    int len = xcb_setup_vendor_length(setup);

    snprintf(s->vendor, sizeof s->vendor, "%.*s", len, xcb_setup_vendor(setup));
    s->release = setup->release_number;
    s->protocol_major = setup->protocol_major_version;
    s->protocol_minor = setup->protocol_minor_version;
}

/* The X.Org server's release number as its version, as xdpyinfo reads
 * it: 12101007 is 21.1.7 (from 1.21 on), 11903000 is 1.19.3; false for
 * other vendors, whose numbers mean what they choose. */
static bool xorg_version(const struct info_server *s, char *buf, size_t size)
{
    uint32_t r = s->release;

    if (!strstr(s->vendor, "X.Org") || r < 10000000)
        return false;
    if (r >= 12100000)
        snprintf(buf, size, "%u.%u.%u", r / 100000 % 100, r / 1000 % 100, r % 1000);
    else if (r % 1000)
        snprintf(buf, size, "%u.%u.%u.%u", r / 10000000, r / 100000 % 100, r / 1000 % 100,
                 r % 1000);
    else
        snprintf(buf, size, "%u.%u.%u", r / 10000000, r / 100000 % 100, r / 1000 % 100);
    return true;
}

void info_free(struct info *in)
{
    xcb_dri3_util_device_close(in->device);
    in->device = NULL;
    for (int i = 0; i < INFO_N_DEPTHS; i++) {
        free(in->mods[i].window);
        free(in->mods[i].screen);
        in->mods[i].window = in->mods[i].screen = NULL;
        in->mods[i].n_window = in->mods[i].n_screen = 0;
    }
}

/* Why a depth has no lists, in words. */
static void mods_error(const struct info *in, const struct info_modifiers *m, char *buf,
                       size_t size)
{
    switch (m->error) {
    case -ENOTSUP:
        if (in->caps.dri3 && (in->caps.dri3_major == 1 && in->caps.dri3_minor < 2))
            snprintf(buf, size, "not asked: GetSupportedModifiers needs DRI3 1.2");
        else
            snprintf(buf, size, "not asked: the library cannot use DRI3 here");
        break;
    case -EIO:
        snprintf(buf, size, "refused with X error %u", m->x_error);
        break;
    case -ETIMEDOUT:
        snprintf(buf, size, "no answer in time");
        break;
    default:
        snprintf(buf, size, "%s", strerror(-m->error));
    }
}

/* The library's name for a fourcc, into buf ("" when it has none). */
static void fourcc_name(uint32_t fourcc, char *buf, size_t size)
{
    char *name = fourcc ? xcb_dri3_util_fourcc_name(fourcc) : NULL;

    snprintf(buf, size, "%s", name ? name : "");
    free(name);
}

static void print_mods(FILE *out, const char *which, const uint64_t *list, uint32_t n)
{
    fprintf(out, "    %s modifiers:%s\n", which, n ? "" : " none listed");
    for (uint32_t i = 0; i < n; i++) {
        char *name = xcb_dri3_util_modifier_name(list[i]);

        fprintf(out, "      0x%016llx  %s%s\n", (unsigned long long)list[i],
                name ? name : "?",
                /* The one value whose name does not say what it means to a
                 * reader who is not a driver developer. */
                list[i] == XCB_DRI3_UTIL_MOD_INVALID ? " (no explicit modifier: the "
                                                       "driver's implicit layout)" : "");
        free(name);
    }
}

static void print_device(const struct info *in, FILE *out)
{
    const xcb_dri3_util_device_t *d = in->device;

    if (!d) {
        fprintf(out, "  device: none: %s\n", in->device_error);
        return;
    }
    if (!d->is_drm) {
        /* The library's note says what the fd is instead. */
        fprintf(out, "  device: %s: %s\n", d->kind, d->note);
        return;
    }
    fprintf(out, "  device: DRM %s node %u:%u%s\n", d->kind, d->dev_major, d->dev_minor,
            d->swapped ? " (swapped for the primary node the server gave)" : "");
    if (d->driver[0])
        fprintf(out, "  driver: %s\n", d->driver);
    if (d->render_node[0])
        fprintf(out, "  render node: %s\n", d->render_node);
    if (d->bus_id[0] && d->vendor_id)
        fprintf(out, "  bus: %s (vendor 0x%04x, device 0x%04x)\n", d->bus_id, d->vendor_id,
                d->device_id);
    else if (d->bus_id[0])
        fprintf(out, "  bus: %s\n", d->bus_id);
}

static void print_dri3(const struct info *in, FILE *out)
{
    char text[128];

    if (!in->caps.dri3) {
        fprintf(out, "DRI3: missing: no direct rendering on this server (no DRI3 extension); "
                "clients fall back to shared memory or PutImage\n");
        return;
    }
    fprintf(out, "DRI3: version %u.%u\n", in->caps.dri3_major, in->caps.dri3_minor);
    print_device(in, out);
    for (int i = 0; i < INFO_N_DEPTHS; i++) {
        const struct info_modifiers *m = &in->mods[i];

        fourcc_name(m->fourcc, text, sizeof text);
        fprintf(out, "  depth %u, %u bpp%s%s%s:", m->depth, m->bpp, text[0] ? " (" : "", text,
                text[0] ? ")" : "");
        if (m->error) {
            mods_error(in, m, text, sizeof text);
            fprintf(out, " %s\n", text);
            continue;
        }
        fprintf(out, "\n");
        print_mods(out, "window", m->window, m->n_window);
        print_mods(out, "screen", m->screen, m->n_screen);
    }
}

/* SYNC, XFixes and MIT-SHM: what the swapchain's fences and its SHM back
 * end rely on. */
static void print_others(const struct info *in, FILE *out)
{
    const xcb_dri3_util_caps_t *c = &in->caps;

    fprintf(out, "other extensions: ");
    if (c->sync)
        fprintf(out, "SYNC %u.%u, ", c->sync_major, c->sync_minor);
    else
        fprintf(out, "no SYNC, ");
    if (c->xfixes)
        fprintf(out, "XFixes %u.%u, ", c->xfixes_major, c->xfixes_minor);
    else
        fprintf(out, "no XFixes, ");
    if (c->shm)
        fprintf(out, "MIT-SHM %u.%u%s\n", c->shm_major, c->shm_minor,
                c->shm_pixmaps ? " (shared pixmaps)" : " (no shared pixmaps)");
    else
        fprintf(out, "no MIT-SHM\n");
}

void info_print_text(const struct info *in, FILE *out)
{
    char caps[128];

    char version[32];

    fprintf(out, "display: %s", in->display);
    if (in->xvfb_pid)
        fprintf(out, " (an Xvfb started for this, pid %d)", in->xvfb_pid);
    fprintf(out, "\n");
    fprintf(out, "server: %s, release %u", in->server.vendor, in->server.release);
    if (xorg_version(&in->server, version, sizeof version))
        fprintf(out, " (%s)", version);
    fprintf(out, ", protocol %u.%u%s\n", in->server.protocol_major, in->server.protocol_minor,
            in->server.xwayland ? ", Xwayland" : "");
    fprintf(out, "connection: %s\n",
            in->caps.fd_passing ? "local (file descriptors can be passed)"
                                : "remote: no file descriptors can be passed, so neither "
                                  "DRI3 buffers nor MIT-SHM memfds work");
    if (in->caps.present) {
        info_caps_names(in->caps.present_caps, caps, sizeof caps);
        fprintf(out, "Present: version %u.%u\n  capabilities: %s (0x%x)\n",
                in->caps.present_major, in->caps.present_minor, caps, in->caps.present_caps);
    } else {
        fprintf(out, "Present: missing: this server cannot show frames on vblank "
                "(no Present extension)\n");
    }
    print_dri3(in, out);
    print_others(in, out);
    if (in->refresh_ok)
        fprintf(out, "refresh: %.2f Hz (measured over 30 vblanks; msc %llu, ust %llu us)\n",
                in->refresh_hz, (unsigned long long)in->msc, (unsigned long long)in->ust);
    else if (in->caps.present)
        fprintf(out, "refresh: unknown: %s\n", in->refresh_error);
}

/* ---- JSON ------------------------------------------------------------- */

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

/* A string that may be unknown: "" is null. */
static void json_str_or_null(FILE *out, const char *s)
{
    if (*s)
        json_str(out, s);
    else
        fprintf(out, "null");
}

/* A number where 0 means unknown: null then. */
static void json_uint_or_null(FILE *out, uint32_t v)
{
    if (v)
        fprintf(out, "%u", v);
    else
        fprintf(out, "null");
}

/* The vendor string is Latin-1 (the protocol's STRING8): bytes above 0x7f
 * become \u00XX, the same characters in JSON's Unicode. */
static void json_latin1(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;

        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch > 0x7e)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

static void json_server(const struct info *in, FILE *out)
{
    char version[32];

    fprintf(out, "{\"vendor\": ");
    json_latin1(out, in->server.vendor);
    fprintf(out, ", \"release\": %u, \"xorg_version\": ", in->server.release);
    if (xorg_version(&in->server, version, sizeof version))
        json_str(out, version);
    else
        fprintf(out, "null");
    fprintf(out, ", \"protocol\": \"%u.%u\", \"xwayland\": %s}", in->server.protocol_major,
            in->server.protocol_minor, in->server.xwayland ? "true" : "false");
}

/* Present's capabilities by name, one string each. */
static void json_cap_names(FILE *out, uint32_t caps)
{
    char name[16];
    bool first = true;

    fprintf(out, "[");
    for (unsigned i = 0; i < 32; i++) {
        if (!(caps & (1u << i)))
            continue;
        info_cap_name(i, name, sizeof name);
        fprintf(out, "%s", first ? "" : ", ");
        json_str(out, name);
        first = false;
    }
    fprintf(out, "]");
}

static void json_mods(FILE *out, const uint64_t *list, uint32_t n)
{
    fprintf(out, "[");
    for (uint32_t i = 0; i < n; i++) {
        char *name = xcb_dri3_util_modifier_name(list[i]);

        fprintf(out, "%s{\"value\": \"0x%016llx\", \"name\": ", i ? ", " : "",
                (unsigned long long)list[i]);
        json_str(out, name ? name : "?");
        fprintf(out, "}");
        free(name);
    }
    fprintf(out, "]");
}

static void json_device(const struct info *in, FILE *out)
{
    const xcb_dri3_util_device_t *d = in->device;

    if (!d) {
        fprintf(out, "null, \"device_error\": ");
        json_str(out, in->device_error);
        return;
    }
    /* What the library could not find out is null, not "" or 0. */
    fprintf(out, "{\"kind\": ");
    json_str(out, d->kind);
    fprintf(out, ", \"is_drm\": %s, \"is_render_node\": %s, \"swapped\": %s, \"driver\": ",
            d->is_drm ? "true" : "false", d->is_render_node ? "true" : "false",
            d->swapped ? "true" : "false");
    json_str_or_null(out, d->driver);
    fprintf(out, ", \"render_node\": ");
    json_str_or_null(out, d->render_node);
    if (d->dev_major || d->dev_minor)
        fprintf(out, ", \"dev_major\": %u, \"dev_minor\": %u", d->dev_major, d->dev_minor);
    else
        fprintf(out, ", \"dev_major\": null, \"dev_minor\": null");
    fprintf(out, ", \"bus_id\": ");
    json_str_or_null(out, d->bus_id);
    fprintf(out, ", \"vendor_id\": ");
    json_uint_or_null(out, d->vendor_id);
    fprintf(out, ", \"device_id\": ");
    json_uint_or_null(out, d->device_id);
    fprintf(out, ", \"note\": ");
    json_str_or_null(out, d->note);
    fprintf(out, "}");
}

static void json_dri3(const struct info *in, FILE *out)
{
    char text[128];

    if (!in->caps.dri3) {
        fprintf(out, "null");
        return;
    }
    fprintf(out, "{\"version\": \"%u.%u\",\n    \"device\": ", in->caps.dri3_major,
            in->caps.dri3_minor);
    json_device(in, out);
    fprintf(out, ",\n    \"modifiers\": [");
    for (int i = 0; i < INFO_N_DEPTHS; i++) {
        const struct info_modifiers *m = &in->mods[i];

        fourcc_name(m->fourcc, text, sizeof text);
        fprintf(out, "%s\n      {\"depth\": %u, \"bpp\": %u, \"format\": ", i ? "," : "",
                m->depth, m->bpp);
        json_str_or_null(out, text);
        if (m->error) {
            mods_error(in, m, text, sizeof text);
            fprintf(out, ", \"error\": ");
            json_str(out, text);
        }
        fprintf(out, ", \"window\": ");
        json_mods(out, m->window, m->n_window);
        fprintf(out, ", \"screen\": ");
        json_mods(out, m->screen, m->n_screen);
        fprintf(out, "}");
    }
    fprintf(out, "]}");
}

/* "MAJ.MIN" of an extension, or null. */
static void json_version(FILE *out, bool have, uint32_t major, uint32_t minor)
{
    if (have)
        fprintf(out, "\"%u.%u\"", major, minor);
    else
        fprintf(out, "null");
}

void info_print_json(const struct info *in, FILE *out)
{
    fprintf(out, "{\n  \"display\": ");
    json_str(out, in->display);
    fprintf(out, ",\n  \"server\": ");
    json_server(in, out);
    fprintf(out, ",\n  \"fd_passing\": %s", in->caps.fd_passing ? "true" : "false");
    fprintf(out, ",\n  \"present\": ");
    if (in->caps.present) {
        fprintf(out, "{\"version\": \"%u.%u\", \"capabilities\": %u, \"capability_names\": ",
                in->caps.present_major, in->caps.present_minor, in->caps.present_caps);
        json_cap_names(out, in->caps.present_caps);
        fprintf(out, "}");
    } else {
        fprintf(out, "null");
    }
    fprintf(out, ",\n  \"dri3\": ");
    json_dri3(in, out);
    fprintf(out, ",\n  \"sync\": ");
    json_version(out, in->caps.sync, in->caps.sync_major, in->caps.sync_minor);
    fprintf(out, ",\n  \"xfixes\": ");
    json_version(out, in->caps.xfixes, in->caps.xfixes_major, in->caps.xfixes_minor);
    fprintf(out, ",\n  \"shm\": ");
    if (in->caps.shm)
        fprintf(out, "{\"version\": \"%u.%u\", \"pixmaps\": %s}", in->caps.shm_major,
                in->caps.shm_minor, in->caps.shm_pixmaps ? "true" : "false");
    else
        fprintf(out, "null");
    fprintf(out, ",\n  \"refresh_hz\": ");
    if (in->refresh_ok)
        fprintf(out, "%.3f", in->refresh_hz);
    else
        fprintf(out, "null");
    fprintf(out, "\n}\n");
}
