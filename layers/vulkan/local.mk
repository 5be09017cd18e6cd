# VK_LAYER_XCB_present (layers/vulkan/layer.h): a Vulkan WSI layer on
# libxcb-present-util.  Installed with two manifests: an explicit one
# (VK_INSTANCE_LAYERS=VK_LAYER_XCB_present) and an implicit one that is off
# unless XCB_PRESENT_VK_LAYER=1.  The build tree gets its own explicit
# manifest, so that VK_LAYER_PATH=layers/vulkan works without installing.

if HAVE_VULKAN
vklayerdir = $(libdir)
vklayer_LTLIBRARIES = layers/vulkan/libVkLayer_xcb_present.la
layers_vulkan_libVkLayer_xcb_present_la_SOURCES = layers/vulkan/layer.h \
	layers/vulkan/layer-objects.c layers/vulkan/layer-dispatch.c \
	layers/vulkan/layer-surface.c layers/vulkan/layer-swapchain.c \
	layers/vulkan/layer-present.c layers/vulkan/layer-timing.c layers/vulkan/vk-ext-decls.h
layers_vulkan_libVkLayer_xcb_present_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE \
	-I$(top_srcdir)/src/present-util -I$(top_srcdir)/src/dri3-util
layers_vulkan_libVkLayer_xcb_present_la_CFLAGS = $(AM_CFLAGS) $(VULKAN_CFLAGS) \
	$(VKLAYER_X11_CFLAGS) -pthread
# A layer never links the loader: the loader's entry points would stand in
# for the layer's own.
layers_vulkan_libVkLayer_xcb_present_la_LIBADD = src/libxcb-present-util.la \
	src/libxcb-dri3-util.la $(VKLAYER_X11_LIBS) $(XCB_LIBS) -lpthread
# The loader finds the layer by its manifest; only its entry points are
# exported.  (-rpath: libtool makes a shared module only for an install dir.)
layers_vulkan_libVkLayer_xcb_present_la_LDFLAGS = -module -avoid-version -no-undefined \
	-export-symbols-regex '^vk(GetInstanceProcAddr|GetDeviceProcAddr|NegotiateLoaderLayerInterfaceVersion)$$'

explicitlayerdir = $(datadir)/vulkan/explicit_layer.d
explicitlayer_DATA = layers/vulkan/install/explicit/VkLayer_xcb_present.json
implicitlayerdir = $(datadir)/vulkan/implicit_layer.d
implicitlayer_DATA = layers/vulkan/install/implicit/VkLayer_xcb_present.json
noinst_DATA = layers/vulkan/VkLayer_xcb_present.json

LAYER_MANIFEST = $(top_srcdir)/layers/vulkan/VkLayer_xcb_present.json.in
LAYER_IMPLICIT_ENV = ,\n        "enable_environment": { "XCB_PRESENT_VK_LAYER": "1" },\n        "disable_environment": { "DISABLE_XCB_PRESENT_VK_LAYER": "1" }

# the build tree's: the library beside it, in libtool's .libs
layers/vulkan/VkLayer_xcb_present.json: $(LAYER_MANIFEST)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	sed -e 's|@LIBRARY_PATH@|./.libs/libVkLayer_xcb_present.so|' -e 's|@ENVIRONMENT@||' \
		$(LAYER_MANIFEST) > $@
layers/vulkan/install/explicit/VkLayer_xcb_present.json: $(LAYER_MANIFEST)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	sed -e 's|@LIBRARY_PATH@|$(vklayerdir)/libVkLayer_xcb_present.so|' \
		-e 's|@ENVIRONMENT@||' $(LAYER_MANIFEST) > $@
layers/vulkan/install/implicit/VkLayer_xcb_present.json: $(LAYER_MANIFEST)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	sed -e 's|@LIBRARY_PATH@|$(vklayerdir)/libVkLayer_xcb_present.so|' \
		-e 's|@ENVIRONMENT@|$(LAYER_IMPLICIT_ENV)|' $(LAYER_MANIFEST) > $@
CLEANFILES += layers/vulkan/VkLayer_xcb_present.json \
	layers/vulkan/install/explicit/VkLayer_xcb_present.json \
	layers/vulkan/install/implicit/VkLayer_xcb_present.json
endif
EXTRA_DIST += layers/vulkan/VkLayer_xcb_present.json.in
