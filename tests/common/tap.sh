# TAP for the shell tests, sourced (". tests/common/tap.sh").  Each check
# prints one line, numbered from 1; $failed is 1 once one failed, for the
# scripts that also end with a status.  The plan ("1..N") is the script's.
n=0
failed=0

ok() {
    n=$((n + 1))
    echo "ok $n - $1"
}

# not_ok DESCRIPTION [FILE]: FILE, when given, is shown as diagnostics.
not_ok() {
    n=$((n + 1))
    echo "not ok $n - $1"
    failed=1
    if [ -n "${2:-}" ]; then
        diag "$2"
    fi
}

# skip DESCRIPTION REASON
skip() {
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}

# Every line of a file as a diagnostic.
diag() {
    sed 's/^/# /' "$1"
}

# The setup every TAP script makes before its first check.

# bail_out MESSAGE: gives up on the whole script (TAP's "Bail out!").
bail_out() {
    echo "Bail out! $1"
    exit 1
}

# need TEST_OP WHAT FILE...: bails out, saying "FILE WHAT", at the first
# FILE for which `test TEST_OP FILE` fails
# (need -x "is not an executable file" "$ref" "$ours").
need() {
    _need_op=$1
    _need_what=$2
    shift 2
    for _need_file in "$@"; do
        test "$_need_op" "$_need_file" || bail_out "$_need_file $_need_what"
    done
}

# tap_tmpdir NAME: sets $tmp to a new directory, removed when the script
# ends or is interrupted.
tap_tmpdir() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT HUP INT TERM
}
