#!/bin/sh
# A profile-guided release build of sudolab (Meson's b_pgo), trained on the
# public corpora (issue 20).
#
# usage: scripts/build-pgo.sh [BUILD_DIR]     (default build-pgo)
#   1. meson setup BUILD_DIR --buildtype=release -Db_pgo=generate, ninja;
#   2. training: `sudolab bench` runs the back ends of TRAIN over the first
#      HEAD puzzles of each corpus in datasets/public/, at limits 2 and 1,
#      permuted and parsed as in the timed passes (--tdoku-protocol); every
#      answer is verified, so a build that trains wrong stops here;
#   3. (clang) llvm-profdata merges the raw profiles into
#      BUILD_DIR/default.profdata, where -fprofile-use looks;
#   4. meson configure -Db_pgo=use, ninja: the build to measure.
# Measure it against the plain release build side by side, e.g. with
# PGO=1 scripts/compare-tdoku.sh (docs/bench.md, "fast against tdoku").
# Environment (defaults in brackets): CC [cc], C_ARGS [none] (e.g.
# -march=native), TRAIN [fast,fast_avx2,fast_portable: those the CPU has],
# HEAD [2000], LLVM_PROFDATA [llvm-profdata, else llvm-profdata-NN].
# Exit status: 0, 1 when training failed, 2 when a build step failed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=${1:-build-pgo}
case $dir in /*) ;; *) dir=$root/$dir ;; esac
cc=${CC:-cc}
train=${TRAIN:-fast,fast_avx2,fast_portable}
head=${HEAD:-2000}

rm -rf "$dir"
CC=$cc meson setup "$dir" --buildtype=release -Dtests=disabled -Db_pgo=generate \
    "-Dc_args=${C_ARGS:-}" > /dev/null || exit 2
ninja -C "$dir" > /dev/null || exit 2

# every run of the instrumented binary writes its profile there (clang), the
# listing below included
export LLVM_PROFILE_FILE="$dir/pgo-%p-%m.profraw"
# forced paths the CPU lacks are left out by name, so the list stays valid
solvers=""
for s in $(echo "$train" | tr ',' ' '); do
    "$dir/sudolab" list 2>/dev/null | grep -q "^$s .*unavailable" && continue
    solvers="$solvers${solvers:+,}$s"
done
for k in 2 1; do
    "$dir/sudolab" bench --quiet --limit $k --solvers "$solvers" --tdoku-protocol \
        --seed 7 --head "$head" --repeat 1 --pass-ms 200 datasets/public/puzzles[2-7]*.xz \
        > /dev/null || { echo "build-pgo: training failed (limit $k)" >&2; exit 1; }
done

case $("$cc" --version 2>/dev/null | head -1) in
    *clang*)
        profdata=${LLVM_PROFDATA:-}
        if [ -z "$profdata" ]; then
            v=$("$cc" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
            for p in llvm-profdata "llvm-profdata-$v"; do
                command -v "$p" > /dev/null && { profdata=$p; break; }
            done
        fi
        [ -n "$profdata" ] || { echo "build-pgo: llvm-profdata not found" >&2; exit 2; }
        "$profdata" merge -o "$dir/default.profdata" "$dir"/pgo-*.profraw || exit 2
        ;;
esac
meson configure "$dir" -Db_pgo=use > /dev/null || exit 2
ninja -C "$dir" > /dev/null || exit 2
echo "build-pgo: $dir/sudolab, trained on $solvers ($head puzzles per corpus, limits 2 and 1)"
