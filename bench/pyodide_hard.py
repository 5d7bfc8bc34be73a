#!/usr/bin/env python3
"""Hard computer decisions in the browser (Pyodide, the page's interpreter in slices) vs CPython.

    python bench/pyodide_hard.py [--positions 40] [--players 2] [--seed 1] [--quota 25] [--write docs/pyodide-hard.md] [--no-build]

Positions come from medium-vs-medium games played in CPython (decisions with
more than one legal action, computer seat to act). Each is sent as a save to
the page's own players exactly as the table does (``think("choose")``, the
search in slices), and timed from the page; the same calls are timed in
CPython through the facade. The hard level's default budget is used. The
page's time includes rebuilding the position from the record, as the table's
calls do.

A phone: with ``--quota 25`` (the default; 0 skips it) the same calls are
timed again with the whole browser held to a quarter of one core (a cgroup
CPU quota on every Chromium process: CDP's CPU throttling slows the page's
main thread but not Chromium's other processes), beside the unthrottled figures. The group
gets a high CPU weight, so on a busy machine it still gets its quarter core
(the unthrottled figures, by contrast, share the machine with whatever runs). The cgroup
needs root (cgroup v1 ``cpu`` controller or cgroup v2 ``cpu.max``); Debian's
``cpulimit`` is used instead when no cgroup can be made.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from browser import launch  # noqa: E402
from positions import sessions_where  # noqa: E402  (tests/positions.py)
from serve import start_server  # noqa: E402

from chkobba import web  # noqa: E402


def positions(n: int, players: int, seed: int) -> list[dict[str, Any]]:
    """Computer seats' decisions met in medium games, as the page's players are asked for them."""
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "hard"}] * (players - 1)
    found = sessions_where(lambda obs: obs.seat != 0, n, seed, {"players": players}, share=0.3, seed_stride=1000)
    return [{"save": {"v": web.SAVE_VERSION, "record": sess.record(), "seed": sess.seed, "seats": seats,
                      "coach": False}, "seat": sess.to_act()} for sess in found]


def summary(ms: list[float]) -> str:
    d = sorted(ms)
    p95 = d[min(len(d) - 1, int(0.95 * len(d)))]
    return f"{len(d)} | {statistics.median(d):.0f} ms | {p95:.0f} ms | {d[-1]:.0f} ms"


def descendants(pid: int, comm: str = "chrom") -> list[int]:
    """Every process below ``pid`` whose name contains ``comm`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out: list[int] = []
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            todo.append(c)
            try:
                with open(f"/proc/{c}/comm") as f:
                    if comm in f.read():
                        out.append(c)
            except OSError:
                pass
    return out


class CpuQuota:
    """Hold processes to ``percent`` of one core: a cgroup (v1 or v2) with a
    CPU quota, or Debian's ``cpulimit`` on each process when no cgroup can be
    made. ``add`` the browser's processes; new ones they start inherit the
    cgroup (with cpulimit, call ``add`` again after the page has loaded)."""

    def __init__(self, percent: int) -> None:
        self.percent = percent
        self.path: Path | None = None
        self.limiters: dict[int, subprocess.Popen[bytes]] = {}
        name = f"chkobba-bench-{os.getpid()}"
        for base, v2 in ((Path("/sys/fs/cgroup/cpu"), False), (Path("/sys/fs/cgroup"), True)):
            try:
                if v2 and not (base / "cgroup.controllers").exists():
                    continue
                if not v2 and not (base / "cpu.cfs_quota_us").exists():
                    continue
                path = base / name
                path.mkdir()
                # the quota caps the browser at `percent` of one core; a high
                # weight makes sure it gets that much on a busy machine too
                if v2:
                    (path / "cpu.max").write_text(f"{percent * 1000} 100000")
                    (path / "cpu.weight").write_text("800")
                else:
                    (path / "cpu.cfs_period_us").write_text("100000")
                    (path / "cpu.cfs_quota_us").write_text(str(percent * 1000))
                    (path / "cpu.shares").write_text("8192")
                self.path = path
                self.how = f"cgroup {'v2 cpu.max' if v2 else 'v1 cpu.cfs_quota_us'} {percent * 1000}/100000 us"
                return
            except OSError:
                continue
        if not shutil_which("cpulimit"):
            raise SystemExit("--quota needs root for a cgroup, or Debian's cpulimit (apt-get install cpulimit)")
        self.how = f"cpulimit -l {percent} on each Chromium process"

    def add(self, pids: list[int]) -> None:
        for pid in pids:
            if self.path is not None:
                try:
                    (self.path / "cgroup.procs").write_text(str(pid))
                except OSError:
                    pass   # the process has ended
            elif pid not in self.limiters:
                self.limiters[pid] = subprocess.Popen(["cpulimit", "-q", "-l", str(self.percent), "-p", str(pid)],
                                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def close(self) -> None:
        for p in self.limiters.values():
            p.terminate()
            p.wait()
        if self.path is not None:
            time.sleep(0.5)
            try:
                self.path.rmdir()
            except OSError:
                pass


def shutil_which(name: str) -> str | None:
    import shutil
    return shutil.which(name)


def in_browser(url: str, cases: list[dict[str, Any]], quota: int | None) -> list[float]:
    """Each case's ``choose`` timed from the page (its interpreter, in slices)."""
    from playwright.sync_api import sync_playwright
    limit = CpuQuota(quota) if quota else None
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            if limit is not None:
                limit.add(descendants(os.getpid()))   # the browser and its helpers, before any page
                print(f"browser held to {quota}% of one core ({limit.how})", file=sys.stderr)
            ctx = browser.new_context(service_workers="block")
            page = ctx.new_page()
            page.set_default_timeout(600_000)
            page.goto(url)
            page.wait_for_selector("html.ai-ready")
            if limit is not None:
                limit.add(descendants(os.getpid()))   # (cpulimit: the page's renderer too)
            out: list[float] = page.evaluate("""async (cases) => {
                // the page's own players (web/shell/py.js think: the search in slices)
                const { think } = await import("./shell/py.js");
                const out = [];
                for (const c of cases) {
                  const t0 = performance.now();
                  await think("choose", c);
                  out.push(performance.now() - t0);
                }
                return out;
            }""", cases)
            browser.close()
    finally:
        if limit is not None:
            limit.close()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--players", type=int, default=2, choices=[2, 4])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quota", type=int, default=25,
                   help="also time with the browser held to this %% of one core (0: skip)")
    p.add_argument("--write")
    p.add_argument("--no-build", action="store_true")
    a = p.parse_args(argv)
    if not a.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    cases = positions(a.positions, a.players, a.seed)

    cpython: list[float] = []
    for c in cases:
        t = time.perf_counter()
        web.choose(c["save"], c["seat"])
        cpython.append((time.perf_counter() - t) * 1000)

    server = start_server(ROOT / "build" / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        browser_ms = in_browser(url, cases, None)
        limited = in_browser(url, cases, a.quota) if a.quota else None
    finally:
        server.shutdown()
    lines = ["| where | decisions | median | p95 | max |", "|---|---|---|---|---|",
             f"| CPython (facade `choose`) | {summary(cpython)} |",
             f"| Pyodide, the page's interpreter | {summary(browser_ms)} |"]
    if limited is not None:
        lines.append(f"| Pyodide, the page's interpreter, browser held to {a.quota}% of one core | {summary(limited)} |")
    text = "\n".join(lines)
    print(text)
    if a.write:
        cmd = "python bench/pyodide_hard.py " + " ".join(argv if argv is not None else sys.argv[1:])
        Path(a.write).write_text(
            "# Hard computer decisions in the browser\n\n"
            f"Measured with `{cmd.strip()}`: {a.positions} positions of {a.players}-player Chkobba\n"
            "(medium games, computer seat to act, more than one legal action), the hard level's\n"
            "default budget, headless Chromium on this project's 2-core machine kind. Each time\n"
            "includes rebuilding the position from the saved record, as the table's calls do.\n"
            "The search runs in slices of about 12 ms, so the page stays responsive whatever it takes.\n\n"
            + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
