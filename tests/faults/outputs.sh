#!/bin/sh
# Fault battery, outputs: every command with its output lost (standard output
# on /dev/full; --out into a read-only directory, a vanished one, or under a
# file) must fail with exit status 1 and a message naming the output and the
# reason, never exit 0 with the lines gone. Prints the table of cases as TAP
# comments. Usage: outputs.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
# absolute: one case runs in another working directory
case $bin in */*) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

p4='1....2....3....4'
nospace='No space left on device'
table='# | fault | command | expected | outcome |
# |---|---|---|---|'

row() { # row FAULT COMMAND EXPECTED OUTCOME
    table="$table
# | $1 | $2 | $3 | $4 |"
}

# expect_fail FAULT COMMAND PATTERN STATUS: the run (stderr in $tmp/err)
# ended with status 1 and PATTERN on stderr.
expect_fail() {
    outcome="exit $4"
    grep -q -- "$3" "$tmp/err" && outcome="$outcome, message"
    [ "$outcome" = "exit 1, message" ]
    ok "$1: $2 fails and says why" $? "exit $4, stderr: $(head -c 400 "$tmp/err")"
    row "$1" "$2" "exit 1, \`$(printf '%s' "$3" | sed "s|$tmp|TMP|g")\`" "$outcome"
}

# on_full COMMAND PATTERN ARGS...: sudolab ARGS with stdout on /dev/full.
on_full() {
    label=$1 pattern=$2
    shift 2
    "$bin" "$@" > /dev/full 2> "$tmp/err"
    expect_fail "stdout on /dev/full" "$label" "$pattern" $?
}

# Shards to merge: count partials, generate outputs, bench directories.
"$bin" count --solver naive --shard 1/2 "$p4" > "$tmp/c1" &&
    "$bin" count --solver naive --shard 2/2 "$p4" > "$tmp/c2" &&
    "$bin" generate --count 2 --seed 1 --size 2x2 --shard 1/2 > "$tmp/g1" &&
    "$bin" generate --count 2 --seed 1 --size 2x2 --shard 2/2 > "$tmp/g2" &&
    "$bin" bench --solver naive --repeat 1 --quiet --shard 1/2 --out "$tmp/b1" \
        "$p4" "$p4" > /dev/null 2>&1 &&
    "$bin" bench --solver naive --repeat 1 --quiet --shard 2/2 --out "$tmp/b2" \
        "$p4" "$p4" > /dev/null 2>&1
check "the shards to merge are made" $? 0

# The same runs succeed with a working stdout: what the faults take away.
"$bin" merge "$tmp/c1" "$tmp/c2" > "$tmp/out" 2> "$tmp/err"
check "merge of count partials runs" $? 0
has "merged count has the two solutions" "$tmp/out" '^1 2 multiple'

msg="<stdout>: $nospace"
on_full "list" "$msg" list
on_full "--help" "$msg" --help
on_full "solve" "$msg" solve --solver naive "$p4"
on_full "solve --csv" "$msg" solve --csv --solver naive "$p4"
on_full "count" "$msg" count --solver naive "$p4"
on_full "count -j 2" "$msg" count -j 2 --solver naive "$p4"
on_full "count --shard 1/2" "$msg" count --shard 1/2 --solver naive "$p4"
on_full "generate" "$msg" generate --count 2 --seed 1 --size 2x2
on_full "generate -j 2" "$msg" generate -j 2 --count 2 --seed 1 --size 2x2
on_full "rate" "$msg" rate "$p4"
on_full "trace" "$msg" trace --solver naive "$p4"
on_full "merge (count)" "$msg" merge "$tmp/c1" "$tmp/c2"
on_full "merge (generate)" "$msg" merge "$tmp/g1" "$tmp/g2"
on_full "bench --csv" "<stdout>: $nospace: the CSV rows there are incomplete" bench --csv \
    --solver naive --repeat 1 "$p4"
on_full "bench --csv --out DIR" "<stdout>: $nospace: .*all of them are in $tmp/csvout" \
    bench --csv --quiet --solver naive --repeat 1 --out "$tmp/csvout" "$p4"

# runs.csv cut off mid-run (a file size limit: EFBIG, as a quota would be):
# the file and the reason named, and --resume completes the run
awk -v p="$p4" 'BEGIN {for (i = 0; i < 200; i++) print p}' > "$tmp/p200.txt"
(trap '' XFSZ && ulimit -f 4 && exec "$bin" bench --quiet --solver naive --pass-ms 0 \
    --warmup-ms 0 --out "$tmp/fsz" "$tmp/p200.txt") > /dev/null 2> "$tmp/err"
expect_fail "runs.csv over a file size limit" "bench --out" \
    "$tmp/fsz/runs.csv: File too large: rows are missing" $?
"$bin" bench --quiet --solver naive --pass-ms 0 --warmup-ms 0 --resume --out "$tmp/fsz" \
    "$tmp/p200.txt" > /dev/null 2>&1
check "and --resume completes it" $? 0
[ "$(sed 1d "$tmp/fsz/runs.csv" | cut -d, -f2 | sort -un | wc -l)" -eq 200 ]
ok "every row once after --resume" $?

"$bin" merge --out /dev/full "$tmp/g1" "$tmp/g2" > /dev/null 2> "$tmp/err"
expect_fail "--out FILE on /dev/full" "merge --out (generate)" "/dev/full: $nospace" $?
"$bin" merge --out /dev/full "$tmp/c1" "$tmp/c2" > /dev/null 2> "$tmp/err"
expect_fail "--out FILE on /dev/full" "merge --out (count)" "/dev/full: $nospace" $?

# into_dir FAULT DIR REASON: the commands that write under DIR.
into_dir() {
    fault=$1 dir=$2 reason=$3
    "$bin" bench --solver naive --repeat 1 --quiet --out "$dir/bench" "$p4" \
        > /dev/null 2> "$tmp/err"
    expect_fail "$fault" "bench --out" "$dir/bench.*: $reason" $?
    "$bin" merge --quiet --out "$dir/merged" "$tmp/b1" "$tmp/b2" > /dev/null 2> "$tmp/err"
    expect_fail "$fault" "merge --out (bench)" "$dir/merged.*: $reason" $?
    "$bin" merge --out "$dir/merged.txt" "$tmp/g1" "$tmp/g2" > /dev/null 2> "$tmp/err"
    expect_fail "$fault" "merge --out (generate)" "$dir/merged.txt: $reason" $?
    "$bin" merge --out "$dir/count.txt" "$tmp/c1" "$tmp/c2" > /dev/null 2> "$tmp/err"
    expect_fail "$fault" "merge --out (count)" "$dir/count.txt: $reason" $?
}

# A read-only directory; root writes into it all the same, so the case is
# skipped when a file can be created there.
mkdir "$tmp/ro" && chmod 0500 "$tmp/ro"
if : 2> /dev/null > "$tmp/ro/probe"; then
    skip "read-only directory" "this user writes into a 0500 directory (root?)"
    row "read-only directory" "bench --out, merge --out" "exit 1, message" "skipped (root)"
else
    into_dir "read-only directory" "$tmp/ro" "Permission denied"
fi
chmod 0700 "$tmp/ro"

# A vanished directory: the working directory removed under the run, so even
# mkdir -p cannot make the path.
mkdir "$tmp/vanished"
(cd "$tmp/vanished" && rmdir "$tmp/vanished" && into_dir "vanished directory" . \
    "No such file or directory" && echo "n=$n failures=$failures" > "$tmp/sub" &&
    printf '%s\n' "$table" > "$tmp/subtable")
# the subshell's counts and rows come back
. "$tmp/sub"
table=$(cat "$tmp/subtable")

# A path under a regular file.
: > "$tmp/file"
into_dir "directory is a file" "$tmp/file" "Not a directory"

printf '%s\n' "$table"
tap_end
