"""Exact play of Chkobba's last deal, and the chance of winning a game from a score.

In a two-player round, once the deck is empty every card a seat can't see is
in the other player's hand: the last deal is a game of perfect information,
small enough (at most three cards each, plus claims) to solve exactly. The
solver plays the engine's own rules (``ChkobbaState.play``) on the one state
consistent with the observation, with a transposition table, and scores each
end of the round by what it means for the **game**: the chance of winning the
game from the new score (:func:`game_win_chance`), then the round's point
difference to break ties. So near the target it plays for the game, not the
round (a sure point that wins the game beats a chance at two).

Honesty: the state solved is built from the seat's observation only (with the
deck empty, the unseen cards are exactly the other player's hand).
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Generator, Sequence

from ..actions import Action
from ..games.chkobba.determinize import determinize
from ..games.chkobba.observation import ChkobbaObservation
from ..games.chkobba.state import PLAY, ChkobbaState

# A round's points for each side, as independent items: (P(side 0), P(side 1));
# the rest of the probability is a tie (nobody). Chkobbas per side: P(0), P(1), P(2).
# Rough frequencies from computer games; only the shape matters here.
_ITEMS = ((0.44, 0.44), (0.37, 0.37), (0.47, 0.47), (0.5, 0.5))
_CHKOBBAS = (0.70, 0.22, 0.08)


def _round_points() -> dict[tuple[int, int], float]:
    dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for p0, p1 in _ITEMS:
        nxt: dict[tuple[int, int], float] = {}
        for (a, b), p in dist.items():
            for (da, db), q in (((1, 0), p0), ((0, 1), p1), ((0, 0), 1.0 - p0 - p1)):
                if q > 0:
                    k = (a + da, b + db)
                    nxt[k] = nxt.get(k, 0.0) + p * q
        dist = nxt
    for side in (0, 1):
        nxt = {}
        for (a, b), p in dist.items():
            for c, q in enumerate(_CHKOBBAS):
                k = (a + c, b) if side == 0 else (a, b + c)
                nxt[k] = nxt.get(k, 0.0) + p * q
        dist = nxt
    return dist


_ROUND = tuple(_round_points().items())


@lru_cache(maxsize=None)
def game_win_chance(me: int, opp: int, target: int) -> float:
    """Chance that the side with ``me`` points wins the game against ``opp``
    (before a round), both sides playing alike: a side that alone reaches the
    target wins; equal scores at or above it play another round."""
    if me >= target or opp >= target:
        return 1.0 if me > opp else 0.0 if me < opp else 0.5
    stay = 0.0
    total = 0.0
    for (a, b), p in _ROUND:
        if a == 0 and b == 0:
            stay = p
            continue
        total += p * game_win_chance(me + a, opp + b, target)
    return total / (1.0 - stay)


def applies(obs: ChkobbaObservation) -> bool:
    """Whether :func:`solve` can decide this position exactly."""
    return obs.players == 2 and obs.phase == PLAY and obs.deck_left == 0 and obs.to_act == obs.seat


MAX_NODES = 4000   # positions searched at most (a few hundred ms in the page at worst)
Value = tuple[float, int]   # (chance of winning the game, round point difference), for the seat's side


def solve(obs: ChkobbaObservation, legal: Sequence[Action], max_nodes: int = MAX_NODES) -> list[Value] | None:
    """The exact value of each legal action (both players then playing
    perfectly), for the side of the seat to act; None when the position
    needs more than ``max_nodes`` positions searched (a huge table: rare)."""
    import random
    root = determinize(obs, random.Random(0))   # the deck is empty: one state fits
    solver = _Solver(root, obs.seat & 1, max_nodes)
    out: list[Value] = []
    try:
        for a in legal:
            # each root action exactly (the coach shows every one's value)
            out.append(solver.after(a))
    except _TooBig:
        return None
    return out


STEP_NODES = 8    # positions searched between two pauses of :func:`solve_steps` (about 1 ms in CPython)


def solve_steps(obs: ChkobbaObservation, legal: Sequence[Action], max_nodes: int = MAX_NODES,
                every: int = STEP_NODES) -> Generator[None, None, list[Value] | None]:
    """:func:`solve` in pieces: a generator that pauses (yields None) after
    every ``every`` positions searched and returns :func:`solve`'s answer
    (``StopIteration.value``). The same search in the same order: only the
    pauses are added, so a caller (``Search.step``) can hand the solver out
    in time slices and give the page the thread between them."""
    import random
    root = determinize(obs, random.Random(0))
    solver = _Solver(root, obs.seat & 1, max_nodes, every)
    out: list[Value] = []
    yield None           # the first pause comes before any search (the deal above is the slice's work)
    try:
        for a in legal:
            out.append((yield from solver.after_steps(a)))
    except _TooBig:
        return None
    return out


def state_value(s: ChkobbaState, side: int, max_nodes: int = MAX_NODES) -> Value | None:
    """The exact value for ``side`` of a full state whose deck is empty (the
    round not over: every hand known, so the rest of the round is a
    perfect-information game), every seat playing its side's best; None when
    it needs more than ``max_nodes`` positions searched. The shipped search
    does not call it (it solves from the observation, :func:`solve`); it is
    the solver's value of a known deal, at two or four players, for tools and
    tests."""
    solver = _Solver(s, side, max_nodes)
    try:
        return solver.value(s, _LO, _HI)
    except _TooBig:
        return None


_LO: Value = (-1.0, -99)
_HI: Value = (2.0, 99)


class _Solver:
    """Alpha-beta over the rest of a round from ``root`` (deck empty), with a
    transposition table; ends of the round scored by :func:`game_win_chance`
    from the new score, then the round's point difference."""

    def __init__(self, root: ChkobbaState, side: int, max_nodes: int, every: int = STEP_NODES) -> None:
        self.root = root
        self.side = side
        self.start = len(root.results)
        self.score = root.score
        self.target = root.options.target
        self.max_nodes = max_nodes
        self.nodes = 0
        self.every = max(1, every)
        self.memo: dict[tuple[object, ...], tuple[Value, int]] = {}

    def after(self, a: Action) -> Value:
        t = self.root.copy()
        t.play(a)
        return self.terminal(t) if len(t.results) > self.start else self.value(t, _LO, _HI)

    def terminal(self, s: ChkobbaState) -> Value:
        side = self.side
        res = s.results[self.start]
        pts = res.points
        diff = pts[side] - pts[side ^ 1]
        me, opp = self.score[side] + pts[side], self.score[side ^ 1] + pts[side ^ 1]
        if s.options.all_diamonds_wins and res.all_diamonds is not None:
            u = 1.0 if res.all_diamonds == side else 0.0
        else:
            u = game_win_chance(me, opp, self.target)
        return (round(u, 9), diff)

    def value(self, s: ChkobbaState, alpha: Value, beta: Value) -> Value:
        # alpha-beta value for `side` of position s (round not over yet),
        # with a transposition table of exact values and bounds. At four
        # players the key holds seats 0 and 1's hands only, which is enough
        # inside one solve: the other two hands are the cards not yet seen,
        # split as the root split them (each seat plays from its own hand)
        key = (s.hands[0], s.hands[1], tuple(sorted(s.table)), s.piles[0], s.piles[1],
               len(s.chkobbas[0]) - len(s.chkobbas[1]), s.last_capturer, s.turn, s.claim)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            v, flag = hit
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _TooBig
        a0, b0 = alpha, beta
        maximize = (s.turn & 1) == self.side
        best: Value = _LO if maximize else _HI
        start = self.start
        for a in s.legal_actions():
            t = s.copy()
            t.play(a)
            w = self.terminal(t) if len(t.results) > start else self.value(t, alpha, beta)
            if maximize:
                if w > best:
                    best = w
                    if w > alpha:
                        alpha = w
            else:
                if w < best:
                    best = w
                    if w < beta:
                        beta = w
            if alpha >= beta:
                break
        memo[key] = (best, 1 if best >= b0 else -1 if best <= a0 else 0)
        return best


    # The same search as `after` and `value`, as generators that pause every
    # `every` positions (for `solve_steps`); `value` stays a plain function,
    # the faster one (`after`, `state_value`). Keep the two alike:
    # tests/test_endgame_steps.py checks they agree.
    def after_steps(self, a: Action) -> Generator[None, None, Value]:
        t = self.root.copy()
        t.play(a)
        if len(t.results) > self.start:
            return self.terminal(t)
        return (yield from self.value_steps(t, _LO, _HI))

    def value_steps(self, s: ChkobbaState, alpha: Value, beta: Value) -> Generator[None, None, Value]:
        key = (s.hands[0], s.hands[1], tuple(sorted(s.table)), s.piles[0], s.piles[1],
               len(s.chkobbas[0]) - len(s.chkobbas[1]), s.last_capturer, s.turn, s.claim)
        memo = self.memo
        hit = memo.get(key)
        if hit is not None:
            v, flag = hit
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _TooBig
        if self.nodes % self.every == 0:
            yield None
        a0, b0 = alpha, beta
        maximize = (s.turn & 1) == self.side
        best: Value = _LO if maximize else _HI
        start = self.start
        for a in s.legal_actions():
            t = s.copy()
            t.play(a)
            if len(t.results) > start:
                w = self.terminal(t)
            else:
                w = yield from self.value_steps(t, alpha, beta)
            if maximize:
                if w > best:
                    best = w
                    if w > alpha:
                        alpha = w
            else:
                if w < best:
                    best = w
                    if w < beta:
                        beta = w
            if alpha >= beta:
                break
        memo[key] = (best, 1 if best >= b0 else -1 if best <= a0 else 0)
        return best


class _TooBig(Exception):
    """The position has more than ``max_nodes`` to search: leave it to sampling."""
