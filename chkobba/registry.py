"""The registry of games: every game by its record name.

This module imports every game (the protocol module, :mod:`chkobba.protocol`,
imports none). Each game lives in its own package under ``chkobba/games/``:
``options``, ``constants``, ``state`` (rules and scoring), ``observation``,
``determinize`` and ``view``.
"""

from __future__ import annotations

import random

from .errors import InvalidOptions
from .games.chkobba.determinize import determinize as determinize_chkobba
from .games.chkobba.observation import ChkobbaObservation
from .games.chkobba.state import ChkobbaState
from .games.seven_diamonds.determinize import determinize as determinize_seven_diamonds
from .games.seven_diamonds.observation import SevenDiamondsObservation
from .games.seven_diamonds.state import SevenDiamondsState
from .messages import quote
from .protocol import GameState, Observation

GAMES = ("chkobba", "seven_diamonds")

# mypy checks here that each game's state follows the protocol with its own observation type
_CHKOBBA: type[GameState[ChkobbaObservation]] = ChkobbaState
_SEVEN_DIAMONDS: type[GameState[SevenDiamondsObservation]] = SevenDiamondsState
PLAYERS: dict[str, tuple[int, ...]] = {"chkobba": (2, 4), "seven_diamonds": (4,)}

StateClass = type[ChkobbaState] | type[SevenDiamondsState]
_CLASSES: dict[str, StateClass] = {"chkobba": ChkobbaState, "seven_diamonds": SevenDiamondsState}


def game_class(game: str) -> StateClass:
    """The state class of a game by its record name; raises
    :class:`~chkobba.errors.InvalidOptions` for an unknown game."""
    cls = _CLASSES.get(game)
    if cls is None:
        raise InvalidOptions("options.unknown_game", game=quote(game), known=list(GAMES))
    return cls


def determinize(obs: Observation, rng: random.Random) -> GameState[Observation]:
    """A full state consistent with ``obs`` (either game), the unseen cards
    dealt at random."""
    if isinstance(obs, ChkobbaObservation):
        return determinize_chkobba(obs, rng)
    if isinstance(obs, SevenDiamondsObservation):
        return determinize_seven_diamonds(obs, rng)
    raise TypeError(f"not an observation of a known game: {type(obs).__name__}")
