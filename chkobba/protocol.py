"""The protocol both games' states follow (the registry is chkobba.registry).

Agents, records, the session and the web table speak to a game only through
this protocol, so adding a game is adding a state class here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .actions import Action
from .cards import Card


class GameState(Protocol):
    """What a game's state offers (see :class:`chkobba.games.chkobba.state.ChkobbaState`)."""

    game: str
    n: int
    options: Any
    results: tuple[Any, ...]
    score: tuple[int, int]
    games: tuple[int, int]
    winner: int | None
    dealer: int
    round_index: int
    game_index: int
    last_actor: int

    @classmethod
    def options_class(cls) -> Any: ...
    @classmethod
    def full_deck(cls) -> tuple[Card, ...]: ...
    @classmethod
    def new(cls, options: Any = None, first_dealer: int = 0, deck: Sequence[Card] | None = None) -> Any: ...

    def copy(self) -> Any: ...
    def deal(self, deck: Sequence[Card]) -> None: ...
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def needs_deal(self) -> bool: ...
    def round_over(self) -> bool: ...
    def legal_actions(self) -> list[Action]: ...
    def parse(self, text: str) -> Action: ...
    def apply(self, action: Action | str) -> Any: ...
    def play(self, a: Action) -> None: ...
    def explain(self, a: Action) -> str: ...
    def history(self) -> list[Action]: ...
    def observation(self, seat: int) -> Any: ...


class StateBase:
    """What both games' states share: the action log, phase queries and the
    checked ``apply`` built on each game's ``legal_actions``/``explain``/``play``."""

    __slots__ = ()

    phase: str
    log: tuple[Any, ...] | None

    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def parse(self, text: str) -> Action:
        raise NotImplementedError

    def explain(self, a: Action) -> str:
        raise NotImplementedError

    def play(self, a: Action) -> None:
        raise NotImplementedError

    def copy(self) -> Any:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def needs_deal(self) -> bool:
        return self.phase == "deal"

    def history(self) -> list[Action]:
        """The actions of the current round, oldest first."""
        out = []
        cell = self.log
        while cell is not None:
            out.append(cell[0])
            cell = cell[1]
        out.reverse()
        return out

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def apply(self, action: Action | str) -> Any:
        """The state after ``action``; this state is left unchanged. Raises
        :class:`~chkobba.errors.IllegalAction` with the reason if it is not legal."""
        from .errors import IllegalAction
        a = self.parse(action) if isinstance(action, str) else action
        if a not in self.legal_actions():
            raise IllegalAction(self.explain(a))
        s = self.copy()
        s.play(a)
        return s
