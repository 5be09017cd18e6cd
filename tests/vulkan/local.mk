# Tests of VK_LAYER_XCB_present (layers/vulkan): a Vulkan client of the
# tests' own (tests/vulkan/vk-client.c: swapchain scenarios, each checked
# against the Vulkan rules), unmodified vkcube, and vkd3d's demos and mpv
# (programs.sh), through the layer on
# lavapipe, on a private Xvfb and on Xwayland (tests/servers/with-server),
# each without validation and with the validation layer above and below
# the layer.  They skip where there is no lavapipe or no such program.

if HAVE_VULKAN
check_PROGRAMS += tests/vulkan/vk-client
tests_vulkan_vk_client_SOURCES = tests/vulkan/vk-client.c
tests_vulkan_vk_client_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/layers/vulkan
tests_vulkan_vk_client_CFLAGS = $(AM_CFLAGS) $(VULKAN_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
tests_vulkan_vk_client_LDADD = src/libxcb-present.la $(VULKAN_LIBS) $(XCB_LIBS)

VULKAN_TESTS = tests/vulkan/vk-client.sh tests/vulkan/vkcube.sh tests/vulkan/programs.sh
TESTS += $(VULKAN_TESTS)
$(VULKAN_TESTS:.sh=.log): tests/vulkan/vk-client tests/servers/with-server \
	layers/vulkan/libVkLayer_xcb_present.la layers/vulkan/VkLayer_xcb_present.json
endif
EXTRA_DIST += tests/vulkan/vk-client.sh tests/vulkan/vkcube.sh tests/vulkan/programs.sh \
	tests/vulkan/vulkan-env.sh
