"""What a game declares, in one place: :class:`Game` (and its :class:`DailyDeal`
and :class:`ResultField` parts).

Each game's package holds one ``GAME = Game(...)`` (``chkobba/games/<g>/game.py``)
naming, by field, everything a caller needs from it: its state class, table
sizes, computer players, what a table draws, its link and challenge fields,
its statistics variant, its daily deal, its messages and its online turn
timers. :mod:`chkobba.registry` holds the games declared; every caller asks
it. This module imports no game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

from .cards import Card
from .messages import Param, Params
from .options_base import GameOptions, LinkField
from .protocol import JSON, GameState, JSONDict, Observation

if TYPE_CHECKING:  # types only: the agents import the registry
    from .agents.kit import AgentKit

State = GameState[Observation]


class GameClass(Protocol):
    """A game's state class, as the registry hands it out: its options, its
    deck and a new match (``first_dealer`` deals the first round; the state
    then waits for its deck)."""

    def options_class(self) -> type[GameOptions]: ...
    def full_deck(self) -> tuple[Card, ...]: ...
    def new(self, options: Mapping[str, object] | None = None, first_dealer: int = 0) -> State: ...


class ResultField(NamedTuple):
    """One field of a result link (:mod:`chkobba.links.challenge`): ``kind``
    ``n`` a number (0..1,000,000), ``flag`` true/false, ``pair`` two numbers
    (the sender's side first), ``set`` a subset of the names ``extra``,
    ``range`` a number in [``extra[0]``, ``extra[1]``]."""
    name: str
    kind: str
    extra: tuple[str, ...] | tuple[int, int] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """A ``set`` field's names."""
        return tuple(x for x in self.extra or () if isinstance(x, str))

    @property
    def low(self) -> int:
        """A ``range`` field's lowest number."""
        return self._bound(0)

    @property
    def high(self) -> int:
        """A ``range`` field's highest number."""
        return self._bound(1)

    def _bound(self, i: int) -> int:
        value = (self.extra or (0, 0))[i]
        if not isinstance(value, int):
            raise TypeError(f"the field {self.name} has no range")
        return value


#: A match result's fields every game writes first (won, the last game's score, games, rounds).
MATCH_RESULT: tuple[ResultField, ...] = (ResultField("won", "flag"), ResultField("score", "pair"),
                                         ResultField("games", "pair"), ResultField("rounds", "n"))


@dataclass(frozen=True, kw_only=True)
class DailyDeal:
    """A game's daily deal (:mod:`chkobba.daily`): its table options, who sits
    where (``None``: the player; else a computer level), the computers' fixed
    number of rollouts, and its result."""

    options: Mapping[str, JSON]
    seats: tuple[str | None, ...]
    rollouts: int
    # a finished round for a side (the summary's round, the side) -> the result's own fields
    round: Callable[[Mapping[str, JSON], int], JSONDict]
    # the share text's code and params (the result, the player's part, the margin)
    share: Callable[[Mapping[str, Param], Mapping[str, Param], Params], tuple[str, Params]]
    # a result link's fields, in the order written
    result_fields: tuple[ResultField, ...]
    # the field of a result no round can have (None: one a round can have); its fields are checked already
    check: Callable[[Mapping[str, object]], str | None]


@dataclass(frozen=True, kw_only=True)
class Game:
    """One game, as every edge around the engine needs it."""

    name: str                       # the record name
    title: str                      # in English (the page words it from ``game.<name>`` messages)
    players: tuple[int, ...]        # the table sizes it is played at; the first is the default
    state_class: GameClass
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
    # a challenge link's match result fields, in the order written
    result_fields: tuple[ResultField, ...] = MATCH_RESULT
    # statistics: whether a match's chkobbas (sweeps) are counted, the table options that
    # make a variant with their allowed values, and a group's labels
    counts_sweeps: bool = False
    stats_variant: Mapping[str, tuple[int | str, ...] | range]
    stats_labels: Callable[[Mapping[str, JSON]], list[tuple[str, JSONDict]]]
    # what a lesson step's move brought about (before, after, the reader's seat)
    lesson_outcome: Callable[[State, State, int], JSONDict]
    # a position from its parts, like a chess position from its FEN (chkobba.page.setup); None: none
    setup: Callable[..., State] | None = None
    # the daily deal; None: the game has none
    daily: DailyDeal | None = None
    # online play: the turn timers' seconds (to call, to play) when on (docs/online.md, "Timers")
    online_timers: tuple[int, int]
    # the game's own message codes and their English texts (registered with chkobba.messages) ...
    messages: Mapping[str, str] = field(default_factory=dict)
    # ... and, of its refusals of an action's text that name the text again, the same
    # reason without it (a record's error names the text already)
    unechoed: Mapping[str, str] = field(default_factory=dict)

    def options_class(self) -> type[GameOptions]:
        return self.state_class.options_class()
