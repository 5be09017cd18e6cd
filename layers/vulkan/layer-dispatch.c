/*
 * The loader's side of the layer: the interface negotiation, the two
 * ProcAddr lookups, instances and devices, and the device extensions and
 * features the layer adds (VK_KHR_present_id, VK_KHR_present_wait,
 * VK_EXT_swapchain_maintenance1) for the devices it takes over.  What it
 * adds it also takes away again before the driver sees it: the driver
 * knows none of them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "layer.h"

#define LAYER_EXPORT __attribute__((visibility("default")))

static const VkExtensionProperties layer_device_extensions[] = {
    { VK_KHR_PRESENT_ID_EXTENSION_NAME, VK_KHR_PRESENT_ID_SPEC_VERSION },
    { VK_KHR_PRESENT_WAIT_EXTENSION_NAME, VK_KHR_PRESENT_WAIT_SPEC_VERSION },
    { VK_EXT_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME, VK_EXT_SWAPCHAIN_MAINTENANCE_1_SPEC_VERSION },
    { VK_KHR_PRESENT_ID_2_EXTENSION_NAME, VK_KHR_PRESENT_ID_2_SPEC_VERSION },
    { VK_KHR_PRESENT_WAIT_2_EXTENSION_NAME, VK_KHR_PRESENT_WAIT_2_SPEC_VERSION },
    { VK_EXT_PRESENT_TIMING_EXTENSION_NAME, VK_EXT_PRESENT_TIMING_SPEC_VERSION },
};
#define N_LAYER_EXTENSIONS (sizeof layer_device_extensions / sizeof layer_device_extensions[0])

/* The feature structs of those extensions. */
static bool is_layer_feature(VkStructureType t)
{
    return t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR ||
           t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR ||
           t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT ||
           t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_2_FEATURES_KHR ||
           t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_2_FEATURES_KHR ||
           t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_TIMING_FEATURES_EXT;
}

static bool is_layer_extension(const char *name)
{
    for (size_t i = 0; i < N_LAYER_EXTENSIONS; i++)
        if (!strcmp(name, layer_device_extensions[i].extensionName))
            return true;
    return false;
}

/* Unlinks the layer's feature structs from a pNext chain (the caller's,
 * restored by relink() after the driver's call): at most 8. */
struct unlinked {
    VkBaseOutStructure *prev[8], *node[8];
    int n;
};

static void unlink_features(void *head, struct unlinked *u)
{
    VkBaseOutStructure *prev = head;

    u->n = 0;
    while (prev && prev->pNext) {
        VkBaseOutStructure *node = prev->pNext;

        if (is_layer_feature(node->sType) && u->n < 8) {
            u->prev[u->n] = prev;
            u->node[u->n++] = node;
            prev->pNext = node->pNext;
            continue;
        }
        prev = node;
    }
}

static void relink(struct unlinked *u)
{
    for (int i = u->n - 1; i >= 0; i--) {
        u->node[i]->pNext = u->prev[i]->pNext;
        u->prev[i]->pNext = u->node[i];
    }
}

/* ---- which devices the layer takes ------------------------------------- */

static bool has_extension(struct layer_instance *inst, VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    VkExtensionProperties *p;
    bool found = false;

    if (inst->EnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || !n)
        return false;
    p = calloc(n, sizeof *p);
    if (!p)
        return false;
    if (inst->EnumerateDeviceExtensionProperties(pd, NULL, &n, p) >= 0)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(p[i].extensionName, name);
    free(p);
    return found;
}

/* CPU devices (lavapipe) that can import host memory; every device that
 * can with XCB_PRESENT_VK_LAYER_DEVICES=all.  Others keep the driver's own
 * presentation. */
bool layer_takes(struct layer_instance *inst, VkPhysicalDevice pd)
{
    const char *want = getenv("XCB_PRESENT_VK_LAYER_DEVICES");
    VkPhysicalDeviceProperties props;

    inst->GetPhysicalDeviceProperties(pd, &props);
    if (props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU && !(want && !strcmp(want, "all")))
        return false;
    return has_extension(inst, pd, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
}

/* ---- instances ---------------------------------------------------------- */

static VkLayerInstanceCreateInfo *instance_link(const VkInstanceCreateInfo *ci)
{
    VkLayerInstanceCreateInfo *l = (VkLayerInstanceCreateInfo *)ci->pNext;

    while (l && !(l->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO &&
                  l->function == VK_LAYER_LINK_INFO))
        l = (VkLayerInstanceCreateInfo *)l->pNext;
    return l;
}

/* A Vulkan 1.0 instance lacks what VK_KHR_external_memory needs on the
 * device the layer takes: VK_KHR_external_memory_capabilities is added,
 * with VK_KHR_get_physical_device_properties2, which it requires. */
static const char *const needed_by_1_0[] = {
    VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME,
    VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_EXTENSION_NAME,
};
#define N_NEEDED (sizeof needed_by_1_0 / sizeof needed_by_1_0[0])

static bool enabled(const VkInstanceCreateInfo *ci, const char *name)
{
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
        if (!strcmp(ci->ppEnabledExtensionNames[i], name))
            return true;
    return false;
}

/* The instance below the layer, tried with the program's extensions and
 * the 1.0 additions first, then without what the driver may lack: the
 * additions, and VK_EXT_surface_maintenance1, which the layer itself
 * offers (its manifest) and answers for the devices it takes. */
static VkResult create_below(PFN_vkCreateInstance create, const VkInstanceCreateInfo *ci,
                             const VkAllocationCallbacks *alloc, VkInstance *out)
{
    uint32_t api = ci->pApplicationInfo ? ci->pApplicationInfo->apiVersion : 0;
    VkInstanceCreateInfo with = *ci;
    const char **names = calloc(ci->enabledExtensionCount + N_NEEDED + 1, sizeof *names);
    VkResult r = VK_ERROR_EXTENSION_NOT_PRESENT;

    if (!names)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    /* try 0: all; 1: without the layer's own; 2: also without the additions */
    for (int try = 0; try < 3 && r == VK_ERROR_EXTENSION_NOT_PRESENT; try++) {
        uint32_t n = 0;

        for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
            if (try == 0 || strcmp(ci->ppEnabledExtensionNames[i],
                                   VK_EXT_SURFACE_MAINTENANCE_1_EXTENSION_NAME))
                names[n++] = ci->ppEnabledExtensionNames[i];
        if (api < VK_API_VERSION_1_1 && try < 2)
            for (size_t i = 0; i < N_NEEDED; i++)
                if (!enabled(ci, needed_by_1_0[i]))
                    names[n++] = needed_by_1_0[i];
        if (try > 0 && n == with.enabledExtensionCount)
            continue;       /* the same list as the try before */
        with.enabledExtensionCount = n;
        with.ppEnabledExtensionNames = names;
        r = create(&with, alloc, out);
    }
    free(names);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateInstance(const VkInstanceCreateInfo *ci,
                                                           const VkAllocationCallbacks *alloc,
                                                           VkInstance *out)
{
    VkLayerInstanceCreateInfo *link = instance_link(ci);
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkCreateInstance create;
    struct layer_instance *inst;
    VkResult r;

    if (!link)
        return VK_ERROR_INITIALIZATION_FAILED;
    gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (!create)
        return VK_ERROR_INITIALIZATION_FAILED;
    inst = calloc(1, sizeof *inst);
    if (!inst)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    r = create_below(create, ci, alloc, out);
    if (r != VK_SUCCESS) {
        free(inst);
        return r;
    }
    inst->instance = *out;
    inst->key = layer_key(*out);
    inst->gipa = gipa;
#define GET(name) inst->name = (PFN_vk##name)gipa(*out, "vk" #name)
    GET(DestroyInstance);
    GET(EnumerateDeviceExtensionProperties);
    GET(GetPhysicalDeviceProperties);
    GET(GetPhysicalDeviceFeatures2);
    GET(GetPhysicalDeviceFormatProperties);
    GET(GetPhysicalDeviceQueueFamilyProperties);
    GET(CreateXcbSurfaceKHR);
    GET(CreateXlibSurfaceKHR);
    GET(DestroySurfaceKHR);
    GET(GetPhysicalDeviceSurfaceSupportKHR);
    GET(GetPhysicalDeviceSurfaceCapabilitiesKHR);
    GET(GetPhysicalDeviceSurfaceCapabilities2KHR);
    GET(GetPhysicalDeviceSurfaceFormatsKHR);
    GET(GetPhysicalDeviceSurfaceFormats2KHR);
    GET(GetPhysicalDeviceSurfacePresentModesKHR);
    GET(GetPhysicalDevicePresentRectanglesKHR);
    GET(GetPhysicalDeviceXcbPresentationSupportKHR);
    GET(GetPhysicalDeviceXlibPresentationSupportKHR);
#undef GET
    /* A Vulkan 1.0 instance has the query only as the extension's
     * (which the program enabled if it asks): the core name would be a
     * 1.1 call, which the validation layer below reports. */
    if (!inst->GetPhysicalDeviceFeatures2 || !ci->pApplicationInfo ||
        ci->pApplicationInfo->apiVersion < VK_API_VERSION_1_1)
        inst->GetPhysicalDeviceFeatures2 =
            (PFN_vkGetPhysicalDeviceFeatures2)gipa(*out, "vkGetPhysicalDeviceFeatures2KHR");
    layer_instance_add(inst);
    layer_log("instance %p", (void *)*out);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroyInstance(VkInstance instance,
                                                        const VkAllocationCallbacks *alloc)
{
    struct layer_instance *inst;

    if (!instance)
        return;
    inst = layer_instance_remove(layer_key(instance));
    if (!inst)
        return;
    inst->DestroyInstance(instance, alloc);
    free(inst);
}

/* ---- extensions and features -------------------------------------------- */

static VkResult copy_properties(const VkExtensionProperties *src, uint32_t n, uint32_t *count,
                                VkExtensionProperties *out)
{
    if (!out) {
        *count = n;
        return VK_SUCCESS;
    }
    if (*count > n)
        *count = n;
    memcpy(out, src, *count * sizeof *out);
    return *count < n ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char *layer_name,
                                         uint32_t *count, VkExtensionProperties *out)
{
    struct layer_instance *inst;
    VkExtensionProperties *all;
    uint32_t n = 0, total;
    VkResult r;

    if (layer_name && !strcmp(layer_name, LAYER_NAME))
        return copy_properties(layer_device_extensions, N_LAYER_EXTENSIONS, count, out);
    inst = layer_instance_get(layer_key(pd));
    if (!inst)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (layer_name || !layer_takes(inst, pd))
        return inst->EnumerateDeviceExtensionProperties(pd, layer_name, count, out);
    r = inst->EnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    if (r != VK_SUCCESS)
        return r;
    all = calloc(n + N_LAYER_EXTENSIONS, sizeof *all);
    if (!all)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    r = inst->EnumerateDeviceExtensionProperties(pd, NULL, &n, all);
    if (r < 0) {
        free(all);
        return r;
    }
    total = n;
    for (size_t i = 0; i < N_LAYER_EXTENSIONS; i++) {
        bool there = false;

        for (uint32_t j = 0; j < n; j++)
            there |= !strcmp(all[j].extensionName, layer_device_extensions[i].extensionName);
        if (!there)
            all[total++] = layer_device_extensions[i];
    }
    r = copy_properties(all, total, count, out);
    free(all);
    return r;
}

static void fill_layer_features(void *head)
{
    for (VkBaseOutStructure *s = head; s; s = s->pNext) {
        switch ((int)s->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR:
            ((VkPhysicalDevicePresentIdFeaturesKHR *)s)->presentId = VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR:
            ((VkPhysicalDevicePresentWaitFeaturesKHR *)s)->presentWait = VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT:
            ((VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT *)s)->swapchainMaintenance1 =
                VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_2_FEATURES_KHR:
            ((VkPhysicalDevicePresentId2FeaturesKHR *)s)->presentId2 = VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_2_FEATURES_KHR:
            ((VkPhysicalDevicePresentWait2FeaturesKHR *)s)->presentWait2 = VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_TIMING_FEATURES_EXT: {
            VkPhysicalDevicePresentTimingFeaturesEXT *t = (void *)s;

            t->presentTiming = t->presentAtAbsoluteTime = t->presentAtRelativeTime = VK_TRUE;
            break;
        }
        default:
            break;
        }
    }
}

static VKAPI_ATTR void VKAPI_CALL layer_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd,
                                                                   VkPhysicalDeviceFeatures2 *f)
{
    struct layer_instance *inst = layer_instance_get(layer_key(pd));
    struct unlinked u;
    bool taken;

    if (!inst || !inst->GetPhysicalDeviceFeatures2)
        return;
    taken = layer_takes(inst, pd);
    unlink_features(f, &u);
    inst->GetPhysicalDeviceFeatures2(pd, f);
    relink(&u);
    if (taken)
        fill_layer_features(f);
}

/* ---- devices ------------------------------------------------------------ */

static VkLayerDeviceCreateInfo *device_link(const VkDeviceCreateInfo *ci, VkLayerFunction fn)
{
    VkLayerDeviceCreateInfo *l = (VkLayerDeviceCreateInfo *)ci->pNext;

    while (l && !(l->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && l->function == fn))
        l = (VkLayerDeviceCreateInfo *)l->pNext;
    return l;
}

static bool device_functions(struct layer_device *d)
{
#define GET(name) d->name = (PFN_vk##name)d->gdpa(d->device, "vk" #name)
    GET(DestroyDevice);
    GET(GetDeviceQueue);
    GET(CreateImage);
    GET(DestroyImage);
    GET(GetImageSubresourceLayout);
    GET(GetImageMemoryRequirements);
    GET(AllocateMemory);
    GET(FreeMemory);
    GET(BindImageMemory);
    GET(QueueSubmit);
    GET(CreateFence);
    GET(DestroyFence);
    GET(WaitForFences);
    GET(ResetFences);
    GET(GetMemoryHostPointerPropertiesEXT);
#undef GET
    return d->DestroyDevice && d->GetDeviceQueue && d->CreateImage && d->DestroyImage &&
           d->GetImageSubresourceLayout && d->GetImageMemoryRequirements &&
           d->AllocateMemory && d->FreeMemory && d->BindImageMemory && d->QueueSubmit &&
           d->CreateFence && d->DestroyFence && d->WaitForFences && d->ResetFences;
}

/* minImportedHostPointerAlignment would need vkGetPhysicalDeviceProperties2,
 * which a 1.0 application's instance may not have: a page, which is what
 * CPU devices ask for (lavapipe: 4096), and never less than 4096. */
static void host_alignment(struct layer_device *d)
{
    long page = sysconf(_SC_PAGESIZE);

    d->host_alignment = page > 4096 ? (uint64_t)page : 4096;
}

/* The application's device create info for the driver: without the
 * layer's extensions and features, with VK_EXT_external_memory_host
 * (how the layer's images get their memory).  *names is allocated. */
static bool driver_extensions(const VkDeviceCreateInfo *ci, bool taken, const char ***names,
                              uint32_t *n)
{
    /* external_memory_host and what it requires (core in 1.1, but a 1.0
     * application's device has only what it enables) */
    static const char *const needed[] = {
        VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_EXTENSION_NAME,
    };
    bool have[2] = { false, false };

    *names = calloc(ci->enabledExtensionCount + 2, sizeof **names);
    if (!*names)
        return false;
    *n = 0;
    for (uint32_t i = 0; i < ci->enabledExtensionCount; i++) {
        const char *e = ci->ppEnabledExtensionNames[i];

        if (taken && is_layer_extension(e))
            continue;
        for (int k = 0; k < 2; k++)
            have[k] |= !strcmp(e, needed[k]);
        (*names)[(*n)++] = e;
    }
    for (int k = 0; k < 2 && taken; k++)
        if (!have[k])
            (*names)[(*n)++] = needed[k];
    return true;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice pd,
                                                         const VkDeviceCreateInfo *ci,
                                                         const VkAllocationCallbacks *alloc,
                                                         VkDevice *out)
{
    VkLayerDeviceCreateInfo *link = device_link(ci, VK_LAYER_LINK_INFO);
    VkLayerDeviceCreateInfo *loader = device_link(ci, VK_LOADER_DATA_CALLBACK);
    struct layer_instance *inst = layer_instance_get(layer_key(pd));
    VkDeviceCreateInfo dci = *ci;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkCreateDevice create;
    struct layer_device *d;
    const char **names;
    struct unlinked u;
    VkResult r;

    if (!link || !inst)
        return VK_ERROR_INITIALIZATION_FAILED;
    gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    create = (PFN_vkCreateDevice)gipa(inst->instance, "vkCreateDevice");
    d = calloc(1, sizeof *d);
    if (!create || !d) {
        free(d);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    d->inst = inst;
    d->physical = pd;
    d->taken = layer_takes(inst, pd);
    d->gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    if (!driver_extensions(ci, d->taken, &names, &dci.enabledExtensionCount)) {
        free(d);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    dci.ppEnabledExtensionNames = names;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    unlink_features(&dci, &u);
    r = create(pd, &dci, alloc, out);
    relink(&u);
    free(names);
    if (r != VK_SUCCESS) {
        free(d);
        return r;
    }
    d->device = *out;
    d->key = layer_key(*out);
    pthread_mutex_init(&d->queue_lock, NULL);
    if (!device_functions(d)) {
        d->taken = false;
        layer_log("device %p: driver functions missing, not taken", (void *)*out);
    }
    if (d->taken && ci->queueCreateInfoCount) {
        VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };

        d->GetDeviceQueue(*out, ci->pQueueCreateInfos[0].queueFamilyIndex, 0, &d->queue);
        /* a dispatchable handle the layer fetched: the loader's table */
        if (loader && d->queue)
            loader->u.pfnSetDeviceLoaderData(*out, d->queue);
        if (d->CreateFence(*out, &fci, NULL, &d->present_fence) != VK_SUCCESS)
            d->present_fence = VK_NULL_HANDLE;
        host_alignment(d);
    }
    layer_device_add(d);
    layer_log("device %p: %s", (void *)*out, d->taken ? "taken over" : "the driver's WSI");
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroyDevice(VkDevice device,
                                                      const VkAllocationCallbacks *alloc)
{
    struct layer_device *d;

    if (!device)
        return;
    d = layer_device_remove(layer_key(device));
    if (!d)
        return;
    if (d->present_fence)
        d->DestroyFence(device, d->present_fence, NULL);
    d->DestroyDevice(device, alloc);
    pthread_mutex_destroy(&d->queue_lock);
    free(d);
}

/* ---- the lookups -------------------------------------------------------- */

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device,
                                                                        const char *name);
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetInstanceProcAddr(VkInstance instance,
                                                                          const char *name);

static PFN_vkVoidFunction own_proc(const char *name)
{
    static const struct layer_proc table[] = {
        { "vkGetInstanceProcAddr", (PFN_vkVoidFunction)layer_GetInstanceProcAddr },
        { "vkGetDeviceProcAddr", (PFN_vkVoidFunction)layer_GetDeviceProcAddr },
        { "vkCreateInstance", (PFN_vkVoidFunction)layer_CreateInstance },
        { "vkDestroyInstance", (PFN_vkVoidFunction)layer_DestroyInstance },
        { "vkCreateDevice", (PFN_vkVoidFunction)layer_CreateDevice },
        { "vkDestroyDevice", (PFN_vkVoidFunction)layer_DestroyDevice },
        { "vkEnumerateDeviceExtensionProperties",
          (PFN_vkVoidFunction)layer_EnumerateDeviceExtensionProperties },
        { "vkGetPhysicalDeviceFeatures2", (PFN_vkVoidFunction)layer_GetPhysicalDeviceFeatures2 },
        { "vkGetPhysicalDeviceFeatures2KHR",
          (PFN_vkVoidFunction)layer_GetPhysicalDeviceFeatures2 },
    };

    return layer_proc_find(table, sizeof table / sizeof table[0], name);
}

/* Device-level functions of the layer's (swapchains, presentation). */
static PFN_vkVoidFunction device_proc(const char *name)
{
    PFN_vkVoidFunction fn = layer_swapchain_proc(name);

    if (!fn)
        fn = layer_present_proc(name);
    return fn ? fn : layer_timing_proc(name);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device,
                                                                        const char *name)
{
    struct layer_device *d;
    PFN_vkVoidFunction fn;

    if (!device || !name)
        return NULL;
    if (!strcmp(name, "vkGetDeviceProcAddr"))
        return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
    if (!strcmp(name, "vkDestroyDevice"))
        return (PFN_vkVoidFunction)layer_DestroyDevice;
    d = layer_device_get(layer_key(device));
    if (!d)
        return NULL;
    if (d->taken && (fn = device_proc(name)))
        return fn;
    return d->gdpa(device, name);
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetInstanceProcAddr(VkInstance instance,
                                                                          const char *name)
{
    struct layer_instance *inst;
    PFN_vkVoidFunction fn;

    if (!name)
        return NULL;
    if ((fn = own_proc(name)) || (fn = layer_surface_proc(name)))
        return fn;
    if (!instance)
        return NULL;
    inst = layer_instance_get(layer_key(instance));
    if (!inst)
        return NULL;
    /* device functions: the layer's take effect per device, through
     * layer_GetDeviceProcAddr, which builds the device's table */
    return inst->gipa(instance, name);
}

/* The exported names are the loader's own too: inside the layer only the
 * static functions are used, so that a program linked with the loader
 * never has the layer call the loader's functions by mistake. */
LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                             const char *name)
{
    return layer_GetInstanceProcAddr(instance, name);
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                           const char *name)
{
    return layer_GetDeviceProcAddr(device, name);
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v)
{
    if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
        return VK_ERROR_INITIALIZATION_FAILED;
    if (v->loaderLayerInterfaceVersion > 2)
        v->loaderLayerInterfaceVersion = 2;
    if (v->loaderLayerInterfaceVersion < 2)
        return VK_ERROR_INITIALIZATION_FAILED;
    v->pfnGetInstanceProcAddr = layer_GetInstanceProcAddr;
    v->pfnGetDeviceProcAddr = layer_GetDeviceProcAddr;
    v->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
