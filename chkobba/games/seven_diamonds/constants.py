"""Seven Diamonds' fixed facts: phases of play, the 32-card deck, the order
a suit is built in and the points of cards left in a hand.

Shared by the state, its observation, determinize and view.
"""

from __future__ import annotations

from ... import cards as C
from ...actions import LAY, Action
from ...cards import SUITS, Card

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


ACES = sum(1 << c for c in range(52) if POINTS[c] == 20)
FACES = sum(1 << c for c in range(52) if POINTS[c] == 10)


def points_of(mask: int) -> int:
    """The points of the cards of a mask left in a losing hand."""
    return 20 * (mask & ACES).bit_count() + 10 * (mask & FACES).bit_count()


def speaking_order(dealer: int) -> tuple[int, ...]:
    """The seats in the order they call (and first play): from the dealer's right."""
    return tuple((dealer + 1 + k) % PLAYERS for k in range(PLAYERS))


def may_double(doubler: int) -> bool:
    """Whether the seat to call may double: nobody has (``doubler`` -1)."""
    return doubler < 0


def may_triple(doubler: int, multiplier: int, seat: int) -> bool:
    """Whether ``seat`` may triple: the other team doubled and nobody tripled."""
    return multiplier == 2 and seat & 1 != doubler

