"""The host's computer players: the computer's seats, and a stand-in move.

One part of :class:`~chkobba.online.host.HostTable`. The computer plays its
own seats and a friend's seat while that phone is away (past the grace
period), each at its seat's level. Without ``sliced`` the table has it play
at once (:meth:`Computers.choose`); with ``sliced`` the host's page has it
think in short slices (:meth:`Computers.think`, a search going on across
calls), between which the page draws and answers, and plays it once shown
(:meth:`Computers.decided`). A player out of time on a timed turn gets the
engine's ``timeout`` move where the game has one, else the easy computer's
move (:meth:`Computers.stand_in`). This part chooses; the table plays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..agents import HardAgent, Search, make_agent
from ..session import Session
from .host_seats import HOST, SeatSpec

Position = tuple[int, int]


class Computers:
    """An agent per seat the computer may play, the stand-in, and the
    decision being thought (with ``sliced``)."""

    def __init__(self, game: str, seats: Sequence[SeatSpec], rng: random.Random, sliced: bool) -> None:
        self.rng = rng
        self.sliced = sliced
        self.agents = {i: make_agent(game, s.level) for i, s in enumerate(seats) if s.kind != HOST}
        self.stand_in_agent = make_agent(game, "easy")
        # the computer's decision being thought: (position, seat, its search or its choice)
        self.thought: tuple[Position, int, Search | Action] | None = None

    def choose(self, session: Session, seat: int) -> str:
        """The computer's move for ``seat``, decided at once."""
        return str(self.agents[seat].choose(session.observation(seat), session.legal_actions(), self.rng))

    def think(self, session: Session, seat: int, position: Position, max_ms: float) -> bool:
        """Think about ``seat``'s move for about ``max_ms`` ms: True once it is
        decided, False while thinking. A search (the hard player) goes on
        across calls; the others decide in the first."""
        if self.thought is None or self.thought[:2] != (position, seat):
            agent = self.agents[seat]
            obs, legal = session.observation(seat), session.legal_actions()
            begun = agent.begin(obs, legal, self.rng) if isinstance(agent, HardAgent) else agent.choose(obs, legal, self.rng)
            self.thought = (position, seat, begun)
            return not isinstance(begun, Search)
        begun = self.thought[2]
        return not isinstance(begun, Search) or begun.step(max_ms)

    def decided(self, seat: int | None, position: Position) -> str | None:
        """The move :meth:`think` decided for ``seat`` at ``position``, taken
        (once); None when there is none or the table has moved on since (a
        friend came back to that seat, say). A search not done yet is kept."""
        thought, self.thought = self.thought, None
        if thought is None or seat is None or thought[:2] != (position, seat):
            return None
        begun = thought[2]
        if isinstance(begun, Search):
            if not begun.done:
                self.thought = thought
                return None
            begun = begun.best()
        return str(begun)

    def stand_in(self, session: Session, seat: int) -> str:
        """The move of a player out of time: the game's ``timeout`` move if it
        has one, else the easy computer's."""
        legal = session.legal_actions()
        timeout = [a for a in legal if a.kind == "timeout"]
        choice = timeout[0] if timeout else self.stand_in_agent.choose(session.observation(seat), legal, self.rng)
        return str(choice)
