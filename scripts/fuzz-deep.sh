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
# (the input is kept in BUILD/tests/fuzz/crash-*).
# A unit may take 30 s before it counts as a hang (not 10 as in CI): the
# target runs every back end on 25x25 grids, and a loaded machine with the
# leak check's rerun slows one past 10 s without any hang.
# MAX-SECONDS caps the solver target's run (default 0: none) on a machine
# too slow for RUNS; the executions reached are printed either way.
# Environment:
#   SANITIZE [undefined]  the sanitizers of the fuzz build. UndefinedBehavior-
#                         Sanitizer alone runs the solver target about a
#                         hundred times faster than with AddressSanitizer (whose
#                         leak check and shadow memory dominate the small
#                         solves): ~180 inputs a second per worker on this
#                         target (AMD EPYC Zen 5); SANITIZE=address,undefined is the
#                         CI build's (scripts/fuzz.sh) for a slower, deeper
#                         look at memory errors. SANITIZE=none runs 3.3x as
#                         many inputs again (600 against 180 a second per
#                         worker, same corpus, side by side) and still finds
#                         crashes, aborts (a back end's error, a wrong or
#                         unverified solution, two back ends disagreeing),
#                         hangs and runaway memory, but not undefined
#                         behaviour: the depth of a campaign, with the
#                         sanitized builds for their checks.
#   WORKERS [1]           solver-target processes sharing one corpus folder,
#                         each running RUNS/WORKERS executions; the total of
#                         their executions is printed.
#   NICE [0]              niceness of the workers (a deep run can then share
#                         a machine with interactive work).
#   TIMEOUT [30; 120 with NICE]  seconds a unit may take before it is run
#                         again alone to tell a hang from a starved worker.
#   CORPUS [none]         a folder that keeps the solver target's corpus
#                         between runs (made and seeded when missing), so a
#                         long campaign can go on in several runs; without
#                         it the corpus is a temporary folder. Each run
#                         appends a line to CORPUS.ledger (date, revision,
#                         sanitizers, executions, outcome) and the campaign's
#                         total of executions is printed.
# Usage: scripts/fuzz-deep.sh [RUNS] [SECONDS] [MAX-SECONDS]
set -u
cd "$(dirname "$0")/.." || exit 1
runs=${1:-10000000}
seconds=${2:-600}
max_seconds=${3:-0}
sanitize=${SANITIZE:-undefined}
workers=${WORKERS:-1}
niceness=${NICE:-0}
case $workers in '' | *[!0-9]* | 0) echo "fuzz-deep: WORKERS must be a positive integer" >&2; exit 2 ;; esac
case $sanitize in
    address,undefined) dir=build-fuzz ;; # as scripts/fuzz.sh builds it
    *) dir=build-fuzz-$(printf '%s' "$sanitize" | tr ',' '-') ;;
esac
if [ ! -f "$dir/build.ninja" ]; then
    CC=clang meson setup "$dir" -Dfuzz=true -Dtests=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize="$sanitize" -Db_lundef=false > /dev/null || exit 1
fi
# the fuzz targets only: without a sanitizer runtime nothing else links
# (every object carries the fuzzer's coverage hooks)
ninja -C "$dir" tests/fuzz/fuzz_solvers tests/fuzz/fuzz_corpus > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
plain=build-fuzz-seeds
if [ ! -x "$plain/sudolab" ]; then
    meson setup "$plain" -Dtests=disabled -Dbuildtype=release > /dev/null || exit 1
fi
ninja -C "$plain" sudolab > /dev/null || exit 1
sudolab=$plain/sudolab

seeds=$(mktemp -d)
if [ -n "${CORPUS:-}" ]; then
    work=$CORPUS
    mkdir -p "$work" || exit 1
    trap 'rm -rf "$seeds"' EXIT
else
    work=$(mktemp -d)
    trap 'rm -rf "$seeds" "$work"' EXIT
fi
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
revision=$(git describe --always --dirty 2>/dev/null || echo unknown) # what the build ran
cp "$seeds"/* "$work"/ # by name: a kept corpus gains the seeds once
start=$(date +%s)
each=$(((runs + workers - 1) / workers))
fuzzer=$dir/tests/fuzz/fuzz_solvers
limit=30
[ "$niceness" -gt 0 ] && limit=120 # a niced worker can wait that long for a core
limit=${TIMEOUT:-$limit}
rm -f "$dir"/tests/fuzz/fuzz_solvers-deep-*.log
# worker W: runs the target until its share of RUNS (or MAX-SECONDS) is
# done. A unit over the time limit is run again alone, at normal priority:
# if it finishes there within the limit, the worker was starved by the load
# (not a hang), which is said, and the worker goes on. Exit status 0 clean,
# 1 a finding, 3 interrupted.
worker() {
    w=$1 left=$each part=0
    while :; do
        log=$dir/tests/fuzz/fuzz_solvers-deep-$w-$part.log
        budget=0
        if [ "$max_seconds" -gt 0 ]; then
            budget=$((max_seconds - ($(date +%s) - start)))
            [ "$budget" -gt 0 ] || return 0
        fi
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
            nice -n "$niceness" "$fuzzer" -runs="$left" -max_total_time="$budget" \
            -max_len=4096 -timeout="$limit" -rss_limit_mb=2048 -print_final_stats=1 \
            -seed="$w$part" -artifact_prefix="$dir/tests/fuzz/crash-fuzz_solvers-" \
            "$work" > "$log" 2>&1 && return 0
        grep -q 'libFuzzer: run interrupted' "$log" && return 3
        grep -q 'libFuzzer: timeout' "$log" || return 1
        unit=$(sed -n 's/.*Test unit written to //p' "$log")
        alone_start=$(date +%s)
        UBSAN_OPTIONS=halt_on_error=1 "$fuzzer" -timeout=30 "$unit" > "$log.alone" 2>&1 || return 1
        echo "fuzz-deep: worker $w: a unit over ${limit} s under load took" \
            "$(($(date +%s) - alone_start)) s alone: starved, not a hang ($unit.starved)"
        mv "$unit" "$unit.starved"
        done_now=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        left=$((left - ${done_now:-0}))
        [ "$left" -gt 0 ] || return 0
        part=$((part + 1))
    done
}
pids=""
w=1
while [ "$w" -le "$workers" ]; do
    worker "$w" &
    pids="$pids $!"
    w=$((w + 1))
done
# SIGINT or SIGTERM: the fuzzers are asked to stop (they print their
# executions), and the run is recorded as interrupted.
stopped=""
on_signal() {
    stopped=1
    for pid in $pids; do pkill -INT -P "$pid"; done
}
trap on_signal INT TERM
found=0 interrupted=0
for pid in $pids; do
    while :; do
        wait "$pid"
        rc=$?
        [ "$rc" -gt 128 ] && kill -0 "$pid" 2> /dev/null && continue # a signal, not its end
        break
    done
    case $rc in
        0) ;;
        3 | 130 | 143) interrupted=$((interrupted + 1)) ;;
        *) found=$((found + 1)) ;;
    esac
done
[ -n "$stopped" ] && [ "$found" -eq 0 ] && interrupted=$((interrupted + 1))
execs=$(cat "$dir"/tests/fuzz/fuzz_solvers-deep-*.log \
    | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{n += $1} END {print n + 0}')
took=$(($(date +%s) - start))
outcome=clean
if [ "$found" -gt 0 ]; then
    outcome=finding
    echo "fuzz_solvers: FINDING in $found worker(s) after $execs executions" \
        "(logs: $dir/tests/fuzz/fuzz_solvers-deep-*.log)"
    for f in "$dir"/tests/fuzz/fuzz_solvers-deep-*.log; do
        grep -q '^Done [0-9]* runs' "$f" || tail -n 40 "$f"
    done
    status=1
elif [ "$interrupted" -gt 0 ]; then
    outcome=interrupted
    echo "fuzz_solvers: interrupted after $execs executions by $workers worker(s) in $took s"
    status=130
else
    echo "fuzz_solvers: $execs executions (of $runs asked) by $workers worker(s) in $took s" \
        "($sanitize sanitizer), no finding"
fi
if [ -n "${CORPUS:-}" ]; then
    printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
        "$revision" "$sanitize" "$execs" \
        "$outcome" >> "$CORPUS.ledger"
    awk -F '\t' -v c="$CORPUS" '{n += $4; k++} END {printf "campaign %s: %d executions over %d run(s)\n", c, n, k}' \
        "$CORPUS.ledger"
fi
[ "$status" -eq 130 ] && exit 130
sh tests/fuzz/run.sh "$dir/tests/fuzz/fuzz_corpus" tests/fuzz/corpus_reader "$seconds" \
    "$dir/tests/fuzz" || status=1
exit $status
