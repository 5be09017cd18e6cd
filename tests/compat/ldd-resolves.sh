# Whether the dynamic linker picks our libraries from a given directory,
# sourced by run-against.sh and prefix-install.sh.

# Canonical path of an existing file, for comparing locations.
canon() {
    readlink -f "$1" 2>/dev/null || echo "$1"
}

# resolves_in LDD_OUTPUT LIBDIR: true when the ldd output in file LDD_OUTPUT
# resolves both libxcb-dri3.so.0 and libxcb-present.so.0 to files in LIBDIR
# (a library that ldd did not find resolves nowhere).
resolves_in() {
    for _lib in libxcb-dri3.so.0 libxcb-present.so.0; do
        _path=$(awk -v l="$_lib" '$1 == l && $2 == "=>" { print $3 }' "$1")
        case "$(canon "${_path:-/nonexistent}")" in
        "$(canon "$2")"/*) ;;
        *) return 1 ;;
        esac
    done
    return 0
}
