/* Human names for what xcb-dri3-info prints: format modifiers, Present
 * capabilities, and the DRM device behind a DRI3 Open fd. */
#ifndef INFO_NAMES_H
#define INFO_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "LINEAR", "INVALID (implicit)", "INTEL Y_TILED", "AMD 0x...", ... */
void info_modifier_name(uint64_t modifier, char *buf, size_t size);

/* "async, fence, ust" or "none" */
void info_caps_names(uint32_t caps, char *buf, size_t size);

struct info_device {
    char kind[32];          /* "DRM render node", "DRM primary node", "memfd", "file" ... */
    char path[128];         /* the node, or the file's name; "" when unknown */
    char driver[64];        /* the kernel driver, "" when unknown */
    char render_node[128];  /* /dev/dri/renderD*, "" when unknown */
    char bus[128];          /* "pci 0000:00:02.0", "platform ...", "" */
};

/* Describes fd (it is not closed). */
void info_describe_device(int fd, struct info_device *d);

#endif
