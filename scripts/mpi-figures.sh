#!/bin/sh
# The figures of issue 11: throughput of one bench run with -j 2 and with
# `mpirun -np 2` against one thread, the MPI launcher's overhead per puzzle,
# and the empty 6x6 grid counted in merged shards (28,200,960).
#
#   scripts/mpi-figures.sh BUILD-DIR [ROUNDS] [COPIES]
#
# Workload: top1465 (in SUDOLAB_DATASETS, default datasets/public, read as .xz)
# given COPIES times (default 10) to mrv, one row per puzzle, no warm-up and no
# whole passes, so every variant does the same per-puzzle work. Each round
# runs every variant once, in turn, so a busy machine slows them alike; the
# figure per variant is its fastest round (ROUNDS, default 5). Fixed costs
# (process and MPI start, reading the corpus) are measured with --head 1 and
# shown apart. Needs a release build with sudolab-mpi and mpirun.
set -eu
build=${1:?usage: mpi-figures.sh BUILD-DIR [ROUNDS] [COPIES]}
rounds=${2:-5}
copies=${3:-10}
sudolab=$build/sudolab
mpi=$build/sudolab-mpi
data=${SUDOLAB_DATASETS:-$(dirname "$0")/../datasets/public}
corpus=$data/puzzles3_magictour_top1465.xz
[ -x "$sudolab" ] && [ -x "$mpi" ] || { echo "no sudolab and sudolab-mpi in $build" >&2; exit 2; }
[ -f "$corpus" ] || { echo "no $corpus (set SUDOLAB_DATASETS)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=
i=0
while [ "$i" -lt "$copies" ]; do
    files="$files $corpus"
    i=$((i + 1))
done
puzzles=$((1465 * copies))
opts="--solvers mrv --warmup-ms 0 --pass-ms 0 --budget-ms 0 --quiet"
mpirun="mpirun --oversubscribe --allow-run-as-root"

now() { date +%s%N; }

# variant NAME COMMAND...: one timed run (ns), kept when it is the fastest
variant() {
    name=$1
    shift
    t0=$(now)
    "$@" > /dev/null 2>&1 || { echo "$name failed: $*" >&2; exit 1; }
    t=$(($(now) - t0))
    best=$(cat "$tmp/$name.ns" 2> /dev/null || echo 0)
    if [ "$best" -eq 0 ] || [ "$t" -lt "$best" ]; then echo "$t" > "$tmp/$name.ns"; fi
}

echo "workload: $puzzles puzzles (top1465 x $copies), mrv, $rounds rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
r=0
while [ "$r" -lt "$rounds" ]; do
    # shellcheck disable=SC2086
    {
        variant j1 "$sudolab" bench $opts -j 1 --out "$tmp/j1" $files
        variant j2 "$sudolab" bench $opts -j 2 --out "$tmp/j2" $files
        variant mpi1 $mpirun -np 1 "$mpi" bench $opts -j 1 --out "$tmp/m1" $files
        variant mpi2 $mpirun -np 2 "$mpi" bench $opts -j 1 --out "$tmp/m2" $files
        variant j1_fixed "$sudolab" bench $opts -j 1 --head 1 --out "$tmp/f" $files
        variant mpi2_fixed $mpirun -np 2 "$mpi" bench $opts -j 1 --head 1 --out "$tmp/f" $files
        variant mpi1_fixed $mpirun -np 1 "$mpi" bench $opts -j 1 --head 1 --out "$tmp/f" $files
    }
    r=$((r + 1))
done
# the MPI rows equal the single run's (timings aside)
for d in j2 m1 m2; do
    cut -d, -f1-11 "$tmp/j1/runs.csv" | LC_ALL=C sort > "$tmp/a"
    cut -d, -f1-11 "$tmp/$d/runs.csv" | LC_ALL=C sort > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { echo "$d: rows differ from -j 1" >&2; exit 1; }
done
solve_ns=$(awk -F, 'NR > 1 { s += $12; n++ } END { printf "%.0f", s / n }' "$tmp/j1/runs.csv")

awk -v j1="$(cat "$tmp/j1.ns")" -v j2="$(cat "$tmp/j2.ns")" -v m1="$(cat "$tmp/mpi1.ns")" \
    -v m2="$(cat "$tmp/mpi2.ns")" -v f1="$(cat "$tmp/j1_fixed.ns")" -v fm2="$(cat "$tmp/mpi2_fixed.ns")" \
    -v fm1="$(cat "$tmp/mpi1_fixed.ns")" -v n="$puzzles" -v solve="$solve_ns" 'BEGIN {
    printf "%-22s %10s %12s %12s %8s\n", "variant", "wall s", "fixed s", "puzzles/s", "x -j 1"
    base = n / ((j1 - f1) / 1e9)
    row("sudolab -j 1", j1, f1)
    row("sudolab -j 2", j2, f1)
    row("mpirun -np 1", m1, fm1)
    row("mpirun -np 2", m2, fm2)
    printf "(puzzles/s: per-puzzle work only, wall minus the --head 1 run of the same command;\n"
    printf " raw wall-clock ratios: -j 2 %.2fx, -np 2 %.2fx)\n", j1 / j2, j1 / m2
    printf "mean mrv solve (the -j 1 rows): %.1f us\n", solve / 1e3
    over1 = ((m1 - fm1) - (j1 - f1)) / n
    over2 = (2 * (m2 - fm2) - (j1 - f1)) / n
    printf "wall-clock overhead per puzzle, 1 rank: %.2f us = %.1f%% of a solve\n", over1 / 1e3, 100 * over1 / solve
    printf "wall-clock overhead per puzzle, 2 ranks (core-seconds beyond -j 1): %.2f us = %.1f%% of a solve\n", over2 / 1e3, 100 * over2 / solve
}
function row(name, wall, fixed,   rate) {
    rate = n / ((wall - fixed) / 1e9)
    printf "%-22s %10.3f %12.3f %12.0f %8.2f\n", name, wall / 1e9, fixed / 1e9, rate, rate / base
}'

# The launcher's own CPU (its exchanging threads, all ranks), which a busy
# machine does not blur as it blurs wall-clock differences.
for np in 2 3; do
    # shellcheck disable=SC2086
    SUDOLAB_MPI_STATS=1 $mpirun -np $np "$mpi" bench $opts -j 1 --out "$tmp/m" $files 2>&1 |
        grep 'sudolab-mpi:' | sed "s/\$/; a mrv solve: $(awk -v s="$solve_ns" 'BEGIN { printf "%.1f us", s / 1e3 }')/"
done

# the empty 6x6 grid, counted in 4 shards and merged
for k in 1 2 3 4; do
    "$sudolab" count --solver mrv --empty 2x3 --shard $k/4 > "$tmp/six$k"
done
printf "empty 6x6 from 4 merged shards: "
"$sudolab" merge "$tmp/six1" "$tmp/six2" "$tmp/six3" "$tmp/six4"
