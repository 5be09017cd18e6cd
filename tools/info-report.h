/*
 * What xcb-dri3-info found, and its two forms: text for people, JSON for
 * scripts.  Every fact comes from libxcb-dri3-util (the probe, the device,
 * the modifier lists, the names of formats and modifiers), so that the
 * tool says what a program using the library would see.
 */
#ifndef INFO_REPORT_H
#define INFO_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xcb_dri3_util.h"

/* The server's modifier lists for one depth and bpp. */
struct info_modifiers {
    uint8_t depth, bpp;
    uint32_t fourcc;            /* xcb_dri3_util_fourcc_from_depth(); 0: none */
    int error;                  /* 0, or the query's negative errno */
    uint8_t x_error;            /* the X error code when error is -EIO */
    uint64_t *window, *screen;  /* the library's arrays (free()) */
    uint32_t n_window, n_screen;
};

#define INFO_N_DEPTHS 2

/* What names the server: its connection setup, and whether it is
 * Xwayland. */
struct info_server {
    char vendor[256];                   /* the setup's vendor string */
    uint32_t release;                   /* the setup's release number */
    uint16_t protocol_major, protocol_minor;
    bool xwayland;
};

struct info {
    const char *display;
    int xvfb_pid;                       /* 0: an existing display */
    struct info_server server;
    xcb_dri3_util_caps_t caps;          /* the library's probe */
    xcb_dri3_util_device_t *device;     /* NULL: device_error says why */
    char device_error[128];
    struct info_modifiers mods[INFO_N_DEPTHS];
    bool refresh_ok;
    char refresh_error[128];
    double refresh_hz;
    uint64_t msc, ust;
};

/* Fills *s from c's connection setup (not xwayland). */
void info_read_server(xcb_connection_t *c, struct info_server *s);

void info_print_text(const struct info *in, FILE *out);
void info_print_json(const struct info *in, FILE *out);

/* Frees the device and the modifier lists. */
void info_free(struct info *in);

#endif
