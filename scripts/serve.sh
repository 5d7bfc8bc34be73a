#!/bin/sh
# Install the web dependencies, build the static site and serve it locally.
#   sh scripts/serve.sh            -> http://127.0.0.1:8000/ (or a free port if busy)
#   PORT=9000 sh scripts/serve.sh
# Needs Node.js 20+ with npm, and Python 3.11+ (standard library only).
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -d node_modules/pyodide ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
fi
"$PY" scripts/build_site.py
exec "$PY" scripts/serve.py --dir build/site --port "${PORT:-8000}"
