"""The Seven Diamonds engine: a partner game of four, from the calls to the target.

Same protocol as :class:`chkobba.games.chkobba.state.ChkobbaState` (see ``chkobba/protocol.py``), so
records, the session, agents and the web table need no special case.

Representation, chosen so that search can copy states freely:

- hands, the laid cards and the cards that may be laid next (``playable``)
  are 32-bit-ish int masks over the shared card ids of ``cards.py``. In each
  suit the laid cards are always a run up from the 7, so one mask says it all,
  and ``playable`` holds at most one card per suit: the next card up, or the
  7 of a suit not yet open (only once 7D is down).
- the round's action log and its public event log are linked lists of shared
  cells ``(item, rest)``: a copy shares them, an action prepends one cell.

Forced passes are not actions (RECORDS.md does not write them): after each
card the engine passes every following seat that holds no playable card and
notes it in the event log, together with "last card" announcements, timeouts
and who went out. A seat to act therefore always has a legal card.

Decisions where RULES.md is silent (also in ``docs/seven-diamonds.md``):

- Only the winning team scores in a round, so at most one team can reach the
  target in a round: the game ends at once when it does. A match is one game.
- A timeout at the opening plays 7D (the only legal card); a call timeout is
  a pass. A card timeout tells everyone that the seat held none of the
  playable cards of the suits before the card played for it (the rule plays
  the first in D H S C order), which determinization respects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Optional

from ... import cards as C
from ...actions import CAPTURE, CLAIM, DOUBLE, LAY, PASS, TIMEOUT, TRIPLE, Action, parse_action, word
from ...cards import CODES, SUITS, Card
from ...errors import IllegalAction, InvalidAction
from ...messages import Message, message, quote
from ...protocol import GameState, JSONDict, Log, Observation, StateBase
from .observation import SevenDiamondsObservation, observe_seven_diamonds
from .options import SevenDiamondsOptions
from .view import describe_moves, view
from .constants import (BELOW, BUILD, CALLS, DEAL, DECK, DECK_MASK, LAID, LAST_CARD, LAY_ACTIONS,  # noqa: F401
                        NEXT, OTHER_SEVENS, OUT, OVER, PASSED, PLAY, PLAYERS, POINTS, SEVEN_OF_DIAMONDS,
                        SEVENS, TIMED_OUT, build_order, may_double, may_triple, points_of, speaking_order)

__all__ = ["SevenDiamondsState", "seven_diamonds_state", "SevenDiamondsRoundResult", "Event", "score_round", "describe_bad_deck", "Cell",
           "BELOW", "BUILD", "CALLS", "DEAL", "DECK", "DECK_MASK", "LAID", "LAST_CARD", "LAY_ACTIONS", "NEXT",
           "OTHER_SEVENS", "OUT", "OVER", "PASSED", "PLAY", "PLAYERS", "POINTS", "SEVEN_OF_DIAMONDS", "SEVENS",
           "TIMED_OUT", "build_order", "points_of", "SevenDiamondsObservation"]


class Event(NamedTuple):
    """One public happening of a round, as the table shows it.

    ``kind`` is ``"lay"`` (with ``card``), ``"passed"``, ``"last card"``,
    ``"out"``, ``"timeout"`` or a call word (``"double"``, ``"triple"``,
    ``"pass"``)."""

    seat: int
    kind: str
    card: Card = -1

    @property
    def text(self) -> str:
        """The card code for a lay, the kind's word otherwise."""
        return CODES[self.card] if self.kind == LAID else self.kind

    def to_json(self) -> list[int | str]:
        return [self.seat, self.text]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.text}"


# Events are values: the engine shares one of each (by seat; a lay by seat * 52 + card).
_EVENT: tuple[dict[str, Event], ...] = tuple(
    {k: Event(seat, k) for k in (TIMED_OUT, OUT, LAST_CARD, PASSED, DOUBLE, TRIPLE, PASS)} for seat in range(PLAYERS))
_LAID: tuple[Event, ...] = tuple(Event(seat, LAID, c) for seat in range(PLAYERS) for c in range(52))
# The lay actions of a mask of cards (at most one per suit: the legal ones), cached.
_LAYS_OF: dict[int, tuple[Action, ...]] = {}

Cell = tuple[Event, Optional["Cell"]]  # a linked-list cell of public events (event, rest)


def _items(cell: Cell | None) -> list[Event]:
    out = []
    while cell is not None:
        out.append(cell[0])
        cell = cell[1]
    out.reverse()
    return out


@dataclass(frozen=True)
class SevenDiamondsRoundResult:
    """A finished round: who won it, and the count behind the points."""

    game: int
    winner_seat: int
    winner_team: int
    multiplier: int
    cards: int
    bonus: int
    points: tuple[int, int]
    last_card: Card
    left: tuple[int, int, int, int]  # each seat's remaining cards (masks), shown at the end
    # the team that won the game this round ended (None: the game goes on),
    # and how ("target"); not part of the replay output
    game_winner: int | None = None
    game_won_by: str | None = None

    def to_dict(self) -> JSONDict:
        """The replay output's entry for this round (RECORDS.md)."""
        return {"game": self.game, "winner_team": self.winner_team, "multiplier": self.multiplier,
                "cards": self.cards, "bonus": self.bonus, "points": list(self.points)}

    def details(self) -> JSONDict:
        d = self.to_dict()
        d.update(winner_seat=self.winner_seat, last_card=CODES[self.last_card],
                 left=[C.codes(sorted(C.cards_of(m), key=build_order)) for m in self.left])
        return d


def score_round(winner_seat: int, hands: Sequence[int], last_card: Card, multiplier: int,
                bonus_7: int, game: int = 0) -> SevenDiamondsRoundResult:
    """Score a round won by ``winner_seat`` from the hands left (masks)."""
    team = winner_seat & 1
    cards = sum(points_of(hands[s]) for s in range(PLAYERS) if s & 1 != team)
    bonus = bonus_7 if (SEVENS >> last_card) & 1 else 0
    total = (cards + bonus) * multiplier
    points = (total, 0) if team == 0 else (0, total)
    left = (hands[0], hands[1], hands[2], hands[3])
    return SevenDiamondsRoundResult(game, winner_seat, team, multiplier, cards, bonus, points, last_card, left)


class SevenDiamondsState(StateBase):
    """A Seven Diamonds game in progress. See the module docstring."""

    game = "seven_diamonds"
    game_index = 0  # a match is one game (protocol field)

    __slots__ = ("options", "n", "phase", "dealer", "hands", "table", "playable", "turn", "spoken",
                 "multiplier", "doubler", "voids", "score", "games", "results", "log", "log_len",
                 "events", "winner", "round_index", "last_actor")

    options: SevenDiamondsOptions
    n: int
    phase: str
    dealer: int
    hands: list[int]           # masks, by seat
    table: int                 # mask of the laid cards
    playable: int              # mask of the cards that may be laid next
    turn: int                  # the seat to act (calls and play)
    spoken: int                # how many players have called this round
    multiplier: int            # 1, 2 (doubled) or 3 (tripled)
    doubler: int               # the team that doubled, or -1
    voids: tuple[int, ...]     # public: cards each seat is known not to hold
    score: tuple[int, int]
    games: tuple[int, int]
    results: tuple[SevenDiamondsRoundResult, ...]
    log: Log                   # the round's actions, newest first
    log_len: int
    events: Cell | None        # the round's public events, newest first
    winner: int | None
    round_index: int
    last_actor: int

    # ------------------------------------------------------------------ set-up
    @classmethod
    def options_class(cls) -> type[SevenDiamondsOptions]:
        return SevenDiamondsOptions

    @classmethod
    def full_deck(cls) -> tuple[Card, ...]:
        return DECK

    @classmethod
    def new(cls, options: SevenDiamondsOptions | Mapping[str, object] | None = None, first_dealer: int = 0,
            deck: Sequence[Card] | None = None) -> "SevenDiamondsState":
        """A new game; ``first_dealer`` deals the first round. Without a deck
        the state waits in the ``deal`` phase for :meth:`deal`."""
        if not isinstance(options, SevenDiamondsOptions):
            options = SevenDiamondsOptions.from_dict(options)
        if type(first_dealer) is not int or not 0 <= first_dealer < PLAYERS:
            raise InvalidAction("deal.first_dealer", last=PLAYERS - 1, value=quote(first_dealer))
        s = cls.__new__(cls)
        s.options = options
        s.n = PLAYERS
        s.phase = DEAL
        s.dealer = first_dealer
        s.hands = [0, 0, 0, 0]
        s.table = 0
        s.playable = 0
        s.turn = -1
        s.spoken = 0
        s.multiplier = 1
        s.doubler = -1
        s.voids = (0, 0, 0, 0)
        s.score = (0, 0)
        s.games = (0, 0)
        s.results = ()
        s.log = None
        s.log_len = 0
        s.events = None
        s.winner = None
        s.round_index = -1
        s.last_actor = -1
        if deck is not None:
            s.deal(deck)
        return s

    def copy(self) -> "SevenDiamondsState":
        s = SevenDiamondsState.__new__(SevenDiamondsState)
        s.options = self.options
        s.n = self.n
        s.phase = self.phase
        s.dealer = self.dealer
        s.hands = self.hands[:]
        s.table = self.table
        s.playable = self.playable
        s.turn = self.turn
        s.spoken = self.spoken
        s.multiplier = self.multiplier
        s.doubler = self.doubler
        s.voids = self.voids
        s.score = self.score
        s.games = self.games
        s.results = self.results
        s.log = self.log
        s.log_len = self.log_len
        s.events = self.events
        s.winner = self.winner
        s.round_index = self.round_index
        s.last_actor = self.last_actor
        return s

    def deal(self, deck: Sequence[Card]) -> None:
        """Give the shuffled deck the ``deal`` phase waits for: eight cards
        each, in order of play from the dealer's right (index 0 first)."""
        if self.phase != DEAL:
            raise IllegalAction("game.over" if self.phase == OVER else "deal.not_needed")
        d = tuple(deck)
        if len(d) != 32 or C.mask_of(d) != DECK_MASK:
            raise InvalidAction(describe_bad_deck(d))
        self.round_index += 1
        hands = [0, 0, 0, 0]
        for k in range(PLAYERS):
            hands[(self.dealer + 1 + k) % PLAYERS] = C.mask_of(d[8 * k:8 * k + 8])
        self.hands = hands
        self.table = 0
        self.playable = 1 << SEVEN_OF_DIAMONDS
        self.spoken = 0
        self.multiplier = 1
        self.doubler = -1
        self.voids = (0, 0, 0, 0)
        self.log = None
        self.log_len = 0
        self.events = None
        if self.options.calls:
            self.phase = CALLS
            self.turn = speaking_order(self.dealer)[0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.turn = self.holder(SEVEN_OF_DIAMONDS)

    # ---------------------------------------------------------------- queries
    def holder(self, c: Card) -> int:
        """The seat holding card ``c``, or -1 if no hand holds it."""
        bit = 1 << c
        for seat in range(PLAYERS):
            if self.hands[seat] & bit:
                return seat
        return -1

    def to_act(self) -> int | None:
        """The seat whose decision it is, or None (deal needed, game over)."""
        return self.turn if self.phase in (CALLS, PLAY) else None

    def round_over(self) -> bool:
        """Whether the round in the record is finished (waiting for a deck or the game over)."""
        return self.phase in (DEAL, OVER) and self.round_index >= 0

    def event_log(self) -> list[Event]:
        """The public events of the current round, oldest first."""
        return _items(self.events)

    def legal_actions(self) -> list[Action]:
        """Every legal action in a fixed order: calls ``pass``, then
        ``double`` or ``triple``; cards in suit order D H S C (a suit offers
        at most one card); ``timeout`` last, only when the table has timers."""
        p = self.phase
        if p == PLAY:
            m = self.hands[self.turn] & self.playable
            lays = _LAYS_OF.get(m)
            if lays is None:
                lays = _LAYS_OF[m] = tuple([LAY_ACTIONS[c] for c in C.cards_of(m)])
            out = list(lays)
        elif p == CALLS:
            out = [word(PASS)]
            if may_double(self.doubler):
                out.append(word(DOUBLE))
            elif may_triple(self.doubler, self.multiplier, self.turn):
                out.append(word(TRIPLE))
        else:
            return []
        if self.options.timers is not None:
            out.append(word(TIMEOUT))
        return out

    def legal_cards(self) -> int:
        """Mask of the cards the seat to play may lay (0 outside play)."""
        return self.hands[self.turn] & self.playable if self.phase == PLAY else 0

    def parse(self, text: str) -> Action:
        """Read an action's text for this game (syntax and deck only)."""
        a = parse_action(text)
        if a.kind in (CAPTURE, CLAIM):
            raise InvalidAction("seven_diamonds.no_capture", action=quote(text))
        if a.card >= 0 and not (DECK_MASK >> a.card) & 1:
            raise InvalidAction("seven_diamonds.action_foreign_card", action=quote(text), card=CODES[a.card])
        return a

    # ---------------------------------------------------------------- actions
    def play(self, a: Action) -> None:
        """Apply a legal action in place (no check: search gives only legal ones)."""
        seat = self.turn
        self.log = (a, self.log)
        self.log_len += 1
        self.last_actor = seat
        kind = a.kind
        if self.phase == CALLS:
            if kind == TIMEOUT:
                self.events = (_EVENT[seat][TIMED_OUT], self.events)
                kind = PASS
            self.events = (_EVENT[seat][kind], self.events)
            if kind == DOUBLE:
                self.multiplier = 2
                self.doubler = seat & 1
            elif kind == TRIPLE:
                self.multiplier = 3
            self.spoken += 1
            if self.spoken == PLAYERS:
                self._start_play()
            else:
                self.turn = (seat + 1) % PLAYERS
            return
        playable = self.playable
        if kind == TIMEOUT:
            legal = self.hands[seat] & playable
            c = (legal & -legal).bit_length() - 1
            self.events = (_EVENT[seat][TIMED_OUT], self.events)
            earlier = playable & ((1 << c) - 1)
            if earlier & ~self.voids[seat]:
                self._add_void(seat, earlier)
        else:
            c = a.card
        self._lay(seat, c)

    def _add_void(self, seat: int, mask: int) -> None:
        v = list(self.voids)
        v[seat] |= mask
        self.voids = tuple(v)

    def _lay(self, seat: int, c: Card) -> None:
        bit = 1 << c
        hand = self.hands[seat] & ~bit
        self.hands[seat] = hand
        self.table |= bit
        playable = self.playable & ~bit
        nxt = NEXT[c]
        if nxt >= 0:
            playable |= 1 << nxt
        if c == SEVEN_OF_DIAMONDS:
            playable |= OTHER_SEVENS
        self.playable = playable
        events: Cell = (_LAID[seat * 52 + c], self.events)
        if not hand:
            self.events = (_EVENT[seat][OUT], events)
            self._end_round(seat, c)
            return
        if not hand & (hand - 1):
            events = (_EVENT[seat][LAST_CARD], events)
        # pass every seat that has nothing to lay; someone always has (the
        # playable cards of unfinished suits are in some hand)
        hands = self.hands
        s = (seat + 1) % PLAYERS
        while not hands[s] & playable:
            events = (_EVENT[s][PASSED], events)
            if playable & ~self.voids[s]:
                self._add_void(s, playable)
            s = (s + 1) % PLAYERS
        self.events = events
        self.turn = s

    def _end_round(self, seat: int, last: Card) -> None:
        res = score_round(seat, self.hands, last, self.multiplier, self.options.last_seven_bonus)
        team = res.winner_team
        score = [self.score[0], self.score[1]]
        score[team] += res.points[team]
        # only the winning team scores, so only it can have reached the target
        if score[team] >= self.options.target:
            res = dataclasses.replace(res, game_winner=team, game_won_by="target")
        self.results = self.results + (res,)
        self.score = (score[0], score[1])
        self.hands = [0, 0, 0, 0]
        self.table = 0
        self.playable = 0
        self.turn = -1
        self.dealer = (self.dealer + 1) % PLAYERS
        self.phase = DEAL
        # only the winning team scores, so only it can have reached the target
        if score[team] >= self.options.target:
            self.games = (1, 0) if team == 0 else (0, 1)
            self.winner = team
            self.phase = OVER

    # ------------------------------------------------------------ explaining
    def explain(self, a: Action) -> Message:
        """Why ``a`` is not legal here, in words a player understands."""
        p = self.phase
        text = str(a)
        kind = a.kind
        if p == OVER:
            return message("game.over")
        if p == DEAL:
            return message("deal.pending")
        if kind == TIMEOUT:
            return message("seven_diamonds.timers_off")
        if p == CALLS:
            if kind == TRIPLE:
                if self.doubler < 0:
                    return message("seven_diamonds.nobody_doubled")
                if self.multiplier == 3:
                    return message("seven_diamonds.tripled")
                return message("seven_diamonds.other_team_triples")
            if kind == DOUBLE:
                if self.multiplier == 3:
                    return message("seven_diamonds.tripled")
                if self.turn & 1 != self.doubler:
                    return message("seven_diamonds.doubled_triple")
                return message("seven_diamonds.doubled")
            words = [x.kind for x in self.legal_actions() if x.kind != TIMEOUT]
            code = ("seven_diamonds.calls_pass_double" if DOUBLE in words else
                    "seven_diamonds.calls_pass_triple" if TRIPLE in words else "seven_diamonds.calls_pass")
            return message(code, seat=self.turn, action=text)
        # play
        if kind in (DOUBLE, TRIPLE):
            return message("seven_diamonds.calls_over", action=text)
        if kind != LAY:
            legal = self.legal_cards()
            return message("seven_diamonds.must_lay", action=text, cards=C.codes(C.cards_of(legal)))
        c = a.card
        name = CODES[c]
        hand = self.hands[self.turn]
        if not (hand >> c) & 1:
            if (self.table >> c) & 1:
                return message("seven_diamonds.on_table", card=name)
            return message("play.not_in_hand", card=name)
        if (hand >> SEVEN_OF_DIAMONDS) & 1:
            return message("seven_diamonds.opens_with_7d", card="7D")
        below = BELOW[c]
        if below < 0:
            return message("seven_diamonds.not_yet", card=name)  # unreachable: once 7D is down every 7 fits
        return message("seven_diamonds.below_missing", card=name, below_card=CODES[below])

    # ---------------------------------------------------------- observations
    def side_of(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for: partners ``seat % 2``."""
        return seat & 1

    def observation(self, seat: int) -> SevenDiamondsObservation:
        return observe_seven_diamonds(self, seat)

    def view(self, seat: int | None) -> JSONDict:
        """The table as ``seat`` sees it (``None``: every hand shown), JSON-able."""
        return view(self, seat)

    def describe_moves(self, a: Action, after: "SevenDiamondsState") -> list[JSONDict]:
        """Action ``a``, played in this state and leading to ``after``, with
        the engine's events that followed, for display."""
        return describe_moves(self, a, after)


def seven_diamonds_state(s: "GameState[Observation]") -> SevenDiamondsState:
    """``s`` as a Seven Diamonds state (the narrowing the registry's game-agnostic
    callers use); TypeError for another game's."""
    if not isinstance(s, SevenDiamondsState):
        raise TypeError(f"not a Seven Diamonds state: {type(s).__name__}")
    return s


def describe_bad_deck(d: tuple[Card, ...]) -> Message:
    if len(d) != 32:
        return message("seven_diamonds.deck_size", count=len(d))
    seen: set[Card] = set()
    for c in d:
        if c in seen:
            return message("deal.card_twice", card=CODES[c])
        if not (DECK_MASK >> c) & 1:
            return message("seven_diamonds.deck_foreign_card", card=CODES[c])
        seen.add(c)
    return message("seven_diamonds.deck_wrong")
