"""The protocol every game follows (the registry of games is :mod:`chkobba.registry`).

Records, the session, the agents and the web facade speak to a game only
through these types, so adding a game is a package that declares it (a
:class:`~chkobba.declaration.Game`), registered with
:func:`chkobba.registry.register`. This module imports no game.

- :class:`GameState` is generic over the game's observation type ``O``: a
  state of one game hands out that game's observations, and ``mypy --strict``
  checks the seam.
- :class:`StateBase` is what both games' states share, in particular the one
  legality check (pokerkit's pattern): :meth:`StateBase.verify_action` raises
  :class:`~chkobba.errors.IllegalAction` with the reason,
  :meth:`StateBase.can_apply` says yes or no, :meth:`StateBase.apply` plays.
  ``apply``, the session and ``replay`` all go through ``verify_action``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Optional, Protocol, TypeVar, Union

from .actions import Action
from .cards import Card
from .errors import IllegalAction
from .messages import Message
from .options_base import GameOptions

# JSON values, as views, moves and summaries hold them (read-only containers,
# so that a list of card codes is a JSON value).
JSON = Union[None, bool, int, float, str, Sequence["JSON"], Mapping[str, "JSON"]]
JSONDict = dict[str, JSON]

# A round's action log: a linked list of shared cells (newest action, rest).
Log = Optional[tuple[Action, "Log"]]

S = TypeVar("S", bound="GameState[Observation]")
O_co = TypeVar("O_co", bound="Observation", covariant=True)
Self_ = TypeVar("Self_", bound="StateBase")


class RoundResult(Protocol):
    """A finished round's scoring."""

    @property
    def game(self) -> int: ...
    @property
    def points(self) -> tuple[int, int]: ...
    @property
    def game_winner(self) -> int | None:
        """The side that won the game this round ended; None while the game goes on."""
    @property
    def game_won_by(self) -> str | None:
        """How that game was won (``target``, ``all_diamonds``); None while it goes on."""
    def to_dict(self) -> JSONDict: ...
    def details(self) -> JSONDict: ...


class Observation(Protocol):
    """What one seat may see (each game adds its own public fields)."""

    @property
    def game(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def round_index(self) -> int: ...
    @property
    def history(self) -> tuple[Action, ...]: ...
    def legal_actions(self) -> list[Action]: ...
    def unseen_mask(self) -> int: ...
    def claim_window(self) -> tuple[Card, int] | None: ...


class GameState(Protocol[O_co]):
    """What a game's state offers (see :class:`chkobba.games.chkobba.state.ChkobbaState`)."""

    @property
    def game(self) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def options(self) -> GameOptions: ...
    @property
    def results(self) -> Sequence[RoundResult]: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def games(self) -> tuple[int, int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def game_winners(self) -> tuple[int, ...]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def round_index(self) -> int: ...
    @property
    def game_index(self) -> int: ...
    @property
    def last_actor(self) -> int: ...

    @classmethod
    def full_deck(cls) -> tuple[Card, ...]: ...

    def copy(self: S) -> S: ...
    def deal(self, deck: Sequence[Card]) -> None: ...
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def needs_deal(self) -> bool: ...
    def deal_continues_round(self) -> bool: ...
    def round_over(self) -> bool: ...
    def legal_actions(self) -> list[Action]: ...
    def parse(self, text: str) -> Action: ...
    def explain(self, a: Action) -> Message: ...
    def verify_action(self, a: Action) -> None: ...
    def can_apply(self, a: Action) -> bool: ...
    def apply(self: S, action: Action | str) -> S: ...
    def play(self, a: Action) -> None: ...
    def history(self) -> list[Action]: ...
    def observation(self, seat: int) -> O_co: ...
    def side_of(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for: its observation's ``side``."""
    def describe_moves(self: S, a: Action, after: S) -> list[JSONDict]: ...
    def view(self, seat: int | None) -> JSONDict: ...


class StateBase:
    """What both games' states share: the action log, phase queries and the
    one legality check built on each game's ``legal_actions``/``explain``/``play``."""

    __slots__ = ()

    phase: str
    log: Log
    results: Sequence[RoundResult]

    @property
    def game_winners(self) -> tuple[int, ...]:
        """The side that won each game of the match that has ended, in order."""
        return tuple(w for w in (r.game_winner for r in self.results) if w is not None)

    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def explain(self, a: Action) -> Message:
        raise NotImplementedError

    def play(self, a: Action) -> None:
        raise NotImplementedError

    def parse(self, text: str) -> Action:
        raise NotImplementedError

    def to_act(self) -> int | None:
        raise NotImplementedError

    def copy(self: Self_) -> Self_:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def needs_deal(self) -> bool:
        return self.phase == "deal"

    def deal_continues_round(self) -> bool:
        """Whether the deck the state waits for continues the round (an
        accepted re-deal) rather than starting a new one."""
        return False

    def history(self) -> list[Action]:
        """The actions of the current round, oldest first."""
        out: list[Action] = []
        cell = self.log
        while cell is not None:
            out.append(cell[0])
            cell = cell[1]
        out.reverse()
        return out

    # ------------------------------------------------- the one legality check
    def verify_action(self, a: Action) -> None:
        """Raise :class:`~chkobba.errors.IllegalAction` (code, params, English
        text) unless ``a`` is legal here."""
        if a not in self.legal_actions():  # none when no seat is to act
            raise IllegalAction(self.explain(a))

    def can_apply(self, a: Action) -> bool:
        """Whether ``a`` is legal here."""
        return a in self.legal_actions()

    def apply(self: Self_, action: Action | str) -> Self_:
        """The state after ``action`` (text or value); this state is left
        unchanged. Raises :class:`~chkobba.errors.InvalidAction` if the text
        can't be read and :class:`~chkobba.errors.IllegalAction` with the
        reason if it is not legal."""
        a = self.parse(action) if isinstance(action, str) else action
        self.verify_action(a)
        s = self.copy()
        s.play(a)
        return s
