#!/usr/bin/env python3
"""Hard computer decisions in the browser (Pyodide, in the PyScript worker) vs CPython.

    python bench/pyodide_hard.py [--positions 40] [--players 2] [--seed 1] [--write docs/pyodide-hard.md] [--no-build]

Positions come from medium-vs-medium games played in CPython (decisions with
more than one legal action, computer seat to act). Each is sent as a save to
the site's worker exactly as the table does (``choose``), and timed from the
page; the same calls are timed in CPython through the facade. The hard level's
default budget is used. The worker's time includes rebuilding the position
from the record, as the table's calls do.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from browser import launch  # noqa: E402
from serve import start_server  # noqa: E402

from chkobba import web  # noqa: E402
from chkobba.agents import make_agent  # noqa: E402
from chkobba.session import Session  # noqa: E402


def positions(n: int, players: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    medium = make_agent("chkobba", "medium")
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "hard"}] * (players - 1)
    out: list[dict[str, Any]] = []
    game = 0
    while len(out) < n:
        sess = Session.new("chkobba", {"players": players}, seed=seed * 1000 + game)
        game += 1
        while not sess.is_over and len(out) < n:
            seat = sess.to_act()
            assert seat is not None
            obs = sess.observation(seat)
            legal = obs.legal_actions()
            if seat != 0 and len(legal) > 1 and rng.random() < 0.3:
                out.append({"save": {"v": web.SAVE_VERSION, "record": sess.record(), "seed": sess.seed,
                                     "seats": seats, "coach": False}, "seat": seat})
            sess.apply(medium.choose(obs, legal, rng))
    return out


def summary(ms: list[float]) -> str:
    d = sorted(ms)
    p95 = d[min(len(d) - 1, int(0.95 * len(d)))]
    return f"{len(d)} | {statistics.median(d):.0f} ms | {p95:.0f} ms | {d[-1]:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--players", type=int, default=2, choices=[2, 4])
    p.add_argument("--seed", type=int, default=1)
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

    from playwright.sync_api import sync_playwright
    server = start_server(ROOT / "build" / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as pw:
        browser = launch(pw)
        ctx = browser.new_context(service_workers="block")
        page = ctx.new_page()
        page.set_default_timeout(180_000)
        page.goto(url)
        page.wait_for_selector("html.ai-ready")
        browser_ms: list[float] = page.evaluate("""async (cases) => {
            const w = await window.chkobbaApp.ai;
            const out = [];
            for (const c of cases) {
              const t0 = performance.now();
              const answer = JSON.parse(await w.sync.choose(JSON.stringify(c)));
              if (!("ok" in answer)) throw new Error(answer.error);
              out.push(performance.now() - t0);
            }
            return out;
        }""", cases)
        browser.close()
    server.shutdown()
    lines = ["| where | decisions | median | p95 | max |", "|---|---|---|---|---|",
             f"| CPython (facade `choose`) | {summary(cpython)} |",
             f"| Pyodide in the PyScript worker | {summary(browser_ms)} |"]
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
            "The search runs in the worker, so the page stays responsive whatever it takes.\n\n"
            + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
