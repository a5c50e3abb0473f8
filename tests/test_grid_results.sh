#!/bin/sh
# The committed shards of the 10x10 count (results/grids-10x10/) merge into
# the published total: every shard present once, every row's factors
# multiplying out (merge checks both), and the sum the published one.
# Usage: test_grid_results.sh SUDOLAB RESULTS-DIR
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
results=${2:?usage: test_grid_results.sh SUDOLAB RESULTS-DIR}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

"$bin" merge "$results"/grids-10x10/10x10-[0-9]*.txt > "$tmp/m" 2> "$tmp/err"
check "10x10: the 24 committed shards merge" $? 0
has "10x10: the published total" "$tmp/m" '^grids 1903816047972624930994913280000$'
grep -v '^# time' "$tmp/m" > "$tmp/a"
grep -v '^# time' "$results/grids-10x10/10x10.txt" > "$tmp/b"
same "10x10: the committed merge is that merge" "$tmp/a" "$tmp/b"
classes=$(awk '$1 ~ /^[0-9]+$/' "$tmp/m" | wc -l)
[ "$classes" -eq 355 ]
ok "10x10: all 355 classes, each once ($classes)" $?
