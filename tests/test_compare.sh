#!/bin/sh
# `sudolab compare OLD NEW`. Made-up bench folders with constructed times
# test the statistics exactly: constant ratios, a threshold, status and
# counter changes, whole passes, bad lines, refusals and --fail-slower. Real
# runs test what load cannot change: two runs of one build have identical
# counters and no status change; a back end that does 50 times the work (a
# test plug-in, given PLUGIN_DIR) is flagged slower. No clock decides a check.
# Usage: test_compare.sh SUDOLAB [PLUGIN_DIR]
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
plugins=${2:-}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)

# fake DIR [KEY=VALUE...]: env.txt of a finished bench run, any key replaced
fake_env() {
    dir=$1
    shift
    mkdir -p "$dir"
    cat > "$dir/env.txt" <<'EOT'
date: 2026-01-01T00:00:00Z
host: testhost
cpu: Made-up CPU
compiler: gcc 12.2.0
buildtype: release
git_revision: 1111111
limit: 2
budget_ms: 1000
budget_steps: 0
repeat: 1
permute: no
tdoku_protocol: no
seed: 1
head: 0
shard: 1/1
corpus_fingerprint: c.txt 20 00000000000000aa
quiet: yes
runs_pending: 0
finished: complete
EOT
    for kv in "$@"; do
        key=${kv%%=*}
        value=${kv#*=}
        sed "s|^$key: .*|$key: $value|" "$dir/env.txt" > "$dir/env.new"
        mv "$dir/env.new" "$dir/env.txt"
    done
}

# rows SOLVER FACTOR [GUESSES] [LIMIT_INDEX]: runs.csv rows of 20 puzzles of
# c.txt, puzzle i taking (100000 + 1000 i) ns times FACTOR; FACTOR "alt"
# alternates 1.01 and 1.03. Each puzzle makes GUESSES guesses (default i);
# puzzle LIMIT_INDEX ends at the budget.
rows() {
    awk -v solver="$1" -v factor="$2" -v guesses="${3:-}" -v limit="${4:-0}" 'BEGIN {
        for (i = 1; i <= 20; i++) {
            f = factor == "alt" ? (i % 2 ? 1.01 : 1.03) : factor
            status = i == limit ? "limit" : "unique"
            g = guesses == "" ? i : guesses
            printf "c.txt,%d,%s,1,%s,%d,%d,%d,0,%d,,%.0f\n", i, solver, status,
                status == "unique", 10 * i, g, 2 * i, (100000 + 1000 * i) * f
        }
    }'
}

header='corpus,index,solver,repeat,status,solutions,steps,guesses,backtracks,nodes,article_steps,time_ns'

# run DIR SOLVER FACTOR [GUESSES] [LIMIT_INDEX]: a fake run folder's runs.csv
run() {
    { echo "$header"; rows "$2" "$3" "${4:-}" "${5:-0}"; } > "$1/runs.csv"
}

# col FILE SOLVER COLUMN: a cell of compare's CSV by its column's name
col() {
    awk -F, -v solver="$2" -v name="$3" \
        'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == solver {print $c[name]}' "$1"
}

fake_env "$tmp/old"
run "$tmp/old" a 1
fake_env "$tmp/same"
run "$tmp/same" a 1
"$bin" compare --csv "$tmp/same.csv" "$tmp/old" "$tmp/same" > "$tmp/same.md" 2> "$tmp/err"
check "the same times: compared" $? 0
[ "$(col "$tmp/same.csv" a ratio),$(col "$tmp/same.csv" a ratio_low),$(col "$tmp/same.csv" a ratio_high)" = "1,1,1" ]
ok "the same times: ratio 1, interval [1, 1]" $? "$(cat "$tmp/same.csv")"
[ "$(col "$tmp/same.csv" a verdict)" = "no measurable difference" ]
ok "... no measurable difference" $?
[ "$(col "$tmp/same.csv" a counters),$(col "$tmp/same.csv" a pairs),$(col "$tmp/same.csv" a status_changes)" = "identical,20,0" ]
ok "... identical counters over 20 pairs, no status change" $?
has "the Markdown table row" "$tmp/same.md" '^| a | c.txt | 20 | 1.000 \[1.000, 1.000\] | no measurable difference | - | identical | identical | 0 |$'
has "the Markdown names the bootstrap" "$tmp/same.md" '^resamples, seed 0x5d01ab, from 10 puzzles'
"$bin" compare --fail-slower 0 "$tmp/old" "$tmp/same" > /dev/null 2>&1
check "--fail-slower 0 passes when nothing is slower" $? 0

# twice the time on every puzzle; guesses 0 -> 1: (1 + 1) / (0 + 1) = 2
fake_env "$tmp/old0"
run "$tmp/old0" a 1 0
fake_env "$tmp/slow"
run "$tmp/slow" a 2 1
"$bin" compare --csv - "$tmp/old0" "$tmp/slow" > "$tmp/slow.csv" 2> "$tmp/err"
check "twice the time: compared" $? 0
[ "$(col "$tmp/slow.csv" a ratio),$(col "$tmp/slow.csv" a ratio_low),$(col "$tmp/slow.csv" a ratio_high)" = "2,2,2" ]
ok "twice the time: ratio 2, interval [2, 2]" $? "$(cat "$tmp/slow.csv")"
[ "$(col "$tmp/slow.csv" a verdict)" = slower ]
ok "... slower" $?
[ "$(col "$tmp/slow.csv" a guesses_ratio),$(col "$tmp/slow.csv" a nodes_ratio),$(col "$tmp/slow.csv" a counters)" = "2,1,changed" ]
ok "... guesses 2x, nodes the same, counters changed" $? "$(cat "$tmp/slow.csv")"
"$bin" compare --fail-slower 50 "$tmp/old0" "$tmp/slow" > /dev/null 2> "$tmp/err"
check "--fail-slower 50 fails on 2x" $? 1
has "... naming the back end, the corpus and the interval" "$tmp/err" \
    'a on c.txt is slower by more than 50%: NEW/OLD 2.000 \[2.000, 2.000\]'
"$bin" compare --fail-slower 150 "$tmp/old0" "$tmp/slow" > /dev/null 2>&1
check "--fail-slower 150 passes 2x" $? 0
"$bin" compare --csv - "$tmp/slow" "$tmp/old0" > "$tmp/fast.csv" 2> /dev/null
[ "$(col "$tmp/fast.csv" a ratio),$(col "$tmp/fast.csv" a verdict)" = "0.5,faster" ]
ok "the other way round: 0.5, faster" $? "$(cat "$tmp/fast.csv")"

# ratios 1.01 and 1.03 alternating: about 1.02, the interval well inside
# [1.005, 1.035] -- slower beyond 0.5%, not beyond 2%
fake_env "$tmp/alt"
run "$tmp/alt" a alt
"$bin" compare --csv - "$tmp/old" "$tmp/alt" > "$tmp/alt2.csv" 2> /dev/null
"$bin" compare --threshold 0.5 --csv - "$tmp/old" "$tmp/alt" > "$tmp/alt05.csv" 2> /dev/null
[ "$(col "$tmp/alt2.csv" a verdict)" = "no measurable difference" ]
ok "1.01/1.03: no measurable difference at the default 2%" $? "$(cat "$tmp/alt2.csv")"
[ "$(col "$tmp/alt05.csv" a verdict)" = slower ]
ok "... slower at --threshold 0.5" $? "$(cat "$tmp/alt05.csv")"
awk -F, 'NR == 2 {exit !($6 > 1.0199 && $6 < 1.0200 && $7 > 1.005 && $7 < 1.02 && $8 > 1.02 && $8 < 1.03)}' "$tmp/alt05.csv"
ok "... geometric mean sqrt(1.01 x 1.03), its interval between them" $? "$(cat "$tmp/alt05.csv")"

# puzzle 3 ends at the budget in NEW: listed as news, left out of the ratios
fake_env "$tmp/limit"
run "$tmp/limit" a 1 "" 3
"$bin" compare --csv "$tmp/limit.csv" "$tmp/old" "$tmp/limit" > "$tmp/limit.md" 2> /dev/null
check "a puzzle at the budget: compared" $? 0
[ "$(col "$tmp/limit.csv" a pairs),$(col "$tmp/limit.csv" a status_changes),$(col "$tmp/limit.csv" a newly_unfinished)" = "19,1,1" ]
ok "... 19 pairs, 1 change, 1 newly unfinished" $? "$(cat "$tmp/limit.csv")"
has "... listed as news" "$tmp/limit.md" '^- \*\*unique -> limit\*\* (1): 3$'
has "... and counted in the table" "$tmp/limit.md" '^| a | c.txt | 19 of 20 | '

# whole passes from summary.csv: median 1000 -> 500 puzzles/s is twice the
# time; quartiles 900-1100 and 450-550 give [900/550, 1100/450]
printf 'corpus,solver,pass_median_puzzles_per_s,pass_q1_puzzles_per_s,pass_q3_puzzles_per_s\nc.txt,a,1000,900,1100\n' \
    > "$tmp/old0/summary.csv"
printf 'corpus,solver,pass_median_puzzles_per_s,pass_q1_puzzles_per_s,pass_q3_puzzles_per_s\nc.txt,a,500,450,550\n' \
    > "$tmp/slow/summary.csv"
"$bin" compare --csv - "$tmp/old0" "$tmp/slow" > "$tmp/pass.csv" 2> /dev/null
[ "$(col "$tmp/pass.csv" a pass_ratio),$(col "$tmp/pass.csv" a pass_ratio_low),$(col "$tmp/pass.csv" a pass_ratio_high)" = "2,1.63636,2.44444" ]
ok "whole passes: 2 [1.636, 2.444]" $? "$(cat "$tmp/pass.csv")"

# what differs but may be compared is named; a back end in one run only too
fake_env "$tmp/other" "cpu=Another CPU" "compiler=clang 19" "git_revision=2222222" \
    "buildtype=debugoptimized" "quiet=no (made up)"
{ echo "$header"; rows a 1; rows b 1; } > "$tmp/other/runs.csv"
"$bin" compare "$tmp/old" "$tmp/other" > "$tmp/other.md" 2> "$tmp/err"
check "another CPU, compiler, revision, build type: compared" $? 0
for fact in 'cpu | Made-up CPU | Another CPU' 'compiler | gcc 12.2.0 | clang 19' \
    'git_revision | 1111111 | 2222222' 'buildtype | release | debugoptimized' 'quiet | yes | no (made up)'; do
    has "... names $fact" "$tmp/other.md" "^| $fact |\$"
done
has "... says NEW was not quiet" "$tmp/other.md" '^\*\*Not quiet\*\*: NEW shared the machine'
has "... names the back end only NEW has" "$tmp/other.md" '^- solver b: only in NEW$'

# a bad row is said as file:line and left out; the rest is compared
fake_env "$tmp/bad"
{ echo "$header"; rows a 1 | sed '4s/unique/sideways/'; } > "$tmp/bad/runs.csv"
"$bin" compare --csv - "$tmp/old" "$tmp/bad" > "$tmp/bad.csv" 2> "$tmp/err"
check "a bad row: exit 1" $? 1
has "... said as file:line: reason" "$tmp/err" "bad/runs.csv:5: unknown status 'sideways'"
[ "$(col "$tmp/bad.csv" a pairs)" = 19 ]; ok "... the other 19 compared" $?

# refused: each reason named, nothing written, exit 2
refused() { # refused NAME PATTERN KEY=VALUE...
    name=$1 pattern=$2
    shift 2
    fake_env "$tmp/ref" "$@"
    run "$tmp/ref" a 1
    "$bin" compare --output "$tmp/ref.md" "$tmp/old" "$tmp/ref" > /dev/null 2> "$tmp/err"
    check "refused: $name" $? 2
    has "... with the reason" "$tmp/err" "$pattern"
    [ ! -e "$tmp/ref.md" ]; ok "... and nothing written" $?
    rm -rf "$tmp/ref"
}
refused "another limit" "limit: '2' against '1'" limit=1
refused "another budget" "budget_ms: '1000' against '250'" budget_ms=250
refused "other puzzles under the same name" \
    "corpus c.txt: '20 00000000000000aa' against '20 00000000000000bb' (other puzzles)" \
    "corpus_fingerprint=c.txt 20 00000000000000bb"
refused "another --head" "head: '0' against '100'" head=100
refused "permuted against not" "permute: 'no' against 'yes'" permute=yes
refused "an unfinished run" "did not finish (interrupted, 12 runs pending)" \
    "finished=interrupted" "runs_pending=12"
refused "a shard" "shard 1/2 of a run: merge the shards first" shard=1/2
fake_env "$tmp/p1" permute=yes seed=1
run "$tmp/p1" a 1
fake_env "$tmp/p2" permute=yes seed=2
run "$tmp/p2" a 1
"$bin" compare "$tmp/p1" "$tmp/p2" > /dev/null 2> "$tmp/err"
check "refused: other permutations (another seed)" $? 2
has "... with the reason" "$tmp/err" "seed: '1' against '2'"
mkdir "$tmp/empty"
"$bin" compare "$tmp/old" "$tmp/empty" > /dev/null 2> "$tmp/err"
check "refused: a folder that is not a run" $? 2
has "... saying so" "$tmp/err" 'empty/env.txt: cannot be read: not a bench --out folder?'
"$bin" compare "$tmp/old" > /dev/null 2>&1
check "one folder: a usage error" $? 2

# the plot, when gnuplot is here
if command -v gnuplot > /dev/null 2>&1; then
    cat "$tmp/pass.csv" > "$tmp/plot.csv"
    tail -n +2 "$tmp/alt05.csv" | sed 's/^a,/b,/' >> "$tmp/plot.csv"
    gnuplot -e "csv='$tmp/plot.csv'; out='$tmp/plot'; sdir='$root/scripts'" \
        "$root/scripts/compare.gp" 2> "$tmp/gp.err"
    [ -s "$tmp/plot.png" ] && [ -s "$tmp/plot.svg" ]
    ok "scripts/compare.gp draws the CSV" $? "$(cat "$tmp/gp.err")"
else
    skip "scripts/compare.gp draws the CSV" "no gnuplot"
fi

# Real runs. Two runs of one build: the same answers and the same search on
# every puzzle; whether the times differ is the machine's business. No deadline
# (--budget-ms 0): mrv and dlx finish, and a timed-out row would not be identical.
corpus="$root/datasets/generated/9x9_dig_hard.txt"
bench() { # bench DIR SOLVERS
    "$bin" bench --solvers "$2" --head 30 --budget-ms 0 --warmup-ms 1 --pass-ms 1 \
        --out "$1" "$corpus" > /dev/null 2>&1
}
bench "$tmp/r1" mrv,dlx
bench "$tmp/r2" mrv,dlx
"$bin" compare --csv "$tmp/real.csv" --output "$tmp/real.md" "$tmp/r1" "$tmp/r2" 2> "$tmp/err"
check "two runs of one build: compared" $? 0
[ "$(awk -F, 'NR > 1 && $15 == "identical" && $16 == 0 && $5 == 30' "$tmp/real.csv" | wc -l)" -eq 2 ]
ok "... both back ends: 30 pairs, identical counters, no status change" $? "$(cat "$tmp/real.csv")"
awk -F, 'NR > 1 && $9 !~ /^(faster|slower|no measurable difference)$/ {bad = 1} END {exit bad}' "$tmp/real.csv"
ok "... each with a verdict" $?
has "... the whole passes compared" "$tmp/real.md" '^| mrv | 9x9_dig_hard.txt | 30 | [0-9.]* \[[0-9.]*, [0-9.]*\] | [^|]* | [0-9.]* \[[0-9.]*, [0-9.]*\] | identical | identical | 0 |$'

# A back end slowed 50 times by its work (the same search run 50 times a
# puzzle), under one label in both runs: slower, whatever the load.
if [ -n "$plugins" ] && [ -f "$plugins/plugin_native_slow.so" ]; then
    bench "$tmp/s1" "subject=so:$plugins/plugin_native.so"
    bench "$tmp/s2" "subject=so:$plugins/plugin_native_slow.so"
    "$bin" compare --fail-slower 100 --csv "$tmp/s.csv" "$tmp/s1" "$tmp/s2" > /dev/null 2> "$tmp/err"
    check "a back end doing 50x the work fails --fail-slower 100" $? 1
    [ "$(col "$tmp/s.csv" subject verdict),$(col "$tmp/s.csv" subject counters)" = "slower,identical" ]
    ok "... slower, with identical counters" $? "$(cat "$tmp/s.csv")"
    has "... naming it" "$tmp/err" 'subject on 9x9_dig_hard.txt is slower by more than 100%'
else
    skip "a back end doing 50x the work is flagged slower" "no test plug-ins built"
fi

tap_end
