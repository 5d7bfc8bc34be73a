"""Chkobba engine throughput, in CPython, on one core.

    python bench/bench_engine.py [--rounds 3000] [--positions 2000] [--soak 0] [--seed 1]

Measures
- complete random two-player rounds per second (deal, cut, every card played
  to the end of the round and scored; random legal actions),
- legal-action generations per second on mid-game positions (positions
  sampled from random rounds, each asked for its legal actions many times),
- state copies per second (search branches by copying),
- optionally a larger soak of complete random matches over all option sets.
Prints one JSON object; docs/bench-engine.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chkobba.games.chkobba.state import PLAY, ChkobbaState  # noqa: E402
from chkobba.options import ChkobbaOptions  # noqa: E402


def random_rounds(n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    opts = ChkobbaOptions()
    actions = 0
    t = time.perf_counter()
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
    return time.perf_counter() - t, actions


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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=20, help="legal-action calls per position")
    p.add_argument("--soak", type=int, default=0, help="also play this many complete random matches")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    dt, actions = random_rounds(a.rounds, a.seed)
    positions = mid_game_positions(a.positions, a.seed)
    t = time.perf_counter()
    for s in positions:
        for _ in range(a.repeat):
            s.legal_actions()
    gen_dt = time.perf_counter() - t
    t = time.perf_counter()
    for s in positions:
        for _ in range(a.repeat):
            s.copy()
    copy_dt = time.perf_counter() - t
    out = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rounds": a.rounds,
        "rounds_per_second": round(a.rounds / dt),
        "actions_per_second": round(actions / dt),
        "legal_generations_per_second": round(len(positions) * a.repeat / gen_dt),
        "copies_per_second": round(len(positions) * a.repeat / copy_dt),
    }
    if a.soak:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from test_engine_props import soak
        t = time.perf_counter()
        seen = soak(a.soak, a.seed)
        out["soak_matches"] = a.soak
        out["soak_seconds"] = round(time.perf_counter() - t, 1)
        out["soak_seen"] = seen
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
