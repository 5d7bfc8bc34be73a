"""Actions and their one canonical text form (RECORDS.md).

An :class:`Action` is a small immutable value. ``str(action)`` is its canonical
text and :func:`parse_action` reads any text of that form back, so
``parse_action(str(a)) == a`` for every action. Captured cards are kept in a
canonical order (rank, then suit D H S C), whatever order the text gave.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CODES, Card, parse_cards, card
from .errors import InvalidAction

# Kinds of action. Word actions carry no card.
KEEP = "keep"
TABLE = "table"
PROPOSE = "propose"
PASS = "pass"
ACCEPT = "accept"
REFUSE = "refuse"
DOUBLE = "double"
TRIPLE = "triple"
TIMEOUT = "timeout"
LAY = "lay"
CAPTURE = "capture"
CLAIM = "claim"

WORDS = (KEEP, TABLE, PROPOSE, PASS, ACCEPT, REFUSE, DOUBLE, TRIPLE, TIMEOUT)

# Sort key putting captured cards in canonical order: rank first, then suit.
ORDER: tuple[int, ...] = tuple((c % 13) * 4 + c // 13 for c in range(52))


class Action(NamedTuple):
    kind: str
    card: Card = -1
    take: tuple[Card, ...] = ()

    def __str__(self) -> str:
        k = self.kind
        if k == LAY:
            return CODES[self.card]
        if k == CAPTURE:
            return CODES[self.card] + "x" + "".join([CODES[c] for c in self.take])
        if k == CLAIM:
            return "claim " + CODES[self.card] + "x" + "".join([CODES[c] for c in self.take])
        return k

    @property
    def text(self) -> str:
        return str(self)


def canonical_take(cards: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def word(kind: str) -> Action:
    return _WORD_ACTIONS[kind]


_WORD_ACTIONS = {w: Action(w) for w in WORDS}


def parse_action(text: object) -> Action:
    """Read an action's text; raises :class:`InvalidAction` if it is not one.

    This checks the syntax only; whether the action is legal is the game's call.
    """
    if not isinstance(text, str):
        raise InvalidAction(f"an action is a text such as \"7D\" or \"keep\", not {text!r}")
    t = text.strip()
    if t in _WORD_ACTIONS:
        return _WORD_ACTIONS[t]
    claim = False
    if t.startswith("claim"):
        claim = True
        t = t[5:].strip()
        if "x" not in t:
            raise InvalidAction(f'"{text}": a claim names the laid card and what it could have taken, like "claim QHx7DAS"')
    if "x" in t:
        head, _, tail = t.partition("x")
        c = card(head)
        if not tail:
            raise InvalidAction(f'"{text}": name the cards {head} takes after the x, like "{head}x7D"')
        take = parse_cards(tail)
        if len(set(take)) != len(take):
            dup = next(CODES[x] for x in take if take.count(x) > 1)
            raise InvalidAction(f'"{text}": {dup} is named twice')
        if c in take:
            raise InvalidAction(f'"{text}": {head} cannot take itself')
        return Action(CLAIM if claim else CAPTURE, c, canonical_take(take))
    if len(t) == 2:
        return Action(LAY, card(t))
    raise InvalidAction(f'"{text}" is not an action (examples: "keep", "7D", "QHx7DAS", "claim QHx7DAS", "pass")')
