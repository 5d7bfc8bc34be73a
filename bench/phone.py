#!/usr/bin/env python3
"""A first visit as a phone sees it: bytes per file and per purpose, time to a
playable table, and a repeat visit, on a slow network for the WHOLE browser.

    python bench/phone.py [--no-build] [--site build/site] [--net 9:150,1.6:150]
                          [--cpu 4] [--no-gzip] [--no-br] [--private] [--idle 4]

The network: a small asyncio proxy in front of `scripts/serve.py` (the same
server and `_headers` caching rules as the README's) paces every byte the
server sends through one shared downlink of the given rate (Mbit/s) and adds
the round trip (ms, half each way) to every chunk, so the page, its workers
and the service worker all share the same slow link (Chromium's CDP network
throttling applies to one target only and misses workers). TCP slow start and
packet loss are not modelled. The CPU: Chromium's CDP
`Emulation.setCPUThrottlingRate` on the page (its main thread; it does not
slow Web Workers or the service worker).

A visit: a fresh on-disk profile (its HTTP cache as a phone's; `--private`: a
private window's context, whose memory cache keeps no large file), viewport
360x640, service workers allowed; navigate, wait for `<html class="ready">`
(the table playable), `ai-ready` (the computer players ready), the service
worker active (`navigator.serviceWorker.ready`: the offline copy installed),
then until the server has sent nothing for `--idle` seconds. Then a repeat
visit: the same profile opens the page again (a new tab).

Bytes are counted by the server: the body of every response it sent (304s
count 0), at the time it finished sending it, attributed to the first phase
still open then. "gzip-eq" is what a host that compresses would send: the
gzip -6 size of each uncompressed body (or the body itself when the server
sent it compressed: by default brotli where the build made a FILE.br, else
gzip; `--no-br`: gzip only; `--no-gzip` sends every file as it is).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from browser import launch, launch_persistent  # noqa: E402
import serve  # noqa: E402

# ------------------------------------------------------------------ the server's count

# (monotonic time sent, path, status, body bytes, gzip-equivalent bytes)
SENT: list[tuple[float, str, int, int, int]] = []
_LOCK = threading.Lock()
_GZ_SIZE: dict[tuple[str, int], int] = {}


def _gzip_size(path: str) -> int:
    st = os.stat(path)
    key = (path, st.st_mtime_ns)
    if key not in _GZ_SIZE:
        with open(path, "rb") as fh:
            _GZ_SIZE[key] = len(gzip.compress(fh.read(), 6))
    return _GZ_SIZE[key]


def _counting_copyfile(self: Any, source: Any, outputfile: Any) -> None:
    n = 0
    while True:
        buf = source.read(64 * 1024)
        if not buf:
            break
        outputfile.write(buf)
        n += len(buf)
    url_path = self.path.split("?", 1)[0]
    fs_path = self.translate_path(self.path)
    gz = n if isinstance(source, io.BytesIO) or not os.path.isfile(fs_path) else _gzip_size(fs_path)
    with _LOCK:
        SENT.append((time.monotonic(), url_path, getattr(self, "_status", 200), n, gz))


serve.Handler.copyfile = _counting_copyfile  # type: ignore[method-assign]
_plain_send_response = serve.Handler.send_response


def _noting_send_response(self: Any, code: int, message: str | None = None) -> None:
    if code == 304:
        with _LOCK:
            SENT.append((time.monotonic(), self.path.split("?", 1)[0], 304, 0, 0))
    _plain_send_response(self, code, message)


serve.Handler.send_response = _noting_send_response  # type: ignore[method-assign]

# ------------------------------------------------------------------ the slow network


class Link:
    """One downlink shared by every connection: `rate` bytes/s, `rtt` s."""

    def __init__(self, mbit: float, rtt_ms: float) -> None:
        self.rate = mbit * 1e6 / 8
        self.half = rtt_ms / 2000
        self.free_at = 0.0


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: Link, down: bool) -> None:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            item = await queue.get()
            if item is None:
                break
            at, data = item
            wait = at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                writer.write(data)
                await writer.drain()
            except (ConnectionError, RuntimeError):
                break
        try:
            writer.close()
        except RuntimeError:
            pass

    task = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(16 * 1024)
            if not data:
                break
            now = loop.time()
            if down:
                start = max(now, link.free_at)
                link.free_at = start + len(data) / link.rate
                queue.put_nowait((link.free_at + link.half, data))
            else:
                queue.put_nowait((now + link.half, data))
    except ConnectionError:
        pass
    queue.put_nowait(None)
    await task


class Proxy:
    """A throttling TCP proxy to `upstream` (host, port), in its own thread."""

    def __init__(self, upstream: tuple[str, int], mbit: float, rtt_ms: float) -> None:
        self.upstream = upstream
        self.link = Link(mbit, rtt_ms)
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.port = 0

        async def handle(cr: asyncio.StreamReader, cw: asyncio.StreamWriter) -> None:
            try:
                ur, uw = await asyncio.open_connection(*self.upstream)
            except OSError:
                cw.close()
                return
            await asyncio.gather(_pipe(cr, uw, self.link, False), _pipe(ur, cw, self.link, True))

        async def main() -> None:
            server = await asyncio.start_server(handle, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            async with server:
                await server.serve_forever()

        threading.Thread(target=lambda: self.loop.run_until_complete(main()), daemon=True).start()
        ready.wait()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


# ------------------------------------------------------------------ one visit

MARKS = """
window.__marks = {};
new MutationObserver(() => {
  const h = document.documentElement;
  for (const c of ['ready', 'ai-ready', 'snapshot-kept']) if (h && h.classList.contains(c) && !(c in window.__marks)) window.__marks[c] = performance.now();
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['class']});
if (navigator.serviceWorker) navigator.serviceWorker.ready.then(() => { window.__marks['offline'] = performance.now(); });
"""

PHASES = ("playable", "players", "offline", "idle")


def wait_idle(idle: float, limit: float = 120.0) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        with _LOCK:
            last = SENT[-1][0] if SENT else t0
        if time.monotonic() - max(last, t0) >= idle:
            return
        time.sleep(0.25)


def visit(page: Any, url: str, idle: float, first: bool) -> dict[str, Any]:
    with _LOCK:
        SENT.clear()
    cuts: dict[str, float] = {}
    t0 = time.monotonic()
    page.goto(url, wait_until="commit", timeout=300_000)
    page.wait_for_function("() => window.__marks && 'ready' in window.__marks", timeout=300_000, polling=100)
    cuts["playable"] = time.monotonic()
    page.wait_for_function("() => 'ai-ready' in window.__marks", timeout=300_000, polling=100)
    cuts["players"] = time.monotonic()
    if first:
        page.wait_for_function("() => 'offline' in window.__marks", timeout=300_000, polling=100)
    cuts["offline"] = time.monotonic()
    if first and page.evaluate("""() => (JSON.parse((document.querySelector('meta[name="chkobba-boot"]')
            || {content: '{}'}).content).snapshotFrom === 'browser')"""):
        # the snapshot for the next visit, made in a worker (no download)
        page.wait_for_function("() => 'snapshot-kept' in window.__marks", timeout=300_000, polling=250)
    wait_idle(idle)
    cuts["idle"] = time.monotonic()
    marks = page.evaluate("() => window.__marks")
    snapshot = page.evaluate("() => !!(window.chkobbaBoot && window.chkobbaBoot.snapshot)")
    with _LOCK:
        sent = list(SENT)
    rows = []
    for at, path, status, n, gz in sent:
        phase = next((p for p in PHASES if at <= cuts[p]), "idle")
        rows.append({"path": path, "status": status, "bytes": n, "gz": gz, "phase": phase, "at": at - t0})
    return {"marks": marks, "rows": rows, "wall": {k: v - t0 for k, v in cuts.items()}, "snapshot": snapshot}


def short(path: str) -> str:
    path = re.sub(r"/pyodide/[0-9a-f]{12}/", "/pyodide/H/", path)
    return re.sub(r"-[0-9a-f]{12}\.(zip|bin)$", r"-H.\1", path)


def mb(n: float) -> str:
    return f"{n / 1e6:.2f}"


def report(name: str, first: dict[str, Any], repeat: dict[str, Any]) -> str:
    out = [f"#### {name}", ""]
    m = first["marks"]
    out.append(f"- first visit: playable at **{m.get('ready', 0) / 1000:.1f} s**, computer players ready at "
               f"{m.get('ai-ready', 0) / 1000:.1f} s, offline copy installed at "
               f"{m.get('offline', 0) / 1000:.1f} s"
               + (f", snapshot for the next visit made at {m['snapshot-kept'] / 1000:.1f} s" if 'snapshot-kept' in m else "")
               + " (page clock from navigation)")
    rm = repeat["marks"]
    out.append(f"- repeat visit: playable at **{rm.get('ready', 0) / 1000:.1f} s**, computer players ready at "
               f"{rm.get('ai-ready', 0) / 1000:.1f} s"
               + (" (from the snapshot)" if repeat.get("snapshot") else ""))
    out += ["", "| purpose (first visit) | requests | 200s | raw MB | gzip-eq MB |", "|---|---|---|---|---|"]
    totals = [0, 0, 0, 0]
    for phase, label in zip(PHASES, ("until playable", "then until players ready",
                                     "then until offline ready", "then until idle")):
        rows = [r for r in first["rows"] if r["phase"] == phase]
        vals = [len(rows), sum(r["status"] == 200 for r in rows), sum(r["bytes"] for r in rows),
                sum(r["gz"] for r in rows)]
        totals = [a + b for a, b in zip(totals, vals)]
        out.append(f"| {label} | {vals[0]} | {vals[1]} | {mb(vals[2])} | {mb(vals[3])} |")
    out.append(f"| **total** | {totals[0]} | {totals[1]} | **{mb(totals[2])}** | **{mb(totals[3])}** |")
    rr = repeat["rows"]
    out.append(f"| repeat visit, until idle | {len(rr)} | {sum(r['status'] == 200 for r in rr)} | "
               f"{mb(sum(r['bytes'] for r in rr))} | {mb(sum(r['gz'] for r in rr))} |")
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in first["rows"]:
        p = per[short(r["path"])]
        p[0] += r["status"] == 200
        p[1] += r["bytes"]
        p[2] += r["gz"]
        p[3] += r["status"] == 304
    big = sorted(per.items(), key=lambda kv: -kv[1][1])
    out += ["", "| file (first visit, over 20 kB or sent more than once) | times sent | 304s | raw MB | gzip-eq MB |",
            "|---|---|---|---|---|"]
    small = [0, 0, 0, 0]
    for path, (times, n, gz, revalid) in big:
        if n > 20_000 or times > 1:
            out.append(f"| `{path}` | {times}{' **(dup)**' if times > 1 else ''} | {revalid} | {mb(n)} | {mb(gz)} |")
        else:
            small = [small[0] + 1, small[1] + times, small[2] + n, small[3] + gz]
    out.append(f"| {small[0]} smaller files | {small[1]} | | {mb(small[2])} | {mb(small[3])} |")
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> str:
    from playwright.sync_api import sync_playwright

    if args.no_br:
        plain_accepts = serve.Handler.accepts
        serve.Handler.accepts = lambda self, coding: coding != "br" and plain_accepts(self, coding)  # type: ignore[method-assign]
    server = serve.start_server(args.site, compress=not args.no_gzip)
    host, port = server.server_address[:2]
    results = []
    with sync_playwright() as p:
        for net in args.net.split(","):
            mbit, _, rtt = net.partition(":")
            proxy = Proxy((str(host), int(port)), float(mbit), float(rtt or 150))
            profile = tempfile.mkdtemp(prefix="phone-bench-")
            try:
                if args.private:
                    browser = launch(p)
                    ctx = browser.new_context(viewport={"width": 360, "height": 640}, service_workers="allow")
                else:
                    ctx = launch_persistent(p, profile, viewport={"width": 360, "height": 640},
                                            service_workers="allow")
                ctx.add_init_script(MARKS)
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                page.set_default_timeout(300_000)
                if args.cpu > 1:
                    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                first = visit(page, proxy.url, args.idle, True)
                page.close()
                page2 = ctx.new_page()
                if args.cpu > 1:
                    ctx.new_cdp_session(page2).send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                repeat = visit(page2, proxy.url, args.idle, False)
                ctx.close()
                if args.private:
                    browser.close()
            finally:
                shutil.rmtree(profile, ignore_errors=True)
            name = (f"{float(mbit):g} Mbit/s down, {float(rtt or 150):g} ms round trip, {args.cpu:g}x CPU"
                    + ((", server gzip" if args.no_br else ", server brotli (the build's .br) or gzip")
                       if not args.no_gzip else ", no compression")
                    + (", a private window (memory cache only)" if args.private else ", an on-disk profile"))
            results.append(report(name, first, repeat))
            if args.json:
                Path(args.json).write_text(json.dumps({"first": first, "repeat": repeat}, indent=1))
    server.shutdown()
    return "\n".join(results)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, default=ROOT / "build" / "site")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--net", default="9:150,1.6:150", help="Mbit/s:rtt-ms, comma-separated")
    ap.add_argument("--cpu", type=float, default=4)
    ap.add_argument("--no-gzip", action="store_true", help="scripts/serve.py --no-gzip (every file sent as it is)")
    ap.add_argument("--no-br", action="store_true",
                    help="never send the build's brotli copies (FILE.br): gzip only, as a host without them")
    ap.add_argument("--idle", type=float, default=4, help="seconds without a byte sent = the visit is over")
    ap.add_argument("--private", action="store_true",
                    help="a private window's context (memory cache only) instead of an on-disk profile")
    ap.add_argument("--json", help="also write the last network's raw rows here")
    args = ap.parse_args(argv)
    if not args.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    text = run(args)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
