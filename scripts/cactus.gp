# Cactus plot of one corpus: for each solver, the times of the puzzles it
# finished, sorted (x = puzzles finished, y = time per puzzle, log), as in SAT
# competition reports: a curve further right and lower is better. Columns are
# found by header name (scripts/csv.awk).
# usage: gnuplot -e "csv='runs.csv'; corpus='NAME'; out='cactus-NAME'" scripts/cactus.gp
#        (also: sdir = the scripts folder, default scripts) -> out.png, out.svg
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
sel(where) = sprintf("awk -f '%s' -v where='%s' ", awkf, where)
# the solvers that finished at least one puzzle of the corpus
solvers = system(sel('corpus='.corpus) . "-v verdict=1 -v distinct=solver '" . csv \
    . "' | tr '\\n' ' '")
# `order` (optional): the solvers in the run's order, as env.txt lists them;
# kept: those with data here
inorder(found) = exists("order") ? sum_words(found) : found
sum_words(found) = join_found(order, ' '.found.' ', 1, '')
join_found(list, found, i, acc) = i > words(list) ? acc : \
    join_found(list, found, i + 1, acc . (strstrt(found, ' '.word(list, i).' ') ? word(list, i).' ' : ''))
solvers = inorder(solvers)
times(s) = '< ' . sel('corpus='.corpus.';solver='.s.';repeat=1') \
    . "-v verdict=1 -v cols=time_ns '" . csv . "' | sort -g"

set datafile separator whitespace
set logscale y
set format y '10^{%L}'
set grid
set key outside right top
set xlabel 'puzzles finished (within the budget)'
set ylabel 'time per puzzle (ms, log)'
set title 'Cactus plot: '.corpus noenhanced
set style data steps

set terminal pngcairo size 960,560 font 'sans,10' enhanced
set output out.'.png'
plot for [s in solvers] times(s) using ($0 + 1):($1 / 1e6) title s noenhanced lw 2
set terminal svg size 960,560 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
