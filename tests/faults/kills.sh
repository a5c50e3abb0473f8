#!/bin/sh
# Fault battery, the kill battery: `sudolab bench --out DIR` killed with
# SIGINT, SIGTERM and SIGKILL at 20 points each, chosen by a seed among the
# rows written (the run is stopped once runs.csv holds that many rows, then
# signalled: no sleep decides where), then continued with --resume. Each
# continued run must equal an uninterrupted one: every puzzle once, the same
# statuses, solutions and counters, no duplicated or torn row, the summary
# recomputed, the same exit status. Prints the figures and the table.
# Usage: kills.sh SUDOLAB   (FAULTS_SEED picks other points, default 18;
# FAULTS_POINTS how many a signal, default 20: the sanitizer build's test
# takes 7, each point being one more run of the same code, tests/meson.build)
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
# shellcheck source=tests/faults/lib.sh
. "$here/lib.sh"
seed=${FAULTS_SEED:-18}
npoints=${FAULTS_POINTS:-20}

# The cross-check corpus (unique, multiple, unsolvable and invalid puzzles of
# every size), each followed by two copies of a hard puzzle: naive, stopped by
# a step budget, gives every status, all of them decided by steps, never by
# time, and takes about as long on each row, so the kill points spread.
hard='4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
grep -v '^#' "$here/../data/crosscheck.txt" | grep -v '^$' \
    | awk -v p="$hard" '{print; print p; print p}' > "$tmp/corpus.txt"
opts="--solvers naive --budget-steps 50000 --budget-ms 0 -j 2 --warmup-ms 0 --pass-ms 0 --quiet"

# What a run must reproduce: runs.csv without its times (the row's key,
# status, solutions and counters), sorted; summary.csv's counts and mean
# counters (not its times).
rows_of() { sed 1d "$1/runs.csv" | cut -d, -f1-11 | sort; }
summary_of() { cut -d, -f1-13,23-27 "$1/summary.csv" | sort; }

# shellcheck disable=SC2086
"$bin" bench $opts --out "$tmp/ref" "$tmp/corpus.txt" > /dev/null 2> "$tmp/ref.err"
ref_status=$?
rows_of "$tmp/ref" > "$tmp/ref.rows"
summary_of "$tmp/ref" > "$tmp/ref.summary"
total=$(wc -l < "$tmp/ref.rows" | tr -d ' ')
[ "$ref_status" -le 1 ] && [ "$total" -gt 80 ]
ok "the uninterrupted run: $total rows, exit $ref_status" $?
[ "$(cut -d, -f1-4 "$tmp/ref.rows" | sort | uniq -d | wc -l)" -eq 0 ]
ok "the uninterrupted run has each row once" $?

# the kill points: npoints distinct row counts in [1, 2/3 of the run], by
# seed (the run is stopped a few rows past each: the rows that came while the
# test looked)
points() {
    awk -v seed="$1" -v n="$npoints" -v hi=$((total * 2 / 3)) 'BEGIN {
        srand(seed)
        while (k < n) { p = 1 + int(rand() * hi); if (!(p in seen)) { seen[p] = 1; print p; k++ } }
    }' | sort -n
}

killed=0 midrun=0 late=0 compared=0 differences=0
# one_point SIGNAL POINT: kill a run there, continue it, compare
one_point() {
    sig=$1 point=$2 dir="$tmp/run-$1-$2"
    # shellcheck disable=SC2086
    "$bin" bench $opts --out "$dir" "$tmp/corpus.txt" > /dev/null 2> "$dir.err" &
    pid=$!
    wait_lines "$pid" "$dir/runs.csv" $((point + 1))
    kill -STOP "$pid" 2> /dev/null
    at=$(($(lines_of "$dir/runs.csv") - 1))
    [ "$at" -lt "$total" ] && midrun=$((midrun + 1))
    kill -"$sig" "$pid" 2> /dev/null
    kill -CONT "$pid" 2> /dev/null
    wait "$pid"
    st=$? why=""
    saved=$(($(lines_of "$dir/runs.csv") - 1))
    case $sig:$st in
        INT:130 | TERM:143)
            grep -q "interrupted (SIG$sig) after $saved of $total rows" "$dir.err" \
                || why="$why no 'after $saved of $total rows' line;"
            grep -q '^to continue: sudolab bench --resume' "$dir.err" \
                || why="$why no resume command;"
            ends_in_newline "$dir/runs.csv" || why="$why a torn row;"
            killed=$((killed + 1)) ;;
        KILL:137) killed=$((killed + 1)) ;;
        *:"$ref_status") late=$((late + 1)) ;; # ended before the signal came
        *) why="$why exit status $st;" ;;
    esac
    whole_rows "$dir/runs.csv" 12 || why="$why a malformed row;"
    # shellcheck disable=SC2086
    "$bin" bench $opts --resume --out "$dir" "$tmp/corpus.txt" > /dev/null 2> "$dir.err2"
    st=$?
    [ "$st" -eq "$ref_status" ] || why="$why --resume exit $st;"
    rows_of "$dir" > "$dir.rows"
    summary_of "$dir" > "$dir.summary"
    diff=$(diff "$tmp/ref.rows" "$dir.rows" | grep -c '^[<>]')
    compared=$((compared + $(wc -l < "$dir.rows")))
    differences=$((differences + diff))
    [ "$diff" -eq 0 ] || why="$why $diff rows differ;"
    [ "$(cut -d, -f1-4 "$dir.rows" | uniq -d | wc -l)" -eq 0 ] || why="$why a row twice;"
    cmp -s "$tmp/ref.summary" "$dir.summary" || why="$why summary differs;"
    whole_rows "$dir/runs.csv" 12 && ends_in_newline "$dir/runs.csv" \
        || why="$why a torn or malformed row;"
    [ "$(sed -n 's/^finished: //p' "$dir/env.txt" | tail -n 1)" = complete ] \
        || why="$why env.txt not complete;"
    [ ! -e "$dir/sudolab.lock" ] || why="$why the lock left;"
    [ -z "$why" ]
    ok "SIG$sig at row $point (stopped at $at, $saved saved), resumed: equal" $? "$why"
    [ -z "$why" ] && rm -rf "$dir" "$dir".*
}

for sig in INT TERM KILL; do
    before_k=$killed before_m=$midrun before_l=$late before_f=$failures
    for point in $(points "$seed$sig"); do
        one_point "$sig" "$point" 2> /dev/null
    done
    case $sig in INT) st=130 ;; TERM) st=143 ;; *) st=137 ;; esac
    expected="exit $st, resume equal to the uninterrupted run"
    row "SIG$sig at $npoints rows (seed $seed)" "bench --out DIR, then --resume" "$expected" \
        "$((killed - before_k)) killed ($((midrun - before_m)) with rows pending), $((late - before_l)) ended first, $((failures - before_f)) unequal"
    [ $((midrun - before_m)) -gt 0 ]
    ok "SIG$sig: kills landed with rows pending ($((midrun - before_m)) of $npoints)" $?
done
echo "# kill battery: $((3 * npoints)) kill points (seed $seed): $killed killed" \
    "($midrun with rows still to write), $late ended before the signal;" \
    "$compared rows compared with the uninterrupted run's $total, $differences differences"
print_table
tap_end
