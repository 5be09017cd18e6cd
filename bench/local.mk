# Benchmarks: built by `make` (so that they keep compiling), run by
# `make bench`; never part of `make check`.  Other benchmarks add their own
# prerequisites to the bench target.

.PHONY: bench bench-fence
bench: bench-fence

# Fences against libxshmfence, which is also what they are compared with.
if HAVE_XSHMFENCE
noinst_PROGRAMS += bench/fence-bench
bench_fence_bench_SOURCES = bench/fence-bench.c
bench_fence_bench_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/util \
	$(XSHMFENCE_CFLAGS)
bench_fence_bench_LDADD = src/libxcb-dri3-util.la $(XSHMFENCE_LIBS)

bench-fence: bench/fence-bench
	./bench/fence-bench
else
bench-fence:
	@echo "bench-fence: skipped, libxshmfence (to compare against) is not installed"
endif
EXTRA_DIST += bench/README.md
