"""Table options as validated, immutable values.

``ChkobbaOptions.from_dict({"target": 21})`` fills every option left out with its
default from RULES.md and refuses an unknown option or a bad value with a
message that names it. ``to_dict()`` gives back the full set, as records write it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Mapping, TypeVar

from .errors import InvalidOptions

T = TypeVar("T", bound="_Options")


def _choices(name: str, value: object, allowed: tuple[object, ...]) -> None:
    # bool is an int in Python: refuse True where 1 is meant and the reverse.
    ok = any(type(value) is type(a) and value == a for a in allowed)
    if not ok:
        shown = ", ".join(repr(a) if isinstance(a, str) else str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
        raise InvalidOptions(f'option "{name}" must be one of {shown}, not {_show(value)}')


def _show(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidOptions(f'option "{name}" must be true or false, not {_show(value)}')


@dataclass(frozen=True)
class _Options:
    game: ClassVar[str]

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any] | None = None) -> T:
        data = dict(data or {})
        if not isinstance(data, dict):
            raise InvalidOptions("options must be a JSON object")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise InvalidOptions(f'unknown option "{key}" for {cls.game.replace("_", " ")} (known: {", ".join(sorted(known))})')
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def replace(self: T, **changes: Any) -> T:
        d = self.to_dict()
        d.update(changes)
        return type(self).from_dict(d)


@dataclass(frozen=True)
class ChkobbaOptions(_Options):
    """Every Chkobba table option of RULES.md, with its default."""

    game: ClassVar[str] = "chkobba"
    players: int = 2
    faces: str = "QJK"
    capture: str = "optional"
    missed_capture: bool = True
    last_card_sweep: bool = False
    redeal: bool = True
    target: int = 11
    match: int = 1
    all_diamonds_wins: bool = False

    def __post_init__(self) -> None:
        _choices("players", self.players, (2, 4))
        _choices("faces", self.faces, ("QJK", "JQK"))
        _choices("capture", self.capture, ("optional", "compulsory"))
        _bool("missed_capture", self.missed_capture)
        _bool("last_card_sweep", self.last_card_sweep)
        _bool("redeal", self.redeal)
        _choices("target", self.target, (11, 21, 31))
        _choices("match", self.match, (1, 3, 5))
        _bool("all_diamonds_wins", self.all_diamonds_wins)

    @property
    def claims(self) -> bool:
        """Whether missed captures may be claimed at this table."""
        return self.missed_capture and self.capture == "optional"


@dataclass(frozen=True)
class Timers:
    call: int = 10
    card: int = 12


@dataclass(frozen=True)
class SevenDiamondsOptions(_Options):
    """Every Seven Diamonds table option of RULES.md, with its default.

    ``timers`` is ``None`` when off, else the seconds for a call and a card.
    """

    game: ClassVar[str] = "seven_diamonds"
    players: int = 4
    calls: bool = True
    target: int = 500
    last_seven_bonus: int = 200
    timers: Timers | None = Timers()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None = None) -> "SevenDiamondsOptions":
        data = dict(data or {})
        if "timers" in data:
            t = data["timers"]
            if t is False or t is None:
                data["timers"] = None
            elif t is True:
                data["timers"] = Timers()
            elif isinstance(t, dict):
                unknown = set(t) - {"call", "card"}
                if unknown:
                    raise InvalidOptions(f'option "timers" has unknown key "{sorted(unknown)[0]}" (known: call, card)')
                for k in ("call", "card"):
                    v = t.get(k, getattr(Timers(), k))
                    if type(v) is not int or not 1 <= v <= 600:
                        raise InvalidOptions(f'option "timers.{k}" must be a whole number of seconds from 1 to 600, not {_show(v)}')
                data["timers"] = Timers(**t)
            elif not isinstance(t, Timers):
                raise InvalidOptions(f'option "timers" must be false or {{"call": seconds, "card": seconds}}, not {_show(t)}')
        return super().from_dict.__func__(cls, data)  # type: ignore[attr-defined,no-any-return]

    def __post_init__(self) -> None:
        _choices("players", self.players, (4,))
        _bool("calls", self.calls)
        if type(self.target) is not int or not 1 <= self.target <= 100000:
            raise InvalidOptions(f'option "target" must be a whole number of points from 1 to 100000, not {_show(self.target)}')
        if type(self.last_seven_bonus) is not int or not 0 <= self.last_seven_bonus <= 10000:
            raise InvalidOptions(f'option "last_seven_bonus" must be a whole number from 0 to 10000, not {_show(self.last_seven_bonus)}')

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["timers"] = False if self.timers is None else {"call": self.timers.call, "card": self.timers.card}
        return d


OPTIONS_BY_GAME: dict[str, type[ChkobbaOptions] | type[SevenDiamondsOptions]] = {
    "chkobba": ChkobbaOptions,
    "seven_diamonds": SevenDiamondsOptions,
}
