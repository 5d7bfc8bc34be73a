"""Seven Diamonds positions from their parts, for rule tests and tutorials.

A position reached by play is a record plus where to stop
(``Session.from_record(record, at=(round, ply))``). To state a rule or a
decision on chosen cards, :func:`setup` builds the position directly from its
parts: the four hands, the rows laid on the table, the calls spoken so far,
the seat to play and the score::

    >>> s = setup(["7D 8D 9D TD 7S 8S KC QH", "JD QD KD AD 8H 9H TH JH",
    ...            "7H 9S TS JS QS KS AS 7C", "8C 9C TC JC QC AC KH AH"],
    ...           calls=["pass", "double", "triple"], dealer=2, score=(120, 40))
    >>> s.phase, s.to_act(), s.multiplier, [str(a) for a in s.legal_actions()]
    ('calls', 2, 3, ['pass', 'timeout'])
    >>> s = setup(["9D TD 8S KC QH", "JD QD KD AD 8H 9H TH JH",
    ...            "9S TS JS QS KS AS 7C", "8C 9C TC JC QC AC KH AH"],
    ...           laid="7D 8D 7H 7S", turn=0, options={"calls": False, "timers": False})
    >>> [str(a) for a in s.legal_actions()]
    ['9D', '8S']

Every card of the 32 is in one hand or laid (the game passes for a seat with
no card that fits, so a card that is nowhere would stall it); the laid cards
of a suit are a row up from its 7, and no 7 but 7D opens before 7D. Calls are
spoken by the rules (each one checked like a player's call, from the dealer's
right); with the ``calls`` option on, cards are laid only after all four. Bad
input raises one :class:`~chkobba.errors.ChkobbaError` saying what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ... import cards as C
from ...actions import LAY, Action
from ...cards import Card
from ...errors import IllegalAction, InvalidAction
from ...messages import quote
from .constants import BELOW, CALLS, DECK, DECK_MASK, NEXT, PLAY, PLAYERS, SEVEN_OF_DIAMONDS, SEVENS, build_order
from .options import SevenDiamondsOptions
from .state import SevenDiamondsState


def _cards(text: str | Sequence[str]) -> list[Card]:
    codes = text.split() if isinstance(text, str) else list(text)
    return [C.card(c) for c in codes]


def _playable(laid: int) -> int:
    """The cards that may be laid next on the rows ``laid`` (a mask)."""
    if not (laid >> SEVEN_OF_DIAMONDS) & 1:
        return 1 << SEVEN_OF_DIAMONDS
    out = 0
    for seven in C.cards_of(SEVENS):
        if not (laid >> seven) & 1:
            out |= 1 << seven
            continue
        c = seven
        while NEXT[c] >= 0 and (laid >> NEXT[c]) & 1:
            c = NEXT[c]
        if NEXT[c] >= 0:
            out |= 1 << NEXT[c]
    return out


def check_score(score: object, target: int) -> tuple[int, int]:
    """``score`` as a pair of whole numbers below ``target`` (only the winning
    team scores a round, so a game in play has no team at the target)."""
    if (not isinstance(score, (tuple, list)) or len(score) != 2
            or any(type(x) is not int or not 0 <= x < target for x in score)):
        raise InvalidAction("position.score", target=target, score=quote(score))
    return (score[0], score[1])


def setup(hands: Sequence[str | Sequence[str]], laid: str | Sequence[str] = "", *, turn: int | None = None,
          calls: Sequence[str] = (), dealer: int | None = None, score: tuple[int, int] = (0, 0),
          options: Mapping[str, object] | None = None) -> SevenDiamondsState:
    """A Seven Diamonds position in play.

    - ``hands``: the four hands by seat (``"7D 8D KC"`` or a list of codes);
    - ``laid``: the cards on the table, in any order (rows up from each 7);
    - ``calls``: the words spoken so far, in order from the dealer's right
      (``"pass"``, ``"double"``, ``"triple"``); with the ``calls`` option on,
      fewer than four leave the position in the calls, and cards can be
      laid only once all four are spoken;
    - ``turn``: the seat to play once cards are laid (default 0). Before the
      first card the rules name it (the holder of 7D; in the calls, the seat
      after the last speaker), and ``turn``, if given, must agree;
    - ``dealer``: defaults to the seat that makes ``turn`` the next to speak
      (in the calls) or the seat before ``turn`` (in play; 3 if neither);
    - ``score``: the game's score before this round, both below the target.
    """
    opts = SevenDiamondsOptions.from_dict(dict(options or {}))
    if len(hands) != PLAYERS:
        raise InvalidAction("position.hands", players=PLAYERS, count=len(hands))
    hand_cards = [_cards(h) for h in hands]
    laid_cards = _cards(laid)
    seen = 0
    for c in [x for h in hand_cards for x in h] + laid_cards:
        if not (DECK_MASK >> c) & 1:
            raise InvalidAction("seven_diamonds.deck_foreign_card", card=C.CODES[c])
        if (seen >> c) & 1:
            raise InvalidAction("deal.card_twice", card=C.CODES[c])
        seen |= 1 << c
    for c in DECK:
        if not (seen >> c) & 1:
            raise InvalidAction("seven_diamonds.position_missing", card=C.CODES[c])
    table = C.mask_of(laid_cards)
    for c in sorted(laid_cards, key=build_order):
        below = BELOW[c] if BELOW[c] >= 0 else SEVEN_OF_DIAMONDS if c != SEVEN_OF_DIAMONDS else -1
        if below >= 0 and not (table >> below) & 1:
            raise InvalidAction("seven_diamonds.below_missing", card=C.CODES[c], below_card=C.CODES[below])
    for h in hand_cards:
        if not 1 <= len(h) <= 8:
            raise InvalidAction("seven_diamonds.position_hand_size", count=len(h))
    if turn is not None and (type(turn) is not int or not 0 <= turn < PLAYERS):
        raise InvalidAction("position.turn", last=PLAYERS - 1, turn=quote(turn))
    score = check_score(score, opts.target)
    in_calls = opts.calls and len(calls) < PLAYERS
    if dealer is None:
        dealer = (turn - 1 - (len(calls) if in_calls else 0)) % PLAYERS if turn is not None else PLAYERS - 1
    s = SevenDiamondsState.new(opts, dealer)   # checks the dealer
    # the round as dealt: 7D opens it; the calls are spoken by the rules
    s.round_index = 0
    s.hands = [C.mask_of(h) for h in hand_cards]
    s.playable = 1 << SEVEN_OF_DIAMONDS
    s.phase = CALLS if opts.calls else PLAY
    s.turn = (dealer + 1) % PLAYERS if opts.calls else s.holder(SEVEN_OF_DIAMONDS)
    s.score = score
    for word in calls:
        s = s.apply(word)   # an illegal or extra call is refused with the rules' reason
    if s.phase == CALLS:
        if table:   # a card laid during the calls: refused as the rules refuse it
            raise IllegalAction(s.explain(Action(LAY, min(laid_cards))))
        if turn is not None and turn != s.turn:
            raise InvalidAction("seven_diamonds.position_speaker", dealer=dealer, count=len(calls),
                                seat=s.turn, turn=turn)
        return s
    if not table:
        if turn is not None and turn != s.turn:
            raise InvalidAction("seven_diamonds.position_turn", seat=turn,
                                cards=[C.CODES[SEVEN_OF_DIAMONDS]])
        return s
    s.table = table
    s.playable = _playable(table) & ~table
    s.turn = 0 if turn is None else turn
    if not s.hands[s.turn] & s.playable:
        raise InvalidAction("seven_diamonds.position_turn", seat=s.turn, cards=C.codes(C.cards_of(s.playable)))
    return s
