#!/usr/bin/env python3
"""The table tab's memory against a bare Pyodide page, side by side.

    python bench/tab_memory.py [--runs 3] [--before build/bench/site-before] [--no-build]

Each page gets a fresh headless Chromium (one browser per measurement, so the
renderer processes counted are that page's), a 360x640 viewport and service
workers blocked; the page is opened and, once it is ready (the table: with its
computer players ready, `<html class="ai-ready">`, and on a first visit the
worker that makes the next visit's snapshot ended), left idle for 3 s; then
the RSS of every Chromium renderer process under this one is summed (Linux
/proc, the same count as bench/embeds.py).

Pages:
  bare            loadPyodide() + unpack the package + `import chkobba.web`
                  from the site's own files (bench/boot.py's bare page)
  site            the table, a first visit (no snapshot at hand)
  site-snapshot   the table restored from its snapshot (put into Cache
                  Storage as the offline copy does, then the page reloaded)
  site-pyscript   the table with its Python started through PyScript
                  (bench/boot.py's page of that name; no snapshot)
  before          with --before DIR: the table as that built site has it
                  (e.g. a copy of build/site made before a change)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

from browser import launch  # noqa: E402
from boot import BARE_HTML, KEEPS_SNAPSHOT, pyscript_copy  # noqa: E402
from embeds import tree_rss_kb  # noqa: E402
from serve import start_server  # noqa: E402

BUILD = ROOT / "build"

KEEP_SNAPSHOT = """async () => {
  const url = JSON.parse(document.querySelector('meta[name="chkobba-boot"]').content).snapshot;
  await (await caches.open('chkobba-bench')).add(url);
}"""


def measure(p: Any, url: str, marker: str, snapshot: bool = False) -> float:
    browser = launch(p)
    try:
        ctx = browser.new_context(viewport={"width": 360, "height": 640}, service_workers="block")
        page = ctx.new_page()
        page.set_default_timeout(300_000)
        page.goto(url)
        page.wait_for_selector(f"html.{marker}", state="attached")
        if marker == "ai-ready" and not snapshot and page.evaluate(KEEPS_SNAPSHOT):
            # measured after the temporary interpreter that makes the next
            # visit's snapshot has ended (web/shell/snapshot.js)
            page.wait_for_selector("html.snapshot-kept", state="attached")
        if snapshot:
            page.evaluate(KEEP_SNAPSHOT)
            page.reload()
            page.wait_for_selector(f"html.{marker}", state="attached")
            assert page.evaluate("() => window.chkobbaBoot.snapshot") is True
        time.sleep(3)
        return tree_rss_kb(os.getpid(), renderers=True) / 1024
    finally:
        browser.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--before", type=Path, help="a built site (under build/) to measure as it was")
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args(argv)
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    info = json.loads((BUILD / "site" / "build-info.json").read_text())
    (BUILD / "bench").mkdir(parents=True, exist_ok=True)
    (BUILD / "bench" / "bare.html").write_text(BARE_HTML.replace("__PYODIDE_DIR__", info["pyodide_dir"]))
    pages: dict[str, tuple[str, str, bool]] = {
        "bare": ("bench/bare.html", "ready", False),
        "site": ("site/", "ai-ready", False),
        "site-snapshot": ("site/", "ai-ready", True),
        "site-pyscript": ("bench/site-pyscript/", "ai-ready", False),
    }
    pyscript_copy(BUILD / "site", BUILD / "bench" / "site-pyscript")
    if args.before:
        rel = args.before.resolve().relative_to(BUILD.resolve()).as_posix()
        pages["before"] = (rel + "/", "ai-ready", False)
    server = start_server(BUILD)
    from playwright.sync_api import sync_playwright

    got: dict[str, list[float]] = {k: [] for k in pages}
    with sync_playwright() as p:
        for _ in range(args.runs):
            for name, (path, marker, snap) in pages.items():
                got[name].append(measure(p, server.url + path, marker, snap))
    server.shutdown()
    bare = statistics.median(got["bare"])
    print(f"Renderer RSS, MB, median of {args.runs} (min-max); Chromium headless, 360x640.\n")
    print("| page | renderer RSS (MB) | vs bare |")
    print("|---|---|---|")
    for name, vals in got.items():
        med = statistics.median(vals)
        print(f"| {name} | {med:.0f} ({min(vals):.0f}-{max(vals):.0f}) | {med / bare:.2f}x |")
    shutil.rmtree(BUILD / "bench" / "tmp", ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
