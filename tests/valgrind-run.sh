#!/bin/sh
# LOG_COMPILER for running a test program under valgrind's memcheck: any
# memory error or definite leak makes the program (or the forked test) fail.
# Test programs in the build tree are libtool wrappers, hence --mode=execute.
# Everything runs several times slower under valgrind.
TEST_TIMEOUT=${TEST_TIMEOUT:-60}; export TEST_TIMEOUT
# Leaks of other libraries that a component cannot avoid: tests/*/*.supp.
supp=
for f in "${TOP_SRCDIR:-.}"/tests/*/*.supp; do
    [ -e "$f" ] && supp="$supp --suppressions=$f"
done
# shellcheck disable=SC2086
exec "${TOP_BUILDDIR:-.}/libtool" --mode=execute valgrind -q --error-exitcode=99 \
    --leak-check=full --errors-for-leak-kinds=definite --track-fds=no $supp "$@"
