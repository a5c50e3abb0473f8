#!/bin/sh
# Remakes every file of this directory with `sudolab generate`; the README
# lists the same commands. Usage: datasets/generated/regenerate.sh [SUDOLAB]
# (default: build/sudolab). Same seeds and same back ends (named in each
# file's header) give the same bytes.
set -eu
bin=${1:-build/sudolab}
dir=$(dirname "$0")
gen() {
    out=$1
    shift
    "$bin" generate "$@" > "$dir/$out.tmp"
    mv "$dir/$out.tmp" "$dir/$out"
    echo "$out: $(grep -vc '^#' "$dir/$out") puzzles" >&2
}
gen 9x9_dig_easy.txt --method dig --difficulty easy --count 100 --seed 1001
gen 9x9_dig_medium.txt --method dig --difficulty medium --count 100 --seed 1002
gen 9x9_dig_hard.txt --method dig --difficulty hard --count 100 --seed 1003
gen 9x9_seed003_easy.txt --method seed003 --difficulty easy --count 100 --seed 1011
gen 9x9_seed003_medium.txt --method seed003 --difficulty medium --count 100 --seed 1012
gen 9x9_seed003_hard.txt --method seed003 --difficulty hard --count 100 --seed 1013
gen 9x9_minimal.txt --method dig --minimal --holes 1 --count 100 --seed 1021
gen 9x9_diagonal_dig_medium.txt --variant diagonal --difficulty medium --count 100 --seed 1031
gen 4x4_dig_easy.txt --size 2x2 --difficulty easy --count 100 --seed 1041
gen 4x4_dig_medium.txt --size 2x2 --difficulty medium --count 100 --seed 1042
gen 4x4_dig_hard.txt --size 2x2 --difficulty hard --count 100 --seed 1043
gen 6x6_dig_easy.txt --size 2x3 --difficulty easy --count 100 --seed 1061
gen 6x6_dig_medium.txt --size 2x3 --difficulty medium --count 100 --seed 1062
gen 6x6_dig_hard.txt --size 2x3 --difficulty hard --count 100 --seed 1063
gen 16x16_dig_easy.txt --size 4x4 --difficulty easy --count 20 --seed 1161
gen 16x16_dig_medium.txt --size 4x4 --difficulty medium --count 20 --seed 1162
gen 16x16_dig_hard.txt --size 4x4 --difficulty hard --count 5 --seed 1163
gen 16x16_minimal.txt --size 4x4 --minimal --holes 1 --count 150 --seed 2161 --solver wide --verifier dlx
gen 25x25_dig_320.txt --size 5x5 --holes 320 --count 50 --seed 2251 --solver wide --verifier sat_assume -j 2
