"""High Card's computer players: easy plays at random, medium its highest
card, hard searches with this model."""

from __future__ import annotations

import random
from collections.abc import Sequence

from chkobba.actions import Action
from chkobba.agents.kit import AgentKit
from chkobba.agents.search import Budget
from chkobba.protocol import GameState, JSONDict, Observation

from .state import determinize, high_card_state, rank


def easy(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    return rng.choice(list(legal))


def medium(obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    return max(legal, key=lambda a: (rank(a.card), a.card))


class HighCardModel:
    game = "high_card"

    def determinize(self, obs: Observation, rng: random.Random) -> GameState[Observation]:
        return determinize(obs, rng)

    def prior(self, obs: Observation, legal: Sequence[Action]) -> list[float]:
        return [0.0 for _ in legal]

    def rollout(self, state: GameState[Observation], side: int, rng: random.Random) -> float:
        s = high_card_state(state).copy()
        rounds = len(s.results)
        while s.to_act() is not None and len(s.results) == rounds:
            s.play(rng.choice(s.legal_actions()))
        return float(s.tricks[side] - s.tricks[1 - side])

    def describe(self, obs: Observation, a: Action) -> JSONDict:
        return {"reason": "", "code": "web.hint.reason", "params": {"reason": ""}}

    def exact(self, obs: Observation, legal: Sequence[Action]) -> list[tuple[float, float]] | None:
        return None

    def exact_reason(self, value: tuple[float, float], best: tuple[float, float]) -> str:
        return ""


KIT = AgentKit(easy=easy, medium=medium, model=HighCardModel, budget=Budget(rollouts=30, ms=None))
