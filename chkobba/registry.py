"""The registry of games: every game by its record name."""

from __future__ import annotations

from typing import Any

GAMES = ("chkobba", "seven_diamonds")


def game_class(game: str) -> Any:
    """The state class of a game by its record name."""
    if game == "chkobba":
        from .games.chkobba.state import ChkobbaState
        return ChkobbaState
    if game == "seven_diamonds":
        from .games.seven_diamonds.state import SevenDiamondsState
        return SevenDiamondsState
    raise ValueError(f'unknown game "{game}" (known: {", ".join(GAMES)})')
