"""The host's seats and secrets: who sits where, and which connection is whose.

One part of :class:`~chkobba.online.host.HostTable`. Each seat is the host's,
a friend's phone's (``remote``) or the computer's. A friend's phone sits by
showing its seat's secret: the first secret shown claims the seat (only its
SHA-256 digest is kept, never the secret), the same secret takes the seat
back later (a reload, a new connection), another one is refused, and a
secret the host retired (:meth:`Seating.reissue`) never sits again. A
connection that came from a seat's invitation may take that seat only.

A friend's seat is *present* while its phone is connected; once away for
``grace`` seconds (or never taken), the computer plays it. This part keeps
the seats, the connections (peers, each with its
:class:`~chkobba.online.host_limits.Allowances`) and their presence; it
sends nothing: the table words what it decides.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .host_limits import Allowances
from .wire import OnlineError, valid_name

HOST = "host"
REMOTE = "remote"
COMPUTER = "computer"


@dataclass
class SeatSpec:
    """Who plays a seat: ``host`` (this phone), ``remote`` (a friend's phone,
    the computer at ``level`` while it is away), or ``computer`` at ``level``;
    ``name``: the host's own name (a friend's comes with its join)."""
    kind: str
    level: str = "medium"
    name: str = ""


@dataclass
class Seat:
    """A seat at the table, as the host knows it."""
    spec: SeatSpec
    secret_hash: bytes | None = None  # SHA-256 of the seat's secret, once claimed
    peer: int | None = None
    away_since: float | None = None  # when its phone left (None: present, or never came)
    retired: set[bytes] = field(default_factory=set)  # secrets of phones this seat was taken from
    audit_failed: dict[str, Any] | None = None  # the round its phone said does not check out (round, code)
    name: str = ""  # the player's short name (wire.valid_name), "" for none


@dataclass
class Peer:
    """A connection the transport opened: its allowances, and the seat it sits at once it has."""
    allowances: Allowances
    seat: int | None = None
    last_seen: float = 0.0
    invited: int | None = None  # the seat whose invitation this connection came from: the only one it may take


def digest(secret: str) -> bytes:
    """What the host keeps of a seat's secret."""
    return hashlib.sha256(b"chkobba-online/1/seat/" + secret.encode("ascii")).digest()


def new_secret() -> str:
    """A seat's (or a seed's) 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


class Seating:
    """The seats, the connections, the secrets and who is present."""

    def __init__(self, seats: Sequence[SeatSpec], clock: Callable[[], float], grace: float,
                 rate: float, burst: float) -> None:
        if [s.kind for s in seats].count(HOST) != 1 or any(s.kind not in (HOST, REMOTE, COMPUTER) for s in seats):
            raise ValueError("exactly one seat is the host's; the others are remote or computer")
        self.seats = [Seat(s, name=s.name if s.kind == HOST else "") for s in seats]
        self.host_seat = [s.kind for s in seats].index(HOST)
        self.peers: dict[int, Peer] = {}
        self.clock, self.grace = clock, grace
        self.rate, self.burst = rate, burst

    # ------------------------------------------------------------ presence
    def present(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.spec.kind != REMOTE or (s.peer is not None and s.away_since is None)

    def computer_plays(self, seat: int) -> bool:
        """Whether the computer plays this seat now (a computer seat, or a
        friend's seat never taken or away for longer than the grace period)."""
        s = self.seats[seat]
        if s.spec.kind == COMPUTER:
            return True
        if s.spec.kind == HOST:
            return False
        if s.peer is None and s.away_since is None:
            return True
        return s.away_since is not None and self.clock() - s.away_since >= self.grace

    def presence(self, rematch_asks: set[int]) -> list[dict[str, Any]]:
        """Every seat: its kind, presence, whether the computer plays it, its
        phone's rematch ask and failed audit, whether its secret is claimed,
        its player's name ("" for none)."""
        return [{"seat": i, "kind": s.spec.kind, "present": self.present(i),
                 "computer": self.computer_plays(i), "rematch": i in rematch_asks,
                 "audit_failed": s.audit_failed, "claimed": s.secret_hash is not None, "name": s.name}
                for i, s in enumerate(self.seats)]

    def phones(self) -> list[int]:
        """The seats whose phones are here to give a seed: the host's, and
        every friend's that is present."""
        return [i for i in range(len(self.seats)) if i == self.host_seat or
                (self.seats[i].spec.kind == REMOTE and self.present(i))]

    def remote_peers(self) -> list[int]:
        """The connections seated at a friend's seat (who a broadcast reaches)."""
        return [s.peer for s in self.seats if s.peer is not None and s.spec.kind == REMOTE]

    # ------------------------------------------------------------ connections
    def connect(self, peer: int, seat: int | None) -> None:
        """A new connection (not yet seated); ``seat``: its invitation's seat."""
        self.peers[peer] = Peer(Allowances(self.rate, self.burst, self.clock), None, self.clock(), seat)

    def drop(self, peer: int) -> bool:
        """The connection closed: its seat (if it sat) counts as away from now.
        Whether it sat (the table changed)."""
        p = self.peers.pop(peer, None)
        if p is None or p.seat is None:
            return False
        s = self.seats[p.seat]
        if s.peer == peer:
            s.peer = None
            s.away_since = self.clock()
        return True

    def silent(self, now: float, timeout: float) -> list[int]:
        """The seated connections not heard from for more than ``timeout`` seconds."""
        return [peer for peer, p in self.peers.items() if p.seat is not None and now - p.last_seen > timeout]

    def sit(self, peer: int, p: Peer, seat: int, secret: str, name: str = "") -> None:
        """Seat connection ``peer`` at ``seat`` with ``secret`` (its player
        named ``name``, read by wire.py), or raise the refusal (``online.*``)
        and change nothing."""
        if p.seat is not None:
            raise OnlineError("online.already_seated", seat=p.seat)
        if not 0 <= seat < len(self.seats) or self.seats[seat].spec.kind != REMOTE:
            raise OnlineError("online.no_seat", seat=seat)
        if p.invited is not None and seat != p.invited:
            raise OnlineError("online.wrong_seat")  # an invitation belongs to its seat (an edited link)
        s = self.seats[seat]
        d = digest(secret)
        if any(hmac.compare_digest(old, d) for old in s.retired):
            raise OnlineError("online.seat_retired")
        if s.secret_hash is not None and not hmac.compare_digest(s.secret_hash, d):
            raise OnlineError("online.seat_taken", seat=seat)
        if s.secret_hash is None:
            s.secret_hash = d
        if s.peer is not None and s.peer != peer:  # the same phone, a new connection: the old one is dropped
            old = self.peers.get(s.peer)
            if old is not None:
                old.seat = None
        s.peer, s.away_since, p.seat = peer, None, seat
        s.name = name

    def reissue(self, seat: int) -> tuple[int | None, list[int]]:
        """Retire ``seat``'s secret and free the seat (the computer plays it
        until a phone sits with its new invitation). Returns the connection
        that sat there (now unseated), and the connections from that seat's
        invitation that wait unseated (to be told the seat is open)."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].spec.kind != REMOTE:
            raise OnlineError("online.no_seat", seat=seat)
        s = self.seats[seat]
        if s.secret_hash is not None:
            s.retired.add(s.secret_hash)
        s.secret_hash = None
        unseated = None
        if s.peer is not None:
            old = self.peers.get(s.peer)
            if old is not None:
                old.seat = None
                unseated = s.peer
            s.peer = None
        s.away_since = None
        s.audit_failed = None
        s.name = ""
        return unseated, [peer for peer, p in self.peers.items() if p.seat is None and p.invited == seat]

    # ------------------------------------------------------------ the host's save
    def save(self) -> list[dict[str, Any]]:
        """The seats, as JSON values: the digests of their secrets (never the secrets)."""
        return [{"kind": x.spec.kind, "level": x.spec.level,
                 "secret_hash": x.secret_hash.hex() if x.secret_hash is not None else None,
                 "retired": sorted(r.hex() for r in x.retired), "audit_failed": x.audit_failed, "name": x.name}
                for x in self.seats]

    def resume(self, saved: list[dict[str, Any]]) -> None:
        """The seats of a :meth:`save`: each claimed seat waits for its phone
        (away from now: the grace period starts again)."""
        for seat, x in zip(self.seats, saved):
            if x["secret_hash"] is not None:
                seat.secret_hash = bytes.fromhex(x["secret_hash"])
                seat.away_since = self.clock()
            seat.retired = {bytes.fromhex(r) for r in x.get("retired", [])}
            seat.audit_failed = x.get("audit_failed")
            name = x.get("name", "")
            seat.name = name if valid_name(name) else ""   # the host's own storage, read as any input


def specs(saved: list[dict[str, Any]]) -> list[SeatSpec]:
    """The seats' specs of a :meth:`Seating.save`."""
    return [SeatSpec(x["kind"], x["level"], x.get("name", "") if x["kind"] == HOST and valid_name(x.get("name", "")) else "")
            for x in saved]
