#!/bin/sh
# THE main job: from a checkout to a committed benchmark report.
#
#   1. setup: installs what is missing on Debian when run as root (through
#      scripts/setup-debian.sh: meson, ninja, gcc, cmocka, liblzma, zlib,
#      CaDiCaL, GLPK, gnuplot, hyperfine, xz);
#   2. builds a release sudolab in its own build directory;
#   3. runs `sudolab bench` with every registered back end over the first
#      HEAD puzzles of each corpus: the small and generated ones of datasets/
#      and the public ones of datasets/public/ (tdoku's five and Norvig's
#      top95, read xz-compressed as shipped; see datasets/public/README.md),
#      with a per-puzzle budget that keeps the whole run near ten minutes on a
#      2-core machine (the bench itself about five and a half), and each 9x9
#      puzzle's Sudoku Explainer rating (--se-rate: the report's time and
#      guesses against ER; under a minute of the run);
#   4. draws the plots (scripts/plots.sh), times whole processes with
#      hyperfine (scripts/hyperfine.sh), adds the sections other scripts
#      provide (scripts/moler-figures.sh, scripts/rate-plot.sh, when present),
#      and writes REPORT.md (scripts/report.sh) into
#      results/<date>_<host>_<revision>/ beside env.txt, runs.csv (gzipped when
#      large) and summary.csv.
#
# usage: scripts/run-bench.sh [more sudolab bench options]
# Environment (defaults in brackets):
#   BUILD_DIR [build-release]   HEAD [100] puzzles per corpus
#   BUDGET_MS [250] per puzzle  JOBS [1] threads (1 gives the cleanest times)
#   PASS_MS [300]               SEED [1] for the permutation of the puzzles
#   SOLVERS [all]               BASELINE [the first solver]
#   SE_RATE [1] (0: no SE ratings, no ER plot)
#   PUBLIC [datasets/public]    HYPERFINE [1] (0 skips it)
#   PHASE [0] (1: also scripts/phase-transition.sh with its defaults into
#     OUT/phase-transition, the report's phase-transition section; tens of
#     minutes more)
#   OUT [results/<date>_<host>_<revision>]
#   PEERS [none] outside solvers to run beside sudolab's, e.g.
#     PEERS='so:/opt/tdoku/build/libtdoku_shared.so cmd:python3 my_solver.py'
#     A word that begins with so: or cmd: (or LABEL=so:, LABEL=cmd:) starts a
#     new solver; the words after it, up to the next such word, are its
#     command's arguments. docs/outside-solvers.md says how to build
#     tdoku's library and wrap qqwing.
# Exit status: that of `sudolab bench` (1 when a run failed or answers
# disagreed; the report is written anyway), or 2 when setup or build failed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build-release}
head=${HEAD:-100}
# 250 ms: naive and naive_stack (the same search twice) are most of the run
budget=${BUDGET_MS:-250}
jobs=${JOBS:-1}
pass=${PASS_MS:-300}
seed=${SEED:-1}
public=${PUBLIC:-datasets/public}

sh scripts/setup-debian.sh || echo "run-bench: setup failed; trying with what is installed" >&2
for tool in meson ninja gnuplot; do
    command -v $tool > /dev/null || { echo "run-bench: $tool is missing" >&2; exit 2; }
done
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=release > "$build.setup.log" 2>&1 \
        || { cat "$build.setup.log" >&2; exit 2; }
fi
ninja -C "$build" > "$build.log" 2>&1 || { cat "$build.log" >&2; exit 2; }
bin=$root/$build/sudolab

rev=$(git describe --always --dirty 2>/dev/null || echo unknown)
out=${OUT:-results/$(date -u +%Y-%m-%d)_$(hostname -s 2>/dev/null || hostname)_$rev}
if [ -e "$out" ]; then # a second run of the day on this revision: a new folder
    k=2
    while [ -e "$out-$k" ]; do k=$((k + 1)); done
    out=$out-$k
fi
mkdir -p "$out"

# corpora: paths relative to the checkout, so env.txt names no home folder
set --
for f in datasets/*.txt datasets/generated/*.txt; do
    [ -f "$f" ] && set -- "$@" "$f"
done
npublic=0
for f in "$public"/*.xz; do
    [ -f "$f" ] || continue
    set -- "$@" "$f"
    npublic=$((npublic + 1))
done
if [ "$npublic" -eq 0 ]; then
    echo "run-bench: no public corpora (*.xz) in $public (see datasets/public/README.md)" >&2
    exit 2
fi
extra=""
[ -n "${SOLVERS:-}" ] && extra="--solvers $SOLVERS"
[ -n "${BASELINE:-}" ] && extra="$extra --baseline $BASELINE"
[ "${SE_RATE:-1}" = 0 ] || extra="$extra --se-rate"
# PEERS: split into specs, one a line (a spec may hold spaces)
peers=""
if [ -n "${PEERS:-}" ]; then
    spec=""
    set -f
    for word in $PEERS; do
        case $word in
            so:* | cmd:* | *=so:* | *=cmd:*)
                [ -n "$spec" ] && peers="$peers$spec
"
                spec=$word ;;
            *)
                [ -n "$spec" ] || { echo "run-bench: PEERS: '$word' is no so: or cmd: spec" >&2; exit 2; }
                spec="$spec $word" ;;
        esac
    done
    set +f
    peers="$peers$spec"
    # every built-in back end as well, unless SOLVERS chose some
    [ -n "${SOLVERS:-}" ] || extra="$extra --solvers *"
fi
ncorpora=$#
# the specs go before the corpora as --solver SPEC, through the positional
# parameters so that their spaces survive
if [ -n "$peers" ]; then
    old_ifs=$IFS
    IFS='
'
    for p in $peers; do
        set -- --solver "$p" "$@"
    done
    IFS=$old_ifs
    echo "run-bench: outside solvers: $(printf '%s' "$peers" | tr '\n' ';')" >&2
fi

echo "run-bench: $("$bin" list --csv | tail -n +2 | wc -l) back ends, $ncorpora corpora" \
    "(first $head puzzles each), budget $budget ms, into $out" >&2
status=0
# the tables printed on stdout are kept too (summary.txt): the quickest read
set -f # --solvers * is for sudolab to expand
# shellcheck disable=SC2086
"$bin" bench --out "$out" --head "$head" --budget-ms "$budget" -j "$jobs" \
    --pass-ms "$pass" --permute --seed "$seed" --expect $extra "$@" \
    > "$out/summary.txt" || status=$?
set +f
cat "$out/summary.txt"

scripts/plots.sh "$out" || { echo "run-bench: plotting failed" >&2; [ "$status" -ne 0 ] || status=1; }
if [ "${HYPERFINE:-1}" != 0 ] && command -v hyperfine > /dev/null; then
    corpus=$public/puzzles3_magictour_top1465.xz
    [ -f "$corpus" ] || corpus=datasets/famous.txt
    SUDOLAB_BIN=$bin BUDGET_MS=$budget scripts/hyperfine.sh --out "$out/hyperfine" \
        --head 20 "$corpus" || echo "run-bench: hyperfine failed" >&2
fi
# sections other scripts add: each writes into its own folder of $out
for section in moler-figures:moler rate-plot:rate; do
    script=scripts/${section%%:*}.sh
    [ -f "$script" ] || continue
    SUDOLAB_BIN=$bin sh "$script" "$out/${section#*:}" \
        || echo "run-bench: $script failed" >&2
done
if [ "${PHASE:-0}" = 1 ]; then
    SUDOLAB_BIN=$bin scripts/phase-transition.sh --out "$out/phase-transition" \
        || echo "run-bench: scripts/phase-transition.sh failed" >&2
fi
scripts/report.sh "$out"
if [ "$(wc -c < "$out/runs.csv")" -gt 2000000 ]; then
    gzip -9 -n "$out/runs.csv"
fi
echo "run-bench: report in $out/REPORT.md" >&2
exit "$status"
