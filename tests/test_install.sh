#!/bin/sh
# What `meson install` puts down, checked from a DESTDIR: the installed
# sudolab loads a plug-in built outside the tree against the installed header
# found through pkg-config; sudolab(1) lists every option each command's
# --help lists and renders without warnings; the bash completion offers a
# command's options and the back-end names.
# Usage: test_install.sh MESON BUILD-ROOT SOURCE-ROOT [CC]
set -u
meson=$1
build=$2
src=$3
cc=${4:-cc}
# shellcheck source=tests/tap.sh
. "$src/tests/tap.sh"

root=$tmp/root
"$meson" install -C "$build" --no-rebuild --quiet --destdir "$root" > "$tmp/install.out" 2>&1
ok "meson install --destdir" $? "$(cat "$tmp/install.out")"
bin=$(find "$root" -path '*/bin/sudolab' | head -n 1)
man=$(find "$root" -path '*/man1/sudolab.1' | head -n 1)
completion=$(find "$root" -path '*/bash-completion/completions/sudolab' | head -n 1)
pc=$(find "$root" -name sudolab-plugin.pc | head -n 1)
for f in "$bin" "$man" "$completion" "$pc"; do
    [ -n "$f" ] && [ -f "$f" ]
    ok "installed: ${f#"$root"}" $?
done

# an outside back end, built as the README says, against the installed header
cp "$src/tests/plugins/plugin_lastcell.c" "$tmp/"
cflags=$(PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root \
    pkg-config --cflags sudolab-plugin)
ok "pkg-config --cflags sudolab-plugin" $? "$cflags"
case $cflags in "-I$root/"*) true ;; *) false ;; esac
ok "its include folder is the installed one" $? "$cflags"
# shellcheck disable=SC2086 # cflags is a list of words
(cd "$tmp" && "$cc" $cflags -O2 -shared -fPIC -o lastcell.so plugin_lastcell.c) \
    > "$tmp/cc.out" 2>&1
ok "the plug-in builds against the installed header" $? "$(cat "$tmp/cc.out")"
royle='.2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.'
"$bin" solve --solver mrv "$royle" | awk '{print $2, $NF}' > "$tmp/mrv"
"$bin" solve --solver "so:$tmp/lastcell.so" "$royle" | awk '{print $2, $NF}' > "$tmp/plugin"
has "the installed sudolab solves with it" "$tmp/plugin" '^unique [1-9]'
same "as mrv does" "$tmp/mrv" "$tmp/plugin"

# the man page: rendered without warnings, every documented option listed
if command -v man > /dev/null; then
    LC_ALL=C MANWIDTH=200 man -l --warnings "$man" > "$tmp/man.txt" 2> "$tmp/man.err"
    ok "man -l renders sudolab(1)" $? "$(cat "$tmp/man.err")"
    [ ! -s "$tmp/man.err" ]
    ok "without warnings" $? "$(cat "$tmp/man.err")"
    commands=$("$bin" --help | awk '/^commands:/ {on = 1; next} on && NF {print $1} !NF && on {exit}')
    [ -n "$commands" ]
    ok "sudolab --help lists commands" $?
    for c in $commands; do
        # the command's section: from its heading to the next one
        awk -v h="sudolab $c" '$0 ~ /^   sudolab / {on = ($0 == "   " h); next} on' \
            "$tmp/man.txt" > "$tmp/section"
        "$bin" "$c" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/help-opts"
        grep -o -- '--[a-z][a-z0-9-]*' "$tmp/section" | sort -u > "$tmp/man-opts"
        missing=$(comm -23 "$tmp/help-opts" "$tmp/man-opts" | tr '\n' ' ')
        [ -s "$tmp/help-opts" ] && [ -z "$missing" ]
        ok "sudolab(1) lists every option of sudolab $c --help" $? "missing: $missing"
    done
else
    skip "man page rendering" "man is not installed"
fi

# the completion: COMP_WORDS as bash fills them for `sudolab solve --so<TAB>`
complete_words() { # complete_words WORD... (the last is the one completed)
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        complete -p sudolab > /dev/null || exit 1
        _sudolab; printf "%s\n" "${COMPREPLY[@]}"' sh "$completion" "$@"
}
complete_words sudolab so > "$tmp/c1"
has "completion offers the commands" "$tmp/c1" '^solve$'
complete_words sudolab solve --bud > "$tmp/c2"
has "completion offers a command's options" "$tmp/c2" '^--budget-steps$'
complete_words sudolab solve --solver mr > "$tmp/c3"
has "completion offers back-end names after --solver" "$tmp/c3" '^mrv$'
complete_words sudolab rate --variant d > "$tmp/c4"
has "completion offers --variant's values" "$tmp/c4" '^diagonal$'

tap_end
