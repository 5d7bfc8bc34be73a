"""Chkobba, declared whole for the registry (:mod:`chkobba.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...declaration import MATCH_RESULT, DailyDeal, Game, ResultField
from . import table
from .determinize import determinize_observation
from .options import LINK_FIELDS_V1
from .state import ChkobbaState
from .texts import MESSAGES

if TYPE_CHECKING:
    from ...agents.kit import AgentKit


def _setup(**parts: Any) -> ChkobbaState:
    """A position from its parts (:mod:`.setup`, imported when first asked)."""
    from .setup import setup
    return setup(**parts)


def _agents() -> "AgentKit":
    from ...agents.chkobba import KIT
    return KIT


GAME = Game(
    name="chkobba", title="Chkobba", players=(2, 4), state_class=ChkobbaState,
    determinize=determinize_observation, agents=_agents,
    words=table.words, extras=table.extras, hide=table.hide, terminal=table.terminal,
    link_fields=LINK_FIELDS_V1, result_fields=MATCH_RESULT + (ResultField("chkobbas", "n"),),
    counts_sweeps=True,
    stats_variant={"players": (2, 4), "capture": ("optional", "compulsory"), "target": (11, 21, 31),
                   "match": (1, 3, 5)},
    stats_labels=table.stats_labels, lesson_outcome=table.lesson_outcome, setup=_setup,
    daily=DailyDeal(options={"players": 2}, seats=(None, "hard"), rollouts=200,
                    round=table.daily_round, share=table.daily_share,
                    result_fields=(ResultField("points", "n"), ResultField("other", "n"),
                                   ResultField("categories", "set", ("karta", "dinari", "barmila", "haya")),
                                   ResultField("chkobbas", "n")),
                    check=table.daily_check),
    messages=MESSAGES, unechoed={"chkobba.action_foreign_card": "chkobba.deck_foreign_card"},
    online_timers=(30, 30),
)
