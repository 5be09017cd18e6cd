#!/bin/sh
# Nothing in the util libraries waits on the X server without a bound
# (issue 22): libxcb's blocking waits must not appear among the undefined
# dynamic symbols of libxcb-dri3-util and libxcb-present-util.  Their one
# bounded wait is xcb_dri3_util_wait_reply() and friends (src/dri3-util/wait.c),
# built on xcb_poll_for_reply().  Forbidden: xcb_wait_for_reply(64),
# xcb_request_check, xcb_wait_for_event, xcb_wait_for_special_event,
# xcb_get_maximum_request_length (a BigRequests round trip), and
# every generated xcb_*_reply (their accessors, *_reply_fds and
# *_reply_*, are fine; so are xcb_poll_for_reply and xcb_discard_reply,
# which never block, and the bounded wait itself, xcb_dri3_util_wait_reply).
# TAP output.
#
# NO_BLOCKING_WAITS_TODO may name libraries whose conversion is under way:
# their failures are reported as TODO and do not fail the suite.  Empty by
# default: every library is held to the rule.  (xcb_get_extension_data()
# blocks too, but is also the way to read libxcb's cache: the libraries
# call it only after a bounded round trip behind the QueryExtension.)
libdir="${TOP_BUILDDIR:-.}/src/.libs"
todo="${NO_BLOCKING_WAITS_TODO-}"
forbidden='xcb_wait_for_reply|xcb_wait_for_reply64|xcb_request_check|xcb_wait_for_event'
forbidden="$forbidden|xcb_wait_for_special_event|xcb_get_maximum_request_length|xcb_[a-z0-9_]+_reply"
allowed='xcb_poll_for_reply|xcb_discard_reply|xcb_dri3_util_[a-z0-9_]+'
set -- libxcb-dri3-util libxcb-present-util
echo "1..$#"
i=0
for lib in "$@"; do
    i=$((i + 1))
    so="$libdir/$lib.so"
    if [ ! -r "$so" ] || ! command -v nm >/dev/null 2>&1; then
        echo "ok $i # SKIP $lib.so or nm is missing"
        continue
    fi
    blocking=$(nm -D --undefined-only "$so" | awk '{ sub(/@.*/, "", $2); print $2 }' |
        grep -E "^($forbidden)\$" | grep -v -E "^($allowed)\$" | tr "\n" " " | sed "s/ *$//")
    directive=
    case " $todo " in
    *" $lib "*) directive=" # TODO $lib is still being converted to the bounded wait" ;;
    esac
    if [ -z "$blocking" ]; then
        echo "ok $i - $lib makes no blocking libxcb wait"
    else
        echo "not ok $i - $lib calls blocking libxcb waits: $blocking$directive"
    fi
done
