"""The Seven Diamonds engine: a partner game of four, from the calls to the target.

Same protocol as :class:`chkobba.games.chkobba.state.ChkobbaState` (see ``games.py``), so
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

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from ... import cards as C
from ...actions import CAPTURE, CLAIM, DOUBLE, LAY, PASS, TIMEOUT, TRIPLE, Action, parse_action, word
from ...cards import CODES, SUITS, Card
from ...errors import IllegalAction, InvalidAction
from ...protocol import StateBase
from ...options import SevenDiamondsOptions

# Phases of play.
DEAL = "deal"      # a shuffled deck is needed
CALLS = "calls"    # double / triple / pass, once each from the dealer's right
PLAY = "play"
OVER = "over"      # the game (and so the match) is over

PLAYERS = 4
BUILD = "789TJQKA"  # rank order for building up a suit
DECK: tuple[Card, ...] = tuple(C.make(r, s) for s in SUITS for r in BUILD)
DECK_MASK = C.mask_of(DECK)
SEVEN_OF_DIAMONDS = C.make("7", "D")
SEVENS = C.mask_of(C.make("7", s) for s in SUITS)
OTHER_SEVENS = SEVENS & ~(1 << SEVEN_OF_DIAMONDS)

# NEXT[c]: the card that may be laid after c in its suit (-1 after the ace).
NEXT: tuple[int, ...] = tuple(
    C.make(BUILD[BUILD.index(C.rank_of(c)) + 1], SUITS[C.suit_of(c)])
    if (DECK_MASK >> c) & 1 and C.rank_of(c) != "A" else -1
    for c in range(52))
# BELOW[c]: the card that must be on the table before c (-1 for a 7).
BELOW: tuple[int, ...] = tuple(
    C.make(BUILD[BUILD.index(C.rank_of(c)) - 1], SUITS[C.suit_of(c)])
    if (DECK_MASK >> c) & 1 and C.rank_of(c) != "7" else -1
    for c in range(52))
# Points of a card left in a losing hand: A 20; K, Q, J 10; others 0.
POINTS: tuple[int, ...] = tuple({"A": 20, "K": 10, "Q": 10, "J": 10}.get(C.rank_of(c), 0)
                                if (DECK_MASK >> c) & 1 else 0 for c in range(52))
LAY_ACTIONS: tuple[Action, ...] = tuple(Action(LAY, c) for c in range(52))

# Event kinds of the public log (besides the call words double/triple/pass).
LAID = "lay"             # the seat laid a card
PASSED = "passed"        # the seat could not play: the game passed for it
LAST_CARD = "last card"  # the seat is down to one card
OUT = "out"              # the seat laid its last card and won the round for its team
TIMED_OUT = "timeout"    # the seat's time ran out; the next event says what was done for it


def build_order(c: Card) -> tuple[int, int]:
    """Sort key: suit D H S C, then rank 7 8 9 T J Q K A."""
    return (C.suit_of(c), BUILD.index(C.rank_of(c)))


def points_of(mask: int) -> int:
    """The points of the cards of a mask left in a losing hand."""
    return sum(POINTS[c] for c in C.cards_of(mask))


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

    def to_json(self) -> list[Any]:
        return [self.seat, self.text]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.text}"


# Events are values: the engine shares one of each (by seat; a lay by seat * 52 + card).
_EVENT: tuple[dict[str, Event], ...] = tuple(
    {k: Event(seat, k) for k in (TIMED_OUT, OUT, LAST_CARD, PASSED, DOUBLE, TRIPLE, PASS)} for seat in range(PLAYERS))
_LAID: tuple[Event, ...] = tuple(Event(seat, LAID, c) for seat in range(PLAYERS) for c in range(52))
# The lay actions of a mask of cards (at most one per suit: the legal ones), cached.
_LAYS_OF: dict[int, tuple[Action, ...]] = {}

Cell = tuple[Any, Any]  # a linked-list cell (item, rest), rest a Cell or None


def _items(cell: Cell | None) -> list[Any]:
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

    def to_dict(self) -> dict[str, Any]:
        """The replay output's entry for this round (RECORDS.md)."""
        return {"game": self.game, "winner_team": self.winner_team, "multiplier": self.multiplier,
                "cards": self.cards, "bonus": self.bonus, "points": list(self.points)}

    def details(self) -> dict[str, Any]:
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
    log: Cell | None           # the round's actions, newest first
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
    def new(cls, options: SevenDiamondsOptions | dict[str, Any] | None = None, first_dealer: int = 0,
            deck: Sequence[Card] | None = None) -> "SevenDiamondsState":
        """A new game; ``first_dealer`` deals the first round. Without a deck
        the state waits in the ``deal`` phase for :meth:`deal`."""
        if not isinstance(options, SevenDiamondsOptions):
            options = SevenDiamondsOptions.from_dict(options)
        if type(first_dealer) is not int or not 0 <= first_dealer < PLAYERS:
            raise InvalidAction(f"the first dealer must be a seat from 0 to {PLAYERS - 1}, not {first_dealer!r}")
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
            raise IllegalAction("the game is over" if self.phase == OVER else
                                "no deck is needed now: the round is under way")
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
            self.turn = (self.dealer + 1) % PLAYERS
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
            if self.doubler < 0:
                out.append(word(DOUBLE))
            elif self.multiplier == 2 and self.turn & 1 != self.doubler:
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
            raise InvalidAction(f'"{text}": nothing is captured in Seven Diamonds; lay one card, like "9H"')
        if a.card >= 0 and not (DECK_MASK >> a.card) & 1:
            raise InvalidAction(f'"{text}": {CODES[a.card]} is not a card of the Seven Diamonds deck (7 up to ace only)')
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
        self.results = self.results + (res,)
        team = res.winner_team
        score = [self.score[0], self.score[1]]
        score[team] += res.points[team]
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
    def explain(self, a: Action) -> str:
        """Why ``a`` is not legal here, in words a player understands."""
        p = self.phase
        text = str(a)
        kind = a.kind
        if p == OVER:
            return "the game is over"
        if p == DEAL:
            return "the cards are not dealt yet"
        if kind == TIMEOUT:
            return "there are no timers at this table"
        if p == CALLS:
            if kind == TRIPLE:
                if self.doubler < 0:
                    return 'nobody has doubled: say "double" or "pass"'
                if self.multiplier == 3:
                    return 'the round is already tripled: say "pass"'
                return 'only the other team can triple: say "pass"'
            if kind == DOUBLE:
                if self.multiplier == 3:
                    return 'the round is already tripled: say "pass"'
                if self.turn & 1 != self.doubler:
                    return 'the round is already doubled: say "triple" or "pass"'
                return 'the round is already doubled: say "pass"'
            words = " or ".join(f'"{x}"' for x in self.legal_actions() if x.kind != TIMEOUT)
            return f'it is the time for calls: seat {self.turn} says {words}, not "{text}"'
        # play
        if kind in (DOUBLE, TRIPLE):
            return f'"{text}" is a call, and the calls are over: lay a card'
        if kind != LAY:
            legal = self.legal_cards()
            return f'"{text}" is not a move now: you must lay a card when one fits ({", ".join(C.codes(C.cards_of(legal)))})'
        c = a.card
        name = CODES[c]
        hand = self.hands[self.turn]
        if not (hand >> c) & 1:
            if (self.table >> c) & 1:
                return f"{name} is already on the table"
            return f"{name} is not in your hand"
        if (hand >> SEVEN_OF_DIAMONDS) & 1:
            return "you hold 7D: the game opens with it"
        below = BELOW[c]
        if below < 0:
            return f"{name} can't be played yet"  # unreachable: once 7D is down every 7 fits
        return f"{name} can't be played: {CODES[below]} is not on the table yet"

    # ---------------------------------------------------------- observations
    def observation(self, seat: int) -> "SevenDiamondsObservation":
        return SevenDiamondsObservation(
            options=self.options, seat=seat, phase=self.phase, to_act=self.to_act(), dealer=self.dealer,
            turn=self.turn, hand=self.hands[seat], table=self.table, playable=self.playable,
            hand_counts=(self.hands[0].bit_count(), self.hands[1].bit_count(),
                         self.hands[2].bit_count(), self.hands[3].bit_count()),
            spoken=self.spoken, multiplier=self.multiplier, doubler=self.doubler, voids=self.voids,
            score=self.score, games=self.games, results=self.results, history=tuple(self.history()),
            events=tuple(self.event_log()), winner=self.winner, round_index=self.round_index,
            last_actor=self.last_actor)


def describe_bad_deck(d: tuple[Card, ...]) -> str:
    if len(d) != 32:
        return f"a Seven Diamonds deck has 32 cards, this one has {len(d)}"
    seen: set[Card] = set()
    for c in d:
        if c in seen:
            return f"{CODES[c]} is twice in the deck"
        if not (DECK_MASK >> c) & 1:
            return f"{CODES[c]} is not a card of the Seven Diamonds deck (7 up to ace only)"
        seen.add(c)
    return "the deck is not the 32 Seven Diamonds cards"


# -------------------------------------------------------------- observation
@dataclass(frozen=True)
class SevenDiamondsObservation:
    """Everything one seat knows: its hand, the laid cards, hand counts, the
    calls, the public event log (with forced passes), scores and results.

    ``voids`` is public knowledge: for each seat, cards it is known not to
    hold (it was passed, or a timeout skipped a suit, while they were
    playable). ``hand``, ``table``, ``playable`` and ``voids`` are masks."""

    game = "seven_diamonds"

    options: SevenDiamondsOptions
    seat: int
    phase: str
    to_act: int | None
    dealer: int
    turn: int
    hand: int
    table: int
    playable: int
    hand_counts: tuple[int, int, int, int]
    spoken: int
    multiplier: int
    doubler: int
    voids: tuple[int, ...]
    score: tuple[int, int]
    games: tuple[int, int]
    results: tuple[SevenDiamondsRoundResult, ...]
    history: tuple[Action, ...]
    events: tuple[Event, ...]
    winner: int | None
    round_index: int
    last_actor: int

    game_index = 0  # a match is one game

    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def team(self) -> int:
        return self.seat & 1

    side = team

    def hand_cards(self) -> list[Card]:
        return sorted(C.cards_of(self.hand), key=build_order)

    def laid(self, suit: int) -> list[Card]:
        """The laid cards of a suit (0..3 for D H S C), from the 7 up."""
        return sorted(C.cards_of(self.table & C.SUIT_MASKS[suit]), key=build_order)

    def unseen_mask(self) -> int:
        """The cards this seat can't place: the other hands."""
        return DECK_MASK & ~self.hand & ~self.table if self.phase in (CALLS, PLAY) else 0

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions when it is to act (computed on a
        determinized state: legality never depends on hidden cards)."""
        if self.to_act != self.seat:
            return []
        return determinize_seven_diamonds(self, random.Random(0)).legal_actions()


def determinize_seven_diamonds(obs: SevenDiamondsObservation, rng: random.Random) -> SevenDiamondsState:
    """A full state consistent with ``obs``: the unseen cards dealt at random
    to the other seats, respecting every public constraint:

    - a seat holds exactly its public hand count;
    - a seat never holds a card of its ``voids`` (it was passed while that
      card was playable, so it did not hold it then, and hands never grow);
    - in play, the seat to act holds a playable card (otherwise the engine
      would have passed it): 7D itself before the opening.

    The deal is always found when one exists (and one does: the real one).
    """
    s = SevenDiamondsState.__new__(SevenDiamondsState)
    s.options = obs.options
    s.n = PLAYERS
    s.phase = obs.phase
    s.dealer = obs.dealer
    s.table = obs.table
    s.playable = obs.playable
    s.turn = obs.turn
    s.spoken = obs.spoken
    s.multiplier = obs.multiplier
    s.doubler = obs.doubler
    s.voids = obs.voids
    s.score = obs.score
    s.games = obs.games
    s.results = obs.results
    s.winner = obs.winner
    s.round_index = obs.round_index
    s.last_actor = obs.last_actor
    log: Cell | None = None
    for a in obs.history:
        log = (a, log)
    s.log = log
    s.log_len = len(obs.history)
    events: Cell | None = None
    for e in obs.events:
        events = (e, events)
    s.events = events
    s.hands = [0, 0, 0, 0]
    if obs.phase not in (CALLS, PLAY):
        return s
    s.hands[obs.seat] = obs.hand
    others = [seat for seat in range(PLAYERS) if seat != obs.seat]
    caps = {seat: obs.hand_counts[seat] for seat in others}
    unseen = C.cards_of(obs.unseen_mask())
    allowed = {c: sum(1 << seat for seat in others if not (obs.voids[seat] >> c) & 1) for c in unseen}
    must = obs.turn if obs.phase == PLAY and obs.turn != obs.seat else -1
    need = obs.playable & obs.unseen_mask() if must >= 0 else 0
    for _ in range(8):  # usually the constraints are mild: sample, then check the one "holds some" rule
        hands = _sample(unseen, allowed, caps, rng)
        if hands is not None and (must < 0 or hands[must] & need):
            for seat in others:
                s.hands[seat] = hands[seat]
            return s
    # exact fallback: give the seat to act one of the playable cards first
    firsts = C.cards_of(need)
    rng.shuffle(firsts)
    for c in firsts:
        if not (allowed[c] >> must) & 1:
            continue
        caps2 = dict(caps)
        caps2[must] -= 1
        rest = [x for x in unseen if x != c]
        hands = _sample(rest, allowed, caps2, rng)
        if hands is not None:
            hands[must] |= 1 << c
            for seat in others:
                s.hands[seat] = hands[seat]
            return s
    raise ValueError("no deal of the hidden cards agrees with this observation")


def _feasible(counts: dict[int, int], caps: dict[int, int], subsets: list[int]) -> bool:
    """Hall's condition: the cards whose allowed seats lie within any set S
    of seats fit in S's free places (``counts``: allowed-seat mask -> cards)."""
    for sub in subsets:
        room = 0
        for s, n in caps.items():
            if (sub >> s) & 1:
                room += n
        forced = 0
        for m, n in counts.items():
            if m & ~sub == 0:
                forced += n
        if forced > room:
            return False
    return True


def _sample(cards: list[Card], allowed: dict[Card, int], caps: dict[int, int],
            rng: random.Random) -> list[int] | None:
    """Deal ``cards`` to seats with ``caps`` free places, each card to a seat
    its ``allowed`` mask permits; None if impossible.

    The constrained cards go first, each to a seat drawn in proportion to its
    free places among those that keep the rest of the deal possible (so it
    never backtracks); the cards any seat may hold then fill the places left."""
    caps = dict(caps)
    full = 0
    for s in caps:
        full |= 1 << s
    subsets = []
    sub = full
    while sub:
        subsets.append(sub)
        sub = (sub - 1) & full
    counts: dict[int, int] = {}
    free: list[Card] = []
    bound: list[Card] = []
    for c in cards:
        m = allowed[c]
        counts[m] = counts.get(m, 0) + 1
        (free if m == full else bound).append(c)
    if len(cards) != sum(caps.values()) or not _feasible(counts, caps, subsets):
        return None
    rng.shuffle(bound)
    hands = [0, 0, 0, 0]
    for c in bound:
        m = allowed[c]
        counts[m] -= 1
        seats = [seat for seat in caps if (m >> seat) & 1 and caps[seat] > 0]
        while seats:
            seat = rng.choices(seats, [caps[x] for x in seats])[0]
            caps[seat] -= 1
            if _feasible(counts, caps, subsets):
                hands[seat] |= 1 << c
                break
            caps[seat] += 1
            seats.remove(seat)
        else:
            return None  # unreachable: the check before each card guarantees a seat
    rng.shuffle(free)
    i = 0
    for seat, n in caps.items():
        hands[seat] |= C.mask_of(free[i:i + n])
        i += n
    return hands


# ------------------------------------------------------------------- view
class _SessionLike(Protocol):
    state: Any
    last_move: dict[str, Any] | None

    def legal(self) -> list[str]: ...


def seven_diamonds_view(session: _SessionLike, seat: int) -> dict[str, Any]:
    """The Seven Diamonds table as ``seat`` sees it, as JSON-able values.

    Other hands appear only as counts; ``events`` is the round's public log
    (``[seat, "9H"]``, ``[seat, "passed"]``, ``[seat, "last card"]``,
    ``[seat, "out"]``, ``[seat, "timeout"]``, ``[seat, "double"]`` ...);
    ``legal`` is given only to the seat to act."""
    s: SevenDiamondsState = session.state
    obs = s.observation(seat)
    timers = s.options.timers
    timer: dict[str, Any] | None = None
    if timers is not None and s.phase in (CALLS, PLAY):
        timer = {"kind": "call", "seconds": timers.call} if s.phase == CALLS else \
            {"kind": "card", "seconds": timers.card}
    calls = [[e.seat, e.kind] for e in obs.events if e.kind in (DOUBLE, TRIPLE, PASS)]
    return {
        "game": "seven_diamonds",
        "options": s.options.to_dict(),
        "players": PLAYERS,
        "seat": seat,
        "team": seat & 1,
        "side": seat & 1,
        "phase": s.phase,
        "to_act": s.to_act(),
        "dealer": s.dealer,
        "hand": C.codes(obs.hand_cards()),
        "table": {SUITS[k]: C.codes(obs.laid(k)) for k in range(4)},
        "playable": C.codes(sorted(C.cards_of(obs.playable), key=build_order)) if s.phase == PLAY else [],
        "hand_counts": list(obs.hand_counts),
        "last_card": [p for p in range(PLAYERS) if obs.hand_counts[p] == 1],
        "calls": calls,
        "multiplier": obs.multiplier,
        "doubler": obs.doubler if obs.doubler >= 0 else None,
        "events": [e.to_json() for e in obs.events],
        "timer": timer,
        "score": list(s.score),
        "games": list(s.games),
        "target": s.options.target,
        "winner": s.winner,
        "round_index": s.round_index,
        "history": [str(a) for a in obs.history],
        "last": session.last_move,
        "results": [r.details() for r in s.results],
        "legal": session.legal() if s.to_act() == seat else [],
    }
