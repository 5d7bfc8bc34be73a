"""Anytime, interruptible determinized search (flat Monte Carlo over sampled
hidden deals, common random numbers, paired pruning).

Each *rollout* takes one sampled deal (a full state consistent with the
observation, from :func:`chkobba.games.chkobba.observation.determinize`), plays one root
action on it, plays on with the game's medium policy for every seat (each
simulated seat deciding from what it could see) and scores the result with
the game's evaluation. All live root actions are tried on the same sampled
deal with the same playout randomness, so their differences are measured on
the same cards; an action whose paired mean falls clearly below the leader's
is dropped. The search stops when the budget is spent or one action is left.

Work happens only inside :meth:`Search.step`, in slices as short as asked
(one move of a playout is the unit when the model offers ``rollout_steps``,
else one rollout: well under a millisecond to a few milliseconds in CPython),
so a browser can interleave it with its own work.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..actions import Action
from ..protocol import GameState, JSONDict, Observation


class Model(Protocol):
    """What the search needs to know about a game (each game's agents module
    has one: :class:`chkobba.agents.chkobba.ChkobbaModel`,
    :class:`chkobba.agents.seven_diamonds.SevenModel`)."""

    game: str

    def determinize(self, obs: Observation, rng: random.Random) -> GameState[Observation]:
        """A full state consistent with ``obs`` (a sampled deal)."""
    def prior(self, obs: Observation, legal: Sequence[Action]) -> list[float]:
        """Medium's estimate of each legal action (the search's prior, in round points)."""
    def rollout(self, state: GameState[Observation], side: int, rng: random.Random) -> float:
        """Play ``state`` on and score it for ``side`` (round points).
        A model may also offer ``rollout_steps(state, side, rng)``: the same
        playout as a generator that pauses between moves and returns the value,
        which :meth:`Search.step` then resumes across its time slices
        (:meth:`ChkobbaModel.rollout_steps`)."""
    def describe(self, obs: Observation, a: Action) -> JSONDict:
        """The coach's facts about ``a``: ``reason``, ``code``, ``params`` and the game's own."""
    def exact(self, obs: Observation, legal: Sequence[Action]) -> list[tuple[float, float]] | None:
        """Exact values (chance of the game, round points) when the model solves the position, else None.
        A model may also offer ``exact_steps(obs, legal)``: the same answer from a
        generator that pauses every few positions, which :meth:`Search.step` then
        hands out in its time slices (:meth:`ChkobbaModel.exact_steps`)."""
    def exact_reason(self, value: tuple[float, float], best: tuple[float, float]) -> str:
        """The coach's words for a move of a solved position ('' for none)."""


# Default hard budgets (the page's too, in each game's KIT): sized for <= 150
# ms median per decision in CPython on a 2-core laptop-class machine
# (docs/agents.md). The time cap (`ms` of search) only binds on a slow
# device: a phone at a quarter of this machine's core (docs/pyodide-hard.md);
# here decisions take far less, so the rollout budget decides (and decisions
# stay deterministic).
PAGE_SEARCH_MS = 350.0


@dataclass(frozen=True)
class Budget:
    """How much a search may think: ``rollouts`` (deterministic given the rng)
    and/or ``ms`` of wall-clock time spent inside :meth:`Search.step`. The
    search stops at whichever comes first; ``None`` means no limit of that kind
    (at least one must be set)."""

    rollouts: int | None = 600
    ms: float | None = None
    min_worlds: int = 6        # sampled deals before any pruning
    prune_z: float = 2.0       # prune when the paired mean is this many standard errors below
    prior_weight: float = 2.0  # medium's estimate counts as this many rollouts
    max_actions: int = 10      # root actions searched (the best by medium's estimate)


def finish(steps: Generator[None, None, float]) -> float:
    """A playout in pieces (a model's ``rollout_steps``) played to its end
    without pauses: its value (what the model's ``rollout`` answers)."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: float = done.value
            return value


def _at_once(model: Model, obs: Observation, legal: Sequence[Action]
             ) -> Generator[None, None, list[tuple[float, float]] | None]:
    """A model's ``exact`` as a generator without pauses (for a model with no ``exact_steps``)."""
    return model.exact(obs, legal)
    yield   # unreachable: makes this a generator


class Search:
    """One decision being thought about. Make it with ``agent.start(...)``.

    ``step(max_ms)`` thinks for about ``max_ms`` milliseconds (at least one
    move of a playout, one rollout, or one piece of the exact solver) and returns ``True`` when the search is finished; ``best()`` is
    the best action so far (medium's choice before any rollout);
    ``ranking()`` is every legal action with its estimate.
    """

    def __init__(self, model: Model, obs: Observation, legal: Sequence[Action], rng: random.Random,
                 budget: Budget | None = None) -> None:
        self.model = model
        self.obs = obs
        self.legal = list(legal)
        self.budget = budget or Budget()
        if self.budget.rollouts is None and self.budget.ms is None:
            raise ValueError("a search budget needs rollouts or ms")
        self.seed = rng.getrandbits(62)
        self.side: int = obs.seat & 1
        n = len(self.legal)
        self.prior = model.prior(obs, self.legal) if n > 1 else [0.0] * n
        # only the most promising actions by medium's estimate are searched
        # (a big table can offer dozens of captures)
        order = sorted(range(n), key=lambda i: (-self.prior[i], i))
        self.live = sorted(order[:self.budget.max_actions])
        self.n = [0] * n
        self.total = [0.0] * n
        self.values: list[list[float]] = [[] for _ in range(n)]   # per world, for paired tests
        self.rollouts = 0
        self.pieces = 0     # pieces of playouts played (``rollout_steps``: a move each), for a slice's notes
        self.worlds = 0
        self.elapsed_ms = 0.0
        self._world: GameState[Observation] | None = None
        self._queue: list[int] = []
        self._roll_seed = 0
        self.done = n <= 1
        # a position the model solves exactly needs no sampling (solved in
        # the first steps, in slices like every other piece of work)
        self.exact: list[tuple[float, float]] | None = None
        self._solve = n > 1
        self._solving: Generator[None, None, list[tuple[float, float]] | None] | None = None
        # the playout being played, paused at the end of a slice: (its root action, the playout)
        self._playing: tuple[int, Generator[None, None, float]] | None = None

    # ------------------------------------------------------------ stepping
    def step(self, max_ms: float = 20.0) -> bool:
        """Think for about ``max_ms`` ms; ``True`` when the search is finished."""
        if self.done:
            return True
        t0 = time.perf_counter()
        deadline = t0 + max_ms / 1000.0
        if self._solve:
            # the exact solver, in slices when the model offers it in pieces
            # (``exact_steps``: the same answer as ``exact``, with pauses)
            if self._solving is None:
                pieces = getattr(self.model, "exact_steps", None)
                self._solving = pieces(self.obs, self.legal) if pieces is not None else _at_once(self.model, self.obs, self.legal)
            try:
                while True:
                    next(self._solving)
                    if time.perf_counter() >= deadline:
                        self.elapsed_ms += (time.perf_counter() - t0) * 1000.0
                        return False
            except StopIteration as solved:
                self._solve = False
                self._solving = None
                self.exact = solved.value
            if self.exact is not None:
                self.done = True
                self.elapsed_ms += (time.perf_counter() - t0) * 1000.0
                return True
        b = self.budget
        while True:
            before = time.perf_counter()
            if not self._one(deadline):
                break       # a playout paused at the deadline: resumed in the next slice
            now = time.perf_counter()
            spent = self.elapsed_ms + (now - t0) * 1000.0
            if b.rollouts is not None and self.rollouts >= b.rollouts and not self._queue:
                self.done = True
            if b.ms is not None and spent >= b.ms:
                self.done = True
            if len(self.live) <= 1 and not self._queue:
                self.done = True
            # the slice ends before a rollout that would end past its deadline
            # (judged by the last one's length); a model whose playouts pause
            # (``rollout_steps``) starts the next and pauses it at the deadline
            if self.done or now >= deadline or (self._whole_playouts() and now + (now - before) >= deadline):
                break
        self.elapsed_ms += (time.perf_counter() - t0) * 1000.0
        return self.done

    def run(self) -> Action:
        """Think until the budget is spent; the chosen action."""
        while not self.step(1000.0):
            pass
        return self.best()

    def _whole_playouts(self) -> bool:
        return getattr(self.model, "rollout_steps", None) is None

    def _one(self, deadline: float = math.inf) -> bool:
        """One rollout, or the part of it played before ``deadline`` (a model
        with ``rollout_steps``): True when a rollout was finished and counted,
        False when its playout paused (the next call resumes it)."""
        if self._playing is None:
            if not self._queue:
                # a new sampled deal, tried with every live action
                k = self.worlds
                self.worlds += 1
                self._world = self.model.determinize(self.obs, random.Random(self.seed * 1_000_003 + k))
                self._roll_seed = self.seed * 7_919 + k
                self._queue = list(self.live)
            i = self._queue.pop()
            assert self._world is not None
            s = self._world.copy()
            s.play(self.legal[i])
            pieces = getattr(self.model, "rollout_steps", None)
            if pieces is None:
                self._count(i, self.model.rollout(s, self.side, random.Random(self._roll_seed)))
                return True
            self._playing = (i, pieces(s, self.side, random.Random(self._roll_seed)))
        i, playout = self._playing
        try:
            while True:
                next(playout)
                self.pieces += 1
                if time.perf_counter() >= deadline:
                    return False
        except StopIteration as played:
            self._playing = None
            self._count(i, played.value)
            return True

    def _count(self, i: int, v: float) -> None:
        self.rollouts += 1
        self.n[i] += 1
        self.total[i] += v
        self.values[i].append(v)
        if not self._queue:
            self._prune()

    def _prune(self) -> None:
        if self.worlds < self.budget.min_worlds or len(self.live) <= 1:
            return
        lead = max(self.live, key=self._mean_key)
        lv = self.values[lead]
        keep = []
        for i in self.live:
            if i == lead:
                keep.append(i)
                continue
            iv = self.values[i]
            m = min(len(lv), len(iv))
            d = [lv[-m + j] - iv[-m + j] for j in range(m)]
            mean = sum(d) / m
            var = sum((x - mean) ** 2 for x in d) / max(1, m - 1)
            se = math.sqrt(var / m) + 1e-6
            if mean > self.budget.prune_z * se + 0.02:
                continue
            keep.append(i)
        self.live = keep

    # ------------------------------------------------------------- results
    def _mean_key(self, i: int) -> tuple[float, float]:
        # the mean shrunk towards medium's own estimate (same unit), which
        # matters only while an action has few rollouts
        k = self.budget.prior_weight
        n = self.n[i]
        m = (self.total[i] + k * self.prior[i]) / (n + k) if n else -1e9
        return (m, self.prior[i])

    def best(self) -> Action:
        """The best action so far."""
        if len(self.legal) == 1:
            return self.legal[0]
        if self.exact is not None:
            ex = self.exact
            return self.legal[max(range(len(self.legal)), key=lambda i: (ex[i], self.prior[i], -i))]
        if not any(self.n):
            return self.legal[max(range(len(self.legal)), key=lambda i: (self.prior[i], -i))]
        pool = self.live if self.live else list(range(len(self.legal)))
        return self.legal[max(pool, key=self._mean_key)]

    def ranking(self) -> list[JSONDict]:
        """Every legal action, best first, with its estimate (JSON-able):
        ``action`` (text), ``expected`` (expected round point difference for
        the seat's side after this action, or None if never tried),
        ``rollouts``, ``pruned`` and the game's own facts (``reason``,
        ``sweep_risk``...)."""
        best = self.best()
        keyed: list[tuple[tuple[bool, bool, tuple[float, float] | tuple[tuple[float, float], float]], JSONDict]] = []
        ex = self.exact
        for i, a in enumerate(self.legal):
            row: JSONDict = {"action": str(a)}
            row["expected"] = round(self.total[i] / self.n[i], 3) if self.n[i] else None
            row["rollouts"] = self.n[i]
            row["pruned"] = i not in self.live   # dropped by the search, or never searched
            if ex is not None:
                row["expected"] = float(ex[i][1])
                row["pruned"] = False
                row["exact"] = True
                row["game_chance"] = round(ex[i][0], 3)
            row.update(self.model.describe(self.obs, a))
            if ex is not None:
                extra = self.model.exact_reason(ex[i], max(ex))
                if extra:
                    row["reason"] = f'{row["reason"]}, {extra}' if row.get("reason") else extra
                keyed.append(((a == best, True, (ex[i], self.prior[i])), row))
            else:
                keyed.append(((a == best, not row["pruned"], self._mean_key(i)), row))
        keyed.sort(key=lambda kr: kr[0], reverse=True)
        rows = [r for _, r in keyed]
        for rank, r in enumerate(rows, 1):
            r["rank"] = rank
        return rows

    def stats(self) -> JSONDict:
        out: JSONDict = {"rollouts": self.rollouts, "worlds": self.worlds, "ms": round(self.elapsed_ms, 1),
               "done": self.done, "live": len(self.live)}
        if self.exact is not None:
            out["exact"] = True
        return out
