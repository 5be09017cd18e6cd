/*
 * One scripted session of every DRI3 (1.0-1.3) and Present (1.2) request
 * that both our libraries and libxcb's implement, against a private mock
 * server.  It prints what the client decoded and then the server's
 * transcript, normalised: fds appear as their kind and size, because
 * inode and device numbers differ from run to run.  The program is built
 * twice, against our libraries and against Debian's; differential.sh runs
 * both and compares the two outputs, which must be identical.
 *
 * Everything it prints must be deterministic: no MSC or UST values (the
 * fake vblank clock runs in real time), events sorted before printing.
 */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/sync.h>
#include <xcb/xcb.h>

#include "mock-server.h"

static struct mock_server *server;

__attribute__((noreturn, format(printf, 1, 2)))
static void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("diff-calls: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (server)
        mock_server_free(server);
    exit(1);
}

/* An fd as both builds see it alike: what it is and how big. */
static void print_fd(const char *what, int fd)
{
    char path[64], target[256];
    struct stat st;
    ssize_t n;

    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    n = readlink(path, target, sizeof(target) - 1);
    if (n < 0 || fstat(fd, &st) != 0)
        die("%s: fd %d is not open", what, fd);
    target[n] = '\0';
    /* memfds read "/memfd:NAME (deleted)"; anything else just by type. */
    if (strncmp(target, "/memfd:", 7) == 0)
        printf("%s fd=%.*s size=%lld\n", what, (int)(strcspn(target + 7, " ")), target + 7,
               (long long)st.st_size);
    else
        printf("%s fd=%s size=%lld\n", what, S_ISFIFO(st.st_mode) ? "pipe" : "other",
               (long long)st.st_size);
    close(fd);
}

static void print_error(const char *what, xcb_generic_error_t *e)
{
    if (!e) {
        printf("%s ok\n", what);
        return;
    }
    printf("%s error=%u major=%u minor=%u bad=0x%x\n", what, e->error_code, e->major_code,
           e->minor_code, e->resource_id);
    free(e);
}

static int new_memfd(const char *name, off_t size)
{
    int fd = memfd_create(name, MFD_CLOEXEC);

    if (fd < 0 || ftruncate(fd, size) != 0)
        die("memfd_create: %m");
    return fd;
}

/* ---- DRI3 ------------------------------------------------------------------ */

static void dri3_session(xcb_connection_t *c, xcb_window_t root, xcb_window_t win)
{
    xcb_generic_error_t *e = NULL;
    xcb_pixmap_t pixmap = xcb_generate_id(c), pixmap2 = xcb_generate_id(c);
    xcb_sync_fence_t fence = xcb_generate_id(c);

    {
        xcb_dri3_query_version_reply_t *r =
            xcb_dri3_query_version_reply(c, xcb_dri3_query_version(c, 1, 2), &e);

        if (!r)
            die("DRI3 QueryVersion failed");
        printf("dri3 version %u.%u\n", r->major_version, r->minor_version);
        free(r);
    }
    {
        xcb_dri3_open_reply_t *r = xcb_dri3_open_reply(c, xcb_dri3_open(c, root, 0), &e);

        if (!r)
            die("DRI3 Open failed");
        printf("open nfd=%u\n", r->nfd);
        print_fd("open", xcb_dri3_open_reply_fds(c, r)[0]);
        free(r);
    }
    print_error("pixmap-from-buffer",
                xcb_request_check(c, xcb_dri3_pixmap_from_buffer_checked(
                                         c, pixmap, root, 64 * 16, 16, 16, 64, 24, 32,
                                         new_memfd("diff-buffer", 64 * 16))));
    {
        xcb_dri3_buffer_from_pixmap_reply_t *r =
            xcb_dri3_buffer_from_pixmap_reply(c, xcb_dri3_buffer_from_pixmap(c, pixmap), &e);

        if (!r)
            die("DRI3 BufferFromPixmap failed");
        printf("buffer-from-pixmap nfd=%u size=%u %ux%u stride=%u depth=%u bpp=%u\n", r->nfd,
               r->size, r->width, r->height, r->stride, r->depth, r->bpp);
        print_fd("buffer-from-pixmap", xcb_dri3_buffer_from_pixmap_reply_fds(c, r)[0]);
        free(r);
    }
    e = NULL;
    if (xcb_dri3_buffer_from_pixmap_reply(c, xcb_dri3_buffer_from_pixmap(c, 0x0badbad0), &e))
        die("BufferFromPixmap of no pixmap succeeded");
    print_error("buffer-from-pixmap(bad)", e);

    print_error("fence-from-fd",
                xcb_request_check(c, xcb_dri3_fence_from_fd_checked(
                                         c, root, fence, 1, new_memfd("diff-fence", 4))));
    {
        xcb_dri3_fd_from_fence_reply_t *r =
            xcb_dri3_fd_from_fence_reply(c, xcb_dri3_fd_from_fence(c, root, fence), &e);

        if (!r)
            die("DRI3 FDFromFence failed");
        printf("fd-from-fence nfd=%u\n", r->nfd);
        print_fd("fd-from-fence", xcb_dri3_fd_from_fence_reply_fds(c, r)[0]);
        free(r);
    }
    {
        xcb_dri3_get_supported_modifiers_reply_t *r = xcb_dri3_get_supported_modifiers_reply(
            c, xcb_dri3_get_supported_modifiers(c, win, 24, 32), &e);
        const uint64_t *m;

        if (!r)
            die("DRI3 GetSupportedModifiers failed");
        printf("modifiers window=%d:", xcb_dri3_get_supported_modifiers_window_modifiers_length(r));
        m = xcb_dri3_get_supported_modifiers_window_modifiers(r);
        for (int i = 0; i < xcb_dri3_get_supported_modifiers_window_modifiers_length(r); i++)
            printf(" 0x%llx", (unsigned long long)m[i]);
        printf(" screen=%d:", xcb_dri3_get_supported_modifiers_screen_modifiers_length(r));
        m = xcb_dri3_get_supported_modifiers_screen_modifiers(r);
        for (int i = 0; i < xcb_dri3_get_supported_modifiers_screen_modifiers_length(r); i++)
            printf(" 0x%llx", (unsigned long long)m[i]);
        printf("\n");
        free(r);
    }
    {
        int32_t planes[2] = { new_memfd("diff-plane0", 4096), new_memfd("diff-plane1", 2048) };

        print_error("pixmap-from-buffers",
                    xcb_request_check(c, xcb_dri3_pixmap_from_buffers_checked(
                                             c, pixmap2, win, 2, 16, 16, 64, 1024, 32, 128, 0,
                                             0, 0, 0, 24, 32, 0x0100000000000001ULL, planes)));
    }
    {
        xcb_dri3_buffers_from_pixmap_reply_t *r =
            xcb_dri3_buffers_from_pixmap_reply(c, xcb_dri3_buffers_from_pixmap(c, pixmap2), &e);
        int *fds;

        if (!r)
            die("DRI3 BuffersFromPixmap failed");
        printf("buffers-from-pixmap nfd=%u %ux%u depth=%u bpp=%u modifier=0x%llx\n", r->nfd,
               r->width, r->height, r->depth, r->bpp, (unsigned long long)r->modifier);
        fds = xcb_dri3_buffers_from_pixmap_reply_fds(c, r);
        for (int i = 0; i < r->nfd; i++) {
            printf("  plane %d stride=%u offset=%u\n", i,
                   xcb_dri3_buffers_from_pixmap_strides(r)[i],
                   xcb_dri3_buffers_from_pixmap_offsets(r)[i]);
            print_fd("  plane", fds[i]);
        }
        free(r);
    }
#if XCB_DRI3_MINOR_VERSION >= 3
    print_error("set-drm-device-in-use",
                xcb_request_check(c, xcb_dri3_set_drm_device_in_use_checked(c, win, 226, 128)));
#endif
    xcb_free_pixmap(c, pixmap);
    xcb_free_pixmap(c, pixmap2);
    xcb_sync_destroy_fence(c, fence);
}

/* ---- Present ----------------------------------------------------------------- */

static int cmp_events(const void *a, const void *b)
{
    const xcb_present_generic_event_t *x = *(xcb_present_generic_event_t *const *)a;
    const xcb_present_generic_event_t *y = *(xcb_present_generic_event_t *const *)b;

    if (x->evtype != y->evtype)
        return x->evtype - y->evtype;
    /* Any fixed order will do: bytes 10-23 hold CompleteNotify's kind,
     * mode, event, window and serial (IdleNotify's event, window and
     * serial), and no clock values. */
    return memcmp((const uint8_t *)x + 10, (const uint8_t *)y + 10, 14);
}

static void print_event(const xcb_generic_event_t *ev)
{
    const xcb_present_generic_event_t *pe = (const xcb_present_generic_event_t *)ev;

    switch (pe->evtype) {
    case XCB_PRESENT_CONFIGURE_NOTIFY: {
        const xcb_present_configure_notify_event_t *c = (const void *)ev;

        printf("configure-notify window=0x%x %d,%d %ux%u off=%d,%d pixmap=%ux%u flags=%u\n",
               c->window, c->x, c->y, c->width, c->height, c->off_x, c->off_y,
               c->pixmap_width, c->pixmap_height, c->pixmap_flags);
        break;
    }
    case XCB_PRESENT_COMPLETE_NOTIFY: {
        const xcb_present_complete_notify_event_t *c = (const void *)ev;

        printf("complete-notify kind=%u mode=%u window=0x%x serial=%u\n", c->kind, c->mode,
               c->window, c->serial);
        break;
    }
    case XCB_PRESENT_IDLE_NOTIFY: {
        const xcb_present_idle_notify_event_t *i = (const void *)ev;

        printf("idle-notify window=0x%x serial=%u pixmap=0x%x idle-fence=0x%x\n", i->window,
               i->serial, i->pixmap, i->idle_fence);
        break;
    }
    default:
        printf("event %u\n", pe->evtype);
    }
}

/* Collects at least n events of the special queue (within 3 s), and any
 * that follow within 200 ms, then prints them sorted. */
static void print_events(xcb_connection_t *c, xcb_special_event_t *se, int n)
{
    xcb_generic_event_t *evs[16];
    int got = 0, quiet = 0;

    for (int waited = 0; waited < 300 && quiet < 20 && got < 16;) {
        xcb_generic_event_t *ev = xcb_poll_for_special_event(c, se);
        struct pollfd pfd = { .fd = xcb_get_file_descriptor(c), .events = POLLIN };

        if (ev) {
            evs[got++] = ev;
            quiet = 0;
            continue;
        }
        if (xcb_connection_has_error(c))
            die("connection error %d", xcb_connection_has_error(c));
        poll(&pfd, 1, 10);
        waited++;
        if (got >= n)
            quiet++;
    }
    if (got < n)
        die("%d of %d Present events came", got, n);
    qsort(evs, (size_t)got, sizeof(evs[0]), cmp_events);
    for (int i = 0; i < got; i++) {
        print_event(evs[i]);
        free(evs[i]);
    }
}

static void present_session(xcb_connection_t *c, xcb_window_t win, uint8_t depth)
{
    xcb_generic_error_t *e = NULL;
    xcb_pixmap_t pixmap = xcb_generate_id(c);
    xcb_sync_fence_t idle = xcb_generate_id(c);
    uint32_t eid = xcb_generate_id(c);
    const uint32_t size[] = { 40, 30 };
    xcb_special_event_t *se;

    {
        xcb_present_query_version_reply_t *r =
            xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 2), &e);

        if (!r)
            die("Present QueryVersion failed");
        printf("present version %u.%u\n", r->major_version, r->minor_version);
        free(r);
    }
    {
        xcb_present_query_capabilities_reply_t *r = xcb_present_query_capabilities_reply(
            c, xcb_present_query_capabilities(c, win), &e);

        if (!r)
            die("Present QueryCapabilities failed");
        printf("capabilities %u\n", r->capabilities);
        free(r);
    }
    se = xcb_register_for_special_xge(c, &xcb_present_id, eid, NULL);
    print_error("select-input",
                xcb_request_check(c, xcb_present_select_input_checked(
                                         c, eid, win,
                                         XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
                                             XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                                             XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY)));
    xcb_create_pixmap(c, depth, pixmap, win, 32, 32);
    print_error("create-fence", xcb_request_check(c, xcb_sync_create_fence_checked(c, win, idle,
                                                                                    0)));
    {
        const xcb_present_notify_t notifies[1] = { { win, 9 } };

        print_error("present-pixmap",
                    xcb_request_check(c, xcb_present_pixmap_checked(
                                             c, win, pixmap, 1, 0, 0, 2, -3, 0, 0, idle,
                                             XCB_PRESENT_OPTION_NONE, 0, 0, 0, 1, notifies)));
    }
    print_error("notify-msc",
                xcb_request_check(c, xcb_present_notify_msc_checked(c, win, 2, 0, 0, 0)));
    print_error("present-pixmap(bad divisor)",
                xcb_request_check(c, xcb_present_pixmap_checked(c, win, pixmap, 3, 0, 0, 0, 0,
                                                                0, 0, 0, 0, 0, 2, 2, 0, NULL)));
    print_error("configure-window",
                xcb_request_check(c, xcb_configure_window_checked(
                                         c, win,
                                         XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                                         size)));
    /* CompleteNotify for the pixmap and the NotifyMSC, IdleNotify, and
     * ConfigureNotify. */
    print_events(c, se, 4);
    print_error("select-input(none)",
                xcb_request_check(c, xcb_present_select_input_checked(c, eid, win, 0)));
    xcb_unregister_for_special_event(c, se);
    xcb_free_pixmap(c, pixmap);
    xcb_sync_destroy_fence(c, idle);
}

/* ---- the transcript ---------------------------------------------------------- */

static void print_transcript(const struct mock_transcript *t)
{
    for (size_t i = 0; i < t->n; i++) {
        const struct mock_request_record *r = &t->requests[i];

        printf("request client=%d seq=%u major=%u minor=%u length=%zu fds=%d data=", r->client,
               r->seq, r->major, r->minor, r->length, r->nfds);
        for (size_t j = 0; j < r->length; j++)
            printf("%02x", r->data[j]);
        printf("\n");
        for (int j = 0; j < r->nfds; j++)
            printf("fd index=%d kind=%s size=%llu\n", j, r->fds[j].kind,
                   (unsigned long long)r->fds[j].size);
    }
}

int main(void)
{
    struct mock_config *cfg = mock_config_new();
    struct mock_transcript *t;
    xcb_connection_t *c;
    xcb_screen_t *screen;
    xcb_window_t win;

    if (!cfg || mock_config_set(cfg, "modifiers-window", "0x0100000000000001") != 0 ||
        mock_config_set(cfg, "modifiers-screen", "0,0x0100000000000001") != 0)
        die("cannot configure the mock server");
    server = mock_server_start(cfg);
    mock_config_free(cfg);
    if (!server)
        die("cannot start the mock server");
    c = mock_server_connect(server);
    if (xcb_connection_has_error(c))
        die("cannot connect to the mock server");
    screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    win = xcb_generate_id(c);
    xcb_create_window(c, screen->root_depth, win, screen->root, 0, 0, 32, 32, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
    xcb_map_window(c, win);

    dri3_session(c, screen->root, win);
    present_session(c, win, screen->root_depth);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    if (xcb_connection_has_error(c))
        die("connection error %d", xcb_connection_has_error(c));
    xcb_disconnect(c);

    if (mock_server_stop(server) != 0)
        die("the mock server did not exit cleanly");
    t = mock_server_transcript(server);
    if (!t)
        die("cannot read the transcript");
    print_transcript(t);
    mock_transcript_free(t);
    mock_server_free(server);
    return 0;
}
