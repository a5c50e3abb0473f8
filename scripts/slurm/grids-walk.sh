#!/bin/sh
# Submits count --grids by the profile walk (docs/grid-counting.md) to Slurm:
# the orders phase as an array of N shards and its merge (the orders table,
# and for two bands the total), then for three bands the completions phase as
# an array of M shards, started once the table is merged, and its merge (the
# total). A shard cut short (its --budget-steps ran out: pass it in
# GRIDS_WALK_BUDGET, so that a shard ends before Slurm's time limit kills it)
# is resumed by `resume`, which submits each cut-short partial's rest (the
# --ranks its end line gives) and the phase's merge again.
#   scripts/slurm/grids-walk.sh SHAPE N OUT          # two bands: 2x6 (also 2x3 .. 2x5)
#   scripts/slurm/grids-walk.sh SHAPE N M OUT        # three bands: 3x4 (also 3x3)
#   scripts/slurm/grids-walk.sh resume OUT/PHASE     # PHASE: orders or completions
# Output: OUT/orders/shard-K, OUT/orders/merged.txt; OUT/completions/... and
# OUT/completions/merged.txt (paths without spaces). SBATCH_SHARD_OPTS / SBATCH_MERGE_OPTS add sbatch
# options; SUDOLAB names the binary (default: on PATH).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sudolab=${SUDOLAB:-sudolab}
usage() {
    sed -n '2,15p' "$0" >&2
    exit 2
}

# merge_job DIR [DEPENDENCY]: every piece of DIR merged into DIR/merged.txt
merge_job() {
    dep=
    [ -n "${2:-}" ] && dep="--dependency=afterany:$2"
    # shellcheck disable=SC2086
    sbatch --parsable $dep --job-name=sudolab-merge ${SBATCH_MERGE_OPTS:-} \
        --output="$1/merge-%j.log" \
        --wrap="find '$1' -name 'shard-*' | '$sudolab' merge --list - > '$1/merged.tmp' && mv '$1/merged.tmp' '$1/merged.txt'"
}

# phase DIR N DEPENDENCY ARGS...: N shards of count ARGS, then their merge
phase() {
    dir=$1
    n=$2
    dep=$3
    shift 3
    mkdir -p "$dir"
    printf '%s\n' "$@" > "$dir/command"
    opts=
    [ -n "$dep" ] && opts="--dependency=afterok:$dep"
    # shellcheck disable=SC2086
    array=$(sbatch --parsable --array="1-$n" --export="ALL,SUDOLAB_SHARDS=$n" $opts \
        ${SBATCH_SHARD_OPTS:-} "$here/shard.sbatch" "$dir" count "$@" \
        ${GRIDS_WALK_BUDGET:+--budget-steps "$GRIDS_WALK_BUDGET"})
    array=${array%%;*}
    merged=$(merge_job "$dir" "$array")
    echo "$dir: shards job $array (array 1-$n), merge job $merged" >&2
    echo "$merged"
}

[ $# -ge 2 ] || usage
if [ "$1" = resume ]; then
    dir=$2
    [ -f "$dir/command" ] || usage
    set --
    while IFS= read -r arg; do set -- "$@" "$arg"; done < "$dir/command"
    jobs=
    for f in "$dir"/shard-*; do
        ranks=$(sed -n 's/^# end .*cut-short: .* resume with --ranks \([0-9:]*-[0-9:]*\)$/\1/p' "$f")
        [ -n "$ranks" ] || continue
        piece=$f.${ranks%%-*}
        [ -e "$piece" ] && continue # resumed already (then see the piece)
        # shellcheck disable=SC2086
        job=$(sbatch --parsable --job-name=sudolab-resume ${SBATCH_SHARD_OPTS:-} \
            --output="$dir/resume-%j.log" \
            --wrap="'$sudolab' count $* --ranks $ranks ${GRIDS_WALK_BUDGET:+--budget-steps $GRIDS_WALK_BUDGET} > '$piece.tmp' && mv '$piece.tmp' '$piece'")
        jobs="$jobs:$job"
        echo "$f: ranks $ranks in job $job" >&2
    done
    [ -n "$jobs" ] || { echo "$dir: no shard was cut short" >&2; exit 0; }
    # the shards read for the resumed ones stay: merge takes each for what it did
    merged=$(merge_job "$dir" "${jobs#:}")
    echo "$dir: merge job $merged" >&2
    exit 0
fi

shape=$1
case $# in
3)
    n=$2
    out=$3
    phase "$out/orders" "$n" "" --empty "$shape" --grids --orders > /dev/null
    ;;
4)
    n=$2
    m=$3
    out=$4
    table=$(phase "$out/orders" "$n" "" --empty "$shape" --grids --orders)
    phase "$out/completions" "$m" "$table" --empty "$shape" --grids \
        --orders-table "$out/orders/merged.txt" > /dev/null
    ;;
*)
    usage
    ;;
esac
