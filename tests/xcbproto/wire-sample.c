/*
 * Byte-exact requests and replies of modules beyond DRI3 and Present: a list,
 * a switch (bitcase values, plain and _aux), an extension's QueryVersion and
 * its reply. Built twice by wire-sample.sh, from the same source against our
 * generated headers: linked with our generated modules, and with Debian's
 * libraries; both must send and read what the rows below say, which is
 * written from the protocol specs (X11, SHAPE, RENDER, RandR encodings).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <xcb/randr.h>
#include <xcb/render.h>
#include <xcb/shape.h>
#include <xcb/xproto.h>

#include "fake-server.h"
#include "test-runner.h"
#include "wire-util.h"

#define SHAPE_MAJOR 150
#define RENDER_MAJOR 151
#define RANDR_MAJOR 152
#define WINDOW 0x00400007u

/* One row: what the client calls, and the bytes the spec says it sends. */
struct row {
    const char *what;
    void (*send)(xcb_connection_t *c);
    void (*want)(struct wire *w);
};

/* Core ConfigureWindow: value-mask X|Width, values in bit order. */
static void send_configure(xcb_connection_t *c)
{
    const uint32_t values[] = { 10, 100 };

    xcb_configure_window(c, WINDOW, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_WIDTH, values);
}

static void send_configure_aux(xcb_connection_t *c)
{
    xcb_configure_window_value_list_t v;

    memset(&v, 0, sizeof(v));
    v.x = 10;
    v.width = 100;
    xcb_configure_window_aux(c, WINDOW, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_WIDTH, &v);
}

static void want_configure(struct wire *w)
{
    w8(w, 12);          /* opcode ConfigureWindow */
    wpad(w, 1);
    w16(w, 5);          /* 3 + n words */
    w32(w, WINDOW);
    w16(w, 0x0005);     /* value-mask: x (bit 0), width (bit 2) */
    wpad(w, 2);
    w32(w, 10);         /* x */
    w32(w, 100);        /* width */
}

/* SHAPE Rectangles: a list whose length the request length gives. */
static void send_rectangles(xcb_connection_t *c)
{
    const xcb_rectangle_t r[] = { { 1, 2, 3, 4 }, { -5, 6, 7, 8 } };

    xcb_shape_rectangles(c, XCB_SHAPE_SO_UNION, XCB_SHAPE_SK_BOUNDING, 0, WINDOW, 20, -30, 2, r);
}

static void want_rectangles(struct wire *w)
{
    w8(w, SHAPE_MAJOR);
    w8(w, 1);           /* Rectangles */
    w16(w, 4 + 2 * 2);
    w8(w, 1);           /* operation: Union */
    w8(w, 0);           /* destination-kind: Bounding */
    w8(w, 0);           /* ordering: UnSorted */
    wpad(w, 1);
    w32(w, WINDOW);
    w16(w, 20);
    w16(w, (uint16_t) -30);
    w16(w, 1), w16(w, 2), w16(w, 3), w16(w, 4);
    w16(w, (uint16_t) -5), w16(w, 6), w16(w, 7), w16(w, 8);
}

/* RENDER CreatePicture: a switch on value-mask (Repeat, ComponentAlpha). */
static void send_create_picture(xcb_connection_t *c)
{
    xcb_render_create_picture_value_list_t v;

    memset(&v, 0, sizeof(v));
    v.repeat = XCB_RENDER_REPEAT_NORMAL;
    v.componentalpha = 1;
    xcb_render_create_picture_aux(c, 0x00400100u, WINDOW, 0x00000025u,
                                  XCB_RENDER_CP_REPEAT | XCB_RENDER_CP_COMPONENT_ALPHA, &v);
}

static void want_create_picture(struct wire *w)
{
    w8(w, RENDER_MAJOR);
    w8(w, 4);           /* CreatePicture */
    w16(w, 5 + 2);
    w32(w, 0x00400100u);
    w32(w, WINDOW);
    w32(w, 0x00000025u);
    w32(w, 0x0001 | 0x1000);    /* Repeat (bit 0), ComponentAlpha (bit 12) */
    w32(w, 1);          /* repeat: Normal */
    w32(w, 1);          /* component-alpha */
}

static void want_randr_version(struct wire *w)
{
    w8(w, RANDR_MAJOR);
    w8(w, 0);           /* QueryVersion */
    w16(w, 3);
    w32(w, 1);
    w32(w, 6);
}

static const struct row rows[] = {
    { "ConfigureWindow", send_configure, want_configure },
    { "ConfigureWindow (_aux)", send_configure_aux, want_configure },
    { "SHAPE Rectangles", send_rectangles, want_rectangles },
    { "RENDER CreatePicture (_aux)", send_create_picture, want_create_picture },
};

/* Makes the extensions known: the QueryExtension requests go out first. */
static fake_server_t *start(xcb_connection_t **c)
{
    fake_server_t *srv = fake_start(c);

    xcb_prefetch_extension_data(*c, &xcb_shape_id);
    xcb_flush(*c);
    fake_answer_query_extension(srv, "SHAPE", SHAPE_MAJOR);
    xcb_prefetch_extension_data(*c, &xcb_render_id);
    xcb_flush(*c);
    fake_answer_query_extension(srv, "RENDER", RENDER_MAJOR);
    xcb_prefetch_extension_data(*c, &xcb_randr_id);
    xcb_flush(*c);
    fake_answer_query_extension(srv, "RANDR", RANDR_MAJOR);
    return srv;
}

TEST(requests)
{
    xcb_connection_t *c;
    fake_server_t *srv = start(&c);

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct wire want = { 0 };

        test_note("%s", rows[i].what);
        rows[i].send(c);
        xcb_flush(c);
        rows[i].want(&want);
        EXPECT_REQUEST(srv, &want, NULL, NULL);
        wire_free(&want);
    }
    fake_stop(srv);
}

/* RandR QueryVersion: the request, and its reply read back. */
TEST(randr_query_version)
{
    xcb_connection_t *c;
    fake_server_t *srv = start(&c);
    struct wire want = { 0 }, reply = { 0 };
    xcb_randr_query_version_cookie_t cookie = xcb_randr_query_version(c, 1, 6);
    xcb_randr_query_version_reply_t *r;

    xcb_flush(c);
    want_randr_version(&want);
    EXPECT_REQUEST(srv, &want, NULL, NULL);
    w_reply_head(&reply, 0, fake_seq(srv), 0);
    w32(&reply, 1);     /* major-version */
    w32(&reply, 6);     /* minor-version */
    wpad(&reply, 16);
    fake_write_wire(srv, &reply, NULL, 0);
    r = xcb_randr_query_version_reply(c, cookie, NULL);
    CHECK(r != NULL);
    CHECK_EQ(r->major_version, 1);
    CHECK_EQ(r->minor_version, 6);
    free(r);
    wire_free(&want);
    wire_free(&reply);
    fake_stop(srv);
}
