"""The host's allowances: how much of its work each friend's phone may use.

One part of :class:`~chkobba.online.host.HostTable`: every message a peer
sends first takes a token of its flood allowance (more than that is dropped
unread, unanswered, at the cost of a token check); once read, it takes one
from the allowance of its kind (heartbeats, quick reactions, commitments and
seeds each have their own, so none uses up the moves'). This part decides
only whether a message may cost anything more; the table does the rest.
"""

from __future__ import annotations

from collections.abc import Callable

# quick reactions: at most 3 at once, then one every 4 seconds
REACTION_RATE = 0.25
REACTION_BURST = 3.0
# heartbeats have their own allowance (a phone sends one every 2 s): they never
# use up the one of moves and seeds
HEARTBEAT_RATE = 1.0
HEARTBEAT_BURST = 4.0
# commitments and seeds too (one of each a round, asked by the host): a phone
# whose moves used up their allowance still commits and reveals, or the next
# round would wait for a seed its phone was refused
SEED_RATE = 1.0
SEED_BURST = 8.0
# every message of a peer, before it is even read: more than this is dropped
# unread and unanswered (a flood costs a token check each, nothing else)
FLOOD_RATE = 40.0
FLOOD_BURST = 80.0


class TokenBucket:
    """At most ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Allowances:
    """One peer's allowances: ``flood`` (every message, before it is read),
    and once read one bucket per kind: ``heartbeats``, ``reactions``,
    ``seeds`` (commitments and seeds), ``moves`` (everything else, at the
    table's ``rate`` and ``burst``)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.moves = TokenBucket(rate, burst, clock)
        self.reactions = TokenBucket(REACTION_RATE, REACTION_BURST, clock)
        self.heartbeats = TokenBucket(HEARTBEAT_RATE, HEARTBEAT_BURST, clock)
        self.seeds = TokenBucket(SEED_RATE, SEED_BURST, clock)
        self.flood = TokenBucket(FLOOD_RATE, FLOOD_BURST, clock)

    def admits(self) -> bool:
        """Whether the next message may even be read (the flood allowance)."""
        return self.flood.take()

    def takes(self, kind: str) -> bool:
        """Whether a message of this type (``"?"``: unreadable or unknown) is
        within its kind's allowance; takes a token of it if so."""
        bucket = {"heartbeat": self.heartbeats, "reaction": self.reactions, "commit": self.seeds,
                  "reveal": self.seeds}.get(kind, self.moves)
        return bucket.take()
