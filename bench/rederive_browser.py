#!/usr/bin/env python3
"""What re-deriving a daily round costs a phone: the page's own check, in
the browser, with the whole browser held to a quarter of one core
(docs/daily.md, "Results re-derived, not read").

    python bench/rederive_browser.py [--dates 3] [--first 2026-12-01] [--quota 25] [--no-build]

For each daily deal of ``--dates`` consecutive days from ``--first`` and both
games, the round is played in CPython through the facade (the player's seat
by its first legal action, the computers by ``daily_choose``: bench/rederive.py
``play``). Then a fresh page of the built site, held to ``--quota`` % of one
core (bench/pyodide_hard.py's ``CpuQuota``: a cgroup with a CPU quota and a
high weight, so a busy machine still gives it that much), thinks exactly as
the table does at a round's end (web/shell/daily.js): ``think("daily_par",
{date, game})`` (par: the daily computer plays the deal alone), then
``think("daily_par", {date, game, save})`` (the save re-derived: every
computer move of the player's round thought again, par already known). Both
are timed from the page; the page stays responsive meanwhile (slices of about
12 ms, docs/main-thread.md), so this is how long the result waits, not a
freeze.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from pyodide_hard import CpuQuota, descendants, launch, start_server  # noqa: E402
from rederive import play  # noqa: E402

from chkobba import daily as D  # noqa: E402
from chkobba import web  # noqa: E402


def in_browser(url: str, cases: list[dict[str, Any]], quota: int) -> list[dict[str, float]]:
    import os

    from playwright.sync_api import sync_playwright
    limit = CpuQuota(quota) if quota else None
    out: list[dict[str, float]] = []
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            if limit is not None:
                limit.add(descendants(os.getpid()))
                print(f"browser held to {quota}% of one core ({limit.how})", file=sys.stderr)
            # One profile for every case, as a returning player's phone: the
            # first visit makes the memory snapshot in a worker (which would
            # share the quarter core with the thinking), so it is waited for
            # once; each case is then a fresh page that restores it.
            ctx = browser.new_context(service_workers="block")
            first = ctx.new_page()
            first.set_default_timeout(1_800_000)
            first.goto(url)
            first.wait_for_selector("html.snapshot-kept", state="attached")
            first.close()
            for case in cases:
                page = ctx.new_page()
                page.set_default_timeout(1_800_000)
                page.goto(url)
                page.wait_for_selector("html.ai-ready", state="attached")
                if limit is not None:
                    limit.add(descendants(os.getpid()))   # (cpulimit: the page's renderer too)
                ms: dict[str, float] = page.evaluate("""async (c) => {
                    const { think } = await import("./shell/py.js");
                    let t0 = performance.now();
                    await think("daily_par", { date: c.date, game: c.game });
                    const par = performance.now() - t0;
                    t0 = performance.now();
                    await think("daily_par", { date: c.date, game: c.game, save: c.save });
                    return { par, check: performance.now() - t0 };
                }""", case)
                out.append(ms)
                print(f"{case['game']} {case['date']}: par {ms['par'] / 1000:.1f} s, "
                      f"check {ms['check'] / 1000:.1f} s", file=sys.stderr)
                page.close()
            ctx.close()
            browser.close()
    finally:
        if limit is not None:
            limit.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dates", type=int, default=3)
    ap.add_argument("--first", default="2026-12-01")
    ap.add_argument("--quota", type=int, default=25, help="%% of one core for the whole browser (0: no limit)")
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args(argv)
    if not a.no_build:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
    first = datetime.date.fromisoformat(a.first)
    cases = []
    for game in D.GAMES:
        for k in range(a.dates):
            day = (first + datetime.timedelta(days=k)).isoformat()
            web.reset_tables()
            cases.append({"date": day, "game": game, "save": play(day, game)})
    server = start_server(ROOT / "build" / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        rows = in_browser(url, cases, a.quota)
    finally:
        server.shutdown()
    where = f"browser held to {a.quota}% of one core" if a.quota else "browser unthrottled"
    print(f"| game | deals | par, median (max) | the save's check, median (max) | {where} |")
    print("|---|---|---|---|---|")
    for game in D.GAMES:
        mine = [r for r, c in zip(rows, cases) if c["game"] == game]
        par = sorted(r["par"] / 1000 for r in mine)
        check = sorted(r["check"] / 1000 for r in mine)
        print(f"| {game} | {len(mine)} | {statistics.median(par):.1f} s ({par[-1]:.1f} s) | "
              f"{statistics.median(check):.1f} s ({check[-1]:.1f} s) | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
