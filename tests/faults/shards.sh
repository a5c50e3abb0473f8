#!/bin/sh
# Fault battery, shards and merge: shards of other corpora, options or builds
# are refused with the difference named; a missing, duplicated, truncated or
# torn shard is named; a shard whose run failed brings its run's own words
# into merge's message. And `count --shard` and `generate --shard`, which
# write to standard output (no file of their own to resume), killed with
# SIGINT, SIGTERM and SIGKILL at 3 seeded points each: the partial output is
# refused by merge as incomplete, never merged, and running the shard again
# gives the uninterrupted merge. Prints the table. Usage: shards.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
# absolute: the cases run in the temporary directory
case $bin in */*) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
# shellcheck source=tests/faults/lib.sh
. "$here/lib.sh"
seed=${FAULTS_SEED:-18}
cd "$tmp" || exit 1

# refused FAULT COMMAND PATTERN ARGS...: sudolab merge ARGS fails (status 1
# or 2, nothing on stdout) and says PATTERN
refused() {
    fault=$1 label=$2 pattern=$3
    shift 3
    "$bin" merge "$@" > out 2> err
    st=$? outcome="exit $st"
    [ "$st" -eq 1 ] || [ "$st" -eq 2 ]
    stat=$?
    [ -s out ] && outcome="$outcome, output written" && stat=1
    grep -q -- "$pattern" err && outcome="$outcome, named" || stat=1
    ok "$fault: merge refuses and says why" $stat "$outcome: $(head -c 300 err)"
    row "$fault" "$label" "exit 1-2, \`$pattern\`" "$outcome"
}

p4='1....2....3....4'
printf '%s\n' "$p4" '................' '43....34.1.....1' '43....34.......1' > a.txt
printf '%s\n' "$p4" '................' > b.txt
o="--solver naive --quiet --pass-ms 0 --warmup-ms 0"
for k in 1 2; do
    "$bin" bench $o --shard $k/2 --out s$k a.txt > /dev/null 2>&1
done
"$bin" bench $o --shard 2/2 --out corpus2 b.txt > /dev/null 2>&1
"$bin" bench $o --limit 1 --shard 2/2 --out limit2 a.txt > /dev/null 2>&1
"$bin" bench $o --shard 2/3 --out third a.txt > /dev/null 2>&1
"$bin" merge --quiet --out whole s1 s2 > /dev/null 2>&1
check "bench shards that belong together merge" $? 0

refused "bench shard of another corpus" "merge --out (bench)" \
    "s1 and corpus2 come from different runs: 'corpus=a.txt" --quiet --out m s1 corpus2
refused "bench shard with other options" "merge --out (bench)" \
    "s1 and limit2 come from different runs: 'limit=2' against 'limit=1'" \
    --quiet --out m s1 limit2
cp -r s2 gcc2 && sed -i 's/^compiler: .*/compiler: othercc 1.0/' gcc2/env.txt
refused "bench shard of another compiler" "merge --out (bench)" \
    "s1 and gcc2 come from different builds: 'compiler=" --quiet --out m s1 gcc2
cp -r s2 rev2 && sed -i 's/^git_revision: .*/git_revision: 0000000/' rev2/env.txt
refused "bench shard of another revision" "merge --out (bench)" \
    "s1 and rev2 come from different builds: 'git_revision=" --quiet --out m s1 rev2
refused "bench shards of another split" "merge --out (bench)" \
    "third is shard 2/3 but s1 is 1/2" --quiet --out m s1 third
refused "bench shard missing" "merge --out (bench)" "bench shard 2/2 is missing" \
    --quiet --out m s1
refused "bench shard given twice" "merge --out (bench)" "shard 1/2 given twice" \
    --quiet --out m s1 s1 s2
refused "bench shard that does not exist" "merge --out (bench)" \
    "gone: No such file or directory" --quiet --out m s1 gone
cp -r s2 short2 && sed -i '$d' short2/runs.csv
refused "bench shard with a row lost" "merge --out (bench)" \
    "short2/runs.csv has 1 rows, its env.txt says the run wrote 2: the shard is truncated" \
    --quiet --out m s1 short2
cp -r s2 torn2 && truncate -s -5 torn2/runs.csv
refused "bench shard with a torn row" "merge --out (bench)" \
    "torn2/runs.csv: its last row is torn" --quiet --out m s1 torn2

# a shard whose run failed: its own words reach merge's message
hard='4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......'
awk -v p="$hard" 'BEGIN {for (i = 0; i < 400; i++) print p}' > big.txt
big="--solvers naive --budget-steps 10000 --warmup-ms 0 --pass-ms 0 --quiet"
"$bin" bench $big --shard 2/2 --out int2 big.txt > /dev/null 2>&1
"$bin" bench $big --shard 1/2 --out int1 big.txt > /dev/null 2> int1.err &
pid=$!
wait_lines "$pid" int1/runs.csv 20
kill -INT "$pid"
wait "$pid"
refused "bench shard interrupted" "merge --out (bench)" \
    'its run said: "interrupted (SIGINT) after [0-9]* of 200 rows"' --quiet --out m int1 int2
(trap '' XFSZ && ulimit -f 4 && exec "$bin" bench $big --shard 1/2 --out fsz1 big.txt) \
    > /dev/null 2>&1
refused "bench shard whose runs.csv write failed" "merge --out (bench)" \
    'its run said: "fsz1/runs.csv: File too large"' --quiet --out m fsz1 int2

# count partials and generate outputs
"$bin" count --solver naive --shard 1/2 a.txt > c1 && "$bin" count --solver naive --shard 2/2 a.txt > c2
"$bin" count --solver naive --limit 5 --shard 2/2 a.txt > c2limit
"$bin" count --solver naive --shard 2/2 b.txt > c2b
head -n 4 c1 > c1short
head -c -3 c2 > c2torn
refused "count partial with other options" "merge (count)" \
    "c1 and c2limit come from different runs: 'limit=0' against 'limit=5'" c1 c2limit
refused "count partial of another corpus" "merge (count)" "c2b is incomplete\|c1 is incomplete\|different" c1 c2b
refused "count partial missing" "merge (count)" "count shard 2/2 is missing" c1
refused "count partial given twice" "merge (count)" "given twice" c1 c1 c2
refused "count partial cut short (first)" "merge (count)" \
    "c1short is incomplete: it has 2 rows, c2 has 4" c1short c2
refused "count partial with a torn row" "merge (count)" "c2torn: row 4 is torn" c1 c2torn
"$bin" generate --count 6 --seed 1 --shard 1/2 > g1 && "$bin" generate --count 6 --seed 1 --shard 2/2 > g2
"$bin" generate --count 6 --seed 2 --shard 2/2 > g2seed
head -c -5 g2 > g2torn
refused "generate output with another seed" "merge (generate)" \
    "g1 and g2seed come from different runs: 'seed=1' against 'seed=2'" g1 g2seed
refused "generate output missing" "merge (generate)" "generate shard 2/2 is missing" g1
refused "generate output with a torn line" "merge (generate)" \
    "g2torn (shard 2/2): its last line is torn" g1 g2torn

# count --shard and generate --shard killed: by bytes written, as their
# output reaches the file in blocks; the partial must never merge
# count: 2100 entries are three batches of its split (1024 entries each), and
# each batch's rows come out together, so the points fall between batches
awk 'BEGIN {for (i = 0; i < 2100; i++) print "................"}' > e4.txt
"$bin" count --solver naive --shard 2/2 e4.txt > k-count-2
"$bin" count --solver naive --shard 1/2 e4.txt > k-count-1
# the merged count without its times, which no two runs share
untimed() { sed 's/ time=[^ ]*//' "$1"; }
"$bin" merge k-count-1 k-count-2 > count.ref
untimed count.ref > count.ref.untimed
"$bin" generate --count 2000 --seed 3 --shard 2/2 > k-generate-2
"$bin" generate --count 2000 --seed 3 --shard 1/2 > k-generate-1
"$bin" merge k-generate-1 k-generate-2 > generate.ref
untimed generate.ref > generate.ref.untimed
# A background job of a script ignores SIGINT (POSIX): env --default-signal
# gives it back the default action, as it has at a terminal.
sigint_default=""
env --default-signal=INT true 2> /dev/null && sigint_default="env --default-signal=INT"
bytes_of() { if [ -f "$1" ]; then wc -c < "$1" | tr -d ' '; else echo 0; fi; }
kill_shard() { # kill_shard count|generate SIGNAL BLOCKS
    what=$1 sig=$2 blocks=$3
    rm -f part # the last run's, complete, must not be taken for this one's
    case $what in
        count) $sigint_default "$bin" count --solver naive --shard 1/2 e4.txt > part 2> /dev/null & ;;
        *) $sigint_default "$bin" generate --count 2000 --seed 3 --shard 1/2 > part 2> /dev/null & ;;
    esac
    pid=$!
    while [ "$(bytes_of part)" -lt $((blocks * 4096)) ] && kill -0 "$pid" 2> /dev/null; do
        sleep 0.01
    done
    kill -"$sig" "$pid" 2> /dev/null
    wait "$pid"
    st=$? why=""
    if "$bin" merge part "k-$what-2" > merged 2> err; then
        # merged: only right when the output was whole (the signal came
        # after the last line, or after the run)
        untimed merged | cmp -s - "$what.ref.untimed" || why="$why a partial output merged;"
        late=$((late + 1))
    else
        grep -q 'part.*\(incomplete\|torn\|not a shard output\)' err \
            || why="$why not named: $(head -c 200 err);"
        case $sig:$st in INT:130 | TERM:143 | KILL:137) ;; *) why="$why exit $st;" ;; esac
        cut=$((cut + 1))
    fi
    [ -z "$why" ]
    ok "$what --shard 1/2, SIG$sig after $blocks blocks: the partial is refused" $? "$why"
}
rerun_shard() { # rerun_shard count|generate: the shard run again merges equal
    "$bin" "$1" $([ "$1" = count ] && echo --solver naive e4.txt || echo --count 2000 --seed 3) \
        --shard 1/2 > part 2> /dev/null
    "$bin" merge part "k-$1-2" > merged 2> /dev/null \
        && untimed merged | cmp -s - "$1.ref.untimed"
    ok "$1 --shard 1/2 run again after the kills: merges equal to the uninterrupted run" $?
}
for what in count generate; do
    for sig in INT TERM KILL; do
        if [ "$sig" = INT ] && [ -z "$sigint_default" ]; then
            skip "$what --shard, SIGINT" "no env --default-signal to undo the ignored SIGINT"
            continue
        fi
        cut=0 late=0 before=$failures
        hi=14 && [ "$what" = count ] && hi=18 # within the first batch
        for blocks in $(awk -v s="$seed$what$sig" -v hi=$hi 'BEGIN {srand(s); for (i = 0; i < 3; i++) print 1 + int(rand() * hi)}'); do
            kill_shard "$what" "$sig" "$blocks" 2> /dev/null
        done
        case $sig in INT) st=130 ;; TERM) st=143 ;; *) st=137 ;; esac
        row "$what --shard killed by SIG$sig (3 seeded points)" "$what --shard 1/2 > FILE, merge" \
            "exit $st, merge refuses the partial, a rerun merges equal" \
            "$cut refused, $late whole before the signal, $((failures - before)) wrong"
    done
    before=$failures
    rerun_shard "$what"
    row "$what --shard run again after a kill" "$what --shard 1/2 > FILE, merge" \
        "merges equal to the uninterrupted run" "$([ "$failures" -eq "$before" ] && echo equal || echo differs)"
done

print_table
tap_end
