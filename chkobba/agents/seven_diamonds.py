"""Seven Diamonds knowledge for every level: the medium policy (blocking and
releasing by suit, with partner and opponents told apart by the public void
information), the call estimate, the easy policy and the hard search model.

The heuristics see only what the seat to act may see: its hand, the laid
cards, the hand counts and the public voids (cards a seat is known not to
hold because it was passed while they were playable). In a playout they are
run for each simulated seat on the same public part plus its own hand.
Agents never choose ``timeout``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from .. import cards as C
from ..actions import DOUBLE, LAY, PASS, TIMEOUT, TRIPLE, Action
from ..cards import Card
from ..messages import message
from ..protocol import GameState, JSONDict, Observation
from .kit import AgentKit, Policy
from .search import PAGE_SEARCH_MS, Budget, finish
from ..games.seven_diamonds.determinize import determinize_seven_diamonds
from ..games.seven_diamonds.observation import SevenDiamondsObservation, seven_diamonds_observation
from ..games.seven_diamonds.state import CALLS, DECK_MASK, NEXT, PLAY, POINTS, SEVEN_OF_DIAMONDS, SEVENS, SevenDiamondsState, \
    seven_diamonds_state
from ..games.seven_diamonds.constants import OTHER_SEVENS, points_of

PLAYERS = 4


def _no_timeout(legal: Sequence[Action]) -> list[Action]:
    return [a for a in legal if a.kind != TIMEOUT]


# ------------------------------------------------------------------ the view

class SView:
    """What the seat to act knows."""

    __slots__ = ("seat", "hand", "table", "playable", "counts", "voids", "unseen", "bonus")

    def __init__(self, seat: int, hand: int, table: int, playable: int, counts: Sequence[int],
                 voids: Sequence[int], bonus: int) -> None:
        self.seat = seat
        self.hand = hand
        self.table = table
        self.playable = playable
        self.counts = counts
        self.voids = voids
        self.unseen = DECK_MASK & ~hand & ~table
        self.bonus = bonus

    @classmethod
    def of_obs(cls, o: SevenDiamondsObservation) -> "SView":
        return cls(o.seat, o.hand, o.table, o.playable, o.hand_counts, o.voids, o.options.last_seven_bonus)

    @classmethod
    def of_state(cls, s: SevenDiamondsState) -> "SView":
        h = s.hands
        return cls(s.turn, h[s.turn], s.table, s.playable,
                   (h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count()), s.voids,
                   s.options.last_seven_bonus)

    def share(self, x: Card) -> tuple[float, float]:
        """(partner, opponents) probability of holding unseen card ``x``."""
        me = self.seat
        w = [0.0, 0.0, 0.0, 0.0]
        tot = 0.0
        for k in (1, 2, 3):
            seat = (me + k) & 3
            if not (self.voids[seat] >> x) & 1:
                w[k] = float(self.counts[seat])
                tot += w[k]
        if tot <= 0:
            return 0.0, 0.0
        return w[2] / tot, (w[1] + w[3]) / tot


def score_card(v: SView, c: Card) -> float:
    """Medium's value of laying ``c`` (higher is better)."""
    hand = v.hand
    score = 0.0
    # my own follow-ups: the run I can keep laying, and what lies above in the suit
    x = NEXT[c]
    run = 0
    while x >= 0 and (hand >> x) & 1:
        run += 1
        x = NEXT[x]
    score += 1.2 * run
    # what laying c releases to the others, up to my next card in the suit
    release_opp = 0.0
    release_partner = 0.0
    weight = 1.0
    mine_above = 0
    y = x
    while y >= 0:
        if (hand >> y) & 1:
            mine_above += 1
            weight *= 0.35     # my card blocks the suit again from there
        elif (v.unseen >> y) & 1:
            p, o = v.share(y)
            release_partner += weight * p
            release_opp += weight * o
            weight *= 0.7
        y = NEXT[y]
    if c == SEVEN_OF_DIAMONDS:
        release_opp = release_partner = 0.0   # forced opening: nothing to weigh
    opp_min = min(v.counts[(v.seat + 1) & 3], v.counts[(v.seat + 3) & 3])
    partner_left = v.counts[(v.seat + 2) & 3]
    urgency = 1.0 + (2.0 if opp_min <= 2 else 0.8 if opp_min <= 4 else 0.0)
    help_partner = 1.0 + (1.5 if partner_left <= 2 else 0.5 if partner_left <= 4 else 0.0)
    score -= urgency * release_opp
    score += 0.8 * help_partner * release_partner
    score += 0.3 * mine_above
    # shed points: what is left in my hand costs us if the others go out
    score += POINTS[c] / 25.0
    # keep a seven to go out with (bonus) when the end is near
    n = hand.bit_count()
    if (SEVENS >> c) & 1 and 2 <= n <= 3 and c != SEVEN_OF_DIAMONDS and v.bonus:
        score -= 1.5
    if n == 2 and v.bonus:
        other = hand & ~(1 << c)
        if other & SEVENS:
            score += 1.0    # lay the other one, go out with the seven
    return score


def medium_card(v: SView, legal: Sequence[Action]) -> Action:
    best = legal[0]
    best_v = -1e9
    for a in legal:
        if a.kind != LAY:
            continue
        s = score_card(v, a.card)
        if s > best_v:
            best_v = s
            best = a
    return best


# -------------------------------------------------------------------- calls

def hand_strength(hand: int) -> float:
    """A rough count of the tempo a hand has: cards it can lay on its own
    (runs up from sevens it holds), the 7D's opening, less the cards stuck
    behind gaps it needs others to fill."""
    strength = 0.0
    for suit in range(4):
        c = C.make("7", "DHSC"[suit])
        if not (hand >> c) & 1:
            # cards of a suit whose 7 I don't hold wait on the others
            strength -= 0.35 * (hand & C.SUIT_MASKS[suit]).bit_count()
            continue
        run = 0
        x: int = c
        while x >= 0 and (hand >> x) & 1:
            run += 1
            x = NEXT[x]
        strength += run
        rest = (hand & C.SUIT_MASKS[suit]).bit_count() - run
        strength -= 0.25 * rest
    if (hand >> SEVEN_OF_DIAMONDS) & 1:
        strength += 0.5
    return strength


DOUBLE_AT = 4.0
TRIPLE_AT = 4.5


def medium_call(hand: int, legal: Sequence[Action]) -> Action:
    kinds = {a.kind: a for a in legal}
    st = hand_strength(hand)
    if TRIPLE in kinds and st >= TRIPLE_AT:
        return kinds[TRIPLE]
    if DOUBLE in kinds and st >= DOUBLE_AT:
        return kinds[DOUBLE]
    return kinds[PASS]


# ----------------------------------------------------------------- policies

def medium_choose(obs: SevenDiamondsObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    legal = _no_timeout(legal)
    if obs.phase == CALLS:
        return medium_call(obs.hand, legal)
    if len(legal) == 1:
        return legal[0]
    return medium_card(SView.of_obs(obs), legal)


def easy_choose(obs: SevenDiamondsObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """A beginner: passes the calls (doubles now and then on a hand with
    sevens), lays a random fitting card."""
    legal = _no_timeout(legal)
    if obs.phase == CALLS:
        kinds = {a.kind: a for a in legal}
        if DOUBLE in kinds and (obs.hand & SEVENS).bit_count() >= 3 and rng.random() < 0.5:
            return kinds[DOUBLE]
        return kinds[PASS]
    return legal[rng.randrange(len(legal))]


# ------------------------------------------------------------ exact endings

EXACT_CARDS = 16        # cards left in all hands at which a playout is finished exactly
EXACT_NODES = 2000      # positions an exact ending may visit before giving up (then medium plays on)


class _TooBig(Exception):
    pass


_points_mask = points_of   # the points of the cards of a mask (the game's own count)


def _ending_values(bonus: int, multiplier: int, side: int) -> Callable[[list[int], int, int], float]:
    """For an exact ending: the value for team ``side`` of the round ending
    when seat ``t`` lays its last card ``c`` (``h``: the hands before it), the
    points of the cards left in the other team's hands (and the last seven's
    bonus) times the multiplier; each (team, points) worked out once."""
    ends: dict[tuple[int, int], float] = {}      # (winning team, points) -> value

    def end_value(h: list[int], t: int, c: int) -> float:
        pts = _points_mask(h[(t + 1) & 3]) + _points_mask(h[(t + 3) & 3])
        if (SEVENS >> c) & 1:
            pts += bonus
        end = ends.get((t & 1, pts))
        if end is None:
            end = float(pts * multiplier)
            if (t & 1) != side:
                end = -end
            ends[(t & 1, pts)] = end
        return end
    return end_value


def solve_ending(hands: Sequence[int], playable: int, turn: int, multiplier: int, bonus: int,
                 side: int, max_nodes: int = EXACT_NODES) -> float | None:
    """The round's point difference for team ``side`` (team = seat & 1) when
    every seat sees every hand and plays its team's best from here: the
    perfect-information value of a play-phase position (``hands`` by seat,
    ``playable`` the cards that may be laid next, ``turn`` a seat holding one
    of them). Alpha-beta with a table of solved positions; None when it
    would visit more than ``max_nodes`` positions."""
    memo: dict[tuple[int, int, int, int, int, int], tuple[float, int]] = {}
    end_value = _ending_values(bonus, multiplier, side)
    nodes = [0]
    EXACT, LOWER, UPPER = 0, 1, 2

    def value(h: list[int], pl: int, t: int, alpha: float, beta: float) -> float:
        key = (h[0], h[1], h[2], h[3], pl, t)
        hit = memo.get(key)
        if hit is not None:
            v, flag = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        nodes[0] += 1
        if nodes[0] > max_nodes:
            raise _TooBig
        a0, b0 = alpha, beta
        maxing = (t & 1) == side
        best = -1e18 if maxing else 1e18
        moves = h[t] & pl
        while moves:
            low = moves & -moves
            moves ^= low
            c = low.bit_length() - 1
            hand = h[t] ^ low
            if not hand:
                v = end_value(h, t, c)
            else:
                npl = pl ^ low
                nx = NEXT[c]
                if nx >= 0:
                    npl |= 1 << nx
                if c == SEVEN_OF_DIAMONDS:
                    npl |= OTHER_SEVENS
                h2 = list(h)
                h2[t] = hand
                s = (t + 1) & 3
                while not h2[s] & npl:
                    s = (s + 1) & 3
                v = value(h2, npl, s, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        flag = EXACT
        if best <= a0:
            flag = UPPER
        elif best >= b0:
            flag = LOWER
        memo[key] = (best, flag)
        return best

    try:
        return value(list(hands), playable, turn, -1e18, 1e18)
    except _TooBig:
        return None


STEP_NODES = 64     # positions searched between two pauses of :func:`solve_ending_steps` (well under 1 ms in CPython)


class _Frame:
    """A position being searched by :func:`solve_ending_steps`, kept while
    one of its children is searched."""
    __slots__ = ("h", "pl", "t", "alpha", "beta", "a0", "b0", "maxing", "best", "moves", "key")

    def __init__(self, h: list[int], pl: int, t: int, alpha: float, beta: float, side: int,
                 key: tuple[int, int, int, int, int, int]) -> None:
        self.h, self.pl, self.t, self.key = h, pl, t, key
        self.alpha = self.a0 = alpha
        self.beta = self.b0 = beta
        self.maxing = (t & 1) == side
        self.best = -1e18 if self.maxing else 1e18
        self.moves = h[t] & pl


def solve_ending_steps(hands: Sequence[int], playable: int, turn: int, multiplier: int, bonus: int,
                       side: int, max_nodes: int = EXACT_NODES, every: int = STEP_NODES) -> Generator[None, None, float | None]:
    """:func:`solve_ending` in pieces: a generator that pauses (yields None)
    after every ``every`` positions searched and returns the same value (or
    None: more than ``max_nodes`` positions). The same search in the same
    order (the same memo, cut-offs and count of positions), written as a loop
    over an explicit stack instead of recursion, so that one generator holds
    the whole search: a playout in pieces (:meth:`SevenModel.rollout_steps`)
    pauses inside an exact ending too (one of up to :data:`EXACT_NODES`
    positions was one piece: 4 ms in CPython, several times that on a
    phone-speed page). Keep it alike with
    :func:`solve_ending`: tests/test_seven_ending_steps.py checks they
    agree."""
    memo: dict[tuple[int, int, int, int, int, int], tuple[float, int]] = {}
    end_value = _ending_values(bonus, multiplier, side)
    every = max(1, every)
    nodes = 0
    EXACT, LOWER, UPPER = 0, 1, 2

    h0 = list(hands)
    nodes += 1              # the root (its memo is empty)
    if nodes > max_nodes:
        return None
    if nodes % every == 0:
        yield None
    stack = [_Frame(h0, playable, turn, -1e18, 1e18, side, (h0[0], h0[1], h0[2], h0[3], playable, turn))]
    got: float | None = None     # the value of the child just searched, for the frame on top
    while True:
        fr = stack[-1]
        h, pl, t, alpha, beta, maxing, best, moves = fr.h, fr.pl, fr.t, fr.alpha, fr.beta, fr.maxing, fr.best, fr.moves
        child: _Frame | None = None
        while True:
            if got is not None:
                v, got = got, None
                if maxing:
                    if v > best:
                        best = v
                    if best > alpha:
                        alpha = best
                else:
                    if v < best:
                        best = v
                    if best < beta:
                        beta = best
                if alpha >= beta:
                    break
            if not moves:
                break
            low = moves & -moves
            moves ^= low
            c = low.bit_length() - 1
            hand = h[t] ^ low
            if not hand:
                got = end_value(h, t, c)
                continue
            npl = pl ^ low
            nx = NEXT[c]
            if nx >= 0:
                npl |= 1 << nx
            if c == SEVEN_OF_DIAMONDS:
                npl |= OTHER_SEVENS
            h2 = list(h)
            h2[t] = hand
            s2 = (t + 1) & 3
            while not h2[s2] & npl:
                s2 = (s2 + 1) & 3
            key = (h2[0], h2[1], h2[2], h2[3], npl, s2)
            hit = memo.get(key)
            if hit is not None:
                hv, flag = hit
                if flag == EXACT or (flag == LOWER and hv >= beta) or (flag == UPPER and hv <= alpha):
                    got = hv
                    continue
            nodes += 1
            if nodes > max_nodes:
                return None
            fr.alpha, fr.beta, fr.best, fr.moves = alpha, beta, best, moves    # kept while the child is searched
            if nodes % every == 0:
                yield None
            child = _Frame(h2, npl, s2, alpha, beta, side, key)
            break
        if child is not None:
            stack.append(child)
            continue
        # this position is searched (no move left, or a cut-off)
        flag = EXACT
        if best <= fr.a0:
            flag = UPPER
        elif best >= fr.b0:
            flag = LOWER
        memo[fr.key] = (best, flag)
        stack.pop()
        if not stack:
            return best
        got = best


# -------------------------------------------------------------- search model

class SevenModel:
    """What the hard search needs to know about Seven Diamonds: playouts with
    medium for every seat, finished exactly (:func:`solve_ending`) once
    ``exact_cards`` cards or fewer are left in all hands, scored as the
    round's point difference for the searching team.

    The options tried and measured no better (playing for the game, what
    plays and calls reveal, a model of hard's calls) are in the tag
    ``ai-experiments-2026-12`` (docs/agents.md, "What was tried")."""

    game = "seven_diamonds"

    def __init__(self, exact_cards: int = EXACT_CARDS) -> None:
        self.exact_cards = exact_cards

    def determinize(self, observation: Observation, rng: random.Random) -> SevenDiamondsState:
        return determinize_seven_diamonds(seven_diamonds_observation(observation), rng)

    def prior(self, observation: Observation, legal: Sequence[Action]) -> list[float]:
        obs = seven_diamonds_observation(observation)
        if obs.phase == CALLS:
            pick = medium_call(obs.hand, _no_timeout(legal))
            return [1.0 if a == pick else (-1e6 if a.kind == TIMEOUT else 0.0) for a in legal]
        v = SView.of_obs(obs)
        return [score_card(v, a.card) if a.kind == LAY else -1e6 for a in legal]

    def rollout(self, state: GameState[Observation], side: int, rng: random.Random) -> float:
        return finish(self._playout(state, side, stepped=False))

    def rollout_steps(self, state: GameState[Observation], side: int, rng: random.Random
                      ) -> Generator[None, None, float]:
        """:meth:`rollout` in pieces: a generator that pauses (yields None)
        after every card the playout lays and returns the rollout's value; the
        same moves, the same value (``Search.step`` resumes a playout in its
        next time slice: a whole playout from early in a round took 50-65 ms
        of one slice on a phone-speed page, docs/main-thread.md). An exact
        ending pauses too, every :data:`STEP_NODES` positions
        (:func:`solve_ending_steps`, the same value as :func:`solve_ending`)."""
        return self._playout(state, side, stepped=True)

    def _playout(self, state: GameState[Observation], side: int, stepped: bool) -> Generator[None, None, float]:
        s = seven_diamonds_state(state)
        start = len(s.results)
        exact_at = self.exact_cards
        while len(s.results) == start:
            p = s.phase
            if p == PLAY:
                hs = s.hands
                if (hs[0] | hs[1] | hs[2] | hs[3]).bit_count() <= exact_at:
                    ending = (s.playable, s.turn, s.multiplier, s.options.last_seven_bonus, side)
                    if stepped:
                        # most endings take a few dozen positions: at once, the faster way; a
                        # bigger one again from the start in pieces (the same value either way)
                        v = solve_ending(hs, *ending, max_nodes=min(STEP_NODES, EXACT_NODES))
                        if v is None:
                            v = yield from solve_ending_steps(hs, *ending)
                    else:
                        v = solve_ending(hs, *ending)
                    if v is not None:
                        return v
                    exact_at = -1    # too big after all: medium plays on
                h = s.hands[s.turn] & s.playable
                if not h & (h - 1):
                    c = h.bit_length() - 1
                    s.play(Action(LAY, c))
                    continue
                legal = [Action(LAY, c) for c in C.cards_of(h)]
                s.play(medium_card(SView.of_state(s), legal))
                yield None
            elif p == CALLS:
                legal = _no_timeout(s.legal_actions())
                s.play(medium_call(s.hands[s.turn], legal))
            else:
                return 0.0
        pts = s.results[start].points
        return float(pts[side] - pts[side ^ 1])

    def describe(self, observation: Observation, a: Action) -> JSONDict:
        obs = seven_diamonds_observation(observation)
        out: JSONDict = {}
        if a.kind == LAY:
            v = SView.of_obs(obs)
            out["heuristic"] = round(score_card(v, a.card), 3)
            words = [message("coach.lays", card=C.CODES[a.card])]
            x = NEXT[a.card]
            run = 0
            while x >= 0 and (obs.hand >> x) & 1:
                run += 1
                x = NEXT[x]
            if run:
                words.append(message("coach.follow", count=run))
            elif x >= 0 and (v.unseen >> x) & 1:
                words.append(message("coach.opens", card=C.CODES[x]))
            if POINTS[a.card]:
                words.append(message("coach.sheds", points=POINTS[a.card]))
            msg = message("coach.reason", parts=[w.to_json() for w in words])
            out.update(reason=str(msg), code=msg.code, params=msg.params)
        elif a.kind in (DOUBLE, TRIPLE, PASS):
            out["hand_strength"] = round(hand_strength(obs.hand), 2)
            msg = message("coach.call", call=a.kind, strength=f"{hand_strength(obs.hand):.1f}")
            out.update(reason=str(msg), code=msg.code, params=msg.params)
        return out

    def exact(self, observation: Observation, legal: Sequence[Action]) -> list[tuple[float, float]] | None:
        """No position is solved before sampling (playouts finish exactly instead)."""
        return None

    @staticmethod
    def exact_reason(value: tuple[float, float], best: tuple[float, float]) -> str:
        return ""



def _as_policy(policy: Callable[[SevenDiamondsObservation, Sequence[Action], random.Random], Action]) -> Policy:
    def choose(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return policy(seven_diamonds_observation(obs), legal, rng)
    return choose


# What the registry declares for Seven Diamonds' computer players (chkobba.registry).
KIT = AgentKit(easy=_as_policy(easy_choose), medium=_as_policy(medium_choose), model=SevenModel,
               budget=Budget(rollouts=300, ms=PAGE_SEARCH_MS))
