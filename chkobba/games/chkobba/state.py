"""The Chkobba engine: a whole match, from the cut to the last game.

A :class:`ChkobbaState` is mutable but cheap to copy: hands and the table are
tuples, piles are bit masks, the deck is a shared tuple with a position, and
the round's action log is a linked list of shared cells. ``apply`` returns a
new state and leaves its input alone; ``play`` changes a state in place, for
search. Randomness never lives here: a new deck is given with :meth:`deal`.

Legality has one home, :meth:`legal_actions`; :meth:`apply` refuses anything
else with :class:`IllegalAction`, whose message :meth:`explain` writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter

from ... import cards as C
from ...actions import (ACCEPT, CAPTURE, CLAIM, KEEP, LAY, ORDER, PASS, PROPOSE, REFUSE, TABLE,
                      Action, parse_action, word)
from ...cards import CODES, Card
from ...errors import IllegalAction, InvalidAction
from ...messages import Message, message, quote
from ...protocol import GameState, JSONDict, Log, Observation, StateBase
from .observation import ChkobbaObservation, observe_chkobba
from .options import ChkobbaOptions
from .view import describe_moves, view
from .constants import (ANSWER, CHKOBBA_RANKS, CUT, DEAL, DECK, DECK_MASK, DIAMONDS, HAYA_BIT, OVER,  # noqa: F401
                        PLAY, REDEAL, SEVEN_OF_DIAMONDS, SEVENS, SIXES, VALUES, card_values)


__all__ = ["ChkobbaState", "chkobba_state", "RoundResult", "score_round", "captures_on", "side_of", "describe_bad_deck",
           "ANSWER", "CHKOBBA_RANKS", "CUT", "DEAL", "DECK", "DECK_MASK", "DIAMONDS", "HAYA_BIT", "OVER", "PLAY",
           "REDEAL", "SEVEN_OF_DIAMONDS", "SEVENS", "SIXES", "VALUES", "card_values", "ChkobbaObservation"]

_LAYS: tuple[Action, ...] = tuple(Action(LAY, c) for c in range(52))


def side_of(seat: int) -> int:
    """The side (pile) a seat plays for: the seat itself with two players,
    partners ``seat % 2`` with four."""
    return seat & 1


@dataclass(frozen=True)
class RoundResult:
    """A finished round's scoring, with the counts behind each point."""

    game: int
    karta: tuple[int, int]
    dinari: tuple[int, int]
    barmila: tuple[int, int]
    haya: tuple[int, int]
    chkobba: tuple[int, int]
    points: tuple[int, int]
    cards: tuple[int, int]
    diamonds: tuple[int, int]
    sevens: tuple[int, int]
    sixes: tuple[int, int]
    leftovers: tuple[Card, ...]
    leftovers_to: int | None
    all_diamonds: int | None
    # the side that won the game this round ended (None: the game goes on),
    # and how: "target" or "all_diamonds"; not part of the replay output
    game_winner: int | None = None
    game_won_by: str | None = None

    def to_dict(self) -> JSONDict:
        """The replay output's entry for this round (RECORDS.md)."""
        return {"karta": list(self.karta), "dinari": list(self.dinari), "barmila": list(self.barmila),
                "haya": list(self.haya), "chkobba": list(self.chkobba), "points": list(self.points),
                "game": self.game}

    def details(self) -> JSONDict:
        d = self.to_dict()
        d.update(cards=list(self.cards), diamonds=list(self.diamonds), sevens=list(self.sevens),
                 sixes=list(self.sixes), leftovers=C.codes(self.leftovers), leftovers_to=self.leftovers_to,
                 all_diamonds=self.all_diamonds)
        return d


_MOST = ((0, 0), (1, 0), (0, 1))  # who has more, by (a > b) - (b > a): equal, a, b


def score_round(piles: Sequence[int], chkobbas: Sequence[int], game: int,
                leftovers: tuple[Card, ...] = (), leftovers_to: int | None = None) -> RoundResult:
    """Score a round from the two sides' piles (bit masks) and chkobba counts."""
    p0 = piles[0]
    p1 = piles[1]
    c0 = p0.bit_count()
    c1 = p1.bit_count()
    d0 = (p0 & DIAMONDS).bit_count()
    d1 = (p1 & DIAMONDS).bit_count()
    s0 = (p0 & SEVENS).bit_count()
    s1 = (p1 & SEVENS).bit_count()
    x0 = (p0 & SIXES).bit_count()
    x1 = (p1 & SIXES).bit_count()
    karta = _MOST[(c0 > c1) - (c1 > c0)]
    dinari = _MOST[(d0 > d1) - (d1 > d0)]
    barmila = _MOST[(s0 > s1) - (s1 > s0)] if s0 != s1 else _MOST[(x0 > x1) - (x1 > x0)]
    haya = (1, 0) if p0 & HAYA_BIT else (0, 1) if p1 & HAYA_BIT else (0, 0)
    k0 = chkobbas[0]
    k1 = chkobbas[1]
    points = (karta[0] + dinari[0] + barmila[0] + haya[0] + k0, karta[1] + dinari[1] + barmila[1] + haya[1] + k1)
    all_d = 0 if d0 == 10 else 1 if d1 == 10 else None
    # RoundResult(...) without the frozen dataclass's field-by-field __init__: the same object, faster
    r = object.__new__(RoundResult)
    r.__dict__.update(game=game, karta=karta, dinari=dinari, barmila=barmila, haya=haya, chkobba=(k0, k1),
                      points=points, cards=(c0, c1), diamonds=(d0, d1), sevens=(s0, s1), sixes=(x0, x1),
                      leftovers=leftovers, leftovers_to=leftovers_to, all_diamonds=all_d, game_winner=None,
                      game_won_by=None)
    return r


_CAPTURE_CACHE: dict[int, list[tuple[Card, ...]]] = {}


def _sums(items: list[Card], vals: list[int], v: int) -> list[tuple[Card, ...]]:
    """Every set of two or more of ``items`` (values ``vals``, each < v) adding up to ``v``."""
    out: list[tuple[Card, ...]] = []
    n = len(items)
    stack: list[tuple[int, int, tuple[Card, ...]]] = [(0, v, ())]
    while stack:
        i, left, chosen = stack.pop()
        for j in range(n - 1, i - 1, -1):
            x = vals[j]
            if x < left:
                stack.append((j + 1, left - x, chosen + (items[j],)))
            elif x == left and chosen:
                out.append(chosen + (items[j],))
    if len(out) > 1:
        out.sort(key=lambda t: [ORDER[c] for c in t])
    return out


def _first(t: tuple[Card, ...]) -> int:
    return ORDER[t[0]]


def captures_on(table: tuple[Card, ...], v: int, values: tuple[int, ...]) -> list[tuple[Card, ...]]:
    """Every capture a card of value ``v`` may make on ``table``.

    Value before sum: if a table card has value ``v`` the captures are exactly
    those single cards; otherwise every set of two or more cards adding up to
    ``v``. Each capture is in canonical order and the list is sorted. Sums are
    cached by table and value: search meets the same tables again and again.
    """
    singles: list[tuple[Card, ...]] = [(c,) for c in table if values[c] == v]
    if singles:
        if len(singles) > 1:
            singles.sort(key=_first)
        return singles
    return _sum_captures(table, v, values)


def _sum_captures(table: tuple[Card, ...], v: int, values: tuple[int, ...]) -> list[tuple[Card, ...]]:
    """The captures by sum of a card of value ``v`` (no table card has value ``v``)."""
    key = v << 56 | values[37] << 52  # 37 = QS: tells the two face orders apart
    for c in table:
        key |= 1 << c
    hit = _CAPTURE_CACHE.get(key)
    if hit is None:
        small = sorted([c for c in table if values[c] < v], key=ORDER.__getitem__)
        hit = _sums(small, [values[c] for c in small], v) if len(small) > 1 else []
        if len(_CAPTURE_CACHE) > 300_000:
            _CAPTURE_CACHE.clear()
        _CAPTURE_CACHE[key] = hit
    return hit


# Tables of the legal-action generator. A table's summary is the sum of
# _SUMMARY[face order][card] over its cards: its value histogram in the low
# 48 bits, four bits per value (the count of table cards of value v at bits
# 4v..4v+3), and its card mask above (card t at bit 48 + t); _OF_VALUE[face
# order][v] picks the cards of value v there. Captures of one card are
# preallocated (_CAPTURE_ONE[c * 52 + t]: c takes t; _CLAIM_ONE likewise).
# Captures by sum of a card of value v use only the table cards below v: a
# recipe list, cached by their histogram and v, holds one item getter per
# capture, picking it from those cards in canonical order (ORDER), the list
# itself in canonical order (positions in that order sort like the cards).
# With no table card of value v (else there is no sum), the cards below v are
# the first ones of the whole table in canonical order (rank order puts every
# value below v before every value above it), so the getters apply to that.
_SUMMARY: dict[int, tuple[int, ...]] = {
    vals[37]: tuple(1 << (vals[c] << 2) | 1 << (48 + c) if vals[c] else 0 for c in range(52))
    for vals in VALUES.values()}  # by face order: 37 = QS, worth 8 or 9
# The last table summarized, with its summary and reach, by face order: the
# next seat's claims are on that very table (the same tuple) after a lay. A
# table's reach has bit s set when some of its cards add up to s (bit 0: none
# of them), for s up to 10: a card of a value out of reach captures nothing.
_LAST_SUMMARY: list[tuple[tuple[Card, ...] | None, int, int]] = [(None, 0, 1)] * 10
_OF_VALUE: dict[int, tuple[int, ...]] = {
    vals[37]: tuple(C.mask_of(c for c in DECK if vals[c] == v) << 48 for v in range(11))
    for vals in VALUES.values()}
_HLOW: tuple[int, ...] = tuple(((1 << (v << 2)) - 1) & ~15 for v in range(11))
# By face order and card c of value v, for the loop over a hand: (its bit in
# a reach: 1 << v, 4v, the histogram bits below v, v and the face order as a
# recipe key's tag, the summary bits of the cards of value v, c * 52).
_CARD_INFO: dict[int, tuple[tuple[int, int, int, int, int, int], ...]] = {
    vals[37]: tuple((1 << vals[c], vals[c] << 2, _HLOW[vals[c]], vals[c] << 44 | vals[37] << 48,
                     _OF_VALUE[vals[37]][vals[c]], c * 52) for c in range(52))
    for vals in VALUES.values()}
_VALUES_IN_ORDER: dict[int, tuple[int, ...]] = {
    vals[37]: tuple(vals[C.make(r, "D")] for r in C.RANKS if vals[C.make(r, "D")]) for vals in VALUES.values()}
_CAPTURE_ONE: tuple[Action, ...] = tuple(Action(CAPTURE, c, (t,)) for c in range(52) for t in range(52))
_CLAIM_ONE: tuple[Action, ...] = tuple(Action(CLAIM, c, (t,)) for c in range(52) for t in range(52))
_RECIPES: dict[int, tuple[Callable[[list[Card]], tuple[Card, ...]], ...]] = {}
_new_action = tuple.__new__
_ORDER_KEY = ORDER.__getitem__


def _recipes(key: int, v: int, fk: int) -> tuple[Callable[[list[Card]], tuple[Card, ...]], ...]:
    """The capture recipes of a card of value ``v`` on table cards below it
    whose histogram is in ``key`` (see _RECIPES), cached."""
    vals: list[int] = []
    for x in _VALUES_IN_ORDER[fk]:
        if x < v:
            vals += [x] * (key >> (x << 2) & 15)
    n = len(vals)
    # reach[j]: bit s set when some of vals[j:] add up to s (bit 0: none of
    # them); a card is added only if what is left can still be made after it
    full = (2 << v) - 1
    reach = [1] * (n + 1)
    for j in range(n - 1, -1, -1):
        r = reach[j + 1]
        reach[j] = r | r << vals[j] & full
    found: list[tuple[int, ...]] = []
    stack: list[tuple[int, int, tuple[int, ...]]] = [(0, v, ())]
    while stack:
        i, left, chosen = stack.pop()
        for j in range(i, n):
            x = vals[j]
            if x < left:
                if reach[j + 1] >> (left - x) & 1:
                    stack.append((j + 1, left - x, chosen + (j,)))
            elif x == left and chosen:
                found.append(chosen + (j,))
    found.sort()
    out = tuple([itemgetter(*idx) for idx in found])
    if len(_RECIPES) > 100_000:
        _RECIPES.clear()
    _RECIPES[key] = out
    return out


class ChkobbaState(StateBase):
    """A Chkobba match in progress. See the module docstring."""

    game = "chkobba"

    __slots__ = ("options", "n", "values", "phase", "dealer", "deck", "pos", "hands", "table",
                 "piles", "chkobbas", "last_capturer", "turn", "claim", "proposer", "score", "games",
                 "game_index", "results", "log", "log_len", "winner", "redeal_next", "round_index",
                 "last_actor", "needs_deal", "is_over")

    options: ChkobbaOptions
    n: int
    values: tuple[int, ...]
    phase: str
    dealer: int
    deck: tuple[Card, ...]
    pos: int
    hands: list[tuple[Card, ...]]
    table: tuple[Card, ...]
    piles: list[int]
    chkobbas: list[tuple[Card, ...]]
    last_capturer: int
    turn: int
    claim: tuple[Card, tuple[Card, ...]] | None
    proposer: int
    score: tuple[int, int]
    games: tuple[int, int]
    game_index: int
    results: tuple[RoundResult, ...]
    log: Log
    log_len: int
    winner: int | None
    redeal_next: bool
    round_index: int
    last_actor: int
    # phase == DEAL and phase == OVER, kept as plain attributes (set wherever
    # the phase becomes or leaves DEAL or OVER): every driving loop asks them
    # after every action, and a property costs several times an attribute
    needs_deal: bool
    is_over: bool

    # ------------------------------------------------------------------ set-up
    @classmethod
    def options_class(cls) -> type[ChkobbaOptions]:
        return ChkobbaOptions

    @classmethod
    def full_deck(cls) -> tuple[Card, ...]:
        return DECK

    @classmethod
    def new(cls, options: ChkobbaOptions | Mapping[str, object] | None = None, first_dealer: int = 0,
            deck: Sequence[Card] | None = None) -> "ChkobbaState":
        """A new match; ``first_dealer`` deals the first round. Without a deck
        the state waits in the ``deal`` phase for :meth:`deal`."""
        if not isinstance(options, ChkobbaOptions):
            options = ChkobbaOptions.from_dict(options)
        s = cls.__new__(cls)
        s.options = options
        s.n = options.players
        if type(first_dealer) is not int or not 0 <= first_dealer < s.n:
            raise InvalidAction("deal.first_dealer", last=s.n - 1, value=quote(first_dealer))
        s.values = VALUES[options.faces]
        s.phase = DEAL
        s.needs_deal = True
        s.is_over = False
        s.dealer = first_dealer
        s.deck = ()
        s.pos = 0
        s.hands = [()] * s.n
        s.table = ()
        s.piles = [0, 0]
        s.chkobbas = [(), ()]
        s.last_capturer = -1
        s.turn = -1
        s.claim = None
        s.proposer = -1
        s.score = (0, 0)
        s.games = (0, 0)
        s.game_index = 0
        s.results = ()
        s.log = None
        s.log_len = 0
        s.winner = None
        s.redeal_next = False
        s.round_index = -1
        s.last_actor = -1
        if deck is not None:
            s.deal(deck)
        return s

    def copy(self) -> "ChkobbaState":
        s = ChkobbaState.__new__(ChkobbaState)
        s.options = self.options
        s.n = self.n
        s.values = self.values
        s.phase = self.phase
        s.dealer = self.dealer
        s.deck = self.deck
        s.pos = self.pos
        s.hands = self.hands[:]
        s.table = self.table
        s.piles = self.piles[:]
        s.chkobbas = self.chkobbas[:]
        s.last_capturer = self.last_capturer
        s.turn = self.turn
        s.claim = self.claim
        s.proposer = self.proposer
        s.score = self.score
        s.games = self.games
        s.game_index = self.game_index
        s.results = self.results
        s.log = self.log
        s.log_len = self.log_len
        s.winner = self.winner
        s.redeal_next = self.redeal_next
        s.round_index = self.round_index
        s.last_actor = self.last_actor
        s.needs_deal = self.needs_deal
        s.is_over = self.is_over
        return s

    def deal(self, deck: Sequence[Card]) -> None:
        """Give the shuffled deck the ``deal`` phase waits for (index 0 is the cut card)."""
        if self.phase != DEAL:
            raise IllegalAction("deal.not_needed")
        d = tuple(deck)
        if len(d) != 40 or C.mask_of(d) != DECK_MASK:
            raise InvalidAction(describe_bad_deck(d))
        if not self.redeal_next:
            self.round_index += 1
            self.log = None
            self.log_len = 0
            self.piles = [0, 0]
            self.chkobbas = [(), ()]
            self.last_capturer = -1
        self.redeal_next = False
        self.deck = d
        self.pos = 0
        self.hands = [()] * self.n
        self.table = ()
        self.claim = None
        self.phase = CUT
        self.needs_deal = False

    # ---------------------------------------------------------------- queries
    @property
    def cutter(self) -> int:
        return (self.dealer + 1) % self.n

    def to_act(self) -> int | None:
        """The seat whose decision it is, or None (deal needed, match over)."""
        p = self.phase
        if p == PLAY:
            return self.turn
        if p == CUT:
            return (self.dealer + 1) % self.n
        if p == REDEAL:
            return self.turn
        if p == ANSWER:
            return (self.proposer + 1) % self.n
        return None

    @property
    def deck_left(self) -> int:
        return len(self.deck) - self.pos

    def round_over(self) -> bool:
        """Whether the round in the record is finished (waiting for a deck or the match over)."""
        return self.phase in (DEAL, OVER) and not self.redeal_next and self.round_index >= 0

    def deal_continues_round(self) -> bool:
        """Whether the deck the state waits for continues the round (after an
        accepted re-deal) instead of starting a new one."""
        return self.redeal_next

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order (claims, then each hand card in
        card order with its captures before its lay)."""
        p = self.phase
        if p == PLAY:
            # captures_on, for the hot path, from the table's summary
            # (_SUMMARY): captures of one card are preallocated, captures
            # by sum are recipes cached by the histogram below the card's value
            table = self.table
            hand = self.hands[self.turn]
            if not table:
                return [_LAYS[c] for c in hand]
            values = self.values
            fk = values[37]
            sm = _SUMMARY[fk]
            info = _CARD_INFO[fk]
            out: list[Action]
            claim = self.claim
            if claim is not None:
                laid, before = claim
                last = _LAST_SUMMARY[fk]
                if before is last[0]:  # summarized by the call before this lay
                    xb = last[1]
                    rb = last[2]
                else:
                    xb = 0
                    rb = 1
                    for t in before:
                        xb += sm[t]
                        rb |= rb << values[t] & 2047
                if table[-1] == laid and len(table) == len(before) + 1:  # the table is before + laid
                    x = xb + sm[laid]
                    reach = rb | rb << values[laid] & 2047
                else:
                    x = 0
                    reach = 1
                    for t in table:
                        x += sm[t]
                        reach |= reach << values[t] & 2047
                # the claims: captures_on(before, laid's value), as claims
                vbit, shift, below, tag, same, base = info[laid]
                if not rb & vbit:
                    out = []
                elif xb >> shift & 15:
                    out = []
                    m = (xb & same) >> 48
                    while m:
                        low = m & -m
                        out.append(_CLAIM_ONE[base + low.bit_length() - 1])
                        m ^= low
                else:
                    key = xb & below | tag
                    recipes = _RECIPES.get(key)
                    if recipes is None:
                        recipes = _recipes(key, shift >> 2, fk)
                    sb = sorted(before, key=_ORDER_KEY)
                    out = [_new_action(Action, (CLAIM, laid, take(sb))) for take in recipes]
            else:
                x = 0
                reach = 1
                for t in table:
                    x += sm[t]
                    reach |= reach << values[t] & 2047
                out = []
            _LAST_SUMMARY[fk] = (table, x, reach)
            lay = self.options.capture != "compulsory"
            st: list[Card] | None = None
            for c in hand:
                vbit, shift, below, tag, same, base = info[c]
                if not reach & vbit:  # no table cards add up to c's value
                    out.append(_LAYS[c])
                    continue
                n = x >> shift & 15
                if n:  # value before sum: the table cards of c's value, one at a time
                    if n == 1:
                        out.append(_CAPTURE_ONE[base + (x & same).bit_length() - 49])
                    else:  # cards of one value: canonical order is card order
                        m = (x & same) >> 48
                        while m:
                            low = m & -m
                            out.append(_CAPTURE_ONE[base + low.bit_length() - 1])
                            m ^= low
                    if lay:
                        out.append(_LAYS[c])
                    continue
                key = x & below | tag  # some cards add up to c's value: captures by sum
                recipes = _RECIPES.get(key)
                if recipes is None:
                    recipes = _recipes(key, shift >> 2, fk)
                if st is None:
                    st = sorted(table, key=_ORDER_KEY)
                for take in recipes:
                    out.append(_new_action(Action, (CAPTURE, c, take(st))))
                if lay:
                    out.append(_LAYS[c])
            return out
        if p == CUT:
            return [word(KEEP), word(TABLE)]
        if p == REDEAL:
            return [word(PASS), word(PROPOSE)]
        if p == ANSWER:
            return [word(ACCEPT), word(REFUSE)]
        return []

    def parse(self, text: str) -> Action:
        """Read an action's text for this game (syntax and deck only)."""
        a = parse_action(text)
        for c in (a.card, *a.take):
            if c >= 0 and not (DECK_MASK >> c) & 1:
                raise InvalidAction("chkobba.action_foreign_card", action=quote(text), card=CODES[c])
        return a

    # ---------------------------------------------------------------- actions
    def play(self, a: Action) -> None:
        """Apply a legal action in place (no check: search gives only legal ones)."""
        self.log = (a, self.log)
        self.log_len += 1
        p = self.phase
        if p == PLAY:
            seat = self.turn
            self.last_actor = seat
            side = seat & 1
            kind, c, take = a
            table = self.table
            hands = self.hands
            if kind != CLAIM:
                hand = hands[seat]
                # hand minus c (without index and two slices for the usual cases)
                if hand[0] == c:
                    hand = hand[1:]
                elif hand[-1] == c:
                    hand = hand[:-1]
                elif len(hand) == 3 and hand[1] == c:
                    hand = (hand[0], hand[2])
                else:
                    i = hand.index(c)
                    hand = hand[:i] + hand[i + 1:]
                hands[seat] = hand
            if kind == LAY:
                empty = not hand and not any(hands)
                last = empty and self.pos >= len(self.deck)
                self.table = table + (c,)
                o = self.options
                self.claim = ((c, table) if table and not last and o.missed_capture and o.capture == "optional"
                              else None)
            else:
                m = 1 << c
                if len(take) == 1:
                    t = take[0]
                    m |= 1 << t
                    if kind == CLAIM:
                        table = tuple([x for x in table if not m >> x & 1])
                    else:
                        if table[-1] == t:
                            table = table[:-1]
                        elif table[0] == t:
                            table = table[1:]
                        else:
                            i = table.index(t)
                            table = table[:i] + table[i + 1:]
                else:
                    for t in take:
                        m |= 1 << t
                    table = tuple([x for x in table if not m >> x & 1])
                self.table = table
                self.piles[side] |= m
                self.last_capturer = side
                self.claim = None
                if kind == CLAIM:
                    if not table:
                        self.chkobbas[side] = self.chkobbas[side] + (c,)
                    return
                empty = not hand and not any(hands)
                last = empty and self.pos >= len(self.deck)
                if not table and (not last or self.options.last_card_sweep):
                    self.chkobbas[side] = self.chkobbas[side] + (c,)
            if last:
                self._end_round()
                return
            n = self.n
            self.turn = (seat + 1) % n
            if empty:
                # every hand is empty: three more each, in order from the dealer's right
                d = self.deck
                i = self.pos
                dealer = self.dealer
                for k in range(1, n + 1):
                    hands[(dealer + k) % n] = tuple(sorted(d[i:i + 3]))
                    i += 3
                self.pos = i
            return
        self.last_actor = self.to_act()  # type: ignore[assignment]
        if p == CUT:
            self._cut(a.kind == KEEP)
        elif p == REDEAL:
            if a.kind == PROPOSE:
                self.proposer = self.turn
                self.phase = ANSWER
            else:
                self.turn = (self.turn + 1) % self.n
                if self.turn == self.cutter:
                    self.phase = PLAY
        elif p == ANSWER:
            if a.kind == ACCEPT:
                # all cards are gathered; the same dealer deals a new deck
                self.phase = DEAL
                self.needs_deal = True
                self.redeal_next = True
                self.deck = ()
                self.pos = 0
                self.hands = [()] * self.n
                self.table = ()
            else:
                self.phase = PLAY
                self.turn = self.cutter

    def _cut(self, keep: bool) -> None:
        d = self.deck
        n = self.n
        cutter = self.cutter
        hands: list[tuple[Card, ...]] = [()] * n
        if keep:
            hands[cutter] = tuple(sorted(d[0:3]))
            i = 3
            seat = (cutter + 1) % n
            while seat != self.dealer:
                hands[seat] = tuple(sorted(d[i:i + 3]))
                i += 3
                seat = (seat + 1) % n
            self.table = d[i:i + 4]
            i += 4
            hands[self.dealer] = tuple(sorted(d[i:i + 3]))
            i += 3
        else:
            self.table = d[0:4]
            i = 4
            for k in range(n):
                hands[(cutter + k) % n] = tuple(sorted(d[i:i + 3]))
                i += 3
        self.hands = hands
        self.pos = i
        self.turn = cutter
        self.phase = PLAY
        if self.options.redeal:
            values = self.values
            a, b, c, e = sorted([values[c] for c in self.table])  # the four table cards
            if a == c or b == e:  # three (or four) of one value
                self.phase = REDEAL

    def _end_round(self) -> None:
        leftovers = self.table
        to: int | None = None
        if leftovers and self.last_capturer >= 0:
            to = self.last_capturer
            self.piles[to] |= C.mask_of(leftovers)
        self.table = ()
        self.claim = None
        self.deck = ()
        self.pos = 0
        res = score_round(self.piles, [len(x) for x in self.chkobbas], self.game_index, leftovers, to)
        self.results = self.results + (res,)
        score = (self.score[0] + res.points[0], self.score[1] + res.points[1])
        target = self.options.target
        game_winner: int | None = None
        if self.options.all_diamonds_wins and res.all_diamonds is not None:
            game_winner = res.all_diamonds
            res.__dict__.update(game_winner=game_winner, game_won_by="all_diamonds")
        elif score[0] >= target or score[1] >= target:
            if score[0] != score[1]:
                game_winner = 0 if score[0] > score[1] else 1
                res.__dict__.update(game_winner=game_winner, game_won_by="target")
        self.score = score
        self.dealer = (self.dealer + 1) % self.n
        self.phase = DEAL
        self.needs_deal = True
        if game_winner is not None:
            g = list(self.games)
            g[game_winner] += 1
            self.games = (g[0], g[1])
            if g[game_winner] > self.options.match // 2:
                self.winner = game_winner
                self.phase = OVER
                self.needs_deal = False
                self.is_over = True
            else:
                self.score = (0, 0)
                self.game_index += 1

    # ------------------------------------------------------------ explaining
    def explain(self, a: Action) -> Message:
        """Why ``a`` is not legal here, in words a player understands."""
        p = self.phase
        text = str(a)
        if p == OVER:
            return message("match.over")
        if p == DEAL:
            return message("deal.pending")
        if p == CUT:
            return message("chkobba.cut", seat=self.cutter, action=text)
        if p == REDEAL:
            return message("chkobba.redeal", seat=self.turn, action=text)
        if p == ANSWER:
            return message("chkobba.answer", proposer=self.proposer, seat=(self.proposer + 1) % self.n, action=text)
        if a.kind not in (LAY, CAPTURE, CLAIM):
            return message("chkobba.play_a_card", action=text)
        values = self.values
        name = CODES[a.card]
        if a.kind == CLAIM:
            if not self.options.claims:
                return message("claim.off")
            if self.claim is None:
                return message("claim.none")
            laid, before = self.claim
            if a.card != laid:
                return message("claim.wrong_card", laid_card=CODES[laid], card=name)
            if not captures_on(before, values[laid], values):
                return message("claim.nothing", card=name)
            return self._capture_reason(a.card, a.take, before, claim=True)
        hand = self.hands[self.turn]
        if a.card not in hand:
            return message("play.not_in_hand", card=name)
        caps = captures_on(self.table, values[a.card], values) if self.table else []
        if a.kind == LAY:
            return message("capture.compulsory", card=name)
        return self._capture_reason(a.card, a.take, self.table, claim=False) if caps or a.take else message("capture.none", card=name)

    def _capture_reason(self, c: Card, take: tuple[Card, ...], table: tuple[Card, ...], claim: bool) -> Message:
        values = self.values
        name = CODES[c]
        v = values[c]
        for t in take:
            if t not in table:
                return message("claim.not_on_table" if claim else "capture.not_on_table", taken_card=CODES[t])
        if len(take) == 1:
            t = take[0]
            if values[t] != v:
                return message("capture.value_mismatch", card=name, value=v, taken_card=CODES[t], taken_value=values[t])
        else:
            total = sum(values[t] for t in take)
            if total != v:
                return message("capture.sum_mismatch", card=name, value=v, sum=total, cards=C.codes(take))
            same = [t for t in table if values[t] == v]
            if same:
                return message("capture.value_first", same_card=CODES[same[0]], value=v, card=name)
        return message("capture.cannot_take", card=name)

    # ---------------------------------------------------------- observations
    def side_of(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for: partners ``seat % 2``."""
        return seat & 1

    def observation(self, seat: int) -> ChkobbaObservation:
        return observe_chkobba(self, seat)

    def view(self, seat: int | None) -> JSONDict:
        """The table as ``seat`` sees it (``None``: every hand shown), JSON-able."""
        return view(self, seat)

    def describe_moves(self, a: Action, after: "ChkobbaState") -> list[JSONDict]:
        """Action ``a``, played in this state and leading to ``after``, for display."""
        return describe_moves(self, a, after)


def chkobba_state(s: "GameState[Observation]") -> ChkobbaState:
    """``s`` as a Chkobba state (the narrowing the registry's game-agnostic
    callers use); TypeError for another game's."""
    if not isinstance(s, ChkobbaState):
        raise TypeError(f"not a Chkobba state: {type(s).__name__}")
    return s


def describe_bad_deck(d: tuple[Card, ...]) -> Message:
    if len(d) != 40:
        return message("chkobba.deck_size", count=len(d))
    seen: set[Card] = set()
    for c in d:
        if c in seen:
            return message("deal.card_twice", card=CODES[c])
        if not (DECK_MASK >> c) & 1:
            return message("chkobba.deck_foreign_card", card=CODES[c])
        seen.add(c)
    return message("chkobba.deck_wrong")

