#!/usr/bin/env bash
# Install everything the tests need, then run ALL tests: unit, property,
# records, agents and the end-to-end tests in headless Chromium.
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh -k claim   # extra arguments go to pytest
#   TEST_WORKERS=1 bash scripts/test.sh   # one process (default: 2 to 4, by cores)
#
# The tests run in parallel processes (pytest-xdist, an idle one takes
# tests queued for another: --dist worksteal), one per core: the
# end-to-end tests keep the CPU busy (mostly each page's start: Chromium and
# Pyodide), so more processes than cores would not be faster (docs/tests.md;
# the whole suite passed with load averages of 20-29). The slowest tests are
# listed at the end (--durations).
#
# Python packages go to .venv/ (pip, from PyPI); the site's packages come from
# npm (`npm ci`); the browser is Debian's `chromium` (installed with apt-get
# when missing and when we are root or have sudo; elsewhere Playwright's own
# browser is used if `playwright install chromium` was run).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
VPY=.venv/bin/python
"$VPY" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
# the exact, hash-checked versions of requirements-test.lock (scripts/lock_python.sh), then the project
"$VPY" -m pip install -q --disable-pip-version-check --require-hashes -r requirements-test.lock
"$VPY" -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .

npm ci --no-audit --no-fund --loglevel=error

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "note: Debian's chromium is not installed; the end-to-end tests will use Playwright's own browser" >&2
    fi
fi

# coturn: the TURN relay e2e/test_online_pages.py starts on this machine (skipped without it)
if ! command -v turnserver >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq coturn >/dev/null
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq coturn >/dev/null
    fi
fi

# --strict: a site built without its .pyc, snapshot or brotli copies fails here,
# with the reason, not later in the tests of what it lacks
"$VPY" scripts/build_site.py --strict

echo "== mypy --strict (chkobba/)"
"$VPY" -m mypy

cores=$(nproc 2>/dev/null || echo 2)
workers=${TEST_WORKERS:-$(( cores < 2 ? 2 : (cores > 4 ? 4 : cores) ))}
echo "== pytest (unit, property, records, agents, end-to-end) in $workers processes"
if [ "$workers" -le 1 ]; then
    exec "$VPY" -m pytest -p no:cacheprovider --durations=25 "$@"
fi
exec "$VPY" -m pytest -p no:cacheprovider -n "$workers" --dist worksteal --durations=25 "$@"
