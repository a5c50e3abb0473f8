# The four difficulty raters (sudolab rate) against each other and against
# solve time, one colour per corpus: six panels in one figure.
# usage: gnuplot -e "datadir='DIR/data'; corpora='a b c'; out='DIR/raters'" scripts/raters.gp
#        (also: sdir = the scripts folder, default scripts; solver = the timed
#        back end's name for the axis label) -> out.png, out.svg
# Each DIR/data/<corpus>.dat holds, whitespace-separated: index blanks freedom
# guesses technique_level time_us (scripts/rate-plot.sh writes them).
if (!exists("sdir")) sdir = 'scripts'
if (!exists("solver")) solver = 'mrv'
load sdir.'/plot-style.gp'
file(c) = datadir.'/'.c.'.dat'
jitter(x) = x + (rand(0) - 0.5) * 0.5
set datafile separator whitespace
set grid
set key top left font ',8' noenhanced
set style data points
set pointsize 0.5
ylog = sprintf('%s solve time (µs, log)', solver)
tlabel = 'technique level (1 naked single .. 10 swordfish, 11 guessing)'

do for [term = 1:2] {
    if (term == 1) {
        set terminal pngcairo size 1500,900 font 'sans,10' enhanced
        set output out.'.png'
    } else {
        set terminal svg size 1500,900 dynamic font 'sans,10' enhanced
        set output out.'.svg'
    }
    set multiplot layout 2,3 title 'Difficulty raters against each other and against solve time' noenhanced
    set logscale y
    set format y '10^{%L}'
    set xlabel 'guesses: mean ln(guesses + 1) of mrv over permutations'
    set ylabel ylog noenhanced
    plot for [c in corpora] file(c) using 4:6 title c pt 7
    set xlabel tlabel
    set xrange [-0.5:11.5]
    set xtics 0,1,11
    plot for [c in corpora] file(c) using (jitter($5)):6 title c pt 7
    set autoscale x
    set xtics autofreq
    set xlabel "freedom (seed 004's degree of freedom)"
    plot for [c in corpora] file(c) using 3:6 title c pt 7
    set xlabel 'blanks (seed 004)'
    plot for [c in corpora] file(c) using 2:6 title c pt 7
    unset logscale y
    set format y '%g'
    set xlabel tlabel
    set ylabel 'guesses: mean ln(guesses + 1)'
    set xrange [-0.5:11.5]
    set xtics 0,1,11
    plot for [c in corpora] file(c) using (jitter($5)):4 title c pt 7
    set autoscale x
    set xtics autofreq
    set xlabel "freedom (seed 004's degree of freedom)"
    plot for [c in corpora] file(c) using 3:4 title c pt 7
    unset multiplot
}
unset output
