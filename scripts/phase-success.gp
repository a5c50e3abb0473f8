# Success rate against fill for one grid size, a line per solver: the
# easy-hard-easy dip of Lewis (2007) and Lloyd & Amos (2019). Reads cells.csv
# of scripts/phase-transition.sh (columns by header name, scripts/csv.awk).
# usage: gnuplot -e "csv='cells.csv'; size='25x25'; out='phase-25x25'" scripts/phase-success.gp
#        (writes OUT-success.png and .svg)
if (!exists("sdir")) sdir = 'scripts'
awkf = sdir.'/csv.awk'
load sdir.'/plot-style.gp'
solvers = system(sprintf("awk -f '%s' -v where='size=%s' -v distinct=solver '%s' | tr '\\n' ' '", \
    awkf, size, csv))
rows(s) = sprintf("< awk -f '%s' -v where='size=%s;solver=%s' -v cols=fill,success_pct '%s'", \
    awkf, size, s, csv)

set datafile separator whitespace
set grid
set key outside right top
set xrange [-2:102]
set yrange [-2:102]
set xtics 10
set xlabel 'fill: cells given (%)'
set ylabel 'runs solved within the time limit (%)'
set title size.': success rate against fill' noenhanced

set terminal pngcairo size 960,520 font 'sans,10' enhanced
set output out.'-success.png'
plot for [i = 1:words(solvers)] rows(word(solvers, i)) using 1:2 \
    with linespoints lt i pt 7 ps 0.6 title word(solvers, i) noenhanced
set terminal svg size 960,520 dynamic font 'sans,10' enhanced
set output out.'-success.svg'
replot
unset output
