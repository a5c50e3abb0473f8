# Time (or guesses) per puzzle against its Sudoku Explainer rating (ER), per
# solver: each finished puzzle a faint dot, and the median of every half-point
# band of ER a line (scripts/er-bands.awk), on a log y axis: where each back
# end's cost grows with human difficulty. Needs runs.csv's se_er column
# (bench --se-rate, or ratings on the corpus lines); columns are found by
# header name (scripts/csv.awk).
# usage: gnuplot -e "csv='runs.csv'; column='time_ns'; out='er-time'" scripts/er.gp
#        (column: time_ns or guesses; optional order='a b c', the run's solvers)
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
if (!exists("column")) column = 'time_ns'
# only the solvers that report the column (sat and milp count no guesses)
solvers = system(sprintf("awk -f '%s' -v distinct=solver -v nonempty=%s '%s' | tr '\\n' ' '", \
    awkf, column, csv))
inorder(found) = exists("order") ? join_found(order, ' '.found.' ', 1, '') : found
join_found(list, found, i, acc) = i > words(list) ? acc : \
    join_found(list, found, i + 1, acc . (strstrt(found, ' '.word(list, i).' ') ? word(list, i).' ' : ''))
solvers = inorder(solvers)
points(s) = sprintf("< awk -f '%s' -v where='solver=%s;repeat=1' -v verdict=1 -v cols=se_er,%s '%s'", \
    awkf, s, column, csv)
# each puzzle's band of 0.5 ER, sorted by band then value, for the medians
medians(s) = points(s) . sprintf(" | awk '{print int($1 / 0.5 + 1e-9), $2}' \
    | sort -k1,1n -k2,2g | awk -f '%s/er-bands.awk' -v width=0.5", sdir)
time = column eq 'time_ns'
scale = time ? 1e6 : 1
shift = time ? 0 : 1
unit = time ? 'time per puzzle (ms, log)' : column.' + 1 per puzzle (log)'

set datafile separator whitespace
set logscale y
set format y '10^{%L}'
set grid
set key outside right top
set xlabel 'Sudoku Explainer rating (ER)'
set ylabel unit noenhanced
set title (time ? 'Time' : column).' against ER per solver (dots: puzzles; lines: medians per 0.5 ER)' noenhanced

set terminal pngcairo size 960,560 font 'sans,10' enhanced
set output out.'.png'
plot for [i = 1:words(solvers)] points(word(solvers, i)) using 1:(($2 + shift) / scale) \
        with points pt 7 ps 0.3 lc rgb colours[(i - 1) % 16 + 1] notitle, \
    for [i = 1:words(solvers)] medians(word(solvers, i)) using 1:(($2 + shift) / scale) \
        with linespoints lt i lw 2 pt 7 ps 0.7 title word(solvers, i) noenhanced
set terminal svg size 960,560 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
