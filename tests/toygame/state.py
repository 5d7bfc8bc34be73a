"""High Card's rules: the state, a seat's observation and a round's result."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chkobba import cards as C
from chkobba.actions import LAY, Action, parse_action
from chkobba.cards import Card
from chkobba.errors import InvalidAction
from chkobba.messages import Message, message
from chkobba.protocol import JSON, GameState, JSONDict, Log, Observation, StateBase

from .options import HighCardOptions

DECK: tuple[Card, ...] = tuple(C.card(code) for code in ("AD", "2D", "3D", "AH", "2H", "3H"))
DEAL, PLAY, OVER = "deal", "play", "over"
MESSAGES = {
    "high_card.deck": "a High Card deck is the ace, 2 and 3 of diamonds and hearts",
    "high_card.not_your_turn": "no seat is to play now",
    "stats.game.high_card": "High Card",
}


def rank(c: Card) -> int:
    return c % 13


@dataclass(frozen=True)
class HighCardRound:
    """A finished round: the tricks each seat took and the points."""

    game: int
    tricks: tuple[int, int]
    points: tuple[int, int]
    game_winner: int | None
    game_won_by: str | None

    def to_dict(self) -> JSONDict:
        return {"game": self.game, "tricks": list(self.tricks), "points": list(self.points)}

    def details(self) -> JSONDict:
        return self.to_dict()


@dataclass(frozen=True)
class HighCardObservation:
    """What one seat sees: its hand, the trick on the table, the history."""

    game: str
    seat: int
    side: int
    phase: str
    to_act: int | None
    round_index: int
    history: tuple[Action, ...]
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]
    tricks: tuple[int, int]
    dealer: int
    score: tuple[int, int]
    options: HighCardOptions

    def legal_actions(self) -> list[Action]:
        return [Action(LAY, c) for c in sorted(self.hand)] if self.to_act == self.seat else []

    def unseen_mask(self) -> int:
        played = {a.card for a in self.history}
        return C.mask_of(c for c in DECK if c not in self.hand and c not in played)

    def claim_window(self) -> tuple[Card, int] | None:
        return None


class HighCardState(StateBase):
    game = "high_card"
    n = 2

    def __init__(self, options: HighCardOptions, dealer: int) -> None:
        self.options = options
        self.dealer = dealer
        self.phase = DEAL
        self.log: Log = None
        self.results: list[HighCardRound] = []
        self.hands: list[list[Card]] = [[], []]
        self.trick: list[Card] = []
        self.tricks = [0, 0]
        self.turn = 0
        self.round_index = -1
        self.last_actor = -1
        self.winner: int | None = None

    # ------------------------------------------------------------ the class
    @classmethod
    def options_class(cls) -> type[HighCardOptions]:
        return HighCardOptions

    @classmethod
    def full_deck(cls) -> tuple[Card, ...]:
        return DECK

    @classmethod
    def new(cls, options: HighCardOptions | Mapping[str, object] | None = None, first_dealer: int = 0,
            deck: Sequence[Card] | None = None) -> "HighCardState":
        opts = options if isinstance(options, HighCardOptions) else HighCardOptions.from_dict(options)
        s = cls(opts, first_dealer)
        if deck is not None:
            s.deal(deck)
        return s

    def copy(self) -> "HighCardState":
        s = HighCardState(self.options, self.dealer)
        s.__dict__.update(self.__dict__)
        s.results = list(self.results)
        s.hands = [list(h) for h in self.hands]
        s.trick = list(self.trick)
        s.tricks = list(self.tricks)
        return s

    # ------------------------------------------------------------- queries
    @property
    def score(self) -> tuple[int, int]:
        return (sum(r.points[0] for r in self.results), sum(r.points[1] for r in self.results))

    @property
    def games(self) -> tuple[int, int]:
        return (0, 0) if self.winner is None else (int(self.winner == 0), int(self.winner == 1))

    @property
    def game_index(self) -> int:
        return 0

    def to_act(self) -> int | None:
        return self.turn if self.phase == PLAY else None

    def round_over(self) -> bool:
        return self.phase in (DEAL, OVER) and self.round_index >= 0

    def side_of(self, seat: int) -> int:
        return seat

    def legal_actions(self) -> list[Action]:
        return [Action(LAY, c) for c in sorted(self.hands[self.turn])] if self.phase == PLAY else []

    def parse(self, text: str) -> Action:
        a = parse_action(text)
        if a.kind != LAY:
            raise InvalidAction("play.not_in_hand", card=text)
        return a

    def explain(self, a: Action) -> Message:
        if self.phase != PLAY:
            return message("high_card.not_your_turn")
        return message("play.not_in_hand", card=str(a))

    def observation(self, seat: int) -> HighCardObservation:
        return HighCardObservation(self.game, seat, seat, self.phase, self.to_act(), self.round_index,
                                   tuple(self.history()), tuple(self.hands[seat]), tuple(self.trick),
                                   (self.tricks[0], self.tricks[1]), self.dealer, self.score, self.options)

    # ---------------------------------------------------------------- play
    def deal(self, deck: Sequence[Card]) -> None:
        if self.phase != DEAL or sorted(deck) != sorted(DECK):
            raise InvalidAction("high_card.deck")
        first = (self.dealer + 1) % 2
        self.hands = [[], []]
        self.hands[first], self.hands[1 - first] = list(deck[:3]), list(deck[3:])
        self.trick, self.tricks, self.turn = [], [0, 0], first
        self.round_index += 1
        self.log = None
        self.phase = PLAY

    def play(self, a: Action) -> None:
        seat = self.turn
        self.hands[seat].remove(a.card)
        self.trick.append(a.card)
        self.log = (a, self.log)
        self.last_actor = seat
        if len(self.trick) == 1:
            self.turn = 1 - seat
            return
        lead, follow = rank(self.trick[0]), rank(self.trick[1])
        taker = None if lead == follow else (1 - seat if lead > follow else seat)
        if taker is not None:
            self.tricks[taker] += 1
        self.turn = 1 - seat if taker is None else taker
        self.trick = []
        if self.hands[0] or self.hands[1]:
            return
        t = self.tricks
        points = (int(t[0] > t[1]), int(t[1] > t[0]))
        before = self.score
        after = (before[0] + points[0], before[1] + points[1])
        winner = next((side for side in (0, 1) if after[side] >= self.options.target), None)
        self.results.append(HighCardRound(0, (t[0], t[1]), points, winner,
                                          None if winner is None else "target"))
        if winner is not None:
            self.winner, self.phase = winner, OVER
        else:
            self.dealer, self.phase = (self.dealer + 1) % 2, DEAL

    # --------------------------------------------------------------- shown
    def describe_moves(self, a: Action, after: "HighCardState") -> list[JSONDict]:
        said = message("move.lay", seat=self.turn, card=C.code(a.card))
        return [{"seat": self.turn, "action": str(a), "kind": "lay", "card": C.code(a.card), "cards": [],
                 "take": [], "chkobba": False, "round_ended": after.round_over(), "code": said.code,
                 "params": dict(said.params), "text": str(said)}]

    def view(self, seat: int | None) -> JSONDict:
        legal: list[JSON] = [str(a) for a in self.legal_actions()] if seat in (None, self.to_act()) else []
        out: JSONDict = {
            "game": self.game, "options": self.options.to_dict(), "players": 2, "seat": seat,
            "side": seat, "phase": self.phase, "to_act": self.to_act(), "dealer": self.dealer,
            "hand": [] if seat is None else C.codes(self.hands[seat]),
            "hand_counts": [len(h) for h in self.hands], "trick": C.codes(self.trick),
            "tricks": list(self.tricks), "score": list(self.score), "games": list(self.games),
            "target": self.options.target, "winner": self.winner, "round_index": self.round_index,
            "history": [str(a) for a in self.history()], "results": [r.details() for r in self.results],
            "claim": None, "legal": legal,
        }
        if seat is None:
            out["hands"] = [C.codes(h) for h in self.hands]
        return out


def high_card_state(s: GameState[Observation]) -> HighCardState:
    if not isinstance(s, HighCardState):
        raise TypeError(f"not a High Card state: {type(s).__name__}")
    return s


def determinize(obs: Observation, rng: random.Random) -> HighCardState:
    """The one state an observation allows: the other seat holds every card
    neither in this hand nor played (all six are dealt)."""
    assert isinstance(obs, HighCardObservation)
    s = HighCardState(obs.options, obs.dealer)
    s.phase, s.round_index, s.turn = obs.phase, obs.round_index, obs.to_act or 0
    s.hands[obs.seat] = list(obs.hand)
    s.hands[1 - obs.seat] = C.cards_of(obs.unseen_mask())
    s.trick, s.tricks = list(obs.trick), list(obs.tricks)
    for a in obs.history:
        s.log = (a, s.log)
    return s
