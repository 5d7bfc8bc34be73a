"""Browser facade: the one package the web page talks to (docs/facade.md).

The page calls :func:`call` with a call name and a JSON payload text and gets
JSON text back: ``{"ok": value}`` or ``{"error": text, "code": code,
"params": {...}}``. :func:`call` never raises: every call is checked at the
edge (its name, the payload's size, depth and shape, each field's type and
range) and anything unexpected becomes a plain-words error. A call that
fails changes nothing, and the next good call works.

One module per concern:

- :mod:`~chkobba.web.edge`: the checked edge (call names, payload sizes,
  field types, one-line errors) and the facade's messages;
- :mod:`~chkobba.web.saves`: saves and the one table store (the facade's
  only module-level mutable state: game tables, open embeds, open lessons);
- :mod:`~chkobba.web.answer`: THE state answer for a seat (view, words,
  claim window, moves, sheet, result, the game's extras, save), worded for
  its reader;
- :mod:`~chkobba.web.tables`: the game tables' calls, the computer seats'
  ``choose`` and the coach's ``hint``;
- :mod:`~chkobba.web.embeds`: links opened as embeds (replay, play from
  here, puzzle) and ``share``;
- :mod:`~chkobba.web.lessons`: the tutorial's lessons;
- :mod:`~chkobba.web.statistics`: the player's statistics;
- :mod:`~chkobba.web.clock`: timers changed during a match.

The page computes no rule, score or winner; the games plug in through the
registry (:mod:`chkobba.registry`), so no module here branches on a game.
"""

from __future__ import annotations

from . import answer, challenge, clock, daily, embeds, lessons, statistics, tables, takebacks
from .answer import Reader
from .edge import (API, DEFAULT_LEVEL, LEVELS, MAX_ERROR, MAX_PAYLOAD, SEAT_KINDS, WEB_MESSAGES, Seat, WebError,
                   call, render)
from .saves import (MAX_TABLES, SAVE_VERSION, SAVE_VERSIONS, STORE, Table, allow_tables, close_table, reset_tables,
                    table_ids, table_session)
from .tables import HUMAN_SEAT, choose, defaults, hint

_render = render

__all__ = ["call", "choose", "hint", "defaults", "allow_tables", "reset_tables", "table_ids", "table_session",
           "close_table", "Reader", "Seat", "Table",
           "WebError", "API", "WEB_MESSAGES", "LEVELS", "SEAT_KINDS", "DEFAULT_LEVEL", "HUMAN_SEAT", "MAX_TABLES",
           "MAX_PAYLOAD", "MAX_ERROR", "SAVE_VERSION", "SAVE_VERSIONS", "STORE", "answer", "embeds", "lessons", "statistics",
           "tables", "takebacks", "daily", "clock", "challenge"]
