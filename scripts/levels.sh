#!/bin/sh
# The reasoning ladder on the shipped 9x9 corpora (docs/levels.md): `sudolab
# levels` over each, then the share each level solves per corpus and the plot.
#
# usage: scripts/levels.sh [--jobs N] [--out DIR] [CORPUS...]
#   --jobs N    threads of sudolab levels (default 2)
#   --out DIR   default results/levels
#   CORPUS      default: every 9x9 corpus under datasets/ (public/*.xz,
#               generated/9x9_*.txt)
# Environment: SUDOLAB_BIN (default build-release/sudolab, else build/sudolab).
#
# Writes DIR/levels.csv.xz (a row per puzzle), DIR/times.txt (each corpus's
# wall and CPU seconds), DIR/shares.csv (corpus x level: solved, limit,
# share), DIR/table-{summary,human,cp,sat}.md and DIR/levels.png/.svg.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sdir=$root/scripts
jobs=2
out=$root/results/levels
while [ $# -gt 0 ]; do
    case $1 in
        --jobs) jobs=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --help | -h) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --*) echo "levels.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
bin=${SUDOLAB_BIN:-}
if [ -z "$bin" ]; then
    bin=$root/build-release/sudolab
    [ -x "$bin" ] || bin=$root/build/sudolab
fi
if [ $# -eq 0 ]; then
    set -- "$root"/datasets/public/*.xz "$root"/datasets/generated/9x9_*.txt
fi
mkdir -p "$out"
csv=$out/levels.csv
: > "$out/times.txt"
first=1
for corpus in "$@"; do
    start=$(date +%s.%N)
    cpu0=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat 2> /dev/null || echo 0)
    if [ $first -eq 1 ]; then
        "$bin" levels -j "$jobs" --no-puzzle "$corpus" > "$csv"
        first=0
    else
        "$bin" levels -j "$jobs" --no-puzzle "$corpus" | sed 1d >> "$csv"
    fi
    cpu1=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat 2> /dev/null || echo 0)
    end=$(date +%s.%N)
    awk -v c="${corpus##*/}" -v s="$start" -v e="$end" -v a="$cpu0" -v b="$cpu1" \
        -v hz="$(getconf CLK_TCK)" -v j="$jobs" \
        'BEGIN { printf "%s: %.1f s wall, %.1f s CPU, -j %d\n", c, e - s, (b - a) / hz, j }' \
        >> "$out/times.txt"
done
awk -f "$sdir/levels-shares.awk" "$csv" > "$out/shares.csv"
for family in summary human cp sat; do
    awk -f "$sdir/levels-shares.awk" -v md=$family "$csv" > "$out/table-$family.md"
done
if command -v gnuplot > /dev/null 2>&1; then
    gnuplot -e "sdir='$sdir'; csv='$out/shares.csv'; out='$out/levels'" "$sdir/levels.gp"
else
    echo "levels.sh: gnuplot not found: no plot" >&2
fi
xz -f -9 "$csv"
cat "$out/times.txt"
cat "$out/table-summary.md"
