"""Chkobba's table options (RULES.md), validated and immutable.

``ChkobbaOptions.from_dict({"target": 21})`` fills every option left out with its
default and refuses an unknown option or a bad value with a message that
names it. ``to_dict()`` gives back the full set, as records write it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...options_base import GameOptions, OptionSpec


@dataclass(frozen=True)
class ChkobbaOptions(GameOptions):
    """Every Chkobba table option of RULES.md, with its default."""

    game: ClassVar[str] = "chkobba"
    SPECS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("players", 2, (2, 4)),
        OptionSpec("faces", "QJK", ("QJK", "JQK")),
        OptionSpec("capture", "optional", ("optional", "compulsory")),
        OptionSpec("missed_capture", True, (True, False), kind="bool", requires=(("capture", "optional"),)),
        OptionSpec("last_card_sweep", False, (True, False), kind="bool"),
        OptionSpec("redeal", True, (True, False), kind="bool"),
        OptionSpec("target", 11, (11, 21, 31)),
        OptionSpec("match", 1, (1, 3, 5)),
        OptionSpec("all_diamonds_wins", False, (True, False), kind="bool"),
    )

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
        self.validate_specs()

    @property
    def claims(self) -> bool:
        """Whether missed captures may be claimed at this table."""
        return self.missed_capture and self.capture == "optional"
