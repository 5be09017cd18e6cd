/*
 * query-extensions: asks the X server which DRI3 and Present versions and
 * capabilities it offers, through our generated bindings.
 *
 * A small living example of the API: extension presence is checked with
 * xcb_get_extension_data() first (a request for a missing extension would
 * make libxcb shut the connection down), versions are negotiated by asking
 * for the newest we know, and fd-carrying replies are closed by the caller.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/xcb.h>

static void
query_dri3(xcb_connection_t *c, xcb_window_t root)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_dri3_id);

    if (ext == NULL || !ext->present) {
        printf("DRI3: not offered by this server\n");
        return;
    }
    xcb_dri3_query_version_reply_t *v = xcb_dri3_query_version_reply(
        c, xcb_dri3_query_version(c, XCB_DRI3_MAJOR_VERSION, XCB_DRI3_MINOR_VERSION), NULL);
    if (v == NULL) {
        printf("DRI3: QueryVersion failed\n");
        return;
    }
    printf("DRI3: version %" PRIu32 ".%" PRIu32 " (opcode %u)\n", v->major_version,
           v->minor_version, ext->major_opcode);
    free(v);

    xcb_generic_error_t *err = NULL;
    xcb_dri3_open_reply_t *open = xcb_dri3_open_reply(c, xcb_dri3_open(c, root, 0), &err);
    if (open != NULL) {
        int fd = xcb_dri3_open_reply_fds(c, open)[0];   /* ours to close */
        printf("DRI3: Open gave a device fd\n");
        close(fd);
        free(open);
    } else {
        printf("DRI3: Open failed (X error %d): no direct-rendering device\n",
               err != NULL ? err->error_code : -1);
        free(err);
    }
}

static void
query_present(xcb_connection_t *c, xcb_window_t root)
{
    const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_present_id);

    if (ext == NULL || !ext->present) {
        printf("Present: not offered by this server\n");
        return;
    }
    xcb_present_query_version_reply_t *v = xcb_present_query_version_reply(
        c, xcb_present_query_version(c, XCB_PRESENT_MAJOR_VERSION, XCB_PRESENT_MINOR_VERSION),
        NULL);
    if (v == NULL) {
        printf("Present: QueryVersion failed\n");
        return;
    }
    printf("Present: version %" PRIu32 ".%" PRIu32 " (opcode %u)\n", v->major_version,
           v->minor_version, ext->major_opcode);
    free(v);

    xcb_present_query_capabilities_reply_t *caps = xcb_present_query_capabilities_reply(
        c, xcb_present_query_capabilities(c, root), NULL);
    if (caps == NULL) {
        printf("Present: QueryCapabilities failed\n");
        return;
    }
    static const struct { uint32_t bit; const char *name; } names[] = {
        { XCB_PRESENT_CAPABILITY_ASYNC, "Async" },
        { XCB_PRESENT_CAPABILITY_FENCE, "Fence" },
        { XCB_PRESENT_CAPABILITY_UST, "UST" },
        { XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR, "AsyncMayTear" },
        { XCB_PRESENT_CAPABILITY_SYNCOBJ, "Syncobj" },
    };
    printf("Present: capabilities of the root window's CRTC:");
    if (caps->capabilities == 0)
        printf(" none");
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (caps->capabilities & names[i].bit)
            printf(" %s", names[i].name);
    printf("\n");
    free(caps);
}

int
main(void)
{
    int screen_num;
    xcb_connection_t *c = xcb_connect(NULL, &screen_num);

    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "query-extensions: cannot connect to the X server\n");
        xcb_disconnect(c);
        return 1;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screen_num; i++)
        xcb_screen_next(&it);
    xcb_window_t root = it.data->root;

    /* Ask for both at once: one round trip instead of two. */
    xcb_prefetch_extension_data(c, &xcb_dri3_id);
    xcb_prefetch_extension_data(c, &xcb_present_id);
    query_dri3(c, root);
    query_present(c, root);

    int failed = xcb_connection_has_error(c);
    xcb_disconnect(c);
    return failed ? 1 : 0;
}
