# libxcb-dri3-util, part 2: the probe, dma-buf buffers, the DRM device,
# formats and modifiers, explicit sync (declared in src/util/xcb_dri3_util.h
# after the fences).  Added to the library that src/util/local.mk builds.

src_libxcb_dri3_util_la_SOURCES += \
	src/util/conn-state.h src/util/probe.c \
	src/util/buffer-private.h src/util/buffer.c src/util/buffer-pixmap.c \
	src/util/buffer-gbm.c \
	src/util/formats.h src/util/formats.c src/util/modifiers.c \
	src/util/device.c src/util/syncobj.c src/util/present-synced.c
src_libxcb_dri3_util_la_CPPFLAGS += $(DRI3_UTIL_DRM_CFLAGS) $(GBM_CFLAGS)
src_libxcb_dri3_util_la_LIBADD += src/libxcb-present.la $(DRI3_UTIL_DRM_LIBS) $(GBM_LIBS) \
	$(XCB_EXT_DEPS_LIBS)

DRI3_UTIL_MAN_PAGES += \
	src/util/man/xcb_dri3_util_probe.3 \
	src/util/man/xcb_dri3_util_probe_forget.3
