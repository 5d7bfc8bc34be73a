"""Timers changed during a match: the ``set_timers`` call.

A game whose options have a ``timers`` kind (Seven Diamonds: seconds for a
call and a card, or off) may change them at any point of a match, since
time never changes what is legal except the ``timeout`` move itself (the
rules: "a table may turn timers off or change the seconds").

The record stays the truth and stays a record that replays:

- new seconds are written into the record's ``timers`` option (a record
  whose timers were off had no ``timeout`` move, so it replays the same with
  them on);
- off, in a match where no ``timeout`` was played yet, writes ``false``;
- off, once a ``timeout`` was played, cannot be written into the record
  (its timeouts would no longer be legal moves): the record keeps the
  seconds the match had, and the table's save says ``"clock_off": true``;
  the page then runs no clock and no timeout can be played until the
  timers are turned on again.

The answer of every table state carries ``timers``: ``None`` when the game
has no timers, else ``{"value": false | {"call": s, "card": s}, "changeable":
bool}`` (a daily deal is played without timers and keeps them off; a
challenge keeps the sender's).
"""

from __future__ import annotations

import dataclasses

from .. import messages as M
from ..actions import TIMEOUT
from ..errors import ChkobbaError
from ..options import check as check_options
from ..session import Session
from .edge import Args, WebError, api, as_message, quote, show, table_id
from .modes import mode_of, timers_status
from .saves import STORE, Table, check_replays
from .tables import state_of

M.register({
    "web.timers.none": "this game has no timers",
    "web.timers.daily": "a daily deal is played without timers, the same for everyone",
    "web.timers.challenge": "a challenge is played with your friend's table options, timers included",
    "web.timers.value": "timers must be off or seconds for a call and a card: {reason}",
    "web.timers.off": "the timers are off at this table: no time runs out",
    "web.save.clock_off": "its timers-off setting is not true or false ({value})",
})


def _timeouts_played(session: Session) -> bool:
    """Whether any move of the match so far is a ``timeout``."""
    return any(TIMEOUT in r["actions"] for r in session.record_data()["rounds"])


def with_timers(table: Table, value: object) -> Table:
    """The table with its timers set to ``value`` (``False`` or
    ``{"call": s, "card": s}``), checked like a new game's option; the
    table given is unchanged. Raises WebError in words."""
    status = timers_status(table)
    if status is None:
        raise WebError("web.timers.none")
    if not status["changeable"]:
        raise WebError("web.timers.challenge" if mode_of(table) == "challenge" else "web.timers.daily")
    if value is not False and not isinstance(value, dict):   # strictly the record's two forms
        raise WebError("web.timers.value", reason={"code": "options.timers_form", "params": {"value": quote(show(value))}})
    record = table.session.record_data()
    options = dict(record["options"])
    try:
        checked = check_options(table.session.game, {**options, "timers": value}).to_dict()["timers"]
    except ChkobbaError as exc:
        raise WebError("web.timers.value", reason=as_message(exc)) from None
    clock_off = False
    if checked is False and _timeouts_played(table.session):
        clock_off = True           # the record keeps its seconds: its timeouts stay legal
    else:
        options["timers"] = checked
    if options == record["options"]:
        return dataclasses.replace(table, clock_off=clock_off)
    session = Session.from_record({**record, "options": options}, seed=table.session.seed)
    check_replays(session)
    return dataclasses.replace(table, session=session, clock_off=clock_off)


@api("timers", name="set_timers")
def _set_timers(args: Args) -> dict[str, object]:
    """Change the table's timers during the match: the table's new state.
    Refused in words (no timers in this game, a daily deal, a bad value),
    the table unchanged."""
    tid = table_id(args)
    table = STORE.tables.get(tid)
    if table is None:
        raise WebError("web.no_table", table=quote(tid))
    after = with_timers(table, args["timers"])
    out = state_of(after)
    table.session, table.clock_off = after.session, after.clock_off
    return out


__all__ = ["with_timers"]
