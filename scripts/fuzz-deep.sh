#!/bin/sh
# Fuzzing at depth (not CI): the solver target to RUNS executions (default 10
# million) from a seed corpus of boundary puzzles of every box shape, made
# here with sudolab itself: per shape a generated unique puzzle, its
# solution, the solution less one cell, the empty grid, the first row alone,
# and two equal clues in a row; each once for the reference pair and once for
# every back end (the target's first byte), and 3x3 also as a diagonal
# puzzle. Then the corpus reader target for SECONDS (default 600) on its seeds
# (every encoding: BOM, CR, mixed ends, UTF-16, binary, compressed).
# Prints each target's executions and findings; exit status 1 on a finding
# (the input is kept in build-fuzz/tests/fuzz/crash-*).
# A unit may take 30 s before it counts as a hang (not 10 as in CI): the
# target runs every back end on 25x25 grids, and a loaded machine with the
# leak check's rerun slows one past 10 s without any hang.
# MAX-SECONDS caps the solver target's run (default 0: none) on a machine
# too slow for RUNS; the executions reached are printed either way.
# Usage: scripts/fuzz-deep.sh [RUNS] [SECONDS] [MAX-SECONDS]
set -u
cd "$(dirname "$0")/.." || exit 1
runs=${1:-10000000}
seconds=${2:-600}
max_seconds=${3:-0}
dir=build-fuzz # as scripts/fuzz.sh builds it: clang, address and undefined sanitizers
if [ ! -f "$dir/build.ninja" ]; then
    CC=clang meson setup "$dir" -Dfuzz=true -Dtests=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false > /dev/null || exit 1
fi
ninja -C "$dir" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
plain=build-fuzz-seeds
if [ ! -x "$plain/sudolab" ]; then
    meson setup "$plain" -Dtests=disabled -Dbuildtype=release > /dev/null || exit 1
fi
ninja -C "$plain" sudolab > /dev/null || exit 1
sudolab=$plain/sudolab

seeds=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$seeds" "$work"' EXIT
trap 'exit 130' INT TERM
cp tests/fuzz/solvers/* "$seeds"/
# seed NAME VARIANT TEXT: TEXT after the target's first byte, twice: for the
# reference pair (VARIANT: 0 standard, 1 diagonal) and for every back end (+2)
seed() {
    { printf "\\00$2"; printf '%s\n' "$3"; } > "$seeds/$1"
    { printf "\\00$(($2 + 2))"; printf '%s\n' "$3"; } > "$seeds/$1-all"
}
for shape in 1x4 4x1 2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2 3x4 4x3 3x5 5x3 4x4 4x5 5x4 5x5; do
    puzzle=$("$sudolab" generate --size "$shape" --count 1 --seed 7 2> /dev/null | tail -n 1)
    [ -n "$puzzle" ] || { echo "fuzz-deep: no $shape puzzle (skipped)"; continue; }
    solution=$("$sudolab" solve --solver mrv --size "$shape" "$puzzle" | awk '{print $NF}')
    len=${#solution}
    side=$(awk -v s="$len" 'BEGIN {print int(sqrt(s) + 0.5)}')
    empty=$(printf "%${len}s" '' | tr ' ' '.')
    first_row=$(printf '%s' "$solution" | cut -c "1-$side")
    dots=$(printf "%$((len - side))s" '' | tr ' ' '.')
    c1=$(printf '%s' "$solution" | cut -c 1)
    seed "$shape-puzzle" 0 "$puzzle"
    seed "$shape-solution" 0 "$solution"
    seed "$shape-one-blank" 0 ".$(printf '%s' "$solution" | cut -c 2-)"
    seed "$shape-empty" 0 "$empty"
    seed "$shape-first-row" 0 "$first_row$dots"
    seed "$shape-conflict" 0 "$c1$c1$(printf '%s' "$empty" | cut -c 3-)"
done
diag=$("$sudolab" generate --size 3x3 --variant diagonal --count 1 --seed 7 | tail -n 1)
seed "3x3-diagonal" 1 "$diag"
echo "fuzz-deep: $(ls "$seeds" | wc -l) solver seeds"

status=0
cp "$seeds"/* "$work"/
log=$dir/tests/fuzz/fuzz_solvers-deep.log
start=$(date +%s)
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$dir/tests/fuzz/fuzz_solvers" -runs="$runs" -max_total_time="$max_seconds" -max_len=4096 -timeout=30 \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/tests/fuzz/crash-fuzz_solvers-" "$work" > "$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" -eq 0 ]; then
    echo "fuzz_solvers: ${execs:-?} executions (of $runs asked) in $(($(date +%s) - start)) s, no finding"
else
    echo "fuzz_solvers: FINDING after ${execs:-?} executions (log: $log)"
    tail -n 40 "$log"
    status=1
fi
sh tests/fuzz/run.sh "$dir/tests/fuzz/fuzz_corpus" tests/fuzz/corpus_reader "$seconds" \
    "$dir/tests/fuzz" || status=1
exit $status
