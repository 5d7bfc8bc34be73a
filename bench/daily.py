#!/usr/bin/env python3
"""The cost of the daily deal's computers (a fixed budget: rollouts only, no time cap).

    python bench/daily.py [--dates 6] [--first 2026-12-01] [--quota 25] [--no-browser] [--no-build]

Positions: the daily deals of ``--dates`` consecutive days from ``--first``,
both games, the player's seat played by medium; every decision of a daily
computer with more than one legal action. Each is timed in CPython
(``chkobba.daily.computer_choice`` from the saved record, as a page would
call it: the time includes rebuilding the position), then par (the whole
round played by the daily computers) per date and game.

With the browser (the default): the same calls timed in Pyodide in headless
Chromium, once unthrottled and once with the whole browser held to
``--quota`` percent of one core (a phone: ``bench/pyodide_hard.py``'s
cgroup method, its ``CpuQuota``). Pyodide runs on the page's main thread here
(the page's worker does not offer these calls yet); under the quota the whole
browser gets the same quarter core either way.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from chkobba import daily as D  # noqa: E402
from chkobba.agents import make_agent  # noqa: E402
from chkobba.session import Session  # noqa: E402


def cases(first: str, days: int) -> list[dict[str, Any]]:
    """Every daily computer decision (more than one legal action) of ``days`` days."""
    out: list[dict[str, Any]] = []
    start = datetime.date.fromisoformat(first)
    for k in range(days):
        day = (start + datetime.timedelta(days=k)).isoformat()
        for game in D.GAMES:
            deal = D.daily(day, game)
            medium = make_agent(game, "medium")
            s = deal.session()
            rng = random.Random(k)
            while not D.round_over(s):
                seat = s.to_act()
                assert seat is not None
                legal = [a for a in s.legal_actions() if a.kind != "timeout"]
                if seat == D.HUMAN_SEAT:
                    s.apply(medium.choose(s.observation(seat), legal, rng))
                    continue
                if len(legal) > 1:
                    out.append({"date": day, "game": game, "record": s.record(), "seed": s.seed})
                s.apply(D.computer_choice(deal, s))
    return out


def summary(ms: list[float]) -> str:
    d = sorted(ms)
    p95 = d[min(len(d) - 1, int(0.95 * len(d)))]
    return f"{len(d)} | {statistics.median(d):.0f} ms | {p95:.0f} ms | {d[-1]:.0f} ms"


PY_CASE = """
import json
from chkobba import daily as D
from chkobba.session import Session
def _case(text):
    c = json.loads(text)
    deal = D.daily(c["date"], c["game"])
    return str(D.computer_choice(deal, Session.from_record(c["record"], seed=c["seed"])))
def _par(day, game):
    D._par.cache_clear()
    return D.par(day, game)["result"]["points"]
"""


def in_browser(url: str, work: list[dict[str, Any]], pars: list[tuple[str, str]],
               quota: int | None) -> tuple[list[float], list[float], list[str]]:
    from browser import launch  # scripts/browser.py
    from playwright.sync_api import sync_playwright
    from pyodide_hard import CpuQuota, descendants
    limit = CpuQuota(quota) if quota else None
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            if limit is not None:
                limit.add(descendants(os.getpid()))
                print(f"browser held to {quota}% of one core ({limit.how})", file=sys.stderr)
            ctx = browser.new_context(service_workers="block")
            page = ctx.new_page()
            page.set_default_timeout(1_800_000)
            # an empty page of the site's origin (the site's own pages forbid what this needs in their CSP)
            page.route("**/bench-daily.html", lambda route: route.fulfill(
                body="<!doctype html><title>bench</title>", content_type="text/html"))
            page.goto(url + "bench-daily.html")
            if limit is not None:
                limit.add(descendants(os.getpid()))
            out = page.evaluate("""async ([cases, pars, code]) => {
                const boot = await fetch("index.html").then((r) => r.text()).then((t) =>
                  JSON.parse(new DOMParser().parseFromString(t, "text/html")
                    .querySelector('meta[name="chkobba-boot"]').content));
                const indexURL = new URL(boot.pyodide, location.href).href;
                const { loadPyodide } = await import(indexURL + "pyodide.mjs");
                const py = await loadPyodide({ indexURL, lockFileContents: { info: boot.lock || {}, packages: {} } });
                const zip = await fetch(new URL(boot.package, location.href)).then((r) => r.arrayBuffer());
                py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
                py.runPython(code);
                const one = py.globals.get("_case"), par = py.globals.get("_par");
                one(JSON.stringify(cases[0]));   // imports, first call
                const ms = [], actions = [], parMs = [];
                for (const c of cases) {
                  const t0 = performance.now();
                  actions.push(one(JSON.stringify(c)));
                  ms.push(performance.now() - t0);
                }
                for (const [day, game] of pars) {
                  const t0 = performance.now();
                  par(day, game);
                  parMs.push(performance.now() - t0);
                }
                return [ms, parMs, actions];
            }""", [work, pars, PY_CASE])
            browser.close()
    finally:
        if limit is not None:
            limit.close()
    return out[0], out[1], out[2]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dates", type=int, default=6)
    p.add_argument("--first", default="2026-12-01")
    p.add_argument("--quota", type=int, default=25, help="also time with the browser held to this %% of one core (0: skip)")
    p.add_argument("--no-browser", action="store_true")
    p.add_argument("--no-build", action="store_true")
    a = p.parse_args(argv)
    work = cases(a.first, a.dates)
    pars = [((datetime.date.fromisoformat(a.first) + datetime.timedelta(days=k)).isoformat(), g)
            for k in range(a.dates) for g in D.GAMES]
    rows: list[str] = ["| where | game | decisions | median | p95 | max |", "|---|---|---|---|---|---|"]
    by_game = {g: [i for i, c in enumerate(work) if c["game"] == g] for g in D.GAMES}

    wall: list[float] = []
    cpu: list[float] = []
    actions: list[str] = []
    for c in work:
        t, t_cpu = time.perf_counter(), time.process_time()
        deal = D.daily(c["date"], c["game"])
        actions.append(str(D.computer_choice(deal, Session.from_record(c["record"], seed=c["seed"]))))
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - t_cpu) * 1000)
    for g, idx in by_game.items():
        rows.append(f"| CPython, CPU time | {g} | {summary([cpu[i] for i in idx])} |")
    par_cpu: dict[str, list[float]] = {g: [] for g in D.GAMES}
    for day, g in pars:
        D._par.cache_clear()
        t_cpu = time.process_time()
        D.par(day, g)
        par_cpu[g].append((time.process_time() - t_cpu) * 1000)
    par_rows = [f"| CPython, CPU time | {g} | {len(v)} | {statistics.median(v):.0f} ms | {max(v):.0f} ms |"
                for g, v in par_cpu.items()]

    if not a.no_browser:
        if not a.no_build:
            subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")], check=True)
        from serve import start_server
        server = start_server(ROOT / "build" / "site")
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            runs = [("Pyodide (page), unthrottled", None)]
            if a.quota:
                runs.append((f"Pyodide, browser held to {a.quota}% of one core", a.quota))
            for label, quota in runs:
                ms, par_ms, browser_actions = in_browser(url, work, pars, quota)
                if browser_actions != actions:
                    raise SystemExit("the browser chose other moves than CPython: the daily budget is not deterministic")
                for g, idx in by_game.items():
                    rows.append(f"| {label} | {g} | {summary([ms[i] for i in idx])} |")
                for g in D.GAMES:
                    v = [par_ms[i] for i, (_, pg) in enumerate(pars) if pg == g]
                    par_rows.append(f"| {label} | {g} | {len(v)} | {statistics.median(v):.0f} ms | {max(v):.0f} ms |")
        finally:
            server.shutdown()
        print("the browser chose the same moves as CPython in every case", file=sys.stderr)
    print("\n".join(rows))
    print()
    print("| where (par: a whole round) | game | dates | median | max |\n|---|---|---|---|---|")
    print("\n".join(par_rows))
    print(json.dumps({"budgets": {g: {"rollouts": b.rollouts, "ms": b.ms} for g, b in D.DAILY_BUDGETS.items()}}),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
