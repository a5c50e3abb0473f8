# Distributions per solver over every corpus of a run: the cumulative share of
# finished puzzles (y) within a time or a step count (x, log). One curve per
# solver; `steps` counts each back end's own unit (see its file's header), so
# compare the shapes of those curves, not their positions. Columns are found
# by header name (scripts/csv.awk).
# usage: gnuplot -e "csv='runs.csv'; column='time_ns'; out='time-dist'" scripts/distributions.gp
#        (column: time_ns, steps, guesses, nodes...)
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
if (!exists("column")) column = 'time_ns'
# only the solvers that report the column (sat and milp have no steps)
solvers = system(sprintf("awk -f '%s' -v distinct=solver -v nonempty=%s '%s' | tr '\\n' ' '", \
    awkf, column, csv))
# `order` (optional): the solvers in the run's order, as env.txt lists them;
# kept: those with data here
inorder(found) = exists("order") ? sum_words(found) : found
sum_words(found) = join_found(order, ' '.found.' ', 1, '')
join_found(list, found, i, acc) = i > words(list) ? acc : \
    join_found(list, found, i + 1, acc . (strstrt(found, ' '.word(list, i).' ') ? word(list, i).' ' : ''))
solvers = inorder(solvers)
data(s) = sprintf("< awk -f '%s' -v where='solver=%s;repeat=1' -v verdict=1 -v cols=%s '%s'", \
    awkf, s, column, csv)
scale = column eq 'time_ns' ? 1e6 : 1
unit = column eq 'time_ns' ? 'time per puzzle (ms, log)' : column.' per puzzle (log; +1)'
shift = column eq 'time_ns' ? 0 : 1

set datafile separator whitespace
set logscale x
set format x '10^{%L}'
set grid
set key outside right top
set yrange [0:1]
set xlabel unit noenhanced
set ylabel 'share of finished puzzles'
set title 'Distribution of '.column.' per solver (all corpora)' noenhanced

set terminal pngcairo size 960,560 font 'sans,10' enhanced
set output out.'.png'
plot for [s in solvers] data(s) using (($1 + shift) / scale):(1) smooth cnormal \
    with steps lw 2 title s noenhanced
set terminal svg size 960,560 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
