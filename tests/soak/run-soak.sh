#!/bin/sh
# Runs the soak program and turns its TAP output into automake-style
# "# PASS:" / "# FAIL:" counts, which .ci/run adds to its summary.
#
#     run-soak.sh PROGRAM LOG
set -u
prog=$1
log=$2
"$prog" >"$log.tap" 2>&1
status=$?
cat "$log.tap"
pass=$(grep -c '^ok ' "$log.tap")
fail=$(grep -c '^not ok ' "$log.tap")
# A program that died before it printed a result failed all the same.
[ "$status" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
{
    cat "$log.tap"
    echo "# TOTAL: $((pass + fail))"
    echo "# PASS: $pass"
    echo "# FAIL: $fail"
} >"$log"
rm -f "$log.tap"
[ "$fail" -eq 0 ]
