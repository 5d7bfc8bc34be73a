"""Benchmarks of the computer players (results go in docs/agents.md).

    python bench/bench_agents.py speed [--game chkobba|seven_diamonds] [--positions 300] [--budget 400]
        time hard's decisions (one process) on positions met in medium games:
        median, p95 and max milliseconds per decision with more than one legal action.

    python bench/bench_agents.py strength --game chkobba --budgets 100,400,1600 --games 200 --jobs 2
        hard at each budget against medium (duplicate deals, seats swapped):
        a strength-vs-time table.

    python bench/bench_agents.py endgame [--positions 300]
        time the exact solver of the two-player last deal (hard, and the coach)
        on positions met in medium games: median, p95, max CPU ms, and how many
        positions it left to sampling (over its node limit).

    python bench/bench_agents.py matrix --games 400 --jobs 2
        the level targets of the task (medium-easy, hard-medium in 2p, 2v2,
        compulsory capture, Seven Diamonds); same as the arena commands in
        docs/agents.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chkobba.cli import arena  # noqa: E402
from chkobba.agents import DEFAULT_BUDGETS, Budget, HardAgent, make_agent  # noqa: E402
from chkobba.session import Session  # noqa: E402


def positions(game: str, options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """Decision points (state copies) met in medium-vs-medium games, with a choice to make."""
    rng = random.Random(seed)
    agent = make_agent(game, "medium")
    out: list[Any] = []
    while len(out) < count:
        s = Session.new(game, options, seed=rng.randrange(10**9))
        while not s.is_over and len(out) < count:
            seat = s.to_act()
            assert seat is not None
            legal = [a for a in s.legal_actions() if a.kind != "timeout"]
            if len(legal) > 1 and rng.random() < 0.5:
                out.append(s.state.copy())
            obs = s.observation(seat)
            s.apply(agent.choose(obs, legal, rng))
    return out


def speed(game: str, count: int, budget: Budget, options: dict[str, Any]) -> dict[str, Any]:
    agent = HardAgent(game, budget)
    ms: list[float] = []
    for k, st in enumerate(positions(game, options, count, 1)):
        seat = st.to_act()
        obs = st.observation(seat)
        legal = obs.legal_actions()
        t = time.perf_counter()
        agent.choose(obs, legal, random.Random(k))
        ms.append((time.perf_counter() - t) * 1000)
    ms.sort()
    return {"game": game, "options": options, "budget": {"rollouts": budget.rollouts, "ms": budget.ms},
            "decisions": len(ms), "median_ms": round(statistics.median(ms), 1),
            "cpu_p95_ms": round(ms[int(0.95 * len(ms))], 1), "cpu_max_ms": round(ms[-1], 1)}


def strength(game: str, options: dict[str, Any], budgets: list[int], games: int, jobs: int,
             seed: int) -> list[dict[str, Any]]:
    rows = []
    for b in budgets:
        setup = arena.Setup(game, options, "hard", "medium", seed, Budget(rollouts=b), None)
        t = time.perf_counter()
        res = arena.run(setup, games, jobs)
        out = arena.summarize(setup, res, time.perf_counter() - t)
        rows.append(out)
        dm = out.get("a_decision_ms", {})
        print(f"budget {b:5d}: hard share {out['a_share']:.3f} CI {out['ci95']}, "
              f"pts/round {out['a_points_per_round']} vs {out['b_points_per_round']}, "
              f"ms/decision median {dm.get('median')} p95 {dm.get('p95')}", flush=True)
    return rows


MATRIX: list[tuple[str, dict[str, Any], str, str]] = [
    ("chkobba", {"players": 2}, "medium", "easy"),
    ("chkobba", {"players": 2}, "medium", "baseline"),
    ("chkobba", {"players": 2}, "hard", "medium"),
    ("chkobba", {"players": 4}, "hard", "medium"),
    ("chkobba", {"players": 2, "capture": "compulsory"}, "hard", "medium"),
    ("seven_diamonds", {}, "medium", "easy"),
    ("seven_diamonds", {}, "hard", "medium"),
]


def endgame(count: int, seed: int) -> dict[str, Any]:
    from chkobba.agents.endgame import applies, solve
    rng = random.Random(seed)
    medium = make_agent("chkobba", "medium")
    ms: list[float] = []
    left = 0
    g = 0
    while len(ms) + left < count:
        sess = Session.new("chkobba", {}, seed=seed * 10_000 + g)
        g += 1
        while not sess.is_over and len(ms) + left < count:
            seat = sess.to_act()
            assert seat is not None
            obs = sess.observation(seat)
            legal = obs.legal_actions()
            if applies(obs) and len(legal) > 1:
                t = time.process_time()   # CPU time: a busy machine does not inflate it
                got = solve(obs, legal)
                if got is None:
                    left += 1
                else:
                    ms.append((time.process_time() - t) * 1000)
            sess.apply(medium.choose(obs, legal, rng))
    ms.sort()
    return {"positions": len(ms) + left, "left_to_sampling": left, "cpu_median_ms": round(statistics.median(ms), 2),
            "cpu_p95_ms": round(ms[int(0.95 * len(ms))], 1), "cpu_max_ms": round(ms[-1], 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=("speed", "strength", "matrix", "endgame"))
    p.add_argument("--game", default="chkobba", choices=("chkobba", "seven_diamonds"))
    p.add_argument("--players", type=int)
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--budget", type=int, help="hard rollouts (default: the game's default budget)")
    p.add_argument("--budgets", default="100,400,1600")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    options: dict[str, Any] = {}
    if args.players:
        options["players"] = args.players
    if args.what == "speed":
        b = Budget(rollouts=args.budget) if args.budget else DEFAULT_BUDGETS[args.game]
        print(json.dumps(speed(args.game, args.positions, b, options)))
    elif args.what == "endgame":
        print(json.dumps(endgame(args.positions, args.seed)))
    elif args.what == "strength":
        rows = strength(args.game, options, [int(x) for x in args.budgets.split(",")], args.games, args.jobs,
                        args.seed)
        print(json.dumps(rows))
    else:
        for game, opts, a, b in MATRIX:
            setup = arena.Setup(game, opts, a, b, args.seed)
            t = time.perf_counter()
            res = arena.run(setup, args.games, args.jobs)
            print(json.dumps(arena.summarize(setup, res, time.perf_counter() - t)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
