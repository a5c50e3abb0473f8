#!/bin/sh
# Draws the plots of one bench run directory (runs.csv or runs.csv.gz,
# summary.csv, env.txt as `sudolab bench --out DIR` writes them) into
# DIR/plots/, PNG and SVG: a cactus plot per corpus, the per-puzzle scatter of
# two solvers, the time and steps distributions per solver, the throughput
# bars per corpus, each solver's speed ratio to the baseline with its 95%
# interval (comparison), and, when the puzzles carry Sudoku Explainer ratings
# (runs.csv's se_er), time and guesses against ER per solver (er-time,
# er-guesses), and the report's overview: every back end against the baseline
# on every corpus (overview). Columns are found by header name. Every plot is
# drawn by one gnuplot process: each script is loaded after `reset session`
# with its variables, as `gnuplot -e VARS SCRIPT` would run it.
#
# usage: scripts/plots.sh DIR [A,B]
#   A,B  the scatter's two solvers (default: the run's baseline against the
#        solver with the best geometric-mean speed ratio)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sdir=$root/scripts
dir=${1:?usage: scripts/plots.sh DIR [A,B]}
dir=$(cd "$dir" && pwd)
command -v gnuplot > /dev/null || { echo "plots.sh: gnuplot is not installed" >&2; exit 2; }
runs=$dir/runs.csv
tmp=$(mktemp)
cmp=$(mktemp)
ovw=$(mktemp)
gp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.cells" "$cmp" "$ovw" "$gp"' EXIT
# draw SCRIPT VARS: one plot for the gnuplot process at the end
draw() {
    printf 'reset session\n%s\nload "%s/%s"\n' "$2" "$sdir" "$1" >> "$gp"
}
if [ ! -f "$runs" ] && [ -f "$runs.gz" ]; then
    gzip -dc "$runs.gz" > "$tmp"
    runs=$tmp
fi
if [ ! -f "$runs" ] || [ ! -f "$dir/summary.csv" ]; then
    echo "plots.sh: $dir has no runs.csv and summary.csv" >&2
    exit 2
fi
plots=$dir/plots
mkdir -p "$plots"
order=$(sed -n 's/^solvers: //p' "$dir/env.txt" 2>/dev/null | tail -1)
baseline=$(sed -n 's/^baseline: //p' "$dir/env.txt" 2>/dev/null | tail -1)
[ -n "$baseline" ] || baseline=$(awk -f "$sdir/csv.awk" -v distinct=solver "$runs" | head -1)

# a file name for a corpus name
safe() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'; }

awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | while read -r corpus; do
    draw cactus.gp "sdir='$sdir'; csv='$runs'; corpus='$corpus'; order='$order'; \
        out='$plots/cactus-$(safe "$corpus")'"
done

pair=${2:-}
if [ -z "$pair" ]; then
    # the fastest by the geometric mean over corpora of speedup_vs_baseline
    best=$(awk -f "$sdir/csv.awk" -v cols=solver,speedup_vs_baseline "$dir/summary.csv" \
        | awk -v base="$baseline" '$1 != base && $2 > 0 {s[$1] += log($2); n[$1]++}
            END {for (k in s) if (!found || s[k] / n[k] > best) {best = s[k] / n[k]; name = k; found = 1}
                 print name}')
    [ -n "$best" ] && pair="$baseline,$best"
fi
if [ -n "$pair" ]; then
    a=${pair%%,*}
    b=${pair#*,}
    draw scatter.gp "sdir='$sdir'; csv='$runs'; a='$a'; b='$b'; out='$plots/scatter-$a-$b'"
fi
for column in time_ns steps; do
    name=$([ "$column" = time_ns ] && echo time || echo "$column")
    draw distributions.gp "sdir='$sdir'; csv='$runs'; column='$column'; order='$order'; \
        out='$plots/$name-distribution'"
done
# throughput bars, at most six corpora a chart (more make bars too thin to
# read), the corpora shared out evenly between the charts
awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | awk '{name[NR] = $0}
    END {
        charts = int((NR + 5) / 6)
        size = int((NR + charts - 1) / charts)
        for (i = 1; i <= NR; i++) {
            group = int((i - 1) / size) + 1
            list[group] = list[group] (list[group] == "" ? "" : " ") name[i]
        }
        for (g = 1; g <= charts; g++) print g, list[g]
    }' \
    | while read -r group corpora; do
        draw throughput.gp "sdir='$sdir'; csv='$dir/summary.csv'; corpora='$corpora'; \
            out='$plots/throughput-$group'"
    done
# the comparison: the solvers other than the baseline that have an interval
# somewhere, in the run's order, side by side around each corpus's number
if awk -f "$sdir/csv.awk" -v cols=speedup_ci_low "$dir/summary.csv" > /dev/null 2>&1; then
    awk -f "$sdir/csv.awk" -v cols=corpus,solver,speedup_vs_baseline,speedup_ci_low,speedup_ci_high \
        "$dir/summary.csv" | awk -v base="$baseline" -v order="$order" '
        BEGIN {n = split(order, o, " "); for (k = 1; k <= n; k++) rank[o[k]] = k}
        {if (!($1 in cn)) {cn[$1] = ++nc}}
        $2 != base {row[++nr] = $0; if (!($2 in sn)) {sn[$2] = 1; names[++ns] = $2}}
        END {
            # the run order where known, else as met
            for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++)
                if ((names[j] in rank ? rank[names[j]] : 1e9 + j) < (names[i] in rank ? rank[names[i]] : 1e9 + i)) {
                    t = names[i]; names[i] = names[j]; names[j] = t
                }
            for (i = 1; i <= ns; i++) si[names[i]] = i
            printf "#"; for (i = 1; i <= ns; i++) printf " %s", names[i]; print ""
            for (k = 1; k <= nr; k++) {
                split(row[k], f, " ")
                x = cn[f[1]] + (ns > 1 ? (si[f[2]] - (ns + 1) / 2) * 0.6 / (ns - 1) : 0)
                print x, si[f[2]], f[3], f[4], f[5]
            }
        }' > "$cmp"
    names=$(sed -n '1s/^# *//p' "$cmp")
    if [ -n "$names" ]; then
        paths=""
        for s in $names; do
            p=$(sed -n "s/^isa_path: $s //p" "$dir/env.txt" 2> /dev/null | tail -1)
            paths="$paths ${p:-?}"
        done
        corpora=$(awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | tr '\n' ' ')
        cpu=$(sed -n 's/^cpu: //p' "$dir/env.txt" 2> /dev/null | tail -1 | tr -d "'\"")
        draw comparison.gp "sdir='$sdir'; data='$cmp'; solvers='$names'; paths='${paths# }'; \
            corpora='$corpora'; base='$baseline'; cpu='${cpu:-CPU not recorded}'; \
            out='$plots/comparison'"
    fi
fi
# time and guesses against human difficulty, when some puzzle has its ER
if [ -n "$(awk -f "$sdir/csv.awk" -v cols=se_er "$runs" 2> /dev/null | head -1)" ]; then
    for column in time_ns guesses; do
        name=$([ "$column" = time_ns ] && echo time || echo "$column")
        draw er.gp "sdir='$sdir'; csv='$runs'; column='$column'; order='$order'; \
            out='$plots/er-$name'"
    done
fi
# the overview: every back end against the baseline on every corpus, in the
# run's order of back ends and summary.csv's of corpora
corpora=$(awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | tr '\n' ' ')
solvers=$(awk -f "$sdir/csv.awk" -v distinct=solver "$dir/summary.csv" \
    | awk -v order="$order" '{found[$0] = 1; met[++n] = $0}
        END {m = split(order, o, " ")
             for (k = 1; k <= m; k++) if (o[k] in found) {printf "%s ", o[k]; done[o[k]] = 1}
             for (k = 1; k <= n; k++) if (!(met[k] in done)) printf "%s ", met[k]}')
# A pair without a ratio still gets its cell, grey and saying why: n/a (the
# back end does not handle the corpus's puzzles), none (it finished none within
# the budget) or "-" (no puzzle finished by both it and the baseline).
awk -f "$sdir/csv.awk" -v cols=corpus,solver,finished,unsupported "$dir/summary.csv" > "$tmp.cells"
awk -f "$sdir/csv.awk" -v cols=corpus,solver,speedup_vs_baseline "$dir/summary.csv" \
    | awk -v corpora="$corpora" -v solvers="$solvers" '
        BEGIN {n = split(corpora, c, " "); for (k = 1; k <= n; k++) x[c[k]] = k
               n = split(solvers, s, " "); for (k = 1; k <= n; k++) y[s[k]] = k}
        # the ratio as written in its cell: two digits, k for thousands, and
        # below 0.1 as 1/N, as the colour bar writes it
        function label(r) {
            return r < 0.1 ? "1/" label(1 / r) : r >= 1e4 ? sprintf("%.0fk", r / 1e3) \
                : r >= 1e3 ? sprintf("%.1fk", r / 1e3) : r >= 10 ? sprintf("%.0f", r) : sprintf("%.2g", r)
        }
        NR == FNR { why[$1, $2] = $4 > 0 && $3 == 0 ? "n/a" : $3 == 0 ? "none" : "-"; next }
        $3 > 0 && ($1 in x) && ($2 in y) {print x[$1], y[$2], log($3) / log(10), label($3), 1
                                          rated[$1, $2] = 1}
        END {for (k in why) {split(k, p, SUBSEP)
                 if (!(k in rated) && (p[1] in x) && (p[2] in y)) print x[p[1]], y[p[2]], 0, why[k], 0}}' \
        "$tmp.cells" - \
    > "$ovw"
if [ -s "$ovw" ]; then
    draw overview.gp "sdir='$sdir'; data='$ovw'; solvers='$solvers'; corpora='$corpora'; \
        base='$baseline'; out='$plots/overview'"
fi
gnuplot "$gp"
count=0
for f in "$plots"/*.png; do [ -f "$f" ] && count=$((count + 1)); done
echo "plots.sh: wrote $count plots into $plots" >&2
