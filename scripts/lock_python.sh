#!/usr/bin/env bash
# Rewrite requirements-test.lock: the exact versions (with their hashes) of
# every Python package the tests install, resolved from pyproject.toml's
# `test` extra and build requirements. scripts/test.sh installs from this file
# only (pip's hash-checking mode), the way `npm ci` installs package-lock.json.
#
#   bash scripts/lock_python.sh                            # keep the pins; follow pyproject.toml's changes
#   bash scripts/lock_python.sh --upgrade                  # the newest versions its ranges allow
#   bash scripts/lock_python.sh --upgrade-package pytest   # move one package (and what it needs)
#
# It resolves against PyPI alone (no local mirrors or wheel folders), with a
# pinned pip-tools in a throw-away venv, so the result does not depend on this
# machine. Review the diff, run `bash scripts/test.sh`, and commit the lock.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
PIP_TOOLS=pip-tools==7.6.2
INDEX=https://pypi.org/simple
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# PyPI only: ignore pip.conf files and PIP_* settings that point elsewhere
export PIP_CONFIG_FILE=/dev/null
unset PIP_FIND_LINKS PIP_EXTRA_INDEX_URL PIP_INDEX_URL PIP_CONSTRAINT PIP_NO_INDEX

"$PY" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check --index-url "$INDEX" "$PIP_TOOLS"

"$tmp/venv/bin/pip-compile" --quiet --index-url "$INDEX" --no-emit-index-url \
    --no-emit-find-links --extra test --build-deps-for editable --allow-unsafe --generate-hashes \
    --strip-extras --no-header --output-file requirements-test.lock pyproject.toml "$@"
sed -i '1i # Python packages for the tests, exact and hash-checked: written by\n# `bash scripts/lock_python.sh` from pyproject.toml (README: "Updating dependencies").' \
    requirements-test.lock
grep -E '^[A-Za-z0-9_.-]+==' requirements-test.lock
