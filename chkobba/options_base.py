"""What both games' table options share: immutable, validated values described
by a list of :class:`OptionSpec` (for validation and for the start form).

Each game's options class lives in its own package
(``chkobba/games/<game>/options.py``); :mod:`chkobba.options` gathers them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, TypeVar

from .errors import InvalidOptions

T = TypeVar("T", bound="GameOptions")

JSON = Any  # an option's JSON value (bool, int, str, or an object for timers)

# An option as the v1 link format writes it (docs/links.md; frozen for that
# version): (name, kind, default, choices or (min, max)).
LinkField = tuple[str, str, JSON, tuple[JSON, ...]]


@dataclass(frozen=True)
class OptionSpec:
    """One table option as a start form shows it.

    ``choices`` lists the allowed values (booleans included), else ``None``;
    ``min``/``max`` bound a number; ``requires`` names the other options and
    values under which this one matters (e.g. missed captures may be claimed
    only when capture is optional); ``code`` is the message code of its label."""

    name: str
    default: JSON
    choices: tuple[JSON, ...] | None = None
    min: int | None = None
    max: int | None = None
    requires: tuple[tuple[str, JSON], ...] | None = None
    kind: str = "choice"  # "choice", "bool", "number" or "timers"

    @property
    def code(self) -> str:
        return f"option.{self.name}"

    def describe(self) -> dict[str, JSON]:
        return {"name": self.name, "kind": self.kind, "default": self.default,
                "choices": list(self.choices) if self.choices is not None else None,
                "min": self.min, "max": self.max,
                "requires": dict(self.requires) if self.requires else None, "code": self.code}


def show(value: object) -> str:
    """A value as a message shows it: true/false, 'text', numbers."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value)
    return str(value)


def check_choice(name: str, value: object, allowed: tuple[object, ...]) -> None:
    # bool is an int in Python: refuse True where 1 is meant and the reverse.
    ok = any(type(value) is type(a) and value == a for a in allowed)
    if not ok:
        raise InvalidOptions("options.choice", option=name, choices=[show(a) for a in allowed],
                             value=_quoted(value))


def check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidOptions("options.bool", option=name, value=_quoted(value))


def _quoted(value: object) -> str:
    from .messages import quote
    return quote(show(value))


@dataclass(frozen=True)
class GameOptions:
    """Base of each game's options: ``from_dict``, ``to_dict``, ``replace``."""

    game: ClassVar[str]
    SPECS: ClassVar[tuple[OptionSpec, ...]]
    if TYPE_CHECKING:   # every game's options have it, as their first field
        players: int

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any] | None = None) -> T:
        if data is not None and not isinstance(data, Mapping):
            raise InvalidOptions("options.not_object")
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                from .messages import quote
                raise InvalidOptions("options.unknown", option=quote(key), game=cls.game.replace("_", " "),
                                     known=sorted(known))
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def replace(self: T, **changes: Any) -> T:
        d = self.to_dict()
        d.update(changes)
        return type(self).from_dict(d)

    def validate_specs(self) -> None:
        """Check every ``choice``/``bool`` option against its spec."""
        values = self.to_dict()
        for spec in self.SPECS:
            value = values[spec.name]
            if spec.kind == "bool":
                check_bool(spec.name, value)
            elif spec.kind == "choice":
                assert spec.choices is not None
                check_choice(spec.name, value, spec.choices)

    @property
    def claims(self) -> bool:
        """Whether missed captures may be claimed at this table (a game
        without claims says False)."""
        return False

    @property
    def target_points(self) -> int | None:
        """The points that win a game (None for a game without a target)."""
        return None

    @property
    def match_games(self) -> int:
        """How many games a match is at most (best of); 1 where a match is one game."""
        return 1
