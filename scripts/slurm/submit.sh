#!/bin/sh
# Submits a sharded sudolab run to Slurm: an array of N shard tasks and a merge
# job that starts when all of them have ended. It runs even when some failed:
# sudolab merge then names the missing or unfinished shards and writes nothing
# (exit status 1 from a shard only means some input entries were bad).
#   scripts/slurm/submit.sh N OUT COMMAND [ARGS...]
#   scripts/slurm/submit.sh 100 results/hardest bench --solvers '*' --budget-ms 10000 \
#       datasets/public/puzzles5_forum_hardest_1905_11+.xz
# Extra sbatch options (account, partition, time) go in SBATCH_SHARD_OPTS and
# SBATCH_MERGE_OPTS; SUDOLAB names the sudolab binary (default: on PATH).
set -eu
if [ $# -lt 3 ]; then
    sed -n '2,11p' "$0" >&2
    exit 2
fi
n=$1
out=$2
cmd=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# shellcheck disable=SC2086
array=$(sbatch --parsable --array="1-$n" --export="ALL,SUDOLAB_SHARDS=$n" \
    ${SBATCH_SHARD_OPTS:-} "$here/shard.sbatch" "$out" "$cmd" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable --dependency="afterany:$array" --export="ALL,SUDOLAB_SHARDS=$n" \
    ${SBATCH_MERGE_OPTS:-} "$here/merge.sbatch" "$out" "$cmd")
echo "shards: job $array (array 1-$n); merge: job $merge, after all shards end"
