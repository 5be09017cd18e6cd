/*
 * The layer's tables: instances and devices by dispatch key, surfaces by
 * the driver's handle.  Few objects live at once: lists under one lock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"

static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
static struct layer_instance *instances;
static struct layer_device *devices;
static struct layer_surface *surfaces;

/* One list shape, three lists: add at the head, find and unlink by a key. */
#define LIST_FUNCS(type, list, field, keytype)                                  \
    void layer_##type##_add(struct layer_##type *o)                            \
    {                                                                           \
        pthread_mutex_lock(&objects_lock);                                     \
        o->next = list;                                                         \
        list = o;                                                               \
        pthread_mutex_unlock(&objects_lock);                                   \
    }                                                                           \
    struct layer_##type *layer_##type##_get(keytype k)                         \
    {                                                                           \
        struct layer_##type *o;                                                 \
        pthread_mutex_lock(&objects_lock);                                     \
        for (o = list; o && o->field != k; o = o->next)                        \
            ;                                                                   \
        pthread_mutex_unlock(&objects_lock);                                   \
        return o;                                                               \
    }                                                                           \
    struct layer_##type *layer_##type##_remove(keytype k)                      \
    {                                                                           \
        struct layer_##type **p, *o = NULL;                                     \
        pthread_mutex_lock(&objects_lock);                                     \
        for (p = &list; *p; p = &(*p)->next)                                   \
            if ((*p)->field == k) {                                             \
                o = *p;                                                         \
                *p = o->next;                                                   \
                break;                                                          \
            }                                                                   \
        pthread_mutex_unlock(&objects_lock);                                   \
        return o;                                                               \
    }

LIST_FUNCS(instance, instances, key, void *)
LIST_FUNCS(device, devices, key, void *)
LIST_FUNCS(surface, surfaces, handle, VkSurfaceKHR)

static bool debug_on(void)
{
    static int on = -1;

    if (on < 0) {
        const char *v = getenv("XCB_PRESENT_VK_LAYER_DEBUG");

        on = v && *v && strcmp(v, "0") != 0;
    }
    return on;
}

void layer_log(const char *fmt, ...)
{
    va_list ap;

    if (!debug_on())
        return;
    va_start(ap, fmt);
    fputs("xcb-present layer: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

PFN_vkVoidFunction layer_proc_find(const struct layer_proc *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, table[i].name))
            return table[i].fn;
    return NULL;
}
