# table.md of scripts/phase-transition.sh from its cells.csv: per size, a row
# per fill with each solver's success rate and median time over its solved
# runs; then acs against Lloyd & Amos's program (sudoku_acs) cell by cell:
# success rates, their difference in points, the mean time per solved run and
# the ratio of the two, with the peer's own clock beside its round trip.
#
# usage: awk -f scripts/phase-table.awk -v protocol=FILE -v cpu=NAME cells.csv
BEGIN { FS = ","; ns = 0; nz = 0 }

NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }

{
    z = $c["size"]; f = $c["fill"]; s = $c["solver"]
    if (!(z in zseen)) { zseen[z] = 1; sizes[++nz] = z }
    if (!(s in sseen)) { sseen[s] = 1; solvers[++ns] = s }
    if (!((z, f) in fseen)) { fseen[z, f] = 1; fills[z, ++nf[z]] = f }
    has[z, s] = 1
    runs[z, f, s] = $c["runs"]; ok[z, f, s] = $c["solved"]; pct[z, f, s] = $c["success_pct"]
    med[z, f, s] = $c["median_ms"]; mean[z, f, s] = $c["mean_ms"]; own[z, f, s] = $c["own_mean_ms"]
}

function ms(v) {
    if (v == "") return "-"
    if (v < 1) return sprintf("%.3f ms", v)
    if (v < 1000) return sprintf("%.3g ms", v)
    return sprintf("%.3g s", v / 1000)
}

function x(v) { return v >= 10 ? sprintf("%.0fx", v) : sprintf("%.2gx", v) }

END {
    while ((getline line < protocol) > 0)
        proto = proto "- " line "\n"
    print "# Phase transition: success rate and time against fill"
    print ""
    printf "Measured on %s. Protocol:\n\n%s\n", (cpu == "" ? "an unrecorded CPU" : cpu), proto
    print "Each cell: the share of runs that found a solution within the time limit, and the"
    print "median time of those runs (a run that ran out of time is not in the median)."
    print "`sudoku_acs` is Lloyd & Amos's program, timed by sudolab as the round trip of"
    print "a cmd: back end (its process start included); in brackets the mean of the time"
    print "its own clock gave for the same runs (its search alone: the process start and"
    print "the propagation of the givens are outside it)."
    for (zi = 1; zi <= nz; zi++) {
        z = sizes[zi]
        printf "\n## %s\n\n", z
        head = "| fill |"; rule = "|---:|"
        for (si = 1; si <= ns; si++)
            if (has[z, solvers[si]]) { head = head " " solvers[si] " |"; rule = rule "---:|" }
        print head; print rule
        for (fi = 1; fi <= nf[z]; fi++) {
            f = fills[z, fi]
            row = "| " f "% |"
            for (si = 1; si <= ns; si++) {
                s = solvers[si]
                if (!has[z, s]) continue
                cell = (z, f, s) in runs ? sprintf(" %s%% %s", pct[z, f, s] + 0, ms(med[z, f, s])) : " -"
                if (own[z, f, s] != "")
                    cell = cell " (own clock: mean " ms(own[z, f, s]) ")"
                row = row cell " |"
            }
            print row
        }
        if (!has[z, "acs"] || !has[z, "sudoku_acs"]) continue
        printf "\n### %s: acs against sudoku_acs\n\n", z
        print "| fill | acs solved | sudoku_acs solved | points | acs mean per solved run | sudoku_acs round trip | its own clock | ratio (round trip) | ratio (own clock) |"
        print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        within = 0; cells = 0; ta = na = tp = np = to = no = 0
        for (fi = 1; fi <= nf[z]; fi++) {
            f = fills[z, fi]
            if (!((z, f, "acs") in runs) || !((z, f, "sudoku_acs") in runs)) continue
            d = pct[z, f, "acs"] - pct[z, f, "sudoku_acs"]
            cells++
            if (d <= 5 && d >= -5) within++
            a = mean[z, f, "acs"]; p = mean[z, f, "sudoku_acs"]; o = own[z, f, "sudoku_acs"]
            ta += a * ok[z, f, "acs"]; na += ok[z, f, "acs"]
            tp += p * ok[z, f, "sudoku_acs"]; np += ok[z, f, "sudoku_acs"]
            if (o != "") { to += o * ok[z, f, "sudoku_acs"]; no += ok[z, f, "sudoku_acs"] }
            printf "| %s%% | %s%% | %s%% | %+.1f%s | %s | %s | %s | %s | %s |\n", f, pct[z, f, "acs"] + 0,
                pct[z, f, "sudoku_acs"] + 0, d, (d > 5 || d < -5 ? " **over 5**" : ""), ms(a), ms(p), ms(o),
                (a > 0 && p != "" ? x(p / a) : "-"), (a > 0 && o != "" ? x(o / a) : "-")
        }
        printf "\n%s: acs within 5 points of sudoku_acs in %d of %d cells; mean time per solved run", z, within, cells
        printf " %s (acs, %d runs) against %s (sudoku_acs round trip, %d runs; its own clock %s)",
            (na ? ms(ta / na) : "-"), na, (np ? ms(tp / np) : "-"), np, (no ? ms(to / no) : "-")
        if (na && np)
            printf "; sudoku_acs's time over acs's: %s by the round trip, %s by its own clock (above 1: acs faster)",
                x((tp / np) / (ta / na)), (no ? x((to / no) / (ta / na)) : "-")
        print "."
    }
}
