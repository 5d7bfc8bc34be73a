"""High Card's table options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from chkobba.options_base import GameOptions, LinkField, OptionSpec


@dataclass(frozen=True)
class HighCardOptions(GameOptions):
    game: ClassVar[str] = "high_card"
    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 2, (2,)),
        OptionSpec("target", 2, (1, 2, 3)),
    )

    players: int = 2
    target: int = 2

    def __post_init__(self) -> None:
        self.validate_specs()

    @property
    def target_points(self) -> int | None:
        return self.target


LINK_FIELDS: tuple[LinkField, ...] = (
    ("players", "choice", 2, (2,)),
    ("target", "choice", 2, (1, 2, 3)),
)
