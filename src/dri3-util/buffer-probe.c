/*
 * The probe: which of DRI3, Present, SYNC, XFixes and MIT-SHM the server
 * has, at which versions, and whether fds can pass at all.  Every other
 * helper of the buffer part asks here before it sends a request, because a
 * request to a missing extension makes libxcb shut the connection down.
 *
 * The answer is kept in the connection's entry (conn-state.h), together
 * with the modifier lists that xcb_dri3_util_buffer_to_pixmap() consults.
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xcb/present.h>
#include <xcb/shm.h>
#include <xcb/sync.h>
#include <xcb/xfixes.h>

void util_report_x_error(xcb_generic_error_t *e, xcb_generic_error_t **err)
{
    if (err)
        *err = e;
    else
        free(e);
    errno = EIO;
}

void close_fds(const int *fds, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        close(fds[i]);
}

static bool is_unix_socket(int fd)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof addr;

    if (fd < 0 || getsockname(fd, (struct sockaddr *)&addr, &len) < 0)
        return false;
    return addr.ss_family == AF_UNIX;
}

static bool ext_present(xcb_connection_t *c, xcb_extension_t *ext)
{
    const xcb_query_extension_reply_t *r = xcb_get_extension_data(c, ext);

    return r && r->present;
}

/*
 * The reply of one of the probe's requests (sent when `sent`), or NULL.
 * The first failure to wait is kept in *ret; the later waits of the probe
 * then only look (the deadline has passed) and abandon what has not come.
 * An X error gives NULL: the extension is then taken to be missing.
 */
static void *probe_reply(xcb_connection_t *c, bool sent, unsigned int sequence, int *ret)
{
    void *reply = NULL;
    int w;

    if (!sent)
        return NULL;
    w = util_wait_reply(c, sequence, 0, &reply, NULL);
    if (w < 0 && *ret == 0)
        *ret = w;
    return reply;
}

/* Round one: which extensions the server has.  libxcb's extension cache
 * answers that, but xcb_get_extension_data() waits for its QueryExtension
 * replies without a bound: so the QueryExtension requests go out
 * (prefetch), then a GetInputFocus whose reply we wait for with ours.
 * Replies come in order: once it is here, so are they, and
 * xcb_get_extension_data() no longer waits. */
static int query_extensions(xcb_connection_t *c, xcb_dri3_util_caps_t *caps)
{
    int ret = 0;

    xcb_prefetch_extension_data(c, &xcb_dri3_id);
    xcb_prefetch_extension_data(c, &xcb_present_id);
    xcb_prefetch_extension_data(c, &xcb_sync_id);
    xcb_prefetch_extension_data(c, &xcb_xfixes_id);
    xcb_prefetch_extension_data(c, &xcb_shm_id);
    free(probe_reply(c, true, xcb_get_input_focus(c).sequence, &ret));
    if (ret < 0)
        return ret;
    caps->dri3 = ext_present(c, &xcb_dri3_id);
    caps->present = ext_present(c, &xcb_present_id);
    caps->sync = ext_present(c, &xcb_sync_id);
    caps->xfixes = ext_present(c, &xcb_xfixes_id);
    caps->shm = ext_present(c, &xcb_shm_id);
    return xcb_connection_has_error(c) ? -EPIPE : 0;
}

/* Sends everything, then reads the answers: two round trips, under the
 * one deadline of the call (see conn_caps). */
static int run_probe(xcb_connection_t *c, xcb_dri3_util_caps_t *caps)
{
    xcb_dri3_query_version_cookie_t dri3_ck = { 0 };
    xcb_present_query_version_cookie_t present_ck = { 0 };
    xcb_present_query_capabilities_cookie_t caps_ck = { 0 };
    xcb_sync_initialize_cookie_t sync_ck = { 0 };
    xcb_xfixes_query_version_cookie_t xfixes_ck = { 0 };
    xcb_shm_query_version_cookie_t shm_ck = { 0 };
    xcb_screen_iterator_t screens;
    bool caps_sent = false;
    int ret;

    memset(caps, 0, sizeof *caps);
    caps->fd_passing = is_unix_socket(xcb_get_file_descriptor(c));
    ret = query_extensions(c, caps);
    if (ret < 0)
        return ret;

    /* Round two: every version request, and the root window's Present
     * capabilities, again all sent before the first reply is read. */
    if (caps->dri3)
        dri3_ck = xcb_dri3_query_version(c, 1, 4);
    if (caps->present) {
        present_ck = xcb_present_query_version(c, 1, 4);
        screens = xcb_setup_roots_iterator(xcb_get_setup(c));
        caps_sent = screens.rem > 0;
        if (caps_sent)
            caps_ck = xcb_present_query_capabilities(c, screens.data->root);
    }
    if (caps->sync)
        sync_ck = xcb_sync_initialize(c, 3, 1);
    if (caps->xfixes)
        xfixes_ck = xcb_xfixes_query_version(c, 6, 0);
    if (caps->shm)
        shm_ck = xcb_shm_query_version(c);

    xcb_dri3_query_version_reply_t *dri3 = probe_reply(c, caps->dri3, dri3_ck.sequence, &ret);
    xcb_present_query_version_reply_t *present =
        probe_reply(c, caps->present, present_ck.sequence, &ret);
    xcb_present_query_capabilities_reply_t *pcaps =
        probe_reply(c, caps_sent, caps_ck.sequence, &ret);
    xcb_sync_initialize_reply_t *sync = probe_reply(c, caps->sync, sync_ck.sequence, &ret);
    xcb_xfixes_query_version_reply_t *xfixes =
        probe_reply(c, caps->xfixes, xfixes_ck.sequence, &ret);
    xcb_shm_query_version_reply_t *shm = probe_reply(c, caps->shm, shm_ck.sequence, &ret);

    if (dri3) {
        caps->dri3_major = dri3->major_version;
        caps->dri3_minor = dri3->minor_version;
    }
    if (present) {
        caps->present_major = present->major_version;
        caps->present_minor = present->minor_version;
    }
    if (pcaps)
        caps->present_caps = pcaps->capabilities;
    if (sync) {
        caps->sync_major = sync->major_version;
        caps->sync_minor = sync->minor_version;
    }
    if (xfixes) {
        caps->xfixes_major = xfixes->major_version;
        caps->xfixes_minor = xfixes->minor_version;
    }
    if (shm) {
        caps->shm_major = shm->major_version;
        caps->shm_minor = shm->minor_version;
        caps->shm_pixmaps = shm->shared_pixmaps;
    }
    free(dri3);
    free(present);
    free(pcaps);
    free(sync);
    free(xfixes);
    free(shm);
    if (ret < 0)
        return ret;
    if (xcb_connection_has_error(c))
        return -EPIPE;
    /* A server that advertises an extension and then fails its version
     * request is treated as not having it. */
    caps->dri3 = caps->dri3 && caps->dri3_major > 0;
    caps->present = caps->present && caps->present_major > 0;
    caps->sync = caps->sync && caps->sync_major > 0;
    caps->xfixes = caps->xfixes && caps->xfixes_major > 0;
    caps->shm = caps->shm && (caps->shm_major > 0 || caps->shm_minor > 0);
    return 0;
}

int conn_caps(xcb_connection_t *c, xcb_dri3_util_caps_t *caps)
{
    struct util_conn *s;
    bool cached;
    int ret;

    if (!c || xcb_connection_has_error(c))
        return -EPIPE;
    conn_lock();
    s = conn_find_locked(c);
    cached = s && s->probed;
    if (cached)
        *caps = s->caps;
    conn_unlock();
    if (cached)
        return 0;

    /* Probing without the lock: two threads may both probe the first
     * time; the first to finish is kept.  All its waits share the
     * deadline of the call that needed the probe (a scope pushed here
     * only narrows an outer one). */
    xcb_dri3_util_wait_scope_t previous = util_call_begin(c);
    ret = run_probe(c, caps);
    util_call_end(previous);
    if (ret < 0)
        return ret;
    conn_lock();
    s = conn_get_locked(c);
    if (s && !s->probed) {
        s->caps = *caps;
        s->probed = true;
    }
    conn_unlock();
    return s ? 0 : -ENOMEM;
}

/* The size of xcb_dri3_util_caps_t's first version, the smallest a caller
 * can pass. */
#define CAPS_SIZE_FIRST (offsetof(xcb_dri3_util_caps_t, present_caps) + sizeof(uint32_t))

void xcb_dri3_util_caps_init(xcb_dri3_util_caps_t *caps)
{
    if (!caps)
        return;
    memset(caps, 0, sizeof *caps);
    caps->size = sizeof *caps;
}

int xcb_dri3_util_probe(xcb_connection_t *c, xcb_dri3_util_caps_t *caps)
{
    xcb_dri3_util_caps_t tmp;
    uint32_t size;
    int ret;

    if (caps && caps->size < CAPS_SIZE_FIRST)
        return -EINVAL;
    ret = conn_caps(c, &tmp);
    if (ret < 0)
        return ret;
    if (caps) {
        /* Only what the caller's version of the struct has room for. */
        size = caps->size < sizeof tmp ? caps->size : (uint32_t)sizeof tmp;
        tmp.size = caps->size;
        memcpy(caps, &tmp, size);
    }
    return 0;
}

int conn_need_dri3(xcb_connection_t *c, uint32_t minor, xcb_dri3_util_caps_t *caps)
{
    xcb_dri3_util_caps_t tmp;
    int ret = conn_caps(c, &tmp);

    if (ret < 0)
        return ret;
    if (caps)
        *caps = tmp;
    if (!tmp.dri3 || (tmp.dri3_major == 1 && tmp.dri3_minor < minor))
        return -ENOTSUP;
    if (xcb_connection_has_error(c))
        return -EPIPE;
    return 0;
}

static uint64_t *copy_list(const uint64_t *src, uint32_t n, bool *failed)
{
    uint64_t *dst;

    if (n == 0)
        return NULL;
    dst = malloc(n * sizeof *dst);
    if (!dst) {
        *failed = true;
        return NULL;
    }
    memcpy(dst, src, n * sizeof *dst);
    return dst;
}

bool conn_modifiers_get(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                        uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                        uint32_t *n_screen)
{
    struct util_conn *s;
    bool found = false, failed = false;

    conn_lock();
    s = conn_find_locked(c);
    for (unsigned i = 0; s && i < s->n_mods; i++) {
        const struct modifier_entry *m = &s->mods[i];

        if (m->window != window || m->depth != depth || m->bpp != bpp)
            continue;
        *window_mods = copy_list(m->window_mods, m->n_window, &failed);
        *screen_mods = copy_list(m->screen_mods, m->n_screen, &failed);
        *n_window = m->n_window;
        *n_screen = m->n_screen;
        found = true;
        break;
    }
    conn_unlock();
    if (found && failed) {
        /* Out of memory: pretend nothing was cached, the caller asks the
         * server (and then fails on memory itself). */
        free(*window_mods);
        free(*screen_mods);
        return false;
    }
    return found;
}

void conn_modifiers_put(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                        const uint64_t *window_mods, uint32_t n_window,
                        const uint64_t *screen_mods, uint32_t n_screen)
{
    struct modifier_entry fresh = { window, depth, bpp, NULL, NULL, n_window, n_screen };
    struct util_conn *s;
    bool failed = false;
    unsigned slot;

    fresh.window_mods = copy_list(window_mods, n_window, &failed);
    fresh.screen_mods = copy_list(screen_mods, n_screen, &failed);
    if (failed) {
        conn_modifier_entry_free(&fresh);
        return;
    }
    conn_lock();
    s = conn_find_locked(c);
    if (!s || !s->probed) {
        /* Lists outlive no probe: a refresh in between dropped both. */
        conn_unlock();
        conn_modifier_entry_free(&fresh);
        return;
    }
    for (slot = 0; slot < s->n_mods; slot++)
        if (s->mods[slot].window == window && s->mods[slot].depth == depth &&
            s->mods[slot].bpp == bpp)
            break;
    if (slot == s->n_mods) {
        if (s->n_mods < MODIFIER_CACHE_SIZE) {
            s->n_mods++;
        } else {
            slot = s->next_mod;
            s->next_mod = (s->next_mod + 1) % MODIFIER_CACHE_SIZE;
        }
    }
    /* A fresh slot is zero (calloc), a reused one is replaced. */
    conn_modifier_entry_free(&s->mods[slot]);
    s->mods[slot] = fresh;
    conn_unlock();
}
