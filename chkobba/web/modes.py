"""How a table is played, as the table's answers need it: the take-back
button's state (``takeback`` in every table state) and the daily deal's one
round. Its own module so that ``tables`` (which answers with it) and the
``takebacks`` and ``daily`` calls (which answer with ``tables``) import
each other in one direction only."""

from __future__ import annotations

from typing import TypedDict

from .. import daily as D
from ..options import describe as describe_options
from ..takeback import TakebackRefused, take_back_point
from .saves import Table


def mode_of(table: Table) -> str:
    """How the table is played, in :data:`chkobba.takeback.MODES`' words."""
    if table.daily is not None:
        return "daily"
    if table.challenge is not None:   # chkobba/web/challenge.py: the same cards as a friend, no take-back
        return "challenge"
    return "pass_and_play" if len(table.humans) > 1 else "computer"


class Takeback(TypedDict):
    """The take-back button's state (:func:`status`)."""

    allowed: bool
    possible: bool
    count: int


class Timers(TypedDict):
    """The timers switch's state (:func:`timers_status`)."""

    value: object
    changeable: bool


def status(table: Table) -> Takeback:
    """The take-back button: ``allowed`` at this table at all (against the
    computer), ``possible`` now (the person has a move in this round and the
    match is not over), ``count`` made so far in this game."""
    allowed = mode_of(table) == "computer"
    possible = False
    if allowed:
        try:
            take_back_point(table.session, table.humans[0])
            possible = True
        except TakebackRefused:
            possible = False
    return {"allowed": allowed, "possible": possible, "count": table.takebacks}


def check_daily_act(table: Table) -> None:
    """A daily deal is one round: no move once it is over."""
    if D.round_over(table.session):
        raise D.DailyError("daily.round_over")


def timers_status(table: Table) -> Timers | None:
    """The table's timers as the page's timers switch shows them (None when
    the game has none): ``value`` (``False`` or the seconds) and whether
    they may be changed now: not in a daily deal (played without timers) nor
    in a challenge (played with the sender's options, timers included: its
    save must keep them to resume), chkobba/web/clock.py."""
    game = table.session.game
    if not any(o["kind"] == "timers" for o in describe_options(game)):
        return None
    value = table.session.record_data()["options"].get("timers", False)
    return {"value": False if table.clock_off else value, "changeable": mode_of(table) not in ("daily", "challenge")}
