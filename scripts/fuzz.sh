#!/bin/sh
# Builds the libFuzzer targets (clang, address + undefined sanitizers) and
# runs each for SECONDS (default 60) from the seed corpus in tests/fuzz/.
# Prints executions and findings per target; exit status 1 on a finding.
# Usage: scripts/fuzz.sh [SECONDS] [target ...]   (targets: corpus solvers partials)
set -u
cd "$(dirname "$0")/.." || exit 1
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-corpus solvers partials}
sh scripts/setup-debian.sh clang libclang-rt-14-dev || exit 1
dir=build-fuzz
if [ ! -f "$dir/build.ninja" ]; then
    CC=clang CXX=clang++ meson setup "$dir" -Dfuzz=true -Dtests=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false > /dev/null || exit 1
fi
ninja -C "$dir" > "$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
status=0
for t in $targets; do
    case $t in
        corpus) seeds=tests/fuzz/corpus_reader ;;
        solvers) seeds=tests/fuzz/solvers ;;
        partials) seeds=tests/fuzz/partials ;;
        *) echo "fuzz: no target $t" >&2; exit 2 ;;
    esac
    sh tests/fuzz/run.sh "$dir/tests/fuzz/fuzz_$t" "$seeds" "$seconds" "$dir/tests/fuzz" \
        || status=1
done
exit $status
