/* Names for people of Present's capability bits, for xcb-dri3-info. */
#ifndef INFO_NAMES_H
#define INFO_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "async, fence, ust" or "none"; unknown bits as "bit N". */
void info_caps_names(uint32_t caps, char *buf, size_t size);

/* The name of capability bit `bit` (0 to 31) into buf: "async", ...,
 * "syncobj", or "bit N" for a bit without a name. */
void info_cap_name(unsigned bit, char *buf, size_t size);

#endif
