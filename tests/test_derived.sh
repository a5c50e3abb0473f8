#!/bin/sh
# datasets/derived/: each corpus comes back from its recipe (make.sh), and
# what its README says of it holds: sparse16's puzzles have 16 clues, each one
# of the 17-clue corpus's less one clue, and two or more solutions.
# Usage: test_derived.sh SUDOLAB DATASETS
set -u
bin=${1:-${SUDOLAB_BIN:-sudolab}}
data=${2:-datasets}
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

sh "$data/derived/make.sh" "$tmp/sparse16.xz"
ok "make.sh runs" $?
xz -dc "$tmp/sparse16.xz" > "$tmp/new"
xz -dc "$data/derived/sparse16.xz" > "$tmp/committed"
same "sparse16 comes back from its recipe" "$tmp/new" "$tmp/committed"

grep -v '^#' "$tmp/committed" > "$tmp/puzzles"
[ "$(wc -l < "$tmp/puzzles")" -eq 4916 ]
ok "sparse16 holds 4,916 puzzles" $?
bad=$(awk '{ c = $0; if (gsub(/[1-9]/, "", c) != 16) n++ } END { print n + 0 }' "$tmp/puzzles")
[ "$bad" -eq 0 ]
ok "every sparse16 puzzle has 16 clues" $? "$bad have not"

# each is a 17-clue puzzle less one clue: the clue restored from its source
xz -dc "$data/public/puzzles2_17_clue.xz" | grep -v '^#' \
    | awk 'NR % 10 == 1 { print substr($1, 1, 81) }' > "$tmp/sources"
bad=$(paste -d' ' "$tmp/puzzles" "$tmp/sources" | awk '{
        d = 0
        for (i = 1; i <= 81; i++) {
            a = substr($1, i, 1); b = substr($2, i, 1)
            if (a != b && !(a == "." && b ~ /[1-9]/)) d += 99
            else if (a != b) d++
        }
        if (d != 1) n++
    } END { print n + 0 }')
[ "$bad" -eq 0 ]
ok "every sparse16 puzzle is its source less one clue" $? "$bad are not"

# two or more solutions, by two back ends (no deadline: a step budget only)
for s in dlx mrv; do
    head -n 100 "$tmp/puzzles" | "$bin" solve --solver "$s" --limit 2 --budget-ms 0 \
        --csv - > "$tmp/$s.csv" 2> "$tmp/$s.err"
    st=$?
    multiple=$(awk -F, 'NR > 1 && $2 == "multiple"' "$tmp/$s.csv" | wc -l)
    [ "$st" -eq 0 ] && [ "$multiple" -eq 100 ]
    ok "$s finds two solutions in each of the first 100" $? "status $st, $multiple multiple"
done

tap_end
