#!/bin/sh
# End-to-end checks of `sudolab bench` on a tiny corpus: exit statuses, the
# runs.csv columns and rows, summary.csv and env.txt, --resume after a torn
# row, --repeat, --limit 1, --expect, and clean failures for bad options.
# Usage: test_bench.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

# Known answers: Royle's puzzle is unique and diag(1:4) has two solutions
# (Moler); a 4x4 with two clues has many; two 1s in a row break a rule.
cat > "$tmp/tiny.txt" <<'EOT'
.2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.:1
1....2....3....4:2
12..............:2+
1..1............:invalid
EOT
sed '4d' "$tmp/tiny.txt" > "$tmp/valid.txt"

# the back ends that handle 4x4 and 9x9 and count, from `sudolab list --csv`
solvers=$("$bin" list --csv | awk -F, 'NR > 1 && $3 <= 4 && $4 >= 9 && $5 ~ /count/ {print $1}' \
    | head -4 | paste -sd, -)
nsolvers=$(echo "$solvers" | tr ',' '\n' | grep -c .)
[ "$nsolvers" -ge 1 ]; ok "some back ends to run ($solvers)" $?

# Complete back ends on three puzzles: no deadline (--budget-ms 0), so a loaded
# machine cannot turn an answer into status limit; a hang is meson's timeout.
out="$tmp/run"
"$bin" bench --solvers "$solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 1 --expect \
    --out "$out" "$tmp/valid.txt" > "$tmp/stdout" 2> "$tmp/stderr"
check "bench on a valid corpus" $? 0
has "the seed is printed" "$tmp/stdout" '^seed [0-9]'
has "the timer overhead is printed" "$tmp/stdout" 'timer overhead [0-9.]* ns'
has "summary table" "$tmp/stdout" '^valid.txt: 3 puzzles, limit 2'
header='corpus,index,solver,repeat,status,solutions,steps,guesses,backtracks,nodes,article_steps,time_ns'
[ "$(head -1 "$out/runs.csv")" = "$header" ]; ok "runs.csv header" $?
rows=$(($(wc -l < "$out/runs.csv") - 1))
[ "$rows" -eq $((3 * nsolvers)) ]; ok "one row per puzzle and solver" $? "$rows rows"
awk -F, -v want=12 'NF != want {bad = 1} END {exit bad}' "$out/runs.csv"
ok "every row has 12 fields" $?
awk -F, 'NR > 1 && $5 !~ /^(unique|multiple|unsolvable)$/ {bad = 1} END {exit bad}' "$out/runs.csv"
ok "statuses are verdicts" $?
awk -F, 'NR > 1 && $2 == 1 && !($5 == "unique" && $6 == 1) {bad = 1} END {exit bad}' "$out/runs.csv"
ok "Royle's puzzle is unique for every back end" $?
awk -F, 'NR > 1 && $2 == 2 && !($5 == "multiple" && $6 == 2) {bad = 1} END {exit bad}' "$out/runs.csv"
ok "diag(1:4) has two solutions for every back end" $?
awk -F, 'NR > 1 && $12 !~ /^[0-9]+$/ {bad = 1} END {exit bad}' "$out/runs.csv"
ok "every row is timed" $?
has "summary.csv header" "$out/summary.csv" '^corpus,solver,puzzles,unique,multiple,'
has "summary.csv ends with the interval and pass spread columns" "$out/summary.csv" \
    ',speedup_vs_baseline,speedup_ci_low,speedup_ci_high,speedup_pairs,pass_median_puzzles_per_s,pass_q1_puzzles_per_s,pass_q3_puzzles_per_s,runs,run_successes,success_rate,success_median_ns,success_mean_ns,run_par2_ns,unsampled$'
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $c["speedup_pairs"] != 3 || $c["speedup_ci_low"] != "" {bad = 1} END {exit bad}' \
    "$out/summary.csv"
ok "three puzzles compared: too few for an interval" $? "$(cat "$out/summary.csv")"
if [ "$nsolvers" -ge 2 ]; then
    has "... and the table says why it shows none" "$tmp/stdout" \
        'x \[no interval: 3 puzzles in common, 10 needed\]$'
else
    skip "the table says why a ratio has no interval" "one back end: no ratio"
fi
[ $(($(wc -l < "$out/summary.csv") - 1)) -eq "$nsolvers" ]; ok "summary.csv: a row per solver" $?
has "env.txt has the seed" "$out/env.txt" '^seed: [0-9]'
has "env.txt has the timer overhead" "$out/env.txt" '^timer_overhead_ns: [0-9]'
has "env.txt has the compiler" "$out/env.txt" '^compiler: '
has "env.txt says complete" "$out/env.txt" '^finished: complete'
has "env.txt has the load average before" "$out/env.txt" '^loadavg_before: [0-9.]* [0-9.]* [0-9.]*$'
has "env.txt has the load average after" "$out/env.txt" '^loadavg_after: [0-9.]* [0-9.]* [0-9.]*$'
has "env.txt has the CPU frequency, or says it is not readable" "$out/env.txt" \
    '^cpu_mhz_before: \(n/a\|[0-9]* (min [0-9]*, max [0-9]*, [0-9]* cores, from [a-z_]*)\)$'
has "env.txt has the others' share of the CPU" "$out/env.txt" '^other_busy_share: 0\.[0-9]*$'
has "env.txt has the verdict on noise" "$out/env.txt" '^quiet: \(yes\|no (.*)\|unknown (.*)\)$'
[ "$(grep -c '^isa_path: ' "$out/env.txt")" -eq "$nsolvers" ]
ok "env.txt has an instruction-set path per solver" $? "$(grep isa_path "$out/env.txt")"

# --resume after a kill mid-row: the torn row goes, nothing is run twice
printf 'valid.txt,3,%s,1,uniq' "${solvers%%,*}" >> "$out/runs.csv"
"$bin" bench --solvers "$solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --resume \
    --out "$out" "$tmp/valid.txt" > "$tmp/stdout" 2> "$tmp/stderr"
check "resume" $? 0
has "resume says what it kept" "$tmp/stdout" "resuming: $((3 * nsolvers)) rows"
[ $(($(wc -l < "$out/runs.csv") - 1)) -eq $((3 * nsolvers)) ]; ok "resume added no row" $?
[ "$(tail -c 1 "$out/runs.csv" | od -An -c | tr -d ' ')" = '\n' ]; ok "no torn row left" $?
dups=$(cut -d, -f1-4 "$out/runs.csv" | sort | uniq -d | wc -l)
[ "$dups" -eq 0 ]; ok "no row twice" $?

"$bin" bench --solvers "$solvers" --budget-ms 0 --limit 1 --pass-ms 0 --resume --out "$out" "$tmp/valid.txt" \
    > /dev/null 2> "$tmp/stderr"
check "resume refuses another limit" $? 2
has "saying which option differs" "$tmp/stderr" 'its limit was 2, now 1'

# rows on stdout, --repeat, --limit 1, --permute
"$bin" bench --solvers "$solvers" --budget-ms 0 --csv --repeat 3 --limit 1 --permute --seed 7 \
    --warmup-ms 1 --pass-ms 0 --quiet "$tmp/valid.txt" > "$tmp/csv" 2> "$tmp/stderr"
check "csv on stdout" $? 0
[ "$(head -1 "$tmp/csv")" = "$header" ]; ok "csv header on stdout" $?
[ $(($(wc -l < "$tmp/csv") - 1)) -eq $((9 * nsolvers)) ]; ok "three rows per repeat" $?
awk -F, 'NR > 1 && $5 != "solved" {bad = 1} END {exit bad}' "$tmp/csv"
ok "--limit 1 says solved" $?

# twelve puzzles: every ratio within its interval, the baseline's of zero width
cat "$tmp/valid.txt" "$tmp/valid.txt" "$tmp/valid.txt" "$tmp/valid.txt" > "$tmp/twelve.txt"
"$bin" bench --solvers "$solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --out "$tmp/twelve" \
    "$tmp/twelve.txt" > /dev/null 2> "$tmp/stderr"
check "bench on twelve puzzles" $? 0
awk -F, -v base="${solvers%%,*}" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    {lo = $c["speedup_ci_low"]; hi = $c["speedup_ci_high"]; r = $c["speedup_vs_baseline"]
     if ($c["speedup_pairs"] != 12 || lo == "" || hi == "" || !(lo <= r + 1e-4 && r <= hi + 1e-4)) bad = 1
     if ($c["solver"] == base && !(lo == 1 && hi == 1 && r == 1)) bad = 1}
    END {exit bad}' "$tmp/twelve/summary.csv"
ok "every ratio lies within its interval; the baseline's is [1, 1]" $? \
    "$(cat "$tmp/twelve/summary.csv")"

# --repeat K times at least K whole passes, and the summary has their spread
"$bin" bench --solvers "$solvers" --budget-ms 0 --repeat 3 --warmup-ms 1 --pass-ms 1 --fast-us 1000000 \
    --quiet --out "$tmp/passes" "$tmp/valid.txt" > /dev/null 2> "$tmp/stderr"
check "whole passes with --repeat 3" $? 0
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    {n++; if ($c["passes"] < 3 || $c["pass_median_puzzles_per_s"] == "") bad = 1
     if (!($c["pass_q1_puzzles_per_s"] <= $c["pass_median_puzzles_per_s"] \
           && $c["pass_median_puzzles_per_s"] <= $c["pass_q3_puzzles_per_s"] \
           && $c["pass_q3_puzzles_per_s"] <= $c["pass_best_puzzles_per_s"])) bad = 1}
    END {exit bad || n == 0}' "$tmp/passes/summary.csv"
ok "every solver: 3 passes or more, quartiles in order below the best" $? \
    "$(cat "$tmp/passes/summary.csv")"

# failures: an invalid entry, a wrong expectation, bad options
"$bin" bench --solvers "$solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet "$tmp/tiny.txt" \
    > /dev/null 2> "$tmp/stderr"
check "rule-breaking clues make the exit status 1" $? 1
has "and are reported with file and line" "$tmp/stderr" 'tiny.txt:4: '
printf '1....2....3....4:1\n' > "$tmp/wrong.txt"
"$bin" bench --solvers "$solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --expect "$tmp/wrong.txt" \
    > /dev/null 2> "$tmp/stderr"
check "a wrong expected count fails" $? 1
has "the disagreement names the puzzle" "$tmp/stderr" '^DISAGREEMENT wrong.txt:1 .*1....2....3....4'
"$bin" bench --solvers 'no_such_solver*' "$tmp/valid.txt" > /dev/null 2> "$tmp/stderr"
check "an unknown solver pattern is a usage error" $? 2
has "naming the pattern" "$tmp/stderr" "no solver matches 'no_such_solver\*'"
"$bin" bench --solvers "$solvers" --budget-ms 0 --baseline nope "$tmp/valid.txt" > /dev/null 2>&1
check "an unknown baseline is a usage error" $? 2
"$bin" bench --repeat 0 "$tmp/valid.txt" > /dev/null 2>&1
check "--repeat 0 is a usage error" $? 2
"$bin" bench > /dev/null 2>&1
check "no corpus is a usage error" $? 2
"$bin" bench --resume "$tmp/valid.txt" > /dev/null 2>&1
check "--resume without --out is a usage error" $? 2
"$bin" bench --help > "$tmp/stdout"
check "help" $? 0
has "help lists --solvers" "$tmp/stdout" '--solvers LIST'

# a header saying variant=diagonal (as sudolab generate writes) makes the file
# diagonal: 1s at r1c1 and r4c4 share only the main diagonal
diag=$(printf '1%29s1%50s' '' '' | tr ' ' '.')
printf '%s\n' "$diag" > "$tmp/plain.txt"
printf '# sudolab generate size=3x3 variant=diagonal\n%s\n' "$diag" > "$tmp/diag.txt"
"$bin" bench --solvers "${solvers%%,*}" --budget-ms 0 --pass-ms 0 --quiet "$tmp/plain.txt" > /dev/null 2>&1
check "standard: the clues are consistent" $? 0
"$bin" bench --solvers "${solvers%%,*}" --budget-ms 0 --pass-ms 0 --quiet --csv "$tmp/diag.txt" \
    > "$tmp/csv" 2> /dev/null
check "diagonal by its header: the clues break a rule" $? 1
has "and the row says invalid" "$tmp/csv" '^diag.txt,1,.*,invalid,'
"$bin" bench --solvers "${solvers%%,*}" --budget-ms 0 --pass-ms 0 --quiet --variant standard "$tmp/diag.txt" \
    > /dev/null 2>&1
check "--variant overrides the header" $? 0

# Sudoku Explainer ratings: read from the corpus lines (`ED=`, a rating
# column), computed with --se-rate, kept by --resume and merge, plotted in the
# report. The ratings are serate's own for these puzzles (SukakuExplainer 1.18,
# default settings; see docs/generating-and-rating.md).
cat > "$tmp/se_truth.tsv" <<'EOT'
.68451..2..9.....55.43..7.8..289..7.9..673..467...4.83143968.57..614........3..16	1.2,1.0,1.0
..............1.23..456........7.5...1.......23.4........8.2.....7...4..9........	1.5,1.2,1.2
..............1.23.45.6.........2.....6.1......7...5......7.6..2..4.....3....8...	2.0,1.5,1.5
..5.3............8....721.3....6..7.......3.2...8.4.5.5.9..6...4.8.....76.3......	2.6,1.2,1.2
....7.....954........1..39..2....1.....3....4.6..2...8..8....1.5...8...27...6....	3.2,1.2,1.2
EOT
cut -f1 "$tmp/se_truth.tsv" > "$tmp/se_plain.txt"
awk -F'\t' 'NR == 1 {gsub(/,/, "/", $2); print $1 " ED=" $2}
    NR == 2 {split($2, r, ","); print $1 "," r[1]}
    NR == 3 {print $1 ":1"}
    NR == 4 {print $1 " ED=20.0/20.0/20.0"}' "$tmp/se_truth.tsv" > "$tmp/se_lines.txt"
# two quick back ends: the puzzles are sparse, slow for naive under the sanitizers
se_solvers=mrv,dlx
se_header="$header,se_er,se_ep,se_ed"
"$bin" bench --solvers mrv --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --csv "$tmp/se_lines.txt" \
    > "$tmp/csv" 2> "$tmp/stderr"
check "bench on a corpus with ratings on its lines" $? 0
[ "$(head -1 "$tmp/csv")" = "$se_header" ]; ok "the header ends with se_er,se_ep,se_ed" $? \
    "$(head -1 "$tmp/csv")"
has "ED=ER/EP/ED gives the three" "$tmp/csv" '^se_lines.txt,1,.*,1\.2,1\.0,1\.0$'
has "a rating column gives ER" "$tmp/csv" '^se_lines.txt,2,.*,1\.5,,$'
has "an expected count is no rating" "$tmp/csv" '^se_lines.txt,3,.*[0-9],,,$'
has "serate's 20.0 (it gave up) is no rating" "$tmp/csv" '^se_lines.txt,4,.*[0-9],,,$'
"$bin" bench --solvers mrv --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --csv "$tmp/se_plain.txt" \
    > "$tmp/csv" 2> /dev/null
[ "$(head -1 "$tmp/csv")" = "$header" ]; ok "no ratings, no --se-rate: the columns as before" $?
"$bin" bench --solvers "$se_solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --csv --se-rate -j 2 \
    "$tmp/se_plain.txt" > "$tmp/csv" 2> /dev/null
check "--se-rate" $? 0
awk -F'\t' -v OFS=, 'NR == FNR {want[FNR] = $2; next}
    FNR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    {rows++; got = $c["se_er"] "," $c["se_ep"] "," $c["se_ed"]
     if (got != want[$c["index"]]) {print "entry " $c["index"] " " $c["solver"] ": " got; bad = 1}}
    END {exit bad || rows != 5 * n}' n=2 "$tmp/se_truth.tsv" FS=, "$tmp/csv" > "$tmp/diff"
ok "--se-rate computes serate's ratings, on every solver's rows" $? "$(cat "$tmp/diff")"
"$bin" bench --solvers mrv --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --csv --se-rate \
    "$tmp/se_lines.txt" > "$tmp/csv" 2> /dev/null
has "a rating on the line wins over computing one" "$tmp/csv" '^se_lines.txt,2,.*,1\.5,,$'
has "the others are computed" "$tmp/csv" '^se_lines.txt,3,.*,2\.0,1\.5,1\.5$'
has "... and so is the one serate gave up on in its line" "$tmp/csv" '^se_lines.txt,4,.*,2\.6,1\.2,1\.2$'

# --resume keeps the file's columns: a torn row is cut and the rest rated alike
ser="$tmp/se_run"
"$bin" bench --solvers "$se_solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --se-rate --out "$ser" \
    "$tmp/se_plain.txt" > /dev/null 2>&1
check "--se-rate --out" $? 0
cp "$ser/runs.csv" "$tmp/se_whole.csv"
head -n 3 "$tmp/se_whole.csv" > "$ser/runs.csv"
printf 'se_plain.txt,4,mrv,1,uniq' >> "$ser/runs.csv"
"$bin" bench --solvers "$se_solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --se-rate --resume \
    --out "$ser" "$tmp/se_plain.txt" > /dev/null 2>&1
check "--resume of a run with ratings" $? 0
cut -d, -f1-4,13- "$tmp/se_whole.csv" | sort > "$tmp/a"
cut -d, -f1-4,13- "$ser/runs.csv" | sort > "$tmp/b"
same "the resumed file = the whole run: its rows and their ratings" "$tmp/a" "$tmp/b"
head -n 3 "$tmp/se_whole.csv" > "$ser/runs.csv"
"$bin" bench --solvers "$se_solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --resume \
    --out "$ser" "$tmp/se_plain.txt" > /dev/null 2>&1
check "--resume without --se-rate" $? 0
awk -F, 'NF != 15 {bad = 1} END {exit bad}' "$ser/runs.csv"
ok "... keeps the file's 15 columns on every row" $?

# merge: shards with ratings make a merged file with them
for k in 1 2; do
    "$bin" bench --solvers "$se_solvers" --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --se-rate \
        --shard $k/2 --out "$tmp/se_s$k" "$tmp/se_plain.txt" > /dev/null 2>&1
done
"$bin" merge --quiet --out "$tmp/se_m" "$tmp/se_s1" "$tmp/se_s2" > /dev/null 2>&1
check "merge of shards with ratings" $? 0
cut -d, -f1-4,13- "$tmp/se_m/runs.csv" | sort > "$tmp/b"
same "merged = the single run: its rows and their ratings" "$tmp/a" "$tmp/b"

# Lewis's instances have names (the first word of a "# name" line before
# each): runs.csv ends with a name column, quoted as the corpus is when a name
# holds a comma or a quote, and --resume and merge keep it. A corpus without names has none (the
# header checked at the top).
lewis="$(dirname "$0")/../datasets/lewis/logic_solvable.xz"
named_opts="--solvers mrv --budget-ms 0 --limit 1 --warmup-ms 1 --pass-ms 0 --quiet"
# shellcheck disable=SC2086
"$bin" bench $named_opts --out "$tmp/named" "$lewis" > /dev/null 2> "$tmp/stderr"
check "bench over Lewis's logic-solvable bundle" $? 0
[ "$(head -1 "$tmp/named/runs.csv")" = "$header,name" ]; ok "the header ends with name" $?
"$bin" solve --solver mrv --limit 1 --csv "$lewis" 2> /dev/null \
    | awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} {print $c["name"]}' \
    > "$tmp/want_names"
awk -F, 'NR > 1 {print $NF}' "$tmp/named/runs.csv" > "$tmp/got_names"
[ "$(wc -l < "$tmp/want_names")" -eq 16 ] && ! grep -qv '\.txt$' "$tmp/want_names"
ok "solve names the bundle's 16 instances after their files" $? "$(cat "$tmp/want_names")"
same "each row names its instance, as solve does" "$tmp/want_names" "$tmp/got_names"
printf '# a,b\n2\n1\n1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n' \
    > "$tmp/odd.txt"
printf '# say"hi"\n2\n1\n-1\t2\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n-1\t-1\t-1\t-1\n' \
    >> "$tmp/odd.txt"
# shellcheck disable=SC2086
"$bin" bench $named_opts --out "$tmp/odd" "$tmp/odd.txt" > /dev/null 2> "$tmp/stderr"
check "bench over instances whose names hold a comma and quotes" $? 0
has "a name with a comma is quoted" "$tmp/odd/runs.csv" '^odd.txt,1,mrv,.*,"a,b"$'
has "a quote in a name is doubled" "$tmp/odd/runs.csv" '^odd.txt,2,mrv,.*,"say""hi"""$'
# --resume after a torn row: the column and the names stay
sort "$tmp/named/runs.csv" | cut -d, -f1-6,13- > "$tmp/a"
head -n 8 "$tmp/named/runs.csv" > "$tmp/named/cut.csv"
printf 'logic_solvable,8,mr' >> "$tmp/named/cut.csv"
mv "$tmp/named/cut.csv" "$tmp/named/runs.csv"
# shellcheck disable=SC2086
"$bin" bench $named_opts --resume --out "$tmp/named" "$lewis" > /dev/null 2> "$tmp/stderr"
check "--resume of a run with names" $? 0
sort "$tmp/named/runs.csv" | cut -d, -f1-6,13- > "$tmp/b"
same "the resumed file = the whole run: its rows and their names" "$tmp/a" "$tmp/b"
# merge: two shards with names make a merged file with them
for k in 1 2; do
    # shellcheck disable=SC2086
    "$bin" bench $named_opts --shard $k/2 --out "$tmp/named_s$k" "$lewis" > /dev/null 2>&1
done
"$bin" merge --quiet --out "$tmp/named_m" "$tmp/named_s1" "$tmp/named_s2" > /dev/null 2>&1
check "merge of shards with names" $? 0
sort "$tmp/named_m/runs.csv" | cut -d, -f1-6,13- > "$tmp/b"
same "merged = the single run: its rows and their names" "$tmp/a" "$tmp/b"

# Interruption, with real signals on a run of 3,000 entries (naive stopped
# by a step budget, so every entry costs the same): SIGINT finishes the
# puzzles under way, saves the summary and exits 130 with every row whole;
# SIGKILL during --resume leaves at worst a torn last row; a last --resume
# completes the run with every entry exactly once.
royle=$(sed -n '1s/:.*//p' "$tmp/valid.txt")
awk -v p="$royle" 'BEGIN {for (i = 0; i < 3000; i++) print p}' > "$tmp/big.txt"
run="$tmp/interrupted"
big_opts="--solvers naive --budget-ms 0 --budget-steps 10000 -j 2 --warmup-ms 0 --pass-ms 0 --quiet"
rows() { if [ -f "$run/runs.csv" ]; then wc -l < "$run/runs.csv"; else echo 0; fi; }
wait_rows() { # wait_rows PID N: until runs.csv has N lines or PID ends (the
    # poll only paces the loop; a run that writes nothing is meson's timeout)
    while [ "$(rows)" -lt "$2" ] && kill -0 "$1" 2> /dev/null; do
        sleep 0.05
    done
}
whole_rows() { # whole_rows FILE: every newline-terminated row has 12 fields
    if [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ]; then cat "$1"; else sed '$d' "$1"; fi \
        | awk -F, 'NF != 12 {bad = 1} END {exit bad}'
}
# shellcheck disable=SC2086
"$bin" bench $big_opts --out "$run" "$tmp/big.txt" > /dev/null 2> "$tmp/stderr" &
pid=$!
wait_rows "$pid" 100
# stopped first, so that the run cannot go on to its end between the check of
# its rows and the signal: SIGINT is handled as soon as it continues
kill -STOP "$pid"
kill -INT "$pid"
kill -CONT "$pid"
wait "$pid"
check "SIGINT: exit status 130" $? 130
n1=$(($(rows) - 1))
[ "$n1" -ge 99 ] && [ "$n1" -lt 3000 ]; ok "SIGINT: the rows done are saved ($n1 of 3000)" $?
[ "$(tail -c 1 "$run/runs.csv" | od -An -c | tr -d ' ')" = '\n' ]; ok "SIGINT: no torn row" $?
whole_rows "$run/runs.csv"; ok "SIGINT: every row has 12 fields" $?
has "SIGINT: env.txt says interrupted" "$run/env.txt" '^finished: interrupted'
has "SIGINT: the message says so" "$tmp/stderr" 'interrupted'
# shellcheck disable=SC2086
"$bin" bench $big_opts --resume --out "$run" "$tmp/big.txt" > /dev/null 2>&1 &
pid=$!
wait_rows "$pid" $((n1 + 300))
kill -STOP "$pid"
kill -KILL "$pid"
wait "$pid"
check "SIGKILL during --resume" $? 137
whole_rows "$run/runs.csv"; ok "SIGKILL: every whole row has 12 fields" $?
# shellcheck disable=SC2086
"$bin" bench $big_opts --resume --out "$run" "$tmp/big.txt" > /dev/null 2> "$tmp/stderr"
check "--resume completes the run" $? 0
[ "$(($(rows) - 1))" -eq 3000 ]; ok "3000 rows" $? "$(($(rows) - 1))"
[ "$(cut -d, -f2 "$run/runs.csv" | sed 1d | sort -un | wc -l)" -eq 3000 ]
ok "every entry present" $?
[ "$(cut -d, -f1-4 "$run/runs.csv" | sort | uniq -d | wc -l)" -eq 0 ]; ok "none twice" $?
whole_rows "$run/runs.csv"; ok "every row has 12 fields" $?
has "env.txt says complete" "$run/env.txt" '^finished: complete'

# Every registered back end, on two threads: each solves what it supports and
# declines the rest, and all agree. Under the sanitizer build this is also the
# leak check: LeakSanitizer makes the exit status non-zero if any back end, or
# a library one calls (GLPK keeps per-thread state), leaves memory behind.
# No deadline decides: the complete back ends run with none (--budget-ms 0) and
# must answer every puzzle as --expect says; the stochastic ones, which may
# never find a solution (anneal on Royle's puzzle), stop at a step budget.
# (a back end this machine cannot run, such as a SIMD path the CPU lacks, has no rows)
available=$("$bin" list --csv | awk 'NR > 1 && !/,"?unavailable \(/')
complete=$(echo "$available" | awk '!/[,"]incomplete[,"]/' | cut -d, -f1 | paste -sd, -)
stochastic=$(echo "$available" | awk '/[,"]incomplete[,"]/' | cut -d, -f1 | paste -sd, -)
"$bin" bench --solvers "$complete" --budget-ms 0 --warmup-ms 1 --pass-ms 1 --expect -j 2 \
    --quiet --out "$tmp/all" "$tmp/valid.txt" > /dev/null 2> "$tmp/stderr"
check "every complete back end on two threads" $? 0
! grep -q 'LeakSanitizer' "$tmp/stderr"; ok "and nothing leaks" $? "$(head -c 2000 "$tmp/stderr")"
awk -F, 'NR > 1 && $5 !~ /^(unique|multiple)$/ {bad = 1} END {exit bad}' "$tmp/all/runs.csv"
ok "... each answers every puzzle it supports (a declined one has no row)" $? \
    "$(grep -v -e ,unique, -e ,multiple, "$tmp/all/runs.csv")"
"$bin" bench --solvers "$stochastic" --budget-ms 0 --budget-steps 200000 --warmup-ms 1 \
    --pass-ms 1 --expect -j 2 --quiet --out "$tmp/all_stochastic" "$tmp/valid.txt" \
    > /dev/null 2> "$tmp/stderr"
check "every stochastic back end on two threads, at a step budget" $? 0
! grep -q 'LeakSanitizer' "$tmp/stderr"; ok "and nothing leaks" $? "$(head -c 2000 "$tmp/stderr")"
nall=$(echo "$available" | wc -l)
nran=$(awk -F, 'FNR > 1 {print $3}' "$tmp/all/runs.csv" "$tmp/all_stochastic/runs.csv" \
    | sort -u | wc -l)
[ "$nran" -eq "$nall" ]; ok "runs.csv has rows of all $nall back ends" $? "only $nran"

# the plots and the report of that run (scripts/ beside tests/), with gnuplot
scripts=$(cd "$(dirname "$0")/../scripts" && pwd)
if command -v gnuplot > /dev/null; then
    "$scripts/plots.sh" "$out" > /dev/null 2>&1; check "plots.sh" $? 0
    [ -f "$out/plots/cactus-valid.txt.png" ] && [ -f "$out/plots/cactus-valid.txt.svg" ]
    ok "a cactus plot per corpus, PNG and SVG" $?
    [ -f "$out/plots/throughput-1.png" ]; ok "throughput bars" $?
    [ -f "$out/plots/overview.png" ] && [ -f "$out/plots/overview.svg" ]
    ok "the overview: every back end against the baseline, PNG and SVG" $?
    mkdir -p "$out/extra" && printf '## An added section\n' > "$out/extra/section.md"
    "$scripts/report.sh" "$out" > /dev/null 2>&1; check "report.sh" $? 0
    has "report has the corpus table" "$out/REPORT.md" '^### valid.txt (3 puzzles)'
    has "report embeds the cactus plot" "$out/REPORT.md" 'plots/cactus-valid.txt.png'
    has "report includes added sections" "$out/REPORT.md" '^## An added section'
    has "report opens with the answer" "$out/REPORT.md" '^| valid.txt | \*\*[a-z_0-9]*\*\* |'
    has "... and the overview" "$out/REPORT.md" '](plots/overview.png)'
    "$scripts/plots.sh" "$tmp/twelve" > /dev/null 2>&1; check "plots.sh on twelve puzzles" $? 0
    [ -f "$tmp/twelve/plots/comparison.png" ] && [ -f "$tmp/twelve/plots/comparison.svg" ]
    ok "the comparison plot with its intervals, PNG and SVG" $?
    "$scripts/report.sh" "$tmp/twelve" > /dev/null 2>&1; check "report.sh on twelve puzzles" $? 0
    has "the report shows the comparison plot" "$tmp/twelve/REPORT.md" '](plots/comparison.png)'
    "$scripts/plots.sh" "$tmp/se_m" > /dev/null 2>&1; check "plots.sh on a run with ratings" $? 0
    [ -f "$tmp/se_m/plots/er-time.png" ] && [ -f "$tmp/se_m/plots/er-time.svg" ] \
        && [ -f "$tmp/se_m/plots/er-guesses.png" ]
    ok "time and guesses against ER, PNG and SVG" $?
    [ ! -f "$out/plots/er-time.png" ]; ok "no ER plot for a run without ratings" $?
    "$scripts/report.sh" "$tmp/se_m" > /dev/null 2>&1; check "report.sh on a run with ratings" $? 0
    has "the report has the ER section" "$tmp/se_m/REPORT.md" "^## Cost against human difficulty (Sudoku Explainer's ER)"
    has "... counting the rated puzzles" "$tmp/se_m/REPORT.md" '^5 finished puzzles carry a Sudoku Explainer rating'
    ! grep -q 'carry no rating' "$tmp/se_m/REPORT.md"; ok "... and no unrated ones when all are rated" $?
    has "... with a median per ER band and solver" "$tmp/se_m/REPORT.md" '^| 1-2 | [0-9.]* [µms]* (2) |'
    has "... and the plot" "$tmp/se_m/REPORT.md" '](plots/er-time.png)'
    ! grep -q 'Cost against human' "$out/REPORT.md"; ok "no ER section without ratings" $?
    # one rated puzzle and one serate gave up on: the caption counts the latter
    printf '%s ED=1.2/1.0/1.0\n%s ED=20.0/20.0/20.0\n' "$(sed -n 1p "$tmp/se_plain.txt")" \
        "$(sed -n 2p "$tmp/se_plain.txt")" > "$tmp/se_gaveup.txt"
    "$bin" bench --solvers mrv --budget-ms 0 --warmup-ms 1 --pass-ms 0 --quiet --out "$tmp/se_g" \
        "$tmp/se_gaveup.txt" > /dev/null 2>&1
    "$scripts/plots.sh" "$tmp/se_g" > /dev/null 2>&1 && "$scripts/report.sh" "$tmp/se_g" > /dev/null 2>&1
    check "report.sh on a run with an unrated puzzle" $? 0
    has "... the caption counts it, outside the plots" "$tmp/se_g/REPORT.md" '^1 more finished puzzles carry no rating'
else
    echo "# gnuplot not installed: plots and report not checked"
fi

# The ER plot's medians: per half point of ER, over the band's values
# whatever the ratings within it (2.6 and 2.8 share the band 2.5-3.0)
printf '2.6 5\n2.8 1\n2.6 3\n3.0 7\n' | awk '{print int($1 / 0.5 + 1e-9), $2}' \
    | sort -k1,1n -k2,2g | awk -f "$scripts/er-bands.awk" -v width=0.5 > "$tmp/bands"
printf '2.75 3 3\n3.25 7 1\n' > "$tmp/want"
same "medians per ER band" "$tmp/bands" "$tmp/want"

# The report's reading of the intervals and of the noise, on a run made up
# so that the answers are known: b's interval holds 1, c's does not, d has
# too few puzzles; other processes kept the machine busy.
fake="$tmp/fake"
mkdir -p "$fake"
cat > "$fake/env.txt" <<'EOT'
cpu: Made-up CPU 9000
baseline: a
solvers: a b c d
isa_path: a avx2
isa_path: b generic
isa_path: c portable
isa_path: d generic
native: no
loadavg_before: 1.50 1.20 1.00
loadavg_after: 2.10 1.40 1.10
quiet: no (other processes kept 0.85 cores busy, 42% of the machine)
EOT
{
    echo "corpus,solver,puzzles,unique,finished,median_ns,speedup_vs_baseline,speedup_ci_low,speedup_ci_high,speedup_pairs,pass_best_puzzles_per_s,pass_median_puzzles_per_s,pass_q1_puzzles_per_s,pass_q3_puzzles_per_s"
    echo "x.txt,a,20,20,20,1000,1.0000,1.0000,1.0000,20,5000,4800,4700,4900"
    echo "x.txt,b,20,20,20,990,1.0100,0.9500,1.0700,20,,,,"
    echo "x.txt,c,20,20,20,500,2.0000,1.8000,2.2000,20,,,,"
    echo "x.txt,d,20,20,5,400,2.5000,,,5,,,,"
} > "$fake/summary.csv"
"$scripts/report.sh" "$fake" > /dev/null 2>&1; check "report.sh on a made-up run" $? 0
has "a ratio whose interval holds 1 is no measurable difference" "$fake/REPORT.md" \
    '^| b | generic | 20 | 1.01x | \[0.95, 1.07\] | no measurable difference |'
has "one whose interval lies above 1 is faster" "$fake/REPORT.md" \
    '^| c | portable | 20 | 2x | \[1.8, 2.2\] | faster |'
has "too few puzzles: no interval" "$fake/REPORT.md" '^| d | generic | 5 | 2.5x | - | no interval'
has "the baseline's throughput with its spread" "$fake/REPORT.md" \
    '^| a | avx2 | 20 | 1x | - | baseline | 5000 | 4800 | 4700-4900 |'
has "the per-corpus table marks it too" "$fake/REPORT.md" '| 1.01x \[0.95, 1.07\] no measurable difference |$'
has "each ratio names the CPU and the paths" "$fake/REPORT.md" \
    '^Ratios measured on Made-up CPU 9000; instruction-set paths: a avx2, b generic, c portable, d generic\.$'
has "the comparison names the baseline's path and the CPU" "$fake/REPORT.md" \
    '^### x.txt: against a (avx2) on Made-up CPU 9000$'
has "the report warns that the machine was not quiet" "$fake/REPORT.md" \
    '^> \*\*Warning: the machine was not quiet during this run:\*\*$'
has "... saying why" "$fake/REPORT.md" '^> other processes kept 0.85 cores busy, 42% of the machine;$'
has "... with the load average" "$fake/REPORT.md" '^> load average 1.50 1.20 1.00 before, 2.10 1.40 1.10 after.$'
sed -i 's/^quiet: .*/quiet: yes/' "$fake/env.txt"
"$scripts/report.sh" "$fake" > /dev/null 2>&1
! grep -q 'not quiet' "$fake/REPORT.md"; ok "a quiet run has no warning" $?

# --seeds: an incomplete back end runs each puzzle K times (seeds S..S+K-1, in
# the last column), a complete one once; the summary counts the runs apart.
seeded="$tmp/seeded"
"$bin" bench --solvers mrv,acs --seeds 3 --seed 40 --budget-ms 0 --budget-steps 200000 \
    --warmup-ms 1 --pass-ms 1 --limit 2 --out "$seeded" "$tmp/valid.txt" > "$tmp/stdout" 2> "$tmp/stderr"
check "bench --seeds 3 with mrv and acs" $? 0
has "acs is run at limit 1, with a note" "$tmp/stderr" 'acs is incomplete (stochastic search): it runs at limit 1'
! grep -q DISAGREEMENT "$tmp/stdout"; ok "acs's limit-1 answers are no disagreement" $?
[ "$(head -1 "$seeded/runs.csv" | awk -F, '{print $NF}')" = seed ]; ok "runs.csv ends with seed" $?
[ "$(awk -F, '$3 == "mrv"' "$seeded/runs.csv" | wc -l)" -eq 3 ]; ok "mrv runs once a puzzle" $?
awk -F, '$3 == "acs" {s[$2 "," $NF]++; n++} END {exit !(n == 9 && length(s) == 9)}' \
    "$seeded/runs.csv"
ok "acs runs three times a puzzle, seeds 40 to 42" $?
awk -F, '$3 == "acs" && ($NF < 40 || $NF > 42 || $NF != 39 + $4) {bad = 1} END {exit bad}' \
    "$seeded/runs.csv"
ok "run r has seed 40 + r - 1" $?
awk -F, '$3 == "mrv" && $NF != "" {bad = 1} END {exit bad}' "$seeded/runs.csv"
ok "a complete back end's seed cell is empty" $?
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $2 == "acs" && !($c["runs"] == 9 && $c["run_successes"] <= 9 && $c["success_rate"] != "") {bad = 1}
    $2 == "mrv" && $c["runs"] != 3 {bad = 1} END {exit bad}' "$seeded/summary.csv"
ok "summary.csv: runs, successes and their share per back end" $?
has "env.txt has seeds" "$seeded/env.txt" '^seeds: 3$'
"$bin" bench --solvers acs --seeds 2 --repeat 2 "$tmp/valid.txt" > /dev/null 2> "$tmp/stderr"
check "--seeds with --repeat is refused" $? 2
has "... saying why" "$tmp/stderr" '--seeds and --repeat do not combine'

# --sample 2: naive (not marked fast) is timed on the first two entries of the
# corpus, mrv (fast) on all three; summary.csv counts naive's third apart,
# --se-rate rates the sample only, and the shards of a sampled run merge into
# the same rows.
sampled="$tmp/sampled"
"$bin" bench --solvers naive,mrv --budget-ms 0 --sample 2 --se-rate --warmup-ms 1 --pass-ms 0 --quiet \
    --out "$sampled" "$tmp/valid.txt" > /dev/null 2> "$tmp/stderr"
check "bench --sample 2" $? 0
[ "$(awk -F, '$3 == "naive"' "$sampled/runs.csv" | wc -l)" -eq 2 ]
ok "naive is timed on two puzzles" $?
awk -F, '$3 == "naive" && $2 > 2 {bad = 1} END {exit bad}' "$sampled/runs.csv"
ok "... the first two" $?
[ "$(awk -F, '$3 == "mrv"' "$sampled/runs.csv" | wc -l)" -eq 3 ]; ok "mrv on all three" $?
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    !($2 == "naive" && $c["unsampled"] == 1 && $c["pending"] == 0 && $c["speedup_pairs"] == 2 \
      || $2 == "mrv" && $c["unsampled"] == 0 && $c["speedup_pairs"] == 2) {bad = 1}
    END {exit bad}' "$sampled/summary.csv"
ok "summary.csv counts the unsampled apart, the ratio over the sample" $? \
    "$(cat "$sampled/summary.csv")"
has "env.txt has the sample" "$sampled/env.txt" '^sample: 2$'
head -1 "$tmp/valid.txt" | sed 's/:1$//' > "$tmp/royle3.txt"
sed -n 1p "$tmp/royle3.txt" >> "$tmp/royle3.txt" && sed -n 1p "$tmp/royle3.txt" >> "$tmp/royle3.txt"
"$bin" bench --solvers mrv --budget-ms 0 --sample 2 --se-rate --warmup-ms 1 --pass-ms 0 --quiet \
    --out "$tmp/sampled_se" "$tmp/royle3.txt" > /dev/null 2>&1
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    ($2 <= 2) != ($c["se_er"] != "") {bad = 1} END {exit bad}' "$tmp/sampled_se/runs.csv"
ok "--se-rate rates the sample only" $? "$(cat "$tmp/sampled_se/runs.csv")"
for k in 1 2; do
    "$bin" bench --solvers naive,mrv --budget-ms 0 --sample 2 --warmup-ms 1 --pass-ms 0 --quiet \
        --shard $k/2 --out "$tmp/sampled_s$k" "$tmp/valid.txt" > /dev/null 2>&1
done
"$bin" merge --quiet --out "$tmp/sampled_m" "$tmp/sampled_s1" "$tmp/sampled_s2" \
    > /dev/null 2> "$tmp/stderr"
check "merge of sampled shards" $? 0
cut -d, -f1-4 "$sampled/runs.csv" | sort > "$tmp/a"
cut -d, -f1-4 "$tmp/sampled_m/runs.csv" | sort > "$tmp/b"
same "... has the single run's rows" "$tmp/a" "$tmp/b"
awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
    $2 == "naive" && !($c["unsampled"] == 1 && $c["unsupported"] == 0) {bad = 1} END {exit bad}' \
    "$tmp/sampled_m/summary.csv"
ok "... and counts naive's third as unsampled" $? "$(cat "$tmp/sampled_m/summary.csv")"
# merge of --seeds shards: the seed column stays, the same as the whole run's;
# shards run with other seeds are refused
# (a step budget, no deadline: the same seed gives the same rows under any load)
seeded_opts="--solvers mrv,acs --seeds 3 --seed 40 --budget-ms 0 --budget-steps 200000"
seeded_opts="$seeded_opts --warmup-ms 1 --pass-ms 1 --limit 2"
for k in 1 2; do
    # shellcheck disable=SC2086
    "$bin" bench $seeded_opts --shard $k/2 --quiet --out "$tmp/seeded_s$k" "$tmp/valid.txt" \
        > /dev/null 2>&1
done
"$bin" merge --quiet --out "$tmp/seeded_m" "$tmp/seeded_s1" "$tmp/seeded_s2" > /dev/null 2>&1
check "merge of --seeds shards" $? 0
[ "$(head -1 "$tmp/seeded_m/runs.csv")" = "$(head -1 "$seeded/runs.csv")" ]
ok "the merged header has the seed column" $?
sort "$seeded/runs.csv" | cut -d, -f1-6,13- > "$tmp/a"
sort "$tmp/seeded_m/runs.csv" | cut -d, -f1-6,13- > "$tmp/b"
same "merged = the single run: its rows and their seeds" "$tmp/a" "$tmp/b"
has "the merged env.txt has seeds" "$tmp/seeded_m/env.txt" '^seeds: 3$'
# shellcheck disable=SC2086
"$bin" bench $seeded_opts --seed 41 --shard 2/2 --quiet --out "$tmp/seeded_s2b" "$tmp/valid.txt" \
    > /dev/null 2>&1
"$bin" merge --quiet --out "$tmp/seeded_m2" "$tmp/seeded_s1" "$tmp/seeded_s2b" > /dev/null \
    2> "$tmp/stderr"
check "merge of shards run with other seeds is refused" $? 2
has "... naming the seed" "$tmp/stderr" "different runs: 'seed=40' against 'seed=41'"

tap_end
