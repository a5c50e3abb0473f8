#!/bin/sh
# Remakes sparse16.xz, the sparse puzzles with several solutions, from the
# 17-clue corpus: every tenth puzzle of public/puzzles2_17_clue.xz (the 1st,
# 11th, 21st, ...), less one clue: the k-th puzzle kept loses its
# ((k - 1) mod 17 + 1)-th clue in reading order, so each of the 17 positions
# of the clue list is taken alike. No 16-clue puzzle has one solution
# (McGuire, Tugemann and Civario, 2012), so each has two or more.
# Usage: datasets/derived/make.sh [OUT] (default: sparse16.xz beside this).
set -eu
dir=$(dirname "$0")
out=${1:-$dir/sparse16.xz}
xz -dc "$dir/../public/puzzles2_17_clue.xz" | awk '
    BEGIN {
        print "# sparse16: 16-clue puzzles with two or more solutions, made by datasets/derived/make.sh"
        print "# from every tenth puzzle of puzzles2_17_clue (the 1st, 11th, ...), the k-th losing"
        print "# its ((k - 1) mod 17 + 1)-th clue in reading order"
    }
    /^#/ || NF == 0 { next }
    {
        n++
        if (n % 10 != 1)
            next
        k++
        drop = (k - 1) % 17 + 1
        p = substr($1, 1, 81)
        seen = 0
        for (i = 1; i <= 81; i++) {
            c = substr(p, i, 1)
            if (c ~ /[1-9]/ && ++seen == drop) {
                p = substr(p, 1, i - 1) "." substr(p, i + 1)
                break
            }
        }
        print p
    }' | xz -9e > "$out.tmp"
mv "$out.tmp" "$out"
