#!/usr/bin/env python3
"""Screen variants of two-player Chkobba's hard against hard itself, in one process.

    python bench/hard_variants.py --a quiesce --b hard --games 200 --seed 1 [--jobs 2] [--option capture=compulsory]
    python bench/hard_variants.py --fit 40000       # refit the `tuned` leaf weights, print them
    python bench/hard_variants.py --decisions 300 --variants hard,learnt-prior,learnt-top4 [--worlds 100] [--log d.jsonl]
    python bench/hard_variants.py --cost 40 --variants last4,hard --option players=4 --last-deal --seed 9

A quicker screen than ``bench/vs_revision.py``: both sides are agents of this
working tree built in the arena's process (no facades, no second checkout), so
a variant that is only a model or budget change can be tried without a
commit. Duplicate deals (seats swapped), results with a 95% interval over the
deal pairs: a's share of games and a's point margin per round. Only a variant
that wins here is worth a 400-game run against v0.1 with ``vs_revision.py``.

Variants (docs/agents.md, "Wave 5"):

* ``hard``: hard as shipped (600 rollouts; no time cap here).
* ``no-prune``: the same search without paired pruning (all 600 rollouts).
* ``quiesce``: the leaf also counts the best immediate gain of the seat to
  move, by medium's one-move estimate (a one-ply quiescence).
* ``tuned``: the leaf adds a linear correction to medium's pile evaluation,
  fitted by least squares on medium-vs-medium rounds (``--fit``) to predict
  the round's final point difference from the state at the leaf.
* ``learnt``: every seat of the playouts plays the learnt policy
  (``chkobba.agents.policy``, weights fitted by ``bench/learn_policy.py``)
  instead of medium ("Wave 6").
* ``learnt-prior``: the learnt policy as the search's prior (move ordering:
  which root moves are searched, and the estimate the means are shrunk
  towards), ``ChkobbaModel(ordering=learnt_scores)`` ("Wave 8");
  ``learnt-prior-w24``: the same prior counted as 24 rollouts instead of 2;
  ``learnt-top4`` / ``medium-top4``: only the 4 best moves by that prior
  searched (root pruning); ``hard-2400``: four times the rollouts.
* ``last4`` (2v2, ``--option players=4``): in the last deal each rollout
  solves the sampled deal exactly (every hand known), 8 sampled deals per
  searched move: the last deal searched over the partner's possible hands
  ("Wave 8").

``--decisions N`` plays no games: on N positions of medium games (two
players, deck not empty) each of ``--variants`` chooses, and each choice is
valued by a reference search of the same model (every move on the same
``--worlds`` sampled deals, no pruning, another seed). Its regret against the
reference bounds what a change of move ordering or pruning can gain.

Seven Diamonds (``--game seven_diamonds``; 300 rollouts, no time cap):

* ``hard``: hard as shipped.
* ``calls``: the calls model (``SevenModel(calls_model=True)``, "Wave 7"):
  the playouts' seats call as hard does, and sampled deals are weighed by
  the other seats' calls.
* ``calls-only``: the same, but the deals are weighed by the calls only while
  calling (in play they are sampled as before): the calls' part alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, cast

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chkobba.agents import Agent, Budget, HardAgent  # noqa: E402
from chkobba.agents import chkobba as CK  # noqa: E402
from chkobba.agents.policy import learnt_playout, learnt_scores  # noqa: E402
from chkobba.agents.seven_diamonds import SevenModel  # noqa: E402
from chkobba.cli import arena  # noqa: E402
from chkobba.games.chkobba.state import ANSWER, CUT, PLAY, REDEAL, ChkobbaState  # noqa: E402
from chkobba.session import Session  # noqa: E402
from vs_revision import paired_ci, paired_margin  # noqa: E402  (bench/ is the script's folder)


def leaf_features(s: ChkobbaState, side: int) -> list[float]:
    """What the `tuned` leaf looks at, for ``side`` (each changes sign with the side)."""
    e0 = CK.pile_eval(s.piles[side], s.piles[side ^ 1])
    to_move = 1.0 if (s.turn & 1) == side else -1.0
    total = sum(s.values[c] for c in s.table)
    left = (len(s.deck) - s.pos) + sum(len(h) for h in s.hands)
    frac = left / 36.0
    lc = 0.0 if s.last_capturer < 0 else (1.0 if s.last_capturer == side else -1.0)
    cards = (s.piles[side].bit_count() - s.piles[side ^ 1].bit_count()) / 10.0
    return [e0, to_move, to_move * (1.0 if 0 < total <= 10 else 0.0), to_move * len(s.table) / 4.0,
            lc * (1 - frac), lc, to_move * frac, cards * frac]


# Fitted with `--fit 40000` (seed 1); holdout of 10,000 rounds (seed 7): mean
# squared error of the round's remaining points 5.130 -> 5.036.
TUNED = [-0.0729, -0.0818, 0.1087, 0.31, 0.2078, -0.0708, -0.0686, -0.6173]


class QuiesceModel(CK.ChkobbaModel):
    def evaluate(self, s: ChkobbaState, side: int, start: int, rounds: int) -> float:
        e = super().evaluate(s, side, start, rounds)
        if len(s.results) > start or s.phase != PLAY or s.round_index != rounds:
            return e
        view = CK.View.of_state(s)
        best = max(CK.score_action(view, a)[0] for a in s.legal_actions())
        return e + (best if (s.turn & 1) == side else -best)


class TunedModel(CK.ChkobbaModel):
    def evaluate(self, s: ChkobbaState, side: int, start: int, rounds: int) -> float:
        e = super().evaluate(s, side, start, rounds)
        if len(s.results) > start or s.phase != PLAY or s.round_index != rounds:
            return e
        return e + sum(w * f for w, f in zip(TUNED, leaf_features(s, side)))


class LastDeal4Model(CK.ChkobbaModel):
    """2v2 (Wave 8): in the last deal (deck empty) each rollout finishes the
    round by solving the sampled deal exactly (``endgame.state_value``: every
    seat sees the sampled hands and plays its side's best), so the search
    weighs each root move over the partner's (and the opponents') possible
    hands instead of 6 plies of medium and the pile evaluation. Scored in
    round points, as the rest of the four-player search. A deal too big for
    ``LAST4_NODES`` positions is played out as before."""

    def rollout(self, state: Any, side: int, rng: random.Random) -> float:
        s = cast(ChkobbaState, state)
        if s.n == 4 and s.phase == PLAY and s.pos >= len(s.deck) and any(s.hands):
            from chkobba.agents.endgame import state_value
            v = state_value(s, side, LAST4_NODES)
            if v is not None:
                return float(v[1])
        return super().rollout(state, side, rng)


LAST4_NODES = 2000   # positions one rollout's solve may search
LAST4_WORLDS = 8    # sampled deals per searched move in a 2v2 last deal (each one solved)


class LastDeal4Agent(HardAgent):
    """Hard with :class:`LastDeal4Model`: the page's budget, except in a 2v2
    last deal, where each sampled deal costs a solve: ``LAST4_WORLDS`` deals
    per searched move."""

    def __init__(self) -> None:
        super().__init__("chkobba", Budget(rollouts=600), LastDeal4Model())

    def start(self, obs: Any, legal: Any, rng: random.Random, budget: Budget | None = None) -> Any:
        if obs.players == 4 and obs.phase == PLAY and obs.deck_left == 0:
            budget = Budget(rollouts=LAST4_WORLDS * min(len(legal), 10))
        return super().start(obs, legal, rng, budget)


VARIANTS: dict[str, Callable[[], HardAgent]] = {
    "hard": lambda: HardAgent("chkobba", Budget(rollouts=600)),
    "no-prune": lambda: HardAgent("chkobba", Budget(rollouts=600, prune_z=1e9)),
    "quiesce": lambda: HardAgent("chkobba", Budget(rollouts=600), QuiesceModel()),
    "tuned": lambda: HardAgent("chkobba", Budget(rollouts=600), TunedModel()),
    # the playouts with the policy learnt from the search (chkobba/agents/policy.py, Wave 6)
    "learnt": lambda: HardAgent("chkobba", Budget(rollouts=600), CK.ChkobbaModel(playout=learnt_playout())),
    # the learnt policy as the search's prior: which root moves are searched and the
    # estimate the means are shrunk towards (Wave 8); -topK: only its K best searched
    "learnt-prior": lambda: HardAgent("chkobba", Budget(rollouts=600), CK.ChkobbaModel(ordering=learnt_scores)),
    "learnt-top4": lambda: HardAgent("chkobba", Budget(rollouts=600, max_actions=4),
                                     CK.ChkobbaModel(ordering=learnt_scores)),
    # 2v2: the last deal searched over the partner's possible hands, each sampled deal solved (Wave 8)
    "last4": LastDeal4Agent,
    "hard-2400": lambda: HardAgent("chkobba", Budget(rollouts=2400)),   # four times the thinking
    "medium-top4": lambda: HardAgent("chkobba", Budget(rollouts=600, max_actions=4)),
    "learnt-prior-w24": lambda: HardAgent("chkobba", Budget(rollouts=600, prior_weight=24.0),
                                          CK.ChkobbaModel(ordering=learnt_scores)),
}
SEVEN_VARIANTS = {
    "hard": lambda: HardAgent("seven_diamonds", Budget(rollouts=300)),
    "calls": lambda: HardAgent("seven_diamonds", Budget(rollouts=300), SevenModel(calls_model=True)),
    "calls-only": lambda: HardAgent("seven_diamonds", Budget(rollouts=300),
                                    SevenModel(calls_model=True, calls_in_play=False)),
}
_BUILT: dict[tuple[str, str], Agent] = {}


def _agent(game: str, level: str, budget: Budget | None) -> Agent:
    if (game, level) not in _BUILT:
        _BUILT[game, level] = (SEVEN_VARIANTS if game == "seven_diamonds" else VARIANTS)[level]()
    return _BUILT[game, level]


def fit(rounds: int, seed: int) -> list[float]:
    """Least squares of the round's remaining points (final difference minus
    the chkobbas so far minus the pile evaluation) on :func:`leaf_features`,
    over states of medium-vs-medium rounds (half the play states, at random)."""
    xs, ys = samples(rounds, seed)
    k = len(xs[0])
    m = [[0.0] * (k + 1) for _ in range(k)]
    for x, y in zip(xs, ys):
        for i in range(k):
            m[i][k] += x[i] * y
            for j in range(k):
                m[i][j] += x[i] * x[j]
    for c in range(k):   # Gauss-Jordan with partial pivoting
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(k):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [m[r][j] - f * m[c][j] for j in range(k + 1)]
    return [m[i][k] / m[i][i] for i in range(k)]


def samples(rounds: int, seed: int) -> tuple[list[list[float]], list[float]]:
    xs: list[list[float]] = []
    ys: list[float] = []
    rng = random.Random(seed)
    for r in range(rounds):
        s = cast(ChkobbaState, Session.new("chkobba", {"players": 2}, seed=seed * 100_000 + r).state)
        start = len(s.results)
        rows = []
        while len(s.results) == start:
            p = s.phase
            if p == PLAY:
                if rng.random() < 0.5:
                    rows.append((leaf_features(s, 0), len(s.chkobbas[0]) - len(s.chkobbas[1])))
                legal = s.legal_actions()
                a = legal[0] if len(legal) == 1 else legal[CK.medium_play(CK.View.of_state(s), legal, rng)]
            elif p in (CUT, REDEAL, ANSWER):
                seat = s.to_act()
                assert seat is not None
                a = CK.word_decision(p, s.hands[seat], s.table, s.deck[0] if p == CUT else -1, s.values,
                                     s.legal_actions())
            else:
                break
            s.play(a)
        if len(s.results) == start:
            continue
        pts = s.results[start].points
        for f, chk in rows:
            xs.append(f)
            ys.append(pts[0] - pts[1] - chk - f[0])
    return xs, ys


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

    def ci(xs: list[float]) -> list[float]:
        m = statistics.fmean(xs)
        h = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else float("nan")
        return [round(m, 4), round(m - h, 4), round(m + h, 4)]
    out: dict[str, Any] = {"positions": len(rows), "worlds": worlds, "seed": seed}
    first = names[0]
    for n in names:
        out[n] = {"regret": ci([r[n] for r in rows]),
                  "picks_reference_best": round(sum(1 for r in rows if r[n] < 1e-9) / len(rows), 4)}
        if n != first:
            out[n]["regret_minus_" + first] = ci([r[n] - r[first] for r in rows])
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
    ap.add_argument("--a", choices=sorted({*VARIANTS, *SEVEN_VARIANTS}), default="tuned")
    ap.add_argument("--b", choices=sorted({*VARIANTS, *SEVEN_VARIANTS}), default="hard")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--log", type=Path, help="one game at a time, each appended here as it ends (a stopped run "
                    "goes on from the games the log has; --jobs is then ignored)")
    ap.add_argument("--fit", type=int, metavar="ROUNDS", help="refit the tuned weights on this many rounds")
    ap.add_argument("--decisions", type=int, metavar="POSITIONS",
                    help="no games: each of --variants chooses on this many positions, valued by a reference search")
    ap.add_argument("--variants", default="hard,learnt-prior", help="for --decisions: comma-separated, the first is the base")
    ap.add_argument("--worlds", type=int, default=100, help="for --decisions: the reference's sampled deals per move")
    ap.add_argument("--cost", type=int, metavar="POSITIONS",
                    help="no games: CPU time of each of --variants' decisions on this many positions (--option sets the table)")
    ap.add_argument("--last-deal", action="store_true", help="for --cost: positions of the last deal only")
    args = ap.parse_args()
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
    if args.fit:
        w = fit(args.fit, args.seed)
        xs, ys = samples(max(1, args.fit // 4), 7)
        base = sum(y * y for y in ys) / len(ys)
        res = sum((y - sum(a * b for a, b in zip(w, x))) ** 2 for x, y in zip(xs, ys)) / len(ys)
        print(json.dumps({"weights": [round(v, 4) for v in w], "holdout_mse": [round(base, 3), round(res, 3)]}))
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
