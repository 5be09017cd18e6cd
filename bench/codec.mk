# Per-call costs of the generated code against Debian's libxcb-dri3 and
# libxcb-present: one program (bench/codec-bench.c) built against each,
# run under callgrind by bench/codec-table.py, which rewrites the table in
# bench/README.md. Built by `make` (so it keeps compiling), run by
# `make bench`.
if HAVE_REF
CODEC_BENCH_SOURCES = bench/codec-bench.c
CODEC_BENCH_CPPFLAGS = -D_GNU_SOURCE -I$(top_srcdir)/mock
CODEC_BENCH_LDADD = mock/libmockserver.la $(XCB_LIBS) -lpthread
noinst_PROGRAMS += bench/codec-bench bench/codec-bench-ref
bench_codec_bench_SOURCES = $(CODEC_BENCH_SOURCES)
bench_codec_bench_CPPFLAGS = $(AM_CPPFLAGS) $(CODEC_BENCH_CPPFLAGS)
bench_codec_bench_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -O2
bench_codec_bench_LDADD = src/libxcb-dri3.la src/libxcb-present.la $(CODEC_BENCH_LDADD)
# Debian's headers and libraries: no -I for our generated headers.
bench_codec_bench_ref_SOURCES = $(CODEC_BENCH_SOURCES)
bench_codec_bench_ref_CPPFLAGS = $(CODEC_BENCH_CPPFLAGS) $(REF_CFLAGS)
bench_codec_bench_ref_CFLAGS = $(AM_CFLAGS) -O2
bench_codec_bench_ref_LDADD = $(REF_LIBS) $(CODEC_BENCH_LDADD)

bench-codec: bench/codec-bench bench/codec-bench-ref
	$(PYTHON) $(top_srcdir)/bench/codec-table.py --ours bench/codec-bench \
		--ref bench/codec-bench-ref --readme $(top_srcdir)/bench/README.md \
		--launcher "$(LIBTOOL) --mode=execute"
else
bench-codec:
	@echo "bench-codec: skipped, Debian's libxcb-dri3/libxcb-present are not installed"
endif
bench: bench-codec
.PHONY: bench-codec
EXTRA_DIST += bench/codec-table.py
