#!/bin/sh
# sudolab levels end to end: rows in input order whatever -j, bad input as
# `file:line: reason` with the run going on, budgets that give limit, and
# the levels a known puzzle reaches. Usage: test_levels.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
datasets=${SUDOLAB_DATASETS:-datasets/public}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

column() { # column NAME FILE: the values of one CSV column, header row included
    awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
        { print $c }' "$2"
}

singles=...7.5.61....24....9.3.......2..389.38..6751445719.23..34..1625..5..24....6.59183
pointing=4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
clash=11..............................................................................
printf '%s\nnot a puzzle\n%s\n%s\n' "$singles" "$clash" "$pointing" > "$tmp/mixed.txt"
"$bin" levels "$tmp/mixed.txt" > "$tmp/out" 2> "$tmp/err"
check "bad entries: exit status 1" $? 1
has "the unparsable line is named by file and line" "$tmp/err" 'mixed.txt:2: '
has "the clashing clues are named by file and line" "$tmp/err" 'mixed.txt:3: '
[ "$(wc -l < "$tmp/out")" -eq 3 ]
ok "the header and the two good puzzles' rows" $?
has "singles: human level singles, unit propagation on the minimal CNF" "$tmp/out" \
    '^mixed.txt,1,singles,[a-z]*,up_min,yes,'
has "pointing: intersections, failed literals on the extended CNF" "$tmp/out" \
    '^mixed.txt,4,intersections,[a-z]*,fl_ext,no,yes,'
column up_ext "$tmp/out" > "$tmp/up_ext"
printf 'up_ext\nyes\nno\n' > "$tmp/want"
same "up_ext: yes for singles, no for pointing" "$tmp/up_ext" "$tmp/want"

"$bin" levels --budget-steps 3 "$singles" > "$tmp/limit"
check "a budget that runs out is no failure" $? 0
column sat "$tmp/limit" > "$tmp/sat"
printf 'sat\nlimit\n' > "$tmp/want"
same "--budget-steps 3: the sat family says limit" "$tmp/sat" "$tmp/want"
column up_min "$tmp/limit" > "$tmp/up_min"
printf 'up_min\nlimit\n' > "$tmp/want"
same "--budget-steps 3: so does up_min" "$tmp/up_min" "$tmp/want"
column cp "$tmp/limit" > "$tmp/cp"
printf 'cp\nlimit\n' > "$tmp/want"
same "--budget-steps 3: and the cp family" "$tmp/cp" "$tmp/want"

"$bin" levels --empty 2x2 > "$tmp/empty"
has "the empty 4x4 grid (288 solutions): no level solves it" "$tmp/empty" \
    '^<empty>,1,none,none,none,'

"$bin" levels --budget-steps lots "$singles" > /dev/null 2> "$tmp/err"
check "a budget that is no number: usage" $? 2

top95=$datasets/norvig_top95.xz
if [ -f "$top95" ]; then
    # no deadline on SE's levels (--budget-ms 0): the rows cannot depend on the load
    "$bin" levels --budget-ms 0 "$top95" > "$tmp/j1"
    check "top95 with one thread" $? 0
    "$bin" levels --budget-ms 0 -j 2 "$top95" > "$tmp/j2"
    same "top95: -j 2 gives the rows of -j 1" "$tmp/j1" "$tmp/j2"
    [ "$(wc -l < "$tmp/j1")" -eq 96 ]
    ok "top95: 95 rows" $?
    # README's levels table, its top95 row: the shares scripts/levels.sh prints
    root=$(cd "$(dirname "$0")/.." && pwd)
    awk -f "$root/scripts/levels-shares.awk" -v md=summary "$tmp/j1" |
        grep '^| norvig_top95.xz |' > "$tmp/got"
    grep '^| norvig_top95.xz |' "$root/README.md" > "$tmp/want"
    same "top95: README's row of the levels table" "$tmp/want" "$tmp/got"
else
    skip "top95 with threads" "$top95 not found"
fi
tap_end
