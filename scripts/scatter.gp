# Per-puzzle times of two solvers against each other (log-log, one colour per
# corpus, the y = x line): points below the line are puzzles where B is
# faster. Puzzles where either solver hit the budget are crosses. Columns are
# found by header name (scripts/csv.awk).
# usage: gnuplot -e "csv='runs.csv'; a='naive'; b='mrv'; out='scatter'" scripts/scatter.gp
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
base = sprintf("awk -f '%s' -v where='repeat=1' -v pair='%s,%s' '%s'", awkf, a, b, csv)
corpora = system(base . " | awk '$4 && $5 && !s[$1]++ {print $1}' | tr '\\n' ' '")
both(c) = '< ' . base . sprintf(" | awk '$1 == \"%s\" && $4 && $5'", c)
either = '< ' . base . " | awk '!($4 && $5)'"

set datafile separator whitespace
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set grid
set key outside right top
set xlabel a.' time (ms, log)' noenhanced
set ylabel b.' time (ms, log)' noenhanced
set title 'Per puzzle: '.b.' against '.a noenhanced
set size ratio -1

set terminal pngcairo size 960,720 font 'sans,10' enhanced
set output out.'.png'
plot for [c in corpora] both(c) using ($2 / 1e6):($3 / 1e6) with points pt 7 ps 0.5 \
        title c noenhanced, \
    either using ($2 / 1e6):($3 / 1e6) with points pt 2 ps 0.8 lc 'black' \
        title 'budget hit by either', \
    x with lines dt 2 lc 'gray' title 'y = x'
set terminal svg size 960,720 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
