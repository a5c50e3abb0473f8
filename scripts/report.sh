#!/bin/sh
# Writes DIR/REPORT.md for one bench run directory. It opens with the answer,
# one screen: the machine and whether it was quiet (env.txt), the fastest
# back end per corpus with its lead over the next and that lead's 95%
# interval (scripts/fastest.awk over runs.csv), the overview figure (each
# back end against the baseline on each corpus, plots/overview.png), what was
# timed on how many puzzles and how long the job took (DIR/stages.txt, from
# scripts/run-bench.sh). Then a table per corpus (summary.csv, columns found
# by header name) with its cactus plot, the comparison of each solver with
# the baseline (ratios with their 95% intervals, naming the CPU and each
# solver's instruction-set path), the scatter, distribution and throughput
# plots (DIR/plots/, scripts/plots.sh), time and guesses against Sudoku
# Explainer's rating when the puzzles carry one (runs.csv's se_er), the
# hyperfine comparison (DIR/hyperfine/), the phase-transition experiment
# (DIR/phase-transition/, scripts/phase-transition.sh), any extra section,
# and the setup in full. Each section is one function below.
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
cpu=$(fact cpu)
[ -n "$cpu" ] || cpu="an unrecorded CPU"
# each solver's instruction-set path, "name=path ..." (the last line per
# solver: a merged env.txt holds every shard's); generic code built with
# -march=native says so
native=$(fact native | cut -c1-3)
isa=$(sed -n 's/^isa_path: //p' "$env" | awk -v native="$native" '
    {name = $1; path[name] = $2 (native == "yes" && $2 == "generic" ? ",-march=native" : "")
     if (!(name in seen)) {seen[name] = 1; order[++n] = name}}
    END {for (i = 1; i <= n; i++) printf "%s%s=%s", (i > 1 ? " " : ""), order[i], path[order[i]]}')

# Back ends that hand each puzzle to another one (solvers/auto.c): the
# answer's "next" back end is never one of them.
dispatchers="auto"

# The warning when other processes (or other guests) took the CPU during the
# run: every `quiet:` line of env.txt counts (a merged run has one per shard).
noise_warning() {
    noisy=$(sed -n 's/^quiet: no (\(.*\))$/\1/p' "$env")
    unknown=$(sed -n 's/^quiet: unknown (\(.*\))$/\1/p' "$env" | head -1)
    if [ -n "$noisy" ]; then
        echo "> **Warning: the machine was not quiet during this run:**"
        printf '%s\n' "$noisy" | sed 's/^/> /; s/$/;/'
        echo "> load average $(fact loadavg_before) before, $(fact loadavg_after) after."
        echo "> Times, throughputs and ratios may be off; rerun on an idle machine to confirm."
        echo
    elif [ -n "$unknown" ]; then
        echo "Whether the machine was quiet is not known: $unknown."
        echo
    fi
}

# Each solver against the baseline, per corpus: the ratio with its interval
# and verdict, and the whole-pass throughput with its spread.
comparison_section() {
    echo "## Comparison against $baseline"
    echo
    echo "Each solver against $baseline, measured on $cpu: the ratio is the geometric mean,"
    echo "over the puzzles both finished, of $baseline's time over the solver's (above 1: faster"
    echo "than $baseline). Its 95% interval is a paired bootstrap over those puzzles (2,000"
    echo "resamples of the puzzles with replacement, fixed seed, percentile interval;"
    echo "\`bench/bench_stats.h\`): it says how much the ratio depends on which puzzles the"
    echo "corpus holds, not how it would move on another machine or build. A ratio whose"
    echo "interval holds 1 is **no measurable difference**. The whole-pass columns are the"
    echo "best, the median and the interquartile range of the passes' own puzzles/s (\`--repeat"
    echo "K\` times at least K passes); each solver's instruction-set path is named beside it."
    awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | while read -r corpus; do
        echo
        printf '### %s: against %s (%s) on %s\n\n' "$corpus" "$baseline" "$(isa_of "$baseline")" "$cpu"
        echo "| solver | path | puzzles compared | ratio | 95% interval | verdict | pass p/s best | median | interquartile range |"
        echo "|---|---|---:|---:|---|---|---:|---:|---:|"
        awk -F, -v corpus="$corpus" -v base="$baseline" -v isa="$isa" '
            function g(v) { return v == "" ? "-" : (v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)) }
            BEGIN { n = split(isa, p, " "); for (k = 1; k <= n; k++) { eq = index(p[k], "="); path[substr(p[k], 1, eq - 1)] = substr(p[k], eq + 1) } }
            # a column by name; empty when the file has none (an older summary.csv)
            function v(name) { return (name in c) ? $c[name] : "" }
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; has_ci = "speedup_ci_low" in c; next }
            v("corpus") != corpus { next }
            {
                s = v("solver"); r = v("speedup_vs_baseline"); lo = v("speedup_ci_low"); hi = v("speedup_ci_high")
                if (s == base) verdict = "baseline"
                else if (r == "") verdict = "no puzzle finished by both"
                else if (!has_ci) verdict = "no interval recorded"
                else if (lo == "" || hi == "") verdict = "no interval (under 10 puzzles compared)"
                else if (lo > 1) verdict = "faster"
                else if (hi < 1) verdict = "slower"
                else verdict = "no measurable difference"
                interval = s == base || lo == "" || hi == "" ? "-" : "[" g(lo) ", " g(hi) "]"
                q1 = v("pass_q1_puzzles_per_s"); q3 = v("pass_q3_puzzles_per_s")
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s, ((s in path) ? path[s] : "-"),
                    (v("speedup_pairs") == "" ? "-" : v("speedup_pairs")), (r == "" ? "-" : g(r) "x"), interval,
                    verdict, g(v("pass_best_puzzles_per_s")), g(v("pass_median_puzzles_per_s")),
                    (q1 == "" ? "-" : g(q1) "-" g(q3))
            }' "$dir/summary.csv"
    done
    if [ -f "$dir/plots/comparison.png" ]; then
        echo
        echo "![each solver against $baseline, with 95% intervals](plots/comparison.png)"
    fi
}

# A solver's path, from $isa; "not recorded" for runs made before env.txt had it.
isa_of() {
    printf '%s\n' "$isa" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1 | grep . || echo "path not recorded"
}

# Time and guesses against Sudoku Explainer's ER: the plots, and each
# solver's median time per whole point of ER (puzzles finished, repeat 1).
er_section() {
    runs=$dir/runs.csv
    [ -f "$runs" ] || runs=$dir/runs.csv.gz
    [ -f "$dir/plots/er-time.png" ] && [ -f "$runs" ] || return 0
    rows=$(mktemp)
    gzip -dcf "$runs" | awk -f "$sdir/csv.awk" -v where='repeat=1' -v verdict=1 \
        -v cols=se_er,solver,time_ns,corpus,index > "$rows" 2> /dev/null || true
    rated=$(awk '{print $4, $5}' "$rows" | sort -u | wc -l)
    # puzzles without a rating (beyond SE's techniques, out of rating time,
    # not classic 9x9) are no ER of 20.0: counted here, left out of the plots
    all=$(gzip -dcf "$runs" | awk -f "$sdir/csv.awk" -v where='repeat=1' -v verdict=1 \
        -v cols=corpus,index 2> /dev/null | sort -u | wc -l)
    how="read from the corpus lines"
    [ "$(fact se_rate)" = yes ] && how="computed by \`bench --se-rate\` ($(fact se_rate_ms) ms each at most) where the corpus lines gave none"
    echo "## Cost against human difficulty (Sudoku Explainer's ER)"
    echo
    echo "$rated finished puzzles carry a Sudoku Explainer rating,"
    echo "$how. ER is the hardest step a human solver following SE needs (1.2 hidden single ... 3.2 X-wing ..."
    echo "6.6+ forcing chains ... 9.5+ nested forcing chains); below, each solver's time and"
    echo "guesses per puzzle against it: a dot per puzzle, a line through the medians of each"
    echo "half point of ER (log scale). The table gives each solver's median time per whole"
    echo "point of ER (in brackets: the puzzles in it)."
    [ "$all" -gt "$rated" ] && echo "$((all - rated)) more finished puzzles carry no rating (beyond SE's techniques, out of rating time, or not classic 9x9) and are left out."
    echo
    awk '{print int($1), $2, $3}' "$rows" | sort -k1,1n -k2,2 -k3,3g | awk -v order="$(fact solvers)" '
        function t(ns) { return ns < 1e4 ? sprintf("%.2f µs", ns / 1e3) : ns < 1e7 ? sprintf("%.3f ms", ns / 1e6) : sprintf("%.3f s", ns / 1e9) }
        { k = $1 SUBSEP $2; v[k, ++n[k]] = $3; if (!($1 in seenb)) { seenb[$1] = 1; bands[++nb] = $1 }
          if (!($2 in seens)) { seens[$2] = 1; found[++nf] = $2 } }
        END {
            ns = split(order, s, " "); m = 0
            for (i = 1; i <= ns; i++) if (s[i] in seens) sv[++m] = s[i]
            for (i = 1; i <= nf; i++) { inl = 0; for (j = 1; j <= m; j++) if (sv[j] == found[i]) inl = 1; if (!inl) sv[++m] = found[i] }
            head = "| ER |"; line = "|---|"
            for (j = 1; j <= m; j++) { head = head " " sv[j] " |"; line = line "---:|" }
            print head; print line
            for (b = 1; b <= nb; b++) {
                out = sprintf("| %d-%d |", bands[b], bands[b] + 1)
                for (j = 1; j <= m; j++) {
                    k = bands[b] SUBSEP sv[j]; c = n[k]
                    if (!c) { out = out " - |"; continue }
                    med = c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2
                    out = out sprintf(" %s (%d) |", t(med), c)
                }
                print out
            }
        }'
    echo
    echo "![time against ER](plots/er-time.png)"
    echo
    [ -f "$dir/plots/er-guesses.png" ] && printf '![guesses against ER](plots/er-guesses.png)\n\n'
    rm -f "$rows"
}

# The title and the machine: CPU, cores, build, threads, and whether it was
# quiet.
header_section() {
    threads=$(fact threads)
    timed="one thread"
    [ -n "$threads" ] && [ "$threads" -gt 1 ] \
        && timed="$threads threads, each back end x corpus on one thread from start to end, $threads at once"
    echo "# sudolab benchmark: $(fact date | cut -c1-10) on $(fact host)"
    echo
    echo "Measured on $cpu ($(fact cores_usable) cores usable of $(fact cores_online))," \
        "timed on $timed; $(fact compiler), $(fact buildtype) build of revision" \
        "\`$(fact git_revision)\`, by \`scripts/run-bench.sh\`. Every figure comes from the" \
        "files beside this one: \`runs.csv\` (one row per corpus, puzzle, solver and repeat)," \
        "\`summary.csv\`, \`env.txt\`."
    echo
    if sed -n 's/^quiet: //p' "$env" | grep -q '^yes' \
        && ! sed -n 's/^quiet: //p' "$env" | grep -qv '^yes'; then
        echo "The machine was quiet: no other process kept a tenth of a core busy during the" \
            "run; load average $(fact loadavg_before | cut -d' ' -f1) at the start and" \
            "$(fact loadavg_after | cut -d' ' -f1) at the end."
        echo
    fi
    noise_warning
}

# What the baseline finished: a sentence for the answer, naming the corpora
# where it left puzzles unfinished (there the other back ends are compared over
# the puzzles it did finish, and one that finished only others has no ratio).
baseline_sentence() {
    awk -f "$sdir/csv.awk" -v cols=corpus,solver,finished,puzzles,unsampled,unsupported \
        "$dir/summary.csv" | awk -v base="$baseline" '
        $2 == base { n++; if ($3 < $4 - $5) short = short (short == "" ? "" : ", ") $1 " (" $3 " of " ($4 - $5) ")" }
        END {
            if (!n) { printf "The baseline `%s` has no rows in this run.", base; exit }
            printf "The baseline is `%s`", base
            if (short == "") printf ", which finished every puzzle it was timed on in every corpus, so every back end that finished a puzzle of a corpus has a ratio there."
            else printf "; it left puzzles unfinished in %s, where the others are compared over the puzzles it finished.", short
        }'
}

# The answer: the fastest back end per corpus with its lead over the next,
# computed from runs.csv by scripts/fastest.awk; the overview figure; what
# the figures mean; what was timed on how many puzzles, and how long the job
# took. The table and the figure come first: with the title and the machine
# they fill the first screen.
answer_section() {
    runs=$dir/runs.csv
    [ -f "$runs" ] || runs=$dir/runs.csv.gz
    [ -f "$runs" ] || return 0
    budget_ms=$(fact budget_ms)
    sample=$(fact sample)
    head=$(fact head)
    ranked="the puzzles every back end was timed on"
    [ -n "$sample" ] && [ "$sample" != 0 ] && ranked="the first $sample puzzles, which every back end was timed on"
    penalty="twice the longest time of the corpus"
    [ -n "$budget_ms" ] && [ "$budget_ms" != 0 ] && penalty="twice the $budget_ms ms budget"
    echo "## The answer"
    echo
    echo "The fastest back end on each corpus, its lead over the next (another search) with"
    echo "that lead's 95% interval; then every back end against the baseline, \`$baseline\`."
    echo
    echo "| corpus | fastest | its median | lead over the next | 95% interval | next | puzzles compared |"
    echo "|---|---|---:|---:|---|---|---:|"
    gzip -dcf "$runs" | awk -f "$sdir/fastest.awk" -v budget_ns="$((${budget_ms:-0} * 1000000))" \
        -v dispatchers="$dispatchers" "$dir/summary.csv" - | awk '
        function t(ns) {
            if (ns == "-") return "-"
            if (ns < 1e4) return sprintf("%.2f µs", ns / 1e3)
            if (ns < 1e7) return sprintf("%.3f ms", ns / 1e6)
            return sprintf("%.3f s", ns / 1e9)
        }
        function g(v) { return v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v) }
        {
            corpus = $1; best = $3; med = $4; next_ = $5; lead = $6; lo = $7; hi = $8; pairs = $9
            if (next_ == "-") { lead = "- (no other back end)"; iv = "-" }
            else if (lead == "-") { lead = "- (no puzzle finished by both)"; iv = "-" }
            else {
                iv = lo == "-" ? "- (under 10 puzzles)" : "[" g(lo) ", " g(hi) "]"
                if (lo != "-" && lo <= 1 && 1 <= hi) iv = iv " no measurable difference"
                lead = "**" g(lead) "x**"
            }
            printf "| %s | **%s** | %s | %s | %s | %s | %s |\n", corpus, best, t(med), lead, iv, next_, pairs
        }'
    echo
    if [ -f "$dir/plots/overview.png" ]; then
        echo "![every back end against $baseline on every corpus](plots/overview.png)"
        echo
    fi
    echo "The fastest: the lowest geometric-mean time per puzzle over $ranked (a puzzle it"
    echo "did not finish counts $penalty). Its lead is the geometric mean, over the puzzles"
    echo "both finished, of the next back end's time over its own, with a 95% paired bootstrap"
    echo "interval (2,000 resamples; **no measurable difference** when the interval holds 1)."
    echo "The next is the best of another search: another instruction-set path of the same"
    echo "back end (\`fast_avx2\` beside \`fast\`) and"
    echo "$(printf '%s' "$dispatchers" | sed 's/[^ ][^ ]*/`&`/g'), which hands each puzzle to another back end, are passed over."
    echo "The figure: each back end's speed against the baseline, the geometric mean over the"
    echo "puzzles both finished of the baseline's time over the back end's (above 1: faster)."
    echo "$(baseline_sentence) A grey cell has no ratio: n/a, the back end does not handle the"
    echo "corpus's puzzles; none, it finished none within the budget."
    echo
    nsolvers=$(awk -f "$sdir/csv.awk" -v distinct=solver "$dir/summary.csv" | wc -l)
    ncorpora=$(awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | wc -l)
    printf 'Coverage: %s back ends x %s corpora, each pair in the tables below.' "$nsolvers" "$ncorpora"
    if [ -n "$sample" ] && [ "$sample" != 0 ]; then
        sampled=$(awk -f "$sdir/csv.awk" -v cols=solver,unsampled "$dir/summary.csv" 2> /dev/null \
            | awk '$2 > 0 && !seen[$1]++ {printf "%s%s", (n++ ? ", " : ""), $1}')
        printf ' The back ends marked fast in `sudolab list` were timed on the first %s puzzles of each' "${head:-all}"
        printf ' corpus; the others (%s) on the first %s, the sample (`bench --sample`): enough' "${sampled:-none}" "$sample"
        printf ' to place them, as they are far from the lead.'
    fi
    [ -n "$budget_ms" ] && printf ' Budget: %s ms per puzzle.' "$budget_ms"
    if [ -f "$dir/stages.txt" ]; then
        printf ' The job took %s.' "$(awk '
            function clock(s) { return sprintf("%d:%02d", s / 60, s % 60) }
            $1 == "total" { total = $2; next }
            { part = part (part == "" ? "" : ", ") $1 " " clock($2); sum += $2 }
            END { printf "%s (%s)", clock(total ? total : sum), part }' "$dir/stages.txt")"
    fi
    printf '\n\n'
}

# The facts of env.txt as a table.
setup_section() {
    echo "## Setup"
    echo
    echo "| | |"
    echo "|---|---|"
    for key in date host kernel cpu cpu_simd cores_online cores_usable governor compiler \
        buildtype build_options c_args native git_revision command limit budget_ms \
        budget_steps repeat threads warmup_ms pass_ms fast_us tdoku_protocol permute seed head \
        sample se_rate se_rate_ms timer_overhead_ns timer_resolution_ns loadavg_before loadavg_after \
        cpu_mhz_before cpu_mhz_after other_busy_cores other_busy_share steal_share self_cores \
        quiet wall_s disagreements errors finished; do
        value=$(fact "$key")
        [ -n "$value" ] && printf '| %s | `%s` |\n' "$key" "$value"
    done
    [ -n "$isa" ] && printf '| isa_path | `%s` |\n' "$isa"
    echo
}

# How the tables' figures are measured.
method_section() {
    echo "Time per puzzle is CLOCK_MONOTONIC around the back end's solve alone (the clue check"
    echo "and the verification of the answer are outside it), after an untimed warm-up; with"
    echo "repeats, the median. The time columns cover the puzzles finished within the budget;"
    echo "**PAR-2** counts the others at twice the budget. **puzzles/s** is all timed puzzles"
    echo "over their summed times; **pass p/s** is tdoku's whole-pass throughput (one clock read"
    echo "per pass over the in-memory corpus), measured for the microsecond back ends."
    echo "**vs $baseline** is the geometric mean over the puzzles both finished of"
    echo "$baseline's time over the solver's: 3x means three times faster; in brackets its 95%"
    echo "interval (see the comparison below), and **no measurable difference** when that holds 1."
    echo "**guesses** is the"
    echo "mean per finished puzzle; each back end documents what it counts (its file's header)."
    echo "Every answer was verified by the independent checker and the solution counts were"
    echo "cross-checked between the back ends (\`disagreements\` in the setup below)."
    echo
}

# A table per corpus (summary.csv), with its cactus plot.
corpus_section() {
    echo "## Results per corpus"
    echo
    method_section
    awk -f "$sdir/csv.awk" -v distinct=corpus "$dir/summary.csv" | while read -r corpus; do
        echo
        awk -F, -v corpus="$corpus" -v base="$baseline" -v cactus="plots/cactus-$(safe "$corpus").png" \
            -v cpu="$cpu" -v isa="$isa" '
            function t(ns) {
                if (ns == "") return "-"
                if (ns < 1e4) return sprintf("%.2f µs", ns / 1e3)
                if (ns < 1e7) return sprintf("%.3f ms", ns / 1e6)
                return sprintf("%.3f s", ns / 1e9)
            }
            function r(v) { return v == "" ? "-" : (v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)) }
            function x(v) { return v == "" ? "-" : (v >= 100 ? sprintf("%.0fx", v) : sprintf("%.3gx", v)) }
            function g(v) { return v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v) }
            # the ratio, its interval, and whether it is a difference at all
            function vs(solver, v, lo, hi) {
                if (v == "" || solver == base) return x(v)
                if (lo == "" || hi == "") return x(v)
                return x(v) " [" g(lo) ", " g(hi) "]" (lo <= 1 && 1 <= hi ? " no measurable difference" : "")
            }
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["corpus"] == corpus {
                n++
                row[n] = $0
                puzzles = $c["puzzles"]
                nst = split("unique multiple unsolvable solved invalid limit error unsupported unsampled pending", st, " ")
                for (k in st) if ((st[k] in c) && $c[st[k]] > 0) show[st[k]] = 1
            }
            END {
                printf "### %s (%d puzzles)\n\n", corpus, puzzles
                head = "| solver"; line = "|---"
                for (k = 1; k <= nst; k++) if (show[st[k]]) { head = head " | " st[k]; line = line "|---:" }
                head = head " | median | mean | p90 | p99 | max | puzzles/s | pass p/s | guesses | PAR-2 | vs " base " |"
                line = line "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                print head; print line
                for (i = 1; i <= n; i++) {
                    split(row[i], f, ",")
                    out = "| " f[c["solver"]]
                    for (k = 1; k <= nst; k++) if (show[st[k]]) out = out " | " f[c[st[k]]]
                    out = out " | " t(f[c["median_ns"]]) " | " t(f[c["mean_ns"]]) " | " t(f[c["p90_ns"]])
                    out = out " | " t(f[c["p99_ns"]]) " | " t(f[c["max_ns"]]) " | " r(f[c["puzzles_per_s"]])
                    out = out " | " r(f[c["pass_puzzles_per_s"]]) " | " r(f[c["mean_guesses"]])
                    out = out " | " t(f[c["par2_ns"]]) " | " vs(f[c["solver"]], f[c["speedup_vs_baseline"]], \
                        f[c["speedup_ci_low"]], f[c["speedup_ci_high"]]) " |"
                    print out
                }
                np = split(isa, paths, " ")
                list = ""
                for (k = 1; k <= np; k++) { sub(/=/, " ", paths[k]); list = list (k > 1 ? ", " : "") paths[k] }
                printf "\nRatios measured on %s; instruction-set paths: %s.\n", cpu, (list == "" ? "not recorded" : list)
                printf "\n![cactus plot of %s](%s)\n", corpus, cactus
            }' "$dir/summary.csv"
    done
}

# The plots over every corpus: scatter, distributions, throughput.
across_section() {
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
}

# hyperfine's whole-process timings (DIR/hyperfine/).
hyperfine_section() {
    [ -f "$dir/hyperfine/hyperfine.csv" ] || return 0
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
}

# The phase-transition experiment (DIR/phase-transition/).
phase_section() {
    if [ -f "$dir/phase-transition/table.md" ]; then
        # scripts/phase-transition.sh's table one heading level down, its
        # plots linked from here
        sed -e 's/^#/##/' -e 's|](phase-|](phase-transition/phase-|' "$dir/phase-transition/table.md"
        echo
    fi
}

# The sections other scripts add: DIR/NAME/section.md, or NAME's PNG files.
extra_sections() {
    for sub in "$dir"/*/; do
        name=$(basename "$sub")
        case $name in plots|hyperfine|phase-transition) continue ;; esac
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
}

# The files of the run.
files_section() {
    echo "## Files"
    echo
    for f in env.txt runs.csv runs.csv.gz summary.csv summary.txt stages.txt; do
        [ -f "$dir/$f" ] && printf -- '- `%s` (%s bytes)\n' "$f" "$(wc -c < "$dir/$f")"
    done
    echo "- \`plots/\`: PNG and SVG of every plot (gnuplot scripts in \`scripts/*.gp\`)"
}

{
    header_section
    answer_section
    corpus_section
    comparison_section
    echo
    across_section
    er_section
    hyperfine_section
    phase_section
    extra_sections
    method_section
    setup_section
    files_section
} > "$report"
echo "report.sh: wrote $report" >&2
