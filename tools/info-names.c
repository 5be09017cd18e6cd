/* See info-names.h.  Present's capabilities have no names in the
 * libraries (they test bits, they do not print them), so the tool keeps
 * these five; formats, modifiers and the device come from
 * libxcb-dri3-util. */
#include "info-names.h"

#include <stdio.h>

void info_cap_name(unsigned bit, char *buf, size_t size)
{
    static const char *const names[] = { "async", "fence", "ust", "async-may-tear", "syncobj" };

    if (bit < sizeof names / sizeof names[0])
        snprintf(buf, size, "%s", names[bit]);
    else
        snprintf(buf, size, "bit %u", bit);
}

void info_caps_names(uint32_t caps, char *buf, size_t size)
{
    size_t at = 0;
    char name[16];

    buf[0] = 0;
    for (unsigned i = 0; i < 32; i++) {
        if (!(caps & (1u << i)))
            continue;
        info_cap_name(i, name, sizeof name);
        at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s%s", at ? ", " : "",
                               name);
    }
    if (!at)
        snprintf(buf, size, "none");
}
