#!/usr/bin/env python3
"""What re-deriving a daily round costs a phone: the page's own check, in
the browser, with the whole browser held to a quarter of one core
(docs/daily.md, "Results re-derived, not read").

    python bench/rederive_browser.py [--dates 3] [--first 2026-12-01] [--quota 25] [--challenges 0] [--level hard] [--no-build]

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
are timed from the page; then ``think("daily_par", {date, game, save, vs})``
with ``vs`` a friend's result link (``r2.``: the same deal played by the
person's last legal action instead of the first): the friend's moves
re-derived, after par and the save's. With
``--challenges N``, N challenge matches (a 1v1 Chkobba match against
``--level`` made into a link, then played by the friend's first legal
action) are checked as the challenge's end does: ``think("challenge_result",
{save})``, the match's computer moves thought again one decision a call. The
page stays responsive meanwhile (slices of about 12 ms,
docs/main-thread.md), so this is how long the result waits, not a freeze.
"""

from __future__ import annotations

import argparse
import datetime
import json
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
                    if (c.challenge) {
                        const t = performance.now();
                        await think("challenge_result", { save: c.save });
                        return { challenge: performance.now() - t };
                    }
                    let t0 = performance.now();
                    await think("daily_par", { date: c.date, game: c.game });
                    const par = performance.now() - t0;
                    t0 = performance.now();
                    await think("daily_par", { date: c.date, game: c.game, save: c.save });
                    const check = performance.now() - t0;
                    t0 = performance.now();
                    await think("daily_par", { date: c.date, game: c.game, save: c.save, vs: c.vs });
                    return { par, check, friend: performance.now() - t0 };
                }""", case)
                out.append(ms)
                print(f"{case.get('game', 'challenge')} {case.get('date', '')}: "
                      + ", ".join(f"{k} {v / 1000:.1f} s" for k, v in ms.items()), file=sys.stderr)
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
    ap.add_argument("--challenges", type=int, default=0, help="challenge matches to check too")
    ap.add_argument("--level", default="hard", help="the challenge's computer (easy, medium, hard)")
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
            save = play(day, game)
            web.reset_tables()
            vs = web_ok("daily_result", save=friend_round(day, game))["vs"]
            web.reset_tables()
            cases.append({"date": day, "game": game, "save": save, "vs": vs})
    for k in range(a.challenges):
        cases.append({"challenge": True, "save": challenge_match(100 + k, a.level)})
    server = start_server(ROOT / "build" / "site")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        rows = in_browser(url, cases, a.quota)
    finally:
        server.shutdown()
    where = f"browser held to {a.quota}% of one core" if a.quota else "browser unthrottled"
    print(f"| game | deals | par, median (max) | the save's check, median (max) | "
          f"a friend's link's check, median (max) | {where} |")
    print("|---|---|---|---|---|---|")

    def cell(mine: list[dict[str, float]], key: str) -> str:
        xs = sorted(r[key] / 1000 for r in mine)
        return f"{statistics.median(xs):.1f} s ({xs[-1]:.1f} s)"

    for game in D.GAMES:
        mine = [r for r, c in zip(rows, cases) if c.get("game") == game]
        print(f"| {game} | {len(mine)} | {cell(mine, 'par')} | {cell(mine, 'check')} | {cell(mine, 'friend')} | |")
    mine = [r for r, c in zip(rows, cases) if c.get("challenge")]
    if mine:
        print(f"\nchallenge matches against {a.level}: {len(mine)}, the friend's check "
              f"{cell(mine, 'challenge')} (median (max)), {where}")
    return 0


def web_ok(name: str, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(web.call(name, json.dumps(args)))
    if "ok" not in out:
        raise SystemExit(f"{name}: {out}")
    return out["ok"]  # type: ignore[no-any-return]


def match_out(st: dict[str, Any], choose: str) -> dict[str, Any]:
    """Play the main table's match out: the person by the first legal
    action, the computers by ``choose`` (as the page asks)."""
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        if seat is None:
            return st
        if st["seats"][seat]["kind"] == "computer":
            action = web_ok(choose, save=st["save"], seat=seat)["action"]
        else:
            action = s.legal()[0]
        st = web_ok("act", action=action, seat=seat)


def friend_round(day: str, game: str) -> dict[str, Any]:
    """A friend's round of the deal, played otherwise than ``play``'s (the
    person's last legal action): its computer moves are other decisions, as a
    real friend's are, none of them remembered from the player's round."""
    st = web_ok("daily_start", date=day, game=game)
    while not D.round_over(web.table_session("main")):
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if st["seats"][seat]["kind"] == "computer":
            action = web_ok("daily_choose", save=st["save"], seat=seat)["action"]
        else:
            action = s.legal()[-1]
        st = web_ok("act", action=action, seat=seat)
    return st["save"]  # type: ignore[no-any-return]


def challenge_match(seed: int, level: str) -> dict[str, Any]:
    """A finished challenge match's save: the sender's match against ``level``
    made into a link, then the friend's match of that link."""
    web.reset_tables()
    seats = [{"kind": "human"}, {"kind": "computer", "level": level}]
    sent = match_out(web_ok("start", game="chkobba", options={"players": 2}, seats=seats, seed=seed), "choose")
    link = web_ok("challenge_link", save=sent["save"])["link"]
    web.reset_tables()
    friend = match_out(web_ok("challenge_start", link=link), "challenge_choose")
    web.reset_tables()
    return friend["save"]  # type: ignore[no-any-return]


if __name__ == "__main__":
    raise SystemExit(main())
