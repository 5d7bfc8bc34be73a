"""What one seat may see, and hidden deals consistent with it.

An agent is handed an observation, never the state. :func:`determinize` deals
the cards the seat can't see (other hands, the rest of the deck) at random, so
search can play on a full state that agrees with everything the seat saw. The
test suite proves the point: the observation of a determinized state is the
observation it came from.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import cards as C
from ...actions import Action
from ...cards import Card
from ...options import ChkobbaOptions

if TYPE_CHECKING:
    from .state import ChkobbaState, RoundResult


@dataclass(frozen=True)
class ChkobbaObservation:
    """Everything a Chkobba seat knows: its hand, the table, every card played
    or captured (piles are public knowledge to a player who watched), counts,
    scores and the round's public action log. A kept cut card is seen only by
    the cutter (``cut_card`` is -1 for everyone else)."""

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

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def side(self) -> int:
        return self.seat & 1

    def unseen_mask(self) -> int:
        """The cards this seat can't place: other hands and the deck."""
        from .state import DECK_MASK
        seen = C.mask_of(self.hand) | C.mask_of(self.table) | self.piles[0] | self.piles[1]
        return DECK_MASK & ~seen

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions when it is to act (computed on the public
        part of the state with this seat's hand: legality never depends on
        hidden cards)."""
        if self.to_act != self.seat:
            return []
        return _public_state(self).legal_actions()


def observe_chkobba(s: "ChkobbaState", seat: int) -> ChkobbaObservation:
    from .state import CUT
    cut = s.deck[0] if s.phase == CUT and seat == s.cutter and s.deck else -1
    return ChkobbaObservation(
        options=s.options, seat=seat, phase=s.phase, to_act=s.to_act(), dealer=s.dealer,
        hand=s.hands[seat], cut_card=cut, table=s.table,
        hand_counts=tuple(len(h) for h in s.hands), deck_left=len(s.deck) - s.pos,
        piles=(s.piles[0], s.piles[1]), chkobbas=(s.chkobbas[0], s.chkobbas[1]),
        last_capturer=s.last_capturer, turn=s.turn, claim=s.claim, proposer=s.proposer,
        score=s.score, games=s.games, game_index=s.game_index, round_index=s.round_index,
        results=s.results, history=tuple(s.history()), winner=s.winner, redeal_next=s.redeal_next,
        last_actor=s.last_actor)


def determinize(obs: Any, rng: random.Random) -> Any:
    """A full state consistent with ``obs``, the unseen cards dealt at random.

    Works for both games: it dispatches on the observation's game.
    """
    if obs.game == "chkobba":
        return _determinize_chkobba(obs, rng)
    from ...games.seven_diamonds.state import determinize_seven_diamonds
    return determinize_seven_diamonds(obs, rng)


def _public_state(obs: ChkobbaObservation) -> "ChkobbaState":
    """A state holding what ``obs`` shows: the seat's own hand, no other
    hand and no deck (determinize deals those)."""
    from .state import ChkobbaState, VALUES
    s = ChkobbaState.__new__(ChkobbaState)
    s.options = obs.options
    s.n = obs.options.players
    s.values = VALUES[obs.options.faces]
    s.phase = obs.phase
    s.dealer = obs.dealer
    s.table = obs.table
    s.piles = list(obs.piles)
    s.chkobbas = list(obs.chkobbas)
    s.last_capturer = obs.last_capturer
    s.turn = obs.turn
    s.claim = obs.claim
    s.proposer = obs.proposer
    s.score = obs.score
    s.games = obs.games
    s.game_index = obs.game_index
    s.round_index = obs.round_index
    s.results = obs.results
    s.winner = obs.winner
    s.redeal_next = obs.redeal_next
    s.last_actor = obs.last_actor
    log: tuple[Any, ...] | None = None
    for a in obs.history:
        log = (a, log)
    s.log = log
    s.log_len = len(obs.history)
    s.deck = ()
    s.pos = 0
    s.hands = [()] * s.n
    s.hands[obs.seat] = obs.hand
    return s


def _determinize_chkobba(obs: ChkobbaObservation, rng: random.Random) -> "ChkobbaState":
    from .state import CUT, DEAL, DECK, OVER
    s = _public_state(obs)
    if obs.phase in (DEAL, OVER):
        return s
    if obs.phase == CUT:
        rest = [c for c in DECK if c != obs.cut_card]
        rng.shuffle(rest)
        s.deck = tuple(([obs.cut_card] if obs.cut_card >= 0 else []) + rest)
        return s
    unseen = C.cards_of(obs.unseen_mask())
    rng.shuffle(unseen)
    hands: list[tuple[Card, ...]] = []
    i = 0
    for seat, count in enumerate(obs.hand_counts):
        if seat == obs.seat:
            hands.append(obs.hand)
        else:
            hands.append(tuple(sorted(unseen[i:i + count])))
            i += count
    s.hands = hands
    s.deck = tuple(unseen[i:])
    return s
