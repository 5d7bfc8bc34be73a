"""Seven Diamonds engine speed, side by side with a baseline: complete random
rounds, legal-action generation, copies and determinizations per second
(CPython, one core).

    python bench/bench_seven_diamonds.py [--rounds 3000] [--seed 1]
                                         [--baseline v0.1] [--repeats 5] [--cpu 0]

A "round" is a fresh deal played to its end with uniformly random legal
actions through the search path (``copy`` is not used; ``play`` in place),
calls on and timers off, so every action is a call or a card.

Each measurement runs in its own process, once on the working tree and once
on ``--baseline`` (a git revision checked out once under ``.cache/``; the same
code measures both, importing the engine from either module path),
alternately, ``--repeats`` times, pinned to one core (``taskset -c --cpu``).
Figures are per second of the process's CPU time (the rounds also per
wall-clock second). ``--baseline none`` measures the working tree alone.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import side_by_side  # bench/ is the script's directory

ROOT = Path(__file__).resolve().parents[1]
clock = time.process_time
MEASURES = {
    "rounds_per_second": "complete random rounds per second",
    "actions_per_second": "actions applied per second in those rounds",
    "legal_per_second": "legal_actions() per second",
    "copies_per_second": "copy() per second",
    "determinize_per_second": "determinize() per second",
}


def load_engine() -> None:
    """Bind the engine's names from whichever module paths this checkout has."""
    global DECK, SevenDiamondsState, determinize
    try:
        from chkobba.games.seven_diamonds.state import DECK, SevenDiamondsState
        from chkobba import determinize
    except ImportError:  # v0.1 and before
        from chkobba.seven_diamonds import DECK, SevenDiamondsState  # type: ignore[no-redef]
        from chkobba import determinize  # type: ignore[no-redef]


def random_rounds(n: int, seed: int) -> tuple[float, float, int, list[Any]]:
    """CPU and wall seconds for ``n`` random rounds, the actions played, and some positions seen on the way."""
    rng = random.Random(seed)
    decks = []
    for _ in range(n):
        d = list(DECK)
        rng.shuffle(d)
        decks.append(d)
    samples: list[Any] = []
    actions = 0
    w = time.perf_counter()
    t = clock()
    for i, d in enumerate(decks):
        s = SevenDiamondsState.new({"target": 100000, "timers": False}, i % 4, d)
        while not s.needs_deal:
            la = s.legal_actions()
            s.play(la[rng.randrange(len(la))])
            actions += 1
            if i % 50 == 0 and actions % 5 == 0:
                samples.append(s.copy())
    return clock() - t, time.perf_counter() - w, actions, samples


def per_second(fn: Callable[[Any], object], items: list[Any], repeat: int) -> float:
    t = clock()
    for _ in range(repeat):
        for s in items:
            fn(s)
    return repeat * len(items) / (clock() - t)


def measure(rounds: int, seed: int) -> dict[str, Any]:
    dt, wall, actions, samples = random_rounds(rounds, seed)
    rng = random.Random(seed)
    obs = [s.observation(rng.randrange(4)) for s in samples]
    t = clock()
    for o in obs:
        determinize(o, rng)
    det = len(obs) / (clock() - t)
    return {
        "python": f"{platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}",
        "rounds": rounds,
        "actions": actions,
        "positions": len(samples),
        "rounds_per_second": round(rounds / dt),
        "actions_per_second": round(actions / dt),
        "legal_per_second": round(per_second(SevenDiamondsState.legal_actions, samples, 20)),
        "copies_per_second": round(per_second(SevenDiamondsState.copy, samples, 20)),
        "determinize_per_second": round(det),
        "wall_rounds_per_second": round(rounds / wall),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", default="v0.1", help="git revision to compare with (none: the working tree alone)")
    p.add_argument("--repeats", type=int, default=5, help="measurements per side, alternating")
    p.add_argument("--cpu", type=int, default=0, help="the core each measurement is pinned to (taskset)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:  # one measurement, in a checkout's own process
        side_by_side.enter(args.worker)
        load_engine()
        print(json.dumps(measure(args.rounds, args.seed)))
        return
    out: dict[str, Any]
    if args.baseline == "none":
        sys.path.insert(0, str(ROOT))
        load_engine()
        out = measure(args.rounds, args.seed)
    else:
        out = side_by_side.side_by_side(Path(__file__).resolve(), args.baseline,
                                        ["--rounds", str(args.rounds), "--seed", str(args.seed)],
                                        args.repeats, args.cpu, list(MEASURES))
        print(side_by_side.table(out, MEASURES))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
