"""Chkobba and Seven Diamonds: rules engines, game records and computer players.

The public entry points::

    from chkobba import Session, ChkobbaState, legal_actions, apply, determinize

See README.md; the rules are RULES.md and the record format RECORDS.md.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, parse_action
from .games.chkobba.state import ChkobbaState
from .errors import ChkobbaError, IllegalAction, InvalidAction, InvalidOptions, InvalidRecord
from .games.chkobba.observation import determinize
from .options import ChkobbaOptions, SevenDiamondsOptions
from .session import Session

__version__ = "0.1.0"


def legal_actions(state: Any) -> list[Action]:
    """Every legal action of a state (either game), in its fixed order."""
    actions: list[Action] = state.legal_actions()
    return actions


def apply(state: Any, action: Action | str) -> Any:
    """The state after ``action`` (the input is left unchanged); raises
    :class:`IllegalAction` with the reason if it is not legal."""
    return state.apply(action)


__all__ = ["Action", "parse_action", "ChkobbaState", "ChkobbaError", "IllegalAction", "InvalidAction",
           "InvalidOptions", "InvalidRecord", "determinize", "ChkobbaOptions", "SevenDiamondsOptions",
           "Session", "legal_actions", "apply", "__version__"]
