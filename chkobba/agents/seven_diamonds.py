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

import math
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
from ..games.seven_diamonds.constants import LAID, OTHER_SEVENS, PASSED, TIMED_OUT, points_of

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


def _ending_values(bonus: int, multiplier: int, side: int, score: Sequence[int] | None,
                   target: int) -> Callable[[list[int], int, int], float]:
    """For an exact ending: the value for team ``side`` of the round ending
    when seat ``t`` lays its last card ``c`` (``h``: the hands before it), the
    points of the cards left in the other team's hands (and the last seven's
    bonus) times the multiplier, or with ``score`` the game's chance from the
    new score; each (team, points) worked out once."""
    ends: dict[tuple[int, int], float] = {}      # (winning team, points) -> value

    def end_value(h: list[int], t: int, c: int) -> float:
        pts = _points_mask(h[(t + 1) & 3]) + _points_mask(h[(t + 3) & 3])
        if (SEVENS >> c) & 1:
            pts += bonus
        end = ends.get((t & 1, pts))
        if end is None:
            if score is not None:
                after = [score[0], score[1]]
                after[t & 1] += pts * multiplier
                end = GAME_SCALE * game_value(after, side, target)
            else:
                end = float(pts * multiplier)
                if (t & 1) != side:
                    end = -end
            ends[(t & 1, pts)] = end
        return end
    return end_value


def solve_ending(hands: Sequence[int], playable: int, turn: int, multiplier: int, bonus: int,
                 side: int, max_nodes: int = EXACT_NODES, score: Sequence[int] | None = None,
                 target: int = 0) -> float | None:
    """The round's point difference for team ``side`` (team = seat & 1) when
    every seat sees every hand and plays its team's best from here: the
    perfect-information value of a play-phase position (``hands`` by seat,
    ``playable`` the cards that may be laid next, ``turn`` a seat holding one
    of them). Alpha-beta with a table of solved positions; None when it
    would visit more than ``max_nodes`` positions. With ``score`` (the
    game's score before this round) an ending is worth ``GAME_SCALE`` times
    the chance that ``side`` wins the game from the new score instead."""
    memo: dict[tuple[int, int, int, int, int, int], tuple[float, int]] = {}
    end_value = _ending_values(bonus, multiplier, side, score, target)
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
                       side: int, max_nodes: int = EXACT_NODES, score: Sequence[int] | None = None,
                       target: int = 0, every: int = STEP_NODES) -> Generator[None, None, float | None]:
    """:func:`solve_ending` in pieces: a generator that pauses (yields None)
    after every ``every`` positions searched and returns the same value (or
    None: more than ``max_nodes`` positions). The same search in the same
    order (the same memo, cut-offs and count of positions), written as a loop
    over an explicit stack instead of recursion, so that one generator holds
    the whole search: a playout in pieces (:meth:`SevenModel.rollout_steps`)
    pauses inside an exact ending too (one of up to :data:`EXACT_NODES`
    positions was one piece: 4 ms in CPython, several times that on a
    phone-speed page; docs/main-thread.md, seventh pass). Keep it alike with
    :func:`solve_ending`: tests/test_seven_ending_steps.py checks they
    agree."""
    memo: dict[tuple[int, int, int, int, int, int], tuple[float, int]] = {}
    end_value = _ending_values(bonus, multiplier, side, score, target)
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


# ------------------------------------------------------- playing for the game

# The round points a team wins, in tens, in medium-against-medium rounds
# (3,633 rounds, multiplier x1, the 200 bonus included): how often each.
ROUND_TENS: dict[int, int] = {
    0: 2, 1: 14, 2: 210, 3: 500, 4: 641, 5: 593, 6: 538, 7: 354, 8: 250, 9: 112, 10: 81, 11: 24,
    12: 28, 13: 3, 14: 13, 16: 15, 18: 9, 20: 8, 22: 7, 23: 8, 24: 24, 25: 46, 26: 53, 27: 38,
    28: 18, 29: 17, 30: 9, 31: 2, 32: 2, 33: 1, 46: 1, 48: 3, 52: 4, 58: 1, 60: 2, 62: 1, 64: 1}
# Hard players double and triple most rounds (about 190 points a round
# between two hards against about 60 between mediums): the multiplier of a
# future round, and how often.
FUTURE_MULTIPLIERS = ((3, 0.75), (2, 0.15), (1, 0.10))
GAME_SCALE = 1000.0     # a game's win counts this many round points in the search

_game_tables: dict[int, list[list[float]]] = {}


def game_table(target: int) -> list[list[float]]:
    """``W[u][t]``: the chance that the team still needing ``u`` tens of
    points wins the game against a team needing ``t`` tens (both >= 1),
    when each future round is won by either team with even chances and
    brings the winner points drawn from :data:`ROUND_TENS` times a
    multiplier drawn from :data:`FUTURE_MULTIPLIERS`."""
    w = _game_tables.get(target)
    if w is not None:
        return w
    n = max(1, -(-target // 10))
    total = sum(ROUND_TENS.values())
    dist: dict[int, float] = {}
    for tens, k in ROUND_TENS.items():
        for m, pm in FUTURE_MULTIPLIERS:
            dist[tens * m] = dist.get(tens * m, 0.0) + pm * k / total
    p0 = dist.pop(0, 0.0)
    support = sorted((x, 0.5 * px) for x, px in dist.items())
    # reach[u]: the chance that a round ends the game for the team needing u
    reach = [0.0] * (n + 1)
    for u in range(1, n + 1):
        reach[u] = sum(px for x, px in support if x >= u)
    w = [[0.0] * (n + 1) for _ in range(n + 1)]
    for u in range(1, n + 1):
        wu = w[u]
        for t in range(1, n + 1):
            acc = reach[u]
            for x, px in support:            # we win the round, short of the target
                if x >= u:
                    break
                acc += px * w[u - x][t]
            for x, px in support:            # they win it, short of the target
                if x >= t:
                    break
                acc += px * wu[t - x]
            wu[t] = acc / (1.0 - p0)
    _game_tables[target] = w
    return w


def game_value(score: Sequence[int], side: int, target: int) -> float:
    """The chance that team ``side`` wins the game from ``score`` (a team at
    the target has won)."""
    if score[side] >= target:
        return 1.0
    if score[side ^ 1] >= target:
        return 0.0
    w = game_table(target)
    return w[-(-(target - score[side]) // 10)][-(-(target - score[side ^ 1]) // 10)]


# ------------------------------------------------------- what plays reveal

INFER_TEMPERATURE = 1.0   # medium's card scores; lower trusts the model of the others more
INFER_CANDIDATES = 4      # sampled deals drawn to pick one from, by weight
INFER_MOVES = 12          # the other seats' latest plays weighed (older ones cost time, say less)


class _PastView(SView):
    """A seat's view before one of its past plays, with the hand left open
    (each sampled deal sets it) and the partner/opponent shares, which
    depend only on public facts, worked out once."""

    __slots__ = ("shares",)

    def __init__(self, seat: int, table: int, playable: int, counts: Sequence[int], voids: Sequence[int],
                 bonus: int) -> None:
        super().__init__(seat, 0, table, playable, counts, voids, bonus)
        self.shares = [SView.share(self, x) for x in range(len(NEXT))]

    def share(self, x: Card) -> tuple[float, float]:
        return self.shares[x]

    def set_hand(self, hand: int) -> None:
        self.hand = hand
        self.unseen = DECK_MASK & ~hand & ~self.table


class SevenEvidence:
    """The other seats' plays of the current round, ready to weigh sampled
    deals: a play chosen among several fitting cards is taken as chosen with
    probability proportional to ``exp(medium's score / INFER_TEMPERATURE)``,
    scored from that seat's view at the time (its hand then: the sample's
    hand plus the cards it laid since)."""

    def __init__(self, obs: SevenDiamondsObservation) -> None:
        # (seat, card, playable, the seat's view) before each play
        self.moves: list[tuple[int, Card, int, _PastView]] = []
        self.later: list[int] = []     # the cards the seat laid after each of those moves
        self.bonus = obs.options.last_seven_bonus
        if obs.phase != PLAY:
            return
        table = 0
        playable = 1 << SEVEN_OF_DIAMONDS
        counts = [8, 8, 8, 8]
        voids = [0, 0, 0, 0]
        raw: list[tuple[int, Card, int, int, tuple[int, ...], tuple[int, ...]]] = []
        me = obs.seat
        timed = -1     # a seat whose time ran out: its next lay was the game's, not its choice
        for e in obs.events:
            if e.kind == TIMED_OUT:
                timed = e.seat
            elif e.kind == LAID:
                c = e.card
                if e.seat != me and e.seat != timed:
                    raw.append((e.seat, c, table, playable, tuple(counts), tuple(voids)))
                table |= 1 << c
                playable &= ~(1 << c)
                if NEXT[c] >= 0:
                    playable |= 1 << NEXT[c]
                if c == SEVEN_OF_DIAMONDS:
                    playable |= OTHER_SEVENS
                counts[e.seat] -= 1
                timed = -1
            elif e.kind == PASSED:
                voids[e.seat] |= playable
        if tuple(counts) != tuple(obs.hand_counts):   # not the round as replayed (should not happen)
            return
        self.moves = [(seat, c, playable, _PastView(seat, table, playable, cn, vd, self.bonus))
                      for seat, c, table, playable, cn, vd in raw[-INFER_MOVES:]]
        laid = [0, 0, 0, 0]
        for seat, c, *_ in reversed(self.moves):
            self.later.append(laid[seat])
            laid[seat] |= 1 << c
        self.later.reverse()

    def log_weight(self, hands: Sequence[int]) -> float:
        """The log-likelihood of the recorded plays were ``hands`` the hands now."""
        total = 0.0
        T = INFER_TEMPERATURE
        for (seat, c, playable, v), later in zip(self.moves, self.later):
            hand = hands[seat] | later | (1 << c)
            legal = hand & playable
            if not legal & (legal - 1):
                continue
            v.set_hand(hand)
            scores = [score_card(v, x) for x in C.cards_of(legal)]
            top = max(scores)
            z = sum(math.exp((x - top) / T) for x in scores)
            total += (score_card(v, c) - top) / T - math.log(z)
        return total


# ------------------------------------------------- a calls model (Wave 7, off)

# Hard's own calls as logistic models of the hand: the chance a seat that may
# double does, and one that may triple does, from (1, hand_strength, sevens
# held, the 7D held, points_of(hand) / 100). Fitted to hard's calls at the
# page's budget on 300 dealt rounds, 968 calls (docs/agents.md "Wave 7"):
#   nice -n 19 python bench/seven_calls.py measure --deals 300 --seed 1 --worlds 200 --log calls.jsonl
#   python bench/seven_calls.py fit calls.jsonl
# What a hand's points say is most of it: hard doubles with few aces and faces
# (the cards it would be caught with), whatever its sevens.
CALL_WEIGHTS: dict[str, tuple[float, float, float, float, float]] = {
    DOUBLE: (5.104, -0.116, -0.015, -0.585, -11.272),
    TRIPLE: (3.922, -0.573, 1.036, -0.461, -12.747),
}
CALL_CANDIDATES = 6     # sampled deals drawn to pick one from, by how well they explain the calls


def call_chance(hand: int, kind: str) -> float:
    """The calls model's chance that a seat holding ``hand`` (its 8 cards)
    says ``kind`` (double or triple) when it may."""
    w = CALL_WEIGHTS[kind]
    z = (w[0] + w[1] * hand_strength(hand) + w[2] * (hand & SEVENS).bit_count()
         + w[3] * ((hand >> SEVEN_OF_DIAMONDS) & 1) + w[4] * points_of(hand) / 100.0)
    if z < -30.0:
        return 1e-13
    return 1.0 / (1.0 + math.exp(-z))


def model_call(hand: int, legal: Sequence[Action]) -> Action:
    """The calls model's most likely call (the playouts' calls when the model is on)."""
    kinds = {a.kind: a for a in legal}
    for k in (TRIPLE, DOUBLE):
        if k in kinds and call_chance(hand, k) >= 0.5:
            return kinds[k]
    return kinds[PASS]


class CallEvidence:
    """The other seats' calls of the current round, ready to weigh sampled
    deals: each call made with a choice (double or pass when nobody had
    doubled; triple or pass after the other team's double) is taken as made
    with :func:`call_chance` of the seat's 8 cards then (the sample's hand
    plus the cards it laid since). A call made for a timed-out seat says nothing."""

    def __init__(self, obs: SevenDiamondsObservation) -> None:
        self.calls: list[tuple[int, str, bool]] = []   # (seat, the call it could make, made it)
        self.laid = [0, 0, 0, 0]
        doubler = -1
        tripled = False
        timed = -1
        for e in obs.events:
            k = e.kind
            if k == TIMED_OUT:
                timed = e.seat
                continue
            if k in (DOUBLE, TRIPLE, PASS):
                choice = DOUBLE if doubler < 0 else TRIPLE if not tripled and e.seat & 1 != doubler else ""
                if choice and e.seat != obs.seat and e.seat != timed:
                    self.calls.append((e.seat, choice, k != PASS))
                if k == DOUBLE:
                    doubler = e.seat & 1
                elif k == TRIPLE:
                    tripled = True
            elif k == LAID:
                self.laid[e.seat] |= 1 << e.card
            timed = -1

    def log_weight(self, hands: Sequence[int]) -> float:
        """The log-likelihood of the recorded calls were ``hands`` the hands now."""
        total = 0.0
        for seat, kind, made in self.calls:
            p = call_chance(hands[seat] | self.laid[seat], kind)
            total += math.log(p if made else max(1e-13, 1.0 - p))
        return total


# -------------------------------------------------------------- search model

class SevenModel:
    """What the hard search needs to know about Seven Diamonds: playouts with
    medium for every seat, finished exactly (:func:`solve_ending`) once
    ``exact_cards`` cards or fewer are left in all hands, scored as the
    round's point difference for the searching team.

    Options measured and left off (docs/agents.md, "Wave 4"): ``for_game``
    scores playouts by the chance of winning the game from the new score
    (:func:`game_value`); ``infer`` draws each sampled deal from
    :data:`INFER_CANDIDATES` by how well it explains the other seats' plays
    (:class:`SevenEvidence`). ``calls_model`` ("Wave 7"): the playouts' seats
    call as the calls model says hard does (:func:`model_call`, not medium's
    hand-strength rule, which almost never calls), and each sampled deal is
    drawn from :data:`CALL_CANDIDATES` by how well it explains the other
    seats' calls (:class:`CallEvidence`), in the calls and, unless
    ``calls_in_play`` is off, all through the round's play."""

    game = "seven_diamonds"

    def __init__(self, exact_cards: int = EXACT_CARDS, for_game: bool = False, infer: bool = False,
                 calls_model: bool = False, calls_in_play: bool = True) -> None:
        self.exact_cards = exact_cards
        self.for_game = for_game
        self.infer = infer
        self.calls_model = calls_model
        self.calls_in_play = calls_in_play     # with calls_model: weigh deals by the calls in play too
        self._evidence: tuple[SevenDiamondsObservation, SevenEvidence] | None = None
        self._calls: tuple[SevenDiamondsObservation, CallEvidence] | None = None

    def determinize(self, observation: Observation, rng: random.Random) -> SevenDiamondsState:
        obs = seven_diamonds_observation(observation)
        evidence: SevenEvidence | None = None
        calls: CallEvidence | None = None
        if self.infer and obs.phase == PLAY:
            ev = self._evidence
            if ev is None or ev[0] is not obs:
                ev = self._evidence = (obs, SevenEvidence(obs))
            evidence = ev[1] if ev[1].moves else None
        if self.calls_model and (obs.phase == CALLS or (obs.phase == PLAY and self.calls_in_play)):
            cv = self._calls
            if cv is None or cv[0] is not obs:
                cv = self._calls = (obs, CallEvidence(obs))
            calls = cv[1] if cv[1].calls else None
        if evidence is None and calls is None:
            return determinize_seven_diamonds(obs, rng)
        n = max(INFER_CANDIDATES if evidence is not None else 0, CALL_CANDIDATES if calls is not None else 0)
        worlds = [determinize_seven_diamonds(obs, rng) for _ in range(n)]
        logs = [(evidence.log_weight(w.hands) if evidence is not None else 0.0)
                + (calls.log_weight(w.hands) if calls is not None else 0.0) for w in worlds]
        top = max(logs)
        return worlds[rng.choices(range(len(worlds)), [math.exp(x - top) for x in logs])[0]]

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
                    game = s.score if self.for_game else None
                    if stepped:
                        # most endings take a few dozen positions: at once, the faster way; a
                        # bigger one again from the start in pieces (the same value either way)
                        v = solve_ending(hs, *ending, max_nodes=min(STEP_NODES, EXACT_NODES), score=game,
                                         target=s.options.target)
                        if v is None:
                            v = yield from solve_ending_steps(hs, *ending, score=game, target=s.options.target)
                    else:
                        v = solve_ending(hs, *ending, score=game, target=s.options.target)
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
                s.play((model_call if self.calls_model else medium_call)(s.hands[s.turn], legal))
            else:
                return 0.0
        pts = s.results[start].points
        if self.for_game:
            return GAME_SCALE * game_value(s.score, side, s.options.target)
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

    def game_chance(self, value: float) -> float | None:
        """Playouts are scored in round points: no chance of the game to show."""
        return None


def _as_policy(policy: Callable[[SevenDiamondsObservation, Sequence[Action], random.Random], Action]) -> Policy:
    def choose(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return policy(seven_diamonds_observation(obs), legal, rng)
    return choose


# What the registry declares for Seven Diamonds' computer players (chkobba.registry).
KIT = AgentKit(easy=_as_policy(easy_choose), medium=_as_policy(medium_choose), model=SevenModel,
               budget=Budget(rollouts=300, ms=PAGE_SEARCH_MS))
