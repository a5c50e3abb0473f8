# The ratio table of scripts/compare-tdoku.sh for one instruction set: reads
# ISA-limitK/summary.csv for every K of `limits` and ISA-run_benchmark.csv
# from the folder `out`, finds the columns by their header names, and prints
# one Markdown table (fast's row and tdoku's row of each corpus side by side).
#
# usage: awk -v isa=native -v limits='2 1' -v out=DIR -f scripts/compare-tdoku.awk
function read_summary(file, k,    line, n, f, i, c, key) {
    if ((getline line < file) <= 0)
        return
    n = split(line, f, ",")
    for (i = 1; i <= n; i++)
        c[f[i]] = i
    while ((getline line < file) > 0) {
        split(line, f, ",")
        key = f[c["corpus"]] SUBSEP k SUBSEP f[c["solver"]]
        best[key] = f[c["pass_best_puzzles_per_s"]]
        q1[key] = f[c["pass_q1_puzzles_per_s"]]
        q3[key] = f[c["pass_q3_puzzles_per_s"]]
        guesses[key] = f[c["mean_guesses"]]
        ratio[key] = f[c["speedup_vs_baseline"]]
        ci_low[key] = f[c["speedup_ci_low"]]
        ci_high[key] = f[c["speedup_ci_high"]]
        if (!((f[c["corpus"]], k) in seen)) {
            seen[f[c["corpus"]], k] = 1
            order[++ncorpora] = f[c["corpus"]] SUBSEP k
        }
    }
    close(file)
}

BEGIN {
    nk = split(limits, ks, " ")
    for (j = 1; j <= nk; j++)
        read_summary(out "/" isa "-limit" ks[j] "/summary.csv", ks[j])
    file = out "/" isa "-run_benchmark.csv"
    while ((getline line < file) > 0) {
        split(line, f, ",")
        rb[f[4]] = f[6]
        rbflags = f[3]
    }
    printf "### %s (fast: %s path; tdoku:%s)\n\n", isa == "v3" ? "-march=x86-64-v3" \
        : "-march=native", isa == "v3" ? "avx2" : "widest", rbflags == "" ? " ?" : rbflags
    print "| corpus | limit | fast, best pass (puzzles/s) | tdoku in sudolab | fast / tdoku | pass quartile range | per puzzle [95% CI] | guesses/puzzle fast | tdoku | tdoku run_benchmark | fast / run_benchmark |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= ncorpora; i++) {
        split(order[i], p, SUBSEP)
        fk = p[1] SUBSEP p[2] SUBSEP "fast"
        tk = p[1] SUBSEP p[2] SUBSEP "tdoku"
        if (!(fk in best) || !(tk in best) || best[tk] == 0)
            continue
        rbs = (p[2] == 2 && (p[1] in rb)) ? sprintf("%.0f | %.2fx", rb[p[1]], best[fk] / rb[p[1]]) : "- | -"
        # tdoku's row holds tdoku against fast (the baseline): inverted here
        pp = (ratio[tk] > 0 && ci_low[tk] > 0 && ci_high[tk] > 0) \
            ? sprintf("%.2fx [%.2f-%.2f]", 1 / ratio[tk], 1 / ci_high[tk], 1 / ci_low[tk]) : "-"
        printf "| %s | %s | %.0f | %.0f | **%.2fx** | %.2f-%.2f | %s | %.2f | %.2f | %s |\n", p[1], p[2],
            best[fk], best[tk], best[fk] / best[tk],
            (q3[tk] > 0 ? q1[fk] / q3[tk] : 0), (q1[tk] > 0 ? q3[fk] / q1[tk] : 0),
            pp, guesses[fk], guesses[tk], rbs
    }
    print ""
}
