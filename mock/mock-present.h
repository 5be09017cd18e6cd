/*
 * Present's two halves share this: mock-present.c (the requests, the queue
 * of pending presentations and the extension's hooks) and
 * mock-present-events.c (SelectInput and the events it asks for).
 */
#ifndef MOCK_PRESENT_H
#define MOCK_PRESENT_H

#include "mock-internal.h"

/* CompleteNotify's kind and mode (protocol values); the mock only copies. */
enum { MOCK_PRESENT_KIND_PIXMAP = 0, MOCK_PRESENT_KIND_NOTIFY_MSC = 1 };
enum {
    MOCK_PRESENT_MODE_COPY = 0, MOCK_PRESENT_MODE_FLIP = 1, MOCK_PRESENT_MODE_SKIP = 2,
    MOCK_PRESENT_MODE_SUBOPTIMAL_COPY = 3,
};

/* ConfigureNotify's pixmap_flags bit for "the window is gone". */
#define MOCK_PRESENT_WINDOW_DESTROYED 1u

/* PresentSelectInput (minor 3). */
void mock_present_select_input(struct mock_request *req);

/* Each event goes to every client that selected it on the window, with
 * that selection's event id. */
void mock_present_send_configure(struct mock_server_state *s, const struct mock_drawable *window,
                                 uint32_t pixmap_flags);
void mock_present_send_complete(struct mock_server_state *s, uint32_t window, uint32_t serial,
                                uint8_t kind, uint8_t mode, uint64_t ust, uint64_t msc);
void mock_present_send_idle(struct mock_server_state *s, uint32_t window, uint32_t serial,
                            uint32_t pixmap, uint32_t idle_fence);

/* mock-present-modes.c: the completion mode of a presentation that was
 * shown, and the pixmaps that flips keep busy until the next one. */
uint8_t mock_present_complete_mode(const struct mock_server_state *s, uint32_t options,
                                   const struct mock_drawable *window,
                                   const struct mock_drawable *pixmap);
/* release: a PixmapSynced's release point (signalled instead of IdleNotify
 * when the flip ends), or NULL. */
void mock_present_flip_hold(struct mock_server_state *s, uint32_t window, uint32_t pixmap,
                            uint32_t serial, uint32_t idle_fence, struct mock_release *release);
void mock_present_flip_release(struct mock_server_state *s, uint32_t window);
void mock_present_flip_forget(struct mock_server_state *s, uint32_t window);
void mock_present_flip_forget_all(struct mock_server_state *s);

/* Frees every selection of a window that is being destroyed. */
void mock_present_forget_window(struct mock_server_state *s, uint32_t window);

#endif
