/*
 * Surfaces (VK_KHR_surface, VK_KHR_xcb_surface, VK_KHR_xlib_surface,
 * VK_KHR_get_surface_capabilities2).  Every surface is made by the driver
 * too, so that a physical device the layer does not take over asks the
 * driver as before; for the devices it takes, the layer answers from the
 * window itself.
 */
#include <X11/Xlib-xcb.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "xcb_dri3_util_wait.h"

VkResult layer_window_geometry(struct layer_surface *s, VkExtent2D *extent, uint8_t *depth)
{
    xcb_get_geometry_reply_t *g = NULL;
    xcb_generic_error_t *e = NULL;
    int r;

    r = xcb_dri3_util_wait_reply(s->c, xcb_get_geometry(s->c, s->window).sequence, 0,
                                 xcb_dri3_util_deadline(s->c), -1, (void **)&g, &e);
    if (r != 0) {
        free(e);
        layer_log("window 0x%x: %s", s->window, r == 1 ? "gone" : "no answer");
        return VK_ERROR_SURFACE_LOST_KHR;
    }
    if (extent)
        *extent = (VkExtent2D){ g->width, g->height };
    if (depth)
        *depth = g->depth;
    free(g);
    return VK_SUCCESS;
}

/* ---- creating and destroying -------------------------------------------- */

static VkResult add_surface(VkInstance instance, VkSurfaceKHR handle, xcb_connection_t *c,
                            xcb_window_t window)
{
    struct layer_surface *s = calloc(1, sizeof *s);

    if (!s)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    s->handle = handle;
    s->instance = instance;
    s->c = c;
    s->window = window;
    layer_surface_add(s);
    layer_log("surface for window 0x%x", window);
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateXcbSurfaceKHR(VkInstance instance, const VkXcbSurfaceCreateInfoKHR *ci,
                          const VkAllocationCallbacks *alloc, VkSurfaceKHR *out)
{
    struct layer_instance *inst = layer_instance_get(layer_key(instance));
    VkResult r;

    if (!inst || !inst->CreateXcbSurfaceKHR)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    r = inst->CreateXcbSurfaceKHR(instance, ci, alloc, out);
    if (r != VK_SUCCESS)
        return r;
    r = add_surface(instance, *out, ci->connection, ci->window);
    if (r != VK_SUCCESS)
        inst->DestroySurfaceKHR(instance, *out, alloc);
    return r;
}

/* An Xlib surface presents on the Display's XCB connection: libxcb is
 * thread-safe, and the swapchain's waits wake when the program's own
 * event thread reads what they wait for. */
static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateXlibSurfaceKHR(VkInstance instance, const VkXlibSurfaceCreateInfoKHR *ci,
                           const VkAllocationCallbacks *alloc, VkSurfaceKHR *out)
{
    struct layer_instance *inst = layer_instance_get(layer_key(instance));
    VkResult r;

    if (!inst || !inst->CreateXlibSurfaceKHR)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    r = inst->CreateXlibSurfaceKHR(instance, ci, alloc, out);
    if (r != VK_SUCCESS)
        return r;
    r = add_surface(instance, *out, XGetXCBConnection(ci->dpy), (xcb_window_t)ci->window);
    if (r != VK_SUCCESS)
        inst->DestroySurfaceKHR(instance, *out, alloc);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroySurfaceKHR(VkInstance instance,
                                                          VkSurfaceKHR surface,
                                                          const VkAllocationCallbacks *alloc)
{
    struct layer_instance *inst = layer_instance_get(layer_key(instance));

    free(layer_surface_remove(surface));
    if (inst && inst->DestroySurfaceKHR)
        inst->DestroySurfaceKHR(instance, surface, alloc);
}

/* ---- what a surface offers ------------------------------------------------ */

/* The instance of a physical device the layer takes, else NULL. */
static struct layer_instance *taking(VkPhysicalDevice pd, struct layer_instance **inst)
{
    *inst = layer_instance_get(layer_key(pd));
    return *inst && layer_takes(*inst, pd) ? *inst : NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDeviceSurfaceSupportKHR(
    VkPhysicalDevice pd, uint32_t family, VkSurfaceKHR surface, VkBool32 *supported)
{
    struct layer_instance *inst;

    if (!taking(pd, &inst))
        return inst ? inst->GetPhysicalDeviceSurfaceSupportKHR(pd, family, surface, supported)
                    : VK_ERROR_INITIALIZATION_FAILED;
    *supported = layer_surface_get(surface) ? VK_TRUE : VK_FALSE;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL layer_GetPhysicalDeviceXcbPresentationSupportKHR(
    VkPhysicalDevice pd, uint32_t family, xcb_connection_t *c, xcb_visualid_t visual)
{
    struct layer_instance *inst;

    if (!taking(pd, &inst))
        return inst && inst->GetPhysicalDeviceXcbPresentationSupportKHR
                   ? inst->GetPhysicalDeviceXcbPresentationSupportKHR(pd, family, c, visual)
                   : VK_FALSE;
    return VK_TRUE;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL layer_GetPhysicalDeviceXlibPresentationSupportKHR(
    VkPhysicalDevice pd, uint32_t family, Display *dpy, VisualID visual)
{
    struct layer_instance *inst;

    if (!taking(pd, &inst))
        return inst && inst->GetPhysicalDeviceXlibPresentationSupportKHR
                   ? inst->GetPhysicalDeviceXlibPresentationSupportKHR(pd, family, dpy, visual)
                   : VK_FALSE;
    return VK_TRUE;
}

/* What the images can be used for: what linear B8G8R8A8 images of the
 * device can do. */
static VkImageUsageFlags image_usage(struct layer_instance *inst, VkPhysicalDevice pd)
{
    VkFormatProperties fp;
    VkFormatFeatureFlags f;
    VkImageUsageFlags u = 0;

    inst->GetPhysicalDeviceFormatProperties(pd, VK_FORMAT_B8G8R8A8_UNORM, &fp);
    f = fp.linearTilingFeatures;
    if (f & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)
        u |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
    if (f & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT)
        u |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (f & VK_FORMAT_FEATURE_TRANSFER_DST_BIT)
        u |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (f & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
        u |= VK_IMAGE_USAGE_SAMPLED_BIT;
    if (f & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
        u |= VK_IMAGE_USAGE_STORAGE_BIT;
    return u;
}

static VkResult capabilities(struct layer_instance *inst, VkPhysicalDevice pd,
                             VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR *caps)
{
    struct layer_surface *s = layer_surface_get(surface);
    VkPhysicalDeviceProperties props;
    VkExtent2D extent;
    uint32_t largest;
    VkResult r;

    if (!s)
        return VK_ERROR_SURFACE_LOST_KHR;
    r = layer_window_geometry(s, &extent, NULL);
    if (r != VK_SUCCESS)
        return r;
    /* Any size from 1x1 up: Present shows a pixmap of another size than
     * the window at its top left corner (clipped, or with the rest of the
     * window as it was), so a program may keep the size it chose when a
     * window manager has resized its window before the swapchain was made
     * (vkd3d's demos under kiosk-shell).  Up to what the device can image
     * and the engine will share (16384: a gigabyte a buffer). */
    inst->GetPhysicalDeviceProperties(pd, &props);
    largest = props.limits.maxImageDimension2D < LAYER_MAX_EXTENT
                  ? props.limits.maxImageDimension2D : LAYER_MAX_EXTENT;
    *caps = (VkSurfaceCapabilitiesKHR){
        /* one image shown, one queued, one drawn into: FIFO never waits
         * for the screen with fewer than the frames it queues */
        .minImageCount = 3,
        .maxImageCount = LAYER_MAX_IMAGES,
        .currentExtent = extent,
        .minImageExtent = { 1, 1 },
        .maxImageExtent = { largest, largest },
        .maxImageArrayLayers = 1,
        .supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
        .currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR,
        .supportedCompositeAlpha =
            VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR | VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
        .supportedUsageFlags = image_usage(inst, pd),
    };
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDeviceSurfaceCapabilitiesKHR(
    VkPhysicalDevice pd, VkSurfaceKHR surface, VkSurfaceCapabilitiesKHR *caps)
{
    struct layer_instance *inst;

    if (!taking(pd, &inst))
        return inst ? inst->GetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surface, caps)
                    : VK_ERROR_INITIALIZATION_FAILED;
    return capabilities(inst, pd, surface, caps);
}

static const VkPresentModeKHR present_modes[] = {
    VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
    VK_PRESENT_MODE_IMMEDIATE_KHR,
};
#define N_MODES (sizeof present_modes / sizeof present_modes[0])

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice pd, const VkPhysicalDeviceSurfaceInfo2KHR *info,
    VkSurfaceCapabilities2KHR *caps)
{
    struct layer_instance *inst;
    VkResult r;

    if (!taking(pd, &inst))
        return inst && inst->GetPhysicalDeviceSurfaceCapabilities2KHR
                   ? inst->GetPhysicalDeviceSurfaceCapabilities2KHR(pd, info, caps)
                   : VK_ERROR_INITIALIZATION_FAILED;
    r = capabilities(inst, pd, info->surface, &caps->surfaceCapabilities);
    if (r != VK_SUCCESS)
        return r;
    for (VkBaseOutStructure *s = caps->pNext; s; s = s->pNext) {
        switch ((int)s->sType) {
        case VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_PRESENT_ID_2_KHR:
            ((VkSurfaceCapabilitiesPresentId2KHR *)s)->presentId2Supported = VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_PRESENT_WAIT_2_KHR:
            ((VkSurfaceCapabilitiesPresentWait2KHR *)s)->presentWait2Supported = VK_TRUE;
            break;
        case VK_STRUCTURE_TYPE_PRESENT_TIMING_SURFACE_CAPABILITIES_EXT: {
            VkPresentTimingSurfaceCapabilitiesEXT *t = (void *)s;

            t->presentTimingSupported = VK_TRUE;
            t->presentAtAbsoluteTimeSupported = VK_TRUE;
            t->presentAtRelativeTimeSupported = VK_TRUE;
            t->presentStageQueries = layer_timing_stages();
            break;
        }
        case VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR:
            ((VkSurfaceProtectedCapabilitiesKHR *)s)->supportsProtected = VK_FALSE;
            break;
        case VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT: {
            /* every mode can follow every other: the engine switches
             * between frames */
            VkSurfacePresentModeCompatibilityEXT *c = (void *)s;

            if (c->pPresentModes) {
                uint32_t n = c->presentModeCount < N_MODES ? c->presentModeCount : N_MODES;

                memcpy(c->pPresentModes, present_modes, n * sizeof *present_modes);
                c->presentModeCount = n;
            } else {
                c->presentModeCount = N_MODES;
            }
            break;
        }
        case VK_STRUCTURE_TYPE_SURFACE_PRESENT_SCALING_CAPABILITIES_EXT: {
            VkSurfacePresentScalingCapabilitiesEXT *c = (void *)s;

            c->supportedPresentScaling = 0;
            c->supportedPresentGravityX = c->supportedPresentGravityY = 0;
            /* no scaling: the sizes a swapchain may have */
            c->minScaledImageExtent = caps->surfaceCapabilities.minImageExtent;
            c->maxScaledImageExtent = caps->surfaceCapabilities.maxImageExtent;
            break;
        }
        default:
            break;
        }
    }
    return VK_SUCCESS;
}

/* B8G8R8A8, sRGB and UNORM: the window's 24- or 32-bit TrueColor. */
static const VkSurfaceFormatKHR formats[] = {
    { VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR },
    { VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR },
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

static VkResult copy_out(const void *src, uint32_t n, size_t size, uint32_t *count, void *out)
{
    if (!out) {
        *count = n;
        return VK_SUCCESS;
    }
    if (*count > n)
        *count = n;
    memcpy(out, src, *count * size);
    return *count < n ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDeviceSurfaceFormatsKHR(
    VkPhysicalDevice pd, VkSurfaceKHR surface, uint32_t *count, VkSurfaceFormatKHR *out)
{
    struct layer_instance *inst;

    if (!taking(pd, &inst))
        return inst ? inst->GetPhysicalDeviceSurfaceFormatsKHR(pd, surface, count, out)
                    : VK_ERROR_INITIALIZATION_FAILED;
    if (!layer_surface_get(surface))
        return VK_ERROR_SURFACE_LOST_KHR;
    return copy_out(formats, N_FORMATS, sizeof *formats, count, out);
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDeviceSurfaceFormats2KHR(
    VkPhysicalDevice pd, const VkPhysicalDeviceSurfaceInfo2KHR *info, uint32_t *count,
    VkSurfaceFormat2KHR *out)
{
    struct layer_instance *inst;
    uint32_t n;

    if (!taking(pd, &inst))
        return inst && inst->GetPhysicalDeviceSurfaceFormats2KHR
                   ? inst->GetPhysicalDeviceSurfaceFormats2KHR(pd, info, count, out)
                   : VK_ERROR_INITIALIZATION_FAILED;
    if (!layer_surface_get(info->surface))
        return VK_ERROR_SURFACE_LOST_KHR;
    if (!out) {
        *count = N_FORMATS;
        return VK_SUCCESS;
    }
    n = *count < N_FORMATS ? *count : N_FORMATS;
    for (uint32_t i = 0; i < n; i++)
        out[i].surfaceFormat = formats[i];
    *count = n;
    return n < N_FORMATS ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDeviceSurfacePresentModesKHR(
    VkPhysicalDevice pd, VkSurfaceKHR surface, uint32_t *count, VkPresentModeKHR *out)
{
    struct layer_instance *inst;

    if (!taking(pd, &inst))
        return inst ? inst->GetPhysicalDeviceSurfacePresentModesKHR(pd, surface, count, out)
                    : VK_ERROR_INITIALIZATION_FAILED;
    if (!layer_surface_get(surface))
        return VK_ERROR_SURFACE_LOST_KHR;
    return copy_out(present_modes, N_MODES, sizeof *present_modes, count, out);
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetPhysicalDevicePresentRectanglesKHR(
    VkPhysicalDevice pd, VkSurfaceKHR surface, uint32_t *count, VkRect2D *out)
{
    struct layer_instance *inst;
    struct layer_surface *s;
    VkRect2D rect = { { 0, 0 }, { 0, 0 } };
    VkResult r;

    if (!taking(pd, &inst))
        return inst && inst->GetPhysicalDevicePresentRectanglesKHR
                   ? inst->GetPhysicalDevicePresentRectanglesKHR(pd, surface, count, out)
                   : VK_ERROR_INITIALIZATION_FAILED;
    s = layer_surface_get(surface);
    if (!s)
        return VK_ERROR_SURFACE_LOST_KHR;
    r = layer_window_geometry(s, &rect.extent, NULL);
    if (r != VK_SUCCESS)
        return r;
    return copy_out(&rect, 1, sizeof rect, count, out);
}

PFN_vkVoidFunction layer_surface_proc(const char *name)
{
#define F(n) LAYER_PROC(n)
    static const struct layer_proc table[] = {
        F(CreateXcbSurfaceKHR),
        F(CreateXlibSurfaceKHR),
        F(DestroySurfaceKHR),
        F(GetPhysicalDeviceSurfaceSupportKHR),
        F(GetPhysicalDeviceSurfaceCapabilitiesKHR),
        F(GetPhysicalDeviceSurfaceCapabilities2KHR),
        F(GetPhysicalDeviceSurfaceFormatsKHR),
        F(GetPhysicalDeviceSurfaceFormats2KHR),
        F(GetPhysicalDeviceSurfacePresentModesKHR),
        F(GetPhysicalDevicePresentRectanglesKHR),
        F(GetPhysicalDeviceXcbPresentationSupportKHR),
        F(GetPhysicalDeviceXlibPresentationSupportKHR),
    };
#undef F

    return layer_proc_find(table, sizeof table / sizeof table[0], name);
}
