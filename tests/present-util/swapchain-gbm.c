/*
 * Where the DRI3 back end's buffers come from (backend-dri3-alloc.c), on
 * the mock X server: memfds where DRI3 Open gives no DRM device (the
 * mock's memfd) or the library has no GBM; GBM's buffers where it gives
 * one, through a stand-in for GBM behind the back end's seam
 * (fake-gbm.c); and every fallback from GBM to memfds and on to MIT-SHM,
 * each said in the debug log and counted in the stats.  The image's
 * buffer (image.buffer) is checked against what the server was sent.
 * Where a render node exists, the last test allocates with real GBM and
 * the mock shows its dma-bufs (tests/gpu/run-on-device.sh).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug-capture.h"
#include "fake-gbm.h"
#include "mock-fixture.h"
#include "test-fds.h"
#include "test-runner.h"
#include "xcb_dri3_util.h"

#define PIXMAP_FROM_BUFFERS 7       /* DRI3 minor opcode */
#define XRGB8888 0x34325258u
#define MEMFD_STRIDE 256u           /* 64 pixels, rows aligned to 64 bytes */
#define FAKE_STRIDE (64u * 4u + FAKE_GBM_PAD)

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return le32(p) | (uint64_t)le32(p + 4) << 32;
}

static size_t count_requests(const struct mock_transcript *t, uint8_t major, uint8_t minor)
{
    size_t n = 0;

    while (mock_transcript_find(t, major, minor, n))
        n++;
    return n;
}

static xcb_present_util_stats_t stats_of(xcb_present_util_swapchain_t *sc)
{
    xcb_present_util_stats_t st;

    xcb_present_util_stats_init(&st);
    CHECK_EQ(xcb_present_util_swapchain_stats(sc, &st), 0);
    return st;
}

/* Frames 1..n, and the window shows the last. */
static void run_frames(struct mock_fixture *s, uint32_t n)
{
    for (uint32_t i = 1; i <= n; i++)
        CHECK_EQ(mf_frame(s, i), 0);
    mf_wait_completed(s, n);
    mf_check_window_shows(s, n);
}

/* The swapchain tests of the allocation: on a mock started with kv, a
 * FIFO swapchain of n buffers asked for back end ask, which must get
 * want, runs frames frames and goes.  Its stats in *st; returns the debug
 * log of it all (the caller frees it).  The mock keeps running. */
static char *logged_run(struct mock_fixture *s, const char *const *kv,
                        xcb_present_util_backend_t ask, uint32_t n,
                        xcb_present_util_backend_t want, uint32_t frames,
                        xcb_present_util_stats_t *st)
{
    struct debug_capture d;

    mf_start(s, kv);
    debug_capture_start(&d);
    mf_swapchain(s, XCB_PRESENT_UTIL_MODE_FIFO, ask, n);
    CHECK_EQ(xcb_present_util_swapchain_backend(s->sc), want);
    run_frames(s, frames);
    *st = stats_of(s->sc);
    xcb_present_util_swapchain_destroy(s->sc);
    s->sc = NULL;
    return debug_capture_end(&d);
}

/* The swapchain destroyed and the server stopped: its transcript. */
static struct mock_transcript *finish(struct mock_fixture *s)
{
    struct mock_transcript *t;

    xcb_present_util_swapchain_destroy(s->sc);
    s->sc = NULL;
    CHECK_EQ(mock_server_stop(s->server), 0);
    t = mock_server_transcript(s->server);
    CHECK(t != NULL);
    return t;
}

/* PixmapFromBuffers number i: its stride 0 and modifier. */
static void pixmap_request(const struct mock_transcript *t, size_t i, uint32_t *stride,
                           uint64_t *modifier)
{
    const struct mock_request_record *r =
        mock_transcript_find(t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS, i);

    CHECK(r != NULL && r->length >= 64 && r->nfds == 1);
    *stride = le32(r->data + 20);
    *modifier = le64(r->data + 56);
}

TEST(choose_gbm_or_memfd_and_why)
{
    struct sc_gbm_ops with = sc_gbm_real, without = sc_gbm_real;
    xcb_dri3_util_device_t drm = { .fd = -1, .is_drm = true, .kind = "render" };
    xcb_dri3_util_device_t memfd = {
        .fd = -1, .kind = "memfd",
        .note = "not a DRM device: the server handed out a memfd (memfd:mock-drm-device)",
    };
    const char *why = "";

    with.built = true;
    without.built = false;
    CHECK_EQ(sc_alloc_choose(&with, &drm, &why), XCB_PRESENT_UTIL_ALLOC_GBM);
    CHECK(why == NULL);
    CHECK_EQ(sc_alloc_choose(&with, &memfd, &why), XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK(strcmp(why, memfd.note) == 0);
    CHECK_EQ(sc_alloc_choose(&with, NULL, &why), XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK(strcmp(why, "DRI3 Open gave no device") == 0);
    CHECK_EQ(sc_alloc_choose(&without, &drm, &why), XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK(strcmp(why, "built without GBM") == 0);
    /* GBM's table says what this build has, and takes libdrm's word */
#ifdef HAVE_GBM
    CHECK(sc_gbm_real.built);
#else
    CHECK(!sc_gbm_real.built);
#endif
    CHECK(sc_gbm_real.usable(&drm));
    CHECK(!sc_gbm_real.usable(&memfd));
}

/* The mock's DRI3 Open gives a memfd: memfds, and the log says why. */
TEST(the_mock_gets_memfds_and_says_why)
{
    struct mock_fixture s;
    xcb_present_util_stats_t st;
    char *log = logged_run(&s, NULL, XCB_PRESENT_UTIL_BACKEND_AUTO, 3,
                           XCB_PRESENT_UTIL_BACKEND_DRI3, 6, &st);

    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK_EQ(st.memfd_buffers, 3);
    CHECK_EQ(st.gbm_buffers, 0);
    CHECK_EQ(st.gbm_fallbacks, 0);
#ifdef HAVE_GBM
    CHECK_LOGGED(log, "DRI3: buffers from memfd: not a DRM device: the server handed out a "
                      "memfd");
#else
    CHECK_LOGGED(log, "DRI3: buffers from memfd: built without GBM");
#endif
    free(log);
    mf_stop(&s);
}

/* What acquire() says of the buffer is what the server was sent: its fd,
 * stride and modifier, so that a GPU could import the same memory. */
TEST(images_expose_the_buffer_the_server_shows)
{
    struct mock_fixture s;
    struct mock_transcript *t;
    struct fd_id ids[3];
    bool seen[3] = { false };

    mf_start(&s, NULL);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_DRI3, 3);
    for (uint32_t n = 1; n <= 6; n++) {
        xcb_present_util_image_t img;
        const xcb_dri3_util_buffer_t *b;
        char link[64], target[64] = "";
        int fd;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
        b = img.buffer;
        CHECK(b != NULL);
        CHECK_EQ(xcb_dri3_util_buffer_n_planes(b), 1);
        CHECK_EQ(xcb_dri3_util_buffer_width(b), img.width);
        CHECK_EQ(xcb_dri3_util_buffer_height(b), img.height);
        CHECK_EQ(xcb_dri3_util_buffer_fourcc(b), img.fourcc);
        CHECK_EQ(xcb_dri3_util_buffer_stride(b, 0), img.stride);
        CHECK_EQ(xcb_dri3_util_buffer_offset(b, 0), 0);
        CHECK_EQ(xcb_dri3_util_buffer_modifier(b), XCB_DRI3_UTIL_MOD_LINEAR);
        fd = xcb_dri3_util_buffer_fd(b, 0);
        CHECK_CLOEXEC(fd);
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        CHECK(readlink(link, target, sizeof target - 1) > 0);
        CHECK(strncmp(target, "/memfd:xcb-dri3-util-buffer", 27) == 0);
        ids[img.index] = FD_ID(fd);
        seen[img.index] = true;
        for (uint32_t y = 0; y < img.height; y++)
            for (uint32_t x = 0; x < img.width; x++)
                ((uint32_t *)((uint8_t *)img.pixels + (size_t)y * img.stride))[x] =
                    mf_pixel(n, x, y);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 6);
    mf_check_window_shows(&s, 6);
    /* FIFO may cycle through two of the three */
    CHECK(seen[0] && seen[1]);
    t = finish(&s);
    /* the trial buffer, then the three */
    CHECK_EQ(count_requests(t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS), 4);
    for (size_t i = 1; i <= 3; i++) {
        uint32_t stride;
        uint64_t modifier;

        pixmap_request(t, i, &stride, &modifier);
        CHECK_EQ(stride, MEMFD_STRIDE);
        CHECK_EQ(modifier, XCB_DRI3_UTIL_MOD_LINEAR);     /* the mock lists it */
    }
    /* each buffer handed out is the file one of them sent */
    for (int j = 0; j < 3; j++) {
        int matches = 0;

        for (size_t i = 1; seen[j] && i <= 3; i++) {
            const struct mock_request_record *r =
                mock_transcript_find(t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS, i);

            CHECK(strcmp(r->fds[0].kind, "memfd") == 0);
            matches += r->fds[0].dev == ids[j].dev && r->fds[0].ino == ids[j].ino;
        }
        CHECK_EQ(matches, seen[j] ? 1 : 0);
    }
    mock_transcript_free(t);
    mf_stop(&s);
}

TEST(other_back_ends_allocate_nothing)
{
    const char *const kv[] = { "shm", "on", NULL };
    struct mock_fixture s;
    xcb_present_util_image_t img;
    xcb_present_util_stats_t st;

    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 2);
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
    CHECK(img.buffer == NULL);
    CHECK(img.pixels != NULL);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    st = stats_of(s.sc);
    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_NONE);
    CHECK_EQ(st.gbm_buffers + st.memfd_buffers + st.gbm_fallbacks, 0);
    mf_stop(&s);
}

/* A DRM device and GBM (the stand-in): every buffer from GBM, cleared
 * before its first use, and the GBM device goes after the last buffer. */
TEST(gbm_buffers_through_the_seam)
{
    struct mock_fixture s;
    struct mock_transcript *t;
    struct debug_capture d;
    xcb_present_util_stats_t st;
    char *log;

    fake_gbm_install(true);
    mf_start(&s, NULL);
    debug_capture_start(&d);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    CHECK_EQ(xcb_present_util_swapchain_backend(s.sc), XCB_PRESENT_UTIL_BACKEND_DRI3);
    CHECK_EQ(fake_gbm.devices_made, 1);
    /* the server lists LINEAR: asked for explicitly, and nothing tiled */
    CHECK_EQ(fake_gbm.last_n_modifiers, 1);
    CHECK_EQ(fake_gbm.last_modifier, XCB_DRI3_UTIL_MOD_LINEAR);
    for (uint32_t n = 1; n <= 6; n++) {
        xcb_present_util_image_t img;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
        CHECK_EQ(img.stride, FAKE_STRIDE);
        CHECK(img.buffer != NULL);
        CHECK_EQ(xcb_dri3_util_buffer_stride(img.buffer, 0), FAKE_STRIDE);
        /* new: zeros, not GBM's garbage */
        for (uint32_t y = 0; img.age == 0 && y < img.height; y++)
            for (uint32_t x = 0; x < img.width; x++)
                CHECK_EQ(((uint32_t *)((uint8_t *)img.pixels + (size_t)y * img.stride))[x], 0);
        for (uint32_t y = 0; y < img.height; y++)
            for (uint32_t x = 0; x < img.width; x++)
                ((uint32_t *)((uint8_t *)img.pixels + (size_t)y * img.stride))[x] =
                    mf_pixel(n, x, y);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 6);
    mf_check_window_shows(&s, 6);
    st = stats_of(s.sc);
    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_GBM);
    CHECK_EQ(st.gbm_buffers, 3);
    CHECK_EQ(st.memfd_buffers, 0);
    CHECK_EQ(st.gbm_fallbacks, 0);
    t = finish(&s);
    log = debug_capture_end(&d);
    CHECK_LOGGED(log, "DRI3: buffers from GBM on");
    free(log);
    CHECK_EQ(fake_gbm.buffers_made, 4);         /* the trial and three */
    CHECK_EQ(fake_gbm.devices_destroyed, 1);
    CHECK_EQ(fake_gbm.open_at_destroy, 0);
    for (size_t i = 0; i <= 3; i++) {
        uint32_t stride;
        uint64_t modifier;

        pixmap_request(t, i, &stride, &modifier);
        CHECK_EQ(stride, i ? FAKE_STRIDE : 16u * 4u + FAKE_GBM_PAD);
        CHECK_EQ(modifier, XCB_DRI3_UTIL_MOD_LINEAR);
    }
    mock_transcript_free(t);
    mf_stop(&s);
}

/* A server that lists no LINEAR: GBM is asked for no modifier (never a
 * tiled one, the CPU writes these), and the linear buffer goes without
 * one (implicit), as Mesa sends it. */
TEST(gbm_asks_for_linear_only_where_listed)
{
    const char *const kv[] = { "modifiers-window", "0x0100000000000004", "modifiers-screen", "",
                               NULL };
    struct mock_fixture s;
    struct mock_transcript *t;
    uint32_t stride;
    uint64_t modifier;

    fake_gbm_install(true);
    mf_start(&s, kv);
    mf_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_DRI3, 2);
    CHECK_EQ(fake_gbm.last_n_modifiers, 0);
    run_frames(&s, 3);
    CHECK_EQ(stats_of(s.sc).gbm_buffers, 2);
    t = finish(&s);
    pixmap_request(t, 1, &stride, &modifier);
    CHECK_EQ(stride, FAKE_STRIDE);
    CHECK_EQ(modifier, XCB_DRI3_UTIL_MOD_INVALID);
    mock_transcript_free(t);
    mf_stop(&s);
}

/* One fallback from GBM to memfds, made by fail (a fake_gbm switch) or
 * by the mock's kv: memfds after it, counted once, logged with why. */
static void fallback_run(bool *fail, const char *const *kv, const char *why)
{
    struct mock_fixture s;
    xcb_present_util_stats_t st;
    char *log;

    fake_gbm_install(true);
    if (fail)
        *fail = true;
    log = logged_run(&s, kv, XCB_PRESENT_UTIL_BACKEND_AUTO, 3, XCB_PRESENT_UTIL_BACKEND_DRI3, 4,
                     &st);
    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK_EQ(st.gbm_fallbacks, 1);
    CHECK_EQ(st.gbm_buffers, 0);
    CHECK_EQ(st.memfd_buffers, 3);
    CHECK_LOGGED(log, "DRI3: GBM fallback: ");
    CHECK_LOGGED(log, why);
    CHECK_LOGGED(log, "DRI3: buffers from memfd: ");
    free(log);
    /* a GBM device made is destroyed, made or not */
    CHECK_EQ(fake_gbm.devices_destroyed, fake_gbm.devices_made);
    mf_stop(&s);
}

TEST(gbm_device_failure_falls_back_to_memfd)
{
    fallback_run(&fake_gbm.fail_device, NULL, "gbm_create_device failed");
    CHECK_EQ(fake_gbm.devices_made, 0);
}

TEST(gbm_allocation_failure_falls_back_to_memfd)
{
    fallback_run(&fake_gbm.fail_alloc, NULL, "GBM could not allocate (Cannot allocate memory)");
    CHECK_EQ(fake_gbm.devices_made, 1);
}

/* The server refuses the first GBM buffer (BadAlloc, as glamor does for
 * what it cannot import): the memfd after it is taken. */
TEST(a_refused_gbm_buffer_falls_back_to_memfd)
{
    char fault[32];
    const char *const kv[] = { "fault", fault, NULL };

    snprintf(fault, sizeof fault, "error:%d.%d:11", MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS);
    fallback_run(NULL, kv, "the server refused a GBM buffer (X error 11)");
    CHECK_EQ(fake_gbm.buffers_made, 1);
}

TEST(built_without_gbm_says_so)
{
    struct mock_fixture s;
    xcb_present_util_stats_t st;
    char *log;

    fake_gbm_install(false);
    log = logged_run(&s, NULL, XCB_PRESENT_UTIL_BACKEND_DRI3, 2, XCB_PRESENT_UTIL_BACKEND_DRI3, 2,
                     &st);
    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK_EQ(st.gbm_fallbacks, 0);
    CHECK_LOGGED(log, "DRI3: buffers from memfd: built without GBM");
    free(log);
    CHECK_EQ(fake_gbm.devices_made, 0);
    mf_stop(&s);
}

/* DRI3 Open refused (BadMatch): no device to allocate on, memfds, and
 * the swapchain goes on with them. */
TEST(no_device_from_dri3_open_gets_memfds)
{
    const char *const kv[] = { "dri3-open", "none", NULL };
    struct mock_fixture s;
    xcb_present_util_stats_t st;
    char *log;

    fake_gbm_install(true);
    log = logged_run(&s, kv, XCB_PRESENT_UTIL_BACKEND_AUTO, 2, XCB_PRESENT_UTIL_BACKEND_DRI3, 2,
                     &st);
    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_MEMFD);
    CHECK_EQ(st.memfd_buffers, 2);
    CHECK_LOGGED(log, "DRI3: buffers from memfd: DRI3 Open gave no device (");
    free(log);
    CHECK_EQ(fake_gbm.devices_made, 0);
    mf_stop(&s);
}

/* A GPU server takes dma-bufs only: without GBM buffers the swapchain
 * goes on with MIT-SHM, and says why (gbm: the stand-in's buffers, which
 * are memfds too, are tried and refused first). */
static void gpu_server_run(bool gbm)
{
    const char *const kv[] = { "dri3-pixmap-fds", "dmabuf", "shm", "on", NULL };
    struct mock_fixture s;
    xcb_present_util_stats_t st;
    char *log;

    if (gbm)
        fake_gbm_install(true);
    log = logged_run(&s, kv, XCB_PRESENT_UTIL_BACKEND_AUTO, 2, XCB_PRESENT_UTIL_BACKEND_SHM, 2,
                     &st);
    CHECK_EQ(st.buffer_alloc, XCB_PRESENT_UTIL_ALLOC_NONE);
    CHECK_EQ(st.gbm_fallbacks, gbm ? 1 : 0);
    CHECK_EQ(st.gbm_buffers + st.memfd_buffers, 0);
    if (gbm) {
        CHECK_LOGGED(log, "the server refused a GBM buffer");
        /* DRI3's failed init took the GBM device with it */
        CHECK_EQ(fake_gbm.devices_destroyed, 1);
    }
    CHECK_LOGGED(log, "DRI3: the server refused a memfd buffer");
    free(log);
    mf_stop(&s);
}

TEST(a_gpu_server_refusing_memfds_gets_shm)
{
    gpu_server_run(false);
}

TEST(a_gpu_server_refusing_gbm_buffers_too_gets_shm)
{
    gpu_server_run(true);
}

/* PRIME: the display buffers the server reads come from GBM too, or from
 * memfds once the server refused GBM's (refuse). */
static void prime_run(bool refuse)
{
    char dir[] = "/tmp/swapchain-gbm-XXXXXX", server_dev[64], render_dev[64], fault[32];
    const char *kv[] = { "dri3-open", server_dev, "fault", fault, NULL };
    xcb_dri3_util_buffer_t *images[2];
    xcb_present_util_options_t o;
    xcb_present_util_stats_t st;
    struct mock_fixture s;
    struct mock_transcript *t;
    int render_fd, fd;

    CHECK(mkdtemp(dir) != NULL);
    snprintf(server_dev, sizeof server_dev, "%s/server-gpu", dir);
    snprintf(render_dev, sizeof render_dev, "%s/render-gpu", dir);
    snprintf(fault, sizeof fault, "error:%d.%d:11", MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS);
    if (!refuse)
        kv[2] = NULL;
    fd = open(server_dev, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    close(fd);
    render_fd = open(render_dev, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    CHECK(render_fd >= 0);
    fake_gbm_install(true);
    mf_start(&s, kv);
    for (int i = 0; i < 2; i++) {
        images[i] = xcb_dri3_util_buffer_create_memfd(64, 48, XRGB8888);
        CHECK(images[i] != NULL);
    }
    xcb_present_util_options_init(&o);
    o.backend = XCB_PRESENT_UTIL_BACKEND_DRI3;
    o.images = images;
    o.num_images = 2;
    o.render_fd = render_fd;
    mf_swapchain_with(&s, &o);
    for (uint32_t n = 1; n <= 4; n++) {
        xcb_present_util_image_t img;
        uint32_t stride;
        uint8_t *p;

        xcb_present_util_image_init(&img);
        CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
        CHECK(img.buffer == images[img.index]);     /* the caller's, not the display's */
        p = xcb_dri3_util_buffer_map(images[img.index], 0, XCB_DRI3_UTIL_MAP_WRITE, &stride);
        CHECK(p != NULL);
        for (uint32_t y = 0; y < 48; y++)
            for (uint32_t x = 0; x < 64; x++)
                ((uint32_t *)(p + (size_t)y * stride))[x] = mf_pixel(n, x, y);
        CHECK_EQ(xcb_dri3_util_buffer_unmap(images[img.index], 0), 0);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    }
    mf_wait_completed(&s, 4);
    mf_check_window_shows(&s, 4);
    st = stats_of(s.sc);
    CHECK_EQ(st.prime_copies, 4);
    CHECK_EQ(st.buffer_alloc, refuse ? XCB_PRESENT_UTIL_ALLOC_MEMFD : XCB_PRESENT_UTIL_ALLOC_GBM);
    CHECK_EQ(st.gbm_buffers, refuse ? 0 : 2);
    CHECK_EQ(st.memfd_buffers, refuse ? 2 : 0);
    CHECK_EQ(st.gbm_fallbacks, refuse ? 1 : 0);
    t = finish(&s);
    {
        uint32_t stride;
        uint64_t modifier;

        /* the last PixmapFromBuffers is a display buffer that was kept */
        pixmap_request(t, count_requests(t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS) - 1,
                       &stride, &modifier);
        CHECK_EQ(stride, refuse ? MEMFD_STRIDE : FAKE_STRIDE);
    }
    CHECK_EQ(fake_gbm.devices_destroyed, 1);
    CHECK_EQ(fake_gbm.open_at_destroy, 0);
    mock_transcript_free(t);
    mf_stop(&s);
    for (int i = 0; i < 2; i++)
        xcb_dri3_util_buffer_destroy(images[i]);
    close(render_fd);
    unlink(server_dev);
    unlink(render_dev);
    rmdir(dir);
}

TEST(prime_display_buffers_come_from_gbm)
{
    prime_run(false);
}

TEST(prime_display_buffers_fall_back_to_memfd)
{
    prime_run(true);
}

/* Real GBM on this machine's first render node, shown by the mock as a
 * GPU server shows dma-bufs (it takes nothing else here).  Skips without
 * a render node or GBM; fails, with the library's reason, when the
 * swapchain did not get GBM buffers there. */
TEST(gbm_swapchain_on_a_render_node)
{
    char path[64] = "";
    const char *const kv[] = { "dri3-open", path, "dri3-pixmap-fds", "dmabuf", NULL };
    struct mock_fixture s;
    struct mock_transcript *t;
    struct debug_capture d;
    xcb_present_util_image_t img;
    xcb_present_util_stats_t st;
    char link[64], target[64] = "", *log;
    int fd = test_render_node(path, sizeof path);

    if (fd < 0)
        SKIP("no /dev/dri render node on this machine");
    close(fd);
#ifndef HAVE_GBM
    SKIP("built without GBM");
#endif
    mf_start(&s, kv);
    debug_capture_start(&d);
    s.sc = xcb_present_util_swapchain_create(s.c, s.window, NULL);
    log = debug_capture_end(&d);
    if (!s.sc || xcb_present_util_swapchain_backend(s.sc) != XCB_PRESENT_UTIL_BACKEND_DRI3 ||
        stats_of(s.sc).buffer_alloc != XCB_PRESENT_UTIL_ALLOC_GBM) {
        test_note("debug log:\n%s", log);
        test_fail(__FILE__, __LINE__, "no GBM buffers on %s (the log says why)", path);
    }
    free(log);
    xcb_present_util_image_init(&img);
    CHECK_EQ(xcb_present_util_acquire(s.sc, MF_SECOND, &img), 0);
    snprintf(link, sizeof link, "/proc/self/fd/%d", xcb_dri3_util_buffer_fd(img.buffer, 0));
    CHECK(readlink(link, target, sizeof target - 1) > 0);
    test_note("buffer fd: %s, stride %u, modifier 0x%llx", target, img.stride,
              (unsigned long long)xcb_dri3_util_buffer_modifier(img.buffer));
    CHECK(strstr(target, "dmabuf") != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_stride(img.buffer, 0), img.stride);
    CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
    /* the CPU's pixels reach the server through the dma-buf's syncs */
    for (uint32_t n = 1; n <= 8; n++)
        CHECK_EQ(mf_frame(&s, n), 0);
    mf_wait_completed(&s, 9);
    mf_check_window_shows(&s, 8);
    st = stats_of(s.sc);
    CHECK_EQ(st.gbm_fallbacks, 0);
    CHECK_EQ(st.memfd_buffers, 0);
    CHECK(st.gbm_buffers >= 2);
    t = finish(&s);
    for (size_t i = 0; i < count_requests(t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS); i++)
        CHECK(strcmp(mock_transcript_find(t, MOCK_DRI3_MAJOR, PIXMAP_FROM_BUFFERS, i)
                         ->fds[0].kind, "dmabuf") == 0);
    mock_transcript_free(t);
    mf_stop(&s);
}
