/*
 * Swapchains of the devices the layer takes over.  Each image is a
 * linear VkImage whose memory is a memfd the layer maps and imports with
 * VK_EXT_external_memory_host: the device renders into those pages, and
 * the engine hands the same memfd to the server as an MIT-SHM pixmap
 * (PutImage from the same pages where the server cannot share memory).
 * Nothing is copied on the client's side.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "layer.h"

#define FOURCC_XRGB8888 0x34325258u
#define FOURCC_ARGB8888 0x34325241u

static VkResult from_errno(int r)
{
    switch (r) {
    case -ENODEV:
    case -EPIPE:
    case -ETIMEDOUT:
    case -EPROTO:
        return VK_ERROR_SURFACE_LOST_KHR;
    case -ENOMEM:
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    default:
        return VK_ERROR_INITIALIZATION_FAILED;
    }
}

xcb_present_util_mode_t layer_engine_mode(VkPresentModeKHR m)
{
    switch (m) {
    case VK_PRESENT_MODE_IMMEDIATE_KHR:
        return XCB_PRESENT_UTIL_MODE_IMMEDIATE;
    case VK_PRESENT_MODE_MAILBOX_KHR:
        return XCB_PRESENT_UTIL_MODE_MAILBOX;
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR:
        return XCB_PRESENT_UTIL_MODE_FIFO_RELAXED;
    default:
        return XCB_PRESENT_UTIL_MODE_FIFO;
    }
}

static uint32_t memory_type(struct layer_device *d, void *ptr, uint32_t image_bits)
{
    VkMemoryHostPointerPropertiesEXT host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT,
    };
    uint32_t bits = image_bits;

    if (d->GetMemoryHostPointerPropertiesEXT &&
        d->GetMemoryHostPointerPropertiesEXT(d->device,
                                             VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                                             ptr, &host) == VK_SUCCESS &&
        (host.memoryTypeBits & image_bits))
        bits = host.memoryTypeBits & image_bits;
    for (uint32_t i = 0; i < 32; i++)
        if (bits & (1u << i))
            return i;
    return 0;
}

static void free_images(struct layer_swapchain *s)
{
    struct layer_device *d = s->dev;

    for (uint32_t i = 0; i < s->n; i++) {
        if (s->images[i])
            d->DestroyImage(d->device, s->images[i], NULL);
        if (s->memory[i])
            d->FreeMemory(d->device, s->memory[i], NULL);
        if (s->maps[i])
            munmap(s->maps[i], s->map_size);
        xcb_dri3_util_buffer_destroy(s->buffers[i]);
        s->images[i] = VK_NULL_HANDLE;
        s->memory[i] = VK_NULL_HANDLE;
        s->maps[i] = NULL;
        s->buffers[i] = NULL;
    }
}

/* One image: the VkImage, a memfd of its size mapped and imported as its
 * memory, and the same memfd as the engine's buffer. */
static VkResult make_image(struct layer_swapchain *s, const VkSwapchainCreateInfoKHR *ci,
                           uint32_t i, uint32_t fourcc)
{
    struct layer_device *d = s->dev;
    const VkImageFormatListCreateInfo *list = NULL;
    VkImageFormatListCreateInfo list_copy;
    VkExternalMemoryImageCreateInfo ext = {
        .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
        .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
    };
    VkImageCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .pNext = &ext,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = ci->imageFormat,
        .extent = { ci->imageExtent.width, ci->imageExtent.height, 1 },
        .mipLevels = 1,
        .arrayLayers = ci->imageArrayLayers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_LINEAR,
        .usage = ci->imageUsage,
        .sharingMode = ci->imageSharingMode,
        .queueFamilyIndexCount =
            ci->imageSharingMode == VK_SHARING_MODE_CONCURRENT ? ci->queueFamilyIndexCount : 0,
        .pQueueFamilyIndices =
            ci->imageSharingMode == VK_SHARING_MODE_CONCURRENT ? ci->pQueueFamilyIndices : NULL,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkImageSubresource sub = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0 };
    VkImportMemoryHostPointerInfoEXT import = {
        .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
        .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
    };
    VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                 .pNext = &import };
    VkSubresourceLayout layout;
    VkMemoryRequirements req;
    uint32_t stride, offset;
    uint64_t align = d->host_alignment;
    int fd;
    VkResult r;

    for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO)
            list = (const VkImageFormatListCreateInfo *)p;
    if (ci->flags & VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR) {
        ici.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
        if (list) {
            list_copy = *list;
            list_copy.pNext = NULL;
            ext.pNext = &list_copy;
        }
    }
    r = d->CreateImage(d->device, &ici, NULL, &s->images[i]);
    if (r != VK_SUCCESS)
        return r;
    d->GetImageSubresourceLayout(d->device, s->images[i], &sub, &layout);
    d->GetImageMemoryRequirements(d->device, s->images[i], &req);
    if (layout.rowPitch % 4 || layout.rowPitch > UINT32_MAX || layout.offset > UINT32_MAX)
        return VK_ERROR_INITIALIZATION_FAILED;
    stride = (uint32_t)layout.rowPitch;
    offset = (uint32_t)layout.offset;
    if (align < (uint64_t)sysconf(_SC_PAGESIZE))
        align = (uint64_t)sysconf(_SC_PAGESIZE);
    s->map_size = (size_t)((req.size + align - 1) / align * align);
    fd = memfd_create("vk-layer-xcb-present", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    if (ftruncate(fd, (off_t)s->map_size) < 0) {
        close(fd);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    /* neither side may shrink it under the other's mapping */
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
    s->maps[i] = mmap(NULL, s->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (s->maps[i] == MAP_FAILED) {
        s->maps[i] = NULL;
        close(fd);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    /* the buffer takes the fd, whatever the outcome */
    s->buffers[i] = xcb_dri3_util_buffer_import((uint16_t)ci->imageExtent.width,
                                                (uint16_t)ci->imageExtent.height, fourcc,
                                                XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd, &stride,
                                                &offset);
    if (!s->buffers[i])
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    import.pHostPointer = s->maps[i];
    mai.allocationSize = s->map_size;
    mai.memoryTypeIndex = memory_type(d, s->maps[i], req.memoryTypeBits);
    r = d->AllocateMemory(d->device, &mai, NULL, &s->memory[i]);
    if (r != VK_SUCCESS)
        return r;
    return d->BindImageMemory(d->device, s->images[i], s->memory[i], 0);
}

/* The engine's swapchain on the images: MIT-SHM, else PutImage. */
static VkResult make_engine(struct layer_swapchain *s, const VkSwapchainCreateInfoKHR *ci,
                            struct layer_swapchain *old)
{
    static const xcb_present_util_backend_t backends[] = {
        XCB_PRESENT_UTIL_BACKEND_SHM, XCB_PRESENT_UTIL_BACKEND_PUT_IMAGE,
    };
    xcb_present_util_options_t o;
    int r = -ENOTSUP;

    xcb_present_util_options_init(&o);
    o.mode = layer_engine_mode(ci->presentMode);
    o.images = s->buffers;
    o.num_images = s->n;
    o.throttle = XCB_PRESENT_UTIL_THROTTLE_NONE;
    /* oldSwapchain: the clock and the pacing go on where it is */
    if (old && old->surface == s->surface && old->sc)
        o.predecessor = old->sc;
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
        o.backend = backends[i];
        s->sc = xcb_present_util_swapchain_create(s->surface->c, s->surface->window, &o);
        if (s->sc) {
            xcb_present_util_swapchain_set_frame_callback(s->sc, layer_timing_frame, s);
            layer_log("swapchain: %u images %ux%u, %s, %s", s->n, ci->imageExtent.width,
                      ci->imageExtent.height, xcb_present_util_mode_name(o.mode),
                      xcb_present_util_backend_name(backends[i]));
            return VK_SUCCESS;
        }
        r = -errno;
        layer_log("swapchain: %s back end: %s", xcb_present_util_backend_name(backends[i]),
                  strerror(errno));
        if (r != -ENOTSUP)
            break;
    }
    return from_errno(r);
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroySwapchainKHR(VkDevice device,
                                                            VkSwapchainKHR swapchain,
                                                            const VkAllocationCallbacks *alloc);

static VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *ci,
                         const VkAllocationCallbacks *alloc, VkSwapchainKHR *out)
{
    struct layer_device *d = layer_device_get(layer_key(device));
    struct layer_surface *surface = layer_surface_get(ci->surface);
    struct layer_swapchain *s, *old = layer_swapchain(ci->oldSwapchain);
    VkExtent2D window;
    uint8_t depth;
    uint32_t fourcc;
    VkResult r;

    (void)alloc;
    if (!d || !surface)
        return VK_ERROR_SURFACE_LOST_KHR;
    if (old)
        old->retired = true;    /* acquires fail from now on; presents still go */
    r = layer_window_geometry(surface, &window, &depth);
    if (r != VK_SUCCESS)
        return r;
    if (depth != 24 && depth != 32)
        return VK_ERROR_INITIALIZATION_FAILED;
    fourcc = depth == 32 ? FOURCC_ARGB8888 : FOURCC_XRGB8888;
    s = calloc(1, sizeof *s);
    if (!s)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    s->dev = d;
    s->surface = surface;
    s->extent = ci->imageExtent;
    s->window_at_create = window;
    s->format = ci->imageFormat;
    s->mode = ci->presentMode;
    s->n = ci->minImageCount < 2 ? 2 : ci->minImageCount;
    if (s->n > LAYER_MAX_IMAGES)
        s->n = LAYER_MAX_IMAGES;
    pthread_mutex_init(&s->lock, NULL);
    for (uint32_t i = 0; i < s->n && r == VK_SUCCESS; i++)
        r = make_image(s, ci, i, fourcc);
    if (r == VK_SUCCESS)
        r = make_engine(s, ci, old);
    if (r != VK_SUCCESS) {
        layer_DestroySwapchainKHR(device, (VkSwapchainKHR)(uintptr_t)s, NULL);
        return r;
    }
    *out = (VkSwapchainKHR)(uintptr_t)s;
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroySwapchainKHR(VkDevice device,
                                                            VkSwapchainKHR swapchain,
                                                            const VkAllocationCallbacks *alloc)
{
    struct layer_swapchain *s = layer_swapchain(swapchain);

    (void)device;
    (void)alloc;
    if (!s)
        return;
    /* the server lets go of the pixmaps before the memory goes */
    xcb_present_util_swapchain_destroy(s->sc);
    free_images(s);
    free(s->timing.q);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetSwapchainImagesKHR(VkDevice device,
                                                                  VkSwapchainKHR swapchain,
                                                                  uint32_t *count,
                                                                  VkImage *images)
{
    struct layer_swapchain *s = layer_swapchain(swapchain);

    (void)device;
    if (!images) {
        *count = s->n;
        return VK_SUCCESS;
    }
    if (*count > s->n)
        *count = s->n;
    memcpy(images, s->images, *count * sizeof *images);
    return *count < s->n ? VK_INCOMPLETE : VK_SUCCESS;
}

PFN_vkVoidFunction layer_swapchain_proc(const char *name)
{
    if (!strcmp(name, "vkCreateSwapchainKHR"))
        return (PFN_vkVoidFunction)layer_CreateSwapchainKHR;
    if (!strcmp(name, "vkDestroySwapchainKHR"))
        return (PFN_vkVoidFunction)layer_DestroySwapchainKHR;
    if (!strcmp(name, "vkGetSwapchainImagesKHR"))
        return (PFN_vkVoidFunction)layer_GetSwapchainImagesKHR;
    return NULL;
}
