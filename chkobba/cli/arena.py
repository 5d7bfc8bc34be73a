"""``python -m chkobba arena``: computer players against each other.

Plays full games (to the table's target; a whole match if ``match`` > 1)
between team a and team b. Deals are played in duplicate: game pair ``k``
uses the same seeded decks twice, once with a on side 0 and once with a on
side 1, so luck of the cards cancels out as far as it can. Team a is seat 0
(two players) or seats 0 and 2 (four players).

Example::

    python -m chkobba arena --game chkobba --players 2 --a hard --b medium \
        --games 400 --seed 1 --jobs 2 --option capture=compulsory --json

Prints games won by each, draws (a game stopped at ``--max-rounds``),
average points per round, and a 95% confidence interval on a's share of the
games (Wilson, draws counting half).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ..actions import TIMEOUT
from ..agents import LEVELS, Agent, Budget, HardAgent, make_agent
from ..errors import ChkobbaError
from ..registry import GAMES, game_class
from ..registry import game as registered
from ..session import Session


@dataclass
class Setup:
    game: str
    options: dict[str, Any]
    a: str
    b: str
    seed: int
    budget_a: Budget | None = None
    budget_b: Budget | None = None
    max_rounds: int = 200
    timing: bool = True


@dataclass
class GameResult:
    index: int
    a_side: int
    winner: str | None          # "a", "b" or None (draw: stopped at max rounds)
    rounds: int
    a_points: int
    b_points: int
    seconds: float
    a_ms: list[float] = field(default_factory=list)
    b_ms: list[float] = field(default_factory=list)


_AGENTS: dict[tuple[str, str, Budget | None], Agent] = {}


def _agent(game: str, level: str, budget: Budget | None) -> Agent:
    key = (game, level, budget)
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(game, level, budget)
    return _AGENTS[key]


def play_game(setup: Setup, index: int) -> GameResult:
    """Game ``index``: pair ``index // 2``'s decks, a on side ``index % 2``."""
    pair, a_side = divmod(index, 2)
    seed = setup.seed * 1_000_003 + pair
    players = int(setup.options.get("players", registered(setup.game).players[0]))
    first_dealer = random.Random(f"{seed}/dealer").randrange(players)
    session = Session.new(setup.game, setup.options, seed=seed, first_dealer=first_dealer)
    agent_a = _agent(setup.game, setup.a, setup.budget_a)
    agent_b = _agent(setup.game, setup.b, setup.budget_b)
    rngs = [random.Random(f"{seed}/{a_side}/seat{k}") for k in range(players)]
    t0 = time.perf_counter()
    res = GameResult(index, a_side, None, 0, 0, 0, 0.0)
    while not session.is_over and len(session.state.results) < setup.max_rounds:
        seat = session.to_act()
        assert seat is not None
        obs = session.observation(seat)
        legal = session.legal_actions()
        is_a = (seat & 1) == a_side
        agent = agent_a if is_a else agent_b
        t = time.perf_counter()
        action = agent.choose(obs, legal, rngs[seat])
        if setup.timing and isinstance(agent, HardAgent) and sum(1 for x in legal if x.kind != TIMEOUT) > 1:
            (res.a_ms if is_a else res.b_ms).append((time.perf_counter() - t) * 1000.0)
        session.apply(action)
    state = session.state
    res.seconds = time.perf_counter() - t0
    res.rounds = len(state.results)
    for r in state.results:
        res.a_points += r.points[a_side]
        res.b_points += r.points[a_side ^ 1]
    if state.winner is not None:
        res.winner = "a" if state.winner == a_side else "b"
    return res


def _run_one(args: tuple[Setup, int]) -> GameResult:
    return play_game(*args)


def run(setup: Setup, games: int, jobs: int = 1, progress: bool = False) -> list[GameResult]:
    tasks = [(setup, i) for i in range(games)]
    out: list[GameResult] = []
    if jobs <= 1:
        for t in tasks:
            out.append(_run_one(t))
            if progress:
                _progress(out, games)
    else:
        import multiprocessing as mp
        with mp.get_context("spawn" if sys.platform == "win32" else "fork").Pool(jobs) as pool:
            for r in pool.imap_unordered(_run_one, tasks):
                out.append(r)
                if progress:
                    _progress(out, games)
    out.sort(key=lambda r: r.index)
    return out


def _progress(out: list[GameResult], games: int) -> None:
    a = sum(1 for r in out if r.winner == "a")
    print(f"\r{len(out)}/{games} games, a won {a}", end="", file=sys.stderr, flush=True)
    if len(out) == games:
        print(file=sys.stderr)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1)


def summarize(setup: Setup, results: list[GameResult], seconds: float) -> dict[str, Any]:
    n = len(results)
    a = sum(1 for r in results if r.winner == "a")
    b = sum(1 for r in results if r.winner == "b")
    d = n - a - b
    rounds = sum(r.rounds for r in results)
    lo, hi = wilson(a + d / 2, n)
    a_ms = [x for r in results for x in r.a_ms]
    b_ms = [x for r in results for x in r.b_ms]
    out: dict[str, Any] = {
        "game": setup.game, "options": setup.options, "a": setup.a, "b": setup.b, "seed": setup.seed,
        "games": n, "a_wins": a, "b_wins": b, "draws": d,
        "a_share": round((a + d / 2) / n, 4) if n else None,
        "ci95": [round(lo, 4), round(hi, 4)],
        "rounds": rounds,
        "a_points_per_round": round(sum(r.a_points for r in results) / rounds, 3) if rounds else None,
        "b_points_per_round": round(sum(r.b_points for r in results) / rounds, 3) if rounds else None,
        "seconds": round(seconds, 1),
        "seconds_per_game": round(seconds / n, 2) if n else None,
    }
    if setup.budget_a:
        out["budget_a"] = {"rollouts": setup.budget_a.rollouts, "ms": setup.budget_a.ms}
    if setup.budget_b:
        out["budget_b"] = {"rollouts": setup.budget_b.rollouts, "ms": setup.budget_b.ms}
    for side, ms in (("a", a_ms), ("b", b_ms)):
        if ms:
            out[f"{side}_decision_ms"] = decision_stats(ms)
    return out


def decision_stats(ms: list[float]) -> dict[str, float | None]:
    """Median, 95th percentile and maximum of decision times (ms)."""
    return {"median": round(statistics.median(ms), 1), "p95": _pct(ms, 0.95),
            "max": round(max(ms), 1), "decisions": len(ms)}


def option_value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _budget(text: str | None) -> Budget | None:
    """``400`` (rollouts), ``150ms`` (time) or ``400,150ms`` (both)."""
    if not text:
        return None
    rollouts: int | None = None
    ms: float | None = None
    for part in text.split(","):
        part = part.strip()
        if part.endswith("ms"):
            ms = float(part[:-2])
        else:
            rollouts = int(part)
    return Budget(rollouts=rollouts, ms=ms)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m chkobba arena",
                                description="Computer players against each other, on duplicate deals.")
    p.add_argument("--game", choices=GAMES, default="chkobba")
    p.add_argument("--players", type=int, choices=(2, 4), help="2 or 4 (Chkobba); Seven Diamonds is always 4")
    p.add_argument("--a", choices=LEVELS + ("baseline",), default="hard", help="level of team a (seat 0, or seats 0 and 2)")
    p.add_argument("--b", choices=LEVELS + ("baseline",), default="medium", help="level of team b")
    p.add_argument("--games", type=int, default=100, help="games to play (rounded up to an even number)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option, e.g. --option capture=compulsory --option target=21 (repeatable; "
                        "values are read as JSON when they can be)")
    p.add_argument("--target", type=int, help="shorthand for --option target=N")
    p.add_argument("--capture", choices=("optional", "compulsory"), help="shorthand for --option capture=...")
    p.add_argument("--budget-a", help="hard budget for a: rollouts (400), time (150ms) or both (400,150ms)")
    p.add_argument("--budget-b", help="hard budget for b (same forms)")
    p.add_argument("--max-rounds", type=int, default=200, help="a game stopped after this many rounds is a draw")
    p.add_argument("--jobs", type=int, default=1, help="processes to play games in parallel")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true", help="show progress on standard error")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    options: dict[str, object] = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq or not name:
            print(f'--option "{item}": write it as NAME=VALUE, like capture=compulsory', file=sys.stderr)
            return 2
        options[name.strip()] = option_value(value.strip())
    if args.players is not None:
        options["players"] = args.players
    if args.target is not None:
        options["target"] = args.target
    if args.capture is not None:
        options["capture"] = args.capture
    try:
        opts = game_class(args.game).options_class().from_dict(options)
    except ChkobbaError as e:
        print(str(e), file=sys.stderr)
        return 2
    options = opts.to_dict()
    games = args.games + (args.games % 2)
    try:
        setup = Setup(args.game, options, args.a, args.b, args.seed, _budget(args.budget_a), _budget(args.budget_b),
                      args.max_rounds)
    except ValueError as e:
        print(f"bad budget: {e}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    results = run(setup, games, max(1, args.jobs), args.progress)
    out = summarize(setup, results, time.perf_counter() - t0)
    if args.json:
        print(json.dumps(out))
        return 0
    lo, hi = out["ci95"]
    print(f"{args.game}, {options.get('players')} players, options {json.dumps(options)}")
    print(f"a = {args.a}, b = {args.b}, {games} games on {games // 2} duplicate deal sets, seed {args.seed}")
    print(f"a won {out['a_wins']}, b won {out['b_wins']}, draws {out['draws']}")
    print(f"a's share {out['a_share']:.3f}, 95% CI [{lo:.3f}, {hi:.3f}]")
    print(f"points per round: a {out['a_points_per_round']}, b {out['b_points_per_round']} "
          f"({out['rounds']} rounds)")
    for team in ("a", "b"):
        t = out.get(f"{team}_decision_ms")
        if t:
            print(f"{team} (hard) ms per decision: median {t['median']}, p95 {t['p95']}, max {t['max']}")
    print(f"{out['seconds']} s ({out['seconds_per_game']} s per game)")
    return 0
