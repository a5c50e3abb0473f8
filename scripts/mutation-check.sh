#!/bin/sh
# The mutation proof of issue 38: a deliberate one-line bug in each of the
# SE rater's nested chains, the grid counter's class join, the generator's
# band and technique filters and the RNG must make the tests that guard them
# fail. Each mutation is applied to a copy of the committed tree (git archive
# of HEAD into a temporary folder, never the working tree), built
# incrementally, and the named tests run; the unmutated tree must pass the
# same tests first. Not part of CI (a build and a few minutes of tests); the
# table it prints is the one in docs/testing.md.
# Usage: [MUTATION_WORK=DIR] scripts/mutation-check.sh [NAME...]  (default: every
# mutation)
# Exit status: 0 when every mutation is caught, 1 when one is not (or the
# copy does not build or its unmutated tests fail), 2 on bad usage.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)

# NAME~FILE~LINE AS WRITTEN~LINE MUTATED~TESTS (meson test names), one a line.
# The line must occur exactly once in FILE; the mutation changes that line.
mutations=$(
    cat << 'EOT'
se-nested-level3~rater/se_chains.c~    if (level > SE_CH_LEVEL_MAX)~    if (level >= 3)~se_rate se_chains
se-nested-rules~rater/se_chain_runs.c~    for (int i = first; found < 0 && i <= last; i++) {~    for (int i = first; found < 0 && i < last; i++) {~se_rate se_chains
grid-class-join~gridcount/grid_count.c~    return i == SIZE_MAX ? 0 : gc->classes[gc->class_of[i]].orders;~    return i == SIZE_MAX ? 0 : gc->classes[gc->class_of[i] / 2].orders;~grid_count grid_essential
grid-class-orbit~gridcount/grid_count.c~            if (j != SIZE_MAX && gc->class_of[j] == GC_NO_CLASS) {~            if (j != SIZE_MAX) {~grid_count grid_essential
gen-se-band~puzzle/generate.c~    return r.verdict == SE_RATED && r.er >= g->opt.min_se && r.er <= g->opt.max_se;~    return r.verdict == SE_RATED && r.er >= g->opt.min_se && r.er < g->opt.max_se;~generate cli
gen-technique~puzzle/generate.c~        if (lr.hardest < g->opt.min_technique || lr.hardest > g->opt.max_technique)~        if (lr.hardest < g->opt.min_technique || lr.hardest >= g->opt.max_technique)~generate cli
rng-output~common/rng.c~    const uint64_t result = rotl(s[1] * 5, 7) * 9;~    const uint64_t result = rotl(s[1] * 5, 7) * 7;~grid generate
rng-state~common/rng.c~    s[3] = rotl(s[3], 45);~    s[3] = rotl(s[3], 44);~grid generate
rng-seed~common/rng.c~    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;~    z = (z ^ (z >> 26)) * 0x94d049bb133111ebu;~grid generate
EOT
)

for want in "$@"; do
    echo "$mutations" | cut -d'~' -f1 | grep -qx -- "$want" || {
        echo "mutation-check.sh: no mutation '$want'; there are:" \
            $(echo "$mutations" | cut -d'~' -f1)
        exit 2
    }
done
ARGS="$*"
chosen() { # chosen NAME: whether NAME was asked for (all when none was)
    [ -z "$ARGS" ] && return 0
    for w in $ARGS; do [ "$w" = "$1" ] && return 0; done
    return 1
}

# MUTATION_WORK=DIR keeps the copy and its build in DIR (made if missing), so
# that a second run builds only what a mutation touches; else a temporary one.
if [ -n "${MUTATION_WORK:-}" ]; then
    work=$MUTATION_WORK
    mkdir -p "$work" || exit 1
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/sudolab-mutations.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
fi
trap 'exit 1' INT TERM
if [ ! -d "$work/tree" ]; then
    mkdir "$work/tree"
    git -C "$root" archive --format=tar HEAD | tar -x -C "$work/tree" || exit 1
    git -C "$root" rev-parse --short HEAD > "$work/commit"
fi
echo "# the tree of $(cat "$work/commit") in $work"
[ -d "$work/build" ] ||
    meson setup "$work/build" "$work/tree" -Dbuildtype=debugoptimized > "$work/setup.log" 2>&1 ||
    { cat "$work/setup.log"; exit 1; }
nice ninja -C "$work/build" > "$work/ninja.log" 2>&1 || { tail -20 "$work/ninja.log"; exit 1; }

# runs TESTS in the copy; prints the failing tests and the first failed check
run_tests() { # run_tests LOG TEST...
    log=$1
    shift
    nice meson test -C "$work/build" --num-processes 2 --print-errorlogs "$@" > "$log" 2>&1
}
failures() { # failures LOG: "test: its first failed check" for each failing test
    sed -n 's/^ *[0-9]*\/[0-9]* *[^ ]*:[^ ]* \/ \([^ ]*\) *\(FAIL\|ERROR\) .*/\1/p' "$1" |
        sort -u | while read -r t; do
            sed -n "/ \/ $t  *\(FAIL\|ERROR\) /,\$p" "$1" > "$work/failed"
            # cmocka's own lines, or TAP's and the test's file:line message
            check=$(grep -m1 -E '^not ok|^\[  FAILED  \] [a-z_]' "$work/failed" |
                sed 's/^not ok [0-9]* - //; s/^\[  FAILED  \] //')
            why=$(grep -m1 -E '^(# |ERROR: )[^ ]+:[0-9]+: ' "$work/failed" |
                sed 's/^# //; s/^ERROR: //')
            [ -n "$why" ] || why=$(grep -m1 '\[   LINE   \] --- ' "$work/failed" |
                sed 's/.*\[   LINE   \] --- //; s/^\.\.\///')
            why=$(echo "$why" | cut -c1-120)
            printf '%s: %s (%s); ' "$t" "$check" "$why"
        done
}

all_tests=$(echo "$mutations" | while IFS='~' read -r name _ _ _ tests; do
    chosen "$name" && echo "$tests"
done | tr ' ' '\n' | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
run_tests "$work/baseline.log" $all_tests || {
    echo "the unmutated tree fails its tests ($all_tests); nothing is proved:"
    failures "$work/baseline.log"
    echo
    exit 1
}
echo "# unmutated: $all_tests pass"
echo "| mutation | file:line | line mutated | failing tests (first failed check) |"
echo "|---|---|---|---|"

missed=0
echo "$mutations" > "$work/table"
while IFS='~' read -r name file from to tests; do
    chosen "$name" || continue
    f="$work/tree/$file"
    n=$(grep -c -F -x -- "$from" "$f")
    if [ "$n" -ne 1 ]; then
        echo "| $name | $file | (the line occurs $n times: update the table) | - |"
        missed=$((missed + 1))
        continue
    fi
    line=$(grep -n -F -x -- "$from" "$f" | cut -d: -f1)
    cp "$f" "$work/original"
    FROM=$from TO=$to awk '$0 == ENVIRON["FROM"] {print ENVIRON["TO"]; next} {print}' \
        "$work/original" > "$f"
    if ! nice ninja -C "$work/build" > "$work/ninja.log" 2>&1; then
        echo "| $name | $file:$line | does not build: not a proof | - |"
        missed=$((missed + 1))
    else
        # shellcheck disable=SC2086
        if run_tests "$work/$name.log" $tests; then
            echo "| $name | $file:$line | \`$(echo "$to" | sed 's/^ *//')\` | NONE: not caught |"
            missed=$((missed + 1))
        else
            echo "| $name | $file:$line | \`$(echo "$to" | sed 's/^ *//')\` | $(failures "$work/$name.log") |"
        fi
    fi
    cp "$work/original" "$f"
done < "$work/table"
nice ninja -C "$work/build" > /dev/null 2>&1
[ "$missed" -eq 0 ] || { echo "$missed mutation(s) not caught"; exit 1; }
echo "# every mutation caught"
