#!/bin/sh
# Runs one libFuzzer target for SECONDS from its seed corpus (copied, so the
# tree is never written) and prints executions and findings. Exit status 0
# when the run ends without a finding, 1 otherwise (the fuzzer's report is
# printed, and the input that triggered it is kept in ARTIFACT-DIR).
# Usage: run.sh FUZZER SEED-DIR SECONDS [ARTIFACT-DIR]
set -u
fuzzer=$1 seeds=$2 seconds=$3 artifacts=${4:-.}
name=$(basename "$fuzzer")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$seeds"/* "$work"/ || exit 1
mkdir -p "$artifacts" || exit 1
log="$artifacts/$name.log"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/crash-$name-" "$work" > "$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" -eq 0 ]; then
    echo "$name: ${execs:-?} executions in ${seconds}s, no finding"
    exit 0
fi
echo "$name: FINDING after ${execs:-?} executions (log: $log)"
tail -n 40 "$log"
exit 1
