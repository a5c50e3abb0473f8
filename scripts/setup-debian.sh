#!/bin/sh
# Installs what sudolab needs on Debian 12 when something is missing: the
# build (meson, ninja, gcc, cmocka, liblzma and zlib for compressed corpora),
# the optional back ends' libraries (CaDiCaL, GLPK, Gecode with g++ for its
# adapter), and the tools of the report and the scripts (gnuplot, hyperfine,
# xz), and man-db with groff for the install test's look at sudolab(1).
# Installs as root, or through sudo; without either it only says what is
# missing.
# Usage: scripts/setup-debian.sh [extra-package ...]
set -eu
packages="meson ninja-build gcc pkg-config libcmocka-dev liblzma-dev zlib1g-dev \
libcadical-dev libglpk-dev libgecode-dev g++ gnuplot-nox hyperfine xz-utils git \
man-db groff-base $*"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo > /dev/null 2>&1; then
        echo "setup-debian: missing packages:$missing (run as root to install them)" >&2
        exit 0
    fi
    sudo="sudo"
fi
echo "setup-debian: installing$missing" >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >&2
