/* Names for people of Present's capability bits, for xcb-dri3-info. */
#ifndef INFO_NAMES_H
#define INFO_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "async, fence, ust" or "none"; unknown bits as "bit N". */
void info_caps_names(uint32_t caps, char *buf, size_t size);

#endif
