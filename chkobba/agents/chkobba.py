"""Chkobba knowledge shared by every level: pile evaluation, sweep risk, the
medium policy (one-move weighted heuristic with a sweep-risk estimate), the
easy policy, and the model the hard search plays out with.

Everything here is in *expected round points* (a karta, dinari, barmila or
haya point, or one chkobba, is worth 1.0), so the medium heuristic, the
search's evaluation and the coach's numbers all speak the same unit.

The heuristics see only what the seat to act may see: its hand, the table,
the piles and counts. In a playout they are run for each simulated seat on
the state's public part plus that seat's own hand, never on other hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from math import comb
from typing import Any

from .. import cards as C
from ..actions import ACCEPT, CAPTURE, CLAIM, KEEP, PASS, PROPOSE, REFUSE, TABLE, Action
from ..cards import Card
from ..messages import Message, message
from ..protocol import GameState, JSONDict, Observation
from .kit import AgentKit, Policy
from .search import PAGE_SEARCH_MS, Budget, finish
from ..games.chkobba.state import (ANSWER, CUT, DECK_MASK, DIAMONDS, HAYA_BIT, PLAY, REDEAL, SEVENS, SIXES,
                      ChkobbaState, VALUES, captures_on, chkobba_state)
from ..games.chkobba.determinize import determinize
from ..games.chkobba.observation import ChkobbaObservation, chkobba_observation

# ------------------------------------------------------------ pile evaluation


def _split_probs(total: int) -> list[list[tuple[float, float]]]:
    """P[a][b]: (P(a side with a cards wins the majority), P(it loses)) when
    the cards not yet in a pile (total - a - b) split evenly at random.

    Exact: with r cards left, each probability is an integer count of the
    2**r splits over 2**r (r <= 40, so every count and partial sum fits a
    float's 53 bits), so the counts are summed as integers, from running
    sums of each row of binomials, and divided once (the same floats as
    summing the terms one by one, in a few ms less at import; the page
    imports this module while the player waits, docs/main-thread.md)."""
    out = [[(0.0, 0.0)] * (total + 1) for _ in range(total + 1)]
    for r in range(total + 1):
        row = [comb(r, x) for x in range(r + 1)]
        below = [0] * (r + 2)            # below[k]: splits with x < k
        for x in range(r + 1):
            below[x + 1] = below[x] + row[x]
        whole = 1 << r
        for a in range(total + 1 - r):
            b = total - r - a
            # the side wins when a + x > b + r - x, i.e. x > (b + r - a) / 2
            t = b + r - a
            win_from = min(max(t // 2 + 1, 0), r + 1)          # first x that wins
            lose_to = min(max((t + 1) // 2, 0), r + 1)         # first x that does not lose
            out[a][b] = ((whole - below[win_from]) / whole, below[lose_to] / whole)
    return out


KARTA_P = _split_probs(40)
DINARI_P = _split_probs(10)


def _barmila_probs() -> dict[tuple[int, int, int, int], tuple[float, float]]:
    """(P(win), P(lose)) of the barmila (sevens, then sixes) for a side
    holding a7 sevens and a6 sixes against b7 and b6, the rest split at random."""
    out: dict[tuple[int, int, int, int], tuple[float, float]] = {}
    for a7 in range(5):
        for b7 in range(5 - a7):
            r7 = 4 - a7 - b7
            for a6 in range(5):
                for b6 in range(5 - a6):
                    r6 = 4 - a6 - b6
                    w = lo = 0.0
                    for x in range(r7 + 1):
                        p7 = comb(r7, x) / 2 ** r7
                        d7 = (a7 + x) - (b7 + r7 - x)
                        if d7:
                            if d7 > 0:
                                w += p7
                            else:
                                lo += p7
                            continue
                        for y in range(r6 + 1):
                            p6 = comb(r6, y) / 2 ** r6
                            d6 = (a6 + y) - (b6 + r6 - y)
                            if d6 > 0:
                                w += p7 * p6
                            elif d6 < 0:
                                lo += p7 * p6
                    out[(a7, b7, a6, b6)] = (w, lo)
    return out


BARMILA_P = _barmila_probs()


def _difference(w_lo: tuple[float, float]) -> float:
    return w_lo[0] - w_lo[1]


# Expected point differences (medium's evaluation): P(win) - P(lose) of each
# category; T[a][b] for karta and dinari, B[a7][b7][a6][b6] for barmila.
KARTA = [[_difference(x) for x in row] for row in KARTA_P]
DINARI = [[_difference(x) for x in row] for row in DINARI_P]
BARMILA = [[[[_difference(BARMILA_P[(a7, b7, a6, b6)]) if (a7, b7, a6, b6) in BARMILA_P else 0.0
              for b6 in range(5)] for a6 in range(5)] for b7 in range(5)] for a7 in range(5)]


_EVAL_CACHE: dict[tuple[int, int], float] = {}


def pile_eval(me: int, opp: int) -> float:
    """Expected karta + dinari + barmila + haya point difference for the side
    whose pile is ``me`` (chkobbas not included). Antisymmetric:
    ``pile_eval(b, a) == -pile_eval(a, b)``."""
    key = (me, opp)
    e = _EVAL_CACHE.get(key)
    if e is not None:
        return e
    if len(_EVAL_CACHE) > 50_000:    # bounded: clearing must stay quick
        _EVAL_CACHE.clear()
    e = _EVAL_CACHE[key] = _pile_eval(me, opp)
    return e


def _pile_eval(me: int, opp: int) -> float:
    e = KARTA[me.bit_count()][opp.bit_count()]
    e += DINARI[(me & DIAMONDS).bit_count()][(opp & DIAMONDS).bit_count()]
    e += BARMILA[(me & SEVENS).bit_count()][(opp & SEVENS).bit_count()][(me & SIXES).bit_count()][(opp & SIXES).bit_count()]
    if me & HAYA_BIT:
        e += 1.0
    elif opp & HAYA_BIT:
        e -= 1.0
    return e


def _hold_table() -> list[list[list[float]]]:
    """H[k][u][h]: probability that a hand of h cards drawn from u unseen cards
    holds at least one of k given cards."""
    out = [[[0.0] * 4 for _ in range(41)] for _ in range(5)]
    for k in range(5):
        for u in range(41):
            for h in range(4):
                if k == 0 or h == 0 or u == 0:
                    continue
                if u - k < h:
                    out[k][u][h] = 1.0
                    continue
                q = 1.0
                for i in range(h):
                    q *= (u - k - i) / (u - i)
                out[k][u][h] = 1.0 - q
    return out


HOLD = _hold_table()
# VALUE_MASKS[faces][v]: the cards of capture value v (index 0 unused).
VALUE_MASKS = {f: [C.mask_of(c for c in range(52) if (DECK_MASK >> c) & 1 and vals[c] == v) if v else 0
                   for v in range(11)] for f, vals in VALUES.items()}
SWEEP = 1.0           # one chkobba point
EXPOSE = 0.8          # share of a single-card capture risk counted (the opponent may prefer another move)


# ------------------------------------------------------------- a seat's view

class View:
    """What the seat to act knows, in the shape the heuristics want."""

    __slots__ = ("seat", "side", "n", "hand", "table", "claim", "mine", "theirs", "unseen", "values",
                 "options", "next_hand", "last", "last_capturer", "by_value", "n_unseen", "p_hold", "base")

    def __init__(self, seat: int, n: int, hand: tuple[Card, ...], table: tuple[Card, ...],
                 claim: tuple[Card, tuple[Card, ...]] | None, piles: Sequence[int], values: tuple[int, ...],
                 options: Any, hand_counts: Sequence[int], deck_left: int, last_capturer: int) -> None:
        self.seat = seat
        self.side = side = seat & 1
        self.n = n
        self.hand = hand
        self.table = table
        self.claim = claim
        self.mine = piles[side]
        self.theirs = piles[side ^ 1]
        self.values = values
        self.options = options
        seen = piles[0] | piles[1]
        for c in hand:
            seen |= 1 << c
        for c in table:
            seen |= 1 << c
        self.unseen = unseen = DECK_MASK & ~seen
        self.by_value = [(unseen & vm).bit_count() for vm in VALUE_MASKS[options.faces]]
        self.n_unseen = unseen.bit_count()
        total = sum(hand_counts)
        self.last = deck_left == 0 and total == 1
        nxt = hand_counts[(seat + 1) % n]
        if total == 1 and deck_left > 0:
            nxt = 3   # my card empties every hand: three new cards each
        self.next_hand = nxt
        self.last_capturer = last_capturer
        h = min(nxt, 3)
        u = self.n_unseen
        self.p_hold = [HOLD[min(k, 4)][u][h] if v else 0.0 for v, k in enumerate(self.by_value)]
        self.base = pile_eval(self.mine, self.theirs)

    @classmethod
    def of_state(cls, s: ChkobbaState) -> "View":
        seat = s.turn
        return cls(seat, s.n, s.hands[seat], s.table, s.claim, s.piles, s.values, s.options,
                   [len(h) for h in s.hands], len(s.deck) - s.pos, s.last_capturer)

    @classmethod
    def of_obs(cls, o: ChkobbaObservation) -> "View":
        return cls(o.seat, o.players, o.hand, o.table, o.claim, o.piles, VALUES[o.options.faces], o.options,
                   o.hand_counts, o.deck_left, o.last_capturer)

    def hold(self, v: int) -> float:
        """Probability the next player holds a card of value ``v``."""
        return self.p_hold[v] if 0 < v <= 10 else 0.0


def table_risk(view: View, table: tuple[Card, ...], mine: int, theirs: int) -> tuple[float, float]:
    """(expected loss, sweep probability) of leaving ``table`` to the next player."""
    if not table:
        return 0.0, 0.0
    values = view.values
    total = 0
    tmask = 0
    for c in table:
        total += values[c]
        tmask |= 1 << c
    p_hold = view.p_hold
    p_sweep = p_hold[total] if total <= 10 else 0.0
    base_mine = pile_eval(mine, theirs)
    loss = 0.0
    if p_sweep:
        loss = p_sweep * (SWEEP + base_mine - pile_eval(mine, theirs | tmask) + 0.15)
    best = 0.0
    if len(table) > 1 or not p_sweep:
        for c in table:
            p = p_hold[values[c]]
            if p:
                g = p * (base_mine - pile_eval(mine, theirs | (1 << c)) + 0.1)
                if g > best:
                    best = g
    return loss + (1.0 - p_sweep) * EXPOSE * best, p_sweep


def score_action(view: View, a: Action) -> tuple[float, float]:
    """Medium's one-move value of a play (claim, capture or lay) for the seat
    to act, in expected points, and the sweep risk it leaves."""
    values = view.values
    mine, theirs = view.mine, view.theirs
    base = view.base
    kind = a.kind
    if kind == CLAIM:
        got = 1 << a.card
        for t in a.take:
            got |= 1 << t
        table = tuple([x for x in view.table if x != a.card and x not in a.take])
        gain = pile_eval(mine | got, theirs) - base + (SWEEP if not table else 0.0)
        # after a claim I still play: the table is mine to shape, no risk yet
        return gain + 0.05, 0.0
    c = a.card
    if kind == CAPTURE:
        got = 1 << c
        for t in a.take:
            got |= 1 << t
        table = tuple([x for x in view.table if x not in a.take])
        mine2 = mine | got
        gain = pile_eval(mine2, theirs) - base
        if view.last:
            if table:
                gain = pile_eval(mine2 | C.mask_of(table), theirs) - base
            elif view.options.last_card_sweep:
                gain += SWEEP
            return gain, 0.0
        if not table:
            return gain + SWEEP, 0.0
        risk, p = table_risk(view, table, mine2, theirs)
        return gain - risk, p
    # a lay
    table = view.table + (c,)
    if view.last:
        lc = view.last_capturer
        tm = C.mask_of(table)
        if lc == view.side:
            return pile_eval(mine | tm, theirs) - base, 0.0
        if lc >= 0:
            return pile_eval(mine, theirs | tm) - base, 0.0
        return 0.0, 0.0
    gain = 0.0
    if view.claim is None and view.options.claims and view.table:
        # a lay that could have captured may be claimed by the next player
        caps = captures_on(view.table, values[c], values)
        if caps:
            best = 0.0
            for take in caps:
                g = base - pile_eval(mine, theirs | (1 << c) | C.mask_of(take))
                if len(take) == len(view.table):
                    g += SWEEP
                if g > best:
                    best = g
            gain -= best
    elif view.claim is not None and view.options.claims and view.table:
        caps = captures_on(view.table, values[c], values)
        if caps:
            gain -= 0.5   # a careless lay: it can be claimed too
    risk, p = table_risk(view, table, mine, theirs)
    # a laid card is likely to end in someone's pile: lay what is worth least
    worth = base - pile_eval(mine, theirs | (1 << c))
    return gain - risk - 0.3 * worth - 0.01 * values[c] * 0.1, p


def medium_play(view: View, legal: Sequence[Action], rng: random.Random | None = None) -> int:
    """Index of medium's play among ``legal`` (ties broken by ``rng``, else first).

    A missed capture is always claimed (the best claim): it is free, the
    claimer still plays a card afterwards."""
    best = -1e9
    best_i: list[int] = []
    claims = legal[0].kind == CLAIM    # claims come first in the legal order
    for i, a in enumerate(legal):
        if claims and a.kind != CLAIM:
            break
        v = score_action(view, a)[0]
        if v > best + 1e-9:
            best = v
            best_i = [i]
        elif v > best - 1e-9:
            best_i.append(i)
    if rng is not None and len(best_i) > 1:
        return best_i[rng.randrange(len(best_i))]
    return best_i[0]


# ----------------------------------------------------- decisions off the play

def cut_keeps(cut_card: Card, values: tuple[int, ...]) -> bool:
    """Medium's cut: keep a card worth having (a seven, a diamond, a six);
    table the others (the cutter plays first on a table of four)."""
    if cut_card < 0:
        return True
    bit = 1 << cut_card
    return bool(bit & (SEVENS | DIAMONDS | SIXES))


def repeated_value(table: tuple[Card, ...], values: tuple[int, ...]) -> int:
    vals = [values[c] for c in table]
    return max(vals, key=vals.count) if vals else 0


def wants_redeal(hand: tuple[Card, ...], table: tuple[Card, ...], values: tuple[int, ...]) -> bool:
    """Medium proposes (or accepts) a re-deal when it can take none of the
    repeated cards: whoever holds the last one of that value profits."""
    v = repeated_value(table, values)
    if sum(1 for c in table if values[c] == v) >= 4:
        return False
    return not any(values[c] == v for c in hand)


def word_decision(obs_phase: str, hand: tuple[Card, ...], table: tuple[Card, ...], cut_card: Card,
                  values: tuple[int, ...], legal: Sequence[Action]) -> Action:
    kinds = {a.kind: a for a in legal}
    if obs_phase == CUT:
        return kinds[KEEP] if cut_keeps(cut_card, values) else kinds[TABLE]
    if obs_phase == REDEAL:
        return kinds[PROPOSE] if wants_redeal(hand, table, values) else kinds[PASS]
    if obs_phase == ANSWER:
        return kinds[ACCEPT] if wants_redeal(hand, table, values) else kinds[REFUSE]
    return legal[0]


# ------------------------------------------------------------------ policies

def medium_choose(obs: ChkobbaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    if obs.phase != PLAY:
        return word_decision(obs.phase, obs.hand, obs.table, obs.cut_card, VALUES[obs.options.faces], legal)
    return legal[medium_play(View.of_obs(obs), legal, rng)]


def easy_choose(obs: ChkobbaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """A beginner: legal, often careless. Takes the capture with the most
    cards (the 7D first) when it notices one, lays a random card otherwise,
    rarely claims a missed capture and never thinks about sweeps."""
    if obs.phase != PLAY:
        if obs.phase == CUT:
            return legal[rng.randrange(len(legal))]
        return next(a for a in legal if a.kind in (PASS, REFUSE))
    plays = [a for a in legal if a.kind != CLAIM]
    claims = [a for a in legal if a.kind == CLAIM]
    if claims and rng.random() < 0.3:
        return claims[rng.randrange(len(claims))]
    if rng.random() < 0.35:
        return plays[rng.randrange(len(plays))]
    caps = [a for a in plays if a.kind == CAPTURE]
    if caps:
        return max(caps, key=lambda a: (bool(((1 << a.card) | C.mask_of(a.take)) & HAYA_BIT), len(a.take)))
    return plays[rng.randrange(len(plays))]


BASELINE_W = {"card": 1.0, "diamond": 1.0, "seven": 2.0, "six": 1.0, "haya": 5.0, "sweep": 10.0}


def _baseline_worth(mask: int) -> float:
    w = BASELINE_W
    return (mask.bit_count() * w["card"] + (mask & DIAMONDS).bit_count() * w["diamond"]
            + (mask & SEVENS).bit_count() * w["seven"] + (mask & SIXES).bit_count() * w["six"]
            + (w["haya"] if mask & HAYA_BIT else 0.0))


def baseline_choose(obs: ChkobbaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The usual open-source one-move weighted heuristic, for comparison:
    fixed card weights (card 1, diamond +1, seven +2, six +1, 7D +5, sweep
    10), captures scored by weight less a sweep-risk penalty on the table left
    (10 x the chance the next player holds the table's total), lays by the
    laid card's weight plus the same penalty. Not a level of its own: medium
    must beat it (docs/agents.md)."""
    if obs.phase != PLAY:
        return word_decision(obs.phase, obs.hand, obs.table, obs.cut_card, VALUES[obs.options.faces], legal)
    view = View.of_obs(obs)
    values = view.values

    def risk(table: tuple[Card, ...]) -> float:
        if not table or view.last:
            return 0.0
        total = sum(values[c] for c in table)
        return BASELINE_W["sweep"] * view.hold(total) if total <= 10 else 0.0

    def score(a: Action) -> float:
        if a.kind == CLAIM:
            return 100 + _baseline_worth((1 << a.card) | C.mask_of(a.take))
        if a.kind == CAPTURE:
            left = tuple(x for x in view.table if x not in a.take)
            sweep = BASELINE_W["sweep"] if not left and not view.last else 0.0
            return 20 + _baseline_worth((1 << a.card) | C.mask_of(a.take)) + sweep - risk(left)
        return -_baseline_worth(1 << a.card) - risk(view.table + (a.card,))
    return max(legal, key=score)


# ------------------------------------------------------------- search model

class ChkobbaModel:
    """What the hard search needs to know about Chkobba."""

    game = "chkobba"

    def __init__(self, horizon: int = 6, solve_endgame: bool = True, infer: bool = True) -> None:
        self.horizon = horizon   # plies played out after the move before evaluating
        self.solve_endgame = solve_endgame   # two players, deck empty: solve exactly
        self.infer = infer       # weigh sampled deals by what the other player's moves reveal (1v1)
        self._evidence: tuple[ChkobbaObservation, Any] | None = None

    def determinize(self, observation: Observation, rng: random.Random) -> ChkobbaState:
        return self._determinize(chkobba_observation(observation), rng)

    def _determinize(self, obs: ChkobbaObservation, rng: random.Random) -> ChkobbaState:
        # (two players only: at four, 2v2 measured no gain, docs/agents.md)
        if not self.infer or obs.phase != PLAY or obs.players != 2 or obs.deck_left == 0:
            plain: ChkobbaState = determinize(obs, rng)
            return plain
        from .inference import Evidence, pick
        if self._evidence is None or self._evidence[0] is not obs:
            self._evidence = (obs, Evidence(obs, View, score_action))   # once per decision
        s: ChkobbaState = determinize(obs, rng)
        unseen = C.cards_of(obs.unseen_mask())
        counts = obs.hand_counts
        me = obs.seat
        hidden = sum(k for seat, k in enumerate(counts) if seat != me)

        def sample(r: random.Random) -> list[tuple[Card, ...]]:
            # only the hands: the deck's order does not change the weight
            cards = r.sample(unseen, hidden)
            hands = list(s.hands)
            i = 0
            for seat, k in enumerate(counts):
                if seat != me:
                    hands[seat] = tuple(sorted(cards[i:i + k]))
                    i += k
            return hands

        hands: list[tuple[Card, ...]] = pick(self._evidence[1], sample, rng)
        held = 0
        for h in hands:
            held |= C.mask_of(h)
        rest = [c for c in unseen if not (held >> c) & 1]
        rng.shuffle(rest)
        s.hands = hands
        s.deck = tuple(rest)
        s.pos = 0
        picked = s
        return picked

    def prior(self, observation: Observation, legal: Sequence[Action]) -> list[float]:
        obs = chkobba_observation(observation)
        if obs.phase != PLAY:
            pick = medium_choose(obs, legal, random.Random(0))
            return [1.0 if a == pick else 0.0 for a in legal]
        view = View.of_obs(obs)
        return [score_action(view, a)[0] for a in legal]

    def rollout(self, state: GameState[Observation], side: int, rng: random.Random) -> float:
        """Play on with medium for every seat, then the expected round point
        difference for ``side``."""
        return finish(self._playout(state, side, rng))

    def rollout_steps(self, state: GameState[Observation], side: int, rng: random.Random
                      ) -> Generator[None, None, float]:
        """:meth:`rollout` in pieces: a generator that pauses (yields None)
        after every move of the playout and returns the rollout's value; the
        same moves, the same draws of ``rng`` in the same order, the same value
        (``Search.step`` resumes a playout in its next time slice)."""
        return self._playout(state, side, rng)

    def _playout(self, state: GameState[Observation], side: int, rng: random.Random) -> Generator[None, None, float]:
        s = chkobba_state(state)
        start = len(s.results)
        rounds = s.round_index
        plies = 0
        while plies < self.horizon:
            p = s.phase
            if p == PLAY:
                legal = s.legal_actions()
                if len(legal) == 1:
                    a = legal[0]
                else:
                    a = legal[medium_play(View.of_state(s), legal, rng)]
            elif p in (CUT, REDEAL, ANSWER):
                seat = s.to_act()
                assert seat is not None
                cut = s.deck[0] if p == CUT else -1
                a = word_decision(p, s.hands[seat], s.table, cut, s.values, s.legal_actions())
            else:
                break
            s.play(a)
            plies += 1
            if len(s.results) > start:
                break
            yield None
        return self.evaluate(s, side, start, rounds)

    def evaluate(self, s: ChkobbaState, side: int, start: int, rounds: int) -> float:
        if len(s.results) > start:
            pts = s.results[start].points
            return float(pts[side] - pts[side ^ 1])
        if s.round_index != rounds or s.phase not in (PLAY, REDEAL, ANSWER, CUT):
            return 0.0   # a re-deal was accepted: the round starts over
        e = pile_eval(s.piles[side], s.piles[side ^ 1])
        e += len(s.chkobbas[side]) - len(s.chkobbas[side ^ 1])
        return e

    def exact(self, observation: Observation, legal: Sequence[Action]) -> list[tuple[float, float]] | None:
        """Exact values (chance of winning the game, round point difference) of
        the legal actions in a two-player last deal, else None (sample)."""
        obs = chkobba_observation(observation)
        from . import endgame
        if not self.solve_endgame or not endgame.applies(obs):
            return None
        vals = endgame.solve(obs, legal)
        return None if vals is None else [(u, float(d)) for u, d in vals]

    def exact_steps(self, observation: Observation, legal: Sequence[Action]
                    ) -> Generator[None, None, list[tuple[float, float]] | None]:
        """:meth:`exact` in pieces (``Search.step`` hands them out in time
        slices): a generator that pauses (yields None) every few positions
        solved and returns what :meth:`exact` returns."""
        obs = chkobba_observation(observation)
        from . import endgame
        if not self.solve_endgame or not endgame.applies(obs):
            return None
        vals = yield from endgame.solve_steps(obs, legal)
        return None if vals is None else [(u, float(d)) for u, d in vals]

    @staticmethod
    def exact_reason(value: tuple[float, float], best: tuple[float, float]) -> str:
        """The coach's words for a move of a solved last deal (values from
        :meth:`exact`: chance of winning the game, round point difference)."""
        chance, diff = value
        if value < best:
            if chance < best[0] - 1e-9 and best[0] >= 1.0:
                return "lets the game slip: another move wins it by force"
            lost = best[1] - diff
            if lost > 0:
                return f"gives away {lost:g} point{'s' if lost != 1 else ''} against best play"
            return "a weaker chance for the game"
        if chance >= 1.0:
            return "wins the game by force"
        if diff > 0:
            return f"wins the last deal by force (+{diff:g})"
        if diff == 0:
            return "the last deal ends level with best play"
        return f"the best the last deal allows ({diff:g})"

    def describe(self, observation: Observation, a: Action) -> JSONDict:
        """Facts about a move for the coach: what it takes, whether it sweeps,
        and the sweep risk it leaves."""
        obs = chkobba_observation(observation)
        out: JSONDict = {}
        if obs.phase != PLAY:
            cut = C.CODES[obs.cut_card] if obs.cut_card >= 0 else None
            msg = {
                KEEP: message("coach.keep", card=cut) if cut else message("coach.keep_unseen"),
                TABLE: message("coach.table", card=cut) if cut else message("coach.table_unseen"),
                PROPOSE: message("coach.propose"),
                PASS: message("coach.play_deal"),
                ACCEPT: message("coach.accept"),
                REFUSE: message("coach.play_deal"),
            }.get(a.kind) or message("coach.word", word=a.kind)
            out.update(reason=str(msg), code=msg.code, params=msg.params)
            return out
        view = View.of_obs(obs)
        value, risk = score_action(view, a)
        out["heuristic"] = round(value, 3)
        out["sweep_risk"] = round(risk, 3)
        words: list[Message] = []
        if a.kind in (CAPTURE, CLAIM):
            got = [a.card, *a.take]
            table_after = [x for x in obs.table if x not in a.take and x != (a.card if a.kind == CLAIM else -1)]
            if any((1 << c) & HAYA_BIT for c in got):
                words.append(message("coach.takes_7d", card="7D"))
            sev = sum(1 for c in got if (1 << c) & SEVENS)
            dia = sum(1 for c in got if (1 << c) & DIAMONDS)
            if sev:
                words.append(message("coach.sevens", count=sev) if sev > 1 else message("coach.one_seven"))
            if dia:
                words.append(message("coach.diamonds", count=dia) if dia > 1 else message("coach.one_diamond"))
            words.append(message("coach.cards", count=len(got)))
            if a.kind == CLAIM:
                words.insert(0, message("coach.claims"))
            sweeps = not table_after and a.kind == CAPTURE and (not view.last or obs.options.last_card_sweep)
            if sweeps or (a.kind == CLAIM and not table_after):
                words.append(message("coach.chkobba"))
                out["chkobba"] = True
        else:
            words.append(message("coach.lays", card=C.CODES[a.card]))
            if view.table and captures_on(view.table, view.values[a.card], view.values):
                words.append(message("coach.could_capture"))
        if risk >= 0.05:
            words.append(message("coach.sweep_risk", percent=round(risk * 100)))
        msg = message("coach.reason", parts=[w.to_json() for w in words])
        out.update(reason=str(msg), code=msg.code, params=msg.params)
        return out


def _as_policy(policy: Callable[[ChkobbaObservation, Sequence[Action], random.Random], Action]) -> Policy:
    def choose(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return policy(chkobba_observation(obs), legal, rng)
    return choose


# What the registry declares for Chkobba's computer players (chkobba.registry).
KIT = AgentKit(easy=_as_policy(easy_choose), medium=_as_policy(medium_choose), model=ChkobbaModel,
               budget=Budget(rollouts=600, ms=PAGE_SEARCH_MS), extra={"baseline": _as_policy(baseline_choose)})
