#!/bin/sh
# The essentially different grids of a shape, timed by `meson test
# --benchmark`, and checked against the published value: fails unless count
# prints it. Usage: bench_grid_essential.sh SUDOLAB SHAPE PUBLISHED
set -u
bin=$1 shape=$2 published=$3
out=$("$bin" count --empty "$shape" --grids --essential -j 2) || exit 1
printf '%s\n' "$out" | grep -qx "essentially-different $published" && exit 0
echo "count --empty $shape --grids --essential: not $published" >&2
exit 1
