#!/bin/sh
# The documents say what the tree holds. In README.md, ARCHITECTURE.md and
# docs/*.md: every relative link reaches a file (and its #anchor a heading
# there); every `sudolab COMMAND --option` names a command and an option that
# `sudolab COMMAND --help` lists; every tree path written in code (scripts/x.sh,
# solvers/registry.h, tests/data/crosscheck*.txt) exists, but under results/
# and datasets/, which also hold what scripts write and fetch; every
# `meson test NAME` names a test or benchmark of SUDOLAB's build; and each
# command of README's tour runs with exit status 0. Prints
# `file:line: reason` for each fault and exits 1 when there is one.
# Usage: scripts/check-docs.sh SOURCE-ROOT SUDOLAB
set -u
root=${1:?usage: check-docs.sh SOURCE-ROOT SUDOLAB}
bin=${2:?usage: check-docs.sh SOURCE-ROOT SUDOLAB}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$root" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

docs="README.md ARCHITECTURE.md"
for f in docs/*.md; do
    [ -f "$f" ] && docs="$docs $f"
done

# One record per thing to check, tab-separated: FILE LINE KIND VALUE, where
# KIND is link (a link's target), cmd (a `sudolab ...` command line as written
# in code), path (a code word that names a file or folder of the tree), test (a
# name after `meson test`) or tour (a line of README's tour block). Code is
# what `backticks` hold, spans that run over a line break included, and the
# lines of ``` blocks.
commands=$("$bin" --help 2> /dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' \
    | tr '\n' ' ')
# shellcheck disable=SC2086
awk -v commands="$commands" '
function emit(kind, value, line) {
    if (!seen[FILENAME, line, kind, value]++)
        printf "%s\t%d\t%s\t%s\n", FILENAME, line, kind, value
}
function code(text, line,    n, w, i, j, t, o, cmd) {
    sub(/^[ \t]+/, "", text)
    n = split(text, w, /[ \t]+/)
    for (i = 1; i <= n; i++) {
        t = w[i]
        # `sudolab COMMAND ...`, or code that opens with `COMMAND --option`
        if ((t ~ /(^|\/)sudolab(-mpi)?$/ && i < n && w[i + 1] ~ /^[a-z]+$/) \
            || (i == 1 && index(" " commands " ", " " t " ") && w[2] ~ /^--?[a-zA-Z]/)) {
            if (t ~ /sudolab/) i++
            cmd = w[i]
            for (j = i + 1; j <= n; j++) {
                if (w[j] ~ /^(\||&&|\|\||;|[0-9]?>|<|#)$/ || w[j] ~ /sudolab/) break
                if (w[j] ~ /^\(?--?[a-zA-Z]/) {
                    o = w[j]; sub(/^\(/, "", o); sub(/[=,):;.].*$/, "", o)
                    emit("cmd", cmd " " o, line)
                }
            }
            if (j == i + 1) emit("cmd", cmd, line)
            continue
        }
        if (t == "meson" && w[i + 1] == "test") {
            for (j = i + 2; j <= n; j++) {
                if (w[j] ~ /^(-C|--suite|--setup|--num-processes|--repeat)$/) { j++; continue }
                if (w[j] ~ /^-/) continue
                if (w[j] !~ /^[a-z][a-z0-9_-]*$/) break
                emit("test", w[j], line)
            }
        }
        sub(/^[(\[]+/, "", t); sub(/[,;:.)\]]+$/, "", t)
        if (t ~ /^[a-z][a-z0-9_-]*\/[A-Za-z0-9_.*\/-]*$/ && t !~ /^build/ \
            && (t ~ /\/$/ || t ~ /\.[A-Za-z0-9]+$/))
            emit("path", t, line)
    }
}
FNR == 1 { fence = 0; inspan = 0; tour = 0 }
/^```/ { fence = !fence; next }
fence {
    code($0, FNR)
    if (tour && $0 ~ /^build\/sudolab /) emit("tour", $0, FNR)
    next
}
/^#/ { tour = (FILENAME == "README.md" && $0 ~ /^## A tour/) }
{
    line = $0
    while (match(line, /\]\([^) ]+\)/)) {
        target = substr(line, RSTART + 2, RLENGTH - 3)
        if (target !~ /^[a-z]+:/) emit("link", target, FNR)
        line = substr(line, RSTART + RLENGTH)
    }
    line = $0
    while (match(line, /scripts\/[A-Za-z0-9_.\/-]*\.sh/)) {
        emit("path", substr(line, RSTART, RLENGTH), FNR)
        line = substr(line, RSTART + RLENGTH)
    }
    # Code spans: the text between backticks, carried over a line break.
    if ($0 == "") inspan = 0
    n = split($0, part, "`")
    for (i = 1; i <= n; i++) {
        if (i > 1) {
            if (inspan) code(spantext, spanline)
            inspan = !inspan; spantext = ""; spanline = FNR
        }
        if (inspan) spantext = spantext " " part[i]
    }
}
' $docs > "$tmp/records" || exit 1

faults=0
fault() { # fault FILE LINE REASON
    echo "$1:$2: $3"
    faults=$((faults + 1))
}

# The anchors of a Markdown file, as GitHub makes them from its headings.
anchors() {
    awk '/^```/ { fence = !fence; next }
         !fence && /^#+ / { h = tolower($0); sub(/^#+ /, "", h); gsub(/[^a-z0-9 _-]/, "", h)
                            gsub(/ /, "-", h); print h }' "$1"
}

help_of() { # help_of COMMAND: file with `sudolab COMMAND --help`, empty if none
    out="$tmp/help-$1"
    if [ ! -f "$out" ]; then
        "$bin" "$1" --help > "$out" 2> /dev/null || : > "$out"
    fi
    echo "$out"
}

# The names of the build's tests and benchmarks, from Meson's introspection
# files beside the program (none: that part is not checked).
tests=$tmp/tests
info=$(dirname "$bin")/meson-info
if [ -f "$info/intro-tests.json" ]; then
    cat "$info/intro-tests.json" "$info/intro-benchmarks.json" 2> /dev/null \
        | grep -o '"name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' > "$tests"
fi

tab=$(printf '\t')
while IFS=$tab read -r file line kind value; do
    case $kind in
        link)
            target=${value%%#*}
            anchor=
            case $value in *'#'*) anchor=${value#*#} ;; esac
            if [ -z "$target" ]; then
                target=$file
            else
                target=$(dirname "$file")/$target
            fi
            if [ ! -e "$target" ]; then
                fault "$file" "$line" "link to $value: no file $target"
            elif [ -n "$anchor" ] && [ -f "$target" ] \
                && ! anchors "$target" | grep -qx -- "$anchor"; then
                fault "$file" "$line" "link to $value: no heading in $target makes #$anchor"
            fi
            ;;
        cmd)
            command=${value%% *}
            help=$(help_of "$command")
            if [ ! -s "$help" ]; then
                fault "$file" "$line" "sudolab $command: no such command (its --help fails)"
            elif [ "$value" != "$command" ]; then
                option=${value#* }
                grep -Eq -- "(^|[[ ,])$option([] =,]|$)" "$help" \
                    || fault "$file" "$line" "sudolab $command $option: not an option in 'sudolab $command --help'"
            fi
            ;;
        test)
            [ -f "$tests" ] && ! grep -qx -- "$value" "$tests" \
                && fault "$file" "$line" "meson test $value: no test or benchmark of that name in this build"
            ;;
        path)
            # shellcheck disable=SC2086
            set -- $value
            case $value in
                # what scripts write or fetch there need not be in the tree
                results/* | datasets/*) [ -e "$1" ] || continue ;;
            esac
            [ -e "$1" ] || fault "$file" "$line" "$value: no such file or folder in the tree"
            ;;
    esac
done < "$tmp/records"

# README's tour, run from a scratch folder that sees the tree's datasets.
mkdir "$tmp/run"
ln -s "$(pwd)/datasets" "$tmp/run/datasets"
mkdir "$tmp/run/build"
ln -s "$bin" "$tmp/run/build/sudolab"
while IFS=$tab read -r file line kind value; do
    [ "$kind" = tour ] || continue
    (cd "$tmp/run" && sh -c "$value") > "$tmp/tour.out" 2>&1 \
        || fault "$file" "$line" "the tour command failed: $value ($(tail -n 1 "$tmp/tour.out"))"
done < "$tmp/records"

n=$(wc -l < "$tmp/records")
if [ "$faults" -ne 0 ]; then
    echo "FAIL: $faults of $n references in the documents are untrue"
    exit 1
fi
echo "ok: $n references in $(echo "$docs" | wc -w) documents hold"
