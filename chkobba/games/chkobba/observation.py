"""What one Chkobba seat may see.

An agent is handed an observation, never the state: a frozen value holding
only public facts and the seat's own cards (no reference to the state). The
hidden cards are dealt at random by :mod:`chkobba.games.chkobba.determinize`,
so search can play on a full state that agrees with everything the seat saw;
the test suite proves the observation of a determinized state is the
observation it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ... import cards as C
from ...actions import Action
from ...cards import Card
from .constants import CUT, DECK_MASK, PLAY
from .options import ChkobbaOptions

if TYPE_CHECKING:  # types only: the state imports this module
    from ...protocol import Observation
    from .state import ChkobbaState, RoundResult


@dataclass(frozen=True)
class ChkobbaObservation:
    """Everything a Chkobba seat knows: its hand, the table, every card played
    or captured (piles are public knowledge to a player who watched), counts,
    scores and the round's public action log. A kept cut card is seen only by
    the cutter (``cut_card`` is -1 for everyone else). ``legal`` holds the
    seat's legal actions when it is to act (legality depends only on what the
    seat sees), else ``()``."""

    game = "chkobba"

    options: ChkobbaOptions
    seat: int
    phase: str
    to_act: int | None
    dealer: int
    hand: tuple[Card, ...]
    cut_card: Card
    table: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    deck_left: int
    piles: tuple[int, int]
    chkobbas: tuple[tuple[Card, ...], tuple[Card, ...]]
    last_capturer: int
    turn: int
    claim: tuple[Card, tuple[Card, ...]] | None
    proposer: int
    score: tuple[int, int]
    games: tuple[int, int]
    game_index: int
    round_index: int
    results: "tuple[RoundResult, ...]"
    history: tuple[Action, ...]
    winner: int | None
    redeal_next: bool
    last_actor: int
    legal: tuple[Action, ...] = ()

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def side(self) -> int:
        return self.seat & 1

    def unseen_mask(self) -> int:
        """The cards this seat can't place: other hands and the deck."""
        seen = C.mask_of(self.hand) | C.mask_of(self.table) | self.piles[0] | self.piles[1]
        return DECK_MASK & ~seen

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions when it is to act, else ``[]``."""
        return list(self.legal)

    def claim_window(self) -> tuple[Card, int] | None:
        """``(card, seat)`` when the seat to act may claim a missed capture
        right now: the table allows claims and ``seat``, the previous seat,
        just laid ``card`` onto a non-empty table. Said after every such lay,
        so it never reveals whether a capture was actually missed."""
        if self.phase != PLAY or self.claim is None or self.to_act is None:
            return None
        return self.claim[0], self.last_actor


def observe_chkobba(s: "ChkobbaState", seat: int) -> ChkobbaObservation:
    """The observation of ``seat`` in state ``s``."""
    to_act = s.to_act()
    cut = s.deck[0] if s.phase == CUT and seat == s.cutter and s.deck else -1
    return ChkobbaObservation(
        options=s.options, seat=seat, phase=s.phase, to_act=to_act, dealer=s.dealer,
        hand=s.hands[seat], cut_card=cut, table=s.table,
        hand_counts=tuple(len(h) for h in s.hands), deck_left=len(s.deck) - s.pos,
        piles=(s.piles[0], s.piles[1]), chkobbas=(s.chkobbas[0], s.chkobbas[1]),
        last_capturer=s.last_capturer, turn=s.turn, claim=s.claim, proposer=s.proposer,
        score=s.score, games=s.games, game_index=s.game_index, round_index=s.round_index,
        results=s.results, history=tuple(s.history()), winner=s.winner, redeal_next=s.redeal_next,
        last_actor=s.last_actor, legal=tuple(s.legal_actions()) if to_act == seat else ())


def chkobba_observation(obs: "Observation") -> ChkobbaObservation:
    """``obs`` as a Chkobba observation (the narrowing the registry's
    game-agnostic callers use); TypeError for another game's."""
    if not isinstance(obs, ChkobbaObservation):
        raise TypeError(f"not a Chkobba observation: {type(obs).__name__}")
    return obs
