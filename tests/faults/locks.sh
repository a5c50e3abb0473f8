#!/bin/sh
# Fault battery, one run per output and clean interruption: a second run
# writing into a results directory that a live run holds is refused with the
# lock and the holder's pid; the lock goes on every way out (end, error,
# SIGINT, SIGTERM) and one left by a killed run is taken over with a note;
# SIGINT and SIGTERM end bench with 130 and 143, how far it got and the
# command that resumes it, which then completes the run. Prints the table.
# Usage: locks.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
# shellcheck source=tests/faults/lib.sh
. "$here/lib.sh"

# 600 copies of a hard puzzle, naive stopped by a step budget: every row is
# `limit` whatever the timing, so runs compare exactly.
hard='4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
awk -v p="$hard" 'BEGIN {for (i = 0; i < 600; i++) print p}' > "$tmp/big.txt"
opts="--solvers naive --budget-steps 10000 --warmup-ms 0 --pass-ms 0 --quiet"
dir="$tmp/run"
lock="$dir/sudolab.lock"

# hold DIR N: a bench into DIR stopped (SIGSTOP) once it wrote N rows; $held
# is its pid. A stopped run keeps its lock, so what follows does not race it.
hold() {
    # shellcheck disable=SC2086
    "$bin" bench $opts --out "$1" "$tmp/big.txt" > /dev/null 2> "$tmp/held.err" &
    held=$!
    wait_lines "$held" "$1/runs.csv" "$2"
    kill -STOP "$held"
}

hold "$dir" 50
# shellcheck disable=SC2086
"$bin" bench $opts --out "$dir" "$tmp/big.txt" > /dev/null 2> "$tmp/err"
rc=$?
check "a second bench into a held directory is refused" $rc 1
has "the refusal names the lock and the holder's pid" "$tmp/err" "$lock is held by pid $held"
outcome="exit $rc"
grep -q "$lock is held by pid $held" "$tmp/err" && outcome="$outcome, lock and pid named"
row "second run on a held --out" "bench --out DIR" "exit 1, lock and pid named" "$outcome"

# a shard to merge (what it holds does not matter: the lock refuses it first)
# shellcheck disable=SC2086
"$bin" bench $opts --shard 1/1 --out "$tmp/s1" "$hard" > /dev/null 2>&1
"$bin" merge --quiet --out "$dir" "$tmp/s1" > /dev/null 2> "$tmp/err"
rc=$?
check "merge --out into a held directory is refused" $rc 1
has "merge names the lock" "$tmp/err" "$lock is held by pid $held"
row "merge into a held --out" "merge --out DIR" "exit 1, lock and pid named" \
    "exit $rc$(grep -q "$lock is held by pid $held" "$tmp/err" && echo ', lock and pid named')"

# the holder, resumed and interrupted: the message, the status, the lock gone
kill -CONT "$held"
kill -INT "$held"
wait "$held"
rc=$?
check "SIGINT: exit status 130" $rc 130
n1=$(($(lines_of "$dir/runs.csv") - 1))
has "SIGINT: how far it got" "$tmp/held.err" \
    "interrupted (SIGINT) after $n1 of 600 rows; the rows done are in $dir/runs.csv"
has "SIGINT: the command that resumes" "$tmp/held.err" \
    "^to continue: sudolab bench --resume --solvers naive"
[ ! -e "$lock" ]; ok "SIGINT: the lock is released" $?
row "SIGINT during bench --out" "bench --out DIR" \
    "exit 130, rows kept, 'after N of M rows', resume command, lock released" \
    "exit $rc, $n1 rows kept$([ -e "$lock" ] && echo ', lock left')"

# the printed command, run as printed, completes the run
resume=$(sed -n 's/^to continue: //p' "$tmp/held.err")
(eval "set -- $resume" && shift && "$bin" "$@") > /dev/null 2> "$tmp/err"
rc=$?
check "the printed resume command completes the run" $rc 0
[ "$(($(lines_of "$dir/runs.csv") - 1))" -eq 600 ]; ok "600 rows after resuming" $?
[ "$(cut -d, -f1-4 "$dir/runs.csv" | sort | uniq -d | wc -l)" -eq 0 ]; ok "none twice" $?
[ ! -e "$lock" ]; ok "normal end: the lock is released" $?
row "resume with the printed command" "(as printed)" "exit 0, all 600 rows once" "exit $rc"

# SIGTERM: 143, the same message
"$bin" bench $opts --out "$tmp/term" "$tmp/big.txt" > /dev/null 2> "$tmp/err" &
pid=$!
wait_lines "$pid" "$tmp/term/runs.csv" 40
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit status 143" $rc 143
has "SIGTERM: how far it got" "$tmp/err" "interrupted (SIGTERM) after [0-9]* of 600 rows"
[ ! -e "$tmp/term/sudolab.lock" ]; ok "SIGTERM: the lock is released" $?
whole_rows "$tmp/term/runs.csv" 12 && ends_in_newline "$tmp/term/runs.csv"
ok "SIGTERM: every row whole" $?
row "SIGTERM during bench --out" "bench --out DIR" "exit 143, rows whole, lock released" \
    "exit $rc"

# an error after the lock was taken: --resume with other options
"$bin" bench $opts --limit 1 --resume --out "$dir" "$tmp/big.txt" > /dev/null 2> "$tmp/err"
rc=$?
check "--resume with another limit is refused" $rc 2
[ ! -e "$lock" ]; ok "error exit: the lock is released" $?
row "error after the lock (--resume, other --limit)" "bench --resume --out DIR" \
    "exit 2, lock released" "exit $rc$([ -e "$lock" ] && echo ', lock left')"
mkdir -p "$tmp/bad" && mkdir "$tmp/bad/runs.csv"
"$bin" bench $opts --out "$tmp/bad" "$hard" > /dev/null 2> "$tmp/err"
rc=$?
check "runs.csv that cannot be opened" $rc 1
[ ! -e "$tmp/bad/sudolab.lock" ]; ok "open failure: the lock is released" $?
row "runs.csv cannot be opened" "bench --out DIR" "exit 1, lock released" "exit $rc"

# SIGKILL: the lock file stays, its flock goes; the next run takes it over
hold "$tmp/killed" 30
kill -KILL "$held"
kill -CONT "$held" 2> /dev/null
wait "$held"
[ -e "$tmp/killed/sudolab.lock" ]; ok "SIGKILL leaves the lock file" $?
"$bin" bench $opts --resume --out "$tmp/killed" "$tmp/big.txt" > /dev/null 2> "$tmp/err"
rc=$?
check "a run after SIGKILL resumes" $rc 0
has "it notes the stale lock and its dead holder" "$tmp/err" \
    "taking over the stale lock $tmp/killed/sudolab.lock (pid $held is no longer running it)"
[ ! -e "$tmp/killed/sudolab.lock" ]; ok "and releases it" $?
[ "$(($(lines_of "$tmp/killed/runs.csv") - 1))" -eq 600 ]; ok "600 rows" $?
row "stale lock (holder SIGKILLed)" "bench --resume --out DIR" \
    "exit 0, note naming the dead pid, taken over" "exit $rc"

# a second SIGINT aborts at once (the default action): stale, taken over too
hold "$tmp/twice" 30
kill -CONT "$held"
kill -INT "$held"
kill -INT "$held"
wait "$held"
rc=$?
[ "$rc" -eq 130 ]; ok "two SIGINTs: status 130" $? "exit $rc"
"$bin" bench $opts --resume --out "$tmp/twice" "$tmp/big.txt" > /dev/null 2> "$tmp/err"
check "a run after an abort resumes" $? 0
[ ! -e "$tmp/twice/sudolab.lock" ]; ok "no lock left" $?
row "SIGINT twice (abort)" "bench --out DIR, then --resume" "exit 130, then 0" "exit $rc"

print_table
tap_end
