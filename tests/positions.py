"""Helpers that state Chkobba positions for rule tests."""

from __future__ import annotations

from typing import Any, Sequence

from chkobba.cards import card, code
from chkobba.games.chkobba.state import DECK, PLAY, ChkobbaState
from chkobba.session import Session


def cards(text: str) -> list[int]:
    return [card(c) for c in text.split()]


def deck_for(table: str, hands: Sequence[str], rest: str = "") -> list[str]:
    """A deck for a "table" cut: ``table`` (4 cards) then the first hands in
    order of play from the cutter, then ``rest``, then every other card."""
    head = table.split() + [c for h in hands for c in h.split()] + rest.split()
    assert len(set(head)) == len(head), head
    tail = [code(c) for c in DECK if code(c) not in head]
    return head + tail


def position(hands: Sequence[str], table: str, turn: int = 0, options: dict[str, Any] | None = None,
             dealer: int | None = None, deck: str = "", piles: Sequence[str] = ("", "")) -> ChkobbaState:
    """A state in the middle of play with the given hands (by seat) and table."""
    opts = dict(options or {})
    opts.setdefault("players", len(hands))
    n = opts["players"]
    s = ChkobbaState.new(opts, (turn - 1) % n if dealer is None else dealer)
    s.phase = PLAY
    s.round_index = 0
    s.hands = [tuple(sorted(cards(h))) for h in hands]
    s.table = tuple(cards(table))
    s.turn = turn
    s.deck = tuple(cards(deck))
    s.pos = 0
    from chkobba.cards import mask_of
    s.piles = [mask_of(cards(piles[0])), mask_of(cards(piles[1]))]
    return s


def session_with(deck: list[str], options: dict[str, Any] | None = None, first_dealer: int = 0,
                 actions: Sequence[str] = ()) -> Session:
    """A session replaying one round that starts with ``deck``."""
    opts = dict(options or {})
    rec = {"game": "chkobba", "options": opts, "first_dealer": first_dealer,
           "rounds": [{"decks": [deck], "actions": list(actions)}]}
    return Session.from_record(rec, seed=1)
