# Each solver against the baseline, per corpus: the geometric-mean speed
# ratio (log scale) with its 95% bootstrap interval as an error bar, and a
# dashed line at 1 (no difference). A bar that crosses the line is no
# measurable difference. scripts/plots.sh prepares the data from summary.csv.
# usage: gnuplot -e "data='comparison.dat'; solvers='b c'; paths='avx2 generic'; \
#            corpora='x.txt y.txt'; base='a'; cpu='CPU'; out='comparison'" scripts/comparison.gp
#   data: lines `x solver-number ratio low high` (x: the corpus's number, shifted
#   a little per solver so that the bars stand side by side)
#   -> out.png, out.svg
if (!exists("sdir")) sdir = 'scripts'
load sdir.'/plot-style.gp'

set datafile separator whitespace
set logscale y
# every bar and the line at 1 show, with room on either side
stats data using 4 name 'LOW' nooutput
stats data using 5 name 'HIGH' nooutput
set yrange [(LOW_min < 1 ? LOW_min : 1) / 1.5:(HIGH_max > 1 ? HIGH_max : 1) * 1.5]
set grid ytics
set ytics add ('0.02' 0.02, '0.05' 0.05, '0.2' 0.2, '0.5' 0.5, '2' 2, '5' 5, '20' 20, '50' 50)
set key outside right top noenhanced
set xrange [0.5:words(corpora) + 0.5]
set xtics rotate by -25 noenhanced
set xtics ()
do for [c = 1:words(corpora)] {
    set xtics add (word(corpora, c) c)
}
set ylabel sprintf('speed ratio to %s (log; above 1: faster)', base) noenhanced
set title sprintf('Against %s, 95%% bootstrap intervals over puzzles (%s)', base, cpu) noenhanced
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
pick(i) = column(2) == i ? column(1) : NaN

set terminal pngcairo size 1200,600 font 'sans,10' enhanced
set output out.'.png'
plot for [i = 1:words(solvers)] data using (pick(i)):3:4:5 with yerrorbars lt i pt 7 \
    title word(solvers, i).' ('.word(paths, i).')'
set terminal svg size 1200,600 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
