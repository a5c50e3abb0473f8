#!/bin/sh
# Browser tests of the page (web/): builds it with scripts/build-wasm.sh (its
# Meson cross build in OUTDIR/build-wasm, the site in OUTDIR/site), then
# drives Debian's Chromium through playwright-core (node's test runner,
# web.test.mjs). Exit status 77 (skip), with the reason, when node, xz,
# Chromium, playwright-core or axe-core (`npm ci` in tests/web) or the WebAssembly
# toolchain is missing, so the suite passes on machines without them; exit
# status 1 then when SUDOLAB_CI is set (CI installs them all).
# Usage: tests/web/run.sh OUTDIR
# Environment: SUDOLAB_BIN (the native sudolab), SUDOLAB_DATASETS (datasets/public),
# CHROMIUM (default /usr/bin/chromium).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: run.sh OUTDIR}
skip() {
    [ -n "${SUDOLAB_CI:-}" ] && { echo "FAIL (SUDOLAB_CI is set, so the page's tools must be there): $*"; exit 1; }
    echo "SKIP: $*"
    exit 77
}
command -v node > /dev/null 2>&1 || skip "node is not installed (Debian: nodejs)"
command -v xz > /dev/null 2>&1 || skip "xz is not installed (Debian: xz-utils)"
major=$(node -p 'process.versions.node.split(".")[0]' 2> /dev/null || echo 0)
[ "$major" -ge 18 ] || skip "node $major is too old for node:test (18 or later)"
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || skip "no Chromium at $chromium (Debian: chromium)"
for module in playwright-core axe-core; do
    [ -d "$here/node_modules/$module" ] \
        || skip "$module is not installed: run 'npm ci' in tests/web"
done
mkdir -p "$out"
WASM_BUILDDIR="$out/build-wasm" "$root/scripts/build-wasm.sh" "$out/site" \
    > "$out/build-wasm.log" 2>&1
status=$?
if [ "$status" -eq 77 ]; then
    cat "$out/build-wasm.log"
    skip "no WebAssembly toolchain"
elif [ "$status" -ne 0 ]; then
    cat "$out/build-wasm.log"
    echo "FAIL: scripts/build-wasm.sh exited with $status"
    exit 1
fi
cat "$out/build-wasm.log"
export CHROMIUM="$chromium" SUDOLAB_WEB_SITE="$out/site" SUDOLAB_WEB_OUT="$out"
export SUDOLAB_DATASETS="${SUDOLAB_DATASETS:-$root/datasets/public}"
cd "$here" && exec node --test --test-reporter=spec --test-concurrency=1 web.test.mjs
