"""Chkobba positions from their parts, for rule tests and tutorials.

A position reached by play is a record plus where to stop
(``Session.from_record(record, at=(round, ply))``). To state a rule on a
handful of cards (two hands of one card, three on the table, an empty deck),
:func:`setup` builds the position directly from its parts, like a chess
position from its FEN::

    >>> s = setup(hands=["QH", "KC"], table="7C AS 2D")
    >>> [str(a) for a in s.legal_actions()]
    ['QHxAS7C', 'QH']

Only the cards named are in play: cards that are nowhere are out of the
round (a tutorial's "the rest was played"). Every card is checked: a card of
the Chkobba deck, named once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ... import cards as C
from ...cards import Card
from ...errors import InvalidAction
from ...messages import quote
from .constants import DECK_MASK, PLAY, VALUES
from .state import ChkobbaState


def _cards(text: str | Sequence[str]) -> list[Card]:
    codes = text.split() if isinstance(text, str) else list(text)
    return [C.card(c) for c in codes]


def setup(hands: Sequence[str | Sequence[str]], table: str | Sequence[str] = "", *, turn: int = 0,
          options: Mapping[str, Any] | None = None, dealer: int | None = None,
          deck: str | Sequence[str] = "", piles: Sequence[str | Sequence[str]] = ("", ""),
          score: tuple[int, int] = (0, 0), games: tuple[int, int] = (0, 0)) -> ChkobbaState:
    """A Chkobba position in play: ``hands`` by seat (``"QH 3C"`` or a list
    of codes), the ``table``, the seat to play (``turn``), the cards left in
    the ``deck`` (dealt in that order) and each side's captured ``piles``. The number of players is the number of hands unless
    ``options`` say it; the dealer defaults to the seat before ``turn``.
    ``score`` is the game's score before this round (no side past the
    target unless both are level there: then the game plays on) and
    ``games`` the games each side has won in the match.

        >>> s = setup(["2H", ""], piles=("7D 7H 6D AD", "AC"), score=(9, 3))
        >>> s = s.apply("2H")     # the round ends: 4 points to 0
        >>> s.score, s.winner, s.games
        ((13, 3), 0, (1, 0))
    """
    opts = dict(options or {})
    opts.setdefault("players", len(hands))
    n = opts["players"]
    if len(hands) != n:
        raise InvalidAction("position.hands", players=n, count=len(hands))
    s = ChkobbaState.new(opts, (turn - 1) % n if dealer is None else dealer)
    hand_cards = [_cards(h) for h in hands]
    table_cards = _cards(table)
    deck_cards = _cards(deck)
    pile_cards = [_cards(p) for p in piles]
    seen = 0
    for c in [x for h in hand_cards for x in h] + table_cards + deck_cards + [x for p in pile_cards for x in p]:
        if not (DECK_MASK >> c) & 1:
            raise InvalidAction("chkobba.deck_foreign_card", card=C.CODES[c])
        if (seen >> c) & 1:
            raise InvalidAction("deal.card_twice", card=C.CODES[c])
        seen |= 1 << c
    if type(turn) is not int or not 0 <= turn < n:
        raise InvalidAction("position.turn", last=n - 1, turn=str(turn))
    for h in hand_cards:
        if len(h) > 3:
            raise InvalidAction("position.hand_size", count=len(h))
    target = s.options.target
    if (not isinstance(score, (tuple, list)) or len(score) != 2 or any(type(x) is not int or x < 0 for x in score)
            or (max(score) >= target and score[0] != score[1])):
        raise InvalidAction("position.score", target=target, score=quote(score))
    most = s.options.match // 2
    if (not isinstance(games, (tuple, list)) or len(games) != 2
            or any(type(x) is not int or not 0 <= x <= most for x in games)):
        raise InvalidAction("position.games", most=most, match=s.options.match, games=quote(games))
    s.values = VALUES[s.options.faces]
    s.phase = PLAY
    s.needs_deal = False
    s.round_index = 0
    s.hands = [tuple(sorted(h)) for h in hand_cards]
    s.table = tuple(table_cards)
    s.turn = turn
    s.deck = tuple(deck_cards)
    s.pos = 0
    s.piles = [C.mask_of(pile_cards[0]), C.mask_of(pile_cards[1])]
    s.score = (score[0], score[1])
    s.games = (games[0], games[1])
    s.game_index = games[0] + games[1]
    return s
