# Medians per band of Sudoku Explainer rating, for scripts/er.gp: reads
# "ER VALUE" lines sorted by ER then by value (sort -k1,1g -k2,2g) and prints
# "BAND_CENTRE MEDIAN COUNT" per band of `width` (default 0.5) ER, so that
# a few puzzles at each rating make one point instead of a jagged line.
# usage: ... | sort -k1,1g -k2,2g | awk -f scripts/er-bands.awk [-v width=W]
BEGIN { if (width == "") width = 0.5 }

function flush() {
    if (n == 0)
        return
    m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    printf "%.2f %s %d\n", band * width + width / 2, m, n
    n = 0
}

{
    b = int($1 / width + 1e-9)
    if (n > 0 && b != band)
        flush()
    band = b
    v[++n] = $2
}

END { flush() }
