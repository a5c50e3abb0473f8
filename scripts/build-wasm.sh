#!/bin/sh
# Builds the interactive page: sudolab's C core (common/, the self-contained
# back ends, the logic solver, the generator) compiled to WebAssembly with
# clang's wasm32-wasi target and Debian's wasi-libc, plus the static files of
# web/, into one folder that any static server can serve.
#
# Usage: scripts/build-wasm.sh [OUTDIR]      (default: build-wasm/site)
# Environment: WASM_CC (default: clang, else clang-14), WASM_CFLAGS (extra),
# WASM_SIMD=0 for a build without 128-bit SIMD (for browsers before 2021-23),
# WASM_EXCLUDE (default "sat.c milp.c"): solvers/ files that need a native library.
# Exit status 77 when the toolchain is missing (Debian: clang, lld,
# wasi-libc, libclang-rt-14-dev-wasm32), so tests can skip.
#
# The back ends come from solvers/meson.build, less those that need a native
# library (sat, milp: their HAVE_* flags are 0 in the config.h written here),
# so a back end added there is in the page with no edit to this script.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/build-wasm/site"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
obj="$out/.obj"
mkdir -p "$obj"

cc=${WASM_CC:-}
if [ -z "$cc" ]; then
    for c in clang clang-14; do
        if command -v "$c" > /dev/null 2>&1; then
            cc=$c
            break
        fi
    done
fi
if [ -z "$cc" ]; then
    echo "build-wasm: no clang found (Debian: clang lld wasi-libc libclang-rt-14-dev-wasm32)" >&2
    exit 77
fi
probe="$obj/probe.c"
printf '#include <stdlib.h>\n#include <time.h>\nint f(void);\nint f(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (int) t.tv_nsec + abs(-1); }\n' > "$probe"
if ! "$cc" --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry -Wl,--export=f \
        -fuse-ld=lld "$probe" -o "$obj/probe.wasm" 2> "$obj/probe.log"; then
    echo "build-wasm: $cc cannot build for wasm32-wasi (Debian: lld wasi-libc" \
        "libclang-rt-14-dev-wasm32):" >&2
    sed 's/^/  /' "$obj/probe.log" >&2
    exit 77
fi

# The sources listed in a meson.build file (quoted *.c names), less exclusions.
listed() { # listed DIR EXCLUDED...
    dir=$1
    shift
    grep -o "'[A-Za-z0-9_]*\.c'" "$root/$dir/meson.build" | tr -d "'" | sort -u |
        while read -r f; do
            skip=no
            for x in "$@"; do
                [ "$f" = "$x" ] && skip=yes
            done
            [ "$skip" = no ] && [ -f "$root/$dir/$f" ] && echo "$dir/$f"
        done
    return 0
}

# shellcheck disable=SC2086
sources="web/wasm_api.c $(listed common) $(listed solvers ${WASM_EXCLUDE:-sat.c milp.c}) $(listed puzzle)"

version=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$root/meson.build" | head -n 1)
{
    echo "/* Written by scripts/build-wasm.sh for the WebAssembly build. */"
    echo "#pragma once"
    echo "#define SUDOLAB_VERSION \"${version:-unknown}\""
    echo "#define SUDOLAB_COMPILER \"$("$cc" --version | head -n 1 | tr -d '"\\') wasm32-wasi\""
    echo "#define SUDOLAB_BUILDTYPE \"release\""
    echo "#define SUDOLAB_CFLAGS \"\""
    echo "#define SUDOLAB_NATIVE 0"
    # every optional native library is absent here
    grep -ho "set10('HAVE_[A-Z0-9_]*'" "$root"/meson.build "$root"/*/meson.build |
        sed "s/set10('\(.*\)'/\1/" | sort -u | while read -r flag; do
            echo "#define $flag 0"
        done
} > "$obj/config.h.new"
if ! cmp -s "$obj/config.h.new" "$obj/config.h" 2> /dev/null; then
    mv "$obj/config.h.new" "$obj/config.h"
else
    rm -f "$obj/config.h.new"
fi

# -O3 as the native release build, with WebAssembly's 128-bit SIMD (every
# current browser has it): the fast back end's vector code needs it, 6x slower
# without. The page's own file must be warning-free; clang may warn about
# others' files where gcc does not: shown, not fatal.
cd "$root"
simd=-msimd128
[ "${WASM_SIMD:-1}" = 0 ] && simd=""
cflags="--target=wasm32-wasi -std=c11 -O3 $simd -DNDEBUG -D_GNU_SOURCE -Wall -Wextra
    -Wshadow -Wstrict-prototypes -Werror=missing-prototypes -Werror=vla
    -Wno-missing-field-initializers -I$root -I$obj ${WASM_CFLAGS:-}"
objects=""
for src in $sources; do
    o="$obj/$(echo "$src" | tr / _).o"
    werror=""
    case $src in web/*) werror=-Werror ;; esac
    # shellcheck disable=SC2086
    "$cc" $cflags $werror -c "$src" -o "$o"
    objects="$objects $o"
done
# A large stack placed first, so that deep recursion (naive on 16x16, moler's
# copies) traps instead of overwriting data.
# shellcheck disable=SC2086
"$cc" --target=wasm32-wasi -nostartfiles -fuse-ld=lld -Wl,--no-entry -Wl,--stack-first \
    -Wl,-z,stack-size=8388608 \
    $objects -o "$out/sudolab.wasm.new"
mv "$out/sudolab.wasm.new" "$out/sudolab.wasm"
for f in index.html app.js style.css; do
    cp "$root/web/$f" "$out/$f"
done
echo "build-wasm: $out/sudolab.wasm ($(wc -c < "$out/sudolab.wasm") bytes) from $(echo " $sources" | wc -w) files"
