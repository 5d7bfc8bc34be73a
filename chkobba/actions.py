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
from .messages import quote

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


def canonical_take(cards: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def word(kind: str) -> Action:
    return _WORD_ACTIONS[kind]


_WORD_ACTIONS = {w: Action(w) for w in WORDS}


def parse_action(text: object) -> Action:
    """Read an action's one canonical text; raises :class:`InvalidAction` if it is not one.

    The reading is strict (RECORDS.md, "Strict reading"): no whitespace of any
    kind around or inside the text, ``claim`` followed by exactly one space;
    only the order of captured cards is free. This checks the syntax only;
    whether the action is legal is the game's call.

    >>> parse_action("QHx7DAS") == parse_action("QHxAS7D")
    True
    >>> str(parse_action("claim QHx7DAS")), str(parse_action("keep"))
    ('claim QHxAS7D', 'keep')
    >>> parse_action(" 7D")
    Traceback (most recent call last):
    ...
    chkobba.errors.InvalidAction: " 7D": an action is written without spaces (only "claim" is followed by one space, like "claim QHx7DAS")
    >>> parse_action("claim  QHx7D")
    Traceback (most recent call last):
    ...
    chkobba.errors.InvalidAction: "claim  QHx7D": an action is written without spaces (only "claim" is followed by one space, like "claim QHx7DAS")
    """
    if not isinstance(text, str):
        raise InvalidAction("action.not_text", value=quote(text))
    w = _WORD_ACTIONS.get(text)
    if w is not None:
        return w
    t = text
    claim = t.startswith("claim")
    if claim:
        if not t.startswith("claim "):  # "claim", "claimQHx7D"
            raise InvalidAction("action.claim_form" if t == "claim" else "action.spaces", action=quote(text))
        t = t[6:]
    if any(ch.isspace() for ch in t) and (claim or t.strip()):
        raise InvalidAction("action.spaces", action=quote(text))
    if claim and "x" not in t:
        raise InvalidAction("action.claim_form", action=quote(text))
    if "x" in t:
        head, _, tail = t.partition("x")
        c = card(head)
        if not tail:
            raise InvalidAction("action.take_missing", action=quote(text), card=head)
        take = parse_cards(tail)
        if len(set(take)) != len(take):
            dup = next(CODES[x] for x in take if take.count(x) > 1)
            raise InvalidAction("action.duplicate", action=quote(text), card=dup)
        if c in take:
            raise InvalidAction("action.takes_itself", action=quote(text), card=head)
        return Action(CLAIM if claim else CAPTURE, c, canonical_take(take))
    if len(t) == 2:
        return Action(LAY, card(t))
    raise InvalidAction("action.unknown", action=quote(text))
