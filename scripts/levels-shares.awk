# The share of each corpus's puzzles that each level of `sudolab levels`
# solves, from its CSV (columns found by header name; docs/levels.md).
#
# usage: awk -f scripts/levels-shares.awk [-v md=FAMILY] LEVELS.CSV
#   default      one row per corpus and level: corpus,puzzles,family,level,
#                index (1-based within the family),solved,limit,share_pct
#   -v md=human  a Markdown table of that family (human, cp, sat, or
#                summary: a few levels of each), a row per corpus, the
#                share in percent per level ("+N limit" when a budget ran out)
BEGIN {
    FS = ","
    fam["human"] = "singles intersections subsets fish se_patterns se_chains se_dynamic se_nested"
    fam["cp"] = "fc gac sac"
    fam["sat"] = "up_min up_eff up_ext fl_min fl_eff fl_ext hbr_min hbr_eff hbr_ext"
    fam["summary"] = "singles fish se_chains gac sac up_ext fl_ext hbr_ext"
    nf = split("human cp sat", families, " ")
}
NR == 1 {
    for (i = 1; i <= NF; i++)
        col[$i] = i
    next
}
$1 == "corpus" { next } # a header repeated by a concatenation
{
    c = $1
    if (!(c in puzzles))
        order[++ncorpora] = c
    puzzles[c]++
    for (name in col) {
        if ($col[name] == "yes")
            solved[c, name]++
        else if ($col[name] == "limit")
            limited[c, name]++
    }
}
function pct(c, name) {
    return sprintf("%.1f", 100 * solved[c, name] / puzzles[c])
}
END {
    if (md == "") {
        print "corpus,puzzles,family,level,index,solved,limit,share_pct"
        for (k = 1; k <= ncorpora; k++) {
            c = order[k]
            for (f = 1; f <= nf; f++) {
                n = split(fam[families[f]], names, " ")
                for (i = 1; i <= n; i++)
                    printf "%s,%d,%s,%s,%d,%d,%d,%s\n", c, puzzles[c], families[f], \
                        names[i], i, solved[c, names[i]] + 0, limited[c, names[i]] + 0, \
                        pct(c, names[i])
            }
        }
        exit
    }
    n = split(fam[md], names, " ")
    line = "| corpus | puzzles |"
    rule = "|---|---:|"
    for (i = 1; i <= n; i++) {
        line = line " " names[i] " |"
        rule = rule "---:|"
    }
    print line
    print rule
    for (k = 1; k <= ncorpora; k++) {
        c = order[k]
        line = "| " c " | " puzzles[c] " |"
        for (i = 1; i <= n; i++) {
            cell = pct(c, names[i])
            if (limited[c, names[i]])
                cell = cell " +" limited[c, names[i]] " limit"
            line = line " " cell " |"
        }
        print line
    }
}
