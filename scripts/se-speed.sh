#!/bin/sh
# CPU time per puzzle of `sudolab rate --method se`, for one or more builds
# side by side on the same inputs (the machine may be shared: CPU time, not
# wall time, and the ratio between builds).
# usage: scripts/se-speed.sh [-n N] [-j N] [-r K] FILE [SUDOLAB...]
#   FILE     puzzles, one a line (plain or .xz), or a ratings .tsv (its 2nd column)
#   SUDOLAB  builds to time (default build/sudolab)
#   -n N     only the first N puzzles
#   -j N     threads per run (CPU time is summed over them)
#   -r K     the puzzles K times over, each copy with its digits relabelled
#            (1->2->...->9->1 once more per copy): an identical copy could meet
#            the rater's memories of empty searches from its first pass
# Prints one line per build: puzzles, CPU seconds, ms per puzzle, ratio to
# the first build; and checks that every build printed the same ratings.
set -eu
n=0
jobs=1
copies=1
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -r) copies=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-n N] [-j N] [-r K] FILE [SUDOLAB...]" >&2; exit 2; }
file=$1
shift
[ $# -ge 1 ] || set -- build/sudolab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $file in
*.xz) xz -dc "$file" ;;
*.tsv) cut -f2 "$file" ;;
*) cat "$file" ;;
esac | grep -v '^#' | grep -v '^[[:space:]]*$' >"$tmp/all"
if [ "$n" -gt 0 ]; then head -n "$n" "$tmp/all" >"$tmp/one"; else mv "$tmp/all" "$tmp/one"; fi
k=0
: >"$tmp/in"
while [ "$k" -lt "$copies" ]; do
    r=$((k % 9))
    to=$(echo 123456789123456789 | cut -c$((r + 1))-$((r + 9)))
    tr 123456789 "$to" <"$tmp/one" >>"$tmp/in"
    k=$((k + 1))
done
count=$(wc -l <"$tmp/in")
echo "# $count puzzles of $file ($copies cop$([ "$copies" -eq 1 ] && echo y || echo ies)), -j $jobs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
first=""
i=0
for bin in "$@"; do
    i=$((i + 1))
    threads=""
    [ "$jobs" -eq 1 ] || threads="-j $jobs" # builds before -j have no such option
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" rate --method se --no-puzzle \
        --budget-ms 0 $threads "$tmp/in" >"$tmp/out.$i"
    # the ratings alone: the first line names each build's version
    grep -v '^#' "$tmp/out.$i" >"$tmp/ratings.$i"
    cpu=$(awk '{ print $1 + $2 }' "$tmp/time")
    [ -n "$first" ] || first=$cpu
    awk -v b="$bin" -v c="$cpu" -v n="$count" -v f="$first" 'BEGIN {
        printf "%-40s %6d puzzles %9.2f s CPU %9.2f ms/puzzle  x%.2f\n", b, n, c, 1000 * c / n, (c > 0 ? f / c : 0) }'
    if [ "$i" -gt 1 ] && ! cmp -s "$tmp/ratings.1" "$tmp/ratings.$i"; then
        echo "ratings differ between $1 and $bin:" >&2
        diff "$tmp/ratings.1" "$tmp/ratings.$i" | head -n 10 >&2
        exit 1
    fi
done
