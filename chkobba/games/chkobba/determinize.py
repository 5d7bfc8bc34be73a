"""Hidden Chkobba deals consistent with what one seat saw.

:func:`determinize` deals the cards the seat can't see (other hands, the rest
of the deck) at random, so search can play on a full state that agrees with
everything the seat saw.
"""

from __future__ import annotations

import random

from ... import cards as C
from ...cards import Card
from .constants import CUT, DEAL, DECK, OVER, VALUES
from .observation import ChkobbaObservation, chkobba_observation
from .state import ChkobbaState
from ...protocol import Log, Observation


def public_state(obs: ChkobbaObservation) -> ChkobbaState:
    """A state holding what ``obs`` shows: the seat's own hand, no other
    hand and no deck (determinize deals those)."""
    s = ChkobbaState.__new__(ChkobbaState)
    s.options = obs.options
    s.n = obs.options.players
    s.values = VALUES[obs.options.faces]
    s.phase = obs.phase
    s.needs_deal = obs.phase == DEAL
    s.is_over = obs.phase == OVER
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
    log: Log = None
    for a in obs.history:
        log = (a, log)
    s.log = log
    s.log_len = len(obs.history)
    s.deck = ()
    s.pos = 0
    s.hands = [()] * s.n
    s.hands[obs.seat] = obs.hand
    return s


def determinize(obs: ChkobbaObservation, rng: random.Random) -> ChkobbaState:
    """A full state consistent with ``obs``, the unseen cards dealt at random."""
    s = public_state(obs)
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


def determinize_observation(obs: Observation, rng: random.Random) -> ChkobbaState:
    """:func:`determinize` for a caller that holds an observation of any game
    (the registry's entry); TypeError for another game's."""
    return determinize(chkobba_observation(obs), rng)
