#!/bin/sh
# Writes DIR/REPORT.md for one bench run directory: the setup (from env.txt),
# a table per corpus (from summary.csv, columns found by header name) with its
# cactus plot, the scatter, distribution and throughput plots (DIR/plots/,
# scripts/plots.sh), the hyperfine comparison (DIR/hyperfine/), and any extra
# section.
#
# Extra sections: a script that adds to the report writes into a folder of
# DIR (run-bench.sh calls scripts/moler-figures.sh DIR/moler and
# scripts/rate-plot.sh DIR/rate when they exist). A folder holding section.md
# is included as it is (its image links relative to DIR); a folder without one
# gets its PNG files shown under the folder's name.
#
# usage: scripts/report.sh DIR
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sdir=$root/scripts
dir=${1:?usage: scripts/report.sh DIR}
dir=$(cd "$dir" && pwd)
[ -f "$dir/summary.csv" ] && [ -f "$dir/env.txt" ] \
    || { echo "report.sh: $dir has no summary.csv and env.txt" >&2; exit 2; }
env=$dir/env.txt
fact() { sed -n "s/^$1: //p" "$env" | tail -1; }
safe() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'; }
report=$dir/REPORT.md
baseline=$(fact baseline)

{
    echo "# sudolab benchmark: $(fact date | cut -c1-10) on $(fact host)"
    echo
    echo "Revision \`$(fact git_revision)\`, $(fact cpu) ($(fact cores_usable) cores usable)," \
        "$(fact compiler), $(fact buildtype) build. Made by \`scripts/run-bench.sh\`;" \
        "every figure comes from the files beside this one: \`runs.csv\` (one row per" \
        "corpus, puzzle, solver and repeat), \`summary.csv\`, \`env.txt\`."
    echo
    echo "## Setup"
    echo
    echo "| | |"
    echo "|---|---|"
    for key in date host kernel cpu cpu_simd cores_online cores_usable governor compiler \
        buildtype build_options c_args native git_revision command limit budget_ms \
        budget_steps repeat threads warmup_ms pass_ms fast_us tdoku_protocol permute seed head \
        timer_overhead_ns timer_resolution_ns wall_s disagreements errors finished; do
        value=$(fact "$key")
        [ -n "$value" ] && printf '| %s | `%s` |\n' "$key" "$value"
    done
    echo
    echo "Time per puzzle is CLOCK_MONOTONIC around the back end's solve alone (the clue check"
    echo "and the verification of the answer are outside it), after an untimed warm-up; with"
    echo "repeats, the median. The time columns cover the puzzles finished within the budget;"
    echo "**PAR-2** counts the others at twice the budget. **puzzles/s** is all timed puzzles"
    echo "over their summed times; **pass p/s** is tdoku's whole-pass throughput (one clock read"
    echo "per pass over the in-memory corpus), measured for the microsecond back ends."
    echo "**vs $baseline** is the geometric mean over the puzzles both finished of"
    echo "$baseline's time over the solver's: 3x means three times faster. **guesses** is the"
    echo "mean per finished puzzle; each back end documents what it counts (its file's header)."
    echo "Every answer was verified by the independent checker and the solution counts were"
    echo "cross-checked between the back ends (\`disagreements\` above)."
    echo
    echo "## Results per corpus"
    awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | while read -r corpus; do
        echo
        awk -F, -v corpus="$corpus" -v base="$baseline" -v cactus="plots/cactus-$(safe "$corpus").png" '
            function t(ns) {
                if (ns == "") return "-"
                if (ns < 1e4) return sprintf("%.2f µs", ns / 1e3)
                if (ns < 1e7) return sprintf("%.3f ms", ns / 1e6)
                return sprintf("%.3f s", ns / 1e9)
            }
            function r(v) { return v == "" ? "-" : (v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)) }
            function x(v) { return v == "" ? "-" : (v >= 100 ? sprintf("%.0fx", v) : sprintf("%.3gx", v)) }
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["corpus"] == corpus {
                n++
                row[n] = $0
                puzzles = $c["puzzles"]
                split("unique multiple unsolvable solved invalid limit error unsupported pending", st, " ")
                for (k in st) if ($c[st[k]] > 0) show[st[k]] = 1
            }
            END {
                printf "### %s (%d puzzles)\n\n", corpus, puzzles
                head = "| solver"; line = "|---"
                split("unique multiple unsolvable solved invalid limit error unsupported pending", st, " ")
                for (k = 1; k <= 9; k++) if (show[st[k]]) { head = head " | " st[k]; line = line "|---:" }
                head = head " | median | mean | p90 | p99 | max | puzzles/s | pass p/s | guesses | PAR-2 | vs " base " |"
                line = line "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                print head; print line
                for (i = 1; i <= n; i++) {
                    split(row[i], f, ",")
                    out = "| " f[c["solver"]]
                    for (k = 1; k <= 9; k++) if (show[st[k]]) out = out " | " f[c[st[k]]]
                    out = out " | " t(f[c["median_ns"]]) " | " t(f[c["mean_ns"]]) " | " t(f[c["p90_ns"]])
                    out = out " | " t(f[c["p99_ns"]]) " | " t(f[c["max_ns"]]) " | " r(f[c["puzzles_per_s"]])
                    out = out " | " r(f[c["pass_puzzles_per_s"]]) " | " r(f[c["mean_guesses"]])
                    out = out " | " t(f[c["par2_ns"]]) " | " x(f[c["speedup_vs_baseline"]]) " |"
                    print out
                }
                printf "\n![cactus plot of %s](%s)\n", corpus, cactus
            }' "$dir/summary.csv"
    done
    echo
    echo "## Across corpora"
    echo
    for f in "$dir"/plots/scatter-*.png; do
        [ -f "$f" ] || continue
        echo "Per puzzle, one solver against another (SVG beside each PNG):"
        echo
        echo "![per-puzzle scatter](plots/$(basename "$f"))"
        echo
    done
    for name in time-distribution steps-distribution; do
        [ -f "$dir/plots/$name.png" ] && printf '![%s](plots/%s.png)\n\n' "$name" "$name"
    done
    group=1
    while [ -f "$dir/plots/throughput-$group.png" ]; do
        printf '![throughput %s](plots/throughput-%s.png)\n\n' "$group" "$group"
        group=$((group + 1))
    done
    if [ -f "$dir/hyperfine/hyperfine.csv" ]; then
        echo "## Whole-process timings (hyperfine)"
        echo
        echo "Each command solves the same puzzles from process start to exit"
        echo "($(sed -n 's/^corpus: //p' "$dir/hyperfine/README.txt" 2>/dev/null)); sudolab with"
        echo "its default limit 2, qqwing with \`--count-solutions\`: both prove uniqueness."
        echo
        echo "| command | mean | ± σ | min | max |"
        echo "|---|---:|---:|---:|---:|"
        awk -f "$sdir/csv.awk" -v cols=command,mean,stddev,min,max "$dir/hyperfine/hyperfine.csv" \
            | awk '{printf "| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n", $1, $2 * 1e3, $3 * 1e3, $4 * 1e3, $5 * 1e3}'
        echo
        echo "![hyperfine](hyperfine/hyperfine.png)"
        echo
    fi
    for sub in "$dir"/*/; do
        name=$(basename "$sub")
        case $name in plots|hyperfine) continue ;; esac
        if [ -f "$sub/section.md" ]; then
            echo
            cat "$sub/section.md"
            echo
        else
            shown=""
            for f in "$sub"*.png; do
                [ -f "$f" ] || continue
                [ -n "$shown" ] || printf '## %s\n\n' "$name"
                shown=1
                printf '![%s](%s/%s)\n\n' "$(basename "$f" .png)" "$name" "$(basename "$f")"
            done
        fi
    done
    echo "## Files"
    echo
    for f in env.txt runs.csv runs.csv.gz summary.csv; do
        [ -f "$dir/$f" ] && printf -- '- `%s` (%s bytes)\n' "$f" "$(wc -c < "$dir/$f")"
    done
    echo "- \`plots/\`: PNG and SVG of every plot (gnuplot scripts in \`scripts/*.gp\`)"
} > "$report"
echo "report.sh: wrote $report" >&2
