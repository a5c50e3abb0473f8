# The report's overview: every back end (rows) on every corpus (columns), a
# cell per pair coloured by its speed ratio to the baseline on a log scale
# (the summary's speedup_vs_baseline: the geometric mean over the puzzles
# both finished of the baseline's time over the back end's), and the ratio
# written in it. Green is faster than the baseline, purple slower. A pair
# without a ratio is grey and says why: n/a (the back end does not handle the
# corpus's puzzles), none (it finished none within the budget), - (no puzzle
# finished by both). scripts/plots.sh prepares the data from summary.csv.
# usage: gnuplot -e "data='overview.dat'; solvers='a b'; corpora='x y'; \
#            base='a'; out='overview'" scripts/overview.gp
#   data: lines `x y log10(ratio) label rated`, x the corpus's number, y the
#   solver's, rated 1 for a ratio, 0 for a grey cell (its log10 column 0)
#   -> out.png, out.svg
if (!exists("sdir")) sdir = 'scripts'
set datafile separator whitespace
nc = words(corpora)
ns = words(solvers)
# the widest ratio either way sets the scale, at least 10x (before the
# ranges, which stats would keep to)
stats data using (abs($3)) name 'R' nooutput
m = R_max > 1 ? ceil(R_max) : 1
set xrange [0.5:nc + 0.5]
set yrange [ns + 0.5:0.5]
set xtics () rotate by -35 noenhanced font ',9' nomirror scale 0
do for [c = 1:nc] {
    set xtics add (word(corpora, c) c)
}
set ytics () noenhanced font ',9' nomirror scale 0
do for [s = 1:ns] {
    set ytics add (word(solvers, s) s)
}
set cbrange [-m:m]
set palette defined (-1 '#762a83', -0.5 '#c2a5cf', 0 '#f7f7f7', 0.5 '#a6dba0', 1 '#1b7837')
set cbtics ()
do for [k = -m:m] {
    set cbtics add ((k < 0 ? sprintf('1/%.0f', 10**(-k)) : sprintf('%.0f', 10**k)).'x' k)
}
set cblabel sprintf('speed against %s (log)', base) noenhanced
set title sprintf("Each back end against %s on each corpus: the geometric mean of per-puzzle speed ratios (above 1: faster)\ngrey: n/a = does not handle the corpus, none = finished none within the budget", base) noenhanced
unset key
set border 0
set style fill solid 1.0 noborder
set lmargin 14

set terminal pngcairo size 1400,820 font 'sans,10' enhanced
set output out.'.png'
plot data using ($5 == 1 ? $1 : NaN):2:(0.5):(0.5):3 with boxxyerror fc palette, \
    '' using ($5 == 0 ? $1 : NaN):2:(0.5):(0.5) with boxxyerror fc rgb '#d9d9d9', \
    '' using 1:2:4 with labels font ',7'
set terminal svg size 1400,820 dynamic font 'sans,10' enhanced
set output out.'.svg'
replot
unset output
