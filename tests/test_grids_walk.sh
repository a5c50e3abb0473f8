#!/bin/sh
# count --grids by the profile walk in shards of ranks (scaleout/grid_walk.h),
# the way 12x12 is counted, on shapes whose totals are known: 6x6 and 8x8 by
# the orders phase alone, 9x9 by both phases in 5 shards (one of them cut
# short by its step budget and resumed), against the single run; bad partials
# refused with file:line; and shards of 3x4 and 2x6 run under a step budget.
# Usage: test_grids_walk.sh SUDOLAB. GRIDS_WALK_FULL=0 (the sanitized build)
# leaves out 9x9's completions of every class (about 9 s of CPU optimized)
# and checks the budget's pieces against one class instead.
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
full=${GRIDS_WALK_FULL:-1}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

# Two bands: the orders phase gives the total.
"$bin" count --empty 2x3 --grids --orders > "$tmp/o6"
check "6x6: the orders phase, one shard" $? 0
"$bin" merge "$tmp/o6" > "$tmp/m6"
check "6x6: merged" $? 0
has "6x6: the total of enumeration" "$tmp/m6" '^grids 28200960$'
for k in 1 2 3; do
    "$bin" count --empty 2x4 --grids --orders --shard $k/3 > "$tmp/o8-$k"
    check "8x8: orders, shard $k/3" $? 0
done
"$bin" merge "$tmp/o8-3" "$tmp/o8-1" "$tmp/o8-2" > "$tmp/m8"
check "8x8: the shards merged" $? 0
has "8x8: the published total" "$tmp/m8" '^grids 29136487207403520$'
has "8x8: the classes Burnside counts, every rank once" "$tmp/m8" \
    '^# end done=0-1450 classes=26 '

# Three bands: phase 1 in 5 shards, merged into the orders table.
for k in 1 2 3 4 5; do
    "$bin" count --empty 3x3 --grids --orders --shard $k/5 > "$tmp/o9-$k"
done
"$bin" merge "$tmp"/o9-* > "$tmp/table"
check "9x9: the orders table merged from 5 shards" $? 0
has "9x9: 44 classes" "$tmp/table" '^# end done=0-22620 classes=44 '
has "9x9: the first bands, 9! * 56 * 6^6" "$tmp/table" '^bands 948109639680$'
ls "$tmp"/o9-* | "$bin" merge --list - > "$tmp/table2"
same "9x9: the table merged from names read by --list" "$tmp/table" "$tmp/table2"
"$bin" count --empty 3x3 --grids --orders > "$tmp/o9"
"$bin" merge "$tmp/o9" > "$tmp/table1"
same "9x9: the table from one shard is the same" "$tmp/table" "$tmp/table1"

# Phase 2, in shards of equal work (every class's middle-band choices in rank
# order, so shards begin inside classes): shard 3/5 cut short by its budget
# and resumed from its end line.
"$bin" count --empty 3x3 --grids --orders-table "$tmp/table" --shard 3/5 \
    --budget-steps 200000 > "$tmp/c9-3a"
check "9x9 completions: shard 3/5 under a budget of 200,000 choices" $? 0
has "... ends cut short, saying where to resume" "$tmp/c9-3a" \
    '^# end done=[0-9:]*-[0-9]*:[0-9]* classes=[0-9]* steps=200000 cut-short: .* resume with --ranks [0-9]*:[0-9]*-[0-9]*:[0-9]*$'
resume=$(sed -n 's/.*resume with --ranks \([0-9:]*-[0-9:]*\)$/\1/p' "$tmp/c9-3a")
if [ "$full" = 1 ]; then
    "$bin" count --empty 3x3 --grids --orders-table "$tmp/table" --ranks "$resume" \
        > "$tmp/c9-3b"
    check "... and resumed with --ranks $resume" $? 0
    for k in 1 2 4 5; do
        "$bin" count --empty 3x3 --grids --orders-table "$tmp/table" --shard $k/5 \
            > "$tmp/c9-$k"
        check "9x9 completions: shard $k/5" $? 0
    done
    "$bin" merge "$tmp"/c9-* > "$tmp/total"
    check "9x9: the completions merged (a cut-short shard and its resumption)" $? 0
    has "9x9: the published total" "$tmp/total" '^grids 6670903752021072936960$'
    "$bin" count --empty 3x3 --grids > "$tmp/whole"
    has "9x9: the single run's total is the same" "$tmp/whole" \
        '^grids 6670903752021072936960$'
    awk 'NR == FNR && $1 ~ /^[0-9]+$/ && NF == 8 { c[$6]++ }
         NR != FNR && $1 ~ /^[0-9]+$/ && NF == 5 { w[$5]++ }
         END { for (k in c) if (c[k] != w[k]) bad++; for (k in w) if (c[k] != w[k]) bad++
               exit bad > 0 }' "$tmp/whole" "$tmp/total"
    ok "9x9: every class's completions are the single run's" $?
else
    # the cut-short class alone: its two pieces add up to one whole run of it
    rank=${resume%%:*}
    stop=${resume#*:}
    stop=${stop%%-*}
    "$bin" count --empty 3x3 --grids --orders-table "$tmp/table" \
        --ranks "$rank:$stop-$((rank + 1))" > "$tmp/piece"
    check "the rest of class $rank from choice $stop" $? 0
    from=$(awk -v r="$rank" '$1 == r && NF == 7 { print $5 }' "$tmp/c9-3a")
    "$bin" count --empty 3x3 --grids --orders-table "$tmp/table" \
        --ranks "$rank:$from-$((rank + 1))" > "$tmp/whole-class"
    a=$(awk -v r="$rank" '$1 == r && NF == 7 { print $7 }' "$tmp/c9-3a")
    b=$(awk -v r="$rank" '$1 == r && NF == 7 { print $7 }' "$tmp/piece")
    w=$(awk -v r="$rank" '$1 == r && NF == 7 { print $7 }' "$tmp/whole-class")
    [ -n "$a" ] && [ -n "$b" ] && [ "$((a + b))" = "$w" ]
    ok "class $rank: the pieces' sums add up to the whole class's ($a + $b = $w)" $?
fi

# Bad partials: refused with file:line and exit status 2.
refused() { # name file-line-pattern files...
    what=$1
    pattern=$2
    shift 2
    "$bin" merge "$@" > /dev/null 2> "$tmp/err"
    check "merge refuses $what" $? 2
    has "... naming file and line" "$tmp/err" "$pattern"
}
refused "a missing shard" "o9-2:[0-9]*: ranks 9048-13572 are in no partial" \
    "$tmp/o9-1" "$tmp/o9-2" "$tmp/o9-4" "$tmp/o9-5"
refused "a shard given twice" "o9-2:1: ranks 4524-9048 were done by .*o9-2 too" \
    "$tmp"/o9-* "$tmp/o9-2"
head -n 2 "$tmp/o9-2" > "$tmp/cut"
refused "a partial without its end line (interrupted)" "cut:3: no end line" \
    "$tmp/o9-1" "$tmp/cut" "$tmp/o9-3" "$tmp/o9-4" "$tmp/o9-5"
head -c 200 "$tmp/o9-2" > "$tmp/mid"
refused "a partial cut mid-line" "mid:3: cut off mid-line" \
    "$tmp/o9-1" "$tmp/mid" "$tmp/o9-3" "$tmp/o9-4" "$tmp/o9-5"
refused "a partial of another shape" "o8-1:1: not the plan of 3x3 boxes" \
    "$tmp"/o9-* "$tmp/o8-1"
refused "a partial of the other phase" "c9-3a:1: phase completions, but .* is of phase orders" \
    "$tmp"/o9-* "$tmp/c9-3a"
refused "a cut-short partial not resumed" "c9-3a:[0-9]*: ranks .* are in no partial" \
    "$tmp/c9-3a"
sed 's/^\([0-9]*\) [0-9]* /\1 7 /' "$tmp/o9-2" > "$tmp/orbit"
refused "a row whose orbit does not follow from its profile" \
    "orbit:3: the orbit or labels do not follow" \
    "$tmp/o9-1" "$tmp/orbit" "$tmp/o9-3" "$tmp/o9-4" "$tmp/o9-5"
"$bin" count --empty 3x3 --grids --orders-table "$tmp/o9-2" --shard 1/5 \
    > /dev/null 2> "$tmp/err"
check "phase 2 refuses a table that is one shard's" $? 2
has "... saying what a table is" "$tmp/err" 'not the merged orders of every class'

# 12x12: one shard of each shape under a step budget, a valid partial.
"$bin" count --empty 3x4 --grids --orders --shard 1/1000000 --budget-steps 100000 \
    > "$tmp/t34"
check "3x4: orders, shard 1/1000000 under 100,000 nodes" $? 0
has "3x4: the plan" "$tmp/t34" \
    'box=3x4 counted=4x3 profiles=4310964558 classes=144578 group=31104 choices=14331920656 ranks=0-4310'
has "3x4: cut short in its first class, saying where to resume" "$tmp/t34" \
    '^# end done=0-0 classes=0 steps=100000 cut-short: .* resume with --ranks 0-4310$'
"$bin" count --empty 3x4 --grids --orders --ranks 1458-1459 --budget-steps 100000000 \
    > "$tmp/t34b"
check "3x4: the class at rank 1458 under 100,000,000 nodes" $? 0
has "3x4: ... its row: orbit 31104 / 4, labels 12! / 3!^3" "$tmp/t34b" \
    '^1458 7776 2217600 [1-9][0-9]* 0*130*10300*3001'
has "3x4: ... finished within the budget" "$tmp/t34b" \
    '^# end done=1458-1459 classes=1 steps=[0-9]*$'
"$bin" count --empty 2x6 --grids --orders --shard 5/1000000 --budget-steps 100000 \
    > "$tmp/t26"
check "2x6: orders, shard 5/1000000 under 100,000 nodes" $? 0
has "2x6: the plan" "$tmp/t26" \
    'box=2x6 counted=6x2 profiles=2284361552 classes=63199 group=46080 choices=0 ranks=9137-11421'
has "2x6: cut short, saying where to resume" "$tmp/t26" \
    '^# end done=9137-[0-9]* classes=[0-9]* steps=100000 cut-short: .* resume with --ranks [0-9]*-11421$'
"$bin" merge "$tmp/t26" > /dev/null 2> "$tmp/err"
check "2x6: one cut-short shard does not merge into a total" $? 2
for shape in 3x4 2x6; do
    "$bin" count --empty "$shape" --grids > /dev/null 2> "$tmp/err"
    check "12x12 ($shape) without a phase is refused" $? 2
    has "... naming the phase to run" "$tmp/err" '--orders --shard K/N'
done
"$bin" count --empty 2x6 --grids --orders-table "$tmp/table" > /dev/null 2> "$tmp/err"
check "2x6 has no completions phase" $? 2
"$bin" count --empty 3x3 --grids --orders --ranks 5:3-9 > /dev/null 2> "$tmp/err"
check "--ranks RANK:CHOICE is for phase 2" $? 2
"$bin" count --variant diagonal --empty 2x3 --grids --orders > /dev/null 2> "$tmp/err"
check "--orders on the diagonal variant is refused" $? 2
"$bin" count --empty 3x3 --grids --orders --ranks 5-9 --shard 1/2 > /dev/null 2> "$tmp/err"
check "--ranks with --shard is refused" $? 2

tap_end
