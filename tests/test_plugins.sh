#!/bin/sh
# Outside back ends end to end (solvers/sudolab_plugin.h): a native plug-in and
# a tdoku-ABI function that wrap mrv, and a Python process, must give mrv's
# answers through list, solve, count, trace and bench; and every bad case
# (missing file or symbol, wrong ABI version, a crash, a hang, garbage, wrong
# answers) must give a clear message and `error` rows while the rest of the
# run is intact.
# Usage: test_plugins.sh SUDOLAB PLUGIN_DIR PROCESS_SOLVER.py [PYTHON3]
set -u
bin=$1
dir=$2
script=$3
python=${4:-}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

# The name of the second back end of a bench run (after mrv).
second() { # second DIR
    awk '/^solvers:/ {print $3; exit}' "$1/env.txt"
}

# The rows of runs.csv for one solver: `rows DIR SOLVER [STATUS]`.
rows() {
    awk -F, -v s="$2" -v st="${3:-}" 'NR > 1 && $3 == s && (st == "" || $5 == st)' \
        "$1/runs.csv" | wc -l
}

native="so:$dir/plugin_native.so"
tdoku="so:$dir/plugin_tdoku_abi.so"

# 9x9 puzzles with known counts: unique, unique, many, none.
p1='.9.6.17..5...3...64167.92.8....92.6.95....4...8.4.735...5.7....3...4.........59..'
p2='.2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.'
p3='.9.6.17..5...3...64167.92......92.6.95....4...8.4.735...5.7....3...4.........59..'
p4='12345678.........9...............................................................'
printf '%s:1\n%s:1\n%s:2+\n%s:0\n' "$p1" "$p2" "$p3" "$p4" > "$tmp/nine.txt"
# every size up to 9x9 from the cross-check corpus (Python is slow on larger ones)
grep -v '^#' "${SUDOLAB_TEST_DATA:-tests/data}/crosscheck.txt" | cut -d' ' -f1 |
    awk -F: 'length($1) <= 81' > "$tmp/small.txt"

# the CSV of solve without time_ns, for comparing back ends; no deadline (every
# back end here is complete; a hang is meson's timeout), so no load can turn an
# answer into status limit
answers() { # answers SOLVER FILE [OPTIONS...]
    s=$1
    f=$2
    shift 2
    "$bin" solve --solver "$s" --budget-ms 0 --csv "$@" "$f" 2> /dev/null | cut -d, -f1-8,10
}

# ---- a native plug-in ----
"$bin" list --solver "$native" > "$tmp/list" 2> "$tmp/err"
check "list --solver so:native" $? 0
has "list shows the plug-in with its capabilities" "$tmp/list" \
    '^so:plugin_native .*bitmask .*1-25 .*count,diagonal,trace,step-budget .*mrv_plugin'
"$bin" list --csv --solver "$native" | tail -1 > "$tmp/list.csv"
has "list --csv shows its counters" "$tmp/list.csv" \
    '^so:plugin_native,bitmask,1,25,.*steps guesses backtracks nodes'
answers mrv "$tmp/small.txt" > "$tmp/mrv.csv"
answers "$native" "$tmp/small.txt" > "$tmp/native.csv"
cmp -s "$tmp/mrv.csv" "$tmp/native.csv"
ok "the native plug-in gives mrv's answers and counters" $? \
    "$(diff "$tmp/mrv.csv" "$tmp/native.csv" | head -5)"
[ "$("$bin" count --solver "$native" --empty 2x2 | cut -d' ' -f2)" = 288 ]
ok "count through the plug-in: 288 4x4 grids" $?
"$bin" count --solver "$native" --print --limit 0 '43....34.......1' | grep -v ' ' |
    sort > "$tmp/p.native"
"$bin" count --solver mrv --print --limit 0 '43....34.......1' | grep -v ' ' | sort > "$tmp/p.mrv"
[ "$(wc -l < "$tmp/p.mrv")" -eq 3 ] && cmp -s "$tmp/p.native" "$tmp/p.mrv"
ok "count --print lists every solution through the plug-in" $?
"$bin" trace --solver mrv "$p1" | sed 1d > "$tmp/t.mrv"
"$bin" trace --solver "$native" "$p1" | sed 1d > "$tmp/t.native"
[ -s "$tmp/t.mrv" ] && cmp -s "$tmp/t.mrv" "$tmp/t.native"
ok "trace through the plug-in is mrv's trace" $?
"$bin" solve --solver "$native" --budget-steps 5 "$p2" > "$tmp/out" 2>&1
has "the step budget reaches the plug-in" "$tmp/out" '^1 limit'

# ---- tdoku's ABI ----
"$bin" list --solver "$tdoku" > "$tmp/list"
has "list shows a tdoku-ABI function" "$tmp/list" \
    '^so:plugin_tdoku_abi .*tdoku-abi .*9-9 .*count,fast .*TdokuSolverDpllTriadSimd'
answers mrv "$tmp/nine.txt" | cut -d, -f1-3,9 > "$tmp/mrv.csv"
answers "$tdoku" "$tmp/nine.txt" | cut -d, -f1-3,9 > "$tmp/tdoku.csv"
cmp -s "$tmp/mrv.csv" "$tmp/tdoku.csv"
ok "tdoku's ABI at limit 2: mrv's counts, and a verified solution" $? \
    "$(diff "$tmp/mrv.csv" "$tmp/tdoku.csv" | head -5)"
# a solution to verify fetched by a second, slow call: the answer is right and
# the time printed (that the call is untimed is plugins-api's check, by order)
"$bin" solve --solver "$tdoku:tdoku_abi_slow_first" --budget-ms 0 --csv "$p1" > "$tmp/out"
answers mrv "$p1" | cut -d, -f1-3 > "$tmp/a"
cut -d, -f1-3 "$tmp/out" | diff - "$tmp/a" > /dev/null
ok "a solution fetched by a second call: mrv's answer, verified" $?
echo "# its limit-2 time: $(awk -F, 'NR == 2 {print $9}' "$tmp/out") ns (the second call sleeps 300 ms)"
all=$("$bin" count --solver mrv "$p3" | cut -d' ' -f2)
"$bin" count --solver "$tdoku" --budget-ms 0 "$p3" > "$tmp/out" 2>&1
has "limit 0 is every solution ($all)" "$tmp/out" "^1 $all multiple"
if [ -n "${SUDOLAB_TDOKU_LIB:-}" ]; then
    # the counts only: on a puzzle with many, the first solution found differs
    answers "so:$SUDOLAB_TDOKU_LIB" "$tmp/nine.txt" | cut -d, -f1-3 > "$tmp/real.csv"
    cut -d, -f1-3 "$tmp/mrv.csv" | cmp -s - "$tmp/real.csv"
    ok "tdoku's own libtdoku_shared.so gives mrv's counts, verified" $?
else
    skip "tdoku's own library" "SUDOLAB_TDOKU_LIB not set"
fi

# ---- a process ----
if [ -n "$python" ]; then
    proc="cmd:$python $script"
    "$bin" list --solver "$proc" > "$tmp/list"
    has "list shows the process and the protocol's cost" "$tmp/list" \
        '^cmd:python3_process_solver.py .*process .*1-25 .*count,diagonal .*protocol round trip'
    # the sizes column starts where its heading does, on every line
    awk 'NR == 1 { at = index($0, " sizes ") } NR > 1 && substr($0, at, 2) !~ /^ [0-9]$/ {
        bad = 1 } END { exit bad }' "$tmp/list"
    ok "list keeps its columns with a long process name" $? "$(cat "$tmp/list")"
    answers mrv "$tmp/small.txt" | cut -d, -f1-3,9 > "$tmp/mrv.csv"
    answers "$proc" "$tmp/small.txt" | cut -d, -f1-3,9 > "$tmp/proc.csv"
    cmp -s "$tmp/mrv.csv" "$tmp/proc.csv"
    ok "the process gives mrv's answers, 4x4 to 9x9" $? \
        "$(diff "$tmp/mrv.csv" "$tmp/proc.csv" | head -5)"
    answers "$proc --count-only" "$tmp/nine.txt" | cut -d, -f1-3,9 > "$tmp/proc.csv"
    answers mrv "$tmp/nine.txt" | cut -d, -f1-3,9 > "$tmp/mrv.csv"
    cmp -s "$tmp/mrv.csv" "$tmp/proc.csv"
    ok "a process that gives no solution at limit 2 is asked again at limit 1" $?
    "$bin" solve --solver "$proc" --budget-ms 0 --variant diagonal '1....2....3....4' > "$tmp/out"
    has "the diagonal variant reaches the process" "$tmp/out" '^1 multiple solutions=2'
else
    proc=""
    skip "process back ends" "no python3"
fi

# ---- qqwing, when installed, through scripts/qqwing-adapter.py ----
adapter="$(dirname "$script")/../../scripts/qqwing-adapter.py"
if [ -n "$python" ] && command -v qqwing > /dev/null 2>&1 && command -v stdbuf > /dev/null 2>&1; then
    "$bin" bench --solvers "mrv,qqwing=cmd:$python $adapter" --expect --budget-ms 0 \
        --warmup-ms 1 --pass-ms 1 --out "$tmp/qq" "$tmp/nine.txt" > "$tmp/out" 2>&1
    check "qqwing as a process agrees with mrv" $? 0
    [ "$(rows "$tmp/qq" qqwing)" -eq 4 ]
    ok "... with a row per puzzle" $?
else
    skip "qqwing as a process" "no qqwing, stdbuf or python3"
fi

# ---- all of them in one bench, with names given and derived, on 2 threads ----
solvers="mrv,$native,mine=$tdoku"
[ -n "$proc" ] && solvers="$solvers,$proc"
"$bin" bench --solvers "$solvers" --expect --budget-ms 0 -j 2 --warmup-ms 1 --pass-ms 1 \
    --out "$tmp/all" "$tmp/nine.txt" > "$tmp/out" 2> "$tmp/err"
check "bench with every kind of back end agrees" $? 0
[ "$(rows "$tmp/all" so:plugin_native)" -eq 4 ] && [ "$(rows "$tmp/all" mine)" -eq 4 ]
ok "rows under the derived name and the label" $?
has "env.txt says what each outside back end is" "$tmp/all/env.txt" \
    "^outside: mine = TdokuSolverDpllTriadSimd from $dir/plugin_tdoku_abi.so"
has "the summary table has the plug-in" "$tmp/out" '^so:plugin_native  *2  *1  *1 '
if [ -n "$proc" ]; then
    [ "$(rows "$tmp/all" cmd:python3_process_solver.py)" -eq 4 ]
    ok "rows of the process" $?
    has "the protocol's cost is printed beside the results" "$tmp/out" \
        "^cmd:python3_process_solver.py = .*round trip, [0-9.]*[mun]*s per puzzle"
fi
"$bin" bench --solvers "mrv=$tdoku" "$tmp/nine.txt" > "$tmp/out" 2>&1
check "a label may not take a built-in name" $? 2
has "... and says so" "$tmp/out" 'the name mrv is taken'

"$bin" list --solver "so:$tmp/no/libsolver.so" > "$tmp/out" 2> "$tmp/err"
check "list of a back end that cannot run" $? 1
has "... shows it as unusable, with the reason" "$tmp/out" '^so:solver .*unusable: cannot load'

# ---- bench --shard K/N and merge: outside back ends found again by their spec ----
# runs.csv without time_ns, the last column
untimed() { awk -F, -v OFS=, '{NF--; print}' "$1"; }

# shard_merge NAME FILE SPEC: the single run, shards 1/2 and 2/2, and their
# merge into $tmp/NAME.{single,1,2,merged}; says whether each step worked
shard_merge() {
    name=$1
    file=$2
    spec=$3
    set -- --solvers mrv --solver "$spec" --budget-ms 0 --warmup-ms 0 --pass-ms 0 --quiet
    "$bin" bench "$@" --out "$tmp/$name.single" "$file" > /dev/null 2>&1
    single=$?
    for k in 1 2; do
        "$bin" bench "$@" --shard $k/2 --out "$tmp/$name.$k" "$file" > /dev/null 2>&1
        check "$name: bench shard $k/2 ends as the single run does" $? $single
    done
    "$bin" merge --quiet --out "$tmp/$name.merged" "$tmp/$name.1" "$tmp/$name.2" \
        > /dev/null 2> "$tmp/$name.err"
    check "$name: merge of the shards" $? 0
    untimed "$tmp/$name.single/runs.csv" > "$tmp/a"
    untimed "$tmp/$name.merged/runs.csv" > "$tmp/b"
    same "$name: merged runs.csv = the single run's, row for row but time_ns" \
        "$tmp/a" "$tmp/b"
}

shard_merge native "$tmp/small.txt" "nat=$native"
has "native: env.txt records the label's spec" "$tmp/native.1/env.txt" \
    "^solver_spec: nat nat=$native\$"
# the plug-in's counters (steps, guesses, backtracks, nodes) survive the merge
awk -F, '$3 == "nat" && $5 == "unique" && $7 != "" && $8 != "" && $10 != ""' \
    "$tmp/native.merged/runs.csv" | grep -q .
ok "native: the merged rows keep the plug-in's counters" $?
if [ -n "$proc" ]; then
    shard_merge process "$tmp/nine.txt" "$proc"
    awk -F, '$3 ~ /^cmd:/ && $5 == "unique" && $8 != ""' \
        "$tmp/process.merged/runs.csv" | grep -q .
    ok "process: the merged rows keep the process's counters" $?
fi

# a library gone by merge time: refused, naming it and why, nothing written
cp "$dir/plugin_native.so" "$tmp/libmoved.so"
for k in 1 2; do
    "$bin" bench --solvers mrv --solver "so:$tmp/libmoved.so" --warmup-ms 0 --pass-ms 0 \
        --quiet --shard $k/2 --out "$tmp/moved.$k" "$tmp/nine.txt" > /dev/null 2>&1
done
rm "$tmp/libmoved.so"
"$bin" merge --quiet --out "$tmp/moved.merged" "$tmp/moved.1" "$tmp/moved.2" \
    > /dev/null 2> "$tmp/err"
check "a merge whose library is gone is refused" $? 2
has "... naming env.txt, the back end, its spec and why" "$tmp/err" \
    "moved.1/env.txt: back end so:moved (so:$tmp/libmoved.so) cannot be opened here: cannot load"
[ ! -e "$tmp/moved.merged" ]
ok "... and writing nothing" $?
grep -v '^solver_spec:' "$tmp/native.1/env.txt" > "$tmp/native.1/env.old"
mv "$tmp/native.1/env.old" "$tmp/native.1/env.txt"
"$bin" merge --quiet --out "$tmp/x" "$tmp/native.1" "$tmp/native.2" > /dev/null 2> "$tmp/err"
check "shards without solver_spec lines are refused" $? 2
has "... saying the line is missing" "$tmp/err" "no 'solver_spec: nat' line"

# ---- bad cases: mrv's rows stay whole, the bad back end's rows say error ----
# (no deadline unless OPTIONS give one: these back ends all answer or fail at once)
bad_bench() { # bad_bench NAME SPEC [OPTIONS...]: runs mrv and SPEC into $tmp/NAME
    out="$tmp/$1"
    spec=$2
    shift 2
    "$bin" bench --solvers "mrv" --solver "$spec" --expect --budget-ms 0 --warmup-ms 0 \
        --pass-ms 1 --quiet --out "$out" "$@" "$tmp/nine.txt" > "$out.stdout" 2> "$out.stderr"
    echo $?
}

bad_case() { # bad_case NAME SOLVER-NAME ERROR-ROWS EXIT PATTERN
    st=$(cat "$tmp/$1.status")
    [ "$st" -eq "$4" ]
    ok "$1: exit status" $? "$st, expected $4"
    [ "$(rows "$tmp/$1" mrv)" -eq 4 ] && [ "$(rows "$tmp/$1" mrv error)" -eq 0 ]
    ok "$1: mrv's rows are intact" $?
    [ "$(rows "$tmp/$1" "$2" error)" -eq "$3" ] && [ "$(rows "$tmp/$1" "$2")" -eq 4 ]
    ok "$1: $3 error rows of $2" $? "$(cat "$tmp/$1/runs.csv")"
    has "$1: the message says why" "$tmp/$1.stderr" "$5"
}

bad_bench missing "so:$tmp/no/libsolver.so" > "$tmp/missing.status"
bad_case missing so:solver 4 1 'cannot load .*No such file'
bad_bench symbol "$tdoku:no_such_function" > "$tmp/symbol.status"
bad_case symbol so:plugin_tdoku_abi:no_such_function 4 1 'has no function no_such_function'
bad_bench abi "so:$dir/plugin_native_abi99.so" > "$tmp/abi.status"
bad_case abi so:plugin_native_abi99 4 1 'ABI version 99; this sudolab loads version 1'
SUDOLAB_TEST_CRASH_ON=$p2 bad_bench crash "$tdoku:tdoku_abi_crash" > "$tmp/crash.status"
bad_case crash so:plugin_tdoku_abi:tdoku_abi_crash 1 1 'crashed (signal 6, ABRT) on this puzzle'
bad_bench wrong "$tdoku:tdoku_abi_wrong" > "$tmp/wrong.status"
bad_case wrong so:plugin_tdoku_abi:tdoku_abi_wrong 3 1 'returned a wrong solution'
bad_bench count "so:$dir/plugin_native_wrong_count.so" > "$tmp/count.status"
check "wrong count: exit status" "$(cat "$tmp/count.status")" 1
has "wrong count: the cross-check names the puzzle" "$tmp/count.stderr" \
    '^DISAGREEMENT nine.txt:3'
has "wrong count: ... and the plug-in's answer" "$tmp/count.stderr" \
    'so:plugin_native_wrong_count: 1 solutions, unique'
"$bin" solve --solver "$tdoku:tdoku_abi_wrong" "$tmp/nine.txt" > "$tmp/out" 2> "$tmp/err"
"$bin" solve --csv --solver "$tdoku:tdoku_abi_wrong" "$tmp/nine.txt" >> "$tmp/out" 2>&1
grep '^[0-9]*[ ,]error' "$tmp/out" > "$tmp/errors"
[ -s "$tmp/errors" ] && ! grep -q '[1-9]\{81\}' "$tmp/errors"
ok "solve: an error row does not show the refused grid as a solution" $? "$(cat "$tmp/out")"
has "... the message says what is wrong with it" "$tmp/err" 'wrong solution: r1c2 changes clue'
SUDOLAB_TEST_CRASH_ON=$p2 "$bin" solve --solver "$tdoku:tdoku_abi_crash" "$tmp/nine.txt" \
    > "$tmp/out" 2> "$tmp/err"
check "solve goes on after a crash" $? 1
[ "$(grep -c 'unique\|multiple\|unsolvable' "$tmp/out")" -eq 3 ]
ok "... and solves the other puzzles" $?

if [ -n "$proc" ]; then
    bad_bench pcrash "$proc --crash-on $p2" > "$tmp/pcrash.status"
    bad_case pcrash "$(second "$tmp/pcrash")" 1 1 \
        'the process exited with status 134 (signal 6, ABRT) on this puzzle; started again'
    # A time budget is what stops a hung process, so this run has one; what is
    # asserted cannot depend on the time the machine takes. The hung puzzle never
    # answers: its row is limit under any load. The others run under the same
    # deadline, so each must be its right answer (--expect, the exit status) or,
    # should a stalled machine hold the restarted process that long, limit too;
    # never an error, which a process not started again after the kill gives.
    bad_bench hang "$proc --hang-on $p2" --budget-ms 1500 > "$tmp/hang.status"
    awk -F, 'NR > 1 && $3 ~ /^cmd:/ && $2 == 2 && $5 == "limit" {hung++}
        NR > 1 && $3 ~ /^cmd:/ && $2 != 2 && $5 ~ /^(unique|multiple|unsolvable|limit)$/ {rest++}
        END {exit !(hung == 1 && rest == 3)}' "$tmp/hang/runs.csv"
    [ $? -eq 0 ] && [ "$(cat "$tmp/hang.status")" -eq 0 ]
    ok "hang: killed at the budget (status limit), the process started again for the rest" $? \
        "$(cat "$tmp/hang/runs.csv")"
    late=$(awk -F, 'NR > 1 && $3 ~ /^cmd:/ && $2 != 2 && $5 == "limit"' "$tmp/hang/runs.csv" | wc -l)
    echo "# hang: $((3 - late)) of the other 3 puzzles answered within the budget (a measurement)"
    has "hang: the message names the puzzle and says what happened" "$tmp/hang.stderr" \
        'nine.txt:2: cmd:[^ ]*: no answer within the budget; killed and started again'
    # counters the process declared (guesses, nodes): empty where it gave no answer
    empty=$(awk -F, 'NR > 1 && $3 ~ /^cmd:/ && $2 == 2 && $8 == "" && $10 == ""' \
        "$tmp/hang/runs.csv" | cut -d, -f2,5)
    [ "$empty" = "2,limit" ]
    ok "hang: the killed row's counters are empty, not 0" $? "$(cat "$tmp/hang/runs.csv")"
    awk -F, 'NR > 1 && $3 ~ /^cmd:/ && $5 != "limit" && ($8 == "" || $10 == "") {bad = 1}
        END {exit bad}' "$tmp/hang/runs.csv"
    ok "hang: the answered rows' counters are filled" $? "$(cat "$tmp/hang/runs.csv")"
    empty=$(awk -F, 'NR > 1 && $3 ~ /^cmd:/ && $8 == "" && $10 == ""' "$tmp/pcrash/runs.csv" |
        cut -d, -f2,5)
    [ "$empty" = "2,error" ]
    ok "crash: the crashed row's counters are empty, not 0" $? "$(cat "$tmp/pcrash/runs.csv")"
    # (only the hung puzzle's row and message are asserted: both hold under any load)
    "$bin" solve --csv --budget-ms 1500 --solver "$proc --hang-on $p2" "$tmp/nine.txt" \
        > "$tmp/out" 2> "$tmp/err"
    has "solve: a hung process is named with the puzzle" "$tmp/err" \
        'nine.txt:2: cmd:[^ ]*: no answer within the budget; killed and started again'
    has "solve --csv: its row has empty counters" "$tmp/out" '^2,limit,0,,,,,,[0-9]*,,$'
    bad_bench garbage "$proc --garbage-on $p2" > "$tmp/garbage.status"
    bad_case garbage "$(second "$tmp/garbage")" 1 1 \
        "the process answered 'the answer is forty-two'"
    bad_bench perror "$proc --error-on $p1" > "$tmp/perror.status"
    bad_case perror "$(second "$tmp/perror")" 1 1 \
        'the process said: refused on purpose'
    bad_bench pwrong "$proc --wrong-on $p1" > "$tmp/pwrong.status"
    bad_case pwrong "$(second "$tmp/pwrong")" 1 1 \
        'returned a wrong solution'
    bad_bench nocmd "cmd:$tmp/no/such/solver" > "$tmp/nocmd.status"
    bad_case nocmd cmd:solver 4 1 'exited with status 127 before answering hello'
fi

tap_end
