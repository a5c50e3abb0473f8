#!/bin/sh
# A published grid total, timed by `meson test --benchmark` and checked: fails
# unless `sudolab count ARGS...` prints the line EXPECTED.
# Usage: bench_grid_total.sh SUDOLAB EXPECTED ARGS...
set -u
bin=$1 expected=$2
shift 2
out=$("$bin" count "$@") || exit 1
printf '%s\n' "$out" | grep -qx -- "$expected" && exit 0
echo "count $*: no line '$expected'" >&2
exit 1
