/*
 * Creating and destroying a swapchain, and its small getters.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <xcb/xfixes.h>

#include "sized-private.h"
#include "swapchain-private.h"
#include "xcb_dri3_util_wait.h"

#define DRM_FORMAT_XRGB8888 0x34325258u     /* 'XR24' */
#define DRM_FORMAT_ARGB8888 0x34325241u     /* 'AR24' */

static bool debug_wanted(void)
{
    const char *v = getenv("XCB_PRESENT_UTIL_DEBUG");

    return v && *v && strcmp(v, "0") != 0;
}

static int check_options(const xcb_present_util_options_t *o)
{
    if ((unsigned)o->mode > XCB_PRESENT_UTIL_MODE_IMMEDIATE ||
        (unsigned)o->backend > XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE)
        return -EINVAL;
    if (o->num_buffers && (o->num_buffers < 2 || o->num_buffers > SC_MAX_BUFFERS))
        return -EINVAL;
    if ((unsigned)o->pacing > XCB_PRESENT_UTIL_PACING_LOW_LATENCY ||
        (o->present_options & ~(uint32_t)XCB_PRESENT_OPTION_COPY) ||
        o->throttle > XCB_PRESENT_UTIL_THROTTLE_PRESENT || o->sync > XCB_PRESENT_UTIL_SYNC_EXPLICIT ||
        (o->sync_flags & ~XCB_PRESENT_UTIL_SYNC_GPU_WAITS) ||
        (o->sync_flags && o->sync == XCB_PRESENT_UTIL_SYNC_IMPLICIT))
        return -EINVAL;
    if (!o->images)
        return o->num_images || o->prime_copy ? -EINVAL : 0;
    return sc_check_images(o->images, o->num_images, o->backend);
}

int sc_check_images(xcb_dri3_util_buffer_t *const *images, uint32_t n,
                    xcb_present_util_backend_t backend)
{
    /* the caller's images: buffers of one size and format */
    if (!images || !n || n > SC_MAX_BUFFERS)
        return -EINVAL;
    for (uint32_t i = 0; i < n; i++) {
        const xcb_dri3_util_buffer_t *a = images[i], *first = images[0];

        /* SHM and PutImage map the one plane of a linear buffer */
        if (a && backend != XCB_PRESENT_UTIL_BACKEND_AUTO &&
            backend != XCB_PRESENT_UTIL_BACKEND_DRI3 &&
            (xcb_dri3_util_buffer_n_planes(a) != 1 || xcb_dri3_util_buffer_fd(a, 0) < 0 ||
             xcb_dri3_util_buffer_bpp(a) != 32 || xcb_dri3_util_buffer_stride(a, 0) % 4 ||
             xcb_dri3_util_buffer_stride(a, 0) / 4 < xcb_dri3_util_buffer_width(a) ||
             (xcb_dri3_util_buffer_modifier(a) != XCB_DRI3_UTIL_MOD_LINEAR &&
              xcb_dri3_util_buffer_modifier(a) != XCB_DRI3_UTIL_MOD_INVALID)))
            return -EINVAL;
        if (!a || xcb_dri3_util_buffer_width(a) != xcb_dri3_util_buffer_width(first) ||
            xcb_dri3_util_buffer_height(a) != xcb_dri3_util_buffer_height(first) ||
            xcb_dri3_util_buffer_fourcc(a) != xcb_dri3_util_buffer_fourcc(first) ||
            xcb_dri3_util_buffer_depth(a) != xcb_dri3_util_buffer_depth(first))
            return -EINVAL;
        for (uint32_t j = 0; j < i; j++)
            if (images[j] == a)
                return -EINVAL;
    }
    return 0;
}

void sc_clamp_latency(sc_t *sc)
{
    sc->max_latency = sc->wanted_latency;
    if (sc->max_latency > sc->num_buffers - 1)
        sc->max_latency = sc->num_buffers > 1 ? sc->num_buffers - 1 : 1;
}

/* Present 1.4 (or what the server has), and the window's capabilities. */
static int query_present(sc_t *sc)
{
    xcb_present_query_version_reply_t *v;
    xcb_present_query_capabilities_reply_t *caps;
    xcb_generic_error_t *e;
    int r;
    const xcb_query_extension_reply_t *ext = sc_extension(sc, &xcb_present_id, &r);

    if (r)
        return r;
    if (!ext || !ext->present) {
        sc_log(sc, "the server has no Present extension");
        return sc_conn_ok(sc) ? -EPIPE : -ENOTSUP;
    }
    r = sc_wait_reply(sc, xcb_present_query_version(sc->c, 1, 4).sequence, (void **)&v, &e);
    if (r)
        return r < 0 ? r : (free(e), -ENOTSUP);
    sc_log(sc, "Present %u.%u", v->major_version, v->minor_version);
    free(v);
    r = sc_wait_reply(sc, xcb_present_query_capabilities(sc->c, sc->window).sequence,
                      (void **)&caps, &e);
    if (r == 1) {
        free(e);
        return -ENODEV;
    }
    if (r < 0)
        return r;
    sc->caps = caps->capabilities;
    sc_log(sc, "capabilities 0x%x", sc->caps);
    free(caps);
    return 0;
}

static int query_window(sc_t *sc)
{
    xcb_get_geometry_reply_t *g;
    xcb_generic_error_t *e;
    int r = sc_wait_reply(sc, xcb_get_geometry(sc->c, sc->window).sequence, (void **)&g, &e);

    if (r == 1) {
        free(e);
        return -ENODEV;
    }
    if (r < 0)
        return r;
    sc->depth = g->depth;
    /* No pixmap may be wider or taller than 32767 (the server's regions
     * are 16-bit signed), so no window larger can be presented whole: a
     * larger size is the server's nonsense, clamped rather than sized. */
    sc->win_width = g->width > SC_MAX_WINDOW_SIDE ? SC_MAX_WINDOW_SIDE : g->width;
    sc->win_height = g->height > SC_MAX_WINDOW_SIDE ? SC_MAX_WINDOW_SIDE : g->height;
    if (sc->win_width != g->width || sc->win_height != g->height)
        sc_log(sc, "no window is %ux%u: taken as %ux%u", g->width, g->height, sc->win_width,
               sc->win_height);
    free(g);
    if (sc->caller_images) {
        /* PresentPixmap wants the pixmap's depth to be the window's */
        if (xcb_dri3_util_buffer_depth(sc->images[0]) != sc->depth) {
            sc_log(sc, "window depth %u, images of depth %u", sc->depth,
                   xcb_dri3_util_buffer_depth(sc->images[0]));
            return -EINVAL;
        }
        sc->fourcc = xcb_dri3_util_buffer_fourcc(sc->images[0]);
        return 0;
    }
    if (sc->depth != 24 && sc->depth != 32) {
        sc_log(sc, "window depth %u: only 24 and 32 are supported", sc->depth);
        return -ENOTSUP;
    }
    sc->fourcc = sc->depth == 32 ? DRM_FORMAT_ARGB8888 : DRM_FORMAT_XRGB8888;
    return 0;
}

/* A region for update areas, when the server has XFixes (it needs its
 * QueryVersion first).  Without one, every frame updates the whole window. */
static void make_region(sc_t *sc)
{
    xcb_xfixes_query_version_reply_t *v;
    xcb_generic_error_t *e;
    int r;
    const xcb_query_extension_reply_t *ext = sc_extension(sc, &xcb_xfixes_id, &r);

    if (!ext || !ext->present)
        return;
    if (sc_wait_reply(sc, xcb_xfixes_query_version(sc->c, 5, 0).sequence, (void **)&v, &e)) {
        free(e);
        return;
    }
    free(v);
    sc->region = xcb_generate_id(sc->c);
    xcb_xfixes_create_region(sc->c, sc->region, 0, NULL);
}

static int make_fds(sc_t *sc)
{
    struct epoll_event ev = { .events = EPOLLIN };

    sc->work_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    sc->cancel_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    sc->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    sc->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (sc->work_fd < 0 || sc->cancel_fd < 0 || sc->timer_fd < 0 || sc->epoll_fd < 0)
        return -errno;
    ev.data.fd = sc->timer_fd;
    if (epoll_ctl(sc->epoll_fd, EPOLL_CTL_ADD, sc->timer_fd, &ev) < 0)
        return -errno;
    ev.data.fd = xcb_get_file_descriptor(sc->c);
    if (epoll_ctl(sc->epoll_fd, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
        return -errno;
    ev.data.fd = sc->work_fd;
    if (epoll_ctl(sc->epoll_fd, EPOLL_CTL_ADD, sc->work_fd, &ev) < 0)
        return -errno;
    return 0;
}

/* The special event queue goes in before SelectInput, so that no event
 * for our event id can land in the application's queue. */
static int select_events(sc_t *sc)
{
    xcb_void_cookie_t ck;
    int r;

    sc->event_id = xcb_generate_id(sc->c);
    sc->special = xcb_register_for_special_xge(sc->c, &xcb_present_id, sc->event_id,
                                               &sc->stamp);
    if (!sc->special)
        return -ENOMEM;
    ck = xcb_present_select_input_checked(sc->c, sc->event_id, sc->window,
                                          XCB_PRESENT_EVENT_MASK_CONFIGURE_NOTIFY |
                                          XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY |
                                          XCB_PRESENT_EVENT_MASK_IDLE_NOTIFY);
    r = sc_check_void(sc, ck);
    if (r > 0)
        return -ENODEV;
    return r;
}

static int pick_backend(sc_t *sc, xcb_present_util_backend_t want)
{
    static const struct backend_ops *const order[] = {
        &sc_backend_dri3, &sc_backend_shm, &sc_backend_put_image,
    };
    int r = -ENOTSUP;

    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (want != XCB_PRESENT_UTIL_BACKEND_AUTO && order[i]->kind != want)
            continue;
        /* explicit sync or nothing: only DRI3 has it */
        if (sc->sync == XCB_PRESENT_UTIL_SYNC_EXPLICIT &&
            order[i]->kind != XCB_PRESENT_UTIL_BACKEND_DRI3)
            continue;
        sc->backend = order[i];
        r = order[i]->init(sc);
        sc_log(sc, "back end %s: %s", xcb_present_util_backend_name(order[i]->kind),
               r == 0 ? "in use" : strerror(-r));
        /* A broken connection, a gone window, or create()'s bound spent:
         * the next back end could do no better. */
        if (r == 0 || r == -ENODEV || sc_unanswered(r))
            return r;
    }
    sc->backend = NULL;
    return r;
}

/* One completion to start the FIFO chain from: a NotifyMSC for "now".
 * Later frames are aimed from completions only. */
static void anchor_msc(sc_t *sc, uint64_t create_deadline)
{
    uint64_t deadline = (uint64_t)deadline_now_ns() + 200000000;

    if (deadline > create_deadline)
        deadline = create_deadline;
    xcb_present_notify_msc(sc->c, sc->window, 0, 0, 0, 0);
    xcb_flush(sc->c);
    while (!sc->msc.have_msc && !sc->dead && (uint64_t)deadline_now_ns() < deadline) {
        struct pollfd p = { .fd = xcb_get_file_descriptor(sc->c), .events = POLLIN };

        if (sc_drain_events(sc) < 0)
            break;
        if (!sc->msc.have_msc)
            poll(&p, 1, 5);     /* short: another thread may read our event */
    }
    if (sc->msc.have_msc)
        sc_log(sc, "anchor: msc %llu", (unsigned long long)sc->msc.last_msc);
    else
        sc_log(sc, "anchor: no NotifyMSC completion; the first completion will start "
               "the chain");
}

static void teardown(sc_t *sc);

/* options.predecessor: the counts and what the clock and the pacing
 * learnt, from a swapchain on the same window. */
static int continue_from(sc_t *sc, sc_t *old)
{
    if (old->window != sc->window || old->c != sc->c)
        return -EINVAL;
    pthread_mutex_lock(&old->lock);
    sc->ring.serial = old->ring.serial;
    sc->ring.oldest = old->ring.serial + 1;
    sc->windows.last_completed_serial = old->ring.serial;
    sc->shown.last_shown_id = old->shown.last_shown_id;
    sc->msc.msc_offset = old->msc.msc_offset;
    sc->msc.told_msc = old->msc.told_msc;
    sc->msc.told_ust = old->msc.told_ust;
    sc->msc.told_ns = old->msc.told_ns;
    memcpy(sc->clock.readings, old->clock.readings, sizeof sc->clock.readings);
    sc->clock.n_readings = old->clock.n_readings;
    sc->clock.reading_next = old->clock.reading_next;
    sc_clock_derive(sc);
    memcpy(sc->msc.refresh_samples, old->msc.refresh_samples, sizeof sc->msc.refresh_samples);
    sc->msc.n_refresh_samples = old->msc.n_refresh_samples;
    sc->msc.refresh_next = old->msc.refresh_next;
    sc->stats.refresh_ns = old->stats.refresh_ns;
    memcpy(sc->pace.render_samples, old->pace.render_samples, sizeof sc->pace.render_samples);
    sc->pace.n_render = old->pace.n_render;
    sc->pace.render_next = old->pace.render_next;
    sc->stats.margin_ns = old->stats.margin_ns;
    /* The old chain's frames still queued are shown before ours: the
     * first frame of this chain is aimed past them, not at "the next
     * vblank", which would put it on the vblank of the old one's last and
     * replace that frame. */
    sc->ring.last_target = old->ring.last_target;
    sc->ring.after_predecessor = old->ring.in_flight > 0;
    sc_log(sc, "continues swapchain %p: frame %llu, msc offset %llu", (void *)old,
           (unsigned long long)old->ring.serial, (unsigned long long)old->msc.msc_offset);
    pthread_mutex_unlock(&old->lock);
    return 0;
}

/* NULL with errno set: the library's rule for constructors. */
static xcb_present_util_swapchain_t *fail_create(int r)
{
    errno = -r;
    return NULL;
}

xcb_present_util_swapchain_t *
xcb_present_util_swapchain_create(xcb_connection_t *c, xcb_window_t window,
                                  const xcb_present_util_options_t *caller_options)
{
    xcb_present_util_options_t all, *options = &all;
    xcb_dri3_util_wait_scope_t scope;
    uint64_t deadline;
    sc_t *sc;
    int r;

    /* The caller's fields over the defaults, as far as its size goes. */
    xcb_present_util_options_init(&all);
    if (caller_options) {
        if (caller_options->size < OPTIONS_SIZE_FIRST)
            return fail_create(-EINVAL);
        memcpy(&all, caller_options, sized_len(caller_options->size, sizeof all));
        all.size = sizeof all;
    }
    if (!c || !window || check_options(options) < 0)
        return fail_create(-EINVAL);
    if (xcb_connection_has_error(c))
        return fail_create(-EPIPE);
    sc = calloc(1, sizeof *sc);
    if (!sc)
        return fail_create(-ENOMEM);
    sc->c = c;
    sc->window = window;
    sc->mode = sc->base_mode = options->mode;
    sc->throttle = options->throttle;
    sc->sync = options->sync;
    sc->gpu_waits = options->sync_flags & XCB_PRESENT_UTIL_SYNC_GPU_WAITS;
    sc->xwayland = -1;
    sc->num_buffers = options->num_buffers ? options->num_buffers : SC_DEFAULT_BUFFERS;
    /* max_latency 0: the default; more than the buffers allow: what they
     * allow (below, once the number of buffers is known) */
    sc->pacing = options->pacing;
    /* 0 is the default here (a zeroed struct keeps vsync); the setter's 0
     * turns vsync off */
    sc->swap_interval = options->swap_interval ? options->swap_interval : 1;
    sc->render_fd = -1;
    if (options->images) {
        sc->caller_images = true;
        sc->num_buffers = options->num_images;
        memcpy(sc->images, options->images, options->num_images * sizeof *sc->images);
        sc->render_fd = options->render_fd > 0 ? options->render_fd : -1;
        sc->prime_copy = options->prime_copy;
        sc->prime_data = options->prime_data;
    }
    sc->wanted_latency = options->max_latency ? options->max_latency : SC_DEFAULT_LATENCY;
    sc_clamp_latency(sc);
    sc->stats.margin_ns = SC_MARGIN_START_NS;
    sc->debug = debug_wanted();
    sc->work_fd = sc->cancel_fd = sc->timer_fd = sc->epoll_fd = -1;
    pthread_mutex_init(&sc->lock, NULL);
    pthread_cond_init(&sc->idle_cond, NULL);
    for (uint32_t i = 0; i < SC_MAX_BUFFERS; i++)
        sc->buffers[i].index = i;
    sc->ring.oldest = 1;
    sc->last_activity_ns = (uint64_t)deadline_now_ns();

    /* One bound for the whole of create, its own round trips and those of
     * libxcb-dri3-util that the back end makes alike. */
    deadline = (uint64_t)xcb_dri3_util_deadline(c);
    scope = xcb_dri3_util_wait_scope_push((int64_t)deadline, -1);
    pthread_mutex_lock(&sc->lock);
    r = options->predecessor ? continue_from(sc, options->predecessor) : 0;
    if (!r)
        r = make_fds(sc);
    if (!r)
        r = query_present(sc);
    if (!r)
        r = query_window(sc);
    if (!r)
        r = select_events(sc);
    if (!r)
        r = pick_backend(sc, options->backend);
    if (!r) {
        make_region(sc);
        if (sc->mode == XCB_PRESENT_UTIL_MODE_MAILBOX)
            sc_detect_xwayland(sc);
        anchor_msc(sc, deadline);
        for (uint32_t i = 0; i < sc->num_buffers && !r; i++)
            r = sc_buffer_alloc(sc, &sc->buffers[i]);
    }
    /* the caller's PresentOption bits, after the back end's */
    sc->backend_options |= options->present_options;
    if (!r && sc->dead)
        r = sc->dead;
    if (!r)
        sc_update_readiness(sc);    /* the fd is readable: buffers are free */
    pthread_mutex_unlock(&sc->lock);
    xcb_dri3_util_wait_scope_pop(scope);
    if (r) {
        sc_log(sc, "create failed: %s", strerror(-r));
        teardown(sc);
        return fail_create(r);    /* after the teardown, which may touch errno */
    }
    sc_log(sc, "created: %s, %s, %u buffers of %ux%u, depth %u",
           xcb_present_util_mode_name(sc->mode),
           xcb_present_util_backend_name(sc->backend->kind), sc->num_buffers, sc->win_width,
           sc->win_height, sc->depth);
    return sc;
}

/* In-flight buffers come back at the next vblank or two; a dead window or
 * connection gives nothing back and is not waited for. */
static void wait_in_flight(sc_t *sc, uint64_t deadline)
{
    for (;;) {
        struct pollfd p = { .fd = xcb_get_file_descriptor(sc->c), .events = POLLIN };
        bool busy = false;
        uint64_t now;
        int ms;

        if (sc_drain_events(sc) < 0 || sc->dead)
            return;
        for (uint32_t i = 0; i < sc->num_buffers; i++)
            busy |= sc->buffers[i].state == BUF_PRESENTED && !sc->buffers[i].idle_notified;
        now = (uint64_t)deadline_now_ns();
        if (!busy || now >= deadline)
            return;
        /* short slices: another thread may read our events */
        ms = deadline_poll_ms((int64_t)deadline, (int64_t)now);
        poll(&p, 1, ms < 5 ? ms : 5);
    }
}

/* At most SC_DESTROY_NS in all, on a stopped server too: three quarters
 * for the frames in flight, the rest for the round trip that makes the
 * server forget our event id. */
static void teardown(sc_t *sc)
{
    bool conn_ok = !xcb_connection_has_error(sc->c);
    uint64_t deadline = (uint64_t)deadline_now_ns() + SC_DESTROY_NS;

    if (conn_ok && sc->special)
        wait_in_flight(sc, deadline - SC_DESTROY_NS / 4);
    if (conn_ok && sc->probe.sequence)
        xcb_discard_reply(sc->c, sc->probe.sequence);     /* GetGeometry: no fds */
    for (uint32_t i = 0; i < SC_MAX_BUFFERS; i++)
        if (sc->backend)
            sc_buffer_free(sc, &sc->buffers[i]);
    if (sc->backend && sc->backend->fini)
        sc->backend->fini(sc);
    sc_check(sc, sc->fds_open == 0, "every fd of the back end closed");
    if (sc->region && conn_ok)
        xcb_xfixes_destroy_region(sc->c, sc->region);
    if (sc->special) {
        /* An empty mask, checked, so that the server has forgotten the
         * event id before its queue goes. */
        if (conn_ok && sc->dead != -ENODEV)
            sc_check_void_by(sc, xcb_present_select_input_checked(sc->c, sc->event_id,
                                                                  sc->window, 0),
                             deadline);
        xcb_unregister_for_special_event(sc->c, sc->special);
    }
    if (conn_ok)
        xcb_flush(sc->c);
    if (sc->epoll_fd >= 0)
        close(sc->epoll_fd);
    if (sc->work_fd >= 0)
        close(sc->work_fd);
    if (sc->cancel_fd >= 0)
        close(sc->cancel_fd);
    if (sc->timer_fd >= 0)
        close(sc->timer_fd);
    pthread_cond_destroy(&sc->idle_cond);
    pthread_mutex_destroy(&sc->lock);
    free(sc);
}

void xcb_present_util_swapchain_destroy(xcb_present_util_swapchain_t *sc)
{
    uint64_t one = 1;

    if (!sc)
        return;
    /* The cancel fd first, without the lock: a thread in acquire() may
     * hold it during a round trip, which the fd ends. */
    if (write(sc->cancel_fd, &one, sizeof one) != sizeof one)
        sc_log(sc, "destroy: cannot wake waiters");
    pthread_mutex_lock(&sc->lock);
    sc->destroying = true;
    while (sc->waiters)
        pthread_cond_wait(&sc->idle_cond, &sc->lock);
    sc_log(sc, "destroy: %llu presented, %llu completed, %llu skipped",
           (unsigned long long)sc->stats.presented, (unsigned long long)sc->stats.completed,
           (unsigned long long)sc->stats.skipped);
    pthread_mutex_unlock(&sc->lock);
    teardown(sc);
}

int xcb_present_util_swapchain_stats(xcb_present_util_swapchain_t *sc,
                                     xcb_present_util_stats_t *stats)
{
    xcb_present_util_stats_t all;

    if (!sc || !stats || stats->size < STATS_SIZE_FIRST)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    all = sc->stats;
    all.refresh_ns = sc_clock_period_ns(sc);
    sc_stats_latency(sc, &all.latency_mean_ns, &all.latency_p99_ns);
    sc_stats_shown_latency(sc, &all.shown_latency_mean_ns, &all.shown_latency_p50_ns,
                           &all.shown_latency_p99_ns);
    all.margin_ns = sc_pacing_margin_ns(sc);
    sc_unlock(sc);
    all.size = stats->size;
    memcpy(stats, &all, sized_len(stats->size, sizeof all));
    return 0;
}

int xcb_present_util_swapchain_fd(xcb_present_util_swapchain_t *sc)
{
    if (!sc)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    /* From now on every call keeps the fd's readiness true. */
    if (!sc->fd_wanted) {
        sc->fd_wanted = true;
        sc_update_readiness(sc);
    }
    sc_unlock(sc);
    return sc->epoll_fd;
}

void xcb_present_util_swapchain_set_frame_callback(xcb_present_util_swapchain_t *sc,
                                                   xcb_present_util_frame_cb_t cb, void *data)
{
    if (!sc)
        return;
    pthread_mutex_lock(&sc->lock);
    sc->hooks.frame_cb = cb;
    sc->hooks.frame_cb_data = data;
    pthread_mutex_unlock(&sc->lock);
}

xcb_present_util_backend_t xcb_present_util_swapchain_backend(xcb_present_util_swapchain_t *sc)
{
    return sc && sc->backend ? sc->backend->kind : XCB_PRESENT_UTIL_BACKEND_AUTO;
}

const char *xcb_present_util_backend_name(xcb_present_util_backend_t backend)
{
    switch (backend) {
    case XCB_PRESENT_UTIL_BACKEND_AUTO: return "auto";
    case XCB_PRESENT_UTIL_BACKEND_DRI3: return "dri3";
    case XCB_PRESENT_UTIL_BACKEND_SHM: return "shm";
    case XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE: return "put-image";
    }
    return "unknown";
}

const char *xcb_present_util_mode_name(xcb_present_util_mode_t mode)
{
    switch (mode) {
    case XCB_PRESENT_UTIL_MODE_FIFO: return "fifo";
    case XCB_PRESENT_UTIL_MODE_FIFO_RELAXED: return "fifo-relaxed";
    case XCB_PRESENT_UTIL_MODE_MAILBOX: return "mailbox";
    case XCB_PRESENT_UTIL_MODE_IMMEDIATE: return "immediate";
    }
    return "unknown";
}
