#!/bin/sh
# Sudoku Explainer ratings (ER) of whole corpora as a histogram: rates each
# FILE with `sudolab rate --method se` and prints one markdown row per file:
# puzzles rated, how many fall in each half-point ER band from 9.0 up (below
# 9.0 in one column), and the verdicts that are no rating (beyond every
# technique, out of time, not one solution), so that a corpus's hardest puzzles
# show as counts and never as an ER of 20.
#
# usage: scripts/se-histogram.sh [--every K] [--keep DIR [--resume]] FILE...
#   --every K   rate every K-th puzzle of each file (an even sample; default 1)
#   --keep DIR  keep each file's rate CSV as DIR/NAME.csv
#   --resume    continue the DIR/NAME.csv files an interrupted run left (rate
#               --resume: their rows are kept, the puzzles after them rated)
# SUDOLAB_BIN names the sudolab program (default: build/sudolab); RATE_JOBS
# its threads (default 2); RATE_BUDGET_MS the per-puzzle budget (default:
# rate's own).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SUDOLAB_BIN:-$root/build/sudolab}
jobs=${RATE_JOBS:-2}
every=1
keep=""
resume=""
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=${2:?--every needs K}; shift 2 ;;
    --keep) keep=${2:?--keep needs DIR}; shift 2 ;;
    --resume) resume=--resume; shift ;;
    --) shift; break ;;
    -*) echo "se-histogram: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: scripts/se-histogram.sh [--every K] [--keep DIR [--resume]] FILE..." >&2; exit 2; }
[ -z "$resume" ] || [ -n "$keep" ] || { echo "se-histogram: --resume needs --keep DIR" >&2; exit 2; }
[ -x "$bin" ] || { echo "se-histogram: $bin not found: build sudolab first or set SUDOLAB_BIN" >&2; exit 2; }
case $every in '' | *[!0-9]* | 0) echo "se-histogram: --every takes a positive integer" >&2; exit 2 ;; esac
[ -z "$keep" ] || mkdir -p "$keep"
budget=""
[ -z "${RATE_BUDGET_MS:-}" ] || budget="--budget-ms $RATE_BUDGET_MS"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "| corpus | rated | < 9.0 | 9.0 | 9.5 | 10.0 | 10.5 | 11.0 | 11.5 | 12.0+ | no rating |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for f in "$@"; do
    [ -f "$f" ] || { echo "se-histogram: $f: no such file" >&2; exit 2; }
    name=$(basename "$f" | sed 's/\.xz$//')
    xz -dcf "$f" | tr -d '\r' | grep -v '^#' | grep -v '^$' \
        | awk -v k="$every" '(NR - 1) % k == 0' > "$tmp/in.txt"
    out=$tmp/out.csv
    [ -z "$keep" ] || out=$keep/$name.csv
    # shellcheck disable=SC2086 # budget and resume are empty or words
    "$bin" rate --method se -j "$jobs" --csv --no-puzzle $budget --out "$out" $resume "$tmp/in.txt"
    awk -F, -v name="$name" '
        /^#/ || $1 == "index" { next }
        {
            n++
            if ($2 == "") { verdict[$5]++; next }
            er = $2 + 0
            b = er < 9 ? 0 : int((er - 9) / 0.5 + 1e-9) + 1
            if (b > 7) b = 7
            band[b]++
        }
        END {
            printf "| %s | %d |", name, n
            for (b = 0; b <= 7; b++) printf " %d |", band[b]
            s = ""
            for (v in verdict) s = s (s == "" ? "" : ", ") v " " verdict[v]
            printf " %s |\n", s == "" ? "none" : s
        }' "$out"
done
