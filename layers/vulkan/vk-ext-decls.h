/*
 * Vulkan declarations newer than the oldest headers the layer builds with
 * (1.3.239): VK_KHR_present_id2, VK_KHR_present_wait2, VK_EXT_present_timing
 * (revision 3) and the KHR names of calibrated timestamps.  Written from
 * the specification's registry (names, values and layouts are the
 * interface); each block steps aside when the system's headers have it.
 */
#ifndef VK_LAYER_XCB_PRESENT_EXT_DECLS_H
#define VK_LAYER_XCB_PRESENT_EXT_DECLS_H

#include <vulkan/vulkan.h>

#ifndef VK_KHR_calibrated_timestamps
typedef VkTimeDomainEXT VkTimeDomainKHR;
typedef VkCalibratedTimestampInfoEXT VkCalibratedTimestampInfoKHR;
#endif

#ifndef VK_KHR_present_id2
#define VK_KHR_present_id2 1
#define VK_KHR_PRESENT_ID_2_SPEC_VERSION 1
#define VK_KHR_PRESENT_ID_2_EXTENSION_NAME "VK_KHR_present_id2"
#define VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_PRESENT_ID_2_KHR ((VkStructureType)1000479000)
#define VK_STRUCTURE_TYPE_PRESENT_ID_2_KHR ((VkStructureType)1000479001)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_2_FEATURES_KHR ((VkStructureType)1000479002)
#define VK_SWAPCHAIN_CREATE_PRESENT_ID_2_BIT_KHR ((VkSwapchainCreateFlagBitsKHR)0x00000040)
typedef struct VkSurfaceCapabilitiesPresentId2KHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 presentId2Supported;
} VkSurfaceCapabilitiesPresentId2KHR;
typedef struct VkPresentId2KHR {
    VkStructureType sType;
    const void *pNext;
    uint32_t swapchainCount;
    const uint64_t *pPresentIds;
} VkPresentId2KHR;
typedef struct VkPhysicalDevicePresentId2FeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 presentId2;
} VkPhysicalDevicePresentId2FeaturesKHR;
#endif

#ifndef VK_KHR_present_wait2
#define VK_KHR_present_wait2 1
#define VK_KHR_PRESENT_WAIT_2_SPEC_VERSION 1
#define VK_KHR_PRESENT_WAIT_2_EXTENSION_NAME "VK_KHR_present_wait2"
#define VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_PRESENT_WAIT_2_KHR ((VkStructureType)1000480000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_2_FEATURES_KHR ((VkStructureType)1000480001)
#define VK_STRUCTURE_TYPE_PRESENT_WAIT_2_INFO_KHR ((VkStructureType)1000480002)
#define VK_SWAPCHAIN_CREATE_PRESENT_WAIT_2_BIT_KHR ((VkSwapchainCreateFlagBitsKHR)0x00000080)
typedef struct VkSurfaceCapabilitiesPresentWait2KHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 presentWait2Supported;
} VkSurfaceCapabilitiesPresentWait2KHR;
typedef struct VkPhysicalDevicePresentWait2FeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 presentWait2;
} VkPhysicalDevicePresentWait2FeaturesKHR;
typedef struct VkPresentWait2InfoKHR {
    VkStructureType sType;
    const void *pNext;
    uint64_t presentId;
    uint64_t timeout;
} VkPresentWait2InfoKHR;
typedef VkResult (VKAPI_PTR *PFN_vkWaitForPresent2KHR)(
    VkDevice device, VkSwapchainKHR swapchain, const VkPresentWait2InfoKHR *pPresentWait2Info);
#endif

#ifndef VK_EXT_present_timing
#define VK_EXT_present_timing 1
#define VK_EXT_PRESENT_TIMING_SPEC_VERSION 3
#define VK_EXT_PRESENT_TIMING_EXTENSION_NAME "VK_EXT_present_timing"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_TIMING_FEATURES_EXT ((VkStructureType)1000208000)
#define VK_STRUCTURE_TYPE_SWAPCHAIN_TIMING_PROPERTIES_EXT ((VkStructureType)1000208001)
#define VK_STRUCTURE_TYPE_SWAPCHAIN_TIME_DOMAIN_PROPERTIES_EXT ((VkStructureType)1000208002)
#define VK_STRUCTURE_TYPE_PRESENT_TIMINGS_INFO_EXT ((VkStructureType)1000208003)
#define VK_STRUCTURE_TYPE_PRESENT_TIMING_INFO_EXT ((VkStructureType)1000208004)
#define VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_INFO_EXT ((VkStructureType)1000208005)
#define VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_PROPERTIES_EXT ((VkStructureType)1000208006)
#define VK_STRUCTURE_TYPE_PAST_PRESENTATION_TIMING_EXT ((VkStructureType)1000208007)
#define VK_STRUCTURE_TYPE_PRESENT_TIMING_SURFACE_CAPABILITIES_EXT ((VkStructureType)1000208008)
#define VK_STRUCTURE_TYPE_SWAPCHAIN_CALIBRATED_TIMESTAMP_INFO_EXT ((VkStructureType)1000208009)
#define VK_TIME_DOMAIN_PRESENT_STAGE_LOCAL_EXT ((VkTimeDomainKHR)1000208000)
#define VK_TIME_DOMAIN_SWAPCHAIN_LOCAL_EXT ((VkTimeDomainKHR)1000208001)
#define VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT ((VkResult)-1000208000)
#define VK_SWAPCHAIN_CREATE_PRESENT_TIMING_BIT_EXT ((VkSwapchainCreateFlagBitsKHR)0x00000200)

typedef VkFlags VkPresentStageFlagsEXT;
typedef VkFlags VkPastPresentationTimingFlagsEXT;
typedef VkFlags VkPresentTimingInfoFlagsEXT;
#define VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT ((VkPresentStageFlagsEXT)0x00000001)
#define VK_PRESENT_STAGE_REQUEST_DEQUEUED_BIT_EXT ((VkPresentStageFlagsEXT)0x00000002)
#define VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT ((VkPresentStageFlagsEXT)0x00000004)
#define VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_VISIBLE_BIT_EXT ((VkPresentStageFlagsEXT)0x00000008)
#define VK_PAST_PRESENTATION_TIMING_ALLOW_PARTIAL_RESULTS_BIT_EXT \
    ((VkPastPresentationTimingFlagsEXT)0x00000001)
#define VK_PAST_PRESENTATION_TIMING_ALLOW_OUT_OF_ORDER_RESULTS_BIT_EXT \
    ((VkPastPresentationTimingFlagsEXT)0x00000002)
#define VK_PRESENT_TIMING_INFO_PRESENT_AT_RELATIVE_TIME_BIT_EXT \
    ((VkPresentTimingInfoFlagsEXT)0x00000001)
#define VK_PRESENT_TIMING_INFO_PRESENT_AT_NEAREST_REFRESH_CYCLE_BIT_EXT \
    ((VkPresentTimingInfoFlagsEXT)0x00000002)

typedef struct VkPhysicalDevicePresentTimingFeaturesEXT {
    VkStructureType sType;
    void *pNext;
    VkBool32 presentTiming;
    VkBool32 presentAtAbsoluteTime;
    VkBool32 presentAtRelativeTime;
} VkPhysicalDevicePresentTimingFeaturesEXT;
typedef struct VkPresentTimingSurfaceCapabilitiesEXT {
    VkStructureType sType;
    void *pNext;
    VkBool32 presentTimingSupported;
    VkBool32 presentAtAbsoluteTimeSupported;
    VkBool32 presentAtRelativeTimeSupported;
    VkPresentStageFlagsEXT presentStageQueries;
} VkPresentTimingSurfaceCapabilitiesEXT;
typedef struct VkSwapchainCalibratedTimestampInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkSwapchainKHR swapchain;
    VkPresentStageFlagsEXT presentStage;
    uint64_t timeDomainId;
} VkSwapchainCalibratedTimestampInfoEXT;
typedef struct VkSwapchainTimingPropertiesEXT {
    VkStructureType sType;
    void *pNext;
    uint64_t refreshDuration;
    uint64_t refreshInterval;
} VkSwapchainTimingPropertiesEXT;
typedef struct VkSwapchainTimeDomainPropertiesEXT {
    VkStructureType sType;
    void *pNext;
    uint32_t timeDomainCount;
    VkTimeDomainKHR *pTimeDomains;
    uint64_t *pTimeDomainIds;
} VkSwapchainTimeDomainPropertiesEXT;
typedef struct VkPastPresentationTimingInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkPastPresentationTimingFlagsEXT flags;
    VkSwapchainKHR swapchain;
} VkPastPresentationTimingInfoEXT;
typedef struct VkPresentStageTimeEXT {
    VkPresentStageFlagsEXT stage;
    uint64_t time;
} VkPresentStageTimeEXT;
typedef struct VkPastPresentationTimingEXT {
    VkStructureType sType;
    void *pNext;
    uint64_t presentId;
    uint64_t targetTime;
    uint32_t presentStageCount;
    VkPresentStageTimeEXT *pPresentStages;
    VkTimeDomainKHR timeDomain;
    uint64_t timeDomainId;
    VkBool32 reportComplete;
} VkPastPresentationTimingEXT;
typedef struct VkPastPresentationTimingPropertiesEXT {
    VkStructureType sType;
    void *pNext;
    uint64_t timingPropertiesCounter;
    uint64_t timeDomainsCounter;
    uint32_t presentationTimingCount;
    VkPastPresentationTimingEXT *pPresentationTimings;
} VkPastPresentationTimingPropertiesEXT;
typedef struct VkPresentTimingInfoEXT {
    VkStructureType sType;
    const void *pNext;
    VkPresentTimingInfoFlagsEXT flags;
    uint64_t targetTime;
    uint64_t timeDomainId;
    VkPresentStageFlagsEXT presentStageQueries;
    VkPresentStageFlagsEXT targetTimeDomainPresentStage;
} VkPresentTimingInfoEXT;
typedef struct VkPresentTimingsInfoEXT {
    VkStructureType sType;
    const void *pNext;
    uint32_t swapchainCount;
    const VkPresentTimingInfoEXT *pTimingInfos;
} VkPresentTimingsInfoEXT;
typedef VkResult (VKAPI_PTR *PFN_vkSetSwapchainPresentTimingQueueSizeEXT)(
    VkDevice device, VkSwapchainKHR swapchain, uint32_t size);
typedef VkResult (VKAPI_PTR *PFN_vkGetSwapchainTimingPropertiesEXT)(
    VkDevice device, VkSwapchainKHR swapchain,
    VkSwapchainTimingPropertiesEXT *pSwapchainTimingProperties,
    uint64_t *pSwapchainTimingPropertiesCounter);
typedef VkResult (VKAPI_PTR *PFN_vkGetSwapchainTimeDomainPropertiesEXT)(
    VkDevice device, VkSwapchainKHR swapchain,
    VkSwapchainTimeDomainPropertiesEXT *pSwapchainTimeDomainProperties,
    uint64_t *pTimeDomainsCounter);
typedef VkResult (VKAPI_PTR *PFN_vkGetPastPresentationTimingEXT)(
    VkDevice device, const VkPastPresentationTimingInfoEXT *pPastPresentationTimingInfo,
    VkPastPresentationTimingPropertiesEXT *pPastPresentationTimingProperties);
#endif

#endif
