# Medians per band of Sudoku Explainer rating, for scripts/er.gp: reads
# "BAND VALUE" lines, BAND the number of the ER band (int(ER / width)),
# sorted by band then by value (sort -k1,1n -k2,2g), and prints
# "BAND_CENTRE MEDIAN COUNT" per band, so that the puzzles around each rating
# make one point instead of a jagged line.
# usage: ... | awk '{print int($1 / W + 1e-9), $2}' | sort -k1,1n -k2,2g \
#            | awk -f scripts/er-bands.awk -v width=W     (W default 0.5)
BEGIN { if (width == "") width = 0.5 }

function flush() {
    if (n == 0)
        return
    m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    printf "%.2f %s %d\n", band * width + width / 2, m, n
    n = 0
}

{
    if (n > 0 && $1 != band)
        flush()
    band = $1
    v[++n] = $2
}

END { flush() }
