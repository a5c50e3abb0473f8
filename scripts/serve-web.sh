#!/bin/sh
# Builds the interactive page (scripts/build-wasm.sh) and serves it on
# http://127.0.0.1:PORT/ until interrupted. Offline: the page loads nothing
# from elsewhere.
# Usage: scripts/serve-web.sh [PORT] [OUTDIR]     (defaults: 8000, build-wasm/site)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8000}
out=${2:-"$root/build-wasm/site"}
"$root/scripts/build-wasm.sh" "$out"
echo "serve-web: http://127.0.0.1:$port/ (Ctrl-C stops)"
cd "$out"
exec python3 -m http.server "$port" --bind 127.0.0.1
