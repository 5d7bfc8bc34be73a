"""Take-backs: undo your last move, and the computer moves that followed it.

Only against the computer (``mode="computer"``): never online, in pass and
play, in a daily deal or in a challenge, where a take-back would let a player
see what is hidden or redo a duplicate deal. Within a round only: at a
round's start (no move of yours in it yet) or once the match is over there is
nothing to take back.

**Never back past a deal.** A take-back shows you no card you had not seen
in the game as it stands: once cards were dealt after your last move (the
cut handing out the hands and the table, an accepted re-deal's new deck, a
new hand of three), that move stays (``takeback.dealt``). Between two deals
a take-back may have shown you only what the other seats played after your
move (practice against the computer), never a card dealt: otherwise a deck
looked at and taken back would be dealt again later (deck ``k`` of a session
is the ``k``-th deck dealt), and a hand taken back would show the next one.
The rule is checked on what the seat sees (its observation's unseen cards
before the move and now), so it holds for both games.

Each refusal is one error (:class:`TakebackRefused`) with one code
(``takeback.*``) and leaves the session as it was.

A take-back is not written in the record: the record after it is the record
cut right before your last move (``Session.from_record(record, at=...)``),
so it replays, and play goes on from it with the same seeded decks (no deck
was dealt since the cut, so the next deck dealt is the one it would have
been). Take back again to undo your previous move of the same hand, and so on.

    >>> from chkobba.session import Session
    >>> s = Session.new("chkobba", {"players": 2}, seed=7, first_dealer=1)
    >>> s.apply(s.legal()[0])      # seat 0 cuts
    Action(...)
    >>> s.apply(s.legal()[0])      # seat 0 plays a card...
    Action(...)
    >>> s.apply(s.legal()[0])      # ...and seat 1 (the computer) answers
    Action(...)
    >>> back = take_back(s, seat=0)
    >>> len(back.record()["rounds"][0]["actions"]), back.to_act()
    (1, 0)
    >>> take_back(back, seat=0, mode="daily")
    Traceback (most recent call last):
    chkobba.takeback.TakebackRefused: Take-backs are only for games against the computer: not in the daily deal
"""

from __future__ import annotations

from typing import Any

from .cards import card
from .errors import ChkobbaError
from .messages import quote
from .session import Session

__all__ = ["MODES", "TakebackRefused", "take_back_point", "take_back"]

#: Ways of playing a table. Only ``computer`` allows take-backs.
MODES = ("computer", "online", "pass_and_play", "daily", "challenge")


class TakebackRefused(ChkobbaError):
    """A take-back the table does not allow now; nothing was changed."""


def _check_mode(mode: object) -> None:
    if not isinstance(mode, str) or mode not in MODES:
        raise TakebackRefused("takeback.unknown_mode", value=quote(mode))
    if mode != "computer":
        raise TakebackRefused("takeback.mode", mode={"code": f"takeback.mode.{mode}", "params": {}})


def take_back_point(session: Session, seat: int) -> tuple[int, int]:
    """Where a take-back of ``seat``'s last move cuts the session's record:
    ``(round from 1, ply)``, ply being the number of that round's actions kept
    (``Session.from_record(..., at=...)``). Raises :class:`TakebackRefused`
    when the current round holds no move of that seat, cards were dealt
    since it (``takeback.dealt``) or the match is over."""
    if type(seat) is not int or not 0 <= seat < session.players:
        raise TakebackRefused("takeback.not_your_seat", seat=quote(seat))
    if session.is_over:
        raise TakebackRefused("takeback.round_over")
    rounds = session.record()["rounds"]
    if not rounds:
        raise TakebackRefused("takeback.nothing")
    ri = len(rounds) - 1
    ply = 0
    cut: int | None = None
    moves = session.moves(ri)
    after: list[dict[str, Any]] = []   # the moves from the seat's last one on
    for move in moves:
        if move["action"] is not None:  # else an engine event (a forced pass): not an action of the record
            if move["seat"] == seat:
                cut = ply
                after = []
            ply += 1
        after.append(move)
    if cut is None:
        raise TakebackRefused("takeback.nothing")
    _check_nothing_dealt(session, seat, ri, cut, after)
    return ri + 1, cut


def _check_nothing_dealt(session: Session, seat: int, ri: int, cut: int, after: list[dict[str, Any]]) -> None:
    """Refuse (``takeback.dealt``) a take-back to ply ``cut`` of round ``ri``
    when cards were dealt since: a new deck, or a card the seat sees now and
    did not see then that no other seat played (``after``: the moves since)."""
    steps = session.steps(ri)[cut:]
    if any(st.after.needs_deal and not st.after.is_over and st.after.deal_continues_round() for st in steps):
        raise TakebackRefused("takeback.dealt")
    played = 0
    for move in after:
        if move["seat"] != seat and isinstance(move.get("card"), str):
            played |= 1 << card(move["card"])
    then = steps[0].before.observation(seat).unseen_mask()
    shown = then & ~session.observation(seat).unseen_mask()
    if shown & ~played:
        raise TakebackRefused("takeback.dealt")


def take_back(session: Session, seat: int = 0, mode: str = "computer") -> Session:
    """A new session where ``seat``'s last move of the current round, and every
    move after it, is taken back: it is ``seat``'s turn again, in the position
    it had then. The given session is left as it was; its seed is kept, so the
    decks still to come are the same. ``mode`` is how the table is played
    (:data:`MODES`); only ``"computer"`` allows it."""
    _check_mode(mode)
    at = take_back_point(session, seat)
    return Session.from_record(session.record(), seed=session.seed, at=at)
