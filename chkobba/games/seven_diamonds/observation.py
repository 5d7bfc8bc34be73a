"""What one Seven Diamonds seat may see.

An agent is handed an observation, never the state: a frozen value holding
only public facts (including the public event log with forced passes) and
the seat's own cards. Hidden hands are dealt by
:mod:`chkobba.games.seven_diamonds.determinize`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ... import cards as C
from ...actions import Action
from ...cards import Card
from .constants import CALLS, DECK_MASK, PLAY, PLAYERS, build_order
from .options import SevenDiamondsOptions

if TYPE_CHECKING:  # types only: the state imports this module
    from ...protocol import Observation
    from .state import Event, SevenDiamondsRoundResult, SevenDiamondsState


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
    legal: tuple[Action, ...] = ()

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
        """The seat's legal actions when it is to act (legality never
        depends on hidden cards), else ``[]``."""
        return list(self.legal)

    def claim_window(self) -> None:
        """Nothing is ever claimed in Seven Diamonds."""
        return None


def observe_seven_diamonds(s: "SevenDiamondsState", seat: int) -> SevenDiamondsObservation:
    """The observation of ``seat`` in state ``s``."""
    to_act = s.to_act()
    return SevenDiamondsObservation(
        options=s.options, seat=seat, phase=s.phase, to_act=to_act, dealer=s.dealer,
        turn=s.turn, hand=s.hands[seat], table=s.table, playable=s.playable,
        hand_counts=(s.hands[0].bit_count(), s.hands[1].bit_count(),
                     s.hands[2].bit_count(), s.hands[3].bit_count()),
        spoken=s.spoken, multiplier=s.multiplier, doubler=s.doubler, voids=s.voids,
        score=s.score, games=s.games, results=s.results, history=tuple(s.history()),
        events=tuple(s.event_log()), winner=s.winner, round_index=s.round_index,
        last_actor=s.last_actor, legal=tuple(s.legal_actions()) if to_act == seat else ())


def seven_diamonds_observation(obs: "Observation") -> SevenDiamondsObservation:
    """``obs`` as a Seven Diamonds observation (the narrowing the registry's
    game-agnostic callers use); TypeError for another game's."""
    if not isinstance(obs, SevenDiamondsObservation):
        raise TypeError(f"not a Seven Diamonds observation: {type(obs).__name__}")
    return obs
