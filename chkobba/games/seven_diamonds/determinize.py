"""Hidden Seven Diamonds deals consistent with what one seat saw.

:func:`determinize` deals the unseen cards to the other seats at random,
respecting every public constraint (hand counts, known voids, the seat to act
holding a playable card); the sampler never backtracks (Hall's condition).
"""

from __future__ import annotations

import random

from ... import cards as C
from ...cards import Card
from ...protocol import Log, Observation
from .constants import CALLS, PLAY, PLAYERS
from .observation import SevenDiamondsObservation, seven_diamonds_observation
from .state import Cell, SevenDiamondsState


def determinize(obs: SevenDiamondsObservation, rng: random.Random) -> SevenDiamondsState:
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
    log: Log = None
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


determinize_seven_diamonds = determinize  # the name agents import


def determinize_observation(obs: Observation, rng: random.Random) -> SevenDiamondsState:
    """:func:`determinize` for a caller that holds an observation of any game
    (the registry's entry); TypeError for another game's."""
    return determinize(seven_diamonds_observation(obs), rng)
