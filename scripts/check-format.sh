#!/bin/sh
# The tree follows .clang-format: every tracked C file, as clang-format would
# write it. Exit 77 (skip) without clang-format or git, 1 with the files off.
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
files=$(git ls-files '*.c' '*.h')
# shellcheck disable=SC2086
if ! "$cf" --dry-run -Werror $files; then
    echo "FAIL: the files above are off .clang-format; run: $cf -i \$(git ls-files '*.c' '*.h')"
    exit 1
fi
echo "ok: $(echo "$files" | wc -l) files follow .clang-format"
