# The reasoning ladder: the share of each corpus's puzzles that each level
# solves with no search, one panel per family (human, cp, sat), a line per
# corpus. Reads shares.csv of scripts/levels.sh (columns by header name,
# scripts/csv.awk).
# usage: gnuplot -e "csv='shares.csv'; out='levels'" scripts/levels.gp
#        (writes OUT.png and OUT.svg)
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
corpora = system(sprintf("awk -f '%s' -v distinct=corpus '%s' | tr '\\n' ' '", awkf, csv))
rows(c, f) = sprintf("< awk -f '%s' -v where='corpus=%s;family=%s' -v cols=index,share_pct,level '%s'", \
    awkf, c, f, csv)
families = 'human cp sat'
titles = 'human (logic solver, then SE ER bands)|constraint propagation|SAT propagation'

set datafile separator whitespace
set grid
set yrange [-2:102]
set ylabel 'puzzles solved with no search (%)'
set xtics rotate by -35 nomirror noenhanced
set offsets 0.3, 0.3, 0, 0

do for [t = 1:2] {
    if (t == 1) {
        set terminal pngcairo size 1600,560 font 'sans,10' enhanced
        set output out.'.png'
    } else {
        set terminal svg size 1600,560 dynamic font 'sans,10' enhanced
        set output out.'.svg'
    }
    # three equal panels; the last one wider by the key's room
    set multiplot
    do for [f = 1:3] {
        fam = word(families, f)
        set origin (f - 1) * 0.27, 0
        set size (f == 3 ? 0.46 : 0.27), 1
        set title system(sprintf("echo '%s' | cut -d'|' -f%d", titles, f)) noenhanced
        if (f == 3) { set key outside right top noenhanced } else { unset key }
        # the sat levels are each a method on one encoding, not a chain:
        # points, no line between them
        if (f == 3) {
            plot for [i = 1:words(corpora)] rows(word(corpora, i), fam) using 1:2:xtic(3) \
                with points lt i pt 7 ps 1.0 title word(corpora, i)
        } else {
            plot for [i = 1:words(corpora)] rows(word(corpora, i), fam) using 1:2:xtic(3) \
                with linespoints lt i pt 7 ps 0.6 title word(corpora, i)
        }
    }
    unset multiplot
}
unset output
