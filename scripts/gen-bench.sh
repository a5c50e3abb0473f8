#!/bin/sh
# Generation speed against qqwing (Debian `qqwing`), side by side in one
# hyperfine run: unique puzzles per second per method and level, and what the
# puzzles are like (clues, hardest technique by `sudolab rate`), so rates are
# compared at comparable difficulty. Writes OUTDIR/gen-bench.md (the table),
# OUTDIR/hyperfine.csv and OUTDIR/<name>.txt (one sample output per command).
#
# usage: scripts/gen-bench.sh [OUTDIR]            (default: results/gen-bench)
# SUDOLAB_BIN names the sudolab program (default: build/sudolab); RUNS
# the hyperfine runs per command (default 5); QQWING=0 leaves qqwing out.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/results/gen-bench}
bin=${SUDOLAB_BIN:-$root/build/sudolab}
runs=${RUNS:-5}
[ -x "$bin" ] || { echo "gen-bench: $bin not found (set SUDOLAB_BIN)" >&2; exit 2; }
command -v hyperfine > /dev/null || { echo "gen-bench: hyperfine is not installed" >&2; exit 2; }
mkdir -p "$out"

# name|puzzles per run|command (the puzzles on stdout, one per line)
list=$out/commands.txt
{
    for level in easy medium hard; do
        n=500
        [ "$level" = hard ] && n=100
        echo "dig-$level|$n|$bin generate --seed 1 --count $n --method dig --difficulty $level"
    done
    for level in easy medium hard; do
        echo "seed003-$level|500|$bin generate --seed 1 --count 500 --method seed003 --difficulty $level"
    done
    echo "dig-minimal|500|$bin generate --seed 1 --count 500 --minimal --holes 1"
    echo "dig-minimal-singles|500|$bin generate --seed 1 --count 500 --minimal --holes 1 --max-technique hidden_single"
    echo "dig-minimal-techniques|200|$bin generate --seed 1 --count 200 --minimal --holes 1 --min-technique pointing --max-technique swordfish"
    echo "dig-minimal-guessing|200|$bin generate --seed 1 --count 200 --minimal --holes 1 --min-technique guessing"
    if [ "${QQWING:-1}" != 0 ] && command -v qqwing > /dev/null; then
        # qqwing draws puzzles until one has the level: simple ones are rare
        for level in simple:10 easy:50 intermediate:30 expert:50 any:100; do
            n=${level#*:}
            level=${level%:*}
            echo "qqwing-$level|$n|qqwing --generate $n --difficulty $level --one-line"
        done
    fi
} > "$list"

set --
while IFS='|' read -r name n cmd; do
    set -- "$@" -n "$name" "$cmd"
    $cmd 2> /dev/null | tr -d '\r' | grep -v '^#' | grep -v '^$' > "$out/$name.txt"
done < "$list"
hyperfine -N --warmup 1 --runs "$runs" --export-csv "$out/hyperfine.csv" "$@" > "$out/hyperfine.txt"

# per name: wall median and user time of one run (seconds), from hyperfine's CSV
times=$out/times.txt
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { print $c["command"], $c["median"], $c["user"] }' "$out/hyperfine.csv" > "$times"

{
    echo "## Generation speed"
    echo
    echo "\`scripts/gen-bench.sh\`: hyperfine, $runs runs per command after a warm-up, all in one"
    echo "run on $(nproc) shared cores (see hyperfine.txt); per puzzle = a run's median wall time"
    echo "(CPU: user time) over its puzzles. sudolab checks every puzzle's uniqueness with a"
    echo "second back end before writing it. Puzzle character from \`sudolab rate --method"
    echo "techniques\` on one run's output (levels: singles; locked candidates; pairs and"
    echo "triples; X-wing and swordfish; guessing = none of those suffices)."
    echo
    echo "| generator | puzzles/run | ms/puzzle | CPU ms/puzzle | puzzles/s | clues | singles | locked | pairs, triples | fish | guessing |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    while IFS='|' read -r name n cmd; do
        "$bin" rate --method techniques,blanks --no-puzzle "$out/$name.txt" 2> /dev/null \
            | grep -v '^#' | awk -v name="$name" -v n="$n" -v t="$(grep "^$name " "$times")" '
            {
                for (i = 2; i <= NF; i++) {
                    split($i, kv, "=")
                    if (kv[1] == "blanks") blanks += kv[2]
                    if (kv[1] == "technique_level") {
                        l = kv[2]
                        if (l <= 2) s1++; else if (l <= 4) s2++; else if (l <= 8) s3++
                        else if (l <= 10) s4++; else s5++
                    }
                }
                m++
            }
            END {
                split(t, tt, " ")
                p = m ? 100 / m : 0
                printf "| %s | %d | %.3f | %.3f | %.0f | %.1f | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %.0f%% |\n",
                    name, n, tt[2] * 1e3 / n, tt[3] * 1e3 / n, n / tt[2], 81 - blanks / m,
                    s1 * p, s2 * p, s3 * p, s4 * p, s5 * p
            }'
    done < "$list"
    echo
    if grep -q '^qqwing-any ' "$times"; then
        ratio() {
            awk -v a="$(grep "^$1 " "$times")" -v b="$(grep "^$2 " "$times")" \
                -v na="$(grep "^$1|" "$list" | cut -d'|' -f2)" \
                -v nb="$(grep "^$2|" "$list" | cut -d'|' -f2)" '
                BEGIN { split(a, x, " "); split(b, y, " ")
                        printf "%.1fx (CPU %.1fx)", (y[2] / nb) / (x[2] / na), (y[3] / nb) / (x[3] / na) }'
        }
        echo "At comparable difficulty (minimal puzzles of about 25 clues with the same technique"
        echo "mix), sudolab against qqwing, wall (CPU):"
        echo
        echo "- dig-minimal vs qqwing-any: $(ratio dig-minimal qqwing-any) faster"
        echo "- dig-minimal-singles vs qqwing-easy (singles only): $(ratio dig-minimal-singles qqwing-easy) faster"
        echo "- dig-minimal-techniques vs qqwing-intermediate (locked candidates to fish):"
        echo "  $(ratio dig-minimal-techniques qqwing-intermediate) faster"
        echo "- dig-minimal-guessing vs qqwing-expert (guessing needed): $(ratio dig-minimal-guessing qqwing-expert) faster"
        echo "- dig-hard (exactly 21 clues, the web appendix's 60 holes) vs qqwing-expert:"
        echo "  $(ratio dig-hard qqwing-expert)"
    fi
} > "$out/gen-bench.md"
cat "$out/gen-bench.md"
