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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ... import cards as C
from ...actions import (ACCEPT, CAPTURE, CLAIM, KEEP, LAY, ORDER, PASS, PROPOSE, REFUSE, TABLE,
                      Action, parse_action, word)
from ...cards import CODES, Card
from ...errors import IllegalAction, InvalidAction
from ...messages import Message, message, quote
from ...protocol import JSONDict, Log, StateBase
from .observation import ChkobbaObservation, observe_chkobba
from .options import ChkobbaOptions
from .view import describe_moves, view
from .constants import (ANSWER, CHKOBBA_RANKS, CUT, DEAL, DECK, DECK_MASK, DIAMONDS, HAYA_BIT, OVER,  # noqa: F401
                        PLAY, REDEAL, SEVEN_OF_DIAMONDS, SEVENS, SIXES, VALUES, card_values)


__all__ = ["ChkobbaState", "RoundResult", "score_round", "captures_on", "side_of", "describe_bad_deck",
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

    def to_dict(self) -> dict[str, Any]:
        """The replay output's entry for this round (RECORDS.md)."""
        return {"karta": list(self.karta), "dinari": list(self.dinari), "barmila": list(self.barmila),
                "haya": list(self.haya), "chkobba": list(self.chkobba), "points": list(self.points),
                "game": self.game}

    def details(self) -> dict[str, Any]:
        d = self.to_dict()
        d.update(cards=list(self.cards), diamonds=list(self.diamonds), sevens=list(self.sevens),
                 sixes=list(self.sixes), leftovers=C.codes(self.leftovers), leftovers_to=self.leftovers_to,
                 all_diamonds=self.all_diamonds)
        return d


def _most(a: int, b: int) -> tuple[int, int]:
    return (1, 0) if a > b else (0, 1) if b > a else (0, 0)


def score_round(piles: Sequence[int], chkobbas: Sequence[int], game: int,
                leftovers: tuple[Card, ...] = (), leftovers_to: int | None = None) -> RoundResult:
    """Score a round from the two sides' piles (bit masks) and chkobba counts."""
    cards = (piles[0].bit_count(), piles[1].bit_count())
    diamonds = ((piles[0] & DIAMONDS).bit_count(), (piles[1] & DIAMONDS).bit_count())
    sevens = ((piles[0] & SEVENS).bit_count(), (piles[1] & SEVENS).bit_count())
    sixes = ((piles[0] & SIXES).bit_count(), (piles[1] & SIXES).bit_count())
    karta = _most(*cards)
    dinari = _most(*diamonds)
    barmila = _most(*sevens) if sevens[0] != sevens[1] else _most(*sixes)
    haya = (1, 0) if piles[0] & HAYA_BIT else (0, 1) if piles[1] & HAYA_BIT else (0, 0)
    chk = (chkobbas[0], chkobbas[1])
    points = tuple(karta[i] + dinari[i] + barmila[i] + haya[i] + chk[i] for i in (0, 1))
    all_d = 0 if diamonds[0] == 10 else 1 if diamonds[1] == 10 else None
    return RoundResult(game, karta, dinari, barmila, haya, chk, (points[0], points[1]), cards, diamonds,
                       sevens, sixes, leftovers, leftovers_to, all_d)


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


class ChkobbaState(StateBase):
    """A Chkobba match in progress. See the module docstring."""

    game = "chkobba"

    __slots__ = ("options", "n", "values", "phase", "dealer", "deck", "pos", "hands", "table",
                 "piles", "chkobbas", "last_capturer", "turn", "claim", "proposer", "score", "games",
                 "game_index", "results", "log", "log_len", "winner", "redeal_next", "round_index",
                 "last_actor")

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

    # ------------------------------------------------------------------ set-up
    @classmethod
    def options_class(cls) -> type[ChkobbaOptions]:
        return ChkobbaOptions

    @classmethod
    def full_deck(cls) -> tuple[Card, ...]:
        return DECK

    @classmethod
    def new(cls, options: ChkobbaOptions | dict[str, Any] | None = None, first_dealer: int = 0,
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
            return self._play_actions()
        if p == CUT:
            return [word(KEEP), word(TABLE)]
        if p == REDEAL:
            return [word(PASS), word(PROPOSE)]
        if p == ANSWER:
            return [word(ACCEPT), word(REFUSE)]
        return []

    def _play_actions(self) -> list[Action]:
        values = self.values
        table = self.table
        out: list[Action] = []
        claim = self.claim
        if claim is not None:
            laid, before = claim
            for take in captures_on(before, values[laid], values):
                out.append(Action(CLAIM, laid, take))
        if not table:
            out.extend([_LAYS[c] for c in self.hands[self.turn]])
            return out
        compulsory = self.options.capture == "compulsory"
        # captures_on, inlined for the hot path (the table's values are read once)
        tvals = [values[t] for t in table]
        low = min(tvals)
        total = sum(tvals)
        for c in self.hands[self.turn]:
            v = values[c]
            caps: list[tuple[Card, ...]]
            if v in tvals:
                caps = [(t,) for t in table if values[t] == v]
                if len(caps) > 1:
                    caps.sort(key=_first)
            elif v < 2 * low or v > total:
                caps = []  # no two table cards are small enough, or all of them fall short
            else:
                caps = _sum_captures(table, v, values)
            for take in caps:
                out.append(Action(CAPTURE, c, take))
            if not (caps and compulsory):
                out.append(_LAYS[c])
        return out

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
            self.last_actor = self.turn
            self._play_card(a)
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
            vals = [self.values[c] for c in self.table]
            if max(vals.count(v) for v in vals) >= 3:
                self.phase = REDEAL

    def _play_card(self, a: Action) -> None:
        seat = self.turn
        side = seat & 1
        kind = a.kind
        if kind == CLAIM:
            take = a.take
            self.table = tuple([c for c in self.table if c != a.card and c not in take])
            self.piles[side] |= C.mask_of(take) | (1 << a.card)
            self.last_capturer = side
            if not self.table:
                self.chkobbas[side] = self.chkobbas[side] + (a.card,)
            self.claim = None
            return
        c = a.card
        hand = self.hands[seat]
        self.hands[seat] = tuple([x for x in hand if x != c])
        last = self.pos >= len(self.deck) and not any(self.hands)
        if kind == CAPTURE:
            take = a.take
            self.table = tuple([x for x in self.table if x not in take])
            self.piles[side] |= C.mask_of(take) | (1 << c)
            self.last_capturer = side
            if not self.table and (not last or self.options.last_card_sweep):
                self.chkobbas[side] = self.chkobbas[side] + (c,)
            self.claim = None
        else:
            before = self.table
            self.table = before + (c,)
            self.claim = (c, before) if (self.options.missed_capture and self.options.capture == "optional"
                                         and not last and before) else None
        if last:
            self._end_round()
            return
        self.turn = (seat + 1) % self.n
        if not any(self.hands):
            # every hand is empty: three more each, in order from the dealer's right
            d = self.deck
            i = self.pos
            n = self.n
            hands = self.hands
            for k in range(1, n + 1):
                s = (self.dealer + k) % n
                hands[s] = tuple(sorted(d[i:i + 3]))
                i += 3
            self.pos = i

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
        elif score[0] >= target or score[1] >= target:
            if score[0] != score[1]:
                game_winner = 0 if score[0] > score[1] else 1
        self.score = score
        self.dealer = (self.dealer + 1) % self.n
        self.phase = DEAL
        if game_winner is not None:
            g = list(self.games)
            g[game_winner] += 1
            self.games = (g[0], g[1])
            if g[game_winner] > self.options.match // 2:
                self.winner = game_winner
                self.phase = OVER
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
    def observation(self, seat: int) -> ChkobbaObservation:
        return observe_chkobba(self, seat)

    def view(self, seat: int | None) -> JSONDict:
        """The table as ``seat`` sees it (``None``: every hand shown), JSON-able."""
        return view(self, seat)

    def describe_moves(self, a: Action, after: "ChkobbaState") -> list[JSONDict]:
        """Action ``a``, played in this state and leading to ``after``, for display."""
        return describe_moves(self, a, after)


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

