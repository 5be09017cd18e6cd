# The generator against all of the installed xcb-proto: every module
# generates and compiles with -Werror; headers and exported functions equal
# Debian's where Debian has them; our dri3.xml/present.xml differ from
# xcb-proto's only by the protocol's newer additions.
XCBPROTO_TESTS = tests/xcbproto/generate-all.sh tests/xcbproto/against-debian.sh \
	tests/xcbproto/ours-vs-upstream.sh
TESTS += $(XCBPROTO_TESTS)
EXTRA_DIST += $(XCBPROTO_TESTS) tests/xcbproto/env.sh tests/xcbproto/abi-compare.py tests/xcbproto/symbols-compare.py \
	tests/xcbproto/cdecls.py tests/xcbproto/genmods.py
# Byte-exact requests and replies of the core protocol and the 14 extensions
# Debian has libraries for, through our generated code and through Debian's
# libraries; the decoded replies of both compared value by value.
TESTS += tests/xcbproto/wire-sample.sh
EXTRA_DIST += tests/xcbproto/wire-sample.sh tests/xcbproto/wire-sample.c
