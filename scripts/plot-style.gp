# Shared look of the bench plots: 16 distinguishable colours (gnuplot's 8
# repeat once a run has more back ends), then dashed variants.
# Loaded by cactus.gp, scatter.gp, distributions.gp and throughput.gp.
array colours[16] = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', \
    '#e377c2', '#17becf', '#000000', '#bcbd22', '#7f7f7f', '#393b79', '#ad494a', \
    '#637939', '#e6550d', '#6baed6']
do for [i = 1:16] {
    set linetype i lc rgb colours[i] lw 1.5 dt 1 pt 7
    set linetype i + 16 lc rgb colours[i] lw 1.5 dt 2 pt 7
}
set linetype cycle 32
