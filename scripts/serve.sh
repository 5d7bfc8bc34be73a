#!/bin/sh
# Install the web dependencies, build the static site and serve it locally.
#   sh scripts/serve.sh            -> http://127.0.0.1:8000/ (or a free port if busy)
#   PORT=9000 sh scripts/serve.sh
# Needs Node.js 20+ with npm, and Python 3.11+ (standard library only).
# A fresh clone: npm's packages (about 60 MB, half a minute), then the site's
# build (about 15 s on a quiet 2-core machine); later runs rebuild in seconds.
# The build here makes no brotli copies: a server on this machine makes bytes
# free (a deploy builds with `python3 scripts/build_site.py`, README "Hosting").
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
say() { printf '[serve] %s\n' "$*"; }
if [ ! -d node_modules/pyodide ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "installing the site's packages with npm (Pyodide, PyScript; about 60 MB, once)..."
    npm ci --no-audit --no-fund --loglevel=error
fi
say "building the site into build/site/ ..."
"$PY" scripts/build_site.py --no-brotli
say "starting the server; open the address below in a browser (Ctrl+C stops it)"
exec "$PY" scripts/serve.py --dir build/site --port "${PORT:-8000}"
