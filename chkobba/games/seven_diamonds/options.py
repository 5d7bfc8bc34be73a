"""Seven Diamonds' table options (RULES.md), validated and immutable.

``timers`` is ``None`` when off, else the seconds for a call and a card; in
a record it is ``false`` or ``{"call": 10, "card": 12}``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Mapping

from ...errors import InvalidOptions
from ...messages import quote
from ...options_base import GameOptions, LinkField, OptionSpec, show


@dataclass(frozen=True)
class Timers:
    call: int = 10
    card: int = 12


TIMER_MIN = 1
TIMER_MAX = 600


@dataclass(frozen=True)
class SevenDiamondsOptions(GameOptions):
    """Every Seven Diamonds table option of RULES.md, with its default."""

    game: ClassVar[str] = "seven_diamonds"
    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 4, (4,)),
        OptionSpec("calls", True, (True, False), kind="bool"),
        OptionSpec("target", 500, None, 1, 100000, kind="number"),
        OptionSpec("last_seven_bonus", 200, None, 0, 10000, kind="number"),
        OptionSpec("timers", {"call": 10, "card": 12}, None, TIMER_MIN, TIMER_MAX, kind="timers"),
    )

    players: int = 4
    calls: bool = True
    target: int = 500
    last_seven_bonus: int = 200
    timers: Timers | None = Timers()

    @property
    def target_points(self) -> int | None:
        return self.target

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None = None) -> "SevenDiamondsOptions":
        if data is not None and not isinstance(data, Mapping):
            raise InvalidOptions("options.not_object")
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
                    raise InvalidOptions("options.timers_key", key=quote(str(sorted(map(str, unknown))[0])))
                for k in ("call", "card"):
                    v = t.get(k, asdict(Timers())[k])
                    if type(v) is not int or not TIMER_MIN <= v <= TIMER_MAX:
                        raise InvalidOptions("options.timers_seconds", key=k, value=quote(show(v)))
                data["timers"] = Timers(**t)
            elif not isinstance(t, Timers):
                raise InvalidOptions("options.timers_form", value=quote(show(t)))
        return super().from_dict.__func__(cls, data)  # type: ignore[attr-defined,no-any-return]

    def __post_init__(self) -> None:
        self.validate_specs()
        if type(self.target) is not int or not 1 <= self.target <= 100000:
            raise InvalidOptions("options.target_range", value=quote(show(self.target)))
        if type(self.last_seven_bonus) is not int or not 0 <= self.last_seven_bonus <= 10000:
            raise InvalidOptions("options.bonus_range", value=quote(show(self.last_seven_bonus)))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["timers"] = False if self.timers is None else {"call": self.timers.call, "card": self.timers.card}
        return d


# The options as the v1 link format writes them (docs/links.md). Frozen for
# version 1: a later engine that adds an option needs a new link version
# (tests/test_links.py checks this table against the engine).
LINK_FIELDS_V1: tuple[LinkField, ...] = (
    ("players", "choice", 4, (4,)),
    ("calls", "bool", True, (True, False)),
    ("target", "number", 500, (1, 100000)),
    ("last_seven_bonus", "number", 200, (0, 10000)),
    ("timers", "timers", {"call": 10, "card": 12}, (1, 600)),
)
