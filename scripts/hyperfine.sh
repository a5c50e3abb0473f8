#!/bin/sh
# Whole-process comparisons with hyperfine: `sudolab solve --solver X` for
# every registered back end (or those given), and `qqwing --solve
# --count-solutions` when qqwing is installed, each solving the same corpus
# from start to exit (process start, parsing, solving, output to /dev/null).
# sudolab solves with its default limit 2, so both prove uniqueness.
# Exported as JSON and CSV and plotted (mean and standard deviation per
# command, log scale).
#
# usage: scripts/hyperfine.sh [--out DIR] [--head N] [--solvers a,b] [CORPUS]
#   CORPUS    plain or xz-compressed; default:
#             datasets/public/puzzles3_magictour_top1465.xz
#   --head N  the first N puzzles of it (default 20)
#   --out DIR default results/hyperfine
# Environment: SUDOLAB_BIN (default build-release/sudolab), BUDGET_MS per
# puzzle (default 1000), RUNS (max runs per command, default 10).
# Writes DIR/hyperfine.json, hyperfine.csv, hyperfine.png/.svg and README.txt
# (which corpus); the puzzles themselves stay out of DIR (they are in the
# corpus file already).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/results/hyperfine
head=20
solvers=""
while [ $# -gt 0 ]; do
    case $1 in
        --out) out=$2; shift 2 ;;
        --head) head=$2; shift 2 ;;
        --solvers) solvers=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        -*) echo "hyperfine.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
corpus=${1:-}
if [ -z "$corpus" ]; then
    corpus=$root/datasets/public/puzzles3_magictour_top1465.xz
fi
bin=${SUDOLAB_BIN:-$root/build-release/sudolab}
budget=${BUDGET_MS:-1000}
runs=${RUNS:-10}
for tool in hyperfine gnuplot xz; do
    command -v $tool > /dev/null || { echo "hyperfine.sh: $tool is not installed" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "hyperfine.sh: $bin not found (build first or set SUDOLAB_BIN)" >&2; exit 2; }
mkdir -p "$out"
# the puzzles only, as plain text: qqwing reads no comment lines and no xz
# (xz -dcf copies a file that is not compressed as it is)
puzzles=$(mktemp)
trap 'rm -f "$puzzles"' EXIT
[ -f "$corpus" ] || { echo "hyperfine.sh: no $corpus" >&2; exit 2; }
xz -dcf "$corpus" | grep -v '^#' | tr -d '\r' | grep . | head -n "$head" > "$puzzles"
npuzzles=$(wc -l < "$puzzles")
[ -n "$solvers" ] || solvers=$("$bin" list --csv | awk -F, 'NR > 1 {print $1}' | paste -sd, -)

set --
for s in $(echo "$solvers" | tr ',' ' '); do
    set -- "$@" --command-name "$s" \
        "$bin solve --solver $s --budget-ms $budget $puzzles"
done
# qqwing reads standard input: a shell redirect (hyperfine runs every command
# through its shell and subtracts the shell's own start-up time)
if command -v qqwing > /dev/null; then
    set -- "$@" --command-name qqwing \
        "qqwing --solve --count-solutions --one-line < $puzzles"
fi
echo "hyperfine.sh: $npuzzles puzzles of $(basename "$corpus"), $(echo "$solvers" | tr ',' ' ')" >&2
hyperfine --warmup 1 --min-runs 3 --max-runs "$runs" --ignore-failure \
    --export-json "$out/hyperfine.json" --export-csv "$out/hyperfine.csv" "$@" >&2
printf 'corpus: %s (first %s puzzles)\n' "$(basename "$corpus")" "$npuzzles" > "$out/README.txt"
gnuplot -e "sdir='$root/scripts'; csv='$out/hyperfine.csv'; out='$out/hyperfine'; \
    what='$npuzzles puzzles of $(basename "$corpus")'" "$root/scripts/hyperfine.gp"
echo "hyperfine.sh: wrote $out/hyperfine.{json,csv,png,svg}" >&2
