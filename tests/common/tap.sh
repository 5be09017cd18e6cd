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
