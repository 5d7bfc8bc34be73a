"""High Card, declared whole: the one thing its test registers."""

from __future__ import annotations

from chkobba.agents.kit import AgentKit
from chkobba.declaration import Game

from . import table
from .options import LINK_FIELDS
from .state import MESSAGES, HighCardState, determinize


def _agents() -> AgentKit:
    from .agents import KIT
    return KIT


GAME = Game(
    name="high_card", title="High Card", players=(2,), state_class=HighCardState,
    determinize=determinize, agents=_agents,
    words=table.words, extras=table.extras, hide=table.hide, terminal=table.terminal,
    link_fields=LINK_FIELDS, stats_variant={"players": (2,), "target": (1, 2, 3)},
    stats_labels=table.stats_labels, lesson_outcome=table.lesson_outcome,
    online_timers=(20, 20), messages=MESSAGES,
)
