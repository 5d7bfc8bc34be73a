"""Chkobba and Seven Diamonds: rules engines, game records and computer players.

The public entry points::

    from chkobba import Session, ChkobbaState, legal_actions, apply, determinize

See README.md ("Using the engine") and docs/architecture.md; the rules are
RULES.md and the record format RECORDS.md.
"""

from __future__ import annotations

from .actions import Action, parse_action
from .errors import ChkobbaError, IllegalAction, InvalidAction, InvalidOptions, InvalidRecord
from .games.chkobba.state import ChkobbaState
from .games.seven_diamonds.state import SevenDiamondsState
from .messages import MESSAGES, render
from .options import ChkobbaOptions, SevenDiamondsOptions
from .protocol import GameState, Observation
from .registry import determinize
from .session import Session

__version__ = "0.1.0"

State = GameState[Observation]


def legal_actions(state: State) -> list[Action]:
    """Every legal action of a state (either game), in its fixed order."""
    return state.legal_actions()


def apply(state: State, action: Action | str) -> State:
    """The state after ``action`` (the input is left unchanged); raises
    :class:`IllegalAction` with the reason if it is not legal."""
    return state.apply(action)


__all__ = ["Action", "parse_action", "ChkobbaState", "SevenDiamondsState", "ChkobbaError", "IllegalAction",
           "InvalidAction", "InvalidOptions", "InvalidRecord", "determinize", "ChkobbaOptions",
           "SevenDiamondsOptions", "Session", "legal_actions", "apply", "MESSAGES", "render", "GameState",
           "Observation", "__version__"]
