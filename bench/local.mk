# Benchmarks: built by `make` (so that they keep compiling), run by
# `make bench`; never part of `make check`.  Other benchmarks add their own
# prerequisites to the bench target.

.PHONY: bench bench-fence
bench: bench-fence

# Fences against libxshmfence, which is also what they are compared with.
if HAVE_XSHMFENCE
noinst_PROGRAMS += bench/fence-bench
bench_fence_bench_SOURCES = bench/fence-bench.c tools/clock.h
bench_fence_bench_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/dri3-util \
	-I$(top_srcdir)/tools \
	$(XSHMFENCE_CFLAGS)
bench_fence_bench_LDADD = src/libxcb-dri3-util.la $(XSHMFENCE_LIBS)

bench-fence: bench/fence-bench
	./bench/fence-bench
else
bench-fence:
	@echo "bench-fence: skipped, libxshmfence (to compare against) is not installed"
endif
EXTRA_DIST += bench/README.md

# The swapchain against a plain loop on libxcb-present, on a private Xvfb:
# latency to the vblank that showed a frame, missed vblanks, client CPU
# time and heap allocations per frame (bench/README.md).
.PHONY: bench-present
bench: bench-present
noinst_PROGRAMS += bench/present-bench
bench_present_bench_SOURCES = bench/present-bench.c bench/syscall-count.c bench/syscall-count.h \
	tools/clock.h
bench_present_bench_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/present-util \
	-I$(top_srcdir)/tools
bench_present_bench_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XCB_SHM_CFLAGS)
bench_present_bench_LDADD = tools/libxvfb-spawn.la src/libxcb-present-util.la src/libxcb-present.la $(XCB_SHM_LIBS) \
	$(XCB_LIBS)

bench-present: bench/present-bench
	./bench/present-bench

# The server's own limits, with a raw libxcb-present loop: frames a FIFO
# loop loses, and the latency floor over a sweep of send phases
# (bench/README.md); on Xwayland through tests/servers/with-server.
.PHONY: bench-present-floor
bench: bench-present-floor
noinst_PROGRAMS += bench/present-floor
bench_present_floor_SOURCES = bench/present-floor.c tools/clock.h
bench_present_floor_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/tools
bench_present_floor_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XCB_SHM_CFLAGS)
bench_present_floor_LDADD = tools/libxvfb-spawn.la src/libxcb-present.la $(XCB_SHM_LIBS) $(XCB_LIBS)

bench-present-floor: bench/present-floor tests/servers/with-server
	./bench/present-floor fifo 240
	./bench/present-floor sweep 20 500
	tests/servers/with-server xwayland ./bench/present-floor --on-display fifo 240
	tests/servers/with-server xwayland ./bench/present-floor --on-display --managed fifo 240
	tests/servers/with-server xwayland ./bench/present-floor --on-display sweep 20 500

# The same rows' instructions per frame, under callgrind.
.PHONY: bench-present-instructions
bench-present-instructions: bench/present-bench
	$(top_srcdir)/bench/present-instructions.sh
EXTRA_DIST += bench/present-instructions.sh

# vkcube through Mesa's X11 WSI and through the Vulkan layer, on a private
# Xvfb: frames per second, CPU and bytes written per frame, and the
# latency from present timing (bench/README.md).
.PHONY: bench-vk-layer
bench: bench-vk-layer
if HAVE_VULKAN
bench-vk-layer: layers/vulkan/libVkLayer_xcb_present.la layers/vulkan/VkLayer_xcb_present.json \
		tests/vulkan/vk-client
	$(top_srcdir)/bench/vk-layer-bench.sh 300
else
bench-vk-layer:
	@echo "bench-vk-layer: skipped, the Vulkan layer is not built"
endif
EXTRA_DIST += bench/vk-layer-bench.sh
