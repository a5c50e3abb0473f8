# Median (solid) and p90 (dashed) time of the solved runs against fill for
# one grid size, a colour per solver, log scale: the hard region in the
# middle. Reads cells.csv of scripts/phase-transition.sh (columns by header
# name, scripts/csv.awk); a cell with no solved run has no point.
# usage: gnuplot -e "csv='cells.csv'; size='25x25'; out='phase-25x25'" scripts/phase-time.gp
#        (writes OUT-time.png and .svg)
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
solvers = system(sprintf("awk -f '%s' -v where='size=%s' -v distinct=solver '%s' | tr '\\n' ' '", \
    awkf, size, csv))
rows(s, column) = sprintf("< awk -f '%s' -v where='size=%s;solver=%s' -v cols=fill,%s '%s'", \
    awkf, size, s, column, csv)

set datafile separator whitespace
set logscale y
set format y '10^{%L}'
set grid
set key outside right top
set xrange [-2:102]
set xtics 10
set xlabel 'fill: cells given (%)'
set ylabel 'time of a solved run (ms, log)'
set title size.': median (solid) and p90 (dashed) time against fill' noenhanced

set terminal pngcairo size 960,520 font 'sans,10' enhanced
set output out.'-time.png'
plot for [i = 1:words(solvers)] rows(word(solvers, i), 'median_ms') using 1:2 \
        with linespoints lt i pt 7 ps 0.6 title word(solvers, i) noenhanced, \
    for [i = 1:words(solvers)] rows(word(solvers, i), 'p90_ms') using 1:2 \
        with lines lt i + 16 notitle
set terminal svg size 960,520 dynamic font 'sans,10' enhanced
set output out.'-time.svg'
replot
unset output
