/*
 * A stand-in for GBM behind the DRI3 back end's seam
 * (src/present-util/alloc-private.h), for machines without /dev/dri: it
 * takes any device, and "allocates" memfds with a stride no memfd buffer
 * of the library has (width * 4 + FAKE_GBM_PAD), filled with garbage, so
 * that a test can tell its buffers from the library's memfds.  It
 * records what it was asked, and can fail where GBM can.
 */
#ifndef FAKE_GBM_H
#define FAKE_GBM_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc-private.h"

#define FAKE_GBM_PAD 192u

struct fake_gbm {
    bool fail_device;           /* gbm_create_device() fails (ENODEV) */
    bool fail_alloc;            /* every allocation fails (ENOMEM) */
    int devices_made, devices_destroyed;
    int buffers_made;
    unsigned last_n_modifiers;
    uint64_t last_modifier;     /* the first one asked for, if any */
    /* buffers of ours whose memfd was still open when the device went */
    int open_at_destroy;
};

extern struct fake_gbm fake_gbm;

/* Resets fake_gbm and puts the stand-in behind the seam; built false
 * makes it a library built without GBM. */
void fake_gbm_install(bool built);

#endif
