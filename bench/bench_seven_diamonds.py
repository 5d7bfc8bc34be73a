"""Seven Diamonds engine speed: complete random rounds, legal-action
generation, copies and determinizations per second (CPython, one core).

    python bench/bench_seven_diamonds.py [--rounds 3000] [--seed 1]

A "round" is a fresh deal played to its end with uniformly random legal
actions through the search path (``copy`` is not used; ``play`` in place),
calls on and timers off, so every action is a call or a card.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from chkobba import determinize
from chkobba.games.seven_diamonds.state import DECK, SevenDiamondsState


def random_rounds(n: int, seed: int) -> tuple[float, int, list[SevenDiamondsState]]:
    """Seconds for ``n`` random rounds, the actions played, and some positions seen on the way."""
    rng = random.Random(seed)
    decks = []
    for _ in range(n):
        d = list(DECK)
        rng.shuffle(d)
        decks.append(d)
    samples: list[SevenDiamondsState] = []
    actions = 0
    t = time.perf_counter()
    for i, d in enumerate(decks):
        s = SevenDiamondsState.new({"target": 100000, "timers": False}, i % 4, d)
        while not s.needs_deal:
            la = s.legal_actions()
            s.play(la[rng.randrange(len(la))])
            actions += 1
            if i % 50 == 0 and actions % 5 == 0:
                samples.append(s.copy())
    return time.perf_counter() - t, actions, samples


def per_second(fn: Callable[[SevenDiamondsState], object], items: list[SevenDiamondsState], repeat: int) -> float:
    t = time.perf_counter()
    for _ in range(repeat):
        for s in items:
            fn(s)
    return repeat * len(items) / (time.perf_counter() - t)


def main() -> None:
    p = argparse.ArgumentParser(description="Seven Diamonds engine speed")
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    dt, actions, samples = random_rounds(args.rounds, args.seed)
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}")
    print(f"random rounds:        {args.rounds / dt:10.0f} /s  ({args.rounds} rounds, {actions} actions, "
          f"{actions / dt:.0f} actions/s)")
    print(f"legal_actions():      {per_second(SevenDiamondsState.legal_actions, samples, 20):10.0f} /s  "
          f"({len(samples)} positions)")
    print(f"copy():               {per_second(SevenDiamondsState.copy, samples, 20):10.0f} /s")
    rng = random.Random(args.seed)
    obs = [s.observation(rng.randrange(4)) for s in samples]
    t = time.perf_counter()
    for o in obs:
        determinize(o, rng)
    print(f"determinize():        {len(obs) / (time.perf_counter() - t):10.0f} /s")


if __name__ == "__main__":
    main()
