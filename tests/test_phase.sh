#!/bin/sh
# scripts/phase-transition.sh end to end on a tiny sample, without the peer:
# two instances per size x fill, three fills of 9x9 and 16x16, short limits.
# The instances are made here from a solved grid (fill 0: empty, 50: every
# other cell kept, 100: the grid), in files named as datasets/lewis/general
# names them, each entry after its `# instNxN_F_K.txt` line, one-line puzzles
# and Lewis's format.
# Usage: test_phase.sh SUDOLAB
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
# absolute: the stand-in for the peer below runs from the top of the tree
case $bin in */*) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
script=$(cd "$(dirname "$0")/.." && pwd)/scripts/phase-transition.sh
if ! command -v gnuplot > /dev/null || ! command -v xz > /dev/null; then
    echo "1..0 # SKIP gnuplot or xz not installed"
    exit 0
fi
export SUDOLAB_BIN="$bin"

# a solved grid of box shape $1 (the CSV's solution column, by name)
solution() {
    "$bin" solve --limit 1 --solver mrv --csv --empty "$1" | awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "solution") c = i; next }
        NR == 2 { print $c }'
}
mkdir -p "$tmp/data"
for box in 3x3 4x4; do
    size=$(echo "$box" | awk -Fx '{print $1 * $2 "x" $1 * $2}')
    grid=$(solution "$box")
    for fill in 0 50 100; do
        for k in 0 1; do
            echo "# inst${size}_${fill}_${k}.txt"
            # instance k of fill 50 keeps the cells of parity k
            echo "$grid" | awk -v fill="$fill" -v k="$k" '{
                s = ""
                for (i = 1; i <= length($0); i++)
                    s = s (fill == 100 || (fill == 50 && i % 2 == k) ? substr($0, i, 1) : ".")
                print s }'
        done > "$tmp/data/${size}_$(printf %03d "$fill").txt"
    done
done
# fill 100 of 9x9 in Lewis's format, as datasets/lewis ships it (CRLF lines,
# a tab after every value)
for k in 0 1; do
    printf '# inst9x9_100_%s.txt\r\n3\r\n1\r\n' "$k"
    solution 3x3 | awk '{
        for (i = 1; i <= 81; i++) printf "%s\t%s", substr($0, i, 1), (i % 9 ? "" : "\r\n") }'
done > "$tmp/data/9x9_100.txt"
# a third instance that the sample leaves out
echo "# inst9x9_0_2.txt" >> "$tmp/data/9x9_000.txt"
printf '%081d\n' 0 | tr 0 . >> "$tmp/data/9x9_000.txt"
xz "$tmp/data/16x16_050.txt"

out=$tmp/out
# time limits past meson's timeout (300 s): "every instance solved" is never
# decided by the clock, and a solve that hangs is meson's timeout
SUDOKU_ACS=$tmp/nowhere "$script" --data "$tmp/data" --sizes 9x9,16x16 --sample 2 --runs 2 \
    --timeout-9 600 --timeout-16 600 --solvers mrv,dlx,no_such_solver --out "$out" \
    > "$tmp/stdout" 2> "$tmp/stderr"
check "a run on two sizes, three fills" $? 0
has "a back end the build lacks is left out" "$tmp/stderr" 'no_such_solver is not in this build: left out'
has "without the peer's binary the run goes on, saying so" "$tmp/stderr" \
    "not at $tmp/nowhere.*running without it"
for f in instances.csv cells.csv table.md protocol.txt 9x9/runs.csv 9x9/env.txt 16x16/runs.csv \
    16x16/env.txt phase-9x9-success.png phase-9x9-success.svg phase-9x9-time.png \
    phase-16x16-time.svg; do
    [ -s "$out/$f" ]; ok "$f written" $?
done
[ "$(head -1 "$out/instances.csv")" = "size,fill,instance,solver,run,status,time_ns,own_ns" ]
ok "instances.csv header" $?
rows=$(($(wc -l < "$out/instances.csv") - 1))
[ "$rows" -eq $((2 * 3 * 2 * 2)) ]; ok "a row per size, fill, instance and solver" $? "$rows rows"
awk -F, 'NR > 1 && $6 != "solved" {bad = 1} END {exit bad}' "$out/instances.csv"
ok "every instance solved" $? "$(grep -v ',solved,' "$out/instances.csv")"
grep -q '^16x16,50,inst16x16_50_1.txt,dlx,1,solved,' "$out/instances.csv" \
    && grep -q '^9x9,100,inst9x9_100_1.txt,dlx,1,solved,' "$out/instances.csv"
ok "names from the comment lines, fills from the file names (xz and Lewis's format read too)" $?
grep -q 'inst9x9_0_2' "$out/instances.csv"
[ $? -ne 0 ]; ok "the sample leaves the third instance out" $?
[ "$(grep -c '^9x9,' "$out/cells.csv")" -eq 6 ]; ok "cells.csv: a row per fill and solver" $?
awk -F, 'NR > 1 && ($4 != 2 || $5 != 2 || $6 != "100.0" || $7 == "") {bad = 1} END {exit bad}' \
    "$out/cells.csv"
ok "cells.csv: two runs, both solved, a median" $? "$(cat "$out/cells.csv")"
for size in 9x9 16x16; do
    has "table.md has a $size section" "$out/table.md" "^## $size$"
done
has "table.md has the back ends as columns" "$out/table.md" '^| fill | mrv | dlx |$'
for fill in 0 50 100; do
    [ "$(grep -c "^| $fill% | 100% [0-9.]* ms | 100% [0-9.]* ms |$" "$out/table.md")" -eq 2 ]
    ok "table.md has the fill-$fill row of both sizes" $?
done
has "table.md names the protocol" "$out/table.md" '^- timeouts_s: 9x9=600 16x16=600'
has "table.md sums every cell per back end, naming its slowest instance" "$out/table.md" \
    '^| dlx | 12 | 12 | 0 | [0-9.]* m*s (\(9x9\|16x16\) inst[0-9x_]*\.txt) |$'
root=$(cd "$(dirname "$0")/.." && pwd)
case $(cd "$(dirname "$bin")" && pwd) in
    "$root"/*)
        grep -q "$root" "$out/9x9/env.txt"
        [ $? -ne 0 ]; ok "env.txt names the tree's files relative to it" $? ;;
    *) skip "env.txt names the tree's files relative to it" "sudolab is built outside the tree" ;;
esac

cp "$out/table.md" "$tmp/table.md"
rm "$out/table.md" "$out/cells.csv"
"$script" --data "$tmp/data" --sizes 9x9,16x16 --no-peer --tables-only --out "$out" \
    > /dev/null 2> "$tmp/stderr"
check "--tables-only" $? 0
same "--tables-only rebuilds the same table from the runs" "$out/table.md" "$tmp/table.md"

"$script" --data "$tmp/data" --sizes 9x9 --fills 0,50 --sample 1 --solvers naive --no-peer \
    --part more --out "$out" > /dev/null 2> "$tmp/stderr"
check "a second part" $? 0
[ -f "$out/9x9.more/runs.csv" ] && [ -f "$out/9x9/runs.csv" ]
ok "the part beside the first run, which stays" $?
has "the tables take both parts" "$out/table.md" '^| fill | mrv | dlx | naive |$'
has "a cell the part left out shows as such" "$out/table.md" '^| 100% | 100% [0-9.]* ms | 100% [0-9.]* ms | - |$'

# the report of a bench folder that holds the experiment gives it a section
mkdir -p "$tmp/bench"
cp "$out/9x9/summary.csv" "$out/9x9/env.txt" "$out/9x9/runs.csv" "$tmp/bench/"
cp -r "$out" "$tmp/bench/phase-transition"
"$(dirname "$script")/report.sh" "$tmp/bench" > /dev/null 2>&1
check "report.sh on a bench folder with the experiment" $? 0
has "the report has the experiment's section" "$tmp/bench/REPORT.md" \
    '^## Phase transition: success rate and time against fill$'
has "... with its table" "$tmp/bench/REPORT.md" '^### 16x16$'
has "... and its plots, linked from the report's folder" "$tmp/bench/REPORT.md" \
    '](phase-transition/phase-16x16-time.png)$'
! grep -q '^## phase-transition$' "$tmp/bench/REPORT.md"
ok "... once, not again as a folder of pictures" $?

# the peer's part of the pipeline (adapter, own clock, comparison) with a
# stand-in for Lloyd & Amos's program: their command line and output, the
# search done by mrv, its own clock always 0.25 ms
if command -v python3 > /dev/null && "$bin" list --csv | grep -q '^acs,'; then
    cat > "$tmp/fake_peer" <<EOT
#!/bin/sh
while [ \$# -gt 0 ]; do [ "\$1" = --puzzle ] && p=\$2; shift; done
echo Solution:
"$bin" solve --limit 1 --solver mrv --csv "\$p" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == "solution") c = i; next }
    { for (i = 1; i <= 81; i++) printf " %s%s", substr(\$c, i, 1), (i % 9 ? "" : "\\n") }'
echo "solved in 0.00025"
EOT
    chmod +x "$tmp/fake_peer"
    SUDOKU_ACS=$tmp/fake_peer "$script" --data "$tmp/data" --sizes 9x9 --fills 0,50 --sample 2 \
        --runs 2 --timeout-9 600 --solvers acs --out "$tmp/peer" > /dev/null 2> "$tmp/stderr"
    check "a run with the peer" $? 0
    [ "$(grep -c '^9x9,[0-9]*,inst9x9_[0-9_]*\.txt,sudoku_acs,[12],solved,[0-9]*,250000$' \
        "$tmp/peer/instances.csv")" -eq 8 ]
    ok "the peer: two runs per instance, solved, with its own clock" $? "$(cat "$tmp/peer/instances.csv")"
    has "the peer's runs sit next to acs" "$tmp/peer/9x9/env.txt" \
        '^command: .*--solvers acs,sudoku_acs\.1=cmd:python3 scripts/sudoku-acs-adapter.py [^,]*,sudoku_acs\.2='
    has "acs against the peer cell by cell" "$tmp/peer/table.md" '^| 50% | 100% | 100% | +0.0 | '
    has "acs against the peer on the instances both solved" "$tmp/peer/table.md" '^| 9x9 | 4 | '

    # scripts/phase-cycles.py by time: the peer and each of our back ends in
    # turn on every instance, complete ones once; its instances.csv makes
    # phase-transition.sh's tables (the stand-in prints the cycles line of
    # the peer's build with a cycle limit)
    sed 's/^echo "solved in 0.00025"$/echo "solved in 0.00025"; echo "cycles 1"/' \
        "$tmp/fake_peer" > "$tmp/fake_peer_cycles"
    chmod +x "$tmp/fake_peer_cycles"
    mkdir -p "$tmp/lewis"
    xz -c "$tmp/data/9x9_100.txt" > "$tmp/lewis/9x9_100.xz"
    cycles=$(dirname "$script")/phase-cycles.py
    "$cycles" --data "$tmp/lewis" --sizes 9x9 --sample 2 --runs 2 --seconds-9 600 \
        --solvers acs,mrv --sudolab "$bin" --peer "$tmp/fake_peer_cycles" --out "$tmp/timed" \
        > /dev/null 2> "$tmp/stderr"
    check "phase-cycles.py by time with two of our back ends" $? 0
    [ "$(awk -F, 'NR > 1 {print $4 $5}' "$tmp/timed/runs.csv" | tr '\r\n' ' ')" \
        = "0sudoku_acs 0acs 0mrv 1sudoku_acs 1acs 0sudoku_acs 0acs 0mrv 1sudoku_acs 1acs " ]
    ok "... alternating per instance and run, mrv once, acs and the peer twice" $? \
        "$(cat "$tmp/timed/runs.csv")"
    "$script" --tables-only --out "$tmp/timed" > /dev/null 2> "$tmp/stderr"
    check "phase-transition.sh --tables-only on its instances.csv" $? 0
    has "... a column per program" "$tmp/timed/table.md" '^| fill | sudoku_acs | acs | mrv |$'
    has "... every run solved" "$tmp/timed/table.md" \
        '^| 100% | 100% [0-9.]* ms (own clock: mean 0.250 ms) | 100% [0-9.]* ms | 100% [0-9.]* ms |$'
    # --no-peer reruns one back end into that run: its rows of the instances
    # rerun are replaced, every other row is kept
    grep -v ',mrv,' "$tmp/timed/runs.csv" > "$tmp/others.csv"
    "$cycles" --data "$tmp/lewis" --sizes 9x9 --sample 2 --runs 2 --seconds-9 600 \
        --solvers mrv --append --no-peer --sudolab "$bin" --peer "$tmp/fake_peer_cycles" \
        --out "$tmp/timed" > /dev/null 2> "$tmp/stderr"
    check "phase-cycles.py --no-peer rerunning mrv" $? 0
    [ "$(awk -F, 'NR > 1 {print $4 $5}' "$tmp/timed/runs.csv" | tr '\r\n' ' ')" \
        = "0sudoku_acs 0acs 1sudoku_acs 1acs 0sudoku_acs 0acs 1sudoku_acs 1acs 0mrv 0mrv " ]
    ok "... mrv's rows replaced, once per instance" $? "$(cat "$tmp/timed/runs.csv")"
    grep -v ',mrv,' "$tmp/timed/runs.csv" | cmp -s - "$tmp/others.csv"
    ok "... the other rows unchanged" $?
    has "... the protocol says so" "$tmp/timed/protocol.txt" '^9x9, mrv rerun alone, without the peer'
    "$cycles" --data "$tmp/lewis" --sizes 9x9 --sample 1 --seconds-9 600 --solvers mrv \
        --no-peer --sudolab "$bin" --out "$tmp/timed3" > /dev/null 2>&1
    [ $? -ne 0 ]; ok "phase-cycles.py --no-peer refuses a run without --append" $?
    "$cycles" --data "$tmp/lewis" --sizes 9x9 --sample 1 --solvers acs,mrv --sudolab "$bin" \
        --peer "$tmp/fake_peer_cycles" --out "$tmp/timed2" > /dev/null 2>&1
    [ $? -ne 0 ]; ok "phase-cycles.py by cycles refuses back ends other than acs" $?
else
    for t in "a run with the peer" "the peer's rows" "acs next to the peer" "cell by cell" \
        "instances both solved" "phase-cycles.py by time" "alternating" "--tables-only on it" \
        "a column per program" "every run solved" "--no-peer rerunning mrv" "mrv's rows replaced" \
        "other rows unchanged" "the protocol says so" "refuses a run without --append" \
        "by cycles refuses"; do
        skip "$t" "no python3, or no acs in this build"
    done
fi

"$script" --sample x --out "$tmp/bad" > /dev/null 2>&1
check "a sample that is not a number" $? 2
"$script" --data "$tmp/data" --sizes 12x12 --no-peer --out "$tmp/bad" > /dev/null 2>&1
check "a size without a time limit" $? 2
tap_end
