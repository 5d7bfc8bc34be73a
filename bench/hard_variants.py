#!/usr/bin/env python3
"""Screen variants of hard against hard as shipped, in one process.

    python bench/hard_variants.py --a no-infer --b hard --games 200 --seed 1 [--jobs 2] [--option capture=compulsory]
    python bench/hard_variants.py --decisions 300 --variants hard,hard-2400 [--worlds 100] [--log d.jsonl]
    python bench/hard_variants.py --cost 40 --variants hard,no-infer [--option players=4] [--last-deal] --seed 9

A quicker screen than ``bench/vs_revision.py``: both sides are agents of this
working tree built in the arena's process (no facades, no second checkout), so
a variant that is only a model or budget change can be tried without a
commit: add it to ``VARIANTS``. Duplicate deals (seats swapped), results with
a 95% interval over the deal pairs: a's share of games and a's point margin
per round. Only a variant that wins here is worth a 400-game run with
``vs_revision.py``.

Variants (Chkobba: 600 rollouts, Seven Diamonds: 300, no time cap here):

* ``hard``: hard as shipped.
* ``no-infer``: hard without the weighted sampling of two-player Chkobba
  (``ChkobbaModel(infer=False)``: sampled deals uniform over the unseen cards).
* ``hard-2400``: four times the rollouts.
* ``learnt-location``: the other hand of each sampled deal (1v1) drawn from
  the marginals of ``bench/learn_location.py``'s logistic model
  (``--location-weights FILE``) instead of hard's weighted sampling.
* ``oracle-hand``, ``oracle-deck``: hard handed the other seats' real hands
  (and the real order of the deck) in every sampled deal, at the same budget:
  the ceiling any inference of the unseen cards can reach under this search.

``--decisions N`` plays no games: on N positions of medium games (two
players, deck not empty) each of ``--variants`` chooses, and each choice is
valued by a reference search of the same model (every move on the same
``--worlds`` sampled deals, no pruning, another seed). Its regret against the
reference bounds what a change of move ordering or pruning can gain.

``--cost N``: CPU time of each variant's decisions on N positions.

The variants tried before and measured no better than hard are in the tag
``ai-experiments-2026-12`` (docs/agents.md, "What was tried").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chkobba.agents import Agent, Budget, HardAgent  # noqa: E402
from chkobba.agents import chkobba as CK  # noqa: E402
from chkobba.cli import arena  # noqa: E402
from chkobba.games.chkobba.state import PLAY  # noqa: E402
from chkobba.session import Session  # noqa: E402
from vs_revision import paired_ci, paired_margin  # noqa: E402  (bench/ is the script's folder)


class _Truth:
    """The state of the game being played, for the oracle variants only: set
    by :class:`_TruthSession` each time the arena asks for a seat's
    observation, just before that seat's agent chooses (one game at a time
    in a process; forked workers have their own)."""
    state: Any = None


class _TruthSession(Session):
    def observation(self, seat: int) -> Any:
        _Truth.state = self.state
        return super().observation(seat)


class OracleModel(CK.ChkobbaModel):
    """Hard's model handed what no honest player knows, to bound what any
    inference of the other hands can gain under today's search: every
    sampled deal gives the other seats their real hands (``deck=False``: the
    deck's order still sampled from the cards left), or the real deck's
    order too (``deck=True``). Only while cards are played (the cut and the
    re-deal questions sample as hard does)."""

    def __init__(self, deck: bool) -> None:
        super().__init__(infer=False)
        self.deck = deck

    def _determinize(self, obs: Any, rng: random.Random) -> Any:
        s = super()._determinize(obs, rng)
        truth = _Truth.state
        if truth is None or obs.phase != PLAY:
            return s
        hands = [obs.hand if seat == obs.seat else tuple(sorted(truth.hands[seat])) for seat in range(len(s.hands))]
        rest = tuple(truth.deck[truth.pos:])
        unseen = sorted(c for seat, h in enumerate(s.hands) if seat != obs.seat for c in h) + sorted(s.deck)
        assert sorted(unseen) == sorted([c for seat, h in enumerate(hands) if seat != obs.seat for c in h] + list(rest)), \
            "the oracle's cards are not the ones the seat cannot see"
        if not self.deck:
            shuffled = list(rest)
            rng.shuffle(shuffled)
            rest = tuple(shuffled)
        s.hands = hands
        s.deck = rest
        s.pos = 0
        return s


VARIANTS: dict[str, Callable[[], HardAgent]] = {
    "hard": lambda: HardAgent("chkobba", Budget(rollouts=600)),
    "no-infer": lambda: HardAgent("chkobba", Budget(rollouts=600), CK.ChkobbaModel(infer=False)),
    "hard-2400": lambda: HardAgent("chkobba", Budget(rollouts=2400)),   # four times the thinking
    # the bound on inference: hard handed the other hands (and the deck) at the same budget
    "oracle-hand": lambda: HardAgent("chkobba", Budget(rollouts=600), OracleModel(deck=False)),
    "oracle-deck": lambda: HardAgent("chkobba", Budget(rollouts=600), OracleModel(deck=True)),
    # the other hand drawn from bench/learn_location.py's learnt marginals (--location-weights) instead
    # of hard's weighted sampling
    "learnt-location": lambda: HardAgent("chkobba", Budget(rollouts=600), _learnt_model()),
}
LOCATION_WEIGHTS: list[Path] = []   # set by --location-weights


def _learnt_model() -> CK.ChkobbaModel:
    import learn_location   # bench/learn_location.py
    if not LOCATION_WEIGHTS:
        sys.exit("the learnt-location variant needs --location-weights FILE (bench/learn_location.py train)")
    return learn_location.LearntModel(learn_location.load_weights(LOCATION_WEIGHTS[0]))


SEVEN_VARIANTS: dict[str, Callable[[], HardAgent]] = {
    "hard": lambda: HardAgent("seven_diamonds", Budget(rollouts=300)),
    "hard-1200": lambda: HardAgent("seven_diamonds", Budget(rollouts=1200)),
}
_BUILT: dict[tuple[str, str], Agent] = {}


def _agent(game: str, level: str, budget: Budget | None) -> Agent:
    if (game, level) not in _BUILT:
        _BUILT[game, level] = (SEVEN_VARIANTS if game == "seven_diamonds" else VARIANTS)[level]()
    return _BUILT[game, level]


def mean_ci(xs: list[float]) -> list[float]:
    """The mean of ``xs`` and its 95% interval (normal), each to 4 places."""
    import statistics
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
    return [round(m, 4), round(m - h, 4), round(m + h, 4)]


def decisions(names: list[str], count: int, seed: int, worlds: int, log: Path | None = None) -> dict[str, Any]:
    """Each variant's choice, at its own budget, on ``count`` positions of medium
    games (two players, deck not empty: the last deal is solved exactly by all),
    valued by a reference search of the same model: every legal move on the
    same ``worlds`` sampled deals, no pruning, another seed than the variants'.
    A move-ordering or pruning change can only bring a search closer to what
    its model would find with unlimited rollouts; the regret of the shipped
    search against the reference bounds what such a change can gain."""
    import statistics
    sys.path.insert(0, str(ROOT / "tests"))
    from positions import sessions_where  # tests/positions.py
    from chkobba.agents import Search
    found = sessions_where(lambda o: o.phase == PLAY and o.deck_left > 0, count, seed, {"players": 2}, share=0.3)
    agents = {n: VARIANTS[n]() for n in names}
    ref_model = CK.ChkobbaModel()
    rows: list[dict[str, Any]] = []
    for i, sess in enumerate(found):
        seat = sess.to_act()
        assert seat is not None
        obs = sess.observation(seat)
        legal = [a for a in sess.legal_actions() if a.kind != "timeout"]
        ref = Search(ref_model, obs, legal, random.Random(10_000 + i),
                     Budget(rollouts=worlds * len(legal), ms=None, prune_z=1e12, max_actions=len(legal)))
        ref._solve = False   # noqa: SLF001 (deck not empty: nothing to solve)
        ref.run()
        q = [ref.total[j] / ref.n[j] for j in range(len(legal))]
        best = max(q)
        row: dict[str, Any] = {"i": i, "moves": len(legal)}
        for n, ag in agents.items():
            pick = ag.start(obs, legal, random.Random(i)).run()
            row[n] = best - q[legal.index(pick)]
        rows.append(row)
        if log is not None:
            with log.open("a") as f:
                f.write(json.dumps(row) + "\n")

    out: dict[str, Any] = {"positions": len(rows), "worlds": worlds, "seed": seed}
    first = names[0]
    for n in names:
        out[n] = {"regret": mean_ci([r[n] for r in rows]),
                  "picks_reference_best": round(sum(1 for r in rows if r[n] < 1e-9) / len(rows), 4)}
        if n != first:
            out[n]["regret_minus_" + first] = mean_ci([r[n] - r[first] for r in rows])
    return out


def cost(names: list[str], count: int, seed: int, options: dict[str, Any], last_deal: bool) -> dict[str, Any]:
    """CPU time (``time.process_time``: the machine's load does not count) of
    each variant's whole decision on ``count`` positions of medium games at
    the table of ``options`` (play, more than one move; the deck empty with
    ``last_deal``)."""
    import statistics
    sys.path.insert(0, str(ROOT / "tests"))
    from positions import sessions_where  # tests/positions.py

    def wanted(o: Any) -> bool:
        return bool(o.phase == PLAY and (o.deck_left == 0 if last_deal else True))
    found = sessions_where(wanted, count, seed, options, share=0.5)
    out: dict[str, Any] = {"positions": len(found), "options": options, "last_deal": last_deal, "seed": seed}
    for n in names:
        agent = VARIANTS[n]()
        ms: list[float] = []
        for i, sess in enumerate(found):
            seat = sess.to_act()
            assert seat is not None
            obs = sess.observation(seat)
            legal = [a for a in sess.legal_actions() if a.kind != "timeout"]
            t = time.process_time()
            agent.choose(obs, legal, random.Random(i))
            ms.append((time.process_time() - t) * 1000.0)
        ms.sort()
        out[n] = {"median_ms": round(statistics.median(ms), 1), "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
                  "max_ms": round(ms[-1], 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("chkobba", "seven_diamonds"), default="chkobba")
    ap.add_argument("--a", choices=sorted({*VARIANTS, *SEVEN_VARIANTS}), default="no-infer")
    ap.add_argument("--b", choices=sorted({*VARIANTS, *SEVEN_VARIANTS}), default="hard")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--log", type=Path, help="one game at a time, each appended here as it ends (a stopped run "
                    "goes on from the games the log has; --jobs is then ignored)")
    ap.add_argument("--decisions", type=int, metavar="POSITIONS",
                    help="no games: each of --variants chooses on this many positions, valued by a reference search")
    ap.add_argument("--variants", default="hard,hard-2400", help="for --decisions: comma-separated, the first is the base")
    ap.add_argument("--worlds", type=int, default=100, help="for --decisions: the reference's sampled deals per move")
    ap.add_argument("--cost", type=int, metavar="POSITIONS",
                    help="no games: CPU time of each of --variants' decisions on this many positions (--option sets the table)")
    ap.add_argument("--last-deal", action="store_true", help="for --cost: positions of the last deal only")
    ap.add_argument("--location-weights", type=Path, help="for the learnt-location variant: bench/learn_location.py's weights")
    args = ap.parse_args()
    if args.location_weights:
        LOCATION_WEIGHTS.append(args.location_weights)
    if args.cost:
        copts: dict[str, Any] = {"players": 2}
        for kv in args.option:
            k, _, v = kv.partition("=")
            copts[k] = arena.option_value(v)
        print(json.dumps(cost(args.variants.split(","), args.cost, args.seed, copts, args.last_deal)))
        return
    if args.decisions:
        print(json.dumps(decisions(args.variants.split(","), args.decisions, args.seed, args.worlds, args.log)))
        return
    table = SEVEN_VARIANTS if args.game == "seven_diamonds" else VARIANTS
    for side in (args.a, args.b):
        if side not in table:
            ap.error(f'"{side}" is not a {args.game} variant (those are: {", ".join(sorted(table))})')
    opts: dict[str, Any] = {"players": 2} if args.game == "chkobba" else {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        opts[k] = arena.option_value(v)
    arena._agent = _agent   # the arena builds these variants (forked workers inherit it)
    arena.Session = _TruthSession   # type: ignore[misc]  (the oracles read the true state; the others never do)
    t0 = time.perf_counter()
    setup = arena.Setup(args.game, opts, args.a, args.b, args.seed)
    n = args.games + args.games % 2
    if args.log is None:
        results = arena.run(setup, n, args.jobs)
        # the deal-pair intervals of vs_revision.py, over the same per-game facts
        games: list[dict[str, Any]] = [{"pair": r.index // 2, "winner": r.winner, "a_points": r.a_points, "b_points": r.b_points,
                  "rounds": r.rounds, "a_ms": r.a_ms, "b_ms": r.b_ms} for r in results]
    else:
        have: dict[int, dict[str, Any]] = {}
        if args.log.exists():
            for line in args.log.read_text().splitlines():
                r = json.loads(line)
                if (r["game"], r["a"], r["b"], r["seed"]) == (args.game, args.a, args.b, args.seed):
                    have[r["index"]] = r
        with args.log.open("a") as f:
            for i in range(n):
                if i in have:
                    continue
                g = arena.play_game(setup, i)
                have[i] = {"index": i, "pair": i // 2, "winner": g.winner, "a_points": g.a_points,
                           "b_points": g.b_points, "rounds": g.rounds, "a_ms": g.a_ms, "b_ms": g.b_ms,
                           "game": args.game, "a": args.a, "b": args.b, "seed": args.seed}
                f.write(json.dumps(have[i]) + "\n")
                f.flush()
        games = [have[i] for i in sorted(have) if i < n]
    share = paired_ci(games)[:3]
    margin = paired_margin(games)
    a_ms = [x for r in games for x in r["a_ms"]]
    b_ms = [x for r in games for x in r["b_ms"]]
    print(json.dumps({"game": args.game, "a": args.a, "b": args.b, "options": opts, "seed": args.seed, "games": len(games),
                      "a_share_over_pairs": [round(x, 4) for x in share],
                      "a_margin_per_round_over_pairs": [round(x, 4) for x in margin],
                      "a_decision_ms": arena.decision_stats(a_ms) if a_ms else None,
                      "b_decision_ms": arena.decision_stats(b_ms) if b_ms else None,
                      "seconds": round(time.perf_counter() - t0)}))


if __name__ == "__main__":
    main()
