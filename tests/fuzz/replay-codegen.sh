#!/bin/sh
# The generator's fuzz findings, replayed (TAP): each saved XML must now give
# a FILE:LINE: error: or C that compiles.
top=${TOP_SRCDIR:-$(dirname "$0")/../..}
exec ${PYTHON:-python3} "$top/tests/fuzz/fuzz-codegen.py" --replay "$top"/tests/fuzz/regress/codegen/*.xml
