"""The computer players and the coach, in the page's own interpreter.

One Python per tab (docs/boot.md): the table's interpreter also
thinks for the computer seats, in short slices between which the page draws
and answers the player, so the main thread never waits on Python for long.
web/shell/py.js writes this file next to the package at boot and drives it::

    task = chkobba_ai.start("choose", payload_json)   # or "hint"
    while (answer = task.step(15)) is None:            # about 15 ms of thinking
        ...yield to the page...
    # answer: the facade's JSON text, exactly what chkobba.web.call answers

The facade (``chkobba.web.call``) stays the one judge of every payload and the
one writer of every answer: ``start`` calls it. The easy and medium players
answer within that call. A search (the hard player, the coach) is where the
time goes, and it always goes through ``Search.run`` (chkobba/agents/search.py):
during ``start`` that method hands the search it was given back here instead of
running it whole; ``step`` thinks in its slices (``Search.step``, made for
this); when it is done the facade is called a second time with the same payload,
where ``Search.run`` takes over the finished search's state (the facade builds
the same search from the same payload: its rng is seeded from the position), so
the answer is the one a single blocking call would give. For ``choose`` the
second call is skipped: its answer is the search's choice and the level
("hard", the one player that searches), as the facade writes it.

Par of a daily deal (``daily_par``, and ``daily_replay`` of a past day) is a
whole round of daily computers: :class:`ParTask` plays it one decision at a
time through the facade's ``daily_par_step`` (each decision's search thought
in slices as above), then makes the call asked for, which finds par done
(chkobba/web/daily.py keeps it per date and game). The page runs one par
task per date and game at a time (web/shell/daily.js): two tasks stepping
the same run would hand each other's searches over.
"""

from __future__ import annotations

import gc
import importlib
import json
import time
from collections.abc import Generator
from typing import Any

from chkobba import web
from chkobba.agents.search import Search

CALLS = ("choose", "hint", "daily_choose", "challenge_choose", "daily_par_step",
         "challenge_check_step")   # the daily deal's and a challenge's computers search too
# par, or a re-derivation, a decision at a time (ParTask): the call, and the step it takes until done
PAR_CALLS = {"daily_par": "daily_par_step", "daily_replay": "daily_par_step",
             "challenge_result": "challenge_check_step"}


class _Handed(BaseException):
    """Carries a search out of the facade's call (not an Exception: the facade
    turns those into an "internal error" answer)."""

    def __init__(self, search: Search) -> None:
        super().__init__("search handed over")
        self.search = search


_mode = ""                          # "hand": the first call; "take": the second
_finished: Search | None = None
_plain_run = Search.run


def _run(self: Search) -> Any:
    global _finished
    if _mode == "hand":
        raise _Handed(self)
    if _mode == "take" and _finished is not None:
        self.__dict__.update(_finished.__dict__)
        _finished = None
        return self.best()
    return _plain_run(self)


Search.run = _run  # type: ignore[method-assign]


def _call(name: str, payload: str, mode: str, finished: Search | None = None) -> str:
    global _mode, _finished
    _mode, _finished = mode, finished
    try:
        return web.call(name, payload)
    finally:
        _mode, _finished = "", None


# Time the garbage collector takes, for the slices' notes (a collection in
# the middle of a slice is one of the things that can make it long).
_gc_ms = 0.0
_gc_t0 = 0.0
_gc_gens: list[int] = []     # the generations collected, for the slices' notes


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    global _gc_ms, _gc_t0
    if phase == "start":
        _gc_t0 = time.perf_counter()
    else:
        _gc_ms += (time.perf_counter() - _gc_t0) * 1000
        _gc_gens.append(info.get("generation", -1))
        del _gc_gens[:-50]


gc.callbacks.append(_gc_timer)


class Task:
    """One decision being thought about (see the module's docstring).
    ``note`` says what the last slice did (rollouts, playout pieces, solver pieces, the
    collector's time): bench/main_thread.py prints it next to a long slice."""

    def __init__(self, name: str, payload: str) -> None:
        if name not in CALLS:
            raise ValueError(f"not a thinking call: {name!r}")
        self.name = name
        self.payload = payload
        self.search: Search | None = None
        self.answer: str | None = None
        self.note = ""
        try:
            self.answer = _call(name, payload, "hand")
        except _Handed as handed:
            self.search = handed.search

    def step(self, max_ms: float = 15.0) -> str | None:
        """Think about ``max_ms`` ms; the facade's answer once done, else None."""
        search = self.search
        if search is not None:
            rollouts, pieces, solving, gc_before = search.rollouts, search.pieces, search._solve, _gc_ms
            _gc_gens.clear()
        if self.answer is None and search is not None and search.step(max_ms):
            if self.name == "choose":
                # the facade's answer for the one player that searches (hard):
                # the search's choice, without replaying the save again
                self.answer = json.dumps({"ok": {"action": str(search.best()), "level": "hard"}})
            else:
                self.answer = _call(self.name, self.payload, "take", search)
            self.search = None
        if search is not None:
            solver = solving and (search._solve or search.exact is not None)   # the last deal's solver ran
            self.note = (f"rollouts {search.rollouts - rollouts}, playout pieces {search.pieces - pieces}" + (", the exact solver" if solver else ", the first step" if solving else "")
                         + f", gc {_gc_ms - gc_before:.0f} ms" + (f" (generations {sorted(set(_gc_gens))})" if _gc_gens else ""))
        return self.answer


class ParTask:
    """Par of a daily deal, or a challenge's re-derivation, in slices: the
    call's step (``PAR_CALLS``) until it is done (or refused: its answer is
    then this task's), then ``name``'s answer, which finds the work done."""

    def __init__(self, name: str, payload: str) -> None:
        if name not in PAR_CALLS:
            raise ValueError(f"not a par call: {name!r}")
        self.name = name
        self.payload = payload
        args = json.loads(payload) if payload else {}
        if isinstance(args, dict) and name == "daily_replay":
            args["over"] = True          # refused at once unless the day is over
        self.step_payload = json.dumps(args)
        self.inner: Task | None = None
        self.note = ""
        self.decisions = 0
        self.answer: str | None = None

    def step(self, max_ms: float = 15.0) -> str | None:
        """Think about ``max_ms`` ms (at least one piece of work); the answer once done, else None."""
        end = time.perf_counter() + max_ms / 1000
        while self.answer is None:
            if self.inner is None:
                self.inner = Task(PAR_CALLS[self.name], self.step_payload)
            if self.inner.answer is None:
                self.inner.step(max(1.0, (end - time.perf_counter()) * 1000))
            if self.inner.answer is not None:
                said = json.loads(self.inner.answer)
                self.inner = None
                if "error" in said:
                    self.answer = json.dumps(said)
                elif said["ok"]["done"]:
                    self.answer = web.call(self.name, self.payload)
                else:
                    self.decisions = said["ok"]["decisions"]
                break       # one decision finished per slice: the next starts in the next slice
            if time.perf_counter() >= end:
                break
        return self.answer


# The modules the players import on their first move, dependencies first, so
# that web/shell/py.js imports them ahead, one per task (``warm``).
WARM = ("chkobba.agents.search", "chkobba.agents.kit", "chkobba.agents.endgame",
        "chkobba.agents.inference", "chkobba.agents.chkobba", "chkobba.agents.seven_diamonds")


def warm(name: str) -> None:
    """Import one of ``WARM`` (nothing when it is already imported)."""
    if name not in WARM:
        raise ValueError(f"not a players' module: {name!r}")
    importlib.import_module(name)


def freeze() -> None:
    """Move every object alive (the modules, the page's tables) out of the
    garbage collector's sight (``gc.freeze``, cheap: no collection). Called
    once, after ``warm``; :func:`tidy` then collects before it freezes."""
    gc.freeze()


def tidy() -> None:
    """Collect what is garbage (the cycles the last decision left), then move
    every object alive (the modules, the page's tables) out of the garbage
    collector's sight (``gc.freeze``). Its own task: once after the practice
    run (which follows :func:`freeze`), then before each decision (``think`` in
    web/shell/py.js), so the collector only ever looks at what was made
    since. Without it its collections grew with the game and came in the
    middle of a slice: 50-600 ms once, 41-74 ms in Seven Diamonds' slices
    at 4x CPU (docs/main-thread.md). Nothing
    garbage is frozen (it is collected first), and a frozen object is still
    freed when nothing refers to it any more."""
    gc.collect()
    gc.freeze()


# A practice run of the players' work, before the first real decision: a few
# moves and search slices of each kind of table (Chkobba 1v1 with its
# inference, 2v2, Seven Diamonds), on throw-away sessions the facade never
# sees. In the page, the first time a piece of Python runs costs far more
# than the next times (the browser compiles the interpreter's WebAssembly
# functions on their first call): a decision's first slice took 60-75 ms at
# 4x CPU against 12 ms for the others (docs/main-thread.md).
# Nothing here changes a later answer: searches are seeded from their
# position, and the only state kept is pure caches.
REHEARSALS = (("chkobba", 2, 4), ("chkobba", 4, 5), ("seven_diamonds", 4, 6))
REHEARSAL_SLICES = 2


def _rehearsal(slice_ms: float) -> Generator[None, None, None]:
    import random

    from chkobba.agents import HardAgent, make_agent
    from chkobba.session import Session

    for game, players, plays in REHEARSALS:
        session = Session.new(game, {"players": players}, seed=22)
        medium = make_agent(game, "medium")
        for _ in range(plays):
            seat = session.to_act()
            if seat is None:
                break
            obs = session.observation(seat)
            session.apply(medium.choose(obs, obs.legal_actions(), random.Random(0)))
        yield
        seat = session.to_act()
        if seat is None:
            continue
        obs = session.observation(seat)
        search = HardAgent(game).start(obs, obs.legal_actions(), random.Random(0))
        for _ in range(REHEARSAL_SLICES):
            if search.step(slice_ms):
                break
            yield


_rehearsing: Generator[None, None, None] | None = None


def rehearse(slice_ms: float = 12.0) -> bool:
    """One piece of the practice run (see ``REHEARSALS``); False once it is over."""
    global _rehearsing
    if _rehearsing is None:
        _rehearsing = _rehearsal(slice_ms)
    try:
        next(_rehearsing)
    except StopIteration:
        return False
    return True


def start(name: str, payload: str) -> Task | ParTask:
    if name in PAR_CALLS:
        return ParTask(name, payload)
    return Task(name, payload)
