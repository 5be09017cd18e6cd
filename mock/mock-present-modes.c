/*
 * What a presentation's CompleteNotify says beyond Copy and Skip, per the
 * "present-complete-mode" key: Flip (the pixmap becomes the window's
 * scan-out and stays busy, without IdleNotify, until the next presentation
 * on that window is shown) and SuboptimalCopy (a copy that tells a client
 * which asked with the Suboptimal option that another format would flip).
 * The pixels are copied in every mode, so GetImage shows the frame.
 */
#include "mock-present.h"

#include <stdlib.h>
#include <string.h>

#define OPTION_COPY 2u
#define OPTION_SUBOPTIMAL 8u

/* The pixmap a window shows by flipping, not yet given back. */
struct flip_hold {
    struct flip_hold *next;
    uint32_t window, pixmap, serial, idle_fence;
    struct mock_release *release;       /* PixmapSynced's, or NULL */
};

int mock_present_mode_parse(const char *value)
{
    if (strcmp(value, "copy") == 0)
        return MOCK_COMPLETE_COPY;
    if (strcmp(value, "flip") == 0)
        return MOCK_COMPLETE_FLIP;
    if (strcmp(value, "suboptimal") == 0)
        return MOCK_COMPLETE_SUBOPTIMAL;
    return -1;
}

uint8_t mock_present_complete_mode(const struct mock_server_state *s, uint32_t options,
                                   const struct mock_drawable *window,
                                   const struct mock_drawable *pixmap)
{
    switch (s->cfg->complete_mode) {
    case MOCK_COMPLETE_FLIP:
        /* as a real server, only a pixmap that covers the window flips,
         * and never one presented with the Copy option */
        if (pixmap->width == window->width && pixmap->height == window->height &&
            !(options & OPTION_COPY))
            return MOCK_PRESENT_MODE_FLIP;
        break;
    case MOCK_COMPLETE_SUBOPTIMAL:
        if (options & OPTION_SUBOPTIMAL)
            return MOCK_PRESENT_MODE_SUBOPTIMAL_COPY;
        break;
    }
    return MOCK_PRESENT_MODE_COPY;
}

static struct flip_hold **find_hold(struct mock_server_state *s, uint32_t window)
{
    struct flip_hold **link = (struct flip_hold **)&s->present_flips;

    while (*link && (*link)->window != window)
        link = &(*link)->next;
    return link;
}

static void release(struct mock_server_state *s, struct flip_hold *h)
{
    struct mock_fence *f = h->idle_fence ? mock_resource_find(s, h->idle_fence, MOCK_RES_FENCE)
                                         : NULL;

    if (h->release) {
        /* PixmapSynced: no IdleNotify, the release point says it */
        mock_release_signal(s, h->release, "no longer on screen");
        free(h);
        return;
    }
    mock_present_send_idle(s, h->window, h->serial, h->pixmap, h->idle_fence);
    if (f)
        mock_fence_trigger(s, f);
    free(h);
}

void mock_present_flip_release(struct mock_server_state *s, uint32_t window)
{
    struct flip_hold **link = find_hold(s, window), *h = *link;

    if (!h)
        return;
    *link = h->next;
    release(s, h);
}

void mock_present_flip_hold(struct mock_server_state *s, uint32_t window, uint32_t pixmap,
                            uint32_t serial, uint32_t idle_fence, struct mock_release *rel)
{
    struct flip_hold *h = malloc(sizeof *h);

    mock_present_flip_release(s, window);
    if (!h) {
        /* out of memory: give it back at once rather than never */
        if (rel)
            mock_release_signal(s, rel, "flipped, out of memory");
        else
            mock_present_send_idle(s, window, serial, pixmap, idle_fence);
        return;
    }
    *h = (struct flip_hold){ .window = window, .pixmap = pixmap, .serial = serial,
                             .idle_fence = idle_fence, .release = rel };
    h->next = s->present_flips;
    s->present_flips = h;
}

void mock_present_flip_forget(struct mock_server_state *s, uint32_t window)
{
    struct flip_hold **link = find_hold(s, window), *h = *link;

    if (h) {
        *link = h->next;
        /* the window is gone, and with it the server's use of the pixmap */
        mock_release_signal(s, h->release, "window destroyed");
        free(h);
    }
}

void mock_present_flip_forget_all(struct mock_server_state *s)
{
    while (s->present_flips) {
        struct flip_hold *h = s->present_flips;

        s->present_flips = h->next;
        free(h);
    }
}
