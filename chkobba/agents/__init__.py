"""Computer players for both games, and the coach.

One protocol for every agent and both games
--------------------------------------------
An agent gets **its seat's observation** (never the full state), the legal
actions and a ``random.Random``; it returns one of the legal actions::

    from chkobba.agents import make_agent
    agent = make_agent("chkobba", "medium")          # or "easy", "hard"
    obs = session.observation(seat)                   # the seat to act
    action = agent.choose(obs, obs.legal_actions(), random.Random(seed))
    session.apply(action)                             # an Action; str(action) is its record text

The result depends only on the observation, the legal actions and the rng's
state (the test suite checks that two different hidden deals behind the same
observation give the same decision). Agents never choose ``timeout``.

Levels (per game): ``easy`` (a beginner: legal, often careless), ``medium``
(a solid rule-based player), ``hard`` (determinized search over sampled
hidden deals with medium playouts). See docs/agents.md for their strength.

Hard is anytime and interruptible (for the browser)
----------------------------------------------------
``HardAgent.choose`` thinks for its whole budget in one call. To keep a page
responsive, drive the same search in slices instead::

    agent = make_agent("chkobba", "hard")             # default budget: Budget(rollouts=...)
    search = agent.start(obs, legal, rng)             # or budget=Budget(rollouts=300, ms=800)
    while not search.step(20):                        # think ~20 ms, then yield to the page
        await asyncio.sleep(0)
    action = search.best()                            # may also be called at any time before

``step(max_ms)`` returns True when the budget is spent (or only one action is
left); one slice overruns ``max_ms`` by at most one rollout (≲ 5 ms in
CPython). ``search.best()`` is always a legal action (medium's choice before
the first rollout), so the page may stop the search at any moment.
``search.stats()`` gives rollouts, sampled deals and milliseconds spent.
A rollout budget is deterministic given the rng; an ``ms`` budget is not.

Coach (hints)
-------------
``hint(obs, rng=None, budget=None)`` ranks the legal actions of ``obs.seat``
(which must be the seat to act) with the same search and returns JSON-able
data::

    {"seat": 0, "best": "7HxAD6C", "stats": {...},
     "actions": [{"action": "7HxAD6C", "rank": 1, "expected": 1.42,
                  "rollouts": 96, "pruned": false, "sweep_risk": 0.0,
                  "heuristic": 1.1, "reason": "2 diamonds, 3 cards"}, ...]}

``expected`` is the estimated round point difference for the seat's side
after that action (Chkobba) or the estimated round points difference
(Seven Diamonds); ``reason`` is a short plain-words explanation. For an
anytime hint, use ``agent.start(...)`` and call ``search.ranking()``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, MutableMapping, Sequence
from typing import Any, Protocol

from ..actions import TIMEOUT, Action
from ..protocol import JSONDict, Observation
from ..registry import GAMES
from ..registry import game as registered
from .kit import AgentKit, Policy
from .search import PAGE_SEARCH_MS, Budget, Model, Search

__all__ = ["Agent", "AgentKit", "Budget", "Search", "EasyAgent", "MediumAgent", "HardAgent", "LEVELS", "make_agent",
           "hint", "DEFAULT_BUDGETS", "PAGE_SEARCH_MS"]

LEVELS = ("easy", "medium", "hard")


class Agent(Protocol):
    """A computer player: observation + legal actions + rng -> action."""

    game: str
    level: str

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action: ...


def _playable(legal: Sequence[Action]) -> list[Action]:
    """The legal actions an agent may choose: never ``timeout``."""
    return [a for a in legal if a.kind != TIMEOUT]


def _kit(game: str) -> AgentKit:
    """A game's computer players, as the registry declares them."""
    if game not in GAMES:
        raise ValueError(f'unknown game "{game}" (known: {", ".join(GAMES)})')
    return registered(game).agents()


class _PolicyAgent:
    def __init__(self, game: str, level: str, policy: Policy) -> None:
        self.game = game
        self.level = level
        self._policy = policy

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        legal = _playable(legal)
        if len(legal) == 1:
            return legal[0]
        return self._policy(obs, legal, rng)

    def __repr__(self) -> str:
        return f"<{self.level} {self.game} agent>"


class EasyAgent(_PolicyAgent):
    def __init__(self, game: str) -> None:
        super().__init__(game, "easy", _kit(game).easy)


class MediumAgent(_PolicyAgent):
    def __init__(self, game: str) -> None:
        super().__init__(game, "medium", _kit(game).medium)


class _Budgets(MutableMapping[str, Budget]):
    """Each game's default hard budget: its KIT's, read when asked (the
    games' agents modules are imported only when a computer first plays),
    unless a tool set another (bench/vs_revision.py lifts the time cap)."""

    def __init__(self) -> None:
        self._set: dict[str, Budget] = {}

    def __getitem__(self, game: str) -> Budget:
        if game not in GAMES:
            raise KeyError(game)
        return self._set.get(game) or _kit(game).budget

    def __setitem__(self, game: str, budget: Budget) -> None:
        if game not in GAMES:
            raise KeyError(game)
        self._set[game] = budget

    def __delitem__(self, game: str) -> None:
        del self._set[game]

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


# Default hard budgets (the page's too), each game's own (sized in docs/agents.md).
DEFAULT_BUDGETS: MutableMapping[str, Budget] = _Budgets()


class HardAgent:
    """Determinized search with medium playouts (see :mod:`chkobba.agents.search`)."""

    level = "hard"

    def __init__(self, game: str, budget: Budget | None = None, model: Model | None = None) -> None:
        self.game = game
        kit = _kit(game)
        self.budget = budget or DEFAULT_BUDGETS[game]
        self.model = model or kit.model()

    def start(self, obs: Observation, legal: Sequence[Action], rng: random.Random,
              budget: Budget | None = None) -> Search:
        """A search for this decision; nothing is computed until ``step``."""
        return Search(self.model, obs, _playable(legal), rng, budget or self.budget)

    def begin(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action | Search:
        """:meth:`choose` in two halves: the one playable action when there is
        one, else this decision's search, to be thought about in slices
        (``Search.step``) by a page that must not wait; its ``best()`` is then
        what ``choose`` answers."""
        legal = _playable(legal)
        if len(legal) == 1:
            return legal[0]
        return self.start(obs, legal, rng)

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        begun = self.begin(obs, legal, rng)
        return begun.run() if isinstance(begun, Search) else begun

    def __repr__(self) -> str:
        return f"<hard {self.game} agent {self.budget}>"


def make_agent(game: str, level: str, budget: Budget | None = None) -> Agent:
    """An agent of ``level`` (easy, medium, hard) for ``game``."""
    if level == "easy":
        return EasyAgent(game)
    if level == "medium":
        return MediumAgent(game)
    if level == "hard":
        return HardAgent(game, budget)
    extra = _kit(game).extra.get(level)
    if extra is not None:
        return _PolicyAgent(game, level, extra)
    raise ValueError(f'unknown level "{level}" (known: {", ".join(LEVELS)})')


def hint(obs: Observation, rng: random.Random | None = None, budget: Budget | None = None,
         legal: Sequence[Action] | None = None) -> dict[str, Any]:
    """Rank the legal actions of the seat whose observation this is (the
    coach). JSON-able; see the module docstring."""
    legal = _playable(legal if legal is not None else obs.legal_actions())
    if not legal:
        return {"seat": obs.seat, "best": None, "actions": [], "stats": {}}
    agent = HardAgent(obs.game, budget)
    search = agent.start(obs, legal, rng or random.Random(0))
    search.run()
    return {"seat": obs.seat, "best": str(search.best()), "actions": search.ranking(), "stats": search.stats()}
