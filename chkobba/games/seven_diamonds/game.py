"""Seven Diamonds, declared whole for the registry (:mod:`chkobba.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...declaration import DailyDeal, Game, ResultField
from . import table
from .determinize import determinize_observation
from .options import LINK_FIELDS_V1
from .state import SevenDiamondsState
from .texts import MESSAGES

if TYPE_CHECKING:
    from ...agents.kit import AgentKit


def _setup(**parts: Any) -> SevenDiamondsState:
    """A position from its parts (:mod:`.setup`, imported when first asked)."""
    from .setup import setup
    return setup(**parts)


def _agents() -> "AgentKit":
    from ...agents.seven_diamonds import KIT
    return KIT


GAME = Game(
    name="seven_diamonds", title="Seven Diamonds", players=(4,), state_class=SevenDiamondsState,
    determinize=determinize_observation, agents=_agents,
    words=table.words, extras=table.extras, hide=table.hide, terminal=table.terminal,
    link_fields=LINK_FIELDS_V1,
    stats_variant={"players": (4,), "calls": (True, False), "target": range(1, 100_001)},
    stats_labels=table.stats_labels, lesson_outcome=table.lesson_outcome, setup=_setup,
    daily=DailyDeal(options={"players": 4, "timers": False}, seats=(None, "hard", "hard", "hard"), rollouts=200,
                    round=table.daily_round, share=table.daily_share,
                    result_fields=(ResultField("points", "n"), ResultField("other", "n"), ResultField("won", "flag"),
                                   ResultField("multiplier", "range", (1, 3)), ResultField("bonus", "n"),
                                   ResultField("cards", "n")),
                    check=table.daily_check),
    messages=MESSAGES, unechoed={"seven_diamonds.action_foreign_card": "seven_diamonds.deck_foreign_card",
                                 "seven_diamonds.no_capture": "record.no_capture"},
    online_timers=(10, 12),
)
