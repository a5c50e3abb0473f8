#!/bin/sh
# Redraws Moler's Figures 11 and 12 ("Solving Sudoku with MATLAB", 2009) from
# sudolab's own trace of Gordon Royle's puzzle: the grid after 22 steps and
# after 14,781 steps, as PNG and SVG.
#
# usage: scripts/moler-figures.sh [OUTDIR]       (default: results/moler)
# SUDOLAB_BIN names the sudolab program (default: build/sudolab).
# Writes OUTDIR/fig11-step22.{csv,png,svg} and OUTDIR/fig12-step14781.{csv,png,svg};
# the CSV is the grid as `sudolab trace --csv --at` prints it.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/results/moler}
bin=${SUDOLAB_BIN:-$root/build/sudolab}
royle='.2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.'

if [ ! -x "$bin" ]; then
    echo "moler-figures: $bin not found: build sudolab first (meson setup build &&" \
        "ninja -C build) or set SUDOLAB_BIN" >&2
    exit 2
fi
if ! command -v gnuplot >/dev/null; then
    echo "moler-figures: gnuplot is not installed" >&2
    exit 2
fi
mkdir -p "$out"

# figure STEP FILE CAPTION
figure() {
    "$bin" trace --solver moler --csv --at "$1" "$royle" >"$out/$2.csv"
    gnuplot -e "csv='$out/$2.csv'; out='$out/$2'; name='Royle, moler'" \
        -e "caption='$3'" "$root/scripts/moler-grid.gp"
    echo "$out/$2.png $out/$2.svg"
}

figure 22 fig11-step22 \
    "Figure 11: the first column is filled; the 1 at (1,1) is a wrong choice"
figure 14781 fig12-step14781 \
    "Figure 12: no candidate is left for (1,9); the 7 at (1,1) is a wrong choice"
