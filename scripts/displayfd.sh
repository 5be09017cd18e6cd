# Starting an X server that picks its own display number (Xvfb -displayfd,
# mock-x-server --displayfd) from a shell script, and stopping it by its
# PID.  Nobody looks for a free number, so scripts and tests running at
# the same time cannot race for one.  Source this file, then:
#
#   displayfd_start DIR COMMAND [ARGS...]
#       Runs COMMAND ARGS... in the background, with fd 3 on DIR/displayfd
#       (ARGS must ask the server to write its number there), stdin from
#       /dev/null, stdout on DIR/server.out and stderr on DIR/server.err.
#       Waits up to $DISPLAYFD_TIMEOUT seconds (default 20) for the number
#       and its newline, then sets server_pid and server_display (":N").
#       Returns 1 when none came (the server is stopped again).
#   displayfd_stop
#       SIGTERM to $server_pid, up to 5 s for it to exit, then SIGKILL;
#       reaps it and sets server_status to its exit status (0 when nothing
#       ran).  Safe to call twice, and from an EXIT trap.
#   displayfd_tmpdir NAME
#       Sets tmp to a new directory (named after NAME) and traps the
#       script's end: the server is stopped and tmp removed however the
#       script ends, and a signal ends it with status 1.
#
# Names starting with displayfd_ or _dfd_ are this file's.  The functions
# work under set -e: nothing in them that may fail ends the script.

server_pid=
server_display=
server_status=0

# True while the process runs.  kill -0 alone also succeeds for a child
# that has exited and that the shell has not reaped yet (a zombie).
_dfd_alive() {
    kill -0 "$1" 2>/dev/null || return 1
    _dfd_state=$(sed -n 's/^.*) \(.\).*$/\1/p' "/proc/$1/stat" 2>/dev/null) || :
    [ "$_dfd_state" != Z ]
}

displayfd_start() {
    _dfd_dir=$1
    shift
    : > "$_dfd_dir/displayfd"
    "$@" 3> "$_dfd_dir/displayfd" < /dev/null > "$_dfd_dir/server.out" \
        2> "$_dfd_dir/server.err" &
    server_pid=$!
    server_display=
    _dfd_tries=0
    while [ $_dfd_tries -lt $((${DISPLAYFD_TIMEOUT:-20} * 10)) ]; do
        # The number counts once its newline is there: a half-written
        # line is not a number yet.
        if [ "$(wc -l < "$_dfd_dir/displayfd")" -ge 1 ]; then
            _dfd_n=$(head -n 1 "$_dfd_dir/displayfd")
            case $_dfd_n in
            '' | *[!0-9]*) break ;;
            esac
            server_display=":$_dfd_n"
            return 0
        fi
        _dfd_alive "$server_pid" || break
        sleep 0.1
        _dfd_tries=$((_dfd_tries + 1))
    done
    displayfd_stop
    return 1
}

displayfd_tmpdir() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    trap 'displayfd_stop; rm -rf "$tmp"' EXIT
    trap 'exit 1' HUP INT TERM
}

displayfd_stop() {
    server_status=0
    [ -n "$server_pid" ] || return 0
    kill -TERM "$server_pid" 2>/dev/null || :
    _dfd_tries=0
    while [ $_dfd_tries -lt 50 ] && _dfd_alive "$server_pid"; do
        sleep 0.1
        _dfd_tries=$((_dfd_tries + 1))
    done
    # Not reaped yet, so the PID is still our child's.
    if _dfd_alive "$server_pid"; then
        kill -KILL "$server_pid" 2>/dev/null || :
    fi
    wait "$server_pid" 2>/dev/null && server_status=0 || server_status=$?
    server_pid=
}
