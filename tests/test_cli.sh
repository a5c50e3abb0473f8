#!/bin/sh
# End-to-end checks of the sudolab program: outputs, exit statuses and the
# `file:line: reason` diagnostics for bad input. Usage: test_cli.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
data=${SUDOLAB_TEST_DATA:-tests/data}
public=${SUDOLAB_DATASETS:-datasets/public}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

royle='.2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.'

"$bin" list > "$tmp/list"; check "list runs" $? 0
has "list names naive" "$tmp/list" '^naive '

"$bin" count --solver naive --empty 2x2 > "$tmp/out"; check "count empty 4x4" $? 0
has "empty 4x4 has 288 solutions" "$tmp/out" '^1 288 multiple'

"$bin" count --solver naive_stack 1....2....3....4 > "$tmp/out"; check "count diag(1:4)" $? 0
has "diag(1:4) has 2 solutions" "$tmp/out" '^1 2 multiple'

"$bin" count --solver naive --print 1....2....3....4 > "$tmp/out"; check "count --print" $? 0
has "prints the first solution" "$tmp/out" '^1423324141322314$'
has "prints the second solution" "$tmp/out" '^1342421324313124$'

"$bin" solve --solver naive --budget-ms 0 "$royle" > "$tmp/out"; check "solve Royle" $? 0
has "Royle's puzzle is unique" "$tmp/out" \
    '^1 unique solutions=1 .* 925631847618574293374982561749826135852413976163795482287359614491267358536148729$'

printf '%s\n' "$royle" | "$bin" solve --solver naive --budget-ms 0 --limit 1 --csv > "$tmp/out"
check "solve from stdin" $? 0
has "csv header" "$tmp/out" '^index,status,solutions,steps,guesses,backtracks,nodes,article_steps,time_ns,name,solution$'
has "first-solution mode says solved" "$tmp/out" '^1,solved,1,[0-9]*,[0-9]*,[0-9]*,[0-9]*,,[0-9]*,,9256'

"$bin" solve --solver naive --pretty 1234341221434.2. > "$tmp/out"; check "solve --pretty" $? 0
has "pretty grid" "$tmp/out" '^| 4 3 | 2 1 |$'

# Bad input: the message names file, line and reason; the run goes on; the
# exit status says something was skipped.
{
    echo "# a corpus with faults"
    echo "$royle"
    echo "${royle}9"
    echo "1234341221434.2Z"
    echo "11.............."
    echo "1....2....3....4"
} > "$tmp/bad.txt"
"$bin" solve --solver naive "$tmp/bad.txt" > "$tmp/out" 2> "$tmp/err"
check "bad entries give exit status 1" $? 1
has "too long line named" "$tmp/err" "bad.txt:3: 82 symbols is no grid size"
has "bad symbol named" "$tmp/err" "bad.txt:4: symbol 'Z' at column 16 is not a 4x4 value"
has "broken rule named" "$tmp/err" "bad.txt:5: clue 1 appears twice in row 1"
has "run goes on after bad entries" "$tmp/out" '^5 multiple solutions=2'
has "bad entries still get a row" "$tmp/out" '^2 invalid solutions=0'
"$bin" solve --solver naive --budget-ms 0 --head 2 "$tmp/bad.txt" "$data/crosscheck.txt" > "$tmp/out" \
    2> "$tmp/err"
[ "$(wc -l < "$tmp/out")" -eq 4 ] && ! grep -q 'bad.txt:4' "$tmp/err"
ok "solve --head 2: two entries of each file, the rest not read" $? "$(cat "$tmp/out" "$tmp/err")"

: > "$tmp/empty.txt"
"$bin" solve --solver naive "$tmp/empty.txt" > "$tmp/out" 2> "$tmp/err"
check "empty file" $? 1
has "empty file named" "$tmp/err" "empty.txt:0: no puzzles in this input (empty)"

"$bin" solve --solver naive "$tmp/does-not-exist.txt" > "$tmp/out" 2> "$tmp/err"
check "missing file" $? 1
has "missing file named" "$tmp/err" "does-not-exist.txt: No such file or directory"

printf '1 0 0 0\n0 2 0 0\n0 0 3 0\n0 0 0 4\n' > "$tmp/grid.txt"
"$bin" count --solver naive "$tmp/grid.txt" > "$tmp/out"; check "whitespace grid" $? 0
has "whitespace grid counted" "$tmp/out" '^1 2 multiple'

"$bin" solve --solver naive --variant diagonal --limit 0 "$data/crosscheck_diagonal.txt" \
    > "$tmp/out" 2> "$tmp/err"
check "diagonal corpus (one invalid entry)" $? 1
has "diagonal clash reported" "$tmp/err" "clue 1 appears twice in main diagonal"

# sudolab generate's header makes a file diagonal for solve too: 1s at r1c1
# and r4c4 share only the main diagonal; --variant standard overrides it.
printf '# sudolab generate size=3x3 variant=diagonal\n' > "$tmp/diag.txt"
printf '1%29s1%50s\n' '' '' | tr ' ' '.' >> "$tmp/diag.txt"
"$bin" solve --solver mrv "$tmp/diag.txt" > "$tmp/out" 2> "$tmp/err"
check "a diagonal header: the clues break a rule" $? 1
has "named by the header's variant" "$tmp/err" "appears twice in main diagonal"
"$bin" solve --solver mrv --variant standard "$tmp/diag.txt" > "$tmp/out" 2> "$tmp/err"
check "--variant standard overrides the header" $? 0

"$bin" solve --solver naive --budget-steps 100000 \
    .................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7... \
    > "$tmp/out"
check "budget is no failure" $? 0
has "budget gives status limit" "$tmp/out" '^1 limit solutions=0 steps=100000 '

"$bin" solve --solver nosuch "$royle" > "$tmp/out" 2> "$tmp/err"
check "unknown solver is a usage error" $? 2
"$bin" solve --size 8x7 "$royle" > "$tmp/out" 2> "$tmp/err"
check "impossible size is a usage error" $? 2
"$bin" frobnicate > "$tmp/out" 2> "$tmp/err"
check "unknown command" $? 2
# a 36x36 grid: past the default back end's sizes, which the user never named
"$bin" solve --limit 1 --budget-ms 0 --empty 6x6 > "$tmp/out" 2> "$tmp/err"
check "the default back end refuses 36x36" $? 1
has "... and says it was the default and how to name another" "$tmp/err" \
    'does not handle 36x36 grids .*; it is the default: name one that does with --solver'
"$bin" solve --solver mrv --limit 1 --budget-ms 0 --empty 6x6 > "$tmp/out" 2> "$tmp/err"
check "mrv named refuses 36x36" $? 1
[ "$(grep -c 'it is the default' "$tmp/err")" -eq 0 ]
ok "... without calling itself the default" $? "$(cat "$tmp/err")"
"$bin" solve --solver naive < /dev/null > "$tmp/out" 2> "$tmp/err"
check "closed/empty stdin" $? 1
has "empty stdin named" "$tmp/err" "<stdin>:0: no puzzles"

# Compressed corpora: read as their text whatever the name (the content
# decides), from a file or standard input; a damaged archive is an error
# after the rows of the puzzles before the damage. The rows compared leave
# out time_ns (column 9).
rows() { # rows CSV-FILE: the rows without their times
    cut -d, -f1-8,10 "$1"
}
top95=$public/norvig_top95.xz
if command -v xz > /dev/null 2>&1 && [ -f "$top95" ]; then
    xz -dc "$top95" > "$tmp/top95.txt"
    "$bin" solve --solver mrv --csv "$tmp/top95.txt" > "$tmp/plain.csv"
    check "solve the unpacked top95" $? 0
    rows "$tmp/plain.csv" > "$tmp/plain.rows"
    has "95 rows" "$tmp/plain.rows" '^95,unique,1,'
    "$bin" solve --solver mrv --csv "$top95" > "$tmp/out.csv"
    check "solve norvig_top95.xz" $? 0
    rows "$tmp/out.csv" > "$tmp/out.rows"
    same "the .xz gives the rows of the text" "$tmp/plain.rows" "$tmp/out.rows"
    "$bin" solve --solver mrv --csv < "$top95" > "$tmp/out.csv"
    check "xz on standard input" $? 0
    rows "$tmp/out.csv" > "$tmp/out.rows"
    same "standard input: the same rows" "$tmp/plain.rows" "$tmp/out.rows"
    gzip -9 -n -c "$tmp/top95.txt" > "$tmp/top95.dat"
    "$bin" solve --solver mrv --csv "$tmp/top95.dat" > "$tmp/out.csv"
    check "gzip data in a file named .dat" $? 0
    rows "$tmp/out.csv" > "$tmp/out.rows"
    same "gzip: the same rows" "$tmp/plain.rows" "$tmp/out.rows"
    cp "$tmp/top95.txt" "$tmp/plain.xz"
    "$bin" solve --solver mrv --csv "$tmp/plain.xz" > "$tmp/out.csv"
    check "plain text named .xz" $? 0
    rows "$tmp/out.csv" > "$tmp/out.rows"
    same "plain .xz: the same rows" "$tmp/plain.rows" "$tmp/out.rows"

    (cd "$public" && for f in *.xz; do
        xz -dc "$f" | sha256sum | sed "s/ -\$/ ${f%.xz}/"
    done) > "$tmp/sums"
    same "the shipped corpora unpack to the texts of SHA256SUMS" \
        "$public/SHA256SUMS" "$tmp/sums"

    head -c 1000 "$top95" > "$tmp/cut.xz"
    "$bin" solve --solver mrv --csv "$tmp/cut.xz" > "$tmp/out.csv" 2> "$tmp/err"
    check "a truncated archive exits 1" $? 1
    has "truncated archive named" "$tmp/err" \
        'cut.xz:[0-9]*: truncated xz archive: the compressed data ends early'
    rows "$tmp/out.csv" > "$tmp/out.rows"
    kept=$(($(wc -l < "$tmp/out.rows") - 1))
    head -n $((kept + 1)) "$tmp/plain.rows" > "$tmp/head.rows"
    same "rows before the damage are printed ($kept)" "$tmp/head.rows" "$tmp/out.rows"
    check "some rows came before the damage" "$([ "$kept" -gt 10 ] && [ "$kept" -lt 95 ]; echo $?)" 0
    has "the damage is at the line after them" "$tmp/err" "cut.xz:$((kept + 1)): truncated"

    head -c 3 "$top95" > "$tmp/tiny.xz"
    "$bin" solve --solver mrv "$tmp/tiny.xz" > "$tmp/out" 2> "$tmp/err"
    check "an archive cut in its header exits 1" $? 1
    has "cut in its header: named at line 1" "$tmp/err" 'tiny.xz:1: truncated xz archive'
    check "one message, no second 'no puzzles'" "$(wc -l < "$tmp/err")" 1

    cp "$top95" "$tmp/bad.xz"
    printf 'CORRUPTCORRUPT!!' | dd of="$tmp/bad.xz" bs=1 seek=1200 conv=notrunc 2> /dev/null
    "$bin" solve --solver mrv --csv "$tmp/bad.xz" > "$tmp/out.csv" 2> "$tmp/err"
    check "a corrupt archive exits 1" $? 1
    has "corrupt archive named" "$tmp/err" 'bad.xz:[0-9]*: corrupt xz archive'
else
    n=$((n + 1))
    echo "ok $n # SKIP no xz program or no $top95: compressed corpora not tested"
fi

# sudolab rate --method se and sudolab hint: SE's ratings and next step
easter='.68451..2..9.....55.43..7.8..289..7.9..673..467...4.83143968.57..614........3..16'
"$bin" rate --method se --no-puzzle "$easter" > "$tmp/out"; check "rate --method se" $? 0
has "SE rating as serate" "$tmp/out" '^1 se=1.2/1.0/1.0 se_technique=Hidden_Single$'
"$bin" rate --method se --csv "$easter" > "$tmp/out"; check "rate --method se --csv" $? 0
has "SE CSV columns" "$tmp/out" '^index,se_er,se_ep,se_ed,se_technique,puzzle$'
has "rate --csv: its first line records the rater's version and options" "$tmp/out" \
    "^# sudolab rate version=[0-9.]* revision=[^ ]* methods=se budget_steps=0 budget_ms=60000$"
[ "$(sed -n 2p "$tmp/out" | cut -d, -f1)" = index ]
ok "rate --csv: the header comes next" $?
"$bin" rate --method se --no-puzzle '.................................................................................' > "$tmp/out"
check "rate --method se, many solutions" $? 0
has "SE verdict for many solutions" "$tmp/out" '^1 se=multiple-solutions$'
# --method hodoku: HoDoKu's score and level over SE's path (tests/test_hodoku.c
# replays that path and checks the table against HoDoKu's own ratings); SE's verdicts
"$bin" rate --method hodoku --no-puzzle "$easter" > "$tmp/out"; check "rate --method hodoku" $? 0
has "HoDoKu: 20 full houses and 20 hidden singles, easy" "$tmp/out" \
    '^1 hodoku_score=360 hodoku_level=easy hodoku_technique=Hidden_Single$'
"$bin" rate --method se,hodoku --csv "$easter" > "$tmp/out"; check "rate --method se,hodoku --csv" $? 0
has "HoDoKu CSV columns after SE's" "$tmp/out" \
    '^index,se_er,se_ep,se_ed,se_technique,hodoku_score,hodoku_level,hodoku_technique,puzzle$'
has "HoDoKu CSV row" "$tmp/out" '^1,1.2,1.0,1.0,Hidden_Single,360,easy,Hidden_Single,\.68451'
"$bin" rate --method hodoku --no-puzzle '12345678.........9...............................................................' \
    '.................................................................................' > "$tmp/out"
check "rate --method hodoku, no solution and many" $? 0
has "HoDoKu: SE's verdict for no solution" "$tmp/out" '^1 hodoku=no-solution$'
has "HoDoKu: SE's verdict for many solutions" "$tmp/out" '^2 hodoku=multiple-solutions$'
"$bin" hint "$easter" > "$tmp/out"; check "hint" $? 0
has "hint names the step" "$tmp/out" '^1 Last value (1.0) places r7c7=2$'
"$bin" hint --json "$easter" > "$tmp/out"; check "hint --json" $? 0
has "hint JSON" "$tmp/out" '^{"index":1,"hint":{"technique":"Last value","rating":1.0,'
has "hint JSON: each object closes with the rater's version and revision" "$tmp/out" \
    ',"version":"[0-9.]*","revision":"[^"]*"}$'
"$bin" hint "$easter" > "$tmp/out"
has "hint: its first line records the rater's version and budget, as rate's does" "$tmp/out" \
    '^# sudolab hint version=[0-9.]* revision=[^ ]* budget_ms=60000$'
"$bin" hint '11...............................................................................' > "$tmp/out" 2> "$tmp/err"
check "hint refuses a clash" $? 1
has "hint says where" "$tmp/err" 'clue 1 appears twice in row 1'

# rate -j: the same lines in the same order as one thread, invalid entries
# and all, for SE's rating and for the methods with a back end
{
    printf '%s\n' "$easter" "$royle" 'not a puzzle' \
        '...3..18..26.........9......47.2.......5..9......7........64.2.3.....5..1........' \
        '11...............................................................................' \
        '....7.....954........1..39..2....1.....3....4.6..2...8..8....1.5...8...27...6....'
} > "$tmp/mix.txt"
# more invalid lines than -j 2 keeps slots for, around the puzzles
{ yes 'not a puzzle' | head -n 150; cat "$tmp/mix.txt"; yes 'not a puzzle' | head -n 150; } > "$tmp/mix2.txt"
"$bin" rate --method se "$tmp/mix2.txt" > "$tmp/j1" 2> /dev/null
"$bin" rate --method se -j 2 "$tmp/mix2.txt" > "$tmp/j2" 2> /dev/null
same "rate -j 2 with runs of invalid lines: the bytes of -j 1" "$tmp/j1" "$tmp/j2"
for m in se all; do
    "$bin" rate --method $m "$tmp/mix.txt" > "$tmp/j1" 2> "$tmp/e1"; s1=$?
    "$bin" rate --method $m -j 3 "$tmp/mix.txt" > "$tmp/j3" 2> "$tmp/e3"; s3=$?
    same "rate --method $m -j 3: the bytes of -j 1" "$tmp/j1" "$tmp/j3"
    ok "rate --method $m -j 3: the status of -j 1 ($s1)" "$([ "$s1" -eq 1 ] && [ "$s3" -eq 1 ]; echo $?)"
done
has "rate -j: the invalid entry in its place" "$tmp/j3" '^3 invalid$'
# rate's progress: with stderr a terminal and the rows going to a file, a
# progress line and a closing tally of SE's verdicts on stderr, the rows
# unchanged; without a terminal, stderr has the bad lines' messages alone
"$bin" rate --method se "$tmp/mix.txt" > "$tmp/se1" 2> "$tmp/e1"
if command -v script > /dev/null 2>&1; then
    script -qec "'$bin' rate --method se -j 2 '$tmp/mix.txt' > '$tmp/tty.out'" /dev/null \
        > "$tmp/tty.err" 2>&1
    check "rate on a terminal" $? 1
    same "rate on a terminal: the rows without one" "$tmp/se1" "$tmp/tty.out"
    has "rate on a terminal: a progress line" "$tmp/tty.err" 'sudolab rate: 4 puzzles rated in [0-9]* s'
    has "rate on a terminal: SE's verdicts counted" "$tmp/tty.err" \
        'sudolab rate: se rated 4, out-of-time 0, beyond 0, no-solution 0, multiple-solutions 0'
    # the first rating's line at once, with the puzzles to go (the invalid
    # entries not counted) and the time left; with --resume, those after the
    # kept rows
    script -qec "'$bin' rate --method se '$tmp/mix.txt' > '$tmp/tty.out'" /dev/null \
        > "$tmp/tty.err" 2>&1
    has "rate on a terminal: the puzzles to go and the time left" "$tmp/tty.err" \
        'sudolab rate: 1 of 4 puzzles rated in [0-9]* s ([0-9.]* a second, about [0-9]* s left)'
    head -n 3 "$tmp/se1" > "$tmp/o.txt"
    script -qec "'$bin' rate --method se --out '$tmp/o.txt' --resume '$tmp/mix.txt'" /dev/null \
        > "$tmp/tty.err" 2>&1
    has "rate --resume on a terminal: the puzzles after the kept rows to go" "$tmp/tty.err" \
        'sudolab rate: 1 of 2 puzzles rated in'
else
    skip "rate on a terminal" "no script(1) to make one"
fi
ok "rate without a terminal: no progress on stderr" "$(! grep -q 'puzzles rated' "$tmp/e1"; echo $?)"
"$bin" rate -j 0 "$easter" > "$tmp/out" 2> "$tmp/err"; check "rate -j 0 refused" $? 2
# rate --out FILE: the bytes of stdout, line by line; --resume keeps the rows
# an interrupted run left (a torn last one dropped) and rates the rest, to
# the bytes of one whole run, and refuses a file of other settings or inputs
# (status 2, the file as it was)
"$bin" rate --method se -j 2 --out "$tmp/o.txt" "$tmp/mix.txt" 2> /dev/null
check "rate --out" $? 1
same "rate --out: the bytes of stdout" "$tmp/se1" "$tmp/o.txt"
{ head -n 4 "$tmp/se1"; sed -n 5p "$tmp/se1" | head -c 12; } > "$tmp/cut.txt"
cp "$tmp/cut.txt" "$tmp/o.txt"
"$bin" rate --method se -j 2 --out "$tmp/o.txt" --resume "$tmp/mix.txt" 2> "$tmp/err"
check "rate --resume: a kept invalid entry still counts" $? 1
same "rate --resume: the bytes of a whole run" "$tmp/se1" "$tmp/o.txt"
has "rate --resume: the torn row named" "$tmp/err" 'o.txt:5: a torn last row, rated again'
has "rate --resume: the rows kept" "$tmp/err" 'o.txt: 3 rows kept (entries up to 3)'
"$bin" rate --method se --out "$tmp/o.txt" --resume "$tmp/mix.txt" 2> /dev/null
same "rate --resume of a whole run: unchanged" "$tmp/se1" "$tmp/o.txt"
rm -f "$tmp/o.txt"
"$bin" rate --method se --out "$tmp/o.txt" --resume "$tmp/mix.txt" 2> /dev/null
same "rate --resume without the file: a whole run" "$tmp/se1" "$tmp/o.txt"
"$bin" rate --method se --csv --shard 2/2 "$tmp/mix2.txt" > "$tmp/sh.txt" 2> /dev/null
head -n 4 "$tmp/sh.txt" > "$tmp/o.txt"
"$bin" rate --method se --csv -j 2 --shard 2/2 --out "$tmp/o.txt" --resume "$tmp/mix2.txt" 2> /dev/null
same "rate --resume --csv --shard 2/2: the bytes of the whole shard" "$tmp/sh.txt" "$tmp/o.txt"
for refused in "--budget-ms 5000:other settings" "--csv:other settings"; do
    cp "$tmp/cut.txt" "$tmp/o.txt"
    "$bin" rate --method se ${refused%%:*} --out "$tmp/o.txt" --resume "$tmp/mix.txt" \
        > /dev/null 2> "$tmp/err"
    check "rate --resume refuses ${refused#*:} (${refused%%:*})" $? 2
    same "rate --resume refused (${refused%%:*}): the file as it was" "$tmp/cut.txt" "$tmp/o.txt"
done
has "rate --resume: both settings lines shown" "$tmp/err" '^  now:  # sudolab rate .* budget_ms=60000$'
{ sed -n 2p "$tmp/mix.txt"; sed -n 1p "$tmp/mix.txt"; sed -n '3,$p' "$tmp/mix.txt"; } > "$tmp/swap.txt"
cp "$tmp/se1" "$tmp/o.txt"
"$bin" rate --method se --out "$tmp/o.txt" --resume "$tmp/swap.txt" > /dev/null 2> "$tmp/err"
check "rate --resume refuses other inputs" $? 2
same "rate --resume of other inputs: the file as it was" "$tmp/se1" "$tmp/o.txt"
has "rate --resume: the row that differs named" "$tmp/err" 'o.txt:2: the row of entry 1 is not that of .*swap.txt:1'
{ head -n 2 "$tmp/se1"; echo 'not a row'; } > "$tmp/o.txt"
"$bin" rate --method se --out "$tmp/o.txt" --resume "$tmp/mix.txt" > /dev/null 2> "$tmp/err"
check "rate --resume refuses a line that is no row" $? 2
has "rate --resume: the line that is no row named" "$tmp/err" 'o.txt:3: not a row of sudolab rate'
"$bin" rate --method se --resume "$easter" > /dev/null 2> "$tmp/err"
check "rate --resume without --out refused" $? 2
cp "$tmp/mix.txt" "$tmp/in.txt"
"$bin" rate --method se --out "$tmp/in.txt" "$tmp/mix.txt" "$tmp/in.txt" > /dev/null 2> "$tmp/err"
check "rate --out onto an input refused" $? 2
same "rate --out onto an input: the input as it was" "$tmp/mix.txt" "$tmp/in.txt"

# hint --budget-ms: whether a step of nested chains (SE 11.1) is found within
# 1 ms depends on the machine, so either answer passes as long as the status
# and the line agree; a deadline already past gives no hint at all
# (test_se_rate: the rater with a deadline of 1 ns)
hard='98.7.....6.....8....5.4..6.4..6...3...3..42......3...5.7...9..1..6.5..2....1.....'
"$bin" hint --budget-ms 1 "$hard" > "$tmp/out"; st=$?
if [ "$st" -eq 1 ]; then
    has "hint out of budget says the budget ran out" "$tmp/out" \
        '^1 out of time: the budget ran out before the next step$'
else
    check "hint within 1 ms: status 0" "$st" 0
    has "hint within 1 ms: the nested chain" "$tmp/out" '^1 Nested Forcing Chains (11.1): '
fi

# generate --se: the band of the command line is the one applied (whether the
# filter keeps what serate rates in the band is tests/test_generate.c's
# se_band_filter_as_serate_rates), the same bytes for any -j, and a band out
# of reach said plainly
"$bin" generate --se 2.0-3.0 --count 4 --seed 5 > "$tmp/gen"; check "generate --se" $? 0
has "generate --se in the header" "$tmp/gen" ' se=2.0-3.0 '
grep -v '^#' "$tmp/gen" | "$bin" rate --method se --csv --no-puzzle - > "$tmp/out"
inband=$(awk -F, '/^[0-9]/ && $2 + 0 >= 2.0 && $2 + 0 <= 3.0' "$tmp/out" | wc -l)
ok "generate --se 2.0-3.0: the 4 puzzles rate 2.0-3.0" "$([ "$inband" -eq 4 ]; echo $?)" "$(cat "$tmp/out")"
"$bin" generate --se 2.0-3.0 --count 4 --seed 5 -j 2 > "$tmp/gen2"
cmp -s "$tmp/gen" "$tmp/gen2"; ok "generate --se: -j 2 gives the same bytes" $?
"$bin" generate --se 11.5-12 --attempts 3 --level easy > "$tmp/out" 2> "$tmp/err"
check "generate --se out of reach" $? 1
has "out of reach said" "$tmp/err" 'no puzzle rated SE 11.5-12.0 among 3 attempts'
"$bin" generate --se 3-2 > "$tmp/out" 2> "$tmp/err"; check "generate --se 3-2" $? 2
# generate --rate: the header records the rater's version and options, as
# rate's first line does, and the same revision
"$bin" generate --count 2 --seed 3 --rate all > "$tmp/gen"; check "generate --rate all" $? 0
has "generate --rate: the rater's version, revision and options in the header" "$tmp/gen" \
    '^# sudolab generate .* seed=3 .* rate=blanks,freedom,guesses,techniques rate_version=[0-9.]* rate_revision=[^ ]* rate_solver=[a-z_]* permutations=[0-9]*$'
"$bin" rate --method blanks --no-puzzle "$easter" > "$tmp/out"
[ "$(sed -n 's/^# sudolab rate version=\([^ ]*\) revision=\([^ ]*\) .*/\1 \2/p' "$tmp/out")" \
    = "$(sed -n 's/^# sudolab generate .* rate_version=\([^ ]*\) rate_revision=\([^ ]*\) .*/\1 \2/p' "$tmp/gen")" ]
ok "generate --rate and rate record the same version and revision" $?
"$bin" generate --size 2x2 --se 1-2 > "$tmp/out" 2> "$tmp/err"
check "generate --se on 4x4" $? 2
has "generate --se names the shape" "$tmp/err" '9x9 classic puzzles only, not 4x4'

# scripts/se-agreement.sh: serate's ratings (tests/data/se_dev.tsv) all met
# exit 0; a rating that differs is named and exits 1
agreement="$(dirname "$0")/../scripts/se-agreement.sh"
head -n 3 "$data/se_dev.tsv" > "$tmp/se_good.tsv"
"$agreement" "$bin" "$tmp/se_good.tsv" > "$tmp/out"; check "se-agreement.sh, all exact" $? 0
has "se-agreement.sh: no misses" "$tmp/out" '^misses .*: 0$'
{
    cat "$tmp/se_good.tsv"
    sed -n 4p "$data/se_dev.tsv" | awk -F'\t' -v OFS='\t' '{ $3 = "9.9/1.2/1.2"; print }'
} > "$tmp/se_bad.tsv"
"$agreement" "$bin" "$tmp/se_bad.tsv" > "$tmp/out"; check "se-agreement.sh exits 1 on a miss" $? 1
has "se-agreement.sh names the miss" "$tmp/out" "$(printf '^top1465\t[1-9.]*\t9\\.9/1\\.2/1\\.2\t8\\.3/1\\.2/1\\.2\t')"

# count without --solver: auto, which hands each puzzle to the back end the
# counters say ran (fast on a 9x9 whose clues use every value, wide on a
# 16x16 one, mrv where a value is unused), with the same counts
serg='8.........95.......76.........426798...571243...893165......916....3.487....1.532'
sixteen=$(grep -v '^#' "$public/../generated/16x16_minimal.txt" | head -n 1)
for case in "fast $serg" "wide $sixteen" "mrv --empty 2x3"; do
    # shellcheck disable=SC2086
    set -- $case
    want=$1
    shift
    "$bin" count "$@" | sed 's/ time=.*//' > "$tmp/auto"
    check "count (auto) on the $want case" $? 0
    "$bin" count --solver "$want" "$@" | sed 's/ time=.*//' > "$tmp/one"
    same "count (auto) gives $want's line" "$tmp/auto" "$tmp/one"
done

# Lewis's instances (datasets/lewis): as sudoku_acs ships them (one per file,
# CRLF), a directory of them, the bundles, the wide back end on a sample of
# 25x25 ones, --output lewis read back, bad files, and the manifest's sums.
lewis=$public/../lewis
if command -v xz > /dev/null && command -v sha256sum > /dev/null; then
    awk '{ print $2 }' "$lewis/SHA256SUMS" | while read -r name; do
        xz -dc "$lewis/$name.xz" | sha256sum | sed "s| -\$| $name|"
    done > "$tmp/sums"
    same "the Lewis bundles unpack to the texts of SHA256SUMS" "$lewis/SHA256SUMS" "$tmp/sums"
    # every instance back as its own file, byte for byte: the manifest's sums
    mkdir "$tmp/lewis" "$tmp/lewis9"
    for f in "$lewis"/general/*.xz "$lewis"/logic_solvable.xz; do
        xz -dc "$f" | awk -v d="$tmp/lewis" '/^# / { if (out) close(out); out = d "/" $2; next }
            { print > out }'
    done
    (cd "$tmp/lewis" && sha256sum -- *) | sort > "$tmp/file-sums"
    awk -F'\t' 'NR > 1 { n = $3; sub(/.*\//, "", n); print $4 "  " n }' \
        "$lewis/MANIFEST.tsv" | sort > "$tmp/manifest-sums"
    same "each of the 6,316 instances has the manifest's sha256" \
        "$tmp/manifest-sums" "$tmp/file-sums"
    mv "$tmp"/lewis/inst9x9_45_*.txt "$tmp/lewis9"

    "$bin" solve --limit 1 "$tmp/lewis9/inst9x9_45_3.txt" > "$tmp/out" 2> "$tmp/err"
    check "solve an original Lewis file" $? 0
    has "its row is solved and named after the file" "$tmp/out" \
        '^1 solved solutions=1 .* [1-9]\{81\} name=inst9x9_45_3.txt$'
    "$bin" solve --limit 1 --csv "$tmp/lewis9" > "$tmp/out" 2> "$tmp/err"
    check "solve a directory of Lewis files" $? 0
    [ "$(grep -c '^[0-9]*,solved,' "$tmp/out")" -eq 100 ]
    ok "a directory: its 100 files solved" $? "$(head -n 3 "$tmp/out")"
    has "a directory in natural order: the 11th file is instance 10" "$tmp/out" \
        '^11,solved,.*,inst9x9_45_10.txt,[1-9]\{81\}$'
    bundle=$lewis/general/9x9_045.xz
    "$bin" solve --limit 1 "$bundle" | sed 's/.* \([^ ]*\) \(name=.*\)/\1 \2/' > "$tmp/rows"
    "$bin" solve --limit 1 --output lewis "$bundle" > "$tmp/solved.txt"
    check "solve --output lewis" $? 0
    has "--output lewis names each solution" "$tmp/solved.txt" '^# inst9x9_45_99.txt$'
    "$bin" solve --limit 1 "$tmp/solved.txt" | sed 's/.* \([^ ]*\) \(name=.*\)/\1 \2/' \
        > "$tmp/again"
    same "--output lewis reads back: the same solutions and names" "$tmp/rows" "$tmp/again"
    "$bin" generate --size 4x4 --count 3 --seed 7 --output lewis > "$tmp/gen.txt"
    check "generate --output lewis" $? 0
    "$bin" solve --solver wide "$tmp/gen.txt" > "$tmp/out"
    [ "$(grep -c '^[0-9] unique .* name=puzzle-[1-3]$' "$tmp/out")" -eq 3 ]
    ok "generate --output lewis: 3 named 16x16 puzzles, each unique" $? "$(cat "$tmp/out")"
    "$bin" generate --size 2x3 --output lewis > "$tmp/out" 2> "$tmp/err"
    check "generate --output lewis on 2x3 boxes" $? 2
    has "square boxes said" "$tmp/err" 'needs square boxes'
    "$bin" solve --solver wide --limit 1 --head 4 "$lewis/general/25x25_000.xz" \
        "$lewis/general/25x25_010.xz" "$lewis/general/25x25_100.xz" > "$tmp/out"
    check "wide on a sample of 25x25 instances" $? 0
    [ "$(grep -c '^[0-9]* solved .* name=inst25x25_\(0\|10\|100\)_[0-3].txt$' "$tmp/out")" -eq 12 ]
    ok "wide: the 12 sampled 25x25 instances solved" $? "$(cut -c 1-80 "$tmp/out")"

    # bad files: file:line: reason, and the next file is still solved
    head -n 8 "$tmp/lewis9/inst9x9_45_3.txt" > "$tmp/cut.txt"
    sed '3s/^-1/10/' "$tmp/lewis9/inst9x9_45_4.txt" > "$tmp/range.txt"
    printf '8\r\n1\r\n-1\t-1\r\n' > "$tmp/order.txt"
    "$bin" solve --limit 1 "$tmp/cut.txt" "$tmp/range.txt" "$tmp/order.txt" \
        "$tmp/lewis9/inst9x9_45_5.txt" > "$tmp/out" 2> "$tmp/err"
    check "bad Lewis files exit 1" $? 1
    has "a truncated file" "$tmp/err" \
        'cut.txt:1: instance has 54 of its 81 values (truncated at line 8)'
    has "a value out of range" "$tmp/err" \
        'range.txt:1: value 10 at line 3 is out of range for 9x9 (-1 blank, 1 to 9)'
    has "an order of no grid" "$tmp/err" \
        'order.txt:1: Lewis order 8 is no grid size (2 to 7: 4x4 to 49x49)'
    has "the run goes on" "$tmp/out" '^4 solved .* name=inst9x9_45_5.txt$'

    # wide_restart: on inst16x16_25_4 wide's search is heavy-tailed (it runs out
    # of 500,000 steps); restarts on transformed copies solve it within them,
    # and the same seed gives the same run
    stuck=$tmp/lewis/inst16x16_25_4.txt
    wr_opts="--limit 1 --budget-steps 500000 --budget-ms 0"
    # shellcheck disable=SC2086
    "$bin" solve --solver wide $wr_opts "$stuck" > "$tmp/out"
    has "wide runs out of the budget on inst16x16_25_4" "$tmp/out" '^1 limit '
    # shellcheck disable=SC2086
    "$bin" solve --solver wide_restart $wr_opts --seed 3 "$stuck" > "$tmp/raw"
    check "wide_restart on inst16x16_25_4" $? 0
    sed 's/ time=[^ ]*//' "$tmp/raw" > "$tmp/out"
    has "wide_restart solves it within the budget" "$tmp/out" '^1 solved solutions=1 '
    # shellcheck disable=SC2086
    "$bin" solve --solver wide_restart $wr_opts --seed 3 "$stuck" | sed 's/ time=[^ ]*//' \
        > "$tmp/again"
    same "wide_restart: the same seed, the same counters and solution" "$tmp/out" "$tmp/again"
    # auto hands a first solution on 16x16 and more to wide_restart (the default
    # seed's run), a count to wide
    # shellcheck disable=SC2086
    "$bin" solve --solver auto $wr_opts "$stuck" | sed 's/ time=[^ ]*//' > "$tmp/auto"
    has "auto solves inst16x16_25_4 within the budget" "$tmp/auto" '^1 solved solutions=1 '
    # shellcheck disable=SC2086
    "$bin" solve --solver wide_restart $wr_opts "$stuck" | sed 's/ time=[^ ]*//' \
        > "$tmp/again"
    same "auto: wide_restart's counters and solution" "$tmp/auto" "$tmp/again"
    "$bin" solve --solver auto --limit 2 --budget-steps 500000 --budget-ms 0 "$stuck" \
        > "$tmp/out"
    has "auto at limit 2: wide, which runs out" "$tmp/out" '^1 limit '

    # rate, hint and trace name Lewis's instances as solve does (rate on two
    # threads too: the name travels with the puzzle)
    logic=$lewis/logic_solvable.xz
    "$bin" rate --method blanks -j 2 "$logic" > "$tmp/out" 2> "$tmp/err"
    check "rate -j 2 over the logic-solvable bundle" $? 0
    has "rate names each instance" "$tmp/out" '^1 blanks=[0-9]* .* name=aiescargot.txt$'
    [ "$(grep -c ' name=[^ ]*\.txt$' "$tmp/out")" -eq 16 ]
    ok "rate: the 16 rows named" $? "$(cat "$tmp/out")"
    xz -dc "$logic" | head -n 12 | sed '1s/.*/# say"hi"\\x/' > "$tmp/odd.txt"
    "$bin" hint "$logic" > "$tmp/out" 2> "$tmp/err"
    check "hint over the bundle: exit 1, sabuncu3 has several solutions" $? 1
    has "hint names each instance" "$tmp/out" '^1 .* name=aiescargot.txt$'
    has "... and the one it cannot take" "$tmp/out" '^9 more than one solution name=sabuncu3.txt$'
    "$bin" hint --json "$tmp/odd.txt" > "$tmp/out" 2> "$tmp/err"
    check "hint --json over an odd name" $? 0
    has "hint --json: the name a JSON string, escaped" "$tmp/out" \
        '^{"index":1,"name":"say\\"hi\\"\\\\x","hint":{'
    xz -dc "$logic" | head -n 12 > "$tmp/first.txt"
    "$bin" trace --solver moler "$tmp/first.txt" > "$tmp/out" 2> "$tmp/err"
    check "trace of a named instance" $? 0
    has "trace names the instance" "$tmp/out" \
        '^# puzzle 1 (.*first.txt:2) [1-9.]\{81\}, solver moler, name aiescargot.txt$'
else
    skip "Lewis's instances" "no xz or sha256sum"
fi

tap_end
