"""The registry of games: every game by its record name, declared once.

This module imports every game (the protocol module, :mod:`chkobba.protocol`,
imports none). Each game lives in its own package under ``chkobba/games/``:
``options``, ``constants``, ``state`` (rules and scoring), ``observation``,
``determinize``, ``view`` and ``table`` (what the edges need of it); its
computer players are a module of :mod:`chkobba.agents`. A :class:`Game`
declares all of that once (OpenSpiel's pattern: the game module declares
its type and everything the edge needs), and every caller asks the
registry: nothing outside ``chkobba/games/`` and this module branches on a
game's name or class. Adding a game is a package, its agents, a page
renderer and one line in :data:`_DECLARED`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import InvalidOptions
from .games.chkobba import table as chkobba_table
from .games.chkobba.determinize import determinize_observation as determinize_chkobba
from .games.chkobba.observation import ChkobbaObservation
from .games.chkobba.options import LINK_FIELDS_V1 as CHKOBBA_LINK_FIELDS
from .games.chkobba.state import ChkobbaState
from .games.seven_diamonds import table as seven_diamonds_table
from .games.seven_diamonds.determinize import determinize_observation as determinize_seven_diamonds
from .games.seven_diamonds.observation import SevenDiamondsObservation
from .games.seven_diamonds.options import LINK_FIELDS_V1 as SEVEN_DIAMONDS_LINK_FIELDS
from .games.seven_diamonds.state import SevenDiamondsState
from .messages import Param, Params, quote
from .options_base import GameOptions, LinkField
from .protocol import JSON, GameState, JSONDict, Observation

if TYPE_CHECKING:  # types only: the agents import the registry
    from .agents.kit import AgentKit

# mypy checks here that each game's state follows the protocol with its own observation type
_CHKOBBA: type[GameState[ChkobbaObservation]] = ChkobbaState
_SEVEN_DIAMONDS: type[GameState[SevenDiamondsObservation]] = SevenDiamondsState

StateClass = type[ChkobbaState] | type[SevenDiamondsState]
State = GameState[Observation]


@dataclass(frozen=True)
class Game:
    """One game, as every edge around the engine needs it."""

    name: str                       # the record name
    title: str                      # in English (the page words it from ``game.<name>`` messages)
    players: tuple[int, ...]        # the table sizes it is played at; the first is the default
    state_class: StateClass
    # a full state consistent with an observation of this game, the unseen cards dealt at random
    determinize: Callable[[Observation, random.Random], State]
    # the computer players (imported when first asked: the page's table needs none)
    agents: Callable[[], "AgentKit"]
    # at a table: the words the seat to act may say (given the legal action texts) ...
    words: Callable[[State, Sequence[str]], list[JSONDict]]
    # ... what the table draws besides the view (state, viewer, legal, to_act, show_playable) ...
    extras: Callable[[State, int, Sequence[str], int | None, bool], JSONDict]
    # ... and the view with the seat's hand hidden (pass-and-play), in place
    hide: Callable[[JSONDict], None]
    # the command line's lines for a view (besides the hands)
    terminal: Callable[[Mapping[str, JSON]], list[str]]
    # the v1 link format's option fields, frozen (docs/links.md)
    link_fields: tuple[LinkField, ...]
    # statistics: whether a match's chkobbas (sweeps) are counted, and a group's labels
    counts_sweeps: bool
    stats_labels: Callable[[Mapping[str, JSON]], list[tuple[str, JSONDict]]]
    # what a lesson step's move brought about (before, after, the reader's seat)
    lesson_outcome: Callable[[State, State, int], JSONDict]
    # the daily deal (chkobba.daily): a finished round for a side, and the share text's code and params
    daily_round: Callable[[Mapping[str, JSON], int], JSONDict]
    daily_share: Callable[[Mapping[str, Param], Mapping[str, Param], Params], tuple[str, Params]]
    # online play: the turn timers' seconds (to call, to play) when on (docs/online.md, "Timers")
    online_timers: tuple[int, int]

    def options_class(self) -> type[GameOptions]:
        return self.state_class.options_class()


def _chkobba_agents() -> "AgentKit":
    from .agents.chkobba import KIT
    return KIT


def _seven_diamonds_agents() -> "AgentKit":
    from .agents.seven_diamonds import KIT
    return KIT


_DECLARED: tuple[Game, ...] = (
    Game("chkobba", "Chkobba", (2, 4), ChkobbaState, determinize_chkobba, _chkobba_agents,
         chkobba_table.words, chkobba_table.extras, chkobba_table.hide, chkobba_table.terminal,
         CHKOBBA_LINK_FIELDS, True, chkobba_table.stats_labels, chkobba_table.lesson_outcome,
         chkobba_table.daily_round, chkobba_table.daily_share, (30, 30)),
    Game("seven_diamonds", "Seven Diamonds", (4,), SevenDiamondsState, determinize_seven_diamonds,
         _seven_diamonds_agents, seven_diamonds_table.words, seven_diamonds_table.extras,
         seven_diamonds_table.hide, seven_diamonds_table.terminal, SEVEN_DIAMONDS_LINK_FIELDS, False,
         seven_diamonds_table.stats_labels, seven_diamonds_table.lesson_outcome,
         seven_diamonds_table.daily_round, seven_diamonds_table.daily_share, (10, 12)),
)

# In this order for good: a link writes a game as its index here (docs/links.md).
GAMES: tuple[str, ...] = tuple(g.name for g in _DECLARED)
REGISTRY: dict[str, Game] = {g.name: g for g in _DECLARED}
PLAYERS: dict[str, tuple[int, ...]] = {g.name: g.players for g in _DECLARED}


def game(name: str) -> Game:
    """A game by its record name; raises
    :class:`~chkobba.errors.InvalidOptions` for an unknown game."""
    g = REGISTRY.get(name)
    if g is None:
        raise InvalidOptions("options.unknown_game", game=quote(name), known=list(GAMES))
    return g


def game_class(name: str) -> StateClass:
    """The state class of a game by its record name; raises
    :class:`~chkobba.errors.InvalidOptions` for an unknown game."""
    return game(name).state_class


def determinize(obs: Observation, rng: random.Random) -> State:
    """A full state consistent with ``obs`` (either game), the unseen cards
    dealt at random."""
    return game(obs.game).determinize(obs, rng)
