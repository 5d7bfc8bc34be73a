"""Table options of every game, described for a start form and checked.

Each game's options live in its package (:mod:`chkobba.games.chkobba.options`,
:mod:`chkobba.games.seven_diamonds.options`); this module asks the registry
for them:

>>> [o["name"] for o in describe("chkobba")][:3]
['players', 'faces', 'capture']
>>> describe("chkobba")[3]["requires"]
{'capture': 'optional'}
>>> check("chkobba", {"target": 12})
Traceback (most recent call last):
...
chkobba.errors.InvalidOptions: option "target" must be one of 11, 21, 31, not 12
"""

from __future__ import annotations

from typing import Any, Mapping

from .errors import InvalidOptions
from .games.chkobba.options import ChkobbaOptions
from .games.seven_diamonds.options import SevenDiamondsOptions, Timers
from .messages import quote
from .options_base import GameOptions, OptionSpec
from .registry import Facts

#: Each registered game's options class, by name.
OPTIONS_BY_GAME: Mapping[str, type[GameOptions]] = Facts(lambda g: g.options_class())


def options_class(game: str) -> type[GameOptions]:
    cls = OPTIONS_BY_GAME.get(game)
    if cls is None:
        raise InvalidOptions("options.unknown_game", game=quote(game), known=list(OPTIONS_BY_GAME))
    return cls


def describe(game: str) -> list[dict[str, Any]]:
    """Each option of ``game`` in display order: ``name``, ``kind``
    (choice, bool, number, timers), ``default``, ``choices`` (or None),
    ``min``/``max`` (numbers, else None), ``requires`` (``{option: value}``
    or None) and ``code`` (the message code of its label)."""
    return [spec.describe() for spec in options_class(game).SPECS]


def check(game: str, options: Mapping[str, Any] | None) -> GameOptions:
    """The options of ``game`` with every default filled in; raises
    :class:`InvalidOptions` in words if one is unknown or out of range."""
    return options_class(game).from_dict(options)


__all__ = ["ChkobbaOptions", "SevenDiamondsOptions", "Timers", "OPTIONS_BY_GAME", "OptionSpec",
           "GameOptions", "describe", "check", "options_class"]
