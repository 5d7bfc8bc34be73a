"""Chkobba's table options (RULES.md), validated and immutable.

``ChkobbaOptions.from_dict({"target": 21})`` fills every option left out with its
default and refuses an unknown option or a bad value with a message that
names it. ``to_dict()`` gives back the full set, as records write it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...options_base import GameOptions, LinkField, OptionSpec


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

    @property
    def target_points(self) -> int | None:
        return self.target

    @property
    def match_games(self) -> int:
        return self.match


# The options as the v1 link format writes them (docs/links.md). Frozen for
# version 1: a later engine that adds an option needs a new link version
# (tests/test_links.py checks this table against the engine).
LINK_FIELDS_V1: tuple[LinkField, ...] = (
    ("players", "choice", 2, (2, 4)),
    ("faces", "choice", "QJK", ("QJK", "JQK")),
    ("capture", "choice", "optional", ("optional", "compulsory")),
    ("missed_capture", "bool", True, (True, False)),
    ("last_card_sweep", "bool", False, (True, False)),
    ("redeal", "bool", True, (True, False)),
    ("target", "choice", 11, (11, 21, 31)),
    ("match", "choice", 1, (1, 3, 5)),
    ("all_diamonds_wins", "bool", False, (True, False)),
)
