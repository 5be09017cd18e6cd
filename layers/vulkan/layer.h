/*
 * VK_LAYER_XCB_present: X11 surfaces and swapchains on libxcb-present-util
 * for the Vulkan devices that have no good X11 presentation of their own
 * (CPU devices such as lavapipe, whose own WSI copies every frame through
 * the X socket with PutImage and paces nothing).
 *
 * The layer's insides, shared by its files:
 *   layer-dispatch.c   the loader interface, instances and devices, the
 *                      extensions and features the layer adds
 *   layer-surface.c    surfaces and what they report
 *   layer-swapchain.c  swapchains and their images (shared memory that
 *                      the device renders into and the server shows)
 *   layer-present.c    acquire, present, present-wait, release
 *   layer-objects.c    the tables of the layer's objects
 *
 * Handles: VkSurfaceKHR handles are the driver's own (the layer makes the
 * driver's surface too, so that a device it does not take over keeps
 * working) and the layer keeps a record of each; VkSwapchainKHR handles of
 * a device it took over are the layer's and never reach the driver.
 */
#ifndef VK_LAYER_XCB_PRESENT_H
#define VK_LAYER_XCB_PRESENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <X11/Xlib.h>
#include <xcb/xcb.h>
#define VK_USE_PLATFORM_XCB_KHR 1
#define VK_USE_PLATFORM_XLIB_KHR 1
#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>
#include <xcb/xcb.h>

#include "vk-ext-decls.h"
#include "xcb_dri3_util_buffer.h"
#include "xcb_present_util.h"

#pragma GCC visibility push(hidden)

#define LAYER_NAME "VK_LAYER_XCB_present"
#define LAYER_MAX_IMAGES 16      /* the engine's limit */
#define LAYER_MAX_EXTENT 16384   /* the engine's largest buffer: 1 GiB */

/* The dispatch key of a dispatchable handle: the loader's table pointer,
 * the same for an instance and its physical devices, and for a device
 * and its queues. */
static inline void *layer_key(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}

struct layer_instance {
    void *key;
    VkInstance instance;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkDestroyInstance DestroyInstance;
    PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties;
    PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
    PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2;
    PFN_vkGetPhysicalDeviceFormatProperties GetPhysicalDeviceFormatProperties;
    PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties;
    PFN_vkCreateXcbSurfaceKHR CreateXcbSurfaceKHR;
    PFN_vkCreateXlibSurfaceKHR CreateXlibSurfaceKHR;
    PFN_vkDestroySurfaceKHR DestroySurfaceKHR;
    PFN_vkGetPhysicalDeviceSurfaceSupportKHR GetPhysicalDeviceSurfaceSupportKHR;
    PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR GetPhysicalDeviceSurfaceCapabilitiesKHR;
    PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR GetPhysicalDeviceSurfaceCapabilities2KHR;
    PFN_vkGetPhysicalDeviceSurfaceFormatsKHR GetPhysicalDeviceSurfaceFormatsKHR;
    PFN_vkGetPhysicalDeviceSurfaceFormats2KHR GetPhysicalDeviceSurfaceFormats2KHR;
    PFN_vkGetPhysicalDeviceSurfacePresentModesKHR GetPhysicalDeviceSurfacePresentModesKHR;
    PFN_vkGetPhysicalDevicePresentRectanglesKHR GetPhysicalDevicePresentRectanglesKHR;
    PFN_vkGetPhysicalDeviceXcbPresentationSupportKHR GetPhysicalDeviceXcbPresentationSupportKHR;
    PFN_vkGetPhysicalDeviceXlibPresentationSupportKHR
        GetPhysicalDeviceXlibPresentationSupportKHR;
    struct layer_instance *next;
};

struct layer_device {
    void *key;
    VkDevice device;
    VkPhysicalDevice physical;
    struct layer_instance *inst;
    bool taken;                 /* the layer presents for it */
    PFN_vkGetDeviceProcAddr gdpa;
    PFN_vkDestroyDevice DestroyDevice;
    PFN_vkGetDeviceQueue GetDeviceQueue;
    PFN_vkCreateImage CreateImage;
    PFN_vkDestroyImage DestroyImage;
    PFN_vkGetImageSubresourceLayout GetImageSubresourceLayout;
    PFN_vkGetImageMemoryRequirements GetImageMemoryRequirements;
    PFN_vkAllocateMemory AllocateMemory;
    PFN_vkFreeMemory FreeMemory;
    PFN_vkBindImageMemory BindImageMemory;
    PFN_vkQueueSubmit QueueSubmit;
    PFN_vkCreateFence CreateFence;
    PFN_vkDestroyFence DestroyFence;
    PFN_vkWaitForFences WaitForFences;
    PFN_vkResetFences ResetFences;
    PFN_vkGetMemoryHostPointerPropertiesEXT GetMemoryHostPointerPropertiesEXT;
    /* The queue the layer signals acquire semaphores and fences on (the
     * first the application created); queue_lock keeps the layer's own
     * submissions apart. */
    VkQueue queue;
    pthread_mutex_t queue_lock;
    /* vkQueuePresentKHR's wait for the application's semaphores */
    VkFence present_fence;
    uint64_t host_alignment;    /* minImportedHostPointerAlignment */
    struct layer_device *next;
};

struct layer_surface {
    VkSurfaceKHR handle;        /* the driver's */
    VkInstance instance;
    xcb_connection_t *c;
    xcb_window_t window;
    struct layer_surface *next;
};

/* VK_EXT_present_timing: a present whose stages the application asked
 * for, until vkGetPastPresentationTimingEXT gave it complete. */
struct timing_record {
    uint64_t frame_id;          /* the engine's */
    uint64_t present_id;        /* the application's, 0: none */
    uint64_t target_time;
    VkPresentStageFlagsEXT queries, done;
    uint64_t queue_end_ns, dequeued_ns, pixel_out_ns;
    uint64_t domain_id;
};

/* completions that came before their record was queued */
#define LAYER_EARLY 8
struct early {
    uint64_t frame_id, ns;
};

struct layer_timing {
    struct timing_record *q;    /* size entries, count in use, in present order */
    uint32_t size, count;
    struct early early[LAYER_EARLY];
    uint32_t early_next;
    uint64_t last_shown_ns;     /* the last frame's vblank */
    uint64_t reported_refresh_ns, properties_counter;
};

struct layer_swapchain {
    struct layer_device *dev;
    struct layer_surface *surface;
    xcb_present_util_swapchain_t *sc;
    VkExtent2D extent;
    VkExtent2D window_at_create;   /* the window's size when it was made */
    VkFormat format;
    VkPresentModeKHR mode;
    uint32_t n;
    VkImage images[LAYER_MAX_IMAGES];
    VkDeviceMemory memory[LAYER_MAX_IMAGES];
    xcb_dri3_util_buffer_t *buffers[LAYER_MAX_IMAGES];
    void *maps[LAYER_MAX_IMAGES];
    size_t map_size;
    /* what the engine handed out, by image index */
    xcb_present_util_image_t acquired[LAYER_MAX_IMAGES];
    bool is_acquired[LAYER_MAX_IMAGES];
    pthread_mutex_t lock;       /* acquired[], the flags below */
    bool retired;               /* an oldSwapchain of a newer one */
    bool out_of_date;           /* told SUBOPTIMAL once: OUT_OF_DATE from now */
    uint64_t last_present_id;
    struct layer_timing timing;
    struct layer_swapchain *next;
};

/* layer-objects.c: lookups under one lock; NULL when unknown. */
void layer_instance_add(struct layer_instance *inst);
struct layer_instance *layer_instance_get(void *key);
struct layer_instance *layer_instance_remove(void *key);
void layer_device_add(struct layer_device *dev);
struct layer_device *layer_device_get(void *key);
struct layer_device *layer_device_remove(void *key);
void layer_surface_add(struct layer_surface *s);
struct layer_surface *layer_surface_get(VkSurfaceKHR handle);
struct layer_surface *layer_surface_remove(VkSurfaceKHR handle);
/* Whether the layer takes over presentation for this physical device. */
bool layer_takes(struct layer_instance *inst, VkPhysicalDevice pd);

/* Debug output (XCB_PRESENT_VK_LAYER_DEBUG=1). */
void layer_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A table of the layer's functions by name, and its lookup. */
struct layer_proc {
    const char *name;
    PFN_vkVoidFunction fn;
};
#define LAYER_PROC(n) { "vk" #n, (PFN_vkVoidFunction)layer_##n }
PFN_vkVoidFunction layer_proc_find(const struct layer_proc *table, size_t n, const char *name);

/* The functions the layer implements, by name, for the two ProcAddr
 * lookups; NULL when it does not. */
PFN_vkVoidFunction layer_surface_proc(const char *name);
PFN_vkVoidFunction layer_swapchain_proc(const char *name);
PFN_vkVoidFunction layer_present_proc(const char *name);

/* layer-swapchain.c: the engine's mode for a Vulkan present mode. */
xcb_present_util_mode_t layer_engine_mode(VkPresentModeKHR m);

/* layer-swapchain.c: a swapchain handle of the layer's (NULL: not ours). */
static inline struct layer_swapchain *layer_swapchain(VkSwapchainKHR h)
{
    return (struct layer_swapchain *)(uintptr_t)h;
}

/* layer-surface.c: the window's size and depth (a bounded round trip);
 * VK_ERROR_SURFACE_LOST_KHR when it is gone or the server does not
 * answer. */
VkResult layer_window_geometry(struct layer_surface *s, VkExtent2D *extent, uint8_t *depth);

/* layer-timing.c */
uint64_t layer_now_ns(void);
/* The stages X11 lets the layer report. */
VkPresentStageFlagsEXT layer_timing_stages(void);
PFN_vkVoidFunction layer_timing_proc(const char *name);
void layer_timing_frame(void *data, const xcb_present_util_frame_t *f);
const VkPresentTimingInfoEXT *layer_timing_info(const VkPresentInfoKHR *info, uint32_t i);
VkResult layer_timing_check(struct layer_swapchain *s, const VkPresentTimingInfoEXT *t);
void layer_timing_aim(struct layer_swapchain *s, const VkPresentTimingInfoEXT *t,
                      uint64_t refresh_ns, uint64_t *target_ust, uint32_t *interval);
void layer_timing_queued(struct layer_swapchain *s, const VkPresentTimingInfoEXT *t,
                         uint64_t frame_id, uint64_t present_id, uint64_t queue_end_ns,
                         uint64_t dequeued_ns);
/* layer-present.c: vkWaitForPresentKHR's body, for both versions */
VkResult layer_wait_for_present(VkDevice device, VkSwapchainKHR swapchain, uint64_t present_id,
                                uint64_t timeout);

/* layer-present.c: signals a semaphore and a fence (either may be
 * VK_NULL_HANDLE) on the device's queue with an empty submission. */
VkResult layer_signal(struct layer_device *dev, VkSemaphore sem, VkFence fence);

#pragma GCC visibility pop

#endif
