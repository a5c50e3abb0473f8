#!/bin/sh
# Sets sudolab's four difficulty raters (blanks, freedom, guesses, techniques)
# against each other and against solve time on a few corpora: the first
# RATE_HEAD (default 200) puzzles of magictour top1465 and the generated 9x9
# files of datasets/generated/. Writes into OUTDIR:
#   raters.csv          one row per puzzle: corpus, the ratings, solve times
#   raters.png, .svg    six scatter panels (scripts/raters.gp)
#   section.md          the tables (per corpus; Spearman rank correlations)
#                       and the figure, for scripts/report.sh
#   inputs/, data/      the puzzles rated and the per-corpus plot data
#
# usage: scripts/rate-plot.sh OUTDIR
# SUDOLAB_BIN names the sudolab program (default: build/sudolab);
# SUDOLAB_DATASETS the public corpora (default: datasets/public, xz-compressed);
# RATE_HEAD, RATE_PERMUTATIONS (default 10), RATE_SOLVERS (timed back ends,
# default "mrv dlx"; the first is plotted) and RATE_REPEAT (solves per puzzle
# and back end, default 5; the median counts) tune the run.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/rate-plot.sh OUTDIR}
bin=${SUDOLAB_BIN:-$root/build/sudolab}
public=${SUDOLAB_DATASETS:-$root/datasets/public}
head=${RATE_HEAD:-200}
perms=${RATE_PERMUTATIONS:-10}
solvers=${RATE_SOLVERS:-mrv dlx}
repeat=${RATE_REPEAT:-5}

if [ ! -x "$bin" ]; then
    echo "rate-plot: $bin not found: build sudolab first or set SUDOLAB_BIN" >&2
    exit 2
fi
command -v gnuplot > /dev/null || { echo "rate-plot: gnuplot is not installed" >&2; exit 2; }
command -v xz > /dev/null || { echo "rate-plot: xz is not installed (Debian: xz-utils)" >&2; exit 2; }
mkdir -p "$out/inputs" "$out/data"
out=$(cd "$out" && pwd)

# corpus name, file: the first $head puzzles (comments and blank lines dropped;
# xz -dcf unpacks a compressed file and copies a plain one)
corpora=""
add() {
    if [ ! -f "$2" ]; then
        echo "rate-plot: $2 missing, $1 left out" >&2
        return
    fi
    xz -dcf "$2" | tr -d '\r' | grep -v '^#' | grep -v '^$' | head -n "$head" \
        > "$out/inputs/$1.txt"
    corpora="$corpora $1"
}
add top1465 "$public/puzzles3_magictour_top1465.xz"
for f in dig_easy dig_medium dig_hard seed003_hard minimal; do
    add "gen-$(echo "$f" | tr '_' '-')" "$root/datasets/generated/9x9_$f.txt"
done
[ -n "$corpora" ] || { echo "rate-plot: no corpus to rate" >&2; exit 2; }

csv=$out/raters.csv
timed=$(echo "$solvers" | awk '{for (i = 1; i <= NF; i++) printf ",%s_ns", $i}')
echo "corpus,index,clues,blanks,blanks_level,freedom,freedom_level,guesses,technique,technique_level$timed" > "$csv"
for c in $corpora; do
    in=$out/inputs/$c.txt
    "$bin" rate --method all --csv --permutations "$perms" --seed 1 "$in" 2> /dev/null \
        > "$out/inputs/$c.rate.csv"
    files=$out/inputs/$c.rate.csv
    # shellcheck disable=SC2086
    "$bin" bench --solvers "$(echo $solvers | tr ' ' ',')" --repeat "$repeat" --pass-ms 0 \
        --budget-ms 0 --quiet --csv "$in" 2> /dev/null > "$out/inputs/$c.bench.csv"
    for s in $solvers; do
        # the median of the repeats, per puzzle
        awk -F, -v s="$s" '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "index,time_ns"; next }
            $c["solver"] == s {
                k = $c["index"]
                if (!(k in n)) order[++m] = k
                t[k, ++n[k]] = $c["time_ns"]
            }
            END {
                for (j = 1; j <= m; j++) {
                    k = order[j]
                    for (a = 1; a <= n[k]; a++) v[a] = t[k, a]
                    for (a = 2; a <= n[k]; a++) {
                        x = v[a]
                        for (b = a - 1; b >= 1 && v[b] > x; b--) v[b + 1] = v[b]
                        v[b + 1] = x
                    }
                    print k "," v[int((n[k] + 1) / 2)]
                }
            }' "$out/inputs/$c.bench.csv" > "$out/inputs/$c.$s.csv"
        files="$files $out/inputs/$c.$s.csv"
    done
    # join on the line order: each file has a header and one row per puzzle,
    # after comment lines (rate's first line records the rater's version)
    # shellcheck disable=SC2086
    awk -F, -v corpus="$c" -v nfiles="$(echo $files | wc -w)" '
        FNR == 1 { f++; r = 0 }
        /^#/ { next }
        ++r == 1 { for (i = 1; i <= NF; i++) col[f, $i] = i; next }
        f == 1 {
            n = r - 1
            row[n] = corpus "," $col[1, "index"] "," 81 - $col[1, "blanks"] "," \
                $col[1, "blanks"] "," $col[1, "blanks_level"] "," $col[1, "freedom"] "," \
                $col[1, "freedom_level"] "," $col[1, "guesses"] "," $col[1, "technique"] "," \
                $col[1, "technique_level"]
            next
        }
        { row[r - 1] = row[r - 1] "," $col[f, "time_ns"] }
        END { for (i = 1; i <= n; i++) print row[i] }
    ' $files >> "$csv"
    awk -F, -v c="$c" 'NR > 1 && $1 == c { print $2, $4, $6, $8, $10, $11 / 1e3 }' "$csv" \
        > "$out/data/$c.dat"
done

first=$(echo "$solvers" | awk '{print $1}')
# shellcheck disable=SC2086
gnuplot -e "datadir='$out/data'; corpora='$(echo $corpora)'; out='$out/raters'" \
    -e "sdir='$root/scripts'; solver='$first'" "$root/scripts/raters.gp"

# Spearman rank correlation of every pair of columns (ties get their mean
# rank), over the rows of one corpus or (no argument) all of them
ranks() { # column [corpus]
    awk -F, -v c="$1" -v only="${2:-}" 'NR > 1 && (only == "" || $1 == only) { print ++n, $c }' \
        "$csv" | sort -k2,2g | awk '
        function flush() { for (k = 0; k < m; k++) print ids[k], (start + start + m - 1) / 2 }
        { if (NR == 1 || $2 != last) { flush(); m = 0; start = NR }
          ids[m++] = $1; last = $2 }
        END { flush() }' | sort -k1,1n | cut -d' ' -f2
}
names="blanks freedom guesses technique_level $(echo "$solvers" | awk '{for (i = 1; i <= NF; i++) printf "%s_ns ", $i}')"
cols=""
for name in $names; do
    cols="$cols $(head -1 "$csv" | tr ',' '\n' | grep -nx "$name" | cut -d: -f1)"
done
spearman() { # [corpus]: a markdown table
    rankfiles=""
    i=0
    for c in $cols; do
        i=$((i + 1))
        ranks "$c" "${1:-}" > "$out/data/rank$i"
        rankfiles="$rankfiles $out/data/rank$i"
    done
    printf '| |'
    for name in $names; do printf ' %s |' "$name"; done
    echo
    printf '|---|'
    for name in $names; do printf -- '---:|'; done
    echo
    # shellcheck disable=SC2086
    paste -d' ' $rankfiles | awk -v names="$names" '
        { for (i = 1; i <= NF; i++) x[NR, i] = $i; k = NF }
        END {
            split(names, nm, " ")
            for (i = 1; i <= k; i++) {
                line = "| " nm[i] " |"
                for (j = 1; j <= k; j++) {
                    sa = sb = 0
                    for (r = 1; r <= NR; r++) { sa += x[r, i]; sb += x[r, j] }
                    ma = sa / NR; mb = sb / NR; cov = va = vb = 0
                    for (r = 1; r <= NR; r++) {
                        da = x[r, i] - ma; db = x[r, j] - mb
                        cov += da * db; va += da * da; vb += db * db
                    }
                    line = line sprintf(" %.2f |", va > 0 && vb > 0 ? cov / sqrt(va * vb) : 0)
                }
                print line
            }
        }'
}

{
    echo "## Difficulty raters"
    echo
    echo "\`scripts/rate-plot.sh\`: \`sudolab rate --method all --permutations $perms --seed 1\`"
    echo "and \`sudolab bench --repeat $repeat\` (median time per puzzle; back ends $solvers) over the"
    echo "first $head puzzles of each corpus. Raters: **blanks** and **freedom** are seed 004's measures"
    echo "(level 0-5); **guesses** is the mean ln(guesses + 1) of \`mrv\` over random"
    echo "validity-preserving permutations; **technique** is the hardest technique the logic"
    echo "solver needs (level 1 naked single, 2 hidden single, 3-4 locked candidates, 5-8 pairs"
    echo "and triples, 9 X-wing, 10 swordfish, 11 guessing)."
    echo
    echo "| corpus | puzzles | clues | freedom | guesses | singles | locked | pairs, triples | fish | guessing |$(for s in $solvers; do printf ' %s median |' "$s"; done)"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|$(for s in $solvers; do printf -- '---:|'; done)"
    for c in $corpora; do
        for s in $solvers; do
            col=$(head -1 "$csv" | tr ',' '\n' | grep -nx "${s}_ns" | cut -d: -f1)
            awk -F, -v c="$c" -v k="$col" 'NR > 1 && $1 == c { print $k }' "$csv" | sort -g \
                | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)];
                    printf(m < 1e6 ? "%.1f µs\n" : "%.2f ms\n", m < 1e6 ? m / 1e3 : m / 1e6) }'
        done > "$out/data/$c.medians"
        awk -F, -v c="$c" -v med="$(awk '{printf " %s |", $0}' "$out/data/$c.medians")" '
            NR > 1 && $1 == c {
                n++; clues += $3; free += $6; g += $8; t = $10
                if (t <= 2) s1++; else if (t <= 4) s2++; else if (t <= 8) s3++
                else if (t <= 10) s4++; else s5++
            }
            END {
                p = n ? 100 / n : 0
                printf "| %s | %d | %.1f | %.0f | %.2f | %.0f%% | %.0f%% | %.0f%% | %.0f%% | %.0f%% |%s\n",
                    c, n, clues / n, free / n, g / n, s1 * p, s2 * p, s3 * p, s4 * p, s5 * p, med
            }' "$csv"
    done
    echo
    echo "Spearman rank correlation over all $(($(wc -l < "$csv") - 1)) puzzles (1: same order,"
    echo "0: unrelated, -1: reversed); mostly the gaps between the corpora:"
    echo
    spearman
    first_corpus=$(echo "$corpora" | awk '{print $1}')
    echo
    echo "Within $first_corpus alone ($(awk -F, -v c="$first_corpus" '$1 == c' "$csv" | wc -l) puzzles):"
    echo
    spearman "$first_corpus"
    echo
    echo "![raters]($(basename "$out")/raters.png)"
} > "$out/section.md"
echo "$out/raters.png $out/raters.svg $out/section.md"
