#!/usr/bin/env python3
"""The cost of re-deriving a daily round's result (issue 37; docs/daily.md,
"Results re-derived, not read").

    python bench/rederive.py [--dates 3] [--first 2026-12-01]

For each daily deal of ``--dates`` consecutive days from ``--first`` and both
games: the round is played through the facade (the player's seat by the
first legal action, the computers by ``daily_choose``), then its save is
re-derived as ``daily_result`` does it (the round replayed from the day's
seed, every computer move checked), timed in CPU time (``process_time``):

- **cold**: a fresh page (``web.reset_tables()``: no decision remembered),
  one ``daily_par_step`` with the save a step, par already known: what the
  page thinks in slices after a reload in the middle of the round;
- **warm**: the decisions remembered (the facade made them in this process:
  ``daily_choose``, as in the page, where web/ai.py's second call goes
  through the facade): ``daily_result``'s check alone.

Per step: the median and max of one step (one computer decision and the
players' actions before it). CPython only; docs/daily.md scales to a quarter
core by par's own ratio measured there.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chkobba import daily as D  # noqa: E402
from chkobba import web  # noqa: E402


def call(name: str, **args: Any) -> Any:
    out = json.loads(web.call(name, json.dumps(args)))
    if "ok" not in out:
        raise SystemExit(f"{name}: {out}")
    return out["ok"]


def play(day: str, game: str) -> dict[str, Any]:
    st = call("daily_start", date=day, game=game)
    while not D.round_over(web.table_session("main")):
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if st["seats"][seat]["kind"] == "computer":
            action = call("daily_choose", save=st["save"], seat=seat)["action"]
        else:
            action = s.legal()[0]
        st = call("act", action=action, seat=seat)
    return st["save"]  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dates", type=int, default=3)
    ap.add_argument("--first", default="2026-12-01")
    a = ap.parse_args()
    first = datetime.date.fromisoformat(a.first)
    rows = []
    for game in D.GAMES:
        cold, warm, steps, decisions = [], [], [], []
        for k in range(a.dates):
            day = (first + datetime.timedelta(days=k)).isoformat()
            web.reset_tables()
            save = play(day, game)
            call("daily_par", date=day, game=game)               # par known before any timing
            t = time.process_time()
            call("daily_result", save=save, stats=None)          # warm: every decision remembered
            warm.append((time.process_time() - t) * 1000)
            web.reset_tables()
            call("daily_par", date=day, game=game)               # par known (it is, on the page, by then)
            par_decisions = call("daily_par_step", date=day, game=game)["decisions"]
            total = 0.0
            while True:
                t = time.process_time()
                out = call("daily_par_step", date=day, game=game, save=save)
                ms = (time.process_time() - t) * 1000
                total += ms
                steps.append(ms)
                if out["done"]:
                    break
            decisions.append(out["decisions"] - par_decisions)
            cold.append(total)
        rows.append((game, a.dates, statistics.median(decisions), statistics.median(cold), max(cold),
                     statistics.median(steps), max(steps), statistics.median(warm), max(warm)))
    print("| game | rounds | computer decisions (median) | cold: median | max | one step: median | max "
          "| warm (decisions remembered): median | max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for g, n, dec, cm, cx, sm, sx, wm, wx in rows:
        print(f"| {g} | {n} | {dec:.0f} | {cm:,.0f} ms | {cx:,.0f} ms | {sm:.0f} ms | {sx:.0f} ms | {wm:.0f} ms | {wx:.0f} ms |")


if __name__ == "__main__":
    main()
