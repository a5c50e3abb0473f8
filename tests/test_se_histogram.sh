#!/bin/sh
# scripts/se-histogram.sh on puzzles whose ratings are known: each lands in
# its ER band, a verdict is counted apart and never as a rating, --every
# samples, bad options are refused. Usage: test_se_histogram.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
script=$(dirname "$0")/../scripts/se-histogram.sh
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

singles=...7.5.61....24....9.3.......2..389.38..6751445719.23..34..1625..5..24....6.59183
dynamic=4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
several=.................................................................................
printf '# three puzzles\n%s\n\n%s\n%s\n' "$singles" "$dynamic" "$several" | xz > "$tmp/c.txt.xz"

SUDOLAB_BIN=$bin RATE_JOBS=1 sh "$script" --keep "$tmp/kept" "$tmp/c.txt.xz" > "$tmp/out"
check "a corpus is rated" $? 0
has "every puzzle in its band: singles below 9.0, the dynamic chain at 9.0, the empty grid a verdict" \
    "$tmp/out" '^| c\.txt | 3 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | multiple-solutions 1 |$'
[ "$(grep -vc '^#' "$tmp/kept/c.txt.csv")" -eq 4 ]
ok "--keep writes the header and a row per puzzle" $?

# an interrupted run: the kept CSV cut after its first row and into its
# second; --resume rates the rest, to the same table and the same file
cp "$tmp/kept/c.txt.csv" "$tmp/whole.csv"
{ head -n 3 "$tmp/whole.csv"; sed -n 4p "$tmp/whole.csv" | head -c 5; } > "$tmp/kept/c.txt.csv"
SUDOLAB_BIN=$bin RATE_JOBS=1 sh "$script" --keep "$tmp/kept" --resume "$tmp/c.txt.xz" \
    > "$tmp/resumed" 2> "$tmp/err"
check "--resume continues a kept CSV" $? 0
same "--resume: the table of a whole run" "$tmp/out" "$tmp/resumed"
same "--resume: the CSV of a whole run" "$tmp/whole.csv" "$tmp/kept/c.txt.csv"
has "--resume: the kept row said" "$tmp/err" '1 rows kept (entries up to 1)'
SUDOLAB_BIN=$bin sh "$script" --resume "$tmp/c.txt.xz" > /dev/null 2> "$tmp/err"
check "--resume without --keep is refused" $? 2

SUDOLAB_BIN=$bin RATE_JOBS=1 sh "$script" --every 2 "$tmp/c.txt.xz" > "$tmp/every"
has "--every 2 rates the first and the third puzzle" "$tmp/every" \
    '^| c\.txt | 2 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | multiple-solutions 1 |$'

SUDOLAB_BIN=$bin sh "$script" --every 0 "$tmp/c.txt.xz" > /dev/null 2> "$tmp/err"
check "--every 0 is refused" $? 2
SUDOLAB_BIN=$bin sh "$script" "$tmp/missing.txt" > /dev/null 2> "$tmp/err"
check "a missing file is refused" $? 2
has "and named" "$tmp/err" 'missing.txt: no such file'
tap_end
