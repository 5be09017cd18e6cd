/*
 * xcb_demo_util.h: a header written for header-man's golden test, using
 * each part of the comment convention once.  This first comment is the
 * file's: it documents nothing, but its names (xcb_demo_util_thing_t)
 * must be declared all the same.
 */
#ifndef XCB_DEMO_UTIL_H
#define XCB_DEMO_UTIL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- things ------------------------------------------------------------ */

/* The most things there are.  Two defines in a row share this comment. */
#define XCB_DEMO_UTIL_MAX 8
#define XCB_DEMO_UTIL_MIN 1

/*
 * A thing, opaque to its callers.
 *
 * Made by xcb_demo_util_thing_create(), freed by
 * xcb_demo_util_thing_destroy().
 */
typedef struct xcb_demo_util_thing xcb_demo_util_thing_t;

/* How a thing is shown. */
typedef enum {
    /* Shown at once. */
    XCB_DEMO_UTIL_SHOW_NOW,
    XCB_DEMO_UTIL_SHOW_LATER    /* shown at the next tick */
} xcb_demo_util_show_t;

/*
 * The options of a new thing.
 *
 * A sized struct: later versions add fields after the markers.
 */
typedef struct {
    uint32_t size;          /* sizeof(xcb_demo_util_options_t) */
    xcb_demo_util_show_t show;
    /* -- after the first version -- */
    /* How many copies, 1 to XCB_DEMO_UTIL_MAX; 0 takes 1. */
    uint32_t copies;
    uint16_t width, height; /* in pixels, \ and - escaped */
} xcb_demo_util_options_t;

/* Told when a thing changes: data is the caller's, thing the thing. */
typedef void (*xcb_demo_util_changed_t)(void *data, xcb_demo_util_thing_t *thing);

/*
 * Make a thing.  This sentence is not the NAME line.
 *
 * options may be NULL (the defaults).  What happens:
 *   - the thing is allocated,
 *     with room for its copies;
 *   - it is shown as options->show says.
 *
 * Returns the thing, or NULL with errno set to
 *   EINVAL  a bad option
 *   ENOMEM  no memory left for the thing,
 *           or for one of its copies
 * and nothing else.
 *
 * A table, shown as it is:
 *
 * | name    copies
 * | small        1
 * | \large   - 8 -
 *
 * Threads
 * -------
 * Any thread may call xcb_demo_util_thing_create(); a line that starts
 * with a period
 * .like this one is no request.
 *
 * See also xcb_demo_util_thing_destroy(), malloc(3), poll(2).
 */
xcb_demo_util_thing_t *xcb_demo_util_thing_create(const xcb_demo_util_options_t *options,
                                                  xcb_demo_util_changed_t changed);

/* Frees a thing (e.g. one made by xcb_demo_util_thing_create()).  NULL is
 * allowed. */
void xcb_demo_util_thing_destroy(xcb_demo_util_thing_t *thing);

#ifdef __cplusplus
}
#endif

#endif
