# Bars of hyperfine's whole-process times: the mean per command with its
# standard deviation (log scale). Columns are found by header name in
# hyperfine's CSV export (command, mean, stddev; seconds).
# usage: gnuplot -e "csv='hyperfine.csv'; out='hyperfine'; what='20 puzzles'" scripts/hyperfine.gp
if (!exists("sdir")) sdir = 'scripts'
if (!exists("what")) what = ''
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
data = sprintf("< awk -f '%s' -v cols=command,mean,stddev '%s'", awkf, csv)

set datafile separator whitespace
set style fill solid 0.8 border -1
set boxwidth 0.7
set logscale y
set format y '10^{%L}'
set grid ytics
set key off
set xtics rotate by -35 noenhanced
set ylabel 'whole process: mean time (s, log), +- standard deviation'
set title 'hyperfine: '.what noenhanced
set yrange [*:*]

set terminal pngcairo size 1000,560 font 'sans,10' enhanced
set output out.'.png'
plot data using 0:2:(0.7):($0 + 1):xtic(1) with boxes lc variable, \
    '' using 0:2:($2 - $3 > 0 ? $2 - $3 : $2 / 2):($2 + $3) with yerrorbars lc 'black' \
        pt 7 ps 0.3
set terminal svg size 1000,560 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
