#!/bin/sh
# count --grids end to end: the totals agree with count's plain enumeration,
# -j and --shard (merged) print the single run's rows, --estimate plans, and
# what --grids cannot count is refused. Usage: test_grids.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

untimed() { # the rows without the time line
    grep -v '^# time' "$1"
}

for shape in 2x2 2x3 3x2; do
    "$bin" count --empty "$shape" --grids > "$tmp/g"
    check "count --grids --empty $shape" $? 0
    "$bin" count --empty "$shape" > "$tmp/e"
    plain=$(cut -d' ' -f2 "$tmp/e")
    has "$shape: the total is plain enumeration's $plain" "$tmp/g" "^grids $plain\$"
done

# Every row's factors multiply out, and the rows add up to the totals.
"$bin" count --empty 2x4 --grids > "$tmp/8"
awk '$1 ~ /^[0-9]+$/ { if ($2 * $3 * $4 != $5) bad++; b += $5 }
     $1 == "bands" { if ($2 != b) bad++ } END { exit bad > 0 }' "$tmp/8"
ok "8x8: bands = orbit * labels * orders, summed" $?
has "8x8: the published total" "$tmp/8" '^grids 29136487207403520$'

"$bin" count --empty 2x4 --grids -j 2 > "$tmp/j"
untimed "$tmp/8" > "$tmp/a"
untimed "$tmp/j" > "$tmp/b"
same "-j 2 prints the same rows" "$tmp/a" "$tmp/b"

for k in 1 2 3; do
    "$bin" count --empty 2x4 --grids --shard $k/3 > "$tmp/s$k"
    check "shard $k/3" $? 0
done
"$bin" merge "$tmp/s2" "$tmp/s3" "$tmp/s1" > "$tmp/m"
check "merge the shards" $? 0
grep -v '^# time' "$tmp/m" > "$tmp/b"
same "merged shards = the single run" "$tmp/a" "$tmp/b"
"$bin" merge "$tmp/s1" "$tmp/s2" > "$tmp/m" 2> "$tmp/err"
check "merge refuses a missing shard" $? 2
has "... and says which" "$tmp/err" 'shard 3/3 missing'
"$bin" merge "$tmp/s1" "$tmp/s1" "$tmp/s2" > "$tmp/m" 2> "$tmp/err"
check "merge refuses a shard given twice" $? 2
sed 's/^\(  1 *[0-9]* *[0-9]* *\)[0-9]/\19/' "$tmp/s1" > "$tmp/bad"
"$bin" merge "$tmp/bad" "$tmp/s2" "$tmp/s3" > "$tmp/m" 2> "$tmp/err"
check "merge refuses a row whose factors do not multiply out" $? 2
has "... and says so" "$tmp/err" "do not follow from the row's factors"
# a header past any real plan (2e9 classes; shards past SHARD_MAX) is no
# partial: merge says so before it allocates for it (fuzz_partials found a
# header that made it ask for 3.5 GB; these are kept as its regression seeds)
for f in regression-classes-2e9 regression-shards-past-max; do
    "$bin" merge "$(dirname "$0")/fuzz/partials/$f.txt" > "$tmp/m" 2> "$tmp/err"
    check "merge refuses $f" $? 2
    has "... as no partial" "$tmp/err" "$f.txt:1: not a count --grids partial"
done

"$bin" count --empty 3x3 --grids --estimate > "$tmp/est"
check "--estimate" $? 0
has "--estimate: the plan" "$tmp/est" '^plan: the orders of all 44 classes'
has "--estimate: a time" "$tmp/est" '^estimate: .* s on 1 thread'
"$bin" count --empty 2x4 --grids --estimate -j 2 > "$tmp/est"
check "--estimate, two bands" $? 0
has "--estimate, two bands: the search nodes" "$tmp/est" '^sample: .* search nodes'
has "--estimate, two bands: a rate and a time" "$tmp/est" '^estimate: .* s on 2 threads'

"$bin" count --empty 2x2 --grids --essential > "$tmp/ess"
check "--essential" $? 0
has "4x4: 2 essentially different grids" "$tmp/ess" '^essentially-different 2$'
"$bin" count --empty 2x3 --grids --essential -j 2 > "$tmp/ess"
check "--essential, 6x6" $? 0
has "6x6: 49 essentially different grids" "$tmp/ess" '^essentially-different 49$'
has "6x6: the identity's class fixes every grid" "$tmp/ess" '^class 1 1 28200960 rows 1, cols 1$'
awk '$1 == "class" { s += $3 * $4 } $1 == "fixed" { f = $2 } END { exit s != f }' "$tmp/ess"
ok "6x6: fixed is the sum of size * fixed over the rows" $?
"$bin" count --empty 4x4 --grids --essential > /dev/null 2> "$tmp/err"
check "--essential on 16x16 is refused" $? 2

"$bin" count --empty 4x4 --grids > /dev/null 2> "$tmp/err"
check "16x16 is refused" $? 2
has "... saying which shapes it counts" "$tmp/err" '2x2, 2x3, 2x4, 2x5 and 3x3'
for shape in 3x4 2x6; do
    "$bin" count --empty "$shape" --grids > /dev/null 2> "$tmp/err"
    check "12x12 ($shape) is refused without a phase of the walk" $? 2
    has "12x12 ($shape): the refusal names --estimate" "$tmp/err" '--estimate prints the plan'
    has "12x12 ($shape): ... and the shards that count it" "$tmp/err" 'by the profile walk in shards: --orders --shard K/N'
done
for shape in 2x2 2x3 3x2; do
    "$bin" count --variant diagonal --empty "$shape" --grids > "$tmp/g"
    check "count --grids --variant diagonal --empty $shape" $? 0
    "$bin" count --variant diagonal --empty "$shape" > "$tmp/e"
    plain=$(cut -d' ' -f2 "$tmp/e")
    has "diagonal $shape: the total is plain enumeration's $plain" "$tmp/g" "^grids $plain\$"
done
"$bin" count --variant diagonal --empty 3x3 --grids --estimate > "$tmp/g"
check "count --grids --variant diagonal --empty 3x3 --estimate" $? 0
has "... with 56 * 6^6 first bands" "$tmp/g" '^first-bands 2612736$'
has "... and an estimate" "$tmp/g" '^estimate: '
"$bin" count --variant diagonal --empty 2x4 --grids > /dev/null 2> "$tmp/err"
check "diagonal 8x8 is refused" $? 2
has "... saying which shapes" "$tmp/err" 'counted for 2x2, 2x3 and 3x3'
"$bin" count --variant diagonal --empty 2x3 --grids --shard 1/2 > /dev/null 2> "$tmp/err"
check "diagonal with --shard is refused" $? 2
"$bin" count --grids 1234............ > /dev/null 2> "$tmp/err"
check "a puzzle operand is refused" $? 2
"$bin" count --empty 2x2 --empty 2x3 --grids --shard 1/2 > /dev/null 2> "$tmp/err"
check "--shard with two shapes is refused" $? 2
"$bin" count --empty 2x2 --grids --csv > /dev/null 2> "$tmp/err"
check "--csv is refused" $? 2
"$bin" count --empty 2x2 --estimate > /dev/null 2> "$tmp/err"
check "--estimate without --grids is refused" $? 2

tap_end
