#!/bin/sh
# Builds the interactive page and copies it into one folder that any static
# server can serve. The build is Meson's, for a wasm32 host: the cross file
# web/wasm32-wasi.ini (clang's wasm32-wasi target, Debian's wasi-libc) and
# web/meson.build, which links sudolab.wasm from the same common/, solvers/ and
# puzzle/ libraries as the native build (less the back ends whose native
# library is not found) and puts the static files of web/ next to it. This
# script only sets that build up, runs ninja and copies the result.
#
# Usage: scripts/build-wasm.sh [OUTDIR]      (default: build-wasm/site)
# Environment: WASM_BUILDDIR, the Meson build folder (default: build-wasm);
# WASM_SIMD=0 for a build without 128-bit SIMD, for browsers before 2021-23
# (the Meson option wasm_simd). Other settings: meson configure WASM_BUILDDIR.
# Exit status 77 when the toolchain is missing (Debian: clang, lld, llvm,
# wasi-libc, libclang-rt-14-dev-wasm32, meson, ninja-build), so tests can skip.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WASM_BUILDDIR:-"$root/build-wasm"}
out=${1:-"$build/site"}
simd=true
[ "${WASM_SIMD:-1}" = 0 ] && simd=false

missing() {
    echo "build-wasm: $* (Debian: clang lld llvm wasi-libc libclang-rt-14-dev-wasm32" \
        "meson ninja-build)" >&2
    exit 77
}
# The programs web/wasm32-wasi.ini names, and Meson's.
for tool in clang llvm-ar meson ninja; do
    command -v "$tool" > /dev/null 2>&1 || missing "no $tool found"
done
# clang alone is not enough: it also needs wasm-ld, wasi-libc and the wasm32
# compiler runtime. Tried on a probe so that their absence is a skip, not a
# failure of the build.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdlib.h>\n#include <time.h>\nint f(void);\nint f(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (int) t.tv_nsec + abs(-1); }\n' > "$probe/probe.c"
if ! clang --target=wasm32-wasi -O2 -nostartfiles -Wl,--no-entry -Wl,--export=f \
        "$probe/probe.c" -o "$probe/probe.wasm" 2> "$probe/probe.log"; then
    sed 's/^/  /' "$probe/probe.log" >&2
    missing "clang cannot build for wasm32-wasi"
fi

if [ -f "$build/meson-private/coredata.dat" ]; then
    # A no-op unless the option changed; ninja then reconfigures as needed.
    meson configure "$build" -Dwasm_simd="$simd" > /dev/null
else
    meson setup "$build" "$root" --cross-file "$root/web/wasm32-wasi.ini" \
        -Dwasm_simd="$simd"
fi
ninja -C "$build"

# The site is every file web/meson.build puts in its build folder (not the
# object folders).
mkdir -p "$out"
for f in "$build"/web/*; do
    [ -f "$f" ] && cp "$f" "$out/"
done
echo "build-wasm: $out/sudolab.wasm ($(wc -c < "$out/sudolab.wasm") bytes), built in $build"
