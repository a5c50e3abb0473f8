# Draws a grid at one step of a traced search, as Moler's Figures 11 and 12 do:
# clues, tentative values and the singletons they imply in three colours, and
# the cell left with no candidate (a dead end) in red.
#
# Input: the CSV of `sudolab trace --csv --at STEP PUZZLE`
#   index,at,step,written,row,col,value,role   (role: clue guess singleton empty stuck)
# usage:
#   gnuplot -e "csv='grid.csv'; out='fig'; name='Royle'" scripts/moler-grid.gp
# writes out.png and out.svg. Optional: br, bc (box rows and columns; default
# the usual shape for N, as sudolab infers it), caption (a second title line).

if (!exists("csv")) csv = 'grid.csv'
if (!exists("out")) out = 'grid'
if (!exists("name")) name = 'moler'
if (!exists("caption")) caption = ''

set datafile separator ','
stats csv using 5 skip 1 nooutput
n = int(STATS_max)
stats csv using ($7 > 0 ? 1 : 0) skip 1 nooutput
step_filled = int(STATS_sum)
stats csv using 3 skip 1 nooutput
step = int(STATS_max)
stats csv using 4 skip 1 nooutput
written = int(STATS_max)

if (!exists("br")) {
    br = int(sqrt(n) + 1e-9)
    while (n % br != 0) { br = br - 1 }
}
if (!exists("bc")) bc = n / br

# thousands separators, as the article prints its step numbers
commas(x) = x < 1000 ? sprintf("%d", x) \
    : commas(int(x / 1000)) . sprintf(",%03d", x % 1000)
sym(v) = v < 10 ? sprintf("%d", v) : substr("ABCDEFGHIJKLMNOP", v - 9, v - 9)

# colours: clues blue (the article's Figure 1), tentative values cyan,
# implied singletons green, the dead-end cell red
c_clue = '#b3b8f0'
c_guess = '#5fe3ee'
c_single = '#a6dc8f'
c_stuck = '#f26b6b'
c_empty = '#ffffff'

title_text = sprintf("%s: step %s (values written %s), %d of %d cells filled", name, \
    commas(step), commas(written), step_filled, n * n)
if (strlen(caption) > 0) title_text = title_text . "\n" . caption

unset border
unset tics
unset xlabel
unset ylabel
set size ratio -1
set xrange [0.5 : n + 0.5]
set yrange [0.5 : n + 0.5]
set lmargin 2
set rmargin 2
set tmargin 4
set bmargin 4
set key horizontal bottom center outside samplen 1.5 spacing 1 font ",11"
set title title_text font ",11" noenhanced
set style fill solid 1.0 border lc rgb '#000000'

# cell rules: thin between cells, thick between boxes
do for [k = 0 : n] {
    w = (k % bc == 0) ? 3 : 0.6
    set arrow from k + 0.5, 0.5 to k + 0.5, n + 0.5 nohead lw w lc rgb '#000000' front
}
do for [k = 0 : n] {
    w = (k % br == 0) ? 3 : 0.6
    y = n + 0.5 - k
    set arrow from 0.5, y to n + 0.5, y nohead lw w lc rgb '#000000' front
}

# x: column, y: row counted from the top
X(c) = c
Y(r) = n + 1 - r
is(role) = strcol(8) eq role
cell(role) = is(role) ? X($6) : NaN

fontsize = n <= 9 ? 18 : (n <= 16 ? 11 : 8)
box = ":(Y($5)):(0.5):(0.5) with boxxyerror fc rgb "
lab = sprintf(" with labels font ',%d' notitle", fontsize)
draw = "plot csv skip 1 using (cell('clue'))" . box . "c_clue title 'clue', " \
    . "'' skip 1 using (cell('guess'))" . box . "c_guess title 'tentative value', " \
    . "'' skip 1 using (cell('singleton'))" . box \
    . "c_single title 'implied singleton', " \
    . "'' skip 1 using (cell('stuck'))" . box . "c_stuck title 'no candidate', " \
    . "'' skip 1 using ($7 > 0 ? X($6) : NaN):(Y($5)):(sym($7))" . lab . ", " \
    . "'' skip 1 using (cell('stuck')):(Y($5)):('∅')" . lab

side = n <= 9 ? 600 : 780
set terminal pngcairo size side, side + 90 font "Sans,11"
set output out . '.png'
eval draw
set terminal svg size side, side + 90 font "Sans,11"
set output out . '.svg'
eval draw
set output
