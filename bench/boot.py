#!/usr/bin/env python3
"""Boot benchmark: time to "Python ready" and bytes transferred, cold and warm.

    python bench/boot.py [--runs 3] [--write docs/boot.md] [--no-build] [--ref layout]

Pages, all served from one local server in the same run, in headless Chromium:

  site            the real site (build/site): Pyodide started by web/shell/py.js,
                  precompiled stdlib, our package; ready = <html class="ready">
                  (start screen drawn by the engine)
  site-pyscript   the same site with the table's Python started through
                  PyScript's main-thread runtime (bench/pyscript_loader.js:
                  config inline, plugins off; no snapshot, PyScript has none)
  site-src        the same site built with --no-precompile (.py sources only)
  bare            a bare Pyodide page from the same files (build/site/pyodide):
                  loadPyodide() + `import chkobba.web`; ready = the same class
  bare-src        the bare page with the source (not precompiled) stdlib
  site-nosnap     the site built with --no-snapshot (Pyodide starts CPython
                  and imports our package instead of restoring a snapshot)
  site-gzsnap     the site with its snapshot gzip-compressed instead of
                  stored without its zero pages (--snapshot-format gzip)
  site-gzip       the real site from `scripts/serve.py` with gzip (its default;
                  the other pages are served `--no-gzip`)
  site@REF        with --ref: the site as built from that git ref (e.g. the
                  tag before a change), for before/after in the same run

"AI ready" is when the computer players (web/ai.py, in the page's own
interpreter) are up too (<html class="ai-ready">); requests are counted by the
server (what reached it, 304s included; files the browser took from its
cache without asking are not requests).

Cold = a new browser profile on disk (empty HTTP cache); warm = a reload with
that profile (the server answers "no-cache", so files are revalidated).
Time is measured in the page from navigation start to the `ready` class.
Bytes are response bodies plus headers of requests finished by then.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from browser import launch_persistent  # noqa: E402
import serve  # noqa: E402
from serve import start_server  # noqa: E402

BUILD = ROOT / "build"
LOAD_AT_START = "?"
BENCH = BUILD / "bench"

READY_SCRIPT = """
window.__readyAt = null;
window.__aiReadyAt = null;
new MutationObserver((r, obs) => {
  const h = document.documentElement;
  if (h && window.__readyAt === null && h.classList.contains('ready')) window.__readyAt = performance.now();
  if (h && h.classList.contains('ai-ready')) { window.__aiReadyAt = performance.now(); obs.disconnect(); }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['class']});
"""

KEEPS_SNAPSHOT = """() => {
  const meta = document.querySelector('meta[name="chkobba-boot"]');
  const boot = meta ? JSON.parse(meta.content) : {};
  return Boolean(boot.snapshot) && boot.snapshotFrom === "browser" && !window.chkobbaBoot?.snapshot;
}"""

# The boot's steps the pages mark (web/shell/py.js, web/app.js, BARE_HTML):
# ms from navigation start.
MARKS = """() => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("chkobba:")).map((m) => [m.name.slice(8), Math.round(m.startTime)]))"""
STEPS = ("runtime", "package", "imported", "page", "ready")

# Every request the server answered: (path, status).
SERVED: list[tuple[str, int]] = []


def _log_request(self: Any, code: Any = "-", size: Any = "-") -> None:
    SERVED.append((self.path, int(code) if str(code).isdigit() else 0))


serve.Handler.log_request = _log_request  # type: ignore[method-assign]

BARE_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>bare pyodide</title></head>
<body><p>bare Pyodide</p>
<script type="module">
const params = new URLSearchParams(location.search);
const indexURL = new URL("../site/__PYODIDE_DIR__", location.href).href;
const info = await (await fetch("../site/build-info.json")).json();
// the site ships no lock file (its `info` is in build-info.json, as in the page's boot meta)
const opts = { indexURL, lockFileContents: { info: info.lock_info || {}, packages: {} } };
if (params.get("stdlib") === "src") opts.stdLibURL = new URL("python_stdlib.src.zip", location.href).href;
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const zipped = fetch("../site/" + info.package_zip).then((r) => r.arrayBuffer());   // beside the runtime, as the site does
const py = await loadPyodide(opts);
performance.mark("chkobba:runtime");
const zip = await zipped;
py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
performance.mark("chkobba:package");
py.runPython("import chkobba.web");
performance.mark("chkobba:imported");
document.documentElement.classList.add("ready");
performance.mark("chkobba:ready");
</script></body></html>
"""

PAGES = {
    "site": "site/",
    "site-src": "bench/site-src/",
    "bare": "bench/bare.html",
    "bare-src": "bench/bare.html?stdlib=src",
    "site-gzip": "site/",
    "site-nosnap": "bench/site-nosnap/",
    "site-gzsnap": "bench/site-gzsnap/",
    "site-pyscript": "bench/site-pyscript/",
}


def pyscript_copy(site: Path, out: Path) -> None:
    """The site with its table page started through PyScript (the page
    "site-pyscript"): a copy of ``site`` (hard links) whose index.html's boot
    information names bench/pyscript_loader.js as its ``loader`` and carries
    no snapshot (PyScript cannot restore one), and whose Content-Security-Policy
    allows 'unsafe-eval' (PyScript needs it)."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(site, out, copy_function=os.link)
    info = json.loads((site / "build-info.json").read_text())
    stdlib = sorted(p.name for p in (site / "page").glob("stdlib-*.zip"))
    fill = {"interpreter": f"{info['pyodide_dir']}pyodide.mjs", "stdlib": f"page/{stdlib[0]}",
            "pyscript": f"pyscript/{info['pyscript']}/core.js"}
    loader = (ROOT / "bench" / "pyscript_loader.js").read_text()
    marker = "/* __BENCH_PYSCRIPT__ */ {}"
    assert marker in loader, "bench/pyscript_loader.js lacks its marker"
    (out / "pyscript-loader.js").write_text(loader.replace(marker, json.dumps(fill)))
    page = (site / "index.html").read_text()
    found = re.search(r"<meta name=\"chkobba-boot\" content='([^']*)'>", page)
    assert found, "index.html has no boot information"
    boot = json.loads(found.group(1))
    boot.pop("snapshot", None)
    boot["loader"] = "./pyscript-loader.js"
    page = page.replace(found.group(0), f"<meta name=\"chkobba-boot\" content='{json.dumps(boot)}'>")
    # PyScript evaluates strings as JavaScript (its hooks): the page's policy
    # must allow 'unsafe-eval', which the site's never does (docs/boot.md)
    page = page.replace("script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'")
    # hard links: unlink before writing, so build/site's own files stay as they are
    (out / "index.html").unlink()
    (out / "index.html").write_text(page)
    (out / "index.html.br").unlink(missing_ok=True)   # the copy is served raw


def prepare(build: bool, ref: str | None) -> None:
    if build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    BENCH.mkdir(parents=True, exist_ok=True)
    if build or not (BENCH / "site-src" / "index.html").exists():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"),
                        "--out", str(BENCH / "site-src"), "--no-precompile"], check=True)
    if build or not (BENCH / "site-nosnap" / "index.html").exists():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"),
                        "--out", str(BENCH / "site-nosnap"), "--no-snapshot"], check=True)
    if build or not (BENCH / "site-gzsnap" / "index.html").exists():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"),
                        "--out", str(BENCH / "site-gzsnap"), "--snapshot-format", "gzip"], check=True)
    pyscript_copy(BUILD / "site", BENCH / "site-pyscript")
    shutil.copy2(BUILD / "cache" / "python_stdlib.pruned.zip", BENCH / "python_stdlib.src.zip")
    info = json.loads((BUILD / "site" / "build-info.json").read_text())
    (BENCH / "bare.html").write_text(BARE_HTML.replace("__PYODIDE_DIR__", info.get("pyodide_dir", "pyodide/")))
    if ref:
        # The site as that ref builds it, with this checkout's node_modules.
        src = BENCH / "ref-src"
        shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", ref, "web", "scripts", "chkobba", "package.json"],
                                 cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
        (src / "node_modules").symlink_to(ROOT / "node_modules")
        subprocess.run([sys.executable, str(src / "scripts" / "build_site.py"),
                        "--out", str(BENCH / "site-ref")], check=True)


def measure(playwright: Any, url: str, runs: int, worker: bool, throttle: float = 1) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"cold_ms": [], "warm_ms": [], "cold_bytes": [], "warm_bytes": [],
                                   "cold_requests": [], "cold_ai_ms": [], "warm_ai_ms": [],
                                   "cold_all_requests": [], "warm_all_requests": [],
                                   "cold_all_bytes": []}
    for _ in range(runs):
        # A fresh on-disk profile: cold = its first visit, warm = a reload
        # served from its disk cache (incognito contexts keep only a small
        # memory cache, which does not hold the 9.6 MB wasm).
        profile = tempfile.mkdtemp(prefix="boot-bench-")
        ctx = launch_persistent(playwright, profile, service_workers="block")
        ctx.add_init_script(READY_SCRIPT)
        page = ctx.new_page()
        if throttle > 1:
            # Chromium's CPU throttling (DevTools "4x slowdown"): it slows the
            # page's main thread, not its Web Workers (docs/boot.md).
            cdp = ctx.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        finished: list[tuple[float, int]] = []

        def on_finished(req: Any) -> None:
            try:
                sizes = req.sizes()
                finished.append((time.monotonic(), sizes["responseBodySize"] + sizes["responseHeadersSize"]))
            except Exception:
                pass

        page.on("requestfinished", on_finished)
        for phase in ("cold", "warm"):
            finished.clear()
            SERVED.clear()
            if phase == "cold":
                page.goto(url)
            else:
                page.reload()
            page.wait_for_function("() => window.__readyAt !== null", timeout=120_000)
            ready_at = time.monotonic()
            out[f"{phase}_ms"].append(page.evaluate("() => window.__readyAt"))
            for step, at in page.evaluate(MARKS).items():
                out.setdefault(f"{phase}_at_{step}", []).append(at)
            out[f"{phase}_bytes"].append(sum(b for t, b in finished if t <= ready_at))
            if phase == "cold":
                out["cold_requests"].append(len([1 for t, _ in finished if t <= ready_at]))
            if worker:
                page.wait_for_function("() => window.__aiReadyAt !== null", timeout=120_000)
                out[f"{phase}_ai_ms"].append(page.evaluate("() => window.__aiReadyAt"))
            if phase == "cold" and page.evaluate(KEEPS_SNAPSHOT):
                # a returning player: the snapshot this first visit makes for
                # the next one is kept before the second visit
                page.wait_for_selector("html.snapshot-kept", state="attached", timeout=300_000)
            all_at = time.monotonic()
            out[f"{phase}_all_requests"].append(len(SERVED))
            if phase == "cold":
                out["cold_all_bytes"].append(sum(b for t, b in finished if t <= all_at))
        version = ctx.browser.version if ctx.browser else ""
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)
        out.setdefault("version", []).append(version)  # type: ignore[arg-type]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Boot benchmark (see module docstring)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--write", type=Path, help="write the results table into this markdown file")
    ap.add_argument("--no-build", action="store_true", help="use build/ as it is")
    ap.add_argument("--ref", help="also measure the site as this git ref builds it (e.g. a tag)")
    ap.add_argument("--throttle", type=float, default=1,
                    help="CDP CPU throttling rate (4 = DevTools' 4x slowdown of the main thread)")
    ap.add_argument("--pages", help="only these pages, comma-separated (e.g. site,bare,site@REF)")
    args = ap.parse_args(argv)
    global LOAD_AT_START
    LOAD_AT_START = " ".join(f"{x:.1f}" for x in os.getloadavg())
    prepare(not args.no_build, args.ref)
    pages = dict(PAGES)
    if args.ref:
        pages[f"site@{args.ref}"] = "bench/site-ref/"
    if args.pages:
        wanted = args.pages.split(",")
        unknown = [w for w in wanted if w not in pages]
        if unknown:
            ap.error(f"unknown pages {unknown}; known: {', '.join(pages)}")
        pages = {k: v for k, v in pages.items() if k in wanted}
    from playwright.sync_api import sync_playwright

    server = start_server(BUILD, compress=False)
    gz_server = start_server(BUILD, compress=True)
    results: dict[str, dict[str, list[float]]] = {}
    with sync_playwright() as p:
        # Interleave pages run by run so slow drift of the machine hits all alike.
        version = "?"
        for _ in range(args.runs):
            for name, path in pages.items():
                base = gz_server.url if name == "site-gzip" else server.url
                r = measure(p, base + path, 1, worker=name.startswith("site"), throttle=args.throttle)
                version = str(r.pop("version")[0]) or version
                acc = results.setdefault(name, {k: [] for k in r})
                for k, v in r.items():
                    acc.setdefault(k, []).extend(v)
    server.shutdown()
    gz_server.shutdown()

    info = json.loads((BUILD / "site" / "build-info.json").read_text())
    lines = [
        f"Chromium {version} headless, {args.runs} runs each, interleaved; median (min-max)"
        + (f"; CDP CPU throttling {args.throttle:g}x." if args.throttle > 1 else ".")
        + f" Load average at the start: {LOAD_AT_START}.",
        f"Pyodide {info['pyodide']} (Python {info['python']}), PyScript {info.get('pyscript', 'none')}.",
        "",
        "| page | cold to ready (ms) | warm to ready (ms) | cold bytes | warm bytes | cold requests "
        "| cold to AI ready (ms) | warm to AI ready (ms) | requests to AI ready, cold / warm | bytes to AI ready, cold |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]

    def fmt(vals: list[float]) -> str:
        if not vals:
            return "-"
        return f"{statistics.median(vals):.0f} ({min(vals):.0f}-{max(vals):.0f})"

    for name, r in results.items():
        lines.append(f"| {name} | {fmt(r['cold_ms'])} | {fmt(r['warm_ms'])} | "
                     f"{statistics.median(r['cold_bytes']) / 1e6:.2f} MB | "
                     f"{statistics.median(r['warm_bytes']) / 1e3:.0f} kB | "
                     f"{statistics.median(r['cold_requests']):.0f} | "
                     f"{fmt(r['cold_ai_ms'])} | {fmt(r['warm_ai_ms'])} | "
                     f"{statistics.median(r['cold_all_requests']):.0f} / {statistics.median(r['warm_all_requests']):.0f} | "
                     f"{statistics.median(r['cold_all_bytes']) / 1e6:.2f} MB |")
    lines += ["", "Where the time to ready goes: ms from navigation start to each step the page marks, "
              "median (runtime: loadPyodide resolved; package: the package unpacked, cold only; imported: "
              "`chkobba.web` imported; page: the page's own modules evaluated; ready: the table drawn).", "",
              "| page, visit | " + " | ".join(STEPS) + " |", "|---|" + "---|" * len(STEPS)]
    for name, r in results.items():
        for phase in ("cold", "warm"):
            cells = [f"{statistics.median(r[k]):.0f}" if (k := f"{phase}_at_{step}") in r else "-" for step in STEPS]
            lines.append(f"| {name}, {phase} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    if args.write:
        text = args.write.read_text() if args.write.exists() else ""
        start, end = "<!-- boot-results -->", "<!-- /boot-results -->"
        block = f"{start}\n{table}\n{end}"
        if start in text and end in text:
            text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
        else:
            text += "\n" + block + "\n"
        args.write.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
