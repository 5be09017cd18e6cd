/* The mock server's configuration: defaults, "KEY VALUE" settings (shared
 * by the program's options and config files) and fault specs. */
#include "mock-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mock_config_defaults(struct mock_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->dri3_major = 1;
    cfg->dri3_minor = 4;
    cfg->present_major = 1;
    cfg->present_minor = 4;
    cfg->present_caps = MOCK_CAP_ASYNC | MOCK_CAP_FENCE | MOCK_CAP_UST |
                        MOCK_CAP_ASYNC_MAY_TEAR | MOCK_CAP_SYNCOBJ;
    cfg->open_mode = MOCK_OPEN_MEMFD;
    /* Real servers list DRM_FORMAT_MOD_LINEAR (0) in both lists. */
    cfg->n_modifiers_window = 1;
    cfg->n_modifiers_screen = 1;
    cfg->msc_rate_hz = 60;
    cfg->screen_width = 1024;
    cfg->screen_height = 768;
}

struct mock_config *mock_config_new(void)
{
    struct mock_config *cfg = malloc(sizeof *cfg);

    if (cfg)
        mock_config_defaults(cfg);
    return cfg;
}

void mock_config_free(struct mock_config *cfg)
{
    if (!cfg)
        return;
    free(cfg->open_path);
    free(cfg->transcript_path);
    free(cfg->stats_path);
    free(cfg);
}

/* A whole-string decimal (or 0x hex with base 0) in [min, max]. */
static bool parse_long(const char *s, int base, long min, long max, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, base);
    if (errno || end == s || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* "MAJ.MIN" or "none" (major 0). */
static bool parse_version(const char *s, int *major, int *minor)
{
    unsigned maj, min;
    int used = 0;

    if (strcmp(s, "none") == 0) {
        *major = *minor = 0;
        return true;
    }
    if (sscanf(s, "%3u.%3u%n", &maj, &min, &used) != 2 || s[used] || maj == 0)
        return false;
    *major = (int)maj;
    *minor = (int)min;
    return true;
}

static bool parse_caps(const char *s, uint32_t *caps)
{
    static const struct { const char *name; uint32_t bit; } names[] = {
        { "async", MOCK_CAP_ASYNC }, { "fence", MOCK_CAP_FENCE }, { "ust", MOCK_CAP_UST },
        { "async-may-tear", MOCK_CAP_ASYNC_MAY_TEAR }, { "syncobj", MOCK_CAP_SYNCOBJ },
    };
    uint32_t v = 0;

    if (strcmp(s, "none") == 0) {
        *caps = 0;
        return true;
    }
    while (*s) {
        size_t len = strcspn(s, ",");
        size_t i;

        for (i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == len && strncmp(s, names[i].name, len) == 0)
                break;
        if (i == sizeof names / sizeof names[0])
            return false;
        v |= names[i].bit;
        s += len;
        if (*s == ',' && *++s == '\0')
            return false;
    }
    *caps = v;
    return true;
}

static bool parse_modifiers(const char *s, uint64_t *mods, int *n)
{
    int count = 0;

    while (*s) {
        char *end;

        if (count == MOCK_MAX_MODIFIERS || *s == '-' || *s == ',')
            return false;
        errno = 0;
        mods[count++] = strtoull(s, &end, 0);
        if (errno || end == s || (*end && *end != ','))
            return false;
        s = end;
        if (*s == ',' && *++s == '\0')
            return false;
    }
    *n = count;
    return true;
}

static bool parse_size(const char *s, int *w, int *h)
{
    unsigned width, height;
    int used = 0;

    if (sscanf(s, "%5ux%5u%n", &width, &height, &used) != 2 || s[used] ||
        width == 0 || height == 0 || width > 16384 || height > 16384)
        return false;
    *w = (int)width;
    *h = (int)height;
    return true;
}

/* "KIND:TARGET[:ARG]", see mock-server.h.  Writes the reason to *why. */
static bool parse_fault(const char *spec, struct mock_fault *f, const char **why)
{
    static const struct { const char *name; enum mock_fault_kind kind; bool arg; } kinds[] = {
        { "reply-length", MOCK_FAULT_REPLY_LENGTH, true },
        { "extra-fds", MOCK_FAULT_EXTRA_FDS, true },
        { "missing-fds", MOCK_FAULT_MISSING_FDS, true },
        { "wrong-fd", MOCK_FAULT_WRONG_FD, false },
        { "bad-event", MOCK_FAULT_BAD_EVENT, false },
        { "close-after", MOCK_FAULT_CLOSE_AFTER, false },
        { "close-mid-reply", MOCK_FAULT_CLOSE_MID_REPLY, false },
        { "stall", MOCK_FAULT_STALL, true },
        { "error", MOCK_FAULT_ERROR, true },
        { "empty-fd", MOCK_FAULT_EMPTY_FD, false },
        { "no-reply", MOCK_FAULT_NO_REPLY, false },
    };
    char buf[128];
    char *kind, *target, *arg;
    size_t i;
    long v;

    if (strlen(spec) >= sizeof buf) {
        *why = "too long";
        return false;
    }
    strcpy(buf, spec);
    kind = buf;
    target = strchr(kind, ':');
    if (!target) {
        *why = "expected KIND:TARGET[:ARG]";
        return false;
    }
    *target++ = '\0';
    arg = strchr(target, ':');
    if (arg)
        *arg++ = '\0';

    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kind, kinds[i].name) == 0)
            break;
    if (i == sizeof kinds / sizeof kinds[0]) {
        *why = "unknown kind (reply-length, extra-fds, missing-fds, wrong-fd, bad-event, "
               "close-after, close-mid-reply, stall, error, empty-fd, no-reply)";
        return false;
    }
    memset(f, 0, sizeof *f);
    f->kind = kinds[i].kind;
    f->minor = -1;

    if (strncmp(target, "seq=", 4) == 0) {
        if (!parse_long(target + 4, 10, 1, UINT32_MAX, &v)) {
            *why = "seq=N needs a positive request number";
            return false;
        }
        f->seq = (uint32_t)v;
    } else {
        char *dot = strchr(target, '.');

        if (dot)
            *dot++ = '\0';
        if (!parse_long(target, 10, 1, 255, &v)) {
            *why = "TARGET must be MAJOR, MAJOR.MINOR or seq=N";
            return false;
        }
        f->major = (int)v;
        if (dot) {
            if (!parse_long(dot, 10, 0, 255, &v)) {
                *why = "MINOR must be 0..255";
                return false;
            }
            f->minor = (int)v;
        } else if (f->major >= 128) {
            *why = "an extension request needs MAJOR.MINOR";
            return false;
        }
    }

    if (kinds[i].arg != (arg != NULL)) {
        *why = kinds[i].arg ? "this kind needs an argument" : "this kind takes no argument";
        return false;
    }
    if (arg) {
        long min = f->kind == MOCK_FAULT_REPLY_LENGTH ? -65536 : 0;
        long max = f->kind == MOCK_FAULT_ERROR ? 255 : 65536;

        if (!parse_long(arg, 10, min, max, &v) ||
            (f->kind == MOCK_FAULT_ERROR && v == 0)) {
            *why = "bad argument";
            return false;
        }
        f->arg = (int)v;
    }
    return true;
}

static bool set_string(char **slot, const char *value)
{
    char *copy = strdup(value);

    if (!copy)
        return false;
    free(*slot);
    *slot = copy;
    return true;
}

int mock_config_set(struct mock_config *cfg, const char *key, const char *value)
{
    const char *why = "bad value";
    long v;
    bool ok;

    if (strcmp(key, "dri3-version") == 0) {
        ok = parse_version(value, &cfg->dri3_major, &cfg->dri3_minor);
    } else if (strcmp(key, "present-version") == 0) {
        ok = parse_version(value, &cfg->present_major, &cfg->present_minor);
    } else if (strcmp(key, "present-caps") == 0) {
        ok = parse_caps(value, &cfg->present_caps);
    } else if (strcmp(key, "present-window-caps") == 0) {
        ok = parse_caps(value, &cfg->window_caps);
        cfg->window_caps_set = ok;
    } else if (strcmp(key, "dri3-open") == 0) {
        ok = true;
        if (strcmp(value, "memfd") == 0)
            cfg->open_mode = MOCK_OPEN_MEMFD;
        else if (strcmp(value, "none") == 0)
            cfg->open_mode = MOCK_OPEN_NONE;
        else if (*value && (ok = set_string(&cfg->open_path, value)))
            cfg->open_mode = MOCK_OPEN_PATH;
        else
            ok = false;
    } else if (strcmp(key, "dri3-pixmap-fds") == 0) {
        ok = strcmp(value, "any") == 0 || strcmp(value, "dmabuf") == 0;
        cfg->pixmaps_dmabuf_only = strcmp(value, "dmabuf") == 0;
    } else if (strcmp(key, "modifiers-window") == 0) {
        ok = parse_modifiers(value, cfg->modifiers_window, &cfg->n_modifiers_window);
    } else if (strcmp(key, "modifiers-window-later") == 0) {
        unsigned ms;
        int used = 0;

        ok = sscanf(value, "%9u:%n", &ms, &used) == 1 && used > 0 && ms > 0 &&
             parse_modifiers(value + used, cfg->later_modifiers_window,
                             &cfg->n_later_modifiers_window);
        if (ok)
            cfg->later_modifiers_ms = (int)ms;
    } else if (strcmp(key, "modifiers-screen") == 0) {
        ok = parse_modifiers(value, cfg->modifiers_screen, &cfg->n_modifiers_screen);
    } else if (strcmp(key, "msc-rate") == 0) {
        ok = parse_long(value, 10, 1, 1000, &v);
        if (ok)
            cfg->msc_rate_hz = (int)v;
    } else if (strcmp(key, "msc-rate-later") == 0) {
        unsigned ms, hz;
        int used = 0;

        ok = sscanf(value, "%9u:%4u%n", &ms, &hz, &used) == 2 && !value[used] && ms > 0 &&
             hz >= 1 && hz <= 1000;
        if (ok) {
            cfg->later_rate_ms = (int)ms;
            cfg->later_rate_hz = (int)hz;
        }
    } else if (strcmp(key, "present-event-fault") == 0) {
        ok = cfg->n_event_faults < MOCK_MAX_EVENT_FAULTS &&
             mock_event_fault_parse(value, &cfg->event_faults[cfg->n_event_faults]);
        if (ok)
            cfg->n_event_faults++;
    } else if (strcmp(key, "screen-size") == 0) {
        ok = parse_size(value, &cfg->screen_width, &cfg->screen_height);
    } else if (strcmp(key, "shm") == 0) {
        ok = strcmp(value, "on") == 0 || strcmp(value, "off") == 0;
        cfg->shm = strcmp(value, "on") == 0;
    } else if (strcmp(key, "xfixes") == 0) {
        ok = strcmp(value, "on") == 0 || strcmp(value, "off") == 0;
        cfg->xfixes = strcmp(value, "on") == 0;
    } else if (strcmp(key, "present-complete-mode") == 0) {
        ok = (cfg->complete_mode = mock_present_mode_parse(value)) >= 0;
    } else if (strcmp(key, "syncobj-release") == 0) {
        ok = strcmp(value, "signal") == 0 || strcmp(value, "attach") == 0;
        cfg->release_attach_only = strcmp(value, "attach") == 0;
    } else if (strcmp(key, "transcript") == 0 && strcmp(value, "off") == 0) {
        cfg->transcript_off = ok = true;
    } else if (strcmp(key, "transcript") == 0) {
        ok = *value && set_string(&cfg->transcript_path, value);
    } else if (strcmp(key, "stats") == 0) {
        ok = *value && set_string(&cfg->stats_path, value);
    } else if (strcmp(key, "fault") == 0) {
        ok = cfg->n_faults < MOCK_MAX_FAULTS;
        if (!ok)
            why = "too many faults";
        else if ((ok = parse_fault(value, &cfg->faults[cfg->n_faults], &why)))
            cfg->n_faults++;
    } else {
        fprintf(stderr, "mock config: unknown key \"%s\"\n", key);
        return -1;
    }
    if (!ok) {
        fprintf(stderr, "mock config: %s \"%s\": %s\n", key, value, why);
        return -1;
    }
    return 0;
}

int mock_config_load(struct mock_config *cfg, const char *path)
{
    FILE *f = fopen(path, "re");
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;

    if (!f) {
        fprintf(stderr, "mock config: %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        char *key = line, *value, *end;

        lineno++;
        key += strspn(key, " \t");
        end = key + strcspn(key, "#\r\n");
        while (end > key && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        *end = '\0';
        if (!*key)
            continue;
        value = key + strcspn(key, " \t");
        if (*value)
            *value++ = '\0';
        value += strspn(value, " \t");
        if (!*value) {
            fprintf(stderr, "mock config: %s:%u: \"%s\" needs a value\n", path, lineno, key);
            rc = -1;
        } else if (mock_config_set(cfg, key, value) < 0) {
            fprintf(stderr, "mock config: in %s:%u\n", path, lineno);
            rc = -1;
        }
    }
    free(line);
    fclose(f);
    return rc;
}
