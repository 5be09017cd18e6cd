#!/bin/sh
# Installs what building, testing and running xcb-dri3-present needs on Debian 12.
# (libxcb's other extension libraries are references for tests/xcbproto.)
set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
PACKAGES="
    autoconf automake libtool make pkg-config gcc g++ python3
    libxcb1-dev libxcb-randr0-dev libxcb-xfixes0-dev libxcb-sync-dev xcb-proto
    libxcb-dri3-dev libxcb-present-dev libxshmfence-dev
    libxml2-utils groff-base valgrind
    xvfb xauth
    weston xwayland xserver-xephyr xserver-xorg-core xserver-xorg-video-dummy
    libdrm-dev libgbm-dev libxcb-shm0-dev
    libx11-dev libx11-xcb-dev libxext-dev libxfixes-dev libxrandr-dev libxpresent-dev
    clang libclang-rt-14-dev
    x11-utils
    mesa-vulkan-drivers libvulkan-dev vulkan-tools vulkan-validationlayers vkd3d-demos mpv
    libxcb-xinput0 libxcb-composite0 libxcb-damage0 libxcb-res0 libxcb-xinerama0
    libxcb-screensaver0 libxcb-xtest0 libxcb-xv0 libxcb-xvmc0 libxcb-dpms0 libxcb-record0
    libxcb-xf86dri0 libxcb-dri2-0 libxcb-glx0 libxcb-xkb1
    libxcb-xkb-dev libxcb-xinput-dev libxcb-composite0-dev libxcb-damage0-dev libxcb-res0-dev
    libxcb-glx0-dev libxcb-dri2-0-dev libxcb-xinerama0-dev
"
# shellcheck disable=SC2086
if ! dpkg -s $PACKAGES >/dev/null 2>&1; then
    $SUDO apt-get update
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $PACKAGES
fi
