"""The host's clocks: the turn timers and the silence of a friend's phone.

One part of :class:`~chkobba.online.host.HostTable`. With timers on
(``(seconds to call, seconds to play)``), each player's turn is timed from
when it starts (every phone is then told its seconds left); the first turn
of a round after the first gets :data:`READING` more seconds, while the last
round's summary is read on every phone. A player out of time gets a stand-in
move (:meth:`~chkobba.online.host_computer.Computers.stand_in`). A seated
phone not heard from for ``heartbeat_timeout`` seconds counts as gone.
This part only keeps time and says when it ran out; the table acts on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..session import Session

# the first turn of a round after the first gets this much more time: the
# round's summary is being read on every phone
READING = 15.0
# kinds of action that play a card (else the turn is a call: Seven Diamonds' double, pass...)
PLAYS = ("lay", "capture", "claim", "table", "keep")

Position = tuple[int, int]


class Clocks:
    """The timed turn (its position and when it started), the timers and the
    heartbeat timeout."""

    def __init__(self, clock: Callable[[], float], timers: tuple[float, float] | None,
                 heartbeat_timeout: float) -> None:
        # Online timers, (seconds to call, seconds to play); None: off. A player
        # who runs out gets the engine's ``timeout`` move where the game has
        # one (Seven Diamonds), else (Chkobba: no timeout move in its rules)
        # the easy computer's move for that seat (docs/online.md, "Timers").
        if timers is not None and not (0 < timers[0] <= 600 and 0 < timers[1] <= 600):
            raise ValueError("timers are seconds, more than 0 and at most 600")
        self.clock = clock
        self.timers = timers
        self.heartbeat_timeout = heartbeat_timeout
        self.turn: tuple[Position, float] | None = None  # (position, since) of the turn being timed

    def limit(self, session: Session, position: Position) -> float:
        """The seconds the turn at ``position`` gets (timers on)."""
        assert self.timers is not None
        plays = any(a.kind in PLAYS for a in session.legal_actions())
        r, ply = position
        reading = READING if r > 1 and ply == 0 else 0.0  # the last round's summary is being read
        return (self.timers[1] if plays else self.timers[0]) + reading

    def time_left(self, session: Session | None, position: Position) -> float | None:
        """Seconds left to the seat to act (a player's turn being timed), else None."""
        if self.turn is None or self.timers is None or session is None:
            return None
        pos, since = self.turn
        if pos != position:
            return None
        return max(0.0, self.limit(session, position) - (self.clock() - since))

    def clock_now(self, session: Session | None, position: Position) -> dict[str, Any] | None:
        """The timed turn's clock for every phone: the position, the seat to act
        and its whole seconds left (None when no turn is being timed)."""
        left = self.time_left(session, position)
        if left is None or session is None:
            return None
        return {"round": position[0], "ply": position[1], "seat": session.to_act(), "left": int(left + 0.999)}

    def run(self, now: float, session: Session | None, position: Position,
            computer_plays: Callable[[int], bool]) -> str | None:
        """Time passes for the turn: ``"started"`` when a player's timed turn
        starts now (every phone is to be told), ``"out"`` when its player ran
        out of time (a stand-in move is due), else None."""
        if self.timers is None or session is None or session.is_over:
            self.turn = None
            return None
        seat = session.to_act()
        if seat is None or computer_plays(seat):
            self.turn = None
            return None
        if self.turn is None or self.turn[0] != position:
            self.turn = (position, now)   # a new turn: its clock starts now
            return "started"
        if now - self.turn[1] < self.limit(session, position):
            return None
        self.turn = None
        return "out"
