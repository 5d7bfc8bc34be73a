"""What each phone is shown of the game: its own seat's answer, nothing more.

One part of :class:`~chkobba.online.host.HostTable`. A friend's phone is
sent the facade's one answer builder (:func:`chkobba.web.answer.answer`)
worded for its seat, so it draws what the host's page draws, plus its own
legal actions when it is to act (the answer lists no card plays); the
host's page draws the same builder's answer for the host's seat. Another
seat's hidden cards never leave the host.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..session import Session
from ..web.answer import Reader, answer
from ..web.edge import Seat as SeatJson
from . import wire
from .host_seats import COMPUTER, REMOTE, Seat

Out = list[tuple[int, dict[str, Any]]]


class Views:
    """The answers of the table's seats (read from its seats as they are now)."""

    def __init__(self, seats: list[Seat], host_seat: int) -> None:
        self.seats, self.host_seat = seats, host_seat

    def _seat_json(self) -> list[SeatJson]:
        return [SeatJson("human") if x.spec.kind != COMPUTER else SeatJson("computer", x.spec.level)
                for x in self.seats]

    def _humans(self) -> list[int]:
        return [i for i, x in enumerate(self.seats) if x.spec.kind != COMPUTER]

    def host_view(self, session: Session) -> dict[str, Any]:
        """The host's own seat's answer (what the host's page draws)."""
        return answer(session, Reader(self.host_seat, self.host_seat), self._seat_json(), table="online",
                      humans=self._humans())

    def views(self, session: Session, seats: Iterable[int], position: tuple[int, int]) -> Out:
        """A ``view`` message to each listed friend's seat that has a phone."""
        seats_json, humans = self._seat_json(), self._humans()
        out: Out = []
        for seat in seats:
            peer = self.seats[seat].peer
            if peer is not None and self.seats[seat].spec.kind == REMOTE:
                body = answer(session, Reader(seat, seat), seats_json, table="online", humans=humans)
                legal = session.legal() if session.to_act() == seat else []
                out.append((peer, {"v": wire.VERSION, "type": "view", "round": position[0], "ply": position[1],
                                   "answer": body, "legal": legal}))
        return out
