"""Take-backs at a game table: the ``take_back`` call and the state of the
take-back button (``takeback`` in every table state answer).

A take-back (:func:`chkobba.takeback.take_back`) undoes the human seat's last
move of the round and the computer moves that followed it. The table's mode
decides whether it is allowed: only a table with one person against the
computer (``computer``); a table several people share is ``pass_and_play``,
where it is refused with the engine's ``takeback.mode`` message. The save
stays a record that replays (the record is cut, nothing is written in it)
and counts the game's take-backs (``"takebacks": n``, absent when none), so
the statistics can tell those games apart.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import messages as M
from ..takeback import TakebackRefused, take_back, take_back_point
from .edge import Args, WebError, api, quote, table_id
from .saves import STORE, Table

M.register({
    "web.save.takebacks": "its number of take-backs is not a whole number from 0 to {limit} ({value})",
})


def mode_of(table: Table) -> str:
    """How the table is played, in :data:`chkobba.takeback.MODES`' words."""
    if table.daily is not None:
        return "daily"
    return "pass_and_play" if len(table.humans) > 1 else "computer"


def status(table: Table) -> dict[str, Any]:
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


@api(name="take_back")
def _take_back(args: Args) -> dict[str, Any]:
    """Take back the person's last move of the round (and the computer moves
    after it): the table's new state. Refused in the engine's words
    (``takeback.*``), the table unchanged."""
    from .tables import state_of   # that module answers with this one's status
    tid = table_id(args)
    table = STORE.tables.get(tid)
    if table is None:
        raise WebError("web.no_table", table=quote(tid))
    seat = table.humans[0]
    back = take_back(table.session, seat, mode_of(table))   # TakebackRefused in words
    after = dataclasses.replace(table, session=back, viewer=seat, hidden=False, takebacks=table.takebacks + 1)
    out = state_of(after)
    table.session, table.viewer, table.hidden, table.takebacks = back, seat, False, after.takebacks
    return out


__all__ = ["mode_of", "status"]
