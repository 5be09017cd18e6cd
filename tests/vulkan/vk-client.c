/*
 * vk-client SCENARIO...: a small Vulkan program of the tests' own that
 * presents through whatever WSI the loader gives it (here:
 * VK_LAYER_XCB_present on lavapipe) into its own window on $DISPLAY, and
 * checks what the Vulkan rules say the swapchain must do.  No shaders:
 * each acquired image is cleared with vkCmdClearColorImage, moved to
 * PRESENT_SRC and presented.
 *
 * Scenarios: fifo mailbox immediate resize destroyed oldswapchain
 * presentwait maintenance1 acquire0 (or "all"), and provoke (a deliberate
 * validation error, which must be counted); "vk-client probe" only
 * says whether there is a CPU device (exit 0, its name) or not (77).  Each makes its own
 * window, instance and device, registers a VK_EXT_debug_utils messenger
 * and ends with a check that no validation error was reported (none can
 * be, when no validation layer is enabled).
 *
 * Output, one line per check, for tests/vulkan/vk-client.sh to number as
 * TAP:  "PASS text", "FAIL text", "SKIP text # reason"; anything else is
 * printed as a diagnostic ("# ...").  Exit status: 0 when every check
 * passed, 1 when one failed, 77 when there is no CPU Vulkan device or no
 * X server with Present to test on.
 *
 * Times: only "never early" bounds are tight (a FIFO run cannot be
 * faster than the refresh, a 50 ms timeout cannot end before 50 ms);
 * "late" bounds are generous, for busy machines.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/present.h>
#define VK_USE_PLATFORM_XCB_KHR 1
#include <vulkan/vulkan.h>
#include "vk-ext-decls.h"     /* VK_EXT_present_timing, newer than these headers */

#define SLOTS 2
#define MAX_IMAGES 8
#define REFRESH_MS 16.667
#define MS 1000000ull            /* nanoseconds, for Vulkan's timeouts */

/* ---- output --------------------------------------------------------------- */

static const char *scenario = "";
static int failures;

static void vline(const char *tag, const char *fmt, va_list ap)
{
    printf("%s %s: ", tag, scenario);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
}

static bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool check(bool ok, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vline(ok ? "PASS" : "FAIL", fmt, ap);
    va_end(ap);
    if (!ok)
        failures++;
    return ok;
}

/* A step of the setup: a line only when it fails. */
static bool need(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool need(bool ok, const char *fmt, ...)
{
    va_list ap;

    if (ok)
        return true;
    va_start(ap, fmt);
    vline("FAIL", fmt, ap);
    va_end(ap);
    failures++;
    return false;
}

static void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void skip(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vline("SKIP", fmt, ap);
    va_end(ap);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;

    printf("# %s: ", scenario);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static const char *res_name(VkResult r)
{
    switch ((int)r) {
#define R(x) case x: return #x
    R(VK_SUCCESS); R(VK_NOT_READY); R(VK_TIMEOUT); R(VK_INCOMPLETE); R(VK_SUBOPTIMAL_KHR);
    R(VK_ERROR_OUT_OF_HOST_MEMORY); R(VK_ERROR_OUT_OF_DEVICE_MEMORY);
    R(VK_ERROR_INITIALIZATION_FAILED); R(VK_ERROR_DEVICE_LOST);
    R(VK_ERROR_EXTENSION_NOT_PRESENT); R(VK_ERROR_FEATURE_NOT_PRESENT);
    R(VK_ERROR_SURFACE_LOST_KHR); R(VK_ERROR_OUT_OF_DATE_KHR);
    R(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR); R(VK_ERROR_VALIDATION_FAILED_EXT);
#undef R
    default:
        return "(other VkResult)";
    }
}

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A scenario that stops making progress fails instead of hanging. */
static void watchdog(int sig)
{
    static const char pre[] = "FAIL ";
    static const char post[] = ": no progress for 30 s (hang)\n";

    (void)sig;
    if (write(1, pre, sizeof pre - 1) < 0 || write(1, scenario, strlen(scenario)) < 0 ||
        write(1, post, sizeof post - 1) < 0)
        _exit(1);
    _exit(1);
}

/* ---- validation messages ------------------------------------------------- */

static int validation_errors;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *d,
                                                 void *user)
{
    (void)user;
    if (sev & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        validation_errors++;
        printf("# %s: validation error (type 0x%x): %s\n", scenario, type,
               d && d->pMessage ? d->pMessage : "");
    } else if ((sev & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) &&
               !(type == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT)) {
        /* (the loader's general warnings, "VK_INSTANCE_LAYERS defined", are not news) */
        printf("# %s: warning: %s\n", scenario, d && d->pMessage ? d->pMessage : "");
    }
    fflush(stdout);
    return VK_FALSE;
}

/* ---- the window and the server's side ---------------------------------- */

struct ctx {
    xcb_connection_t *c;
    xcb_screen_t *screen;
    xcb_window_t window;
    bool window_gone;
    /* a second connection that sees every CompleteNotify of the window */
    xcb_connection_t *watch;
    uint8_t present_opcode;

    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT;
    bool surface_maintenance1;
    VkPhysicalDevice pd;
    uint32_t family;
    VkDevice dev;
    VkQueue queue;
    VkSurfaceKHR surface;
    VkCommandPool pool;
    VkCommandBuffer cmd[SLOTS];
    VkFence slot_fence[SLOTS];
    VkSemaphore acquire_sem[SLOTS];
    VkFence acquire_fence;
    uint32_t frame;
    bool maintenance1;
    PFN_vkWaitForPresentKHR WaitForPresentKHR;
    PFN_vkReleaseSwapchainImagesEXT ReleaseSwapchainImagesEXT;
};

struct chain {
    VkSwapchainKHR sc;
    VkExtent2D extent;
    uint32_t n;
    VkImage images[MAX_IMAGES];
    VkSemaphore render[MAX_IMAGES];
};

/* What one present carries besides its image. */
struct present_opts {
    uint64_t id;                /* VK_KHR_present_id; 0: none */
    const VkPresentModeKHR *mode;   /* VkSwapchainPresentModeInfoEXT */
    VkFence fence;              /* VkSwapchainPresentFenceInfoEXT */
    const void *chain;          /* more for the present's pNext (one struct) */
};

static void x_sync(xcb_connection_t *c)
{
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
}

/* 0, or 77 when there is nothing to test on. */
static int x_open(struct ctx *x, uint16_t w, uint16_t h)
{
    uint32_t values[2] = { 0, 1 };
    const xcb_query_extension_reply_t *ext;

    /* a server that restarts between clients (Xwayland under weston)
     * may refuse for a moment */
    for (int tries = 0;; tries++) {
        x->c = xcb_connect(NULL, NULL);
        if (!xcb_connection_has_error(x->c) || tries == 30)
            break;
        xcb_disconnect(x->c);
        usleep(100 * 1000);
    }
    if (xcb_connection_has_error(x->c)) {
        skip("no X server on $DISPLAY");
        return 77;
    }
    x->screen = xcb_setup_roots_iterator(xcb_get_setup(x->c)).data;
    if (x->screen->root_depth != 24) {
        skip("the root window has depth %u, not 24", x->screen->root_depth);
        return 77;
    }
    x->window = xcb_generate_id(x->c);
    /* override-redirect: no window manager resizes it */
    xcb_create_window(x->c, 24, x->window, x->screen->root, 0, 0, w, h, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, x->screen->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT, values);
    xcb_map_window(x->c, x->window);
    x_sync(x->c);

    x->watch = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(x->watch))
        return 77;
    ext = xcb_get_extension_data(x->watch, &xcb_present_id);
    if (!ext || !ext->present) {
        skip("the X server has no Present");
        return 77;
    }
    x->present_opcode = ext->major_opcode;
    free(xcb_present_query_version_reply(x->watch, xcb_present_query_version(x->watch, 1, 2),
                                         NULL));
    xcb_present_select_input(x->watch, xcb_generate_id(x->watch), x->window,
                             XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    x_sync(x->watch);
    return 0;
}

/* The CompleteNotify events of kind Pixmap since the last call, in
 * arrival order: MSC, UST, serial and whether the server skipped it. */
struct completion {
    uint64_t msc, ust;
    uint32_t serial;
    bool skipped;
};

static uint32_t x_completions(struct ctx *x, struct completion *out, uint32_t max)
{
    xcb_generic_event_t *ev;
    uint32_t n = 0;

    x_sync(x->watch);
    while ((ev = xcb_poll_for_event(x->watch))) {
        xcb_present_complete_notify_event_t *ce = (void *)ev;

        if ((ev->response_type & 0x7f) == XCB_GE_GENERIC && ce->extension == x->present_opcode &&
            ce->event_type == XCB_PRESENT_COMPLETE_NOTIFY &&
            ce->kind == XCB_PRESENT_COMPLETE_KIND_PIXMAP && ce->window == x->window && n < max)
            out[n++] = (struct completion){ ce->msc, ce->ust, ce->serial,
                                            ce->mode == XCB_PRESENT_COMPLETE_MODE_SKIP };
        free(ev);
    }
    return n;
}

static void x_close(struct ctx *x)
{
    if (x->watch)
        xcb_disconnect(x->watch);
    if (x->c) {
        if (!x->window_gone)
            xcb_destroy_window(x->c, x->window);
        xcb_disconnect(x->c);
    }
}

/* ---- instance and device --------------------------------------------------- */

static bool layer_has(const char *layer, const char *name)
{
    VkExtensionProperties p[256];
    uint32_t n = 256;

    if (vkEnumerateInstanceExtensionProperties(layer, &n, p) < 0)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(p[i].extensionName, name))
            return true;
    return false;
}

/* The driver's and the implicit layers' extensions, and those of the
 * layers VK_INSTANCE_LAYERS names, which the loader lists only when asked
 * by the layer's name. */
static bool instance_has(const char *name)
{
    const char *env = getenv("VK_INSTANCE_LAYERS");
    char layers[512], *save = NULL;

    if (layer_has(NULL, name))
        return true;
    snprintf(layers, sizeof layers, "%s", env ? env : "");
    for (char *l = strtok_r(layers, ":", &save); l; l = strtok_r(NULL, ":", &save))
        if (layer_has(l, name))
            return true;
    return false;
}

static bool device_has(VkPhysicalDevice pd, const char *name)
{
    VkExtensionProperties p[512];
    uint32_t n = 512;

    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p) < 0)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(p[i].extensionName, name))
            return true;
    return false;
}

/* 0, 77 (no CPU device: skip) or 1. */
static int vk_open(struct ctx *x, bool maintenance1, bool timing)
{
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vk-client",
        .apiVersion = VK_API_VERSION_1_1,
    };
    const char *iext[8];
    const char *dext[8];
    uint32_t ni = 0, nd = 0;
    bool debug_utils = instance_has(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
        .ppEnabledExtensionNames = iext,
    };
    VkPhysicalDevice pds[8];
    uint32_t npd = 8;
    VkResult r;

    iext[ni++] = VK_KHR_SURFACE_EXTENSION_NAME;
    iext[ni++] = VK_KHR_XCB_SURFACE_EXTENSION_NAME;
    if (debug_utils) {
        iext[ni++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        ici.pNext = &mci;
    }
    if (maintenance1) {
        x->surface_maintenance1 = instance_has(VK_EXT_SURFACE_MAINTENANCE_1_EXTENSION_NAME) &&
                                  instance_has(VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME);
        if (x->surface_maintenance1) {
            iext[ni++] = VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME;
            iext[ni++] = VK_EXT_SURFACE_MAINTENANCE_1_EXTENSION_NAME;
        } else {
            note("the loader offers no VK_EXT_surface_maintenance1: its part is skipped");
        }
    }
    ici.enabledExtensionCount = ni;
    r = vkCreateInstance(&ici, NULL, &x->instance);
    if (!need(r == VK_SUCCESS, "vkCreateInstance: %s", res_name(r)))
        return 1;
    if (debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(x->instance, "vkCreateDebugUtilsMessengerEXT");

        x->DestroyDebugUtilsMessengerEXT = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(x->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (create)
            create(x->instance, &mci, NULL, &x->messenger);
    }

    if (vkEnumeratePhysicalDevices(x->instance, &npd, pds) < 0)
        npd = 0;
    for (uint32_t i = 0; i < npd && !x->pd; i++) {
        VkPhysicalDeviceProperties p;

        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
            x->pd = pds[i];
    }
    if (!x->pd) {
        skip("no CPU Vulkan device (lavapipe)");
        return 77;
    }

    {
        VkXcbSurfaceCreateInfoKHR sci = {
            .sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR,
            .connection = x->c,
            .window = x->window,
        };
        VkQueueFamilyProperties qf[16];
        uint32_t nqf = 16;
        VkBool32 supported = VK_FALSE;

        r = vkCreateXcbSurfaceKHR(x->instance, &sci, NULL, &x->surface);
        if (!need(r == VK_SUCCESS, "vkCreateXcbSurfaceKHR: %s", res_name(r)))
            return 1;
        vkGetPhysicalDeviceQueueFamilyProperties(x->pd, &nqf, qf);
        x->family = UINT32_MAX;
        for (uint32_t i = 0; i < nqf && x->family == UINT32_MAX; i++)
            if (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)
                x->family = i;
        if (!need(x->family != UINT32_MAX, "a graphics queue family"))
            return 1;
        vkGetPhysicalDeviceSurfaceSupportKHR(x->pd, x->family, x->surface, &supported);
        if (!need(supported, "the queue family can present to the surface"))
            return 1;
    }

    {
        VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT m1 = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT,
        };
        VkPhysicalDevicePresentWaitFeaturesKHR pw = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR,
            .pNext = maintenance1 ? &m1 : NULL,
        };
        VkPhysicalDevicePresentIdFeaturesKHR pid = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR,
            .pNext = &pw,
        };
        VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                         .pNext = &pid };
        float prio = 1.0f;
        VkDeviceQueueCreateInfo qci = {
            .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            .queueFamilyIndex = x->family,
            .queueCount = 1,
            .pQueuePriorities = &prio,
        };
        VkDeviceCreateInfo dci = {
            .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
            .pNext = &f2,
            .queueCreateInfoCount = 1,
            .pQueueCreateInfos = &qci,
            .ppEnabledExtensionNames = dext,
        };
        bool have_id = device_has(x->pd, VK_KHR_PRESENT_ID_EXTENSION_NAME);
        bool have_wait = device_has(x->pd, VK_KHR_PRESENT_WAIT_EXTENSION_NAME);

        need(device_has(x->pd, VK_KHR_SWAPCHAIN_EXTENSION_NAME) && have_id && have_wait,
              "the device offers VK_KHR_swapchain, VK_KHR_present_id, VK_KHR_present_wait");
        if (!have_id || !have_wait)
            return 1;
        dext[nd++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
        dext[nd++] = VK_KHR_PRESENT_ID_EXTENSION_NAME;
        dext[nd++] = VK_KHR_PRESENT_WAIT_EXTENSION_NAME;
        if (maintenance1) {
            if (!need(device_has(x->pd, VK_EXT_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME),
                       "the device offers VK_EXT_swapchain_maintenance1"))
                return 1;
            dext[nd++] = VK_EXT_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME;
        }
        if (timing) {
            if (!need(device_has(x->pd, VK_EXT_PRESENT_TIMING_EXTENSION_NAME),
                      "the device offers VK_EXT_present_timing"))
                return 1;
            dext[nd++] = VK_EXT_PRESENT_TIMING_EXTENSION_NAME;
        }
        dci.enabledExtensionCount = nd;
        vkGetPhysicalDeviceFeatures2(x->pd, &f2);
        if (!need(pid.presentId && pw.presentWait && (!maintenance1 || m1.swapchainMaintenance1),
                   "the features are there (presentId %u presentWait %u maintenance1 %u)",
                   pid.presentId, pw.presentWait, m1.swapchainMaintenance1))
            return 1;
        r = vkCreateDevice(x->pd, &dci, NULL, &x->dev);
        if (!need(r == VK_SUCCESS, "vkCreateDevice: %s", res_name(r)))
            return 1;
        x->maintenance1 = maintenance1;
    }
    vkGetDeviceQueue(x->dev, x->family, 0, &x->queue);
    x->WaitForPresentKHR =
        (PFN_vkWaitForPresentKHR)vkGetDeviceProcAddr(x->dev, "vkWaitForPresentKHR");
    x->ReleaseSwapchainImagesEXT = (PFN_vkReleaseSwapchainImagesEXT)vkGetDeviceProcAddr(
        x->dev, "vkReleaseSwapchainImagesEXT");
    if (!need(x->WaitForPresentKHR != NULL, "vkWaitForPresentKHR is there"))
        return 1;

    {
        VkCommandPoolCreateInfo pci = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
            .queueFamilyIndex = x->family,
        };
        VkCommandBufferAllocateInfo cai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = SLOTS,
        };
        VkFenceCreateInfo signalled = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                        .flags = VK_FENCE_CREATE_SIGNALED_BIT };
        VkFenceCreateInfo unsignalled = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };

        if (vkCreateCommandPool(x->dev, &pci, NULL, &x->pool) != VK_SUCCESS)
            return 1;
        cai.commandPool = x->pool;
        if (vkAllocateCommandBuffers(x->dev, &cai, x->cmd) != VK_SUCCESS)
            return 1;
        for (int i = 0; i < SLOTS; i++)
            if (vkCreateFence(x->dev, &signalled, NULL, &x->slot_fence[i]) != VK_SUCCESS ||
                vkCreateSemaphore(x->dev, &si, NULL, &x->acquire_sem[i]) != VK_SUCCESS)
                return 1;
        if (vkCreateFence(x->dev, &unsignalled, NULL, &x->acquire_fence) != VK_SUCCESS)
            return 1;
    }
    return 0;
}

static void vk_close(struct ctx *x)
{
    if (x->dev) {
        vkDeviceWaitIdle(x->dev);
        for (int i = 0; i < SLOTS; i++) {
            vkDestroyFence(x->dev, x->slot_fence[i], NULL);
            vkDestroySemaphore(x->dev, x->acquire_sem[i], NULL);
        }
        vkDestroyFence(x->dev, x->acquire_fence, NULL);
        vkDestroyCommandPool(x->dev, x->pool, NULL);
        vkDestroyDevice(x->dev, NULL);
    }
    if (x->instance) {
        if (x->surface)
            vkDestroySurfaceKHR(x->instance, x->surface, NULL);
        if (x->messenger && x->DestroyDebugUtilsMessengerEXT)
            x->DestroyDebugUtilsMessengerEXT(x->instance, x->messenger, NULL);
        vkDestroyInstance(x->instance, NULL);
    }
}

/* ---- swapchains ------------------------------------------------------------- */

/* Flags of the swapchains chain_create() makes (the timing scenario's). */
static VkSwapchainCreateFlagsKHR chain_flags;
/* The images' size when not 0x0; else the surface's currentExtent. */
static VkExtent2D chain_extent;

static VkResult chain_create(struct ctx *x, struct chain *ch, VkPresentModeKHR mode,
                             uint32_t images, VkSwapchainKHR old, const VkPresentModeKHR *modes,
                             uint32_t n_modes)
{
    VkSwapchainPresentModesCreateInfoEXT pm = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT,
        .presentModeCount = n_modes,
        .pPresentModes = modes,
    };
    VkSurfaceCapabilitiesKHR caps;
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .pNext = n_modes ? &pm : NULL,
        .flags = chain_flags,
        .surface = x->surface,
        .imageFormat = VK_FORMAT_B8G8R8A8_UNORM,
        .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
        .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
        .presentMode = mode,
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    VkSurfaceFormatKHR formats[16];
    uint32_t nf = 16;
    bool have_format = false;
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkResult r;

    memset(ch, 0, sizeof *ch);
    r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(x->pd, x->surface, &caps);
    if (r != VK_SUCCESS)
        return r;
    vkGetPhysicalDeviceSurfaceFormatsKHR(x->pd, x->surface, &nf, formats);
    for (uint32_t i = 0; i < nf; i++)
        have_format |= formats[i].format == VK_FORMAT_B8G8R8A8_UNORM;
    if (!have_format)
        return VK_ERROR_FORMAT_NOT_SUPPORTED;
    if (images < caps.minImageCount)
        images = caps.minImageCount;
    ci.minImageCount = images;
    ci.imageExtent = chain_extent.width ? chain_extent : caps.currentExtent;
    r = vkCreateSwapchainKHR(x->dev, &ci, NULL, &ch->sc);
    if (r != VK_SUCCESS)
        return r;
    ch->extent = ci.imageExtent;
    ch->n = MAX_IMAGES;
    r = vkGetSwapchainImagesKHR(x->dev, ch->sc, &ch->n, ch->images);
    if (r != VK_SUCCESS)
        return r;
    for (uint32_t i = 0; i < ch->n; i++)
        if ((r = vkCreateSemaphore(x->dev, &si, NULL, &ch->render[i])) != VK_SUCCESS)
            return r;
    return VK_SUCCESS;
}

static void chain_destroy(struct ctx *x, struct chain *ch)
{
    vkDeviceWaitIdle(x->dev);
    for (uint32_t i = 0; i < ch->n; i++)
        vkDestroySemaphore(x->dev, ch->render[i], NULL);
    vkDestroySwapchainKHR(x->dev, ch->sc, NULL);
    memset(ch, 0, sizeof *ch);
}

/* Clears image `index` to a colour of frame `n`, waiting for `wait` (the
 * acquire semaphore, or none when the acquire's fence was waited for),
 * and presents it.  Returns vkQueuePresentKHR's result. */
static VkResult render_present(struct ctx *x, struct chain *ch, uint32_t index, VkSemaphore wait,
                               uint32_t n, const struct present_opts *o)
{
    uint32_t slot = x->frame++ % SLOTS;
    VkCommandBuffer cmd = x->cmd[slot];
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    VkImageMemoryBarrier to_dst = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = 0,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = ch->images[index],
        .subresourceRange = range,
    };
    VkImageMemoryBarrier to_present = to_dst;
    VkClearColorValue colour = { .float32 = { (n % 7) / 7.0f, (n % 11) / 11.0f,
                                              (n % 13) / 13.0f, 1.0f } };
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = wait ? 1 : 0,
        .pWaitSemaphores = &wait,
        .pWaitDstStageMask = &stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
        .signalSemaphoreCount = 1,
        .pSignalSemaphores = &ch->render[index],
    };
    VkSwapchainPresentFenceInfoEXT pf = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT,
        .swapchainCount = 1,
        .pFences = &o->fence,
    };
    VkSwapchainPresentModeInfoEXT pm = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODE_INFO_EXT,
        .swapchainCount = 1,
        .pPresentModes = o->mode,
    };
    VkPresentIdKHR pid = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_ID_KHR,
        .swapchainCount = 1,
        .pPresentIds = &o->id,
    };
    VkPresentInfoKHR pi = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &ch->render[index],
        .swapchainCount = 1,
        .pSwapchains = &ch->sc,
        .pImageIndices = &index,
    };
    const void **tail = &pi.pNext;
    VkResult r;

    to_present.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_present.dstAccessMask = 0;
    to_present.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_present.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;

    vkWaitForFences(x->dev, 1, &x->slot_fence[slot], VK_TRUE, UINT64_MAX);
    vkResetFences(x->dev, 1, &x->slot_fence[slot]);
    vkResetCommandBuffer(cmd, 0);
    vkBeginCommandBuffer(cmd, &bi);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, NULL, 0, NULL, 1, &to_dst);
    vkCmdClearColorImage(cmd, ch->images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1,
                         &range);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL, 0, NULL, 1,
                         &to_present);
    vkEndCommandBuffer(cmd);
    r = vkQueueSubmit(x->queue, 1, &submit, x->slot_fence[slot]);
    if (r != VK_SUCCESS)
        return r;
    if (o->id) {
        *tail = &pid;
        tail = (const void **)&pid.pNext;
    }
    if (o->mode) {
        *tail = &pm;
        tail = (const void **)&pm.pNext;
    }
    if (o->fence) {
        *tail = &pf;
        tail = (const void **)&pf.pNext;
    }
    if (o->chain)
        *tail = o->chain;
    return vkQueuePresentKHR(x->queue, &pi);
}

/* One frame: acquire (timeout), clear, present.  *acquired gets the
 * acquire's result; the present's is returned (the acquire's when it
 * gave no image). */
static VkResult frame(struct ctx *x, struct chain *ch, uint32_t n, const struct present_opts *o,
                      VkResult *acquired)
{
    VkSemaphore sem = x->acquire_sem[x->frame % SLOTS];
    uint32_t index;
    VkResult r;

    /* the semaphore's last wait is in the submission that slot's fence
     * covers: wait for it before the acquire signals the semaphore again */
    vkWaitForFences(x->dev, 1, &x->slot_fence[x->frame % SLOTS], VK_TRUE, UINT64_MAX);
    r = vkAcquireNextImageKHR(x->dev, ch->sc, 2000 * MS, sem, VK_NULL_HANDLE, &index);
    if (acquired)
        *acquired = r;
    if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR)
        return r;
    return render_present(x, ch, index, sem, n, o);
}

/* An acquire that signals the fence instead, waited for: the image is
 * the application's at once, for release or rendering without a wait. */
static VkResult acquire_fenced(struct ctx *x, struct chain *ch, uint64_t timeout,
                               uint32_t *index)
{
    VkResult r = vkAcquireNextImageKHR(x->dev, ch->sc, timeout, VK_NULL_HANDLE,
                                       x->acquire_fence, index);

    if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) {
        vkWaitForFences(x->dev, 1, &x->acquire_fence, VK_TRUE, UINT64_MAX);
        vkResetFences(x->dev, 1, &x->acquire_fence);
    }
    return r;
}

/* ---- the scenarios ----------------------------------------------------------- */

/* FIFO: 120 frames with ids 1..120, each waited for once the next is
 * queued; the run can never be faster than the refresh.  The server's
 * side, from its CompleteNotify events: every presentation accounted for,
 * shown in order, over at least 110 refreshes.  (A server that is itself
 * late, as Xvfb on a busy machine, executes two frames whose target MSCs
 * it missed at one refresh, or skips the first: that is not counted
 * against the swapchain, whose targets are one refresh apart.) */
static void run_fifo(struct ctx *x)
{
    enum { N = 120 };
    static struct completion cs[2 * N];
    double done[N + 1], start;
    struct chain ch;
    uint32_t bad_present = 0, bad_wait = 0, nc, shown = 0, skipped = 0, same_msc = 0;
    bool in_order = true;
    const struct completion *first = NULL, *last = NULL;
    VkResult r;

    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "FIFO swapchain: %s", res_name(r)))
        return;
    x_completions(x, cs, 2 * N);
    start = now_ms();
    for (uint32_t i = 1; i <= N; i++) {
        struct present_opts o = { .id = i };

        r = frame(x, &ch, i, &o, NULL);
        if (r != VK_SUCCESS) {
            if (!bad_present++)
                note("frame %u: %s", i, res_name(r));
            continue;
        }
        if (i > 1) {
            r = x->WaitForPresentKHR(x->dev, ch.sc, i - 1, 2000 * MS);
            done[i - 1] = now_ms();
            if (r != VK_SUCCESS && !bad_wait++)
                note("wait for id %u: %s", i - 1, res_name(r));
        }
    }
    r = x->WaitForPresentKHR(x->dev, ch.sc, N, 2000 * MS);
    done[N] = now_ms();
    if (r != VK_SUCCESS)
        bad_wait++;
    check(bad_present == 0, "120 FIFO presents return VK_SUCCESS (%u did not)", bad_present);
    check(bad_wait == 0, "vkWaitForPresentKHR returns VK_SUCCESS for ids 1..120 (%u did not)",
          bad_wait);
    note("id 1 shown %.1f ms after the first present; id 120 %.1f ms after id 1 (%.2f ms a frame)",
         done[1] - start, done[N] - done[1], (done[N] - done[1]) / (N - 1));
    check(done[N] - start >= 110 * 15.0,
          "paced: 120 FIFO frames take at least 110 x 15 ms (%.0f ms)", done[N] - start);

    nc = x_completions(x, cs, 2 * N);
    for (uint32_t i = 0; i < nc; i++) {
        if (cs[i].skipped) {
            skipped++;
            continue;
        }
        if (last && (cs[i].serial <= last->serial || cs[i].msc < last->msc)) {
            if (in_order)
                note("serial %u shown at MSC %llu after serial %u at %llu", cs[i].serial,
                     (unsigned long long)cs[i].msc, last->serial,
                     (unsigned long long)last->msc);
            in_order = false;
        }
        if (last && cs[i].msc == last->msc)
            same_msc++;
        if (!first)
            first = &cs[i];
        last = &cs[i];
        shown++;
    }
    check(nc == N, "the server completed all 120 presentations (%u: %u shown, %u skipped)", nc,
          shown, skipped);
    check(in_order, "the server showed them in order");
    if (first && last) {
        note("server: MSC %llu..%llu, %.2f ms a refresh; %u frames at the MSC of the one "
             "before, %u skipped (the server late)", (unsigned long long)first->msc,
             (unsigned long long)last->msc,
             last->msc > first->msc ? (last->ust - first->ust) / 1e3 / (last->msc - first->msc)
                                    : 0.0, same_msc, skipped);
        check(last->msc - first->msc >= 110,
              "the server's MSC advanced at least 110 refreshes over them (%llu)",
              (unsigned long long)(last->msc - first->msc));
    }
    chain_destroy(x, &ch);
}

/* MAILBOX: 240 frames, never waiting for the screen: faster than the
 * refresh, and every id completes (shown or replaced). */
static void run_mailbox(struct ctx *x)
{
    enum { N = 240 };
    static struct completion cs[2 * N];
    struct chain ch;
    uint32_t bad = 0, skipped = 0, nc;
    double start, elapsed;
    VkResult r;

    r = chain_create(x, &ch, VK_PRESENT_MODE_MAILBOX_KHR, 4, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "MAILBOX swapchain: %s", res_name(r)))
        return;
    x_completions(x, cs, 2 * N);
    start = now_ms();
    for (uint32_t i = 1; i <= N; i++) {
        struct present_opts o = { .id = i };

        r = frame(x, &ch, i, &o, NULL);
        if (r != VK_SUCCESS && !bad++)
            note("frame %u: %s", i, res_name(r));
    }
    elapsed = now_ms() - start;
    check(bad == 0, "240 MAILBOX presents return VK_SUCCESS (%u did not)", bad);
    r = x->WaitForPresentKHR(x->dev, ch.sc, N, 2000 * MS);
    check(r == VK_SUCCESS, "vkWaitForPresentKHR(240): %s", res_name(r));
    nc = x_completions(x, cs, 2 * N);
    for (uint32_t i = 0; i < nc; i++)
        skipped += cs[i].skipped;
    nc -= skipped;
    note("240 frames presented in %.0f ms (%.0f frames a second); the server showed %u, "
         "skipped %u", elapsed, N * 1e3 / elapsed, nc, skipped);
    check(elapsed < N * REFRESH_MS * 0.8,
          "not paced by the refresh: 240 frames in less than 240 x 16.7 ms x 0.8 (%.0f ms)",
          elapsed);
    chain_destroy(x, &ch);
}

static void run_immediate(struct ctx *x)
{
    enum { N = 120 };
    struct chain ch;
    uint32_t bad = 0;
    double start;
    VkResult r;

    r = chain_create(x, &ch, VK_PRESENT_MODE_IMMEDIATE_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "IMMEDIATE swapchain: %s", res_name(r)))
        return;
    start = now_ms();
    for (uint32_t i = 1; i <= N; i++) {
        struct present_opts o = { .id = i };

        r = frame(x, &ch, i, &o, NULL);
        if (r != VK_SUCCESS && !bad++)
            note("frame %u: %s", i, res_name(r));
    }
    check(bad == 0, "120 IMMEDIATE presents return VK_SUCCESS (%u did not)", bad);
    r = x->WaitForPresentKHR(x->dev, ch.sc, N, 2000 * MS);
    check(r == VK_SUCCESS, "vkWaitForPresentKHR(120): %s", res_name(r));
    note("120 frames in %.0f ms", now_ms() - start);
    chain_destroy(x, &ch);
}

/* A resized window: SUBOPTIMAL first, then OUT_OF_DATE from the acquire;
 * a new swapchain at the new currentExtent (oldSwapchain) presents. */
static void run_resize(struct ctx *x)
{
    uint32_t size[2] = { 160, 120 };
    struct chain ch, next;
    char seq[512] = "";
    size_t len = 0;
    int suboptimal_at = -1, out_of_date_at = -1, other = 0, calls = 0;
    uint32_t n = 1, bad = 0;
    VkSurfaceCapabilitiesKHR caps;
    VkResult r, acq;

    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "FIFO swapchain: %s", res_name(r)))
        return;
    for (; n <= 10; n++) {
        struct present_opts o = { .id = n };

        if (frame(x, &ch, n, &o, NULL) != VK_SUCCESS)
            bad++;
    }
    check(bad == 0, "10 frames before the resize");
    xcb_configure_window(x->c, x->window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                         size);
    x_sync(x->c);
    /* the swapchain hears of it through the server's ConfigureNotify:
     * within a few frames */
    for (; n <= 130 && out_of_date_at < 0; n++) {
        struct present_opts o = { .id = n };

        r = frame(x, &ch, n, &o, &acq);
        /* the acquire's result, then the present's when there was one */
        for (int k = 0; k < 2; k++) {
            VkResult v = k ? r : acq;

            if (k && acq != VK_SUCCESS && acq != VK_SUBOPTIMAL_KHR)
                break;
            calls++;
            if (len < sizeof seq - 40)
                len += snprintf(seq + len, sizeof seq - len, " %s:%s", k ? "P" : "A",
                                v == VK_SUCCESS ? "ok" : v == VK_SUBOPTIMAL_KHR ? "SUB"
                                : v == VK_ERROR_OUT_OF_DATE_KHR ? "OOD" : res_name(v));
            if (v == VK_SUBOPTIMAL_KHR && suboptimal_at < 0)
                suboptimal_at = calls;
            else if (v == VK_ERROR_OUT_OF_DATE_KHR && out_of_date_at < 0)
                out_of_date_at = calls;
            else if (v != VK_SUCCESS && v != VK_SUBOPTIMAL_KHR)
                other++;
        }
    }
    note("after the resize:%s", seq);
    check(suboptimal_at > 0, "VK_SUBOPTIMAL_KHR after the resize");
    check(out_of_date_at > suboptimal_at && suboptimal_at > 0,
          "then VK_ERROR_OUT_OF_DATE_KHR (call %d, SUBOPTIMAL at %d)", out_of_date_at,
          suboptimal_at);
    check(out_of_date_at > 0 && out_of_date_at - suboptimal_at <= 4,
          "OUT_OF_DATE follows SUBOPTIMAL within two frames");
    check(acq == VK_ERROR_OUT_OF_DATE_KHR, "OUT_OF_DATE comes from the acquire");
    check(other == 0, "no other error (%d)", other);

    r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(x->pd, x->surface, &caps);
    check(r == VK_SUCCESS && caps.currentExtent.width == 160 && caps.currentExtent.height == 120,
          "currentExtent is the new size (%ux%u)", caps.currentExtent.width,
          caps.currentExtent.height);
    r = chain_create(x, &next, VK_PRESENT_MODE_FIFO_KHR, 3, ch.sc, NULL, 0);
    chain_destroy(x, &ch);
    if (!check(r == VK_SUCCESS && next.extent.width == 160,
               "a new swapchain with oldSwapchain at %ux%u: %s", next.extent.width,
               next.extent.height, res_name(r)))
        return;
    bad = 0;
    for (uint32_t i = 1; i <= 20; i++) {
        struct present_opts o = { .id = i };

        r = frame(x, &next, i, &o, NULL);
        if (r != VK_SUCCESS && !bad++)
            note("new swapchain, frame %u: %s", i, res_name(r));
    }
    check(bad == 0, "the new swapchain presents 20 frames with VK_SUCCESS");
    r = x->WaitForPresentKHR(x->dev, next.sc, 20, 2000 * MS);
    check(r == VK_SUCCESS, "and its id 20 is shown: %s", res_name(r));
    chain_destroy(x, &next);
}

/* The window destroyed under a running swapchain: SURFACE_LOST, never
 * DEVICE_LOST, within a few seconds. */
static void run_destroyed(struct ctx *x)
{
    struct chain ch;
    uint32_t bad = 0, n = 1;
    VkResult r = VK_SUCCESS, acq = VK_SUCCESS, again;
    VkSurfaceCapabilitiesKHR caps;
    double start, took;
    uint32_t index;

    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "FIFO swapchain: %s", res_name(r)))
        return;
    for (; n <= 10; n++) {
        struct present_opts o = { .id = n };

        if (frame(x, &ch, n, &o, NULL) != VK_SUCCESS)
            bad++;
    }
    check(bad == 0, "10 frames before the window goes");
    xcb_destroy_window(x->c, x->window);
    x->window_gone = true;
    x_sync(x->c);
    start = now_ms();
    for (; n <= 200; n++) {
        struct present_opts o = { .id = n };

        r = frame(x, &ch, n, &o, &acq);
        if (r < 0 || acq < 0)
            break;
        if (now_ms() - start > 5000)
            break;
    }
    took = now_ms() - start;
    note("after the window went: %u more frames, then acquire %s, present %s, %.0f ms",
         n - 11, res_name(acq), acq < 0 ? "-" : res_name(r), took);
    check(r == VK_ERROR_SURFACE_LOST_KHR,
          "acquire or present returns VK_ERROR_SURFACE_LOST_KHR (%s)", res_name(r));
    check(r != VK_ERROR_DEVICE_LOST && acq != VK_ERROR_DEVICE_LOST, "never VK_ERROR_DEVICE_LOST");
    check(took < 5000, "within 5 s (%.0f ms)", took);
    start = now_ms();
    again = vkAcquireNextImageKHR(x->dev, ch.sc, 1000 * MS, VK_NULL_HANDLE, x->acquire_fence,
                                  &index);
    if (again == VK_SUCCESS || again == VK_SUBOPTIMAL_KHR)
        vkWaitForFences(x->dev, 1, &x->acquire_fence, VK_TRUE, UINT64_MAX);
    check(again == VK_ERROR_SURFACE_LOST_KHR, "the next acquire says so too (%s, %.0f ms)",
          res_name(again), now_ms() - start);
    r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(x->pd, x->surface, &caps);
    check(r == VK_ERROR_SURFACE_LOST_KHR, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR: %s",
          res_name(r));
    start = now_ms();
    chain_destroy(x, &ch);
    check(now_ms() - start < 3000, "the swapchain is destroyed without a hang (%.0f ms)",
          now_ms() - start);
}

/* A swapchain handed over to a new one (same size) mid-run: an image
 * acquired from the old one still presents, the new one goes on. */
static void run_oldswapchain(struct ctx *x)
{
    struct chain a, b;
    uint32_t bad = 0, index;
    struct present_opts o = { .id = 0 };
    VkResult r;

    r = chain_create(x, &a, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "FIFO swapchain: %s", res_name(r)))
        return;
    for (uint32_t i = 1; i <= 30; i++) {
        o.id = i;
        r = frame(x, &a, i, &o, NULL);
        if (r != VK_SUCCESS && !bad++)
            note("old swapchain, frame %u: %s", i, res_name(r));
    }
    check(bad == 0, "30 frames on the first swapchain");
    r = acquire_fenced(x, &a, 2000 * MS, &index);
    check(r == VK_SUCCESS, "an image acquired before the handoff: %s", res_name(r));
    {
        VkResult rb = chain_create(x, &b, VK_PRESENT_MODE_FIFO_KHR, 3, a.sc, NULL, 0);

        if (!check(rb == VK_SUCCESS, "a new swapchain with oldSwapchain: %s", res_name(rb))) {
            chain_destroy(x, &a);
            return;
        }
    }
    if (r == VK_SUCCESS) {
        o.id = 31;
        r = render_present(x, &a, index, VK_NULL_HANDLE, 31, &o);
        check(r == VK_SUCCESS || r == VK_ERROR_OUT_OF_DATE_KHR,
              "the image acquired from the retired swapchain is presented (%s)", res_name(r));
    }
    chain_destroy(x, &a);
    bad = 0;
    for (uint32_t i = 1; i <= 30; i++) {
        o.id = i;
        r = frame(x, &b, i, &o, NULL);
        if (r != VK_SUCCESS && !bad++)
            note("new swapchain, frame %u: %s", i, res_name(r));
    }
    check(bad == 0, "30 frames on the new swapchain, all VK_SUCCESS");
    r = x->WaitForPresentKHR(x->dev, b.sc, 30, 2000 * MS);
    check(r == VK_SUCCESS, "its id 30 is shown: %s", res_name(r));
    chain_destroy(x, &b);
}

/* vkWaitForPresentKHR: never before the frame is shown; a timeout of 0
 * or 50 ms on an id not presented yet is VK_TIMEOUT, not before 50 ms. */
static void run_presentwait(struct ctx *x)
{
    struct chain ch;
    struct present_opts o = { .id = 0 };
    uint32_t bad = 0;
    double t, t6;
    VkResult r;

    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS, "FIFO swapchain: %s", res_name(r)))
        return;
    for (uint32_t i = 1; i <= 5; i++) {
        o.id = i;
        if (frame(x, &ch, i, &o, NULL) != VK_SUCCESS ||
            x->WaitForPresentKHR(x->dev, ch.sc, i, 2000 * MS) != VK_SUCCESS)
            bad++;
    }
    check(bad == 0, "ids 1..5 presented and waited for");
    r = x->WaitForPresentKHR(x->dev, ch.sc, 5, 0);
    check(r == VK_SUCCESS, "timeout 0 on a shown id: VK_SUCCESS (%s)", res_name(r));
    r = x->WaitForPresentKHR(x->dev, ch.sc, 6, 0);
    check(r == VK_TIMEOUT, "timeout 0 on id 6, not presented yet: VK_TIMEOUT (%s)", res_name(r));
    t = now_ms();
    r = x->WaitForPresentKHR(x->dev, ch.sc, 6, 50 * MS);
    t = now_ms() - t;
    check(r == VK_TIMEOUT, "timeout 50 ms on id 6, not presented yet: VK_TIMEOUT (%s)",
          res_name(r));
    check(t >= 49.0 && t < 2000.0, "... after 50 ms, not before (%.1f ms)", t);

    /* 6 and 7 back to back: 7 is shown a refresh after 6 at the earliest,
     * and 6 at the next refresh after its present at the earliest */
    t6 = now_ms();
    o.id = 6;
    r = frame(x, &ch, 6, &o, NULL);
    o.id = 7;
    if (r == VK_SUCCESS)
        r = frame(x, &ch, 7, &o, NULL);
    check(r == VK_SUCCESS, "ids 6 and 7 presented back to back");
    r = x->WaitForPresentKHR(x->dev, ch.sc, 7, 2000 * MS);
    t = now_ms() - t6;
    check(r == VK_SUCCESS, "vkWaitForPresentKHR(7): %s", res_name(r));
    check(t >= 15.0, "it returned only once 7 was shown, a refresh after 6 (%.1f ms after "
          "presenting 6)", t);
    r = x->WaitForPresentKHR(x->dev, ch.sc, 6, 0);
    check(r == VK_SUCCESS, "id 6 (shown before 7) is done: %s", res_name(r));
    t = now_ms();
    r = x->WaitForPresentKHR(x->dev, ch.sc, 1000, 50 * MS);
    t = now_ms() - t;
    check(r == VK_TIMEOUT && t >= 49.0 && t < 2000.0,
          "an id never presented: VK_TIMEOUT after 50 ms (%s, %.1f ms)", res_name(r), t);
    chain_destroy(x, &ch);
}

/* VK_EXT_swapchain_maintenance1: FIFO -> MAILBOX per present, a released
 * image, a present fence. */
static void run_maintenance1(struct ctx *x)
{
    static const VkPresentModeKHR modes[2] = { VK_PRESENT_MODE_FIFO_KHR,
                                               VK_PRESENT_MODE_MAILBOX_KHR };
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    struct present_opts o = { .id = 0 };
    struct chain ch;
    uint32_t bad = 0, index, again;
    double t;
    VkFence fence;
    VkResult r;

    if (x->surface_maintenance1) {
        PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR caps2 =
            (PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR)vkGetInstanceProcAddr(
                x->instance, "vkGetPhysicalDeviceSurfaceCapabilities2KHR");
        VkPresentModeKHR compat[8];
        VkSurfacePresentModeCompatibilityEXT pmc = {
            .sType = VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT,
            .presentModeCount = 8,
            .pPresentModes = compat,
        };
        VkSurfaceCapabilities2KHR c2 = { .sType = VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR,
                                         .pNext = &pmc };
        VkSurfacePresentModeEXT spm = { .sType = VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_EXT,
                                        .presentMode = VK_PRESENT_MODE_FIFO_KHR };
        VkPhysicalDeviceSurfaceInfo2KHR si = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR,
            .pNext = &spm,
            .surface = x->surface,
        };
        bool mailbox = false;

        r = caps2 ? caps2(x->pd, &si, &c2) : VK_ERROR_EXTENSION_NOT_PRESENT;
        for (uint32_t i = 0; r == VK_SUCCESS && i < pmc.presentModeCount; i++)
            mailbox |= compat[i] == VK_PRESENT_MODE_MAILBOX_KHR;
        check(r == VK_SUCCESS && mailbox,
              "VK_EXT_surface_maintenance1: MAILBOX is compatible with FIFO (%s, %u modes)",
              res_name(r), pmc.presentModeCount);
    } else {
        skip("VK_EXT_surface_maintenance1's compatible modes # the loader does not offer it");
    }

    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 4, VK_NULL_HANDLE, modes, 2);
    if (!check(r == VK_SUCCESS, "FIFO swapchain that may switch to MAILBOX: %s", res_name(r)))
        return;
    t = now_ms();
    for (uint32_t i = 1; i <= 20; i++) {
        o.id = i;
        if (frame(x, &ch, i, &o, NULL) != VK_SUCCESS)
            bad++;
    }
    r = x->WaitForPresentKHR(x->dev, ch.sc, 20, 2000 * MS);
    t = now_ms() - t;
    check(bad == 0 && r == VK_SUCCESS, "20 FIFO frames (%.0f ms)", t);
    check(t >= 18 * 15.0, "FIFO before the switch is paced (%.0f ms >= 270)", t);
    o.mode = &modes[1];
    t = now_ms();
    for (uint32_t i = 21; i <= 80; i++) {
        o.id = i;
        r = frame(x, &ch, i, &o, NULL);
        if (r != VK_SUCCESS && !bad++)
            note("MAILBOX frame %u: %s", i, res_name(r));
    }
    t = now_ms() - t;
    check(bad == 0, "60 frames switched to MAILBOX with VkSwapchainPresentModeInfoEXT");
    r = x->WaitForPresentKHR(x->dev, ch.sc, 80, 2000 * MS);
    check(r == VK_SUCCESS, "id 80 completes: %s", res_name(r));
    note("60 MAILBOX frames in %.0f ms (60 refreshes: %.0f ms)", t, 60 * REFRESH_MS);

    r = acquire_fenced(x, &ch, 2000 * MS, &index);
    if (check(r == VK_SUCCESS, "an image acquired: %s", res_name(r))) {
        VkReleaseSwapchainImagesInfoEXT ri = {
            .sType = VK_STRUCTURE_TYPE_RELEASE_SWAPCHAIN_IMAGES_INFO_EXT,
            .swapchain = ch.sc,
            .imageIndexCount = 1,
            .pImageIndices = &index,
        };

        r = x->ReleaseSwapchainImagesEXT ? x->ReleaseSwapchainImagesEXT(x->dev, &ri)
                                         : VK_ERROR_EXTENSION_NOT_PRESENT;
        check(r == VK_SUCCESS, "vkReleaseSwapchainImagesEXT: %s", res_name(r));
        r = acquire_fenced(x, &ch, 2000 * MS, &again);
        check(r == VK_SUCCESS, "acquired again after the release: %s (image %u, released %u)",
              res_name(r), again, index);
        if (r == VK_SUCCESS) {
            vkCreateFence(x->dev, &fci, NULL, &fence);
            o.id = 81;
            o.fence = fence;
            r = render_present(x, &ch, again, VK_NULL_HANDLE, 81, &o);
            check(r == VK_SUCCESS, "presented with a VkSwapchainPresentFenceInfoEXT: %s",
                  res_name(r));
            r = vkWaitForFences(x->dev, 1, &fence, VK_TRUE, 2000 * MS);
            check(r == VK_SUCCESS, "the present fence is signalled: %s", res_name(r));
            vkDestroyFence(x->dev, fence, NULL);
        }
    }
    chain_destroy(x, &ch);
}

/* Acquire with timeout 0: an idle image when there is one, NOT_READY only
 * when none is. */
/* Images of another size than the window (a program that keeps its own
 * size when a window manager resized the window first, as vkd3d's demos
 * do): any extent from minImageExtent to maxImageExtent is allowed, the
 * server shows the image at the window's corner, and the swapchain stays
 * optimal until the window itself changes: SUCCESS, not SUBOPTIMAL; then
 * SUBOPTIMAL and OUT_OF_DATE, as for a swapchain of the window's size. */
static void run_othersize(struct ctx *x)
{
    VkSurfaceCapabilitiesKHR caps;
    struct chain ch;
    uint32_t bad = 0, suboptimal = 0;
    VkResult r, acq;

    r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(x->pd, x->surface, &caps);
    if (!check(r == VK_SUCCESS, "capabilities: %s", res_name(r)))
        return;
    check(caps.minImageExtent.width <= caps.currentExtent.width &&
              caps.minImageExtent.height <= caps.currentExtent.height &&
              caps.currentExtent.width <= caps.maxImageExtent.width &&
              caps.currentExtent.height <= caps.maxImageExtent.height,
          "minImageExtent %ux%u <= currentExtent %ux%u <= maxImageExtent %ux%u",
          caps.minImageExtent.width, caps.minImageExtent.height, caps.currentExtent.width,
          caps.currentExtent.height, caps.maxImageExtent.width, caps.maxImageExtent.height);
    check(caps.minImageExtent.width < caps.currentExtent.width / 2 &&
              caps.maxImageExtent.width > caps.currentExtent.width,
          "sizes other than the window's are allowed");
    chain_extent = (VkExtent2D){ caps.currentExtent.width / 2, caps.currentExtent.height / 2 };
    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    chain_extent = (VkExtent2D){ 0, 0 };
    if (!check(r == VK_SUCCESS, "a FIFO swapchain of %ux%u in a %ux%u window: %s",
               caps.currentExtent.width / 2, caps.currentExtent.height / 2,
               caps.currentExtent.width, caps.currentExtent.height, res_name(r)))
        return;
    for (uint32_t n = 1; n <= 30; n++) {
        struct present_opts o = { .id = n };

        r = frame(x, &ch, n, &o, &acq);
        if (r == VK_SUBOPTIMAL_KHR || acq == VK_SUBOPTIMAL_KHR)
            suboptimal++;
        else if (r != VK_SUCCESS && !bad++)
            note("frame %u: %s (acquire %s)", n, res_name(r), res_name(acq));
    }
    check(bad == 0 && suboptimal == 0,
          "30 frames: every acquire and present VK_SUCCESS (%u SUBOPTIMAL, %u failed)",
          suboptimal, bad);
    r = x->WaitForPresentKHR(x->dev, ch.sc, 30, 2000 * MS);
    check(r == VK_SUCCESS, "vkWaitForPresentKHR(30): %s", res_name(r));
    /* the window itself changes now: SUBOPTIMAL, then OUT_OF_DATE */
    {
        uint32_t size[2] = { caps.currentExtent.width + 16, caps.currentExtent.height + 8 };
        bool suboptimal_seen = false, out_of_date_seen = false;

        xcb_configure_window(x->c, x->window,
                             XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
        x_sync(x->c);
        for (uint32_t n = 31; n <= 150 && !out_of_date_seen; n++) {
            struct present_opts o = { .id = n };

            r = frame(x, &ch, n, &o, &acq);
            suboptimal_seen |= r == VK_SUBOPTIMAL_KHR || acq == VK_SUBOPTIMAL_KHR;
            out_of_date_seen |= acq == VK_ERROR_OUT_OF_DATE_KHR;
        }
        check(suboptimal_seen && out_of_date_seen,
              "after the window is resized: SUBOPTIMAL (%s), then OUT_OF_DATE (%s)",
              suboptimal_seen ? "seen" : "not seen", out_of_date_seen ? "seen" : "not seen");
    }
    chain_destroy(x, &ch);
}

static void run_acquire0(struct ctx *x)
{
    struct chain ch;
    struct present_opts o = { .id = 0 };
    uint32_t held[MAX_IMAGES], n_held = 0, index, bad = 0;
    double t;
    VkResult r;

    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    if (!check(r == VK_SUCCESS && ch.n == 3, "FIFO swapchain of 3 images: %s, %u images",
               res_name(r), ch.n))
        return;
    for (uint32_t i = 1; i <= 2; i++) {
        o.id = i;
        if (frame(x, &ch, i, &o, NULL) != VK_SUCCESS)
            bad++;
    }
    check(bad == 0, "2 frames presented at once");
    r = acquire_fenced(x, &ch, 0, &index);
    check(r == VK_SUCCESS, "acquire with timeout 0 returns the idle third image (%s)",
          res_name(r));
    if (r == VK_SUCCESS)
        held[n_held++] = index;
    /* the other two come back once the server is done with them */
    while (n_held < 3) {
        r = acquire_fenced(x, &ch, 2000 * MS, &index);
        if (r != VK_SUCCESS)
            break;
        held[n_held++] = index;
    }
    check(n_held == 3, "all 3 images acquired without presenting (%u; %s)", n_held,
          res_name(r));
    r = acquire_fenced(x, &ch, 0, &index);
    check(r == VK_NOT_READY, "with all of them held, timeout 0 gives VK_NOT_READY (%s)",
          res_name(r));
    t = now_ms();
    r = acquire_fenced(x, &ch, 50 * MS, &index);
    t = now_ms() - t;
    check(r == VK_TIMEOUT && t >= 49.0 && t < 2000.0,
          "and a 50 ms timeout VK_TIMEOUT after 50 ms (%s, %.1f ms)", res_name(r), t);
    bad = 0;
    for (uint32_t i = 0; i < n_held; i++) {
        o.id = 3 + i;
        if (render_present(x, &ch, held[i], VK_NULL_HANDLE, 3 + i, &o) != VK_SUCCESS)
            bad++;
    }
    check(bad == 0, "the held images are presented");
    r = acquire_fenced(x, &ch, 2000 * MS, &index);
    check(r == VK_SUCCESS, "and an image comes back: %s", res_name(r));
    if (r == VK_SUCCESS) {
        o.id = 10;
        render_present(x, &ch, index, VK_NULL_HANDLE, 10, &o);
    }
    chain_destroy(x, &ch);
}

/* Not in "all": a deliberate mistake (a VkFenceCreateInfo with the wrong
 * sType), so that the wrapper sees the messenger count what the
 * validation layer reports. */
static void run_provoke(struct ctx *x)
{
    VkFenceCreateInfo wrong = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkFence fence = VK_NULL_HANDLE;

    if (vkCreateFence(x->dev, &wrong, NULL, &fence) == VK_SUCCESS)
        vkDestroyFence(x->dev, fence, NULL);
}

/* ---- main ---------------------------------------------------------------- */

/* VK_EXT_present_timing: the swapchain's refresh and time domains; 12
 * FIFO frames asking for every stage, one of them aimed at an absolute
 * time 100 ms ahead and one at 3 refreshes after the frame before; past
 * timings complete, in order, each stage at or after the one before, and
 * never shown before its target; a full results queue refuses a present.
 * The validation layer of these headers predates the extension: placed
 * above the layer it would call its structs unknown, so the scenario
 * runs only where it is not above. */
static void run_timing(struct ctx *x)
{
    const char *layers = getenv("VK_INSTANCE_LAYERS");
    PFN_vkSetSwapchainPresentTimingQueueSizeEXT set_size;
    PFN_vkGetSwapchainTimingPropertiesEXT get_props;
    PFN_vkGetSwapchainTimeDomainPropertiesEXT get_domains;
    PFN_vkGetPastPresentationTimingEXT get_past;
    VkTimeDomainKHR domains[4];
    uint64_t ids[4], counter = 0, refresh = 0, target_abs = 0;
    VkSwapchainTimeDomainPropertiesEXT dp = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_TIME_DOMAIN_PROPERTIES_EXT,
        .timeDomainCount = 4, .pTimeDomains = domains, .pTimeDomainIds = ids,
    };
    VkSwapchainTimingPropertiesEXT tp = { .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_TIMING_PROPERTIES_EXT };
    VkPastPresentationTimingEXT past[16];
    VkPresentStageTimeEXT stages[16][3];
    VkPastPresentationTimingPropertiesEXT pp = {
        .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_PROPERTIES_EXT,
    };
    struct chain ch;
    uint64_t local_id = UINT64_MAX;
    VkResult r;

    if (layers && !strncmp(layers, "VK_LAYER_KHRONOS_validation", 27)) {
        skip("the validation layer above the layer does not know VK_EXT_present_timing");
        return;
    }
    set_size = (PFN_vkSetSwapchainPresentTimingQueueSizeEXT)vkGetDeviceProcAddr(
        x->dev, "vkSetSwapchainPresentTimingQueueSizeEXT");
    get_props = (PFN_vkGetSwapchainTimingPropertiesEXT)vkGetDeviceProcAddr(
        x->dev, "vkGetSwapchainTimingPropertiesEXT");
    get_domains = (PFN_vkGetSwapchainTimeDomainPropertiesEXT)vkGetDeviceProcAddr(
        x->dev, "vkGetSwapchainTimeDomainPropertiesEXT");
    get_past = (PFN_vkGetPastPresentationTimingEXT)vkGetDeviceProcAddr(
        x->dev, "vkGetPastPresentationTimingEXT");
    if (!need(set_size && get_props && get_domains && get_past, "the timing functions are there"))
        return;
    chain_flags = VK_SWAPCHAIN_CREATE_PRESENT_TIMING_BIT_EXT;
    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    chain_flags = 0;
    if (!check(r == VK_SUCCESS, "FIFO swapchain with present timing: %s", res_name(r)))
        return;
    check(set_size(x->dev, ch.sc, 16) == VK_SUCCESS, "results queue of 16");
    r = get_domains(x->dev, ch.sc, &dp, NULL);
    for (uint32_t i = 0; r == VK_SUCCESS && i < dp.timeDomainCount; i++)
        if (domains[i] == VK_TIME_DOMAIN_PRESENT_STAGE_LOCAL_EXT)
            local_id = ids[i];
    check(local_id != UINT64_MAX, "a PRESENT_STAGE_LOCAL time domain (%u domains, %s)",
          dp.timeDomainCount, res_name(r));

    for (uint32_t n = 1; n <= 12; n++) {
        VkPresentTimingInfoEXT ti = {
            .sType = VK_STRUCTURE_TYPE_PRESENT_TIMING_INFO_EXT,
            .timeDomainId = local_id,
            .presentStageQueries = VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT |
                                   VK_PRESENT_STAGE_REQUEST_DEQUEUED_BIT_EXT |
                                   VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT,
            .targetTimeDomainPresentStage = VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT,
        };
        VkPresentTimingsInfoEXT tsi = { .sType = VK_STRUCTURE_TYPE_PRESENT_TIMINGS_INFO_EXT,
                                        .swapchainCount = 1, .pTimingInfos = &ti };
        struct present_opts o = { .id = n, .chain = &tsi };

        if (n == 8) {           /* absolute: 100 ms from now */
            struct timespec ts;

            clock_gettime(CLOCK_MONOTONIC, &ts);
            target_abs = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + 100 * MS;
            ti.targetTime = target_abs;
        }
        if (n == 10 && refresh) {       /* relative: 3 refreshes after frame 9 */
            ti.targetTime = 3 * refresh;
            ti.flags = VK_PRESENT_TIMING_INFO_PRESENT_AT_RELATIVE_TIME_BIT_EXT;
        }
        r = frame(x, &ch, n, &o, NULL);
        if (!check(r == VK_SUCCESS, "frame %u with timing: %s", n, res_name(r)))
            break;
        if (n == 6) {
            x->WaitForPresentKHR(x->dev, ch.sc, 6, 2000 * MS);
            r = get_props(x->dev, ch.sc, &tp, &counter);
            refresh = tp.refreshDuration;
            check(r == VK_SUCCESS && refresh > 5 * MS && refresh < 50 * MS && counter > 0,
                  "a refresh is known after 6 frames (%s, %.2f ms, counter %llu)", res_name(r),
                  refresh / 1e6, (unsigned long long)counter);
        }
    }
    x->WaitForPresentKHR(x->dev, ch.sc, 12, 3000 * MS);
    r = get_past(x->dev, &(VkPastPresentationTimingInfoEXT){
                     .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_INFO_EXT,
                     .swapchain = ch.sc }, &pp);
    check(r == VK_SUCCESS && pp.presentationTimingCount == 12,
          "12 results are ready (%s, %u)", res_name(r), pp.presentationTimingCount);
    for (uint32_t i = 0; i < 16; i++)
        past[i] = (VkPastPresentationTimingEXT){
            .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_EXT,
            .presentStageCount = 3, .pPresentStages = stages[i] };
    pp.presentationTimingCount = 16;
    pp.pPresentationTimings = past;
    r = get_past(x->dev, &(VkPastPresentationTimingInfoEXT){
                     .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_INFO_EXT,
                     .swapchain = ch.sc }, &pp);
    if (check(r == VK_SUCCESS && pp.presentationTimingCount == 12, "12 results (%s, %u)",
              res_name(r), pp.presentationTimingCount)) {
        uint32_t bad = 0;

        for (uint32_t i = 0; i < 12; i++) {
            const VkPastPresentationTimingEXT *p = &past[i];
            uint64_t out = p->presentStageCount == 3 ? p->pPresentStages[2].time : 0;

            if (p->presentId != i + 1 || !p->reportComplete || p->presentStageCount != 3 ||
                p->pPresentStages[0].stage != VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT ||
                p->pPresentStages[2].stage != VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT ||
                p->pPresentStages[0].time > p->pPresentStages[1].time ||
                (out && p->pPresentStages[1].time > out)) {
                note("result %u: id %llu complete %u stages %u", i,
                     (unsigned long long)p->presentId, p->reportComplete,
                     p->presentStageCount);
                bad++;
            }
        }
        check(bad == 0, "in order, complete, 3 stages each, each at or after the one before");
        check(stages[7][2].time >= target_abs,
              "the absolute target is never early (shown %.2f ms after it)",
              ((double)stages[7][2].time - (double)target_abs) / 1e6);
        if (refresh)
            check(stages[9][2].time >= stages[8][2].time + 2 * refresh,
                  "the relative target: 3 refreshes after the frame before (%.2f ms)",
                  ((double)stages[9][2].time - (double)stages[8][2].time) / 1e6);
    }
    pp.presentationTimingCount = 0;
    pp.pPresentationTimings = NULL;
    r = get_past(x->dev, &(VkPastPresentationTimingInfoEXT){
                     .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_INFO_EXT,
                     .swapchain = ch.sc }, &pp);
    check(r == VK_SUCCESS && pp.presentationTimingCount == 0,
          "results given are gone (%u left)", pp.presentationTimingCount);
    /* a queue of 2 takes 2 presents that ask for stages, not a third */
    check(set_size(x->dev, ch.sc, 2) == VK_SUCCESS, "results queue of 2");
    for (uint32_t n = 13; n <= 15; n++) {
        VkPresentTimingInfoEXT ti = {
            .sType = VK_STRUCTURE_TYPE_PRESENT_TIMING_INFO_EXT,
            .timeDomainId = local_id,
            .presentStageQueries = VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT,
        };
        VkPresentTimingsInfoEXT tsi = { .sType = VK_STRUCTURE_TYPE_PRESENT_TIMINGS_INFO_EXT,
                                        .swapchainCount = 1, .pTimingInfos = &ti };
        struct present_opts o = { .id = n, .chain = &tsi };

        r = frame(x, &ch, n, &o, NULL);
        check(n < 15 ? r == VK_SUCCESS : r == VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT,
              "present %u with a queue of 2: %s", n, res_name(r));
    }
    chain_destroy(x, &ch);
}

/* For bench/vk-layer-bench.sh, not a check of a rule: FIFO frames with
 * present timing, and from the past timings the time from the frame's
 * queue operations done (the renderer finished) to the vblank that showed
 * it.  Frames: $VK_CLIENT_FRAMES (300).  Prints "latency: ..." */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static uint32_t take_latencies(struct ctx *x, PFN_vkGetPastPresentationTimingEXT get_past,
                               VkSwapchainKHR sc, uint64_t *lat, uint32_t have, uint32_t room)
{
    VkPastPresentationTimingEXT past[16];
    VkPresentStageTimeEXT stages[16][2];
    VkPastPresentationTimingPropertiesEXT pp = {
        .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_PROPERTIES_EXT,
        .presentationTimingCount = 16, .pPresentationTimings = past,
    };

    for (uint32_t i = 0; i < 16; i++)
        past[i] = (VkPastPresentationTimingEXT){
            .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_EXT,
            .presentStageCount = 2, .pPresentStages = stages[i] };
    if (get_past(x->dev, &(VkPastPresentationTimingInfoEXT){
                     .sType = VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_INFO_EXT,
                     .swapchain = sc }, &pp) < 0)
        return have;
    for (uint32_t i = 0; i < pp.presentationTimingCount && have < room; i++)
        if (past[i].reportComplete && past[i].presentStageCount == 2 &&
            stages[i][1].time >= stages[i][0].time)
            lat[have++] = stages[i][1].time - stages[i][0].time;
    return have;
}

static void run_latency(struct ctx *x)
{
    const char *env = getenv("VK_CLIENT_FRAMES");
    uint32_t frames = env && atoi(env) > 0 ? (uint32_t)atoi(env) : 300, have = 0;
    PFN_vkSetSwapchainPresentTimingQueueSizeEXT set_size =
        (PFN_vkSetSwapchainPresentTimingQueueSizeEXT)vkGetDeviceProcAddr(
            x->dev, "vkSetSwapchainPresentTimingQueueSizeEXT");
    PFN_vkGetPastPresentationTimingEXT get_past = (PFN_vkGetPastPresentationTimingEXT)
        vkGetDeviceProcAddr(x->dev, "vkGetPastPresentationTimingEXT");
    uint64_t *lat = calloc(frames, sizeof *lat), sum = 0;
    struct chain ch;
    double start, took;
    VkResult r;

    if (!need(set_size && get_past && lat, "the timing functions are there")) {
        free(lat);
        return;
    }
    chain_flags = VK_SWAPCHAIN_CREATE_PRESENT_TIMING_BIT_EXT;
    r = chain_create(x, &ch, VK_PRESENT_MODE_FIFO_KHR, 3, VK_NULL_HANDLE, NULL, 0);
    chain_flags = 0;
    if (!check(r == VK_SUCCESS, "FIFO swapchain with present timing: %s", res_name(r))) {
        free(lat);
        return;
    }
    set_size(x->dev, ch.sc, 16);
    start = now_ms();
    for (uint32_t n = 1; n <= frames; n++) {
        VkPresentTimingInfoEXT ti = {
            .sType = VK_STRUCTURE_TYPE_PRESENT_TIMING_INFO_EXT,
            .presentStageQueries = VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT |
                                   VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT,
        };
        VkPresentTimingsInfoEXT tsi = { .sType = VK_STRUCTURE_TYPE_PRESENT_TIMINGS_INFO_EXT,
                                        .swapchainCount = 1, .pTimingInfos = &ti };
        struct present_opts o = { .id = n, .chain = &tsi };

        r = frame(x, &ch, n, &o, NULL);
        if (!check(r == VK_SUCCESS, "frame %u: %s", n, res_name(r)))
            break;
        have = take_latencies(x, get_past, ch.sc, lat, have, frames);
    }
    x->WaitForPresentKHR(x->dev, ch.sc, frames, 2000 * MS);
    took = now_ms() - start;
    have = take_latencies(x, get_past, ch.sc, lat, have, frames);
    check(have >= frames * 9 / 10, "timings of %u of %u frames", have, frames);
    for (uint32_t i = 0; i < have; i++)
        sum += lat[i];
    qsort(lat, have, sizeof *lat, cmp_u64);
    if (have)
        note("%u frames, %.1f frames/s, rendered to shown mean %.2f ms p50 %.2f "
             "p99 %.2f", frames, frames * 1000.0 / took, sum / 1e6 / have,
             lat[have / 2] / 1e6, lat[have * 99 / 100] / 1e6);
    free(lat);
    chain_destroy(x, &ch);
}

static const struct {
    const char *name;
    void (*run)(struct ctx *);
    bool maintenance1;
} scenarios[] = {
    { "fifo", run_fifo, false },
    { "mailbox", run_mailbox, false },
    { "immediate", run_immediate, false },
    { "resize", run_resize, false },
    { "destroyed", run_destroyed, false },
    { "oldswapchain", run_oldswapchain, false },
    { "presentwait", run_presentwait, false },
    { "maintenance1", run_maintenance1, true },
    { "othersize", run_othersize, false },
    { "acquire0", run_acquire0, false },
    { "timing", run_timing, false },
    { "latency", run_latency, false },      /* for bench/: not in "all" */
    { "provoke", run_provoke, false },      /* last: not in "all" */
};
#define N_SCENARIOS (sizeof scenarios / sizeof scenarios[0])

/* "probe": 0 when the loader gives a CPU device, else 77; no X needed. */
static int probe(void)
{
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                              .apiVersion = VK_API_VERSION_1_1 };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                 .pApplicationInfo = &app };
    VkPhysicalDevice pds[8];
    uint32_t n = 8;
    VkInstance inst;
    int r = 77;

    if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS)
        return 77;
    if (vkEnumeratePhysicalDevices(inst, &n, pds) < 0)
        n = 0;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;

        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
            printf("%s\n", p.deviceName);
            r = 0;
        }
    }
    vkDestroyInstance(inst, NULL);
    return r;
}

/* 0, 1 (a check failed) or 77 (skipped). */
static int run_one(size_t k)
{
    struct ctx x;
    int r;

    memset(&x, 0, sizeof x);
    scenario = scenarios[k].name;
    validation_errors = 0;
    alarm(30);
    r = x_open(&x, 128, 96);
    if (r == 0)
        r = vk_open(&x, scenarios[k].maintenance1, scenarios[k].run == run_timing ||
                                              scenarios[k].run == run_latency);
    if (r == 0)
        scenarios[k].run(&x);
    vk_close(&x);
    x_close(&x);
    if (r != 77 && scenarios[k].run == run_provoke)
        check(validation_errors > 0, "the messenger counted the validation error provoked (%d)",
              validation_errors);
    else if (r != 77)
        check(validation_errors == 0, "no validation errors (%d)", validation_errors);
    alarm(0);
    return r == 77 ? 77 : r ? 1 : 0;
}

int main(int argc, char **argv)
{
    bool all_skipped = true;
    int any = 0;

    signal(SIGALRM, watchdog);
    if (argc < 2) {
        fprintf(stderr, "usage: vk-client probe|all|SCENARIO...\n");
        return 2;
    }
    if (!strcmp(argv[1], "probe"))
        return probe();
    for (int a = 1; a < argc; a++) {
        bool found = false;

        for (size_t k = 0; k < N_SCENARIOS; k++)
            if ((!strcmp(argv[a], "all") && scenarios[k].run != run_provoke &&
                 scenarios[k].run != run_latency) ||
                !strcmp(argv[a], scenarios[k].name)) {
                found = true;
                any = 1;
                if (run_one(k) != 77)
                    all_skipped = false;
            }
        if (!found) {
            fprintf(stderr, "vk-client: no scenario %s\n", argv[a]);
            return 2;
        }
    }
    if (any && all_skipped)
        return 77;
    return failures ? 1 : 0;
}
