#!/bin/sh
# Fault battery, MPI: a rank of sudolab-mpi that fails says its rank, shard
# and reason; a rank killed with SIGKILL mid-run ends the whole run within
# seconds with a non-zero status and a message naming it, never a hang; the
# rows written stay whole, and --resume (under MPI or not) completes the run
# to equal an uninterrupted one. Skips (TAP "1..0 # SKIP") without
# sudolab-mpi or mpirun, and fails then when SUDOLAB_CI is set.
# Prints the table. Usage: mpi.sh SUDOLAB [SUDOLAB-MPI]
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
mpi_bin=${2:-}
if [ -z "$mpi_bin" ] || ! command -v mpirun > /dev/null 2>&1; then
    if [ -n "${SUDOLAB_CI:-}" ]; then
        printf 'not ok 1 - no sudolab-mpi or no mpirun, and SUDOLAB_CI is set\n1..1\n'
        exit 1
    fi
    echo "1..0 # SKIP no sudolab-mpi or no mpirun"
    exit 0
fi
case $mpi_bin in */*) mpi_bin=$(cd "$(dirname "$mpi_bin")" && pwd)/$(basename "$mpi_bin") ;; esac
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
# shellcheck source=tests/faults/lib.sh
. "$here/lib.sh"
seed=${FAULTS_SEED:-18}
# The hang guard: a run of seconds cut off after $limit s, near meson's
# timeout (300 s), so that the table is still printed. No check compares a
# time: a run is judged by whether the guard had to end it (timeout
# --verbose says so on standard error), and the times are printed.
limit=240

mpi() { # mpi NP ARGS...: sudolab-mpi on NP ranks, cut off after $limit s
    np=$1
    shift
    timeout --verbose -s KILL "$limit" mpirun --oversubscribe --allow-run-as-root \
        -np "$np" "$mpi_bin" "$@"
}
guarded() { # guarded FILE: the hang guard ended the run whose stderr is FILE
    grep -q '^timeout: sending signal' "$1"
}

rank_pid() { # rank_pid PID R: the pid of rank R of the mpirun started under PID
    launcher="" level="$1"
    for _ in 1 2 3; do # PID: the backgrounded function, then timeout, then mpirun
        launcher=$(pgrep -P "$level" -x mpirun) && break
        level=$(pgrep -P "$level" | head -n 1)
        [ -n "$level" ] || return
    done
    [ -n "$launcher" ] || return
    for q in $(pgrep -P "$launcher"); do
        if tr '\0' '\n' < "/proc/$q/environ" 2> /dev/null \
            | grep -q "^OMPI_COMM_WORLD_RANK=$2\$"; then
            echo "$q"
            return
        fi
    done
}

hard='4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
awk -v p="$hard" 'BEGIN {for (i = 0; i < 1500; i++) print p}' > "$tmp/big.txt"
opts="--solvers naive --budget-steps 10000 --warmup-ms 0 --pass-ms 0 --quiet"
rows_of() { sed 1d "$1/runs.csv" | cut -d, -f1-11 | sort; }
# shellcheck disable=SC2086
"$bin" bench $opts --out "$tmp/ref" "$tmp/big.txt" > /dev/null 2>&1
rows_of "$tmp/ref" > "$tmp/ref.rows"
total=$(wc -l < "$tmp/ref.rows" | tr -d ' ')

# a rank SIGKILLed at seeded row counts, then --resume on 2 ranks
for point in $(awk -v s="$seed" 'BEGIN {srand(s); for (i = 0; i < 3; i++) print 50 + int(rand() * 600)}'); do
    dir="$tmp/killed-$point"
    # shellcheck disable=SC2086
    mpi 3 bench $opts --out "$dir" "$tmp/big.txt" > /dev/null 2> "$dir.err" &
    pid=$!
    wait_lines "$pid" "$dir/runs.csv" 1
    victim=$(rank_pid "$pid" 1)
    wait_lines "$pid" "$dir/runs.csv" "$point"
    at=$(($(lines_of "$dir/runs.csv") - 1))
    start=$(date +%s)
    [ -n "$victim" ] && kill -KILL "$victim"
    wait "$pid"
    rc=$? took=$(($(date +%s) - start))
    # 137 from timeout's own SIGKILL would be a hang: its message tells them apart
    [ -n "$victim" ] && [ "$rc" -ne 0 ] && ! guarded "$dir.err"
    ok "rank 1 SIGKILLed at $at rows: the run ends ($rc) in ${took}s" $? \
        "victim '${victim:-none}', exit $rc after ${took}s"
    grep -q 'rank 1 .*signal 9\|rank 1.*Killed' "$dir.err"
    ok "the message names rank 1 and the signal" $? "$(head -c 600 "$dir.err")"
    whole_rows "$dir/runs.csv" 12
    ok "the rows written are whole" $?
    # shellcheck disable=SC2086
    mpi 2 bench $opts --resume --out "$dir" "$tmp/big.txt" > /dev/null 2> "$dir.err2"
    rc2=$?
    rows_of "$dir" > "$dir.rows"
    same "--resume on 2 ranks completes it: equal to the uninterrupted run" \
        "$tmp/ref.rows" "$dir.rows"
    row "rank 1 SIGKILLed at $at of $total rows" "sudolab-mpi bench --out (3 ranks)" \
        "non-zero exit in seconds, rank named, rows whole; --resume equal" \
        "exit $rc after ${took}s; --resume exit $rc2, $(diff "$tmp/ref.rows" "$dir.rows" | grep -c '^[<>]') rows differ"
done

# the user's Ctrl-C (or a batch system's SIGTERM) on mpirun: the ranks end,
# rows whole, and sudolab bench --resume completes the run. A background job
# of a script ignores SIGINT (POSIX); env --default-signal undoes that.
sigint_default=""
env --default-signal=INT true 2> /dev/null && sigint_default="env --default-signal=INT"
for sig in INT TERM; do
    dir="$tmp/mpirun-$sig"
    # shellcheck disable=SC2086
    $sigint_default mpirun --oversubscribe --allow-run-as-root -np 2 "$mpi_bin" bench \
        $opts --out "$dir" "$tmp/big.txt" > /dev/null 2> "$dir.err" &
    pid=$!
    wait_lines "$pid" "$dir/runs.csv" 300
    start=$(date +%s)
    kill -"$sig" "$pid"
    i=0
    while kill -0 "$pid" 2> /dev/null && [ "$i" -lt $((limit * 10)) ]; do
        sleep 0.1
        i=$((i + 1))
    done
    hung=0
    kill -KILL "$pid" 2> /dev/null && hung=1 # a hang: the checks below fail
    wait "$pid"
    rc=$? took=$(($(date +%s) - start))
    [ "$rc" -ne 0 ] && [ "$hung" -eq 0 ]
    ok "SIG$sig to mpirun: the run ends ($rc) in ${took}s" $?
    whole_rows "$dir/runs.csv" 12
    ok "SIG$sig to mpirun: the rows written are whole" $?
    # shellcheck disable=SC2086
    "$bin" bench $opts --resume --out "$dir" "$tmp/big.txt" > /dev/null 2>&1
    rc2=$?
    rows_of "$dir" > "$dir.rows"
    same "SIG$sig to mpirun: sudolab bench --resume completes it" "$tmp/ref.rows" "$dir.rows"
    row "SIG$sig to mpirun" "sudolab-mpi bench --out (2 ranks)" \
        "non-zero exit in seconds, rows whole, --resume equal" \
        "exit $rc after ${took}s; --resume exit $rc2, $(diff "$tmp/ref.rows" "$dir.rows" | grep -c '^[<>]') rows differ"
done

# a rank whose input differs (its own directory): rank, shard and reason
mkdir -p "$tmp/r0" "$tmp/r1"
printf '1234............\n................\n' > "$tmp/r0/p.txt"
printf '1234............\n1...............\n' > "$tmp/r1/p.txt"
# shellcheck disable=SC2016 # the inner shell expands them, per rank
timeout -s KILL "$limit" mpirun --oversubscribe --allow-run-as-root -np 2 sh -c \
    'cd "$1/r${OMPI_COMM_WORLD_RANK:-0}" && shift && exec "$@"' sh "$tmp" "$mpi_bin" \
    count --solver naive p.txt > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -ne 0 ] && [ ! -s "$tmp/out" ]
ok "count, another input on rank 1: the run fails ($rc), no rows" $?
has "count, another input on rank 1: rank, shard and reason" "$tmp/err" \
    '^sudolab-mpi: rank 1, shard [0-9]*/[0-9]*: row 2 (entry 2) does not match'
row "a rank's input differs" "sudolab-mpi count (2 ranks)" \
    "exit non-zero, 'rank R, shard K/N: reason'" \
    "exit $rc$(grep -q '^sudolab-mpi: rank 1, shard' "$tmp/err" && echo ', rank and shard named')"

print_table
tap_end
