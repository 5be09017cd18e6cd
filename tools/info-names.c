/* See info-names.h.  Present's capabilities have no names in the
 * libraries (they test bits, they do not print them), so the tool keeps
 * these five; formats, modifiers and the device come from
 * libxcb-dri3-util. */
#include "info-names.h"

#include <stdio.h>

void info_caps_names(uint32_t caps, char *buf, size_t size)
{
    static const char *const names[] = { "async", "fence", "ust", "async-may-tear", "syncobj" };
    size_t at = 0;

    buf[0] = 0;
    for (unsigned i = 0; i < 32; i++) {
        if (!(caps & (1u << i)))
            continue;
        if (i < 5)
            at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s%s", at ? ", " : "",
                                   names[i]);
        else
            at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%sbit %u",
                                   at ? ", " : "", i);
    }
    if (!at)
        snprintf(buf, size, "none");
}
