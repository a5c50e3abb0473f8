# Reads a CSV with a header line (runs.csv, summary.csv) and finds every column
# by its header name, so the plots and the report keep working when columns
# are added or moved. Plain fields only: no quoted commas (corpus names are
# file names).
#
# usage: awk -f scripts/csv.awk -v MODE=... [-v where='col=value;col=value']
#            [-v verdict=1] FILE
#   -v cols=a,b          the columns, space-separated, rows with an empty one
#                        skipped (gnuplot data)
#   -v distinct=col      the distinct values of a column, in order of appearance
#   -v pair=A,B          join the rows of solvers A and B on (corpus, index):
#                        prints `corpus valueA valueB finishedA finishedB`, with
#                        -v value=col (default time_ns)
#   -v pivot=row,col     a table of -v value=col1|col2 (the first non-empty),
#                        rows by the first column, columns by the second; "?" =
#                        missing (gnuplot: set datafile missing '?'); with
#                        -v only='a b c' only those rows
#   where                keep rows whose columns equal these values
#   nonempty=col         keep rows where this column is not empty
#   verdict=1            keep rows with a verdict (unique, multiple, unsolvable,
#                        solved): not limit, error or invalid
BEGIN {
    FS = ","
    nw = where == "" ? 0 : split(where, wpair, ";")
    if (value == "")
        value = "time_ns"
}

function need(name) {
    if (!(name in col)) {
        printf "csv.awk: %s: no column '%s'\n", FILENAME, name > "/dev/stderr"
        failed = 1
        exit 2
    }
    return col[name]
}

function finished(status) {
    return status ~ /^(unique|multiple|unsolvable|solved)$/
}

NR == 1 {
    sub(/\r$/, "")
    for (i = 1; i <= NF; i++)
        col[$i] = i
    for (k = 1; k <= nw; k++) {
        eq = index(wpair[k], "=")
        wc[k] = need(substr(wpair[k], 1, eq - 1))
        wv[k] = substr(wpair[k], eq + 1)
    }
    if (verdict || pair != "")
        sc = need("status")
    if (cols != "") {
        nc = split(cols, cname, ",")
        for (k = 1; k <= nc; k++)
            cc[k] = need(cname[k])
    }
    if (distinct != "")
        dc = need(distinct)
    if (nonempty != "")
        nec = need(nonempty)
    if (pair != "") {
        split(pair, pr, ",")
        solc = need("solver")
        corc = need("corpus")
        idxc = need("index")
        vc = need(value)
    }
    if (pivot != "") {
        split(pivot, pv, ",")
        prc = need(pv[1])
        pcc = need(pv[2])
        if (only != "") {
            nkeep = split(only, keepv, " ")
            for (k = 1; k <= nkeep; k++)
                keep[keepv[k]] = 1
        }
        nv = split(value, vname, "|")
        for (k = 1; k <= nv; k++)
            vcol[k] = need(vname[k])
    }
    next
}

{
    sub(/\r$/, "")
    for (k = 1; k <= nw; k++)
        if ($wc[k] != wv[k])
            next
    if (verdict && !finished($sc))
        next
    if (nonempty != "" && $nec == "")
        next
    if (distinct != "") {
        if (!seen[$dc]++)
            print $dc
        next
    }
    if (pair != "") {
        key = $corc SUBSEP $idxc
        if ($solc == pr[1] && !(key in a)) {
            a[key] = $vc
            fa[key] = finished($sc)
            order[++nkeys] = key
        } else if ($solc == pr[2] && !(key in b)) {
            b[key] = $vc
            fb[key] = finished($sc)
        }
        next
    }
    if (pivot != "") {
        r = $prc
        c = $pcc
        if (only != "" && !(r in keep))
            next
        if (!(r in rseen)) {
            rseen[r] = 1
            rows[++nrows] = r
        }
        if (!(c in cseen)) {
            cseen[c] = 1
            pcols[++npcols] = c
        }
        for (k = 1; k <= nv; k++) {
            if ($vcol[k] != "") {
                cell[r, c] = $vcol[k]
                break
            }
        }
        next
    }
    line = ""
    for (k = 1; k <= nc; k++) {
        if ($cc[k] == "")
            next
        line = line (k > 1 ? " " : "") $cc[k]
    }
    print line
}

END {
    if (failed)
        exit 2
    for (k = 1; k <= nkeys; k++) {
        key = order[k]
        if (!(key in b) || a[key] == "" || b[key] == "")
            continue
        split(key, kk, SUBSEP)
        print kk[1], a[key], b[key], fa[key], fb[key]
    }
    if (pivot != "") {
        line = pv[1]
        for (j = 1; j <= npcols; j++)
            line = line " " pcols[j]
        print line
        for (i = 1; i <= nrows; i++) {
            line = rows[i]
            for (j = 1; j <= npcols; j++)
                line = line " " ((rows[i], pcols[j]) in cell ? cell[rows[i], pcols[j]] : "?")
            print line
        }
    }
}
