"""The host's extras: quick reactions and the rematch asks.

One part of :class:`~chkobba.online.host.HostTable`. Quick reactions (one of
:data:`~chkobba.online.wire.REACTIONS`) go to every phone; the host's page
shows the last few. A friend's phone cannot start a rematch: it may only
ask, with the reaction ``rematch`` once the match is over, and the host's
page sees who asked (:attr:`Extras.rematch_asks`). The host's own reactions
are under the same allowance as a friend's. This part keeps them; the table
sends them.
"""

from __future__ import annotations

from collections.abc import Callable

from . import wire
from .host_limits import REACTION_BURST, REACTION_RATE, TokenBucket
from .wire import OnlineError

REACTIONS_KEPT = 20


class Extras:
    """The last reactions, how many were ever sent, the host's allowance, the rematch asks."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        # quick reactions as sent (time, seat, reaction), the last few: the host's page shows them
        self.reactions: list[tuple[float, int, str]] = []
        self.reacted = 0  # how many reactions were ever sent (the last one's number, from 1)
        self.host_allowance = TokenBucket(REACTION_RATE, REACTION_BURST, clock)
        self.rematch_asks: set[int] = set()  # seats whose phones asked for a rematch (this match over)

    def react(self, seat: int, reaction: str, asks_rematch: bool) -> bool:
        """Keep a reaction; ``asks_rematch``: it counts as that seat's rematch
        ask (a friend's, at a finished match). Whether the asks changed."""
        self.reactions = (self.reactions + [(self.clock(), seat, reaction)])[-REACTIONS_KEPT:]
        self.reacted += 1
        if reaction == "rematch" and asks_rematch:
            self.rematch_asks.add(seat)
            return True
        return False

    def check_host(self, reaction: str) -> None:
        """The host's own reaction: one of the reactions, within its allowance (else refused)."""
        if reaction not in wire.REACTIONS:
            raise OnlineError("online.field", field="reaction", type="reaction",
                              want="one of " + ", ".join(wire.REACTIONS))
        if not self.host_allowance.take():
            raise OnlineError("online.rate")

    def new_match(self) -> None:
        """A rematch started: nobody asks for one any more."""
        self.rematch_asks = set()
