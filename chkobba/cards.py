"""Cards and their two-character codes.

A card is a small int ``suit * 13 + rank`` with ranks in the order
``A 2 3 4 5 6 7 8 9 T J Q K`` and suits ``D H S C``. Sets of cards are int bit
masks, so "which cards are unseen" is one subtraction and copying a set is free.
Both games share this encoding; each uses a subset of the 52 codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import InvalidAction
from .messages import quote

RANKS = "A23456789TJQK"
SUITS = "DHSC"
SUIT_NAMES = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}

Card = int

CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_BY_CODE: dict[str, int] = {code: i for i, code in enumerate(CODES)}

DIAMOND = 0


def card(code: str) -> Card:
    """The card of a code such as ``"7D"``; raises :class:`InvalidAction`.

    >>> card("7D"), card("AH"), CODES[card("KC")]
    (6, 13, 'KC')
    >>> card("8X")
    Traceback (most recent call last):
    ...
    chkobba.errors.InvalidAction: "8X" is not a card (a card is a rank A 2 3 4 5 6 7 8 9 T J Q K and a suit D H S C, like 7D)
    """
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise InvalidAction("card.unknown", text=quote(code if isinstance(code, str) else str(code))) from None


def code(c: Card) -> str:
    return CODES[c]


def rank_of(c: Card) -> str:
    """The rank letter of a card.

    >>> rank_of(card("TH")), suit_of(card("TH")), make("T", "H") == card("TH")
    ('T', 1, True)
    """
    return RANKS[c % 13]


def suit_of(c: Card) -> int:
    return c // 13


def make(rank: str, suit: str) -> Card:
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def parse_cards(text: str) -> list[Card]:
    """Cards written back to back with no separator (``"7DAS"``).

    >>> codes(parse_cards("7DAS"))
    ['7D', 'AS']
    """
    if len(text) % 2:
        raise InvalidAction("card.list_odd", text=quote(text))
    return [card(text[i:i + 2]) for i in range(0, len(text), 2)]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a set of cards.

    >>> cards_of(mask_of([card("7D"), card("AD")])) == [card("AD"), card("7D")]
    True
    """
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
    """A card in words.

    >>> describe(card("7D")), describe(card("QS"))
    ('the seven of diamonds', 'the queen of spades')
    """
    r = rank_of(c)
    words = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
             "8": "eight", "9": "nine"}
    name = RANK_NAMES.get(r) or words[r]
    return f"the {name} of {SUIT_NAMES[SUITS[suit_of(c)]]}"


SUIT_MASKS: tuple[int, ...] = tuple(mask_of(range(s * 13, s * 13 + 13)) for s in range(4))


SUIT_GLYPHS = {"D": "\u2666", "H": "\u2665", "S": "\u2660", "C": "\u2663"}


def pretty(codes: Sequence[str]) -> str:
    """Card codes for a terminal: ``7\u2666(7D) ...``, ``-`` for none."""
    return " ".join(c[0] + SUIT_GLYPHS[c[1]] + f"({c})" for c in codes) or "-"
