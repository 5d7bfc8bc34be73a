"""Cards and their two-character codes.

A card is a small int ``suit * 13 + rank`` with ranks in the order
``A 2 3 4 5 6 7 8 9 T J Q K`` and suits ``D H S C``. Sets of cards are int bit
masks, so "which cards are unseen" is one subtraction and copying a set is free.
Both games share this encoding; each uses a subset of the 52 codes.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidAction

RANKS = "A23456789TJQK"
SUITS = "DHSC"
SUIT_NAMES = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}

Card = int

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}

DIAMOND = 0


def card(code: str) -> Card:
    """The card of a code such as ``"7D"``; raises :class:`InvalidAction`."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise InvalidAction(f'"{code}" is not a card (a card is a rank {" ".join(RANKS)} and a suit D H S C, like 7D)') from None


def code(c: Card) -> str:
    return CODES[c]


def rank_of(c: Card) -> str:
    return RANKS[c % 13]


def suit_of(c: Card) -> int:
    return c // 13


def make(rank: str, suit: str) -> Card:
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def parse_cards(text: str) -> list[Card]:
    """Cards written back to back with no separator (``"7DAS"``)."""
    if len(text) % 2:
        raise InvalidAction(f'"{text}" is not a list of two-character card codes')
    return [card(text[i:i + 2]) for i in range(0, len(text), 2)]


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def codes(cards: Iterable[Card]) -> list[str]:
    return [CODES[c] for c in cards]


def describe(c: Card) -> str:
    """A card in words: "the seven of diamonds"."""
    r = rank_of(c)
    words = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
             "8": "eight", "9": "nine"}
    name = RANK_NAMES.get(r) or words[r]
    return f"the {name} of {SUIT_NAMES[SUITS[suit_of(c)]]}"


SUIT_MASKS: tuple[int, ...] = tuple(mask_of(range(s * 13, s * 13 + 13)) for s in range(4))
