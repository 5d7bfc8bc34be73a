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

from .. import messages as M
from ..takeback import TakebackRefused, take_back
from .edge import Args, WebError, api, quote, table_id
from .modes import mode_of
from .saves import STORE, Table
from .tables import state_of

M.register({
    "web.save.takebacks": "its number of take-backs is not a whole number from 0 to {limit} ({value})",
})


@api(name="take_back")
def _take_back(args: Args) -> dict[str, object]:
    """Take back the person's last move of the round (and the computer moves
    after it): the table's new state. Refused in the engine's words
    (``takeback.*``), the table unchanged."""
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
