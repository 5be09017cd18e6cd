# Fuzzing (tests/fuzz/README.md).
#
# `make check` replays the seed corpus and every saved finding through the
# targets built with the project's compiler (replay-replies, replay-events).
# `make fuzz` builds the libFuzzer targets with clang under ASan+UBSan, from
# the generated sources, and runs each for FUZZ_SECONDS, then fuzzes the
# generator's XML input for as long. `make fuzz-ref` runs the same C
# harnesses against Debian's libxcb-dri3/libxcb-present (stopping at the
# first crash); `make fuzz-compare` runs every corpus input through both.

FUZZ_SECONDS = 60
# Empty: a new random seed each run; CI sets one (see run-fuzz.sh).
FUZZ_SEED =
FUZZ_CC = clang
FUZZ_SAN = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -g -O1 -std=c11 -Wall -Wextra $(FUZZ_SAN)
FUZZ_TARGETS = replies events
FUZZ_DIR = tests/fuzz/bin
FUZZ_COMMON = $(top_srcdir)/tests/fuzz/fuzz-conn.c $(top_srcdir)/tests/fuzz/fuzz-conn.h \
	$(top_srcdir)/mock/mock-inproc.c $(top_srcdir)/mock/mock-inproc.h
# Our libraries' code, compiled into the targets with the sanitizers.
FUZZ_LIBCODE = src/dri3.c src/present.c $(top_srcdir)/src/reply_guard.c

check_PROGRAMS += tests/fuzz/replay-replies tests/fuzz/replay-events
TESTS += tests/fuzz/replay-replies tests/fuzz/replay-events tests/fuzz/replay-codegen.sh
VALGRIND_TESTS += tests/fuzz/replay-replies tests/fuzz/replay-events tests/fuzz/replay-codegen.sh
REPLAY_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -DFUZZ_OURS -I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock
REPLAY_LDADD = src/libxcb-dri3.la src/libxcb-present.la $(XCB_LIBS) -ldl -lpthread
tests_fuzz_replay_replies_SOURCES = tests/fuzz/fuzz-replay.c tests/fuzz/fuzz-replies.c \
	tests/fuzz/fuzz-conn.c tests/fuzz/fuzz-conn.h mock/mock-inproc.c mock/mock-inproc.h
tests_fuzz_replay_replies_CPPFLAGS = $(REPLAY_CPPFLAGS)
tests_fuzz_replay_replies_CFLAGS = $(AM_CFLAGS) -pthread
tests_fuzz_replay_replies_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_events_SOURCES = tests/fuzz/fuzz-replay.c tests/fuzz/fuzz-events.c \
	tests/fuzz/fuzz-conn.c tests/fuzz/fuzz-conn.h mock/mock-inproc.c mock/mock-inproc.h
tests_fuzz_replay_events_CPPFLAGS = $(REPLAY_CPPFLAGS)
tests_fuzz_replay_events_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
tests_fuzz_replay_events_LDADD = $(REPLAY_LDADD)

if HAVE_XLIB
# libXpresent behind a real Xlib Display, against fuzz-xserver.c's server.
FUZZ_XLIB = xlib
check_PROGRAMS += tests/fuzz/replay-xlib
TESTS += tests/fuzz/replay-xlib
VALGRIND_TESTS += tests/fuzz/replay-xlib
tests_fuzz_replay_xlib_SOURCES = tests/fuzz/fuzz-replay.c tests/fuzz/fuzz-xlib.c \
	tests/fuzz/fuzz-xserver.c tests/fuzz/fuzz-xserver.h tests/fuzz/fuzz-conn.c mock/mock-inproc.c \
	tests/fuzz/fuzz-conn.h $(TEST_CLOCK)
tests_fuzz_replay_xlib_CPPFLAGS = $(REPLAY_CPPFLAGS) -I$(top_srcdir)/src/xlib/include \
	-I$(top_srcdir)/tests/common \
	-DPRESENT_FUTURE_VERSION=1
tests_fuzz_replay_xlib_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XLIB_CFLAGS) \
	$(XLIB_HEADER_DEPS_CFLAGS) -pthread
tests_fuzz_replay_xlib_LDADD = src/xlib/libXpresent.la $(REPLAY_LDADD) $(XLIB_LIBS)

$(FUZZ_DIR)/fuzz-xlib: $(top_srcdir)/tests/fuzz/fuzz-xlib.c $(FUZZ_COMMON) \
		$(top_srcdir)/tests/fuzz/fuzz-xserver.c $(top_srcdir)/tests/fuzz/fuzz-xserver.h \
		$(TEST_CLOCK:%=$(top_srcdir)/%) \
		$(FUZZ_LIBCODE) $(XPRESENT_SOURCES:%=$(top_srcdir)/%) src/xcb/present.h
	$(AM_V_CC)$(MKDIR_P) $(FUZZ_DIR) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -DFUZZ_OURS -DPRESENT_FUTURE_VERSION=1 \
		-I$(top_builddir)/src -I$(top_srcdir)/src -I$(top_srcdir)/src/xlib/include \
		-I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock -I$(top_srcdir)/tests/common $(XCB_CFLAGS) \
		$(XCB_EXT_DEPS_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS) $< \
		$(top_srcdir)/tests/fuzz/fuzz-conn.c $(top_srcdir)/mock/mock-inproc.c $(top_srcdir)/tests/fuzz/fuzz-xserver.c \
		$(top_srcdir)/tests/common/test-clock.c $(FUZZ_LIBCODE) \
		$(filter %.c,$(XPRESENT_SOURCES:%=$(top_srcdir)/%)) -o $@ \
		$(XLIB_LIBS) $(XCB_LIBS) -ldl -lpthread
endif

EXTRA_DIST += tests/fuzz/README.md tests/fuzz/corpus_files.py tests/fuzz/make-corpus.py tests/fuzz/fuzz-codegen.py \
	tests/fuzz/make-xlib-corpus.py tests/fuzz/fuzz-xlib.supp tests/fuzz/fuzz-xlib.lsan \
	tests/fuzz/run-fuzz.sh tests/fuzz/replay-codegen.sh tests/fuzz/compare.sh \
	$(wildcard $(top_srcdir)/tests/fuzz/corpus/*/*) \
	$(wildcard $(top_srcdir)/tests/fuzz/regress/*/*)

$(FUZZ_DIR)/fuzz-%: $(top_srcdir)/tests/fuzz/fuzz-%.c $(FUZZ_COMMON) $(FUZZ_LIBCODE) \
		src/xcb/dri3.h src/xcb/present.h
	$(AM_V_CC)$(MKDIR_P) $(FUZZ_DIR) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -DFUZZ_OURS -I$(top_builddir)/src \
		-I$(top_srcdir)/src -I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock $(XCB_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) \
		$< $(top_srcdir)/tests/fuzz/fuzz-conn.c $(top_srcdir)/mock/mock-inproc.c $(FUZZ_LIBCODE) -o $@ \
		$(XCB_LIBS) -ldl -lpthread

# The same harnesses against Debian's libraries (their headers and .so),
# and both as replay programs (no libFuzzer) for `make fuzz-compare`.
FUZZ_REPLAY_SAN = -g -O1 -std=c11 -fsanitize=address,undefined -fno-sanitize-recover=all
$(FUZZ_DIR)/ref-fuzz-%: $(top_srcdir)/tests/fuzz/fuzz-%.c $(FUZZ_COMMON)
	$(AM_V_CC)$(MKDIR_P) $(FUZZ_DIR) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock $(REF_CFLAGS) \
		$< $(top_srcdir)/tests/fuzz/fuzz-conn.c $(top_srcdir)/mock/mock-inproc.c -o $@ $(REF_LIBS) $(XCB_LIBS) -ldl -lpthread
$(FUZZ_DIR)/replay-%: $(top_srcdir)/tests/fuzz/fuzz-%.c $(FUZZ_COMMON) $(FUZZ_LIBCODE) \
		$(top_srcdir)/tests/fuzz/fuzz-replay.c src/xcb/dri3.h src/xcb/present.h
	$(AM_V_CC)$(MKDIR_P) $(FUZZ_DIR) && \
	$(FUZZ_CC) $(FUZZ_REPLAY_SAN) -D_GNU_SOURCE -DFUZZ_OURS -I$(top_builddir)/src \
		-I$(top_srcdir)/src -I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock $(XCB_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) \
		$< $(top_srcdir)/tests/fuzz/fuzz-conn.c $(top_srcdir)/mock/mock-inproc.c $(top_srcdir)/tests/fuzz/fuzz-replay.c \
		$(FUZZ_LIBCODE) -o $@ $(XCB_LIBS) -ldl -lpthread
$(FUZZ_DIR)/ref-replay-%: $(top_srcdir)/tests/fuzz/fuzz-%.c $(FUZZ_COMMON) \
		$(top_srcdir)/tests/fuzz/fuzz-replay.c
	$(AM_V_CC)$(MKDIR_P) $(FUZZ_DIR) && \
	$(FUZZ_CC) $(FUZZ_REPLAY_SAN) -D_GNU_SOURCE -I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock $(REF_CFLAGS) \
		$< $(top_srcdir)/tests/fuzz/fuzz-conn.c $(top_srcdir)/mock/mock-inproc.c $(top_srcdir)/tests/fuzz/fuzz-replay.c \
		-o $@ $(REF_LIBS) $(XCB_LIBS) -ldl -lpthread

FUZZ_ENV = FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_SEED='$(FUZZ_SEED)' \
	TOP_SRCDIR='$(abs_top_srcdir)' PYTHON='$(PYTHON)' \
	XCBPROTO_DIR='$(XCBPROTO_DIR)'

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%) $(FUZZ_XLIB:%=$(FUZZ_DIR)/fuzz-%)
	$(FUZZ_ENV) $(SHELL) $(top_srcdir)/tests/fuzz/run-fuzz.sh $(FUZZ_DIR) fuzz- \
		$(FUZZ_TARGETS) $(FUZZ_XLIB) codegen

fuzz-ref: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/ref-fuzz-%)
	$(FUZZ_ENV) $(SHELL) $(top_srcdir)/tests/fuzz/run-fuzz.sh $(FUZZ_DIR) ref-fuzz- \
		$(FUZZ_TARGETS)

clean-local: clean-fuzz
clean-fuzz:
	-rm -rf $(FUZZ_DIR) tests/fuzz/run
# Every input in the corpus the last `make fuzz` grew (or the seed corpus),
# through ours and through Debian's: what crashes or leaks where.
fuzz-compare: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/replay-%) $(FUZZ_TARGETS:%=$(FUZZ_DIR)/ref-replay-%)
	$(FUZZ_ENV) $(SHELL) $(top_srcdir)/tests/fuzz/compare.sh $(FUZZ_DIR) $(FUZZ_TARGETS)

.PHONY: fuzz fuzz-ref fuzz-compare clean-fuzz

# The util libraries' targets (README.md): libxcb-present-util's swapchain
# and libxcb-dri3-util's server calls, against the scripted server of
# fuzz-server.c. No Debian counterpart, so not in fuzz-ref / fuzz-compare.
FUZZ_UTIL_TARGETS = swapchain dri3util
FUZZ_UTIL_HARNESS = tests/fuzz/fuzz-conn.c mock/mock-inproc.c tests/fuzz/fuzz-server.c \
	tests/fuzz/fuzz-server-answer.c tests/fuzz/fuzz-util-run.c tests/fuzz/fuzz-util-timeout.c \
	tests/fuzz/fuzz-vtime.c
FUZZ_UTIL_H_FILES = tests/fuzz/fuzz-conn.h mock/mock-inproc.h tests/fuzz/fuzz-server.h \
	tests/fuzz/fuzz-server-int.h tests/fuzz/fuzz-util-run.h tests/fuzz/fuzz-vtime.h
FUZZ_UTIL_LIBCODE = $(FUZZ_LIBCODE) \
	$(filter %.c,$(src_libxcb_dri3_util_la_SOURCES:%=$(top_srcdir)/%)) \
	$(filter %.c,$(src_libxcb_present_util_la_SOURCES:%=$(top_srcdir)/%))
FUZZ_UTIL_FLAGS = -D_GNU_SOURCE -DHAVE_CONFIG_H -I$(top_builddir) -I$(top_builddir)/src \
	-I$(top_srcdir)/src -I$(top_srcdir)/src/dri3-util -I$(top_srcdir)/src/present-util \
	-I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock $(XCB_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XCB_SHM_CFLAGS) \
	$(DRI3_UTIL_DRM_CFLAGS) $(GBM_CFLAGS)
FUZZ_UTIL_LIBS = $(XCB_SHM_LIBS) $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS) $(DRI3_UTIL_DRM_LIBS) \
	$(GBM_LIBS) -ldl -lpthread
# The harness's plumbing without coverage instrumentation (the file says which).
FUZZ_UTIL_IGNORE = tests/fuzz/fuzz-plumbing.ignorelist

# A static pattern rule: it wins over fuzz-%, which builds the bindings' targets.
$(FUZZ_UTIL_TARGETS:%=$(FUZZ_DIR)/fuzz-%): $(FUZZ_DIR)/fuzz-%: \
		$(top_srcdir)/tests/fuzz/fuzz-%.c $(FUZZ_UTIL_HARNESS:%=$(top_srcdir)/%) \
		$(FUZZ_UTIL_H_FILES:%=$(top_srcdir)/%) $(FUZZ_UTIL_LIBCODE) \
		$(top_srcdir)/$(FUZZ_UTIL_IGNORE) src/xcb/dri3.h src/xcb/present.h
	$(AM_V_CC)$(MKDIR_P) $(FUZZ_DIR) && \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize-coverage-ignorelist=$(top_srcdir)/$(FUZZ_UTIL_IGNORE) \
		$(FUZZ_UTIL_FLAGS) $< \
		$(FUZZ_UTIL_HARNESS:%=$(top_srcdir)/%) $(FUZZ_UTIL_LIBCODE) -o $@ $(FUZZ_UTIL_LIBS)

# `make fuzz` runs them after the bindings' targets (a target-specific
# value: the recipe of `fuzz` lists $(FUZZ_TARGETS)).
fuzz: $(FUZZ_UTIL_TARGETS:%=$(FUZZ_DIR)/fuzz-%)
fuzz: FUZZ_TARGETS += $(FUZZ_UTIL_TARGETS)

# `make check` replays their seeds and saved regressions, built with the
# project's compiler against the libraries themselves. Not under valgrind:
# each input waits for the swapchain's bounded waits, and the wall-clock
# check would measure valgrind.
FUZZ_UTIL_REPLAYS = tests/fuzz/replay-swapchain tests/fuzz/replay-dri3util
check_PROGRAMS += $(FUZZ_UTIL_REPLAYS)
TESTS += $(FUZZ_UTIL_REPLAYS)
FUZZ_UTIL_REPLAY_SRC = tests/fuzz/fuzz-replay.c $(FUZZ_UTIL_HARNESS) $(FUZZ_UTIL_H_FILES)
# FUZZ_VT_VERIFY: every answer the harness gives from its counts of the
# socket is checked against the kernel's (fuzz-server.h).
FUZZ_UTIL_REPLAY_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -DFUZZ_VT_VERIFY \
	-I$(top_srcdir)/tests/fuzz -I$(top_srcdir)/mock \
	-I$(top_srcdir)/src/dri3-util -I$(top_srcdir)/src/present-util
FUZZ_UTIL_REPLAY_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
FUZZ_UTIL_REPLAY_LDADD = src/libxcb-present-util.la src/libxcb-dri3-util.la \
	src/libxcb-dri3.la src/libxcb-present.la $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS) -ldl -lpthread
tests_fuzz_replay_swapchain_SOURCES = tests/fuzz/fuzz-swapchain.c $(FUZZ_UTIL_REPLAY_SRC)
tests_fuzz_replay_swapchain_CPPFLAGS = $(FUZZ_UTIL_REPLAY_CPPFLAGS)
tests_fuzz_replay_swapchain_CFLAGS = $(FUZZ_UTIL_REPLAY_CFLAGS)
tests_fuzz_replay_swapchain_LDADD = $(FUZZ_UTIL_REPLAY_LDADD)
tests_fuzz_replay_dri3util_SOURCES = tests/fuzz/fuzz-dri3util.c $(FUZZ_UTIL_REPLAY_SRC)
tests_fuzz_replay_dri3util_CPPFLAGS = $(FUZZ_UTIL_REPLAY_CPPFLAGS)
tests_fuzz_replay_dri3util_CFLAGS = $(FUZZ_UTIL_REPLAY_CFLAGS)
tests_fuzz_replay_dri3util_LDADD = $(FUZZ_UTIL_REPLAY_LDADD)
EXTRA_DIST += tests/fuzz/make-util-corpus.py $(FUZZ_UTIL_IGNORE) \
	$(wildcard $(top_srcdir)/tests/fuzz/findings/*/*)
