#!/bin/sh
# sudolab-mpi under mpirun against sudolab in one process: bench rows, count
# results and generated puzzles must be the same (timings aside). Skips (77)
# when sudolab-mpi was not built or mpirun is missing, and fails then when
# SUDOLAB_CI is set (CI installs MPI: its absence there is a fault).
# Usage: test_mpi.sh SUDOLAB [SUDOLAB-MPI]
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
mpi_bin=${2:-}
data=${SUDOLAB_TEST_DATA:-tests/data}
skip() { # skip REASON: exit 77, or 1 in CI
    [ -n "${SUDOLAB_CI:-}" ] && { echo "FAIL (SUDOLAB_CI is set, so MPI must be there): $1"; exit 1; }
    echo "skip: $1"
    exit 77
}
[ -n "$mpi_bin" ] \
    || skip "sudolab-mpi was not built (no MPI found; apt-get install libopenmpi-dev openmpi-bin)"
command -v mpirun > /dev/null 2>&1 || skip "no mpirun on PATH (apt-get install openmpi-bin)"
# Containers often forbid the cross-memory attach Open MPI tries first; the
# MPI library's own allocations are not ours to leak-check.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

run() { # run NP ARGS...: sudolab-mpi on NP ranks
    np=$1
    shift
    mpirun --oversubscribe --allow-run-as-root -np "$np" "$mpi_bin" "$@"
}

# bench: the rows of every back end on every puzzle, compared sorted (ranks
# finish in any order), and the summary's counts.
b="--solvers mrv,dlx,naive --budget-steps 200000 --warmup-ms 0 --pass-ms 0 --quiet"
# shellcheck disable=SC2086
"$bin" bench $b --out "$tmp/single" "$data/crosscheck.txt" 2> /dev/null
want=$?
LC_ALL=C sort "$tmp/single/runs.csv" | cut -d, -f1-11 > "$tmp/rows"
cut -d, -f1-13 "$tmp/single/summary.csv" > "$tmp/sum"
for np in 2 3; do
    for j in 1 2; do
        # shellcheck disable=SC2086
        run $np bench $b -j $j --out "$tmp/mpi$np$j" "$data/crosscheck.txt" 2> "$tmp/err"
        st=$?
        [ $st -eq "$want" ]
        ok "bench, $np ranks x $j threads: exit status $st as the single run's" $?
        LC_ALL=C sort "$tmp/mpi$np$j/runs.csv" | cut -d, -f1-11 > "$tmp/b"
        same "bench, $np ranks x $j threads: runs.csv rows = the single run's" "$tmp/rows" "$tmp/b"
        cut -d, -f1-13 "$tmp/mpi$np$j/summary.csv" > "$tmp/b"
        same "bench, $np ranks x $j threads: summary counts = the single run's" "$tmp/sum" "$tmp/b"
    done
done
head -n 1 "$tmp/single/runs.csv" > "$tmp/a"
head -n 1 "$tmp/mpi21/runs.csv" > "$tmp/b"
same "bench: the same runs.csv header" "$tmp/a" "$tmp/b"

# count: the subproblems of one split, so even the counters add up alike.
c="--solver naive --empty 2x2 1234............ 11.............."
# shellcheck disable=SC2086
"$bin" count $c --shard 1/1 > "$tmp/part" 2> /dev/null
"$bin" merge "$tmp/part" 2> /dev/null | sed 's/ time=[^ ]*//' > "$tmp/a"
for np in 2 3; do
    # shellcheck disable=SC2086
    run $np count $c 2> /dev/null | sed 's/ time=[^ ]*//' > "$tmp/b"
    same "count on $np ranks = one process, counters included" "$tmp/a" "$tmp/b"
done
grep -q '^1 288 multiple' "$tmp/b"
ok "count: the empty 4x4 grid has 288 solutions" $?
# shellcheck disable=SC2086
run 2 count $c --csv -j 2 2> /dev/null | cut -d, -f1-3 > "$tmp/b"
# shellcheck disable=SC2086
"$bin" count $c --csv 2> /dev/null | cut -d, -f1-3 > "$tmp/a"
same "count --csv -j 2 on 2 ranks = plain count: index, status, solutions" "$tmp/a" "$tmp/b"

# generate: byte for byte, whatever the ranks.
g="--size 2x3 --count 30 --seed 4"
# shellcheck disable=SC2086
"$bin" generate $g > "$tmp/a"
for np in 2 3; do
    # shellcheck disable=SC2086
    run $np generate $g > "$tmp/b"
    same "generate on $np ranks = one process, byte for byte" "$tmp/a" "$tmp/b"
done

# Failures: a rank's message reaches stderr, once, and fails the run.
strip() { grep -v -e '^--' -e '^Primary job' -e '^a non-zero exit' -e '^mpirun detected' \
    -e '^the job to be' -e '^ *Process name' -e '^ *Exit code' -e '^$' "$1"; }
printf '1234............\n12.3..xx........\n11..............\n' > "$tmp/bad.txt"
"$bin" count --solver naive -j 2 "$tmp/bad.txt" 2> /dev/null | sed 's/ time=[^ ]*//' > "$tmp/a"
run 2 count --solver naive "$tmp/bad.txt" 2> "$tmp/err" > "$tmp/out"
st=$?
[ $st -eq 1 ]
ok "count, a bad puzzle line: exit status 1 as one process's ($st)" $?
sed 's/ time=[^ ]*//' "$tmp/out" > "$tmp/b"
same "count, a bad puzzle line: the rows one process prints" "$tmp/a" "$tmp/b"
[ "$(strip "$tmp/err" | grep -c 'bad.txt:2: ')" -eq 1 ] \
    && [ "$(strip "$tmp/err" | grep -c 'bad.txt:3: ')" -eq 1 ]
ok "count, a bad puzzle line: each file:line message on stderr, once" $?

# The input is missing where rank 1 looks for it (its own directory).
mkdir -p "$tmp/r0" "$tmp/r1"
printf '1234............\n12..............\n' > "$tmp/r0/p.txt"
mpi_abs=$(cd "$(dirname "$mpi_bin")" && pwd)/$(basename "$mpi_bin")
# shellcheck disable=SC2016 # the inner shell expands them, per rank
in_rank_dir() { # in_rank_dir ARGS...: sudolab-mpi on 2 ranks, each in $tmp/rRANK
    mpirun --oversubscribe --allow-run-as-root -np 2 sh -c \
        'cd "$1/r${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" && shift && exec "$@"' \
        sh "$tmp" "$mpi_abs" "$@"
}
in_rank_dir count --solver naive p.txt > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -ne 0 ] && [ ! -s "$tmp/out" ]
ok "count, input missing on rank 1: the run fails ($st), no rows printed" $?
strip "$tmp/err" | grep -q '^sudolab-mpi: rank 1: p.txt: '
ok "count, input missing on rank 1: rank 1's message on stderr" $?
in_rank_dir bench --solvers mrv --quiet --warmup-ms 0 --pass-ms 0 p.txt \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -ne 0 ]
ok "bench, input missing on rank 1: the run fails ($st)" $?
strip "$tmp/err" | grep -q '^sudolab-mpi: rank 1: p.txt: '
ok "bench, input missing on rank 1: rank 1's message on stderr" $?

# A puzzle that cannot be made: its message, the puzzles before it, status 1.
g="--size 2x2 --holes 14 --attempts 1 --count 5 --seed 7"
# shellcheck disable=SC2086
"$bin" generate $g > "$tmp/a" 2> /dev/null
# shellcheck disable=SC2086
run 2 generate $g > "$tmp/b" 2> "$tmp/err"
st=$?
[ $st -eq 1 ]
ok "generate, a puzzle that cannot be made: exit status 1 ($st)" $?
same "generate, a puzzle that cannot be made: one process's output" "$tmp/a" "$tmp/b"
[ "$(strip "$tmp/err" | grep -c '^sudolab generate: puzzle 1: no puzzle found')" -eq 1 ]
ok "generate, a puzzle that cannot be made: its message on stderr, once" $?

# count --grids: rank 0 counts and prints once, the other ranks stay quiet.
"$bin" count --empty 2x3 --grids | grep -v '^# time' > "$tmp/a"
run 2 count --empty 2x3 --grids 2> /dev/null | grep -v '^# time' > "$tmp/b"
same "count --grids: one process's output, once" "$tmp/a" "$tmp/b"

tap_end
