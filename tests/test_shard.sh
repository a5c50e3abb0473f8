#!/bin/sh
# --shard K/N and sudolab merge end to end: shards merged equal the single run
# (timings aside) for count, generate, rate and bench, and merge refuses shards that
# do not belong together. Usage: test_shard.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
data=${SUDOLAB_TEST_DATA:-tests/data}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

untimed() { # count's text rows without the time field
    sed 's/ time=[^ ]*//' "$1"
}

# ---- count ----
# The empty 4x4 grid (288 grids) and 4x4 with a full first row (288 / 4! = 12).
set -- --solver naive --empty 2x2 1234............
for k in 1 2 3; do
    "$bin" count "$@" --split 10 --shard $k/3 > "$tmp/c$k"
    check "count shard $k/3" $? 0
done
"$bin" merge "$tmp/c1" "$tmp/c2" "$tmp/c3" > "$tmp/merged"
check "merge count shards" $? 0
has "merged: the empty 4x4 grid has 288 solutions" "$tmp/merged" '^1 288 multiple'
has "merged: 12 with the first row given" "$tmp/merged" '^2 12 multiple'
"$bin" merge "$tmp/c3" "$tmp/c1" "$tmp/c2" > "$tmp/merged2"
same "the order of the shards does not matter" "$tmp/merged" "$tmp/merged2"

# The same subproblems whatever N, so the counters add up to the same sums.
"$bin" count "$@" --split 10 --shard 1/1 > "$tmp/whole"
"$bin" merge "$tmp/whole" > "$tmp/merged1"
untimed "$tmp/merged" > "$tmp/a"
untimed "$tmp/merged1" > "$tmp/b"
same "3 shards merged = 1 shard, counters included" "$tmp/a" "$tmp/b"
"$bin" count "$@" --split 10 -j 2 > "$tmp/threads"
untimed "$tmp/threads" > "$tmp/b"
same "count -j 2 = the merged shards" "$tmp/a" "$tmp/b"

# Threads that live for one batch open their own instance: a back end with
# per-thread library state (milp) counts right and leaves nothing behind.
if "$bin" list --csv | grep -q '^milp,'; then
    "$bin" count --solver milp --budget-ms 0 --split 10 -j 2 --empty 2x2 1234............ \
        > "$tmp/milp" 2> "$tmp/stderr"
    check "milp count -j 2" $? 0
    untimed "$tmp/milp" | cut -d' ' -f1-3 > "$tmp/b"
    cut -d' ' -f1-3 "$tmp/a" > "$tmp/a3"
    same "milp count -j 2 = naive's" "$tmp/a3" "$tmp/b"
fi

# Solutions and statuses equal the plain count (its counters are its own search's).
"$bin" count "$@" > "$tmp/plain"
cut -d' ' -f1-3 "$tmp/plain" > "$tmp/a"
cut -d' ' -f1-3 "$tmp/merged" > "$tmp/b"
same "merged = plain count: index, solutions, status" "$tmp/a" "$tmp/b"
"$bin" merge --csv "$tmp/c1" "$tmp/c2" "$tmp/c3" > "$tmp/csv"
has "merge --csv writes count's CSV header" "$tmp/csv" \
    '^index,status,solutions,steps,guesses,backtracks,nodes,article_steps,time_ns,name,solution$'
has "merge --csv rows" "$tmp/csv" '^1,multiple,288,'

# With a limit, the capped sum is the capped count.
for k in 1 2; do "$bin" count "$@" --limit 2 --split 10 --shard $k/2 > "$tmp/l$k"; done
"$bin" merge "$tmp/l1" "$tmp/l2" > "$tmp/merged"
has "limit 2: two solutions found" "$tmp/merged" '^1 2 multiple'

# 6x6 with the first row given: 28,200,960 / 6! = 39,168 (relabelling symmetry).
six=123456..............................
for k in 1 2 3 4; do "$bin" count --solver mrv --shard $k/4 "$six" > "$tmp/s$k"; done
"$bin" merge "$tmp/s1" "$tmp/s2" "$tmp/s3" "$tmp/s4" > "$tmp/merged"
has "6x6, first row given: 39168 from 4 merged shards" "$tmp/merged" '^1 39168 multiple'

# Refusals: nothing on stdout, exit status 2, a reason.
"$bin" merge "$tmp/c1" "$tmp/c2" > "$tmp/out" 2> "$tmp/err"
check "a missing shard is refused" $? 2
has "... and named" "$tmp/err" 'shard 3/3 is missing'
[ ! -s "$tmp/out" ]; ok "... with nothing written" $?
"$bin" merge "$tmp/c1" "$tmp/c2" "$tmp/c2" "$tmp/c3" > /dev/null 2> "$tmp/err"
check "a shard given twice is refused" $? 2
has "... as duplicate rows" "$tmp/err" 'given twice'
"$bin" count "$@" --split 10 --limit 5 --shard 3/3 > "$tmp/c3limit"
"$bin" merge "$tmp/c1" "$tmp/c2" "$tmp/c3limit" > /dev/null 2> "$tmp/err"
check "a shard with other options is refused" $? 2
has "... naming the option" "$tmp/err" "'limit=0' against 'limit=5'"
"$bin" count --solver naive --empty 2x2 12.3............ --split 10 --shard 3/3 > "$tmp/c3other"
"$bin" merge "$tmp/c1" "$tmp/c2" "$tmp/c3other" > /dev/null 2> "$tmp/err"
check "a shard of other puzzles is refused" $? 2
has "... as different inputs" "$tmp/err" 'different inputs'
"$bin" count "$@" --split 20 --shard 3/3 > "$tmp/c3split"
"$bin" merge "$tmp/c1" "$tmp/c2" "$tmp/c3split" > /dev/null 2> "$tmp/err"
check "a shard of another split is refused" $? 2
head -n 3 "$tmp/c3" > "$tmp/c3cut"
"$bin" merge "$tmp/c1" "$tmp/c2" "$tmp/c3cut" > /dev/null 2> "$tmp/err"
check "a truncated shard is refused" $? 2
has "... as incomplete" "$tmp/err" 'incomplete'
"$bin" count "$@" --shard 0/3 > /dev/null 2>&1
check "--shard 0/3 is a usage error" $? 2
"$bin" count "$@" --shard 1/3 --print > /dev/null 2>&1
check "--shard with --print is a usage error" $? 2

# ---- generate ----
g="--size 2x3 --count 23 --seed 11 --difficulty hard"
# shellcheck disable=SC2086
"$bin" generate $g > "$tmp/gen"
check "generate, one run" $? 0
for k in 1 2 3; do
    # shellcheck disable=SC2086
    "$bin" generate $g --shard $k/3 > "$tmp/g$k"
done
"$bin" merge "$tmp/g2" "$tmp/g1" "$tmp/g3" > "$tmp/merged"
check "merge generate shards" $? 0
same "merged generate shards = the single run, byte for byte" "$tmp/gen" "$tmp/merged"
head -n 3 "$tmp/g2" > "$tmp/g2cut"
"$bin" merge "$tmp/g1" "$tmp/g2cut" "$tmp/g3" > /dev/null 2> "$tmp/err"
check "a truncated generate shard is refused" $? 2
has "... as incomplete" "$tmp/err" 'incomplete'
# shellcheck disable=SC2086
"$bin" generate $g --seed 12 --shard 3/3 > "$tmp/g3seed"
"$bin" merge "$tmp/g1" "$tmp/g2" "$tmp/g3seed" > /dev/null 2> "$tmp/err"
check "a generate shard of another seed is refused" $? 2
has "... naming the seed" "$tmp/err" "'seed=11' against 'seed=12'"
"$bin" merge "$tmp/g1" "$tmp/c2" > /dev/null 2> "$tmp/err"
check "a generate shard with a count partial is refused" $? 2

# ---- rate ----
# Nine puzzles serate rated (se_dev.tsv) and one bad line: merged shards =
# the single run, byte for byte, plain and CSV, with any -j.
grep -v '^#' "$data/se_dev.tsv" | cut -f2 | head -n 9 > "$tmp/rin9"
{ head -n 5 "$tmp/rin9"; echo 'not a puzzle'; tail -n 4 "$tmp/rin9"; } > "$tmp/rin"
r="--method blanks,freedom,se"
# shellcheck disable=SC2086
"$bin" rate $r "$tmp/rin" > "$tmp/rate" 2> /dev/null
single=$?
for k in 1 2 3; do
    # shellcheck disable=SC2086
    "$bin" rate $r -j $k --shard $k/3 "$tmp/rin" > "$tmp/r$k" 2> /dev/null
    check "rate shard $k/3 ends as the single run does (every shard reads every line)" $? $single
done
has "a shard ends with its closing line" "$tmp/r2" '^# end shard=2/3 entries=10 inputs=[0-9a-f]* rows=3$'
"$bin" merge "$tmp/r2" "$tmp/r3" "$tmp/r1" > "$tmp/merged"
check "merge rate shards" $? 0
same "merged rate shards = the single run, byte for byte" "$tmp/rate" "$tmp/merged"
# shellcheck disable=SC2086
"$bin" rate $r --csv "$tmp/rin" > "$tmp/rate" 2> /dev/null
for k in 1 2; do
    # shellcheck disable=SC2086
    "$bin" rate $r --csv --shard $k/2 "$tmp/rin" > "$tmp/r$k" 2> /dev/null
done
"$bin" merge "$tmp/r1" "$tmp/r2" > "$tmp/merged"
check "merge rate --csv shards" $? 0
same "merged CSV = the single run's, byte for byte" "$tmp/rate" "$tmp/merged"
head -n 3 "$tmp/r2" > "$tmp/r2cut"
"$bin" merge "$tmp/r1" "$tmp/r2cut" > "$tmp/out" 2> "$tmp/err"
check "a rate shard cut short is refused" $? 2
has "... as incomplete" "$tmp/err" 'no closing line: an incomplete shard'
[ ! -s "$tmp/out" ]; ok "... with nothing written" $?
sed 's/ rows=\([0-9]*\)$/ rows=9\1/' "$tmp/r2" > "$tmp/r2rows"
"$bin" merge "$tmp/r1" "$tmp/r2rows" > /dev/null 2> "$tmp/err"
check "a rate shard with rows missing is refused" $? 2
has "... counting them" "$tmp/err" 'its closing line says'
sed -n 3p "$tmp/r1" > "$tmp/row"
{ head -n 2 "$tmp/r2"; cat "$tmp/row"; tail -n +3 "$tmp/r2"; } > "$tmp/r2other"
"$bin" merge "$tmp/r1" "$tmp/r2other" > /dev/null 2> "$tmp/err"
check "another rate shard's row is refused" $? 2
has "... as another shard's" "$tmp/err" 'belongs to another shard'
"$bin" rate --method blanks --csv --shard 2/2 "$tmp/rin" > "$tmp/r2method" 2> /dev/null
"$bin" merge "$tmp/r1" "$tmp/r2method" > /dev/null 2> "$tmp/err"
check "a rate shard of other methods is refused" $? 2
has "... naming them" "$tmp/err" "'methods=blanks,freedom,se' against 'methods=blanks'"
sed -n 1,4p "$tmp/rin" > "$tmp/rin4"
# shellcheck disable=SC2086
"$bin" rate $r --csv --shard 2/2 "$tmp/rin4" > "$tmp/r2short" 2> /dev/null
"$bin" merge "$tmp/r1" "$tmp/r2short" > /dev/null 2> "$tmp/err"
check "a rate shard of other puzzles is refused" $? 2
has "... as different inputs" "$tmp/err" 'different inputs'
# Pencil-mark puzzles (every cell blank) differ by their candidates alone.
grep -v '^#' "$data/se_sukaku.tsv" | cut -f2 | head -n 2 > "$tmp/pm"
sed '2s/1/./' "$tmp/pm" > "$tmp/pm2"
"$bin" rate --method se --shard 1/2 "$tmp/pm" > "$tmp/p1" 2> /dev/null
"$bin" rate --method se --shard 2/2 "$tmp/pm2" > "$tmp/p2" 2> /dev/null
"$bin" merge "$tmp/p1" "$tmp/p2" > /dev/null 2> "$tmp/err"
check "rate shards of other pencil marks are refused" $? 2
has "... as different inputs" "$tmp/err" 'different inputs'
# shellcheck disable=SC2086
"$bin" rate $r "$tmp/rin" > "$tmp/whole" 2> /dev/null
"$bin" merge "$tmp/whole" > /dev/null 2> "$tmp/err"
check "a rate output without --shard is refused" $? 2
"$bin" rate --shard 4/3 "$tmp/rin" > /dev/null 2>&1
check "rate --shard 4/3 is a usage error" $? 2

# ---- bench ----
b="--solvers mrv,dlx --warmup-ms 0 --pass-ms 0 --quiet $data/crosscheck.txt"
# shellcheck disable=SC2086
"$bin" bench $b --out "$tmp/single" 2> /dev/null
single=$?
for k in 1 2 3; do
    # shellcheck disable=SC2086
    "$bin" bench $b --out "$tmp/b$k" --shard $k/3 2> /dev/null
    check "bench shard $k/3 ends as the single run does" $? $single
done
"$bin" merge --quiet --out "$tmp/bm" "$tmp/b3" "$tmp/b1" "$tmp/b2" 2> "$tmp/err"
check "merge bench shards" $? 0
cut -d, -f1-11 "$tmp/single/runs.csv" > "$tmp/a"
cut -d, -f1-11 "$tmp/bm/runs.csv" > "$tmp/b"
same "merged runs.csv = the single run's, row for row but time_ns" "$tmp/a" "$tmp/b"
cut -d, -f1-13 "$tmp/single/summary.csv" > "$tmp/a"
cut -d, -f1-13 "$tmp/bm/summary.csv" > "$tmp/b"
same "merged summary: the same puzzles and statuses" "$tmp/a" "$tmp/b"
has "merged env.txt keeps each shard's facts" "$tmp/bm/env.txt" '^--- shard 2/3'
has "merged env.txt is complete" "$tmp/bm/env.txt" '^finished: complete'

"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b3" > /dev/null 2> "$tmp/err"
check "a missing bench shard is refused" $? 2
has "... and named" "$tmp/err" 'bench shard 2/3 is missing'
"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b2" "$tmp/b2" "$tmp/b3" > /dev/null 2> "$tmp/err"
check "a bench shard given twice is refused" $? 2
# shellcheck disable=SC2086
"$bin" bench $b --limit 1 --out "$tmp/b3limit" --shard 3/3 2> /dev/null
"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b2" "$tmp/b3limit" > /dev/null 2> "$tmp/err"
check "a bench shard with other options is refused" $? 2
has "... naming the option" "$tmp/err" "'limit=2' against 'limit=1'"
# shellcheck disable=SC2086
"$bin" bench $b --head 20 --out "$tmp/b3head" --shard 3/3 2> /dev/null
"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b2" "$tmp/b3head" > /dev/null 2> "$tmp/err"
check "a bench shard of a shorter run is refused" $? 2
mkdir -p "$tmp/b3dup"
cp "$tmp/b3/env.txt" "$tmp/b3/summary.csv" "$tmp/b3dup/"
cp "$tmp/b3/runs.csv" "$tmp/b3dup/runs.csv"
tail -n 1 "$tmp/b3/runs.csv" >> "$tmp/b3dup/runs.csv"
"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b2" "$tmp/b3dup" > /dev/null 2> "$tmp/err"
check "a duplicate bench row is refused" $? 2
has "... as a duplicate" "$tmp/err" 'duplicate rows'
cp "$tmp/b3/runs.csv" "$tmp/b3dup/runs.csv"
sed -n 2p "$tmp/b1/runs.csv" >> "$tmp/b3dup/runs.csv"
"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b2" "$tmp/b3dup" > /dev/null 2> "$tmp/err"
check "another shard's row is refused" $? 2
has "... as another shard's" "$tmp/err" 'belongs to another shard'
sed 's/^finished: complete/finished: interrupted/' "$tmp/b3/env.txt" > "$tmp/b3dup/env.txt"
cp "$tmp/b3/runs.csv" "$tmp/b3dup/runs.csv"
"$bin" merge --out "$tmp/x" "$tmp/b1" "$tmp/b2" "$tmp/b3dup" > /dev/null 2> "$tmp/err"
check "an interrupted bench shard is refused" $? 2
has "... as unfinished" "$tmp/err" 'did not finish'

tap_end
