# sudolab compare's CSV as one figure: per back end x corpus, NEW's time over
# OLD's (log scale; below 1: NEW is faster) with its 95% bootstrap interval,
# coloured by the verdict (red slower, green faster, grey neither), a line at
# 1 and dotted lines at the verdict's threshold either way.
# usage: gnuplot -e "csv='compare.csv'; out='compare'" scripts/compare.gp
#   (sdir='DIR': where plot-style.gp is, when not run from the tree's root)
#   -> out.png, out.svg
if (!exists("sdir")) sdir = 'scripts'
load sdir.'/plot-style.gp'

set datafile separator ','
set datafile columnheaders
# the CPUs and the threshold, read from the rows (every row has them)
cpu_old = ''; cpu_new = ''; threshold = 0.02
stats csv using (cpu_old = strcol('old_cpu'), cpu_new = strcol('new_cpu'), \
    threshold = column('threshold'), 0) nooutput
stats csv using 'ratio' name 'R' nooutput
lowest = R_min; highest = R_max
# a row with too few puzzles has no interval: its ratio stands in
or_ratio(v) = v == v ? v : column('ratio')
stats csv using (or_ratio(column('ratio_low'))) name 'LOW' nooutput
stats csv using (or_ratio(column('ratio_high'))) name 'HIGH' nooutput
lowest = LOW_min < lowest ? LOW_min : lowest
highest = HIGH_max > highest ? HIGH_max : highest
lowest = lowest < 1 / (1 + threshold) ? lowest : 1 / (1 + threshold)
highest = highest > 1 + threshold ? highest : 1 + threshold

set logscale y
set yrange [lowest / 1.2:highest * 1.2]
set xrange [-0.5:R_records - 0.5]
set grid ytics
set ytics add ('0.01' 0.01, '0.02' 0.02, '0.05' 0.05, '0.1' 0.1, '0.2' 0.2, '0.5' 0.5, \
    '0.8' 0.8, '0.9' 0.9, '0.95' 0.95, '1.05' 1.05, '1.1' 1.1, '1.25' 1.25, '1.5' 1.5, \
    '2' 2, '5' 5, '10' 10, '20' 20, '50' 50, '100' 100)
set key off
set xtics rotate by -30 noenhanced
set ylabel 'time NEW / OLD (log; below 1: NEW is faster)'
set title sprintf("NEW against OLD per puzzle, 95%% bootstrap intervals (OLD: %s; NEW: %s)", \
    cpu_old, cpu_new) noenhanced
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#555555'
set arrow 2 from graph 0, first 1 + threshold to graph 1, first 1 + threshold nohead dt 3 lc rgb '#999999'
set arrow 3 from graph 0, first 1 / (1 + threshold) to graph 1, first 1 / (1 + threshold) \
    nohead dt 3 lc rgb '#999999'
# plot-style.gp's line types: 2 red, 3 green, 11 grey
verdict_lt(v) = v eq 'slower' ? 2 : v eq 'faster' ? 3 : 11
label(i) = strcol('solver').' '.strcol('corpus')

set terminal pngcairo size 1200,600 font 'sans,10' enhanced
set output out.'.png'
plot csv using 0:'ratio':'ratio_low':'ratio_high':(verdict_lt(strcol('verdict'))) \
        with yerrorbars lc variable pt 7, \
    '' using 0:'ratio':(verdict_lt(strcol('verdict'))):xtic(label(0)) with points lc variable pt 7
set terminal svg size 1200,600 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
