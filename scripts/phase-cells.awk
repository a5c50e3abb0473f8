# Per size, fill and solver, from instances.csv (scripts/phase-transition.sh):
# runs, runs solved, the success rate in percent, and over the solved runs the
# median, p90 and mean time in ms, and the mean of the solver's own clock
# where it gave one (the peer's). Times of runs that ran out of the budget are
# not in them: a cell with no solved run has empty times.
#
# usage: awk -f scripts/phase-cells.awk instances.csv > cells.csv
BEGIN { FS = ","; OFS = "," }

NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }

{
    k = $c["size"] SUBSEP $c["fill"] SUBSEP $c["solver"]
    if (!(k in runs)) {
        order[++nk] = k
        if (!($c["solver"] in seen)) { seen[$c["solver"]] = ++ns; solver[ns] = $c["solver"] }
    }
    runs[k]++
    st = $c["status"]
    if (st == "solved" || st == "unique" || st == "multiple") {
        solved[k]++
        t[k, solved[k]] = $c["time_ns"] / 1e6
        sum[k] += $c["time_ns"] / 1e6
        if ($c["own_ns"] != "") { own[k] += $c["own_ns"] / 1e6; nown[k]++ }
    }
}

# the q-quantile of the sorted t[k, 1..n], nearest rank
function quantile(k, n, q,    r) {
    r = int(q * n + 0.999999)
    return t[k, r < 1 ? 1 : r]
}

END {
    print "size,fill,solver,runs,solved,success_pct,median_ms,p90_ms,mean_ms,own_mean_ms"
    # cells by size as met, then fill ascending, then solver as met
    for (i = 1; i <= nk; i++) {
        split(order[i], f, SUBSEP)
        key[i] = sprintf("%s %06d %04d", f[1], f[2], seen[f[3]])
        idx[i] = i
    }
    for (i = 2; i <= nk; i++)
        for (j = i; j > 1 && sizerank(key[idx[j - 1]]) "" key[idx[j - 1]] > sizerank(key[idx[j]]) "" key[idx[j]]; j--) {
            x = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = x
        }
    for (i = 1; i <= nk; i++) {
        k = order[idx[i]]
        split(k, f, SUBSEP)
        n = solved[k] + 0
        for (a = 2; a <= n; a++)
            for (b = a; b > 1 && t[k, b - 1] > t[k, b]; b--) {
                x = t[k, b]; t[k, b] = t[k, b - 1]; t[k, b - 1] = x
            }
        med = n ? (n % 2 ? t[k, (n + 1) / 2] : (t[k, n / 2] + t[k, n / 2 + 1]) / 2) : ""
        printf "%s,%s,%s,%d,%d,%.1f,%s,%s,%s,%s\n", f[1], f[2], f[3], runs[k], n,
            100 * n / runs[k], (n ? sprintf("%.4g", med) : ""), (n ? sprintf("%.4g", quantile(k, n, 0.9)) : ""),
            (n ? sprintf("%.4g", sum[k] / n) : ""), (nown[k] ? sprintf("%.4g", own[k] / nown[k]) : "")
    }
}

# sizes in grid order (9x9 before 16x16), whatever order they were met in
function sizerank(s) { return sprintf("%03d", s + 0) }
