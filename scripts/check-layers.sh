#!/bin/sh
# The layers of ARCHITECTURE.md hold: a folder includes only the folders
# below it (common <- solvers <- rater <- puzzle <- bench <- scaleout <- cli;
# web <- puzzle; gridcount sits beside solvers and needs only common, and
# neither includes the other), and no file includes a .c file. Exit 1
# naming each offending line.
# Usage: scripts/check-layers.sh [SOURCE-ROOT]
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
rank() {
    case $1 in
        common) echo 0 ;; solvers | gridcount) echo 1 ;; rater) echo 2 ;; puzzle) echo 3 ;;
        bench) echo 4 ;; scaleout) echo 5 ;; cli) echo 6 ;; web) echo 4 ;; *) echo "" ;;
    esac
}
bad=0 files=0
for dir in common solvers gridcount rater puzzle bench scaleout cli web; do
    mine=$(rank "$dir")
    for f in "$dir"/*.c "$dir"/*.h; do
        [ -f "$f" ] || continue
        files=$((files + 1))
        # shellcheck disable=SC2013
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            case $inc in
                *.c) echo "$f: includes $inc, a .c file"; bad=$((bad + 1)); continue ;;
                */*) ;;
                *) continue ;; # config.h, a build-generated header
            esac
            top=${inc%%/*}
            theirs=$(rank "$top")
            [ -n "$theirs" ] || continue
            if [ "$dir" = web ] && [ "$top" != web ] && [ "$theirs" -gt 3 ]; then
                echo "$f: includes $inc: the page builds on common, solvers, rater and puzzle only"
                bad=$((bad + 1))
            elif [ "$dir" != web ] && [ "$theirs" -gt "$mine" ]; then
                echo "$f: includes $inc: $dir may not reach up into $top"
                bad=$((bad + 1))
            elif [ "$dir" != web ] && [ "$top" != "$dir" ] && [ "$theirs" -eq "$mine" ]; then
                echo "$f: includes $inc: $dir and $top are side by side, neither uses the other"
                bad=$((bad + 1))
            fi
        done
    done
done
if [ "$bad" -ne 0 ]; then
    echo "FAIL: $bad includes break the layers (ARCHITECTURE.md)"
    exit 1
fi
echo "ok: $files files, every include goes down the layers"
