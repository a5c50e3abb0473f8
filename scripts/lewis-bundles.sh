#!/bin/sh
# Remakes datasets/lewis/ from a checkout of huwlloyd-mmu/sudoku_acs: its
# instance files only (the repository has no license; none of its code is
# used or shipped), bundled by size and fill proportion, xz -9, each instance
# byte for byte after a "# <its file name>" line, with MANIFEST.tsv and
# SHA256SUMS (datasets/lewis/README.md describes them).
# Usage: scripts/lewis-bundles.sh CHECKOUT [OUT]   (OUT: datasets/lewis)
# Same input and xz version, same bytes.
set -eu
src=${1:?usage: lewis-bundles.sh CHECKOUT [OUT]}
out=${2:-$(dirname "$0")/../datasets/lewis}
expected=5181658dd674731029e7703241cfd22c3d3c936d
if commit=$(git -C "$src" rev-parse HEAD 2> /dev/null) && [ "$commit" != "$expected" ]; then
    echo "lewis-bundles.sh: $src is at $commit, the manifest describes $expected" >&2
fi
for tool in xz sha256sum awk; do
    command -v "$tool" > /dev/null || { echo "lewis-bundles.sh: needs $tool" >&2; exit 1; }
done
export LC_ALL=C
mkdir -p "$out/general"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

manifest=$tmp/MANIFEST.tsv
sums=$tmp/SHA256SUMS
printf 'bundle\tentry\toriginal\tsha256\torder\tsize\tfill\tinstance\tgivens\n' > "$manifest"
: > "$sums"

# bundle NAME FILL-OR-DASH FILE...: writes NAME.xz of the files in the order
# given and appends their manifest rows (fill and instance from the file
# names inst<size>_<fill>_<n>.txt, "-" for the named logic-solvable ones).
bundle() {
    name=$1 nominal=$2
    shift 2
    text=$tmp/text
    : > "$text"
    for f in "$@"; do
        printf '# %s\n' "${f##*/}" >> "$text"
        cat "$f" >> "$text"
    done
    sha256sum "$@" | awk '{ print $1 }' > "$tmp/file-sums"
    # per entry: its order and its given cells (values other than -1)
    awk '/^# / { if (n) print order "\t" givens; n++; line = 0; givens = 0; next }
         { sub(/\r$/, ""); line++; if (line == 1) order = $1 + 0
           else if (line > 2) for (i = 1; i <= NF; i++) if ($i != "-1") givens++ }
         END { if (n) print order "\t" givens }' "$text" > "$tmp/shapes"
    i=0
    for f in "$@"; do
        i=$((i + 1))
        base=${f##*/}
        instance=-
        [ "$nominal" = - ] || instance=${base##*_} instance=${instance%.txt}
        shape=$(sed -n "${i}p" "$tmp/shapes")
        order=${shape%%	*} givens=${shape##*	}
        side=$((order * order))
        printf '%s.xz\t%d\t%s\t%s\t%s\t%dx%d\t%s\t%s\t%s\n' "$name" "$i" \
            "${f#"$src"/}" "$(sed -n "${i}p" "$tmp/file-sums")" "$order" "$side" "$side" \
            "$nominal" "$instance" "$givens" >> "$manifest"
    done
    printf '%s  %s\n' "$(sha256sum < "$text" | awk '{ print $1 }')" "$name" >> "$sums"
    xz -9 -T1 -c "$text" > "$out/$name.xz"
}

for size in 9x9 16x16 25x25; do
    fill=0
    while [ "$fill" -le 100 ]; do
        set --
        n=0
        while [ "$n" -lt 100 ]; do
            set -- "$@" "$src/instances/general/inst${size}_${fill}_$n.txt"
            n=$((n + 1))
        done
        bundle "general/${size}_$(printf '%03d' "$fill")" "$fill" "$@"
        fill=$((fill + 5))
    done
done
# shellcheck disable=SC2046 # the names have no blanks
bundle logic_solvable - $(ls "$src"/instances/logic-solvable/*.txt)

mv "$manifest" "$out/MANIFEST.tsv"
mv "$sums" "$out/SHA256SUMS"
echo "lewis-bundles.sh: $(($(wc -l < "$out/MANIFEST.tsv") - 1)) instances," \
    "$(du -cb "$out"/general/*.xz "$out"/logic_solvable.xz | tail -n 1 | cut -f1) bytes of xz" >&2
