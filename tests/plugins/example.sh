#!/bin/sh
# The standalone plug-in example, tests/plugins/plugin_lastcell.c, built as
# docs/outside-solvers.md says a plug-in outside the tree is built: with the
# documented command against solvers/sudolab_plugin.h alone (no other sudolab
# header, no sudolab library), then loaded by sudolab and checked against mrv.
# Usage: example.sh SUDOLAB SOURCE-ROOT [CC]
set -u
bin=$1
src=$2
cc=${3:-cc}
# shellcheck source=tests/tap.sh
. "$src/tests/tap.sh"

example=$src/tests/plugins/plugin_lastcell.c
# only sudolab_plugin.h: a copy of the header alone in a folder of its own
mkdir -p "$tmp/sudolab/solvers"
cp "$src/solvers/sudolab_plugin.h" "$tmp/sudolab/solvers/"
cp "$example" "$tmp/plugin_lastcell.c"
(cd "$tmp" && "$cc" -O2 -shared -fPIC -I sudolab/solvers -o lastcell.so plugin_lastcell.c) \
    > "$tmp/cc.out" 2>&1
ok "builds with the documented command against the header alone" $? "$(cat "$tmp/cc.out")"
for std in c99 c11 c17; do
    "$cc" -std=$std -Wall -Wextra -Wpedantic -Werror -O2 -shared -fPIC \
        -I "$tmp/sudolab/solvers" -o "$tmp/strict.so" "$tmp/plugin_lastcell.c" \
        > "$tmp/cc.out" 2>&1
    ok "builds warning-free as -std=$std -Wall -Wextra -Wpedantic" $? "$(cat "$tmp/cc.out")"
done

plugin="so:$tmp/lastcell.so"
"$bin" list --solver "$plugin" > "$tmp/list" 2>&1
has "sudolab list shows it under its file's name, with its capabilities" "$tmp/list" \
    '^so:lastcell .*backtrack .*1-25 .*count,diagonal,step-budget .*lastcell: last empty cell'
royle='.2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.'
"$bin" solve --solver mrv "$royle" | awk '{print $2, $NF}' > "$tmp/mrv"
"$bin" solve --solver "$plugin" "$royle" | awk '{print $2, $NF}' > "$tmp/plugin"
same "it solves Royle's puzzle as mrv does" "$tmp/mrv" "$tmp/plugin"
[ "$("$bin" count --solver "$plugin" --empty 2x2 | cut -d' ' -f2)" = 288 ]
ok "it counts the 288 4x4 grids" $?
[ "$("$bin" count --solver "$plugin" --variant diagonal --empty 2x2 | cut -d' ' -f2)" = 48 ]
ok "it counts the 48 diagonal 4x4 grids" $?
"$bin" solve --solver "$plugin" --budget-steps 5 "$royle" > "$tmp/out" 2>&1
has "it stops at a step budget" "$tmp/out" '^1 limit solutions=0 steps=5 '

tap_end
