#!/bin/sh
# scripts/report.sh's first screen on a bench folder made up so that the
# answer is known: which back end is fastest on each corpus, the next one,
# the lead and its interval, the machine and its noise, the sample and the
# stages. No program runs: the folder is written here.
# Usage: test_report.sh
set -u
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
scripts=$(cd "$(dirname "$0")/../scripts" && pwd)
dir=$tmp/run
mkdir -p "$dir"
cat > "$dir/env.txt" << 'EOT'
date: 2026-11-27T00:00:00Z
host: box
cpu: Made-up CPU 9000
cores_online: 2
cores_usable: 2
compiler: gcc 12.2.0
buildtype: release
git_revision: abc1234
solvers: a b b_avx2 c auto f
baseline: a
budget_ms: 100
head: 12
sample: 2
loadavg_before: 0.10 0.20 0.30
loadavg_after: 0.40 0.50 0.60
quiet: yes
EOT
printf 'setup 1\nbuild 30\nbench 125\nfigures 20\n' > "$dir/stages.txt"

# runs.csv: row CORPUS SOLVER FIRST LAST NS [STATUS] for entries FIRST..LAST
runs=$dir/runs.csv
echo "corpus,index,solver,repeat,status,solutions,steps,guesses,backtracks,nodes,article_steps,time_ns" > "$runs"
row() {
    awk -v c="$1" -v s="$2" -v a="$3" -v b="$4" -v t="$5" -v st="${6:-unique}" 'BEGIN {
        for (i = a; i <= b; i++) printf "%s,%d,%s,1,%s,1,1,0,0,1,,%s\n", c, i, s, st, t }' >> "$runs"
}
# x.txt, 12 puzzles: b is fastest; its AVX2 path and auto, close behind, are
# passed over for the next, c, three times slower on every puzzle; a, the
# sampled baseline, is slowest
row x.txt a 1 2 1000
row x.txt b 1 12 100
row x.txt b_avx2 1 12 110
row x.txt c 1 12 300
row x.txt auto 1 12 101
# y.txt: a is timed on its sample only and is fastest there, twice b
row y.txt a 1 2 50
row y.txt b 1 12 100
row y.txt c 1 12 400
# z.txt: c is the quickest on the one puzzle it finishes, but runs out of
# budget on the others, which count twice the budget: b is fastest
row z.txt a 1 2 5000
row z.txt b 1 12 100
row z.txt c 1 1 10
row z.txt c 2 12 100000000 limit
# w.txt: f, quickest, does not handle every puzzle: b is fastest of the others
row w.txt a 1 2 5000
row w.txt b 1 12 100
row w.txt c 1 12 1000
row w.txt f 1 6 10
{
    echo "corpus,solver,puzzles,unique,limit,unsupported,finished,median_ns,speedup_vs_baseline,unsampled"
    for c in x.txt y.txt z.txt w.txt; do
        for s in a b b_avx2 c auto f; do
            rows=$(awk -F, -v c="$c" -v s="$s" '$1 == c && $3 == s' "$runs" | wc -l)
            [ "$rows" -gt 0 ] || continue
            unsampled=0
            [ "$s" = a ] && unsampled=10
            unsupported=0
            [ "$s" = f ] && unsupported=6
            echo "$c,$s,12,$rows,0,$unsupported,$rows,100,1.0,$unsampled"
        done
    done
} > "$dir/summary.csv"

"$scripts/report.sh" "$dir" > /dev/null 2> "$tmp/stderr"
check "report.sh on a made-up run" $? 0
report=$dir/REPORT.md
[ "$(grep -m1 '^## ' "$report")" = "## The answer" ]
ok "the answer is the first section" $? "$(grep '^## ' "$report" | head -3)"
first=$(sed -n '1,/^## Results per corpus/p' "$report" | wc -l)
[ "$first" -le 60 ]; ok "... and it fits a screen ($first lines)" $?
has "the machine: CPU, cores and threads" "$report" \
    '^Measured on Made-up CPU 9000 (2 cores usable of 2), timed on one thread; gcc 12.2.0, release build'
has "... and whether it was quiet, with the load" "$report" \
    '^The machine was quiet: .* load average 0.10 at the start and 0.40 at the end\.$'
has "x.txt: b, ahead of c (its AVX2 path and auto passed over) by 3x on 12 puzzles" "$report" \
    '^| x.txt | \*\*b\*\* | 0.10 µs | \*\*3x\*\* | \[3, 3\] | c | 12 |$'
has "y.txt: a on its sample, twice b, too few puzzles for an interval" "$report" \
    '^| y.txt | \*\*a\*\* | 0.05 µs | \*\*2x\*\* | - (under 10 puzzles) | b | 2 |$'
has "z.txt: a puzzle run out of budget counts twice the budget" "$report" '^| z.txt | \*\*b\*\* |'
has "w.txt: a back end that does not handle every puzzle is not a candidate" "$report" \
    '^| w.txt | \*\*b\*\* | 0.10 µs | \*\*10x\*\* | \[10, 10\] | c | 12 |$'
has "the sample is stated" "$report" 'the others (a) on the first 2, the sample'
has "the ranking is over the sample" "$report" 'over the first 2 puzzles, which every back end was timed on'
has "the baseline is named, and that it finished every puzzle it was timed on" "$report" \
    '^The baseline is `a`, which finished every puzzle it was timed on in every corpus'
has "the job's time by stage" "$report" 'The job took 2:56 (setup 0:01, build 0:30, bench 2:05, figures 0:20)\.'
has "the per-corpus tables follow" "$report" '^### x.txt (12 puzzles)$'
has "... with the unsampled puzzles counted" "$report" '^| solver | unique | unsampled |'

# a baseline that left puzzles unfinished: the report names where; two
# threads: the machine line says how the cells shared them
sed -i 's/^z.txt,a,12,2,0,0,2,/z.txt,a,12,1,1,0,1,/' "$dir/summary.csv"
echo 'threads: 2' >> "$dir/env.txt"
"$scripts/report.sh" "$dir" > /dev/null 2>&1
has "a baseline's unfinished puzzles are named by corpus" "$report" \
    '^The baseline is `a`; it left puzzles unfinished in z.txt (1 of 2), where'
has "two threads: each back end x corpus on one thread" "$report" \
    'timed on 2 threads, each back end x corpus on one thread from start to end, 2 at once;'

# a lead whose interval holds 1 is no measurable difference: c is b's time
# give or take 10% on alternate puzzles
head -1 "$runs" > "$tmp/runs" && mv "$tmp/runs" "$runs"
row v.txt b 1 12 100
awk 'BEGIN { for (i = 1; i <= 12; i++) printf "v.txt,%d,c,1,unique,1,1,0,0,1,,%d\n", i, (i % 2 ? 90 : 110) }' >> "$runs"
printf 'corpus,solver,puzzles,unique,unsupported\nv.txt,b,12,12,0\nv.txt,c,12,12,0\n' > "$dir/summary.csv"
"$scripts/report.sh" "$dir" > /dev/null 2>&1
has "an interval holding 1 is no measurable difference" "$report" \
    '^| v.txt | \*\*[bc]\*\* | .* \[[0-9.]*, [0-9.]*\] no measurable difference | [bc] | 12 |$'

# a noisy machine says so on the first screen
sed -i 's/^quiet: .*/quiet: no (other processes kept 1.50 cores busy, 75% of the machine)/' "$dir/env.txt"
"$scripts/report.sh" "$dir" > /dev/null 2>&1
sed -n '1,/^## The answer/p' "$report" > "$tmp/top"
has "a noisy machine is named before the answer" "$tmp/top" \
    '^> other processes kept 1.50 cores busy, 75% of the machine;$'
tap_end
