# Throughput bars per corpus from summary.csv: puzzles per second of each
# solver, the whole-pass figure (tdoku's protocol) where it was measured, else
# the per-puzzle one (log scale). Columns are found by header name
# (scripts/csv.awk).
# usage: gnuplot -e "csv='summary.csv'; out='throughput'" scripts/throughput.gp
#        (also: corpora = 'a b c', only those; plots.sh draws six per chart)
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
if (!exists("corpora")) corpora = ''
table = sprintf("< awk -f '%s' -v pivot=corpus,solver -v 'value=pass_puzzles_per_s|puzzles_per_s' -v 'only=%s' '%s'", \
    awkf, corpora, csv)
ncols = int(system(sprintf("awk -f '%s' -v distinct=solver '%s' | wc -l", awkf, csv)))

set datafile separator whitespace
set datafile missing '?'
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.9 border -1
set boxwidth 0.9
set logscale y
set format y '10^{%L}'
set yrange [0.1:*]
set grid ytics
set key outside right top noenhanced
set xtics rotate by -25 noenhanced
set ylabel 'puzzles per second (log)'
set title 'Throughput per corpus (whole passes where measured)'

set terminal pngcairo size 1200,600 font 'sans,10' enhanced
set output out.'.png'
plot for [i = 2:ncols + 1] table using i:xtic(1) title columnheader(i)
set terminal svg size 1200,600 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
