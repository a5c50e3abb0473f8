#!/bin/sh
# Builds the interactive page (scripts/build-wasm.sh) and serves it on
# http://127.0.0.1:PORT/ until interrupted. Offline: the page loads nothing
# from elsewhere. The server sends the cross-origin isolation headers, which
# give the page's clock (and so its timings) its finest resolution.
# Usage: scripts/serve-web.sh [PORT] [OUTDIR]     (defaults: 8000, build-wasm/site)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
port=${1:-8000}
out=${2:-"$root/build-wasm/site"}
"$root/scripts/build-wasm.sh" "$out"
echo "serve-web: http://127.0.0.1:$port/ (Ctrl-C stops)"
cd "$out"
exec python3 - "$port" << 'PY'
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


try:
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
except KeyboardInterrupt:
    pass
PY
