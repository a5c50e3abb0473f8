#!/bin/bash
# serate (SukakuExplainer's batch rater, built outside the tree: see
# docs/generating-and-rating.md) and `sudolab rate --method se` side by side
# on one machine, puzzle by puzzle: each puzzle is rated by one, then the
# other, so that both meet the same load, and each by a process of its own
# (serate's JVM start, a fraction of a second, is in its figures).
# usage: scripts/se-vs-serate.sh [-n N] [-t S] SERATE_CLASSES FILE [SUDOLAB]
#   SERATE_CLASSES  the directory of serate's compiled classes
#   FILE            puzzles, one a line (plain or .xz), or a ratings .tsv (its
#                   2nd column)
#   SUDOLAB         the build to time (default build/sudolab)
#   -n N            only the first N puzzles
#   -t S            serate's limit a puzzle in seconds (default 1800): past it
#                   the line says timeout and the puzzle leaves the totals
# Prints a line a puzzle (serate's and sudolab's ER/EP/ED, whether they agree,
# serate's CPU and wall seconds, sudolab's CPU seconds, the ratio of the two
# CPU times), then the totals. serate runs with one thread, the serial
# collector and one processor as the JVM sees it; CPU time is user + system
# of the whole process (its JIT threads too), read by bash's `time` to the
# millisecond. Needs java.
set -eu
TIMEFORMAT='%3U %3S %3R'
n=0
limit=1800
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -t) limit=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || { echo "usage: $0 [-n N] [-t S] SERATE_CLASSES FILE [SUDOLAB]" >&2; exit 2; }
classes=$1
file=$2
bin=${3:-build/sudolab}
[ -d "$classes/diuf/sudoku/test" ] || { echo "$0: $classes: no serate classes (diuf/sudoku/test) there" >&2; exit 2; }
command -v java >/dev/null || { echo "$0: java not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $file in
*.xz) xz -dc "$file" ;;
*.tsv) cut -f2 "$file" ;;
*) cat "$file" ;;
esac | grep -v '^#' | grep -v '^[[:space:]]*$' >"$tmp/all"
[ "$n" -gt 0 ] && head -n "$n" "$tmp/all" >"$tmp/some" && mv "$tmp/some" "$tmp/all"
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
printf '# %s puzzles of %s, on %s (%s CPUs)\n' "$(wc -l <"$tmp/all")" "$file" "$cpu" "$(nproc)"
printf '%-5s %-14s %-14s %-5s %9s %9s %9s %8s\n' line serate sudolab same se_cpu se_wall sl_cpu ratio
i=0
while IFS= read -r puzzle; do
    i=$((i + 1))
    printf '%s\n' "$puzzle" >"$tmp/one"
    { time timeout "$limit" java -XX:ActiveProcessorCount=1 -XX:+UseSerialGC -Xmx2g \
        -cp "$classes" diuf.sudoku.test.serate --threads=1 --format='%r/%p/%d' \
        --input="$tmp/one" >"$tmp/se_out" 2>/dev/null; } 2>"$tmp/se_time" || true
    { time "$bin" rate --method se --no-puzzle "$tmp/one" >"$tmp/sl_out"; } 2>"$tmp/sl_time"
    se=$(tail -n 1 "$tmp/se_out")
    sl=$(grep -v '^#' "$tmp/sl_out" | sed -n 's/.*se=\([^ ]*\).*/\1/p')
    printf '%s %s %s %s\n' "$i" "${se:-none}" "${sl:-none}" \
        "$(tail -n 1 "$tmp/se_time") $(tail -n 1 "$tmp/sl_time")"
done <"$tmp/all" | awk -v limit="$limit" '
function median(a, k,   i, j, t) {
    for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{
    se = $2; sl = $3; secpu = $4 + $5; sewall = $6; slcpu = $7 + $8
    timeout = sewall >= limit
    if (timeout) se = "timeout"
    # no rating from serate within the limit (an invalid line, a crash): a
    # disagreement unless sudolab gave none either
    else if (se !~ /^[0-9.]+\/[0-9.]+\/[0-9.]+$/) se = "none"
    # serate 20.0 and sudolab beyond: both gave up, one verdict
    same = timeout ? "-" : (se == sl || (se ~ /^20\.0\// && sl == "beyond")) ? "yes" : "NO"
    ratio = slcpu > 0 ? secpu / slcpu : 0
    printf "%-5d %-14s %-14s %-5s %9.2f %9.2f %9.3f %8.0f\n", $1, se, sl, same, secpu, sewall, slcpu, ratio
    if (timeout) { nt++; next }
    n++; agree += same == "yes"; tse += secpu; tsl += slcpu; r[n] = ratio
}
END {
    if (!n) { printf "no puzzle rated by serate within %d s (%d timeouts)\n", limit, nt; exit 1 }
    printf "# %d rated by both: %d agree; serate %.1f s of CPU (%.2f s a puzzle), sudolab %.3f s (%.1f ms a puzzle): %.0fx in all, median %.0fx", n, agree, tse, tse / n, tsl, 1000 * tsl / n, (tsl > 0 ? tse / tsl : 0), median(r, n)
    printf "%s\n", (nt ? sprintf("; %d timeouts left out", nt) : "")
    exit agree < n
}'
