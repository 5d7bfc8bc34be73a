"""Chkobba engine throughput, in CPython, on one core, side by side with a baseline.

    python bench/bench_engine.py [--rounds 3000] [--positions 2000] [--soak 0] [--seed 1]
                                 [--baseline v0.1] [--repeats 5] [--cpu 0]

Measures
- complete random two-player rounds per second (deal, cut, every card played
  to the end of the round and scored; random legal actions), and the same
  rounds measured with less of the loop's own work on the clock (``--loop
  lean``, in processes of their own: the decks shuffled before the clock
  starts, as bench_seven_diamonds.py does, each action picked with one
  ``random()`` call instead of ``randrange``),
- legal-action generations per second on mid-game positions (positions
  sampled from random rounds, each asked for its legal actions many times),
- state copies per second (search branches by copying),
(all per second of this process's CPU time, which other work on the machine
barely disturbs; the rounds are also given per wall-clock second),
- optionally a larger soak of complete random matches over all option sets
  (working tree only).

Each measurement runs in its own process, once on the working tree and once
on ``--baseline`` (a git revision, checked out once under ``.cache/``; the
same code measures both, importing the engine from either module path),
alternately, ``--repeats`` times, pinned to one core (``taskset -c --cpu``).
``--baseline none`` measures the working tree only, in this process.
Prints a Markdown table (medians and ratios) and one JSON object with every
run; docs/bench-engine.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

import side_by_side  # bench/ is the script's directory

ROOT = Path(__file__).resolve().parents[1]
# CPU time of this process: on a shared machine, what the process itself used
# (the wall clock also counts the time other processes held the core).
clock = time.process_time
MEASURES = {
    "rounds_per_second": "complete random two-player rounds per second",
    "actions_per_second": "actions applied per second in those rounds",
    "lean_rounds_per_second": "the same, decks shuffled before the clock, picks by `random()` (`--loop lean`)",
    "legal_generations_per_second": "legal-action generations per second (mid-game positions)",
    "copies_per_second": "state copies per second",
}


def load_engine() -> None:
    """Bind ChkobbaState, PLAY, DECK and ChkobbaOptions from whichever module path this checkout has."""
    global ChkobbaState, PLAY, DECK, ChkobbaOptions
    try:
        from chkobba.games.chkobba.state import DECK, PLAY, ChkobbaState
    except ImportError:  # v0.1 and before: one module
        from chkobba.engine import DECK, PLAY, ChkobbaState  # type: ignore[no-redef]
    from chkobba.options import ChkobbaOptions


def random_rounds(n: int, seed: int) -> tuple[float, float, int]:
    """CPU seconds and wall seconds for ``n`` random rounds, and the actions played."""
    rng = random.Random(seed)
    opts = ChkobbaOptions()
    actions = 0
    w = time.perf_counter()
    t = clock()
    for _ in range(n):
        s = ChkobbaState.new(opts, rng.randrange(2))
        deck = list(s.full_deck())
        rng.shuffle(deck)
        s.deal(deck)
        while not s.needs_deal and not s.is_over:
            la = s.legal_actions()
            s.play(la[rng.randrange(len(la))])
            actions += 1
            if s.needs_deal and s.redeal_next:  # an accepted re-deal: new deck, same round
                rng.shuffle(deck)
                s.deal(deck)
    return clock() - t, time.perf_counter() - w, actions


def random_rounds_lean(n: int, seed: int) -> tuple[float, float, int]:
    """:func:`random_rounds` with less of the loop's own work on the clock:
    the decks are shuffled before it starts (the engine takes its deck from
    outside; randomness is not its work) and each action is picked with one
    ``random()`` call instead of ``randrange``."""
    rng = random.Random(seed)
    decks = []
    for _ in range(n):
        d = list(DECK)
        rng.shuffle(d)
        decks.append(d)
    spare = decks[::-1]  # decks for accepted re-deals, taken from the end
    opts = ChkobbaOptions()
    rand = rng.random
    actions = 0
    w = time.perf_counter()
    t = clock()
    for i in range(n):
        s = ChkobbaState.new(opts, i & 1)
        s.deal(decks[i])
        while not s.needs_deal and not s.is_over:
            la = s.legal_actions()
            s.play(la[int(rand() * len(la))])
            actions += 1
            if s.needs_deal and s.redeal_next:  # an accepted re-deal: new deck, same round
                s.deal(spare.pop())
    return clock() - t, time.perf_counter() - w, actions


def mid_game_positions(n: int, seed: int) -> list[ChkobbaState]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = ChkobbaState.new({}, 0)
        deck = list(s.full_deck())
        rng.shuffle(deck)
        s.deal(deck)
        stop = rng.randrange(4, 30)
        for _ in range(stop):
            if s.needs_deal:
                break
            la = s.legal_actions()
            s.play(la[rng.randrange(len(la))])
        if s.phase == PLAY:
            out.append(s)
    return out


def measure(a: argparse.Namespace) -> dict[str, Any]:
    if a.loop == "lean":  # in a process of its own: caches as cold as the other loop's
        dt, wall, _ = random_rounds_lean(a.rounds, a.seed)
        return {"lean_rounds_per_second": round(a.rounds / dt), "lean_wall_rounds_per_second": round(a.rounds / wall)}
    dt, wall, actions = random_rounds(a.rounds, a.seed)
    positions = mid_game_positions(a.positions, a.seed)
    t = clock()
    for s in positions:
        for _ in range(a.repeat):
            s.legal_actions()
    gen_dt = clock() - t
    t = clock()
    for s in positions:
        for _ in range(a.repeat):
            s.copy()
    copy_dt = clock() - t
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rounds": a.rounds,
        "rounds_per_second": round(a.rounds / dt),
        "actions_per_second": round(actions / dt),
        "legal_generations_per_second": round(len(positions) * a.repeat / gen_dt),
        "copies_per_second": round(len(positions) * a.repeat / copy_dt),
        "wall_rounds_per_second": round(a.rounds / wall),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=20, help="legal-action calls per position")
    p.add_argument("--soak", type=int, default=0, help="also play this many complete random matches")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", default="v0.1", help="git revision to compare with (none: the working tree alone)")
    p.add_argument("--repeats", type=int, default=5, help="measurements per side, alternating")
    p.add_argument("--cpu", type=int, default=0, help="the core each measurement is pinned to (taskset)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--loop", default="plain", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.worker:  # one measurement, in a checkout's own process
        side_by_side.enter(a.worker)
        load_engine()
        print(json.dumps(measure(a)))
        return

    common = ["--rounds", str(a.rounds), "--positions", str(a.positions), "--repeat", str(a.repeat),
              "--seed", str(a.seed)]
    out: dict[str, Any]
    if a.baseline == "none":
        sys.path.insert(0, str(ROOT))
        load_engine()
        out = measure(a)
        out["lean_rounds_per_second"] = round(a.rounds / random_rounds_lean(a.rounds, a.seed)[0])
    else:
        script = Path(__file__).resolve()
        out = side_by_side.side_by_side(script, a.baseline, common, a.repeats, a.cpu,
                                        [k for k in MEASURES if not k.startswith("lean")])
        lean = side_by_side.side_by_side(script, a.baseline, [*common, "--loop", "lean"], a.repeats, a.cpu,
                                         ["lean_rounds_per_second"])
        for side in ("baseline", "tree"):
            out["median"][side].update(lean["median"][side])
            out["runs"][side + "_lean"] = lean["runs"][side]
        out["ratio"].update(lean["ratio"])
        out["load_average_after"] = lean["load_average_after"]
        print(side_by_side.table(out, MEASURES))
    if a.soak:
        sys.path.insert(0, str(ROOT))
        sys.path.insert(0, str(ROOT / "tests"))
        from test_engine_props import soak
        t = time.perf_counter()
        seen = soak(a.soak, a.seed)
        out["soak_matches"] = a.soak
        out["soak_seconds"] = round(time.perf_counter() - t, 1)
        out["soak_seen"] = seen
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
