#!/bin/sh
# THE main job: from a checkout to a committed benchmark report, in five
# stages, each announced on stderr with the time so far and, where an earlier
# run of this checkout left its stage times (results/*/stages.txt), an ETA:
#
#   1. setup: installs what is missing on Debian when run as root (through
#      scripts/setup-debian.sh: meson, ninja, gcc, cmocka, liblzma, zlib,
#      CaDiCaL, GLPK, gnuplot, hyperfine, xz);
#   2. build: the sudolab program alone, release, in its own build directory;
#   3. bench: `sudolab bench` with every registered back end over the first
#      HEAD puzzles of each corpus: the small and generated ones of datasets/
#      and the public ones of datasets/public/ (tdoku's five and Norvig's
#      top95, read xz-compressed as shipped; see datasets/public/README.md).
#      The sample rule (`bench --sample`): the back ends marked fast in
#      `sudolab list` are timed on all HEAD puzzles, where the lead between
#      them is decided; the others on the first SAMPLE, which every back end
#      is timed on and which places them (a ratio with its interval needs 10
#      puzzles). Each puzzle has a BUDGET_MS budget; Sudoku Explainer rates
#      the 9x9 puzzles of the sample (--se-rate: the report's time and
#      guesses against ER). The bench's progress bar shows on a terminal;
#      elsewhere (a log, CI) a line every 30 s says how many runs are done and
#      which back end and corpus are under way;
#   4. figures, two at a time (the machine has two cores; the timed bench is
#      over): the plots in one gnuplot process (scripts/plots.sh) and Moler's
#      figures (scripts/moler-figures.sh) beside the timed ones, hyperfine's
#      whole-process comparison of the back ends marked fast
#      (scripts/hyperfine.sh) and the raters' comparison (scripts/rate-plot.sh);
#   5. report: REPORT.md (scripts/report.sh), which opens with the answer,
#      into results/<date>_<host>_<revision>/ beside env.txt, runs.csv
#      (gzipped when large), summary.csv and stages.txt (each stage's seconds).
#
# usage: scripts/run-bench.sh [more sudolab bench options]
# Environment (defaults in brackets):
#   BUILD_DIR [build-release]   HEAD [100] puzzles per corpus
#   SAMPLE [20] puzzles per corpus for the back ends not marked fast (0: HEAD)
#   BUDGET_MS [250] per puzzle
#   JOBS [2] threads: each back end x corpus is timed on one thread from start
#     to end, JOBS of them at once (one per core of a two-core machine; 1
#     gives the cleanest times, at twice the wall time)
#   PASS_MS [50] whole passes   WARMUP_MS [10] untimed warm-up, per back end
#     and corpus (both are wall time: with 22 back ends x 27 corpora they
#     are a fixed part of the bench, whatever HEAD)
#   SEED [1] for the permutation of the puzzles
#   SOLVERS [all]
#   BASELINE [wide] the back end every other is compared with (the report's
#     overview and tables): wide handles every size and variant and finishes
#     every corpus, so every pair that finished a puzzle gets a ratio
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
sample=${SAMPLE:-20}
budget=${BUDGET_MS:-250}
jobs=${JOBS:-2}
pass=${PASS_MS:-50}
warmup=${WARMUP_MS:-10}
seed=${SEED:-1}
public=${PUBLIC:-datasets/public}

# Progress: one line per stage on stderr with the time so far, and the ETA
# the last run's stages.txt gives (the newest under results/ that has one).
t0=$(date +%s)
last=$(ls -t results/*/stages.txt 2> /dev/null | head -1 || true)
stages=$(mktemp)
logs=$(mktemp -d) # the figures' messages, shown when one fails
trap 'rm -rf "$stages" "$logs"' EXIT
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
stage_start() { # stage_start NUMBER NAME WHAT
    stage_name=$2
    stage_t=$(date +%s)
    eta=""
    if [ -n "$last" ]; then
        took=$(sed -n "s/^$2 //p" "$last")
        [ -n "$took" ] && eta=", ETA $(clock "$took") (last run)"
    fi
    echo "run-bench: [$1/5] $2: $3 (at $(clock $((stage_t - t0)))$eta)" >&2
}
stage_end() {
    now=$(date +%s)
    echo "$stage_name $((now - stage_t))" >> "$stages"
    echo "run-bench:       $stage_name done in $(clock $((now - stage_t)))" >&2
}

stage_start 1 setup "the packages (scripts/setup-debian.sh)"
sh scripts/setup-debian.sh || echo "run-bench: setup failed; trying with what is installed" >&2
for tool in meson ninja gnuplot; do
    command -v $tool > /dev/null || { echo "run-bench: $tool is missing" >&2; exit 2; }
done
stage_end

stage_start 2 build "sudolab, release, in $build"
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=release > "$build.setup.log" 2>&1 \
        || { cat "$build.setup.log" >&2; exit 2; }
fi
# the program alone: the tests and plug-ins are not part of the run
ninja -C "$build" sudolab > "$build.log" 2>&1 || { cat "$build.log" >&2; exit 2; }
bin=$root/$build/sudolab
stage_end

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
if [ -n "${BASELINE:-}" ]; then
    extra="$extra --baseline $BASELINE"
elif [ -z "${SOLVERS:-}" ]; then
    extra="$extra --baseline wide"
fi
[ "${SE_RATE:-1}" = 0 ] || extra="$extra --se-rate"
[ "$sample" -gt 0 ] && [ "$sample" -lt "$head" ] && extra="$extra --sample $sample"
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

nsolvers=$("$bin" list --csv | tail -n +2 | wc -l)
# the back ends marked fast: all HEAD puzzles, and hyperfine's
# (caps, the fifth field, is quoted when it holds more than one)
fast=$("$bin" list --csv | awk -F, 'NR > 1 {
        caps = $0; sub(/^[^,]*,[^,]*,[^,]*,[^,]*,/, "", caps)
        if (caps ~ /^"/) caps = substr(caps, 2, index(substr(caps, 2), "\"") - 1)
        else sub(/,.*/, "", caps)
        if (("," caps ",") ~ /,fast,/) print $1}' | paste -sd, -)
stage_start 3 bench "$nsolvers back ends x $ncorpora corpora, the first $head puzzles each ($sample for the back ends not marked fast), budget $budget ms, into $out"
status=0
# the tables printed on stdout are kept (summary.txt); the bar is on stderr
# off a terminal, where the bench draws no bar: a line every 30 s
watcher=""
if [ ! -t 2 ]; then
    (
        while sleep 30; do
            rows=$(($(wc -l < "$out/runs.csv" 2> /dev/null || echo 1) - 1))
            now=""
            if [ "$rows" -gt 0 ]; then
                now=$(tail -n 1 "$out/runs.csv" | cut -d, -f1,3)
                now=", now ${now#*,} on ${now%%,*}"
            fi
            echo "run-bench:       bench: $rows runs done$now (at $(clock $(($(date +%s) - t0))))" >&2
        done
    ) &
    watcher=$!
fi
set -f # --solvers * is for sudolab to expand
# shellcheck disable=SC2086
"$bin" bench --out "$out" --head "$head" --budget-ms "$budget" -j "$jobs" \
    --pass-ms "$pass" --warmup-ms "$warmup" --permute --seed "$seed" --expect $extra "$@" \
    > "$out/summary.txt" || status=$?
set +f
if [ -n "$watcher" ]; then
    kill "$watcher" 2> /dev/null || true
    wait "$watcher" 2> /dev/null || true
fi
stage_end

stage_start 4 figures "plots and Moler's figures beside hyperfine and the raters' comparison"
plotted=0
(scripts/plots.sh "$out" && SUDOLAB_BIN=$bin sh scripts/moler-figures.sh "$out/moler" > /dev/null) \
    2> "$logs/figures.log" &
figures=$!
if [ "${HYPERFINE:-1}" != 0 ] && command -v hyperfine > /dev/null && [ -n "$fast" ]; then
    corpus=$public/puzzles3_magictour_top1465.xz
    [ -f "$corpus" ] || corpus=datasets/famous.txt
    SUDOLAB_BIN=$bin BUDGET_MS=$budget scripts/hyperfine.sh --out "$out/hyperfine" \
        --head 20 --solvers "$fast" "$corpus" 2> "$logs/hyperfine.log" \
        || { cat "$logs/hyperfine.log" >&2; echo "run-bench: hyperfine failed" >&2; }
fi
if [ -f scripts/rate-plot.sh ]; then
    RATE_HEAD=$head SUDOLAB_BIN=$bin sh scripts/rate-plot.sh "$out/rate" > /dev/null \
        2> "$logs/rate.log" || { cat "$logs/rate.log" >&2; echo "run-bench: scripts/rate-plot.sh failed" >&2; }
fi
wait "$figures" || plotted=$?
if [ "$plotted" -ne 0 ]; then
    cat "$logs/figures.log" >&2
    echo "run-bench: plotting failed" >&2
    [ "$status" -ne 0 ] || status=1
fi
if [ "${PHASE:-0}" = 1 ]; then
    SUDOLAB_BIN=$bin scripts/phase-transition.sh --out "$out/phase-transition" \
        || echo "run-bench: scripts/phase-transition.sh failed" >&2
fi
stage_end

stage_start 5 report "REPORT.md"
if [ "$(wc -c < "$out/runs.csv")" -gt 2000000 ]; then
    gzip -9 -n "$out/runs.csv"
fi
# the stages so far, which the report quotes
cp "$stages" "$out/stages.txt"
scripts/report.sh "$out"
stage_end
{ cat "$stages"; echo "total $(($(date +%s) - t0))"; } > "$out/stages.txt"
echo "run-bench: done in $(clock $(($(date +%s) - t0))); report in $out/REPORT.md" >&2
# the answer, the report's first section, on the terminal
sed -n '/^## The answer/,/^## /p' "$out/REPORT.md" | sed '$d' >&2
exit "$status"
