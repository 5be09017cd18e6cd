/*
 * What Xwayland (under weston's headless back end) does with Present, and
 * what the swapchain does then, one test per behaviour; docs/servers.md
 * says what was measured.  Without a GPU, Xwayland has no DRI3 and every
 * frame is a copy, which it completes from a timer of its own (17 ms)
 * rather than from the compositor's frame callbacks: so FIFO keeps going
 * while the window is unmapped, covered, asked to minimise, and while the
 * compositor itself is stopped.  kiosk-shell resizes every top-level
 * window to fill the output; the swapchain follows.
 *
 * Asserted: order, counts, "never before its target", and that acquire()
 * never keeps the caller past its timeout by more than a generous margin;
 * never a rate.  Rates are printed as TAP comments.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xcb/present.h>

#include "test-clock.h"
#include "test-runner.h"
#include "xvfb-fixture.h"

/* How late acquire() may return past its timeout on a loaded machine
 * before that counts as blocking the caller. */
enum { LATE_MARGIN_MS = 2000 };

static void map_and_wait(struct fixture *s, xcb_window_t w, bool map)
{
    (map ? xcb_map_window : xcb_unmap_window)(s->c, w);
    free(xcb_get_input_focus_reply(s->c, xcb_get_input_focus(s->c), NULL));
}

/* A second top-level window (which kiosk-shell shows over the first). */
static xcb_window_t other_window(struct fixture *s)
{
    const xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(s->c)).data;
    xcb_window_t w = xcb_generate_id(s->c);
    uint32_t values[1] = { 0xff0000 };

    xcb_create_window(s->c, XCB_COPY_FROM_PARENT, w, screen->root, 0, 0, 300, 200, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXEL,
                      values);
    return w;
}

/* Frames first..last, FIFO; returns how long it took, in ms. */
static long long frames(struct fixture *s, uint32_t first, uint32_t last)
{
    long long t0 = test_now_ms();

    for (uint32_t n = first; n <= last; n++)
        fixture_frame(s, n);
    fixture_wait_completed(s, last, 5000);
    return test_now_ms() - t0;
}

/* All of frames 1..n completed, in order, none before its target, all
 * copies (no DRI3, so no flips); the window shows frame n. */
static void check_run(struct fixture *s, uint32_t n, uint16_t w, uint16_t h, const char *what)
{
    xcb_present_util_stats_t st = { .size = sizeof st };

    CHECK_EQ(xcb_present_util_swapchain_stats(s->sc, &st), 0);
    CHECK_EQ(st.completed, n);
    CHECK_EQ(st.flips, 0);
    CHECK_EQ(st.copies + st.skipped, n);
    fixture_check_in_order(s, n);
    fixture_check_fifo(s, what);
    fixture_check_window_shows(s, n, w, h);
}

TEST(fifo_keeps_completing_while_the_window_is_unmapped)
{
    struct fixture s;
    long long mapped, unmapped;

    fixture_start_window(&s, 160, 120, false);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_AUTO, 3);
    CHECK_EQ(xcb_present_util_swapchain_backend(s.sc), XCB_PRESENT_UTIL_BACKEND_SHM);
    mapped = frames(&s, 1, 30);
    map_and_wait(&s, s.window, false);
    unmapped = frames(&s, 31, 90);
    printf("# 30 frames mapped in %lld ms, 60 unmapped in %lld ms\n", mapped, unmapped);
    map_and_wait(&s, s.window, true);
    frames(&s, 91, 100);
    check_run(&s, 100, 160, 120, "unmapped");
    fixture_stop(&s);
}

TEST(fifo_keeps_completing_while_another_window_covers_it)
{
    struct fixture s;
    xcb_window_t cover;
    long long covered;

    fixture_start_window(&s, 160, 120, false);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 3);
    frames(&s, 1, 20);
    cover = other_window(&s);
    map_and_wait(&s, cover, true);
    covered = frames(&s, 21, 80);
    printf("# 60 frames under a covering top-level window in %lld ms\n", covered);
    map_and_wait(&s, cover, false);
    frames(&s, 81, 90);
    check_run(&s, 90, 160, 120, "covered");
    fixture_stop(&s);
}

/* ICCCM's request to iconify (WM_CHANGE_STATE IconicState to the root):
 * kiosk-shell has nothing to minimise to and the frames go on. */
TEST(fifo_keeps_completing_after_a_minimise_request)
{
    struct fixture s;
    xcb_intern_atom_reply_t *atom;
    xcb_client_message_event_t ev = { .response_type = XCB_CLIENT_MESSAGE, .format = 32 };
    const xcb_screen_t *screen;

    fixture_start_window(&s, 160, 120, true);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 3);
    frames(&s, 1, 10);
    screen = xcb_setup_roots_iterator(xcb_get_setup(s.c)).data;
    atom = xcb_intern_atom_reply(s.c, xcb_intern_atom(s.c, 0, 15, "WM_CHANGE_STATE"), NULL);
    CHECK(atom != NULL);
    ev.window = s.window;
    ev.type = atom->atom;
    ev.data.data32[0] = 3;      /* IconicState */
    free(atom);
    xcb_send_event(s.c, 0, screen->root,
                   XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   (const char *)&ev);
    frames(&s, 11, 70);
    fixture_wait_completed(&s, 70, 5000);
    fixture_check_in_order(&s, 70);
    fixture_check_fifo(&s, "minimise asked");
    fixture_stop(&s);
}

/* The compositor stops (SIGSTOP): no frame callbacks, no Wayland traffic
 * at all.  acquire() with a timeout must return within it (plus a
 * margin) whatever the server does; the frames sent meanwhile complete
 * in order, and the swapchain goes on once the compositor does. */
TEST(acquire_keeps_its_timeout_while_the_compositor_is_stopped)
{
    struct fixture s;
    pid_t weston, guard;
    long long worst = 0, t0;
    uint32_t n = 0, timeouts = 0, errors = 0;
    int first_error = 0;

    fixture_start_window(&s, 160, 120, false);
    weston = test_server_compositor_pid(&s.server);
    CHECK(weston > 0);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 3);
    frames(&s, 1, 10);
    n = 10;
    /* Nothing may fail between SIGSTOP and SIGCONT: a test that ended
     * there would leave a stopped compositor that SIGTERM cannot end.  A
     * guard process continues it after 10 s whatever happens to this one
     * (the runner's timeout kills the test, not its children). */
    guard = fork();
    CHECK(guard >= 0);
    if (guard == 0) {
        sleep(10);
        kill(weston, SIGCONT);
        _exit(0);
    }
    CHECK_EQ(kill(weston, SIGSTOP), 0);
    t0 = test_now_ms();
    while (test_now_ms() - t0 < 2000) {
        xcb_present_util_image_t img = { .size = sizeof img };
        long long a = test_now_ms();
        int r = xcb_present_util_acquire(s.sc, 200 * 1000000LL, &img);

        if (test_now_ms() - a > worst)
            worst = test_now_ms() - a;
        if (r == -ETIMEDOUT) {
            timeouts++;
            continue;
        }
        if (r != 0) {
            errors++;
            first_error = first_error ? first_error : r;
            break;
        }
        fixture_render(&img, ++n);
        r = xcb_present_util_present(s.sc, &img, NULL, 0);
        if (r != 0) {
            errors++;
            first_error = first_error ? first_error : r;
            break;
        }
    }
    kill(weston, SIGCONT);
    kill(guard, SIGKILL);
    waitpid(guard, NULL, 0);
    printf("# compositor stopped 2 s: %u frames sent, %u acquire timeouts, longest acquire "
           "%lld ms\n", n - 10, timeouts, worst);
    if (errors)
        test_fail(__FILE__, __LINE__, "while stopped: %s", strerror(-first_error));
    CHECK(worst < 200 + LATE_MARGIN_MS);
    frames(&s, n + 1, n + 10);
    check_run(&s, n + 10, 160, 120, "compositor stopped");
    fixture_stop(&s);
}

/* A managed top-level window: kiosk-shell makes it fill the output.  The
 * swapchain's images follow the window's new size, and the window ends
 * up showing the last frame at that size. */
TEST(a_managed_window_follows_the_window_manager)
{
    struct fixture s;
    xcb_get_geometry_reply_t *g;
    xcb_present_util_image_t img = { .size = sizeof img };
    uint32_t n = 0;
    long long deadline;

    fixture_start_window(&s, 160, 120, true);
    fixture_swapchain(&s, XCB_PRESENT_UTIL_MODE_FIFO, XCB_PRESENT_UTIL_BACKEND_SHM, 3);
    deadline = test_now_ms() + 5000;
    do {
        g = xcb_get_geometry_reply(s.c, xcb_get_geometry(s.c, s.window), NULL);
        CHECK(g != NULL);
        CHECK_EQ(xcb_present_util_acquire(s.sc, 1000000000, &img), 0);
        fixture_render(&img, ++n);
        CHECK_EQ(xcb_present_util_present(s.sc, &img, NULL, 0), 0);
        if (img.width == g->width && img.height == g->height && img.width != 160)
            break;
        free(g);
        g = NULL;
    } while (test_now_ms() < deadline && n < FIXTURE_MAX_FRAMES - 1);
    CHECK(g != NULL);
    printf("# asked 160x120, the window manager made it %ux%u; frame %u was the first at "
           "that size\n", g->width, g->height, n);
    fixture_wait_completed(&s, n, 5000);
    fixture_check_in_order(&s, n);
    fixture_check_window_shows(&s, n, g->width, g->height);
    free(g);
    fixture_stop(&s);
}
