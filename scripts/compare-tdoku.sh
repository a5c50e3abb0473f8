#!/bin/sh
# fast against tdoku, side by side on this machine (issue 20).
#
# usage: scripts/compare-tdoku.sh TDOKU_BUILD [TDOKU_V3_BUILD]
#   TDOKU_BUILD     a tdoku build directory holding libtdoku_shared.so (and
#                   run_benchmark), built from tdoku's repository outside this
#                   tree with -march=native (docs/outside-solvers.md);
#   TDOKU_V3_BUILD  optionally a second one built with -DARCH=x86-64-v3: then
#                   sudolab is built a second time with -march=x86-64-v3 and
#                   `fast` runs its AVX2 path (SUDOLAB_MAX_SIMD=avx2) against
#                   it, the comparison for machines without AVX-512.
# For each instruction set and limit (2, then 1) one `sudolab bench` runs fast
# and tdoku (loaded through so:, its C ABI) interleaved on the same permuted
# corpora (--tdoku-protocol), then tdoku's own run_benchmark on the same files
# (it always looks for two solutions). Prints, and writes to OUT/table.md, the
# ratio table with the CPU's model name: best whole pass fast / tdoku, the
# range from fast's lower pass quartile over tdoku's upper one to fast's upper
# over tdoku's lower, the geometric mean of the per-puzzle ratios with its
# paired-bootstrap 95% interval (the figure that holds on a loaded machine:
# each puzzle is timed for both back ends in turn), and the guesses per
# puzzle of each (fast counts every branch alternative it enters, tdoku its
# decisions, so on unique puzzles fast's is about twice tdoku's for the same
# tree).
# Environment (defaults in brackets):
#   CC [cc]         compiler of sudolab's builds: use tdoku's
#   HEAD [5000]     puzzles per corpus   REPEAT [5]    SEED [1]
#   PASS_MS [500]   LIMITS [2 1]         CORPORA [datasets/public/puzzles[2-7]*.xz]
#   PGO [0]         1: build sudolab through scripts/build-pgo.sh (trained)
#   KEEP_RUNS [0]   1 keeps each run's runs.csv (else summary.csv, env.txt)
#   OUT [results/compare/<date>_<revision>/<compiler>, -pgo added with PGO=1]
# Exit status: 0, 1 when a bench failed or answers disagreed, 2 on a bad
# argument or a failed build.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '3,13p' "$0" >&2; exit 2; }
for d in "$@"; do
    [ -f "$d/libtdoku_shared.so" ] \
        || { echo "compare-tdoku: $d has no libtdoku_shared.so" >&2; exit 2; }
done
# absolute, with the home folder as ~/ (sudolab expands it), so that env.txt
# names no home folder
home_relative() {
    p=$(cd "$1" && pwd)
    case $p in "$HOME"/*) p="~/${p#"$HOME"/}" ;; esac
    printf '%s\n' "$p"
}
tdoku_native=$(home_relative "$1")
tdoku_v3=""
[ $# -eq 2 ] && tdoku_v3=$(home_relative "$2")
cc=${CC:-cc}
ccname=$(basename "$cc")
head=${HEAD:-5000}
repeat=${REPEAT:-5}
seed=${SEED:-1}
pass=${PASS_MS:-500}
limits=${LIMITS:-2 1}
pgo=${PGO:-0}
corpora=${CORPORA:-$(ls datasets/public/puzzles[2-7]*.xz)}
rev=$(git describe --always --dirty 2>/dev/null || echo unknown)
suffix=""
[ "$pgo" = 1 ] && suffix=-pgo
out=${OUT:-results/compare/$(date -u +%Y-%m-%d)_$rev/$ccname$suffix}
mkdir -p "$out"
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
echo "compare-tdoku: CPU ${cpu:-unknown}; sudolab built with $cc; results in $out" >&2

# build DIR C_ARGS: a release build of sudolab (trained first when PGO=1)
build() {
    if [ "$pgo" = 1 ]; then
        CC=$cc C_ARGS=$2 sh scripts/build-pgo.sh "$1" > "$1.log" 2>&1
    else
        [ -f "$1/build.ninja" ] || CC=$cc meson setup "$1" --buildtype=release \
            -Dtests=disabled "-Dc_args=$2" > "$1.log" 2>&1
        ninja -C "$1" >> "$1.log" 2>&1
    fi || { cat "$1.log" >&2; echo "compare-tdoku: building $1 failed" >&2; exit 2; }
}

# run ISA BUILD TDOKU_DIR SIMD: every limit, then run_benchmark
status=0
run() {
    for k in $limits; do
        dir=$out/$1-limit$k
        # shellcheck disable=SC2086 # the corpora are words
        SUDOLAB_MAX_SIMD=$4 "$2/sudolab" bench --quiet --limit "$k" \
            --solvers "fast,tdoku=so:$3/libtdoku_shared.so" --tdoku-protocol \
            --seed "$seed" --head "$head" --repeat "$repeat" --pass-ms "$pass" \
            --out "$dir" $corpora || status=1
        # the per-puzzle rows are tens of MB: kept only on request
        [ "${KEEP_RUNS:-0}" = 1 ] || rm -f "$dir/runs.csv"
        # the bench names the library by its full path: no home folder in
        # results that are committed
        [ -f "$dir/env.txt" ] && sed -i "s|$HOME/|~/|g" "$dir/env.txt"
    done
    rb=$(printf '%s' "$3" | sed "s|^~/|$HOME/|")/run_benchmark
    if [ -x "$rb" ]; then
        tmp=$(mktemp -d)
        for f in $corpora; do
            name=$(basename "$f" .xz)
            xz -dc "$f" > "$tmp/$name"
            "$rb" -s tdoku -n "$head" -t 4 -w 1 -e "$seed" -c 1 \
                "$tmp/$name" | grep -v '^$' | sed "s|$tmp/||" || status=1
        done > "$out/$1-run_benchmark.csv"
        rm -r "$tmp"
    fi
}

plain=build-compare-$ccname
[ "$pgo" = 1 ] && plain=$plain-pgo
build "$plain" -march=native
run native "$plain" "$tdoku_native" avx512
if [ -n "$tdoku_v3" ]; then
    build "$plain-v3" -march=x86-64-v3
    run v3 "$plain-v3" "$tdoku_v3" avx2
fi
{
    compiler=$(sed -n 's/^compiler: //p' "$out/native-limit${limits%% *}/env.txt")
    echo "CPU: ${cpu:-unknown}; sudolab $rev, $compiler$([ "$pgo" = 1 ] && echo ', PGO');" \
        "head $head, repeat $repeat, seed $seed"
    echo
    for isa in native v3; do
        [ -d "$out/$isa-limit${limits%% *}" ] || continue
        awk -v isa="$isa" -v limits="$limits" -v out="$out" -f scripts/compare-tdoku.awk < /dev/null
    done
} > "$out/table.md"
cat "$out/table.md"
exit $status
