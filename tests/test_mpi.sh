#!/bin/sh
# sudolab-mpi under mpirun against sudolab in one process: bench rows, count
# results and generated puzzles must be the same (timings aside). Skips (77)
# when sudolab-mpi was not built or mpirun is missing.
# Usage: test_mpi.sh SUDOLAB [SUDOLAB-MPI]
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
mpi_bin=${2:-}
data=${SUDOLAB_TEST_DATA:-tests/data}
if [ -z "$mpi_bin" ]; then
    echo "skip: sudolab-mpi was not built (no MPI found; apt-get install libopenmpi-dev openmpi-bin)"
    exit 77
fi
if ! command -v mpirun > /dev/null 2>&1; then
    echo "skip: no mpirun on PATH (apt-get install openmpi-bin)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Containers often forbid the cross-memory attach Open MPI tries first; the
# MPI library's own allocations are not ours to leak-check.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
failures=0
n=0

ok() { # ok NAME STATUS
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then
        echo "ok $n - $1"
    else
        echo "not ok $n - $1"
        failures=$((failures + 1))
    fi
}

same() { # same NAME FILE1 FILE2
    cmp -s "$2" "$3"
    st=$?
    [ $st -ne 0 ] && diff "$2" "$3" | head -20 | sed 's/^/#   /'
    ok "$1" $st
}

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

echo "1..$n"
[ "$failures" -eq 0 ]
