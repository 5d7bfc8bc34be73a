"""What a game's agents module declares for the registry (one per game,
``KIT`` at the end of :mod:`chkobba.agents.chkobba` and
:mod:`chkobba.agents.seven_diamonds`): the easy and medium policies, the
model the hard search drives and its default budget, and any extra level
tools use (``baseline``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..actions import Action
from ..protocol import Observation
from .search import Budget, Model

# A policy: the seat's observation, the legal actions and an rng -> one of them.
Policy = Callable[[Observation, Sequence[Action], random.Random], Action]


@dataclass(frozen=True)
class AgentKit:
    easy: Policy
    medium: Policy
    model: Callable[[], Model]
    # the default hard budget (the page's too): docs/agents.md
    budget: Budget
    extra: Mapping[str, Policy] = field(default_factory=dict)
