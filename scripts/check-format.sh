#!/bin/sh
# The tree follows .clang-format: every tracked C file, and every one not yet
# added under a folder that holds tracked C files (so a new solvers/<name>.c is
# checked before `git add`), as clang-format would write it. Exit 77 (skip)
# without clang-format or git, 1 with the files off.
# Usage: scripts/check-format.sh [SOURCE-ROOT]
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
    for c in clang-format clang-format-14; do
        command -v "$c" > /dev/null 2>&1 && { cf=$c; break; }
    done
fi
[ -n "$cf" ] || { echo "SKIP: no clang-format (Debian: clang-format)"; exit 77; }
[ -d .git ] || [ -f .git ] || { echo "SKIP: not a git checkout"; exit 77; }
tracked=$(git ls-files '*.c' '*.h')
folders=$(echo "$tracked" | sed -n 's|^\([^/]*\)/.*|\1|p' | sort -u)
# shellcheck disable=SC2086
new=$(git ls-files --others --exclude-standard -- $folders | grep '\.[ch]$')
files=$(printf '%s\n%s\n' "$tracked" "$new" | sort -u | while read -r f; do
    [ -f "$f" ] && echo "$f"
done)
# shellcheck disable=SC2086
if ! report=$("$cf" --dry-run -Werror $files 2>&1); then
    echo "$report"
    off=$(echo "$report" | sed -n 's/^\([^: ]*\.[ch]\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
    echo "FAIL: files off .clang-format; run:" "$cf" -i $off
    exit 1
fi
echo "ok: $(echo "$files" | wc -l) files follow .clang-format"
