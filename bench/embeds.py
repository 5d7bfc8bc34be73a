#!/usr/bin/env python3
"""Many embeds on one page: start-up, memory and requests with 1, 5 and 10
embed.html iframes (sandboxed, as the Share dialog's snippet makes them).

    python bench/embeds.py [--counts 1 5 10] [--layout visible stacked host] [--out FILE]
                           [--site LABEL=DIR ...]

`visible`: every frame is on screen at once (the worst case: each boots);
`stacked`: frames one under the other in a phone-sized window, as a blog
post holds them (only those on screen load Python; the rest wait);
`host`: as `visible`, but the page includes embed/host.js once and holds
divs it turns into frames (since wave 4 they share one interpreter, the
hub; before, they started their own one at a time).
Measures, per count: the time until the first and until every on-screen
frame shows its table, how many interpreters started (requests for
pyodide.asm.wasm), the requests and bytes the page made, and the resident
memory of the browser's processes (sum of RSS of every process under this
one, and of its renderer processes alone; a baseline page is subtracted).
`--site LABEL=DIR` (repeatable) measures several builds in the same run,
each row labelled (e.g. `main=/tmp/main-site hub=build/site`). Builds
nothing: run scripts/build_site.py first. See docs/embeds.md for results.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "e2e"))
sys.path.insert(0, str(ROOT))

from browser import launch  # noqa: E402
from embed_util import links, sample_record  # noqa: E402
from serve import start_server  # noqa: E402


def tree_rss_kb(root: int, renderers: bool = False) -> int:
    """Sum of VmRSS of every process descending from ``root`` (Linux /proc);
    ``renderers``: of Chromium's renderer processes only."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            status = Path(f"/proc/{d}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        parents[int(d)] = int(fields.get("PPid", "0").strip())
        rss[int(d)] = int(fields.get("VmRSS", "0 kB").split()[0]) if "VmRSS" in fields else 0
    total = 0
    for pid in rss:
        p = pid
        while p and p != root:
            p = parents.get(p, 0)
        if p == root and pid != root:
            if renderers:
                try:
                    if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                        continue
                except OSError:
                    continue
            total += rss[pid]
    return total


def host_html(base: str, link: str, count: int, layout: str) -> str:
    height = 330
    style = f"width:300px;height:{height}px;border:0;display:inline-block" if layout == "visible" else \
        f"width:100%;height:{height}px;border:0;display:block"
    if layout == "host":
        # embed/host.js: divs it turns into frames that start Python one at a time
        divs = "".join(f'<div data-chkobba-embed="{link}" style="width:300px;display:inline-block"></div>'
                       for i in range(count))
        return (f"<!doctype html><html><head><meta charset='utf-8'><script src='{base}embed/host.js'></script>"
                f"<style>iframe{{height:{height}px !important}}</style></head><body style='margin:0'>{divs}</body></html>")
    gap = "" if layout == "visible" else "<p style='height:400px'>Some text of the post.</p>"
    frames = "".join(f'<iframe sandbox="allow-scripts" loading="lazy" style="{style}" '
                     f'src="{base}embed.html#{link}" title="embed {i}"></iframe>{gap}' for i in range(count))
    return f"<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0'>{frames}</body></html>"


def measure(browser: Any, base: str, link: str, count: int, layout: str) -> dict[str, Any]:
    viewport = {"width": 360, "height": 640} if layout == "stacked" else {"width": 1600, "height": 1400}
    ctx = browser.new_context(viewport=viewport, service_workers="block")
    page = ctx.new_page()
    page.goto(base + "build-info.json")
    page.wait_for_timeout(500)
    baseline = tree_rss_kb(os.getpid())
    baseline_renderers = tree_rss_kb(os.getpid(), renderers=True)
    sizes: list[int] = []
    reqs: list[str] = []
    ctx.on("request", lambda r: reqs.append(r.url))
    ctx.on("requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"]))
    html = host_html(base, link, count, layout)
    page.route(base + "host.html", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    t0 = time.monotonic()
    page.goto(base + "host.html")
    deadline = t0 + 600
    first = None
    while time.monotonic() < deadline:
        frames = [f for f in page.frames if "embed.html" in f.url]
        states = [f.evaluate("() => document.body && document.body.dataset.state || null") for f in frames]
        visible = [f.evaluate("() => !document.querySelector('.embed-wait') || document.querySelector('.embed-wait').hidden === false ? null : 1") for f in frames]
        booted = sum(1 for s in states if s == "ready")
        if booted and first is None:
            first = time.monotonic() - t0
        expect = count if layout != "stacked" else sum(1 for _ in visible) and booted
        if layout != "stacked" and booted == count:
            break
        if layout == "stacked" and booted >= 1:
            page.wait_for_timeout(3000)   # anything else that was going to boot
            break
        page.wait_for_timeout(200)
        del expect
    elapsed = time.monotonic() - t0
    states = [f.evaluate("() => document.body && document.body.dataset.state || null") for f in page.frames
              if "embed.html" in f.url]
    page.wait_for_timeout(1000)
    rss = tree_rss_kb(os.getpid()) - baseline
    renderer_rss = tree_rss_kb(os.getpid(), renderers=True) - baseline_renderers
    out = {"count": count, "layout": layout, "seconds_to_ready": round(elapsed, 1),
           "seconds_to_first": round(first, 1) if first is not None else None,
           "frames_ready": sum(1 for s in states if s == "ready"),
           "requests": len(reqs), "wasm_requests": sum(1 for u in reqs if u.endswith(".wasm")),
           "zip_requests": sum(1 for u in reqs if "/chkobba-" in u and u.endswith(".zip")),
           "mb_transferred": round(sum(s for s in sizes if s > 0) / 1e6, 1), "rss_mb_over_baseline": round(rss / 1024),
           "renderer_rss_mb_over_baseline": round(renderer_rss / 1024)}
    ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", type=int, nargs="+", default=[1, 5, 10])
    ap.add_argument("--layout", choices=["visible", "stacked", "host"], nargs="+", default=["visible", "stacked", "host"])
    ap.add_argument("--site", nargs="+", default=[str(ROOT / "build" / "site")],
                    help="a built site, or LABEL=DIR pairs measured one after the other in the same run")
    ap.add_argument("--out")
    args = ap.parse_args()
    link = links(sample_record())["replay"]
    from playwright.sync_api import sync_playwright
    sites = [(s.split("=", 1) if "=" in s else ["site", s]) for s in args.site]
    servers = [(label, start_server(Path(d))) for label, d in sites]
    rows = []
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for layout in args.layout:
                for n in args.counts:
                    for label, server in servers:     # the builds side by side, count by count
                        row = {"site": label, **measure(browser, server.url, link, n, layout)}
                        print(json.dumps(row), flush=True)
                        rows.append(row)
            browser.close()
    finally:
        for _, server in servers:
            server.shutdown()
            server.server_close()
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
