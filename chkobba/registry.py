"""The registry of games: every game by its record name, declared once.

Each game lives in its own package under ``chkobba/games/``: ``options``,
``constants``, ``state`` (rules and scoring), ``observation``,
``determinize``, ``view``, ``table`` (what the edges need of it) and
``game``, whose ``GAME`` (a :class:`~chkobba.declaration.Game`) names all of
it by field; its computer players are a module the declaration imports when
first asked. Every caller asks the registry (OpenSpiel's pattern: the game
module declares its type and everything the edge needs): nothing outside
``chkobba/games/`` and this module branches on a game's name or class.

The two games of this package are registered when it is imported, in this
order for good: a link writes a game as its index in :data:`GAMES`
(docs/links.md). Another game is added with :func:`register` (or for a
while, with :func:`adding`); every table below reads the registry when
asked, so it sees a game registered later.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TypeVar, overload

from . import messages as M
from .declaration import DailyDeal, Game, GameClass, ResultField, State
from .errors import InvalidOptions
from .games.chkobba.game import GAME as CHKOBBA
from .games.seven_diamonds.game import GAME as SEVEN_DIAMONDS
from .messages import quote
from .protocol import Observation

__all__ = ["Game", "DailyDeal", "ResultField", "GameClass", "State", "GAMES", "REGISTRY", "PLAYERS", "MAX_GAMES",
           "Names", "Facts", "register", "unregister", "adding", "game", "game_class", "determinize"]

V = TypeVar("V")

#: The most games a link can name (it writes a game's index in two bits).
MAX_GAMES = 4

_BUILT_IN: tuple[Game, ...] = (CHKOBBA, SEVEN_DIAMONDS)
_GAMES: dict[str, Game] = {}


def register(g: Game) -> Game:
    """Add a game after the registered ones (its index in :data:`GAMES` is
    the next one) and its messages to :mod:`chkobba.messages`. Raises
    ValueError for a name already taken or past :data:`MAX_GAMES`."""
    if g.name in _GAMES:
        raise ValueError(f'a game named "{g.name}" is already registered')
    if len(_GAMES) >= MAX_GAMES:
        raise ValueError(f"at most {MAX_GAMES} games can be registered (a link writes a game in two bits)")
    if g.options_class().game != g.name:
        raise ValueError(f'the options of "{g.name}" say they are of "{g.options_class().game}"')
    M.register(g.messages)
    _GAMES[g.name] = g
    return g


def unregister(name: str) -> None:
    """Remove the last game registered (never one of this package's: their
    indexes are fixed), with its messages."""
    if name in (b.name for b in _BUILT_IN):
        raise ValueError(f'"{name}" is one of the built-in games')
    if not _GAMES or list(_GAMES)[-1] != name:
        raise ValueError(f'"{name}" is not the last game registered')
    g = _GAMES.pop(name)
    for code in g.messages:
        M.MESSAGES.pop(code, None)


@contextmanager
def adding(g: Game) -> Iterator[Game]:
    """``g`` registered for the ``with`` block (a test's game), removed after."""
    register(g)
    try:
        yield g
    finally:
        unregister(g.name)


class Names(Sequence[str]):
    """The registered games' names in order (those ``keep`` keeps), read when
    asked: a game registered later is in it."""

    def __init__(self, keep: Callable[[Game], bool] | None = None) -> None:
        self._keep = keep

    def _names(self) -> tuple[str, ...]:
        keep = self._keep
        return tuple(name for name, g in _GAMES.items() if keep is None or keep(g))

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self._names()[i]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Names, tuple, list)):
            return self._names() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._names())


class Facts(Mapping[str, V]):
    """One fact of each registered game (``pick``; a game it gives None for
    is left out), by name, read when asked."""

    def __init__(self, pick: Callable[[Game], V | None]) -> None:
        self._pick = pick

    def __getitem__(self, name: str) -> V:
        g = _GAMES.get(name)
        value = None if g is None else self._pick(g)
        if value is None:
            raise KeyError(name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, g in _GAMES.items() if self._pick(g) is not None])

    def __len__(self) -> int:
        return sum(1 for g in _GAMES.values() if self._pick(g) is not None)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


#: Every game's name, in order: a link writes a game as its index here (docs/links.md).
GAMES: Sequence[str] = Names()
#: Every game by its name.
REGISTRY: Mapping[str, Game] = Facts(lambda g: g)
#: Each game's table sizes (the first is the default).
PLAYERS: Mapping[str, tuple[int, ...]] = Facts(lambda g: g.players)


def game(name: str) -> Game:
    """A game by its record name; raises
    :class:`~chkobba.errors.InvalidOptions` for an unknown game."""
    g = _GAMES.get(name)
    if g is None:
        raise InvalidOptions("options.unknown_game", game=quote(name), known=list(_GAMES))
    return g


def game_class(name: str) -> GameClass:
    """The state class of a game by its record name; raises
    :class:`~chkobba.errors.InvalidOptions` for an unknown game."""
    return game(name).state_class


def determinize(obs: Observation, rng: random.Random) -> State:
    """A full state consistent with ``obs`` (any game), the unseen cards
    dealt at random."""
    return game(obs.game).determinize(obs, rng)


for _g in _BUILT_IN:
    register(_g)
