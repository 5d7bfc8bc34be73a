"""The host's referee: a :class:`~chkobba.session.Session` played by phones.

The host's page runs the engine. Each friend's phone is a *peer* (a number
the transport gives its connection); a peer sits at a seat by showing that
seat's secret (:class:`~chkobba.online.wire.Join`), and from then on may act
for that seat only, on its turn only. :meth:`HostTable.receive` takes a
peer's raw text and returns what to send, as ``(peer, message)`` pairs; a
refused message gets one ``error`` answer (code, params, English text) and
changes nothing. What a peer is sent about the game is only its seat's view.

Transport-free and clock-injected, so the same code runs under CPython (the
tests) and in the host's page (Pyodide), where the transport is WebRTC.

Messages the host sends (``{"type": ...}``; every one carries ``"v"``):

- ``welcome``: ``seat``, ``game``, ``options``, ``seats`` (who sits where), ``match`` (from 1)
- ``error``: ``code``, ``params``, ``error`` (English), ``answers`` (type refused)
- ``commit_request``: ``round``, ``seats`` (whose seeds make that round), ``restart``
  (draw a fresh seed: the round's seeds start again without a departed phone), ``match``
- ``commits``: ``round``, ``commits`` (seat -> hash): now reveal your seed
- ``view``: ``round``, ``ply``, ``answer`` (the facade's answer for that seat), ``legal`` (its actions, on its turn)
- ``move``: ``round``, ``ply``, ``seat``, ``action`` (the public log, for the audit)
- ``audit``: ``round``, ``decks``, ``actions``, ``commits``, ``reveals``, ``first_dealer``
- ``seats``: presence of every seat, and ``clock`` (``round``, ``ply``, ``seat``,
  ``left``: the seconds left to the seat to act when a timed turn starts; else None)
- ``reaction``: ``seat``, ``reaction``
- ``rematch``: ``match``: the host started a new match at the same seats (every
  phone draws fresh seeds; a friend's phone forgets the last match's seeds)

A friend's phone cannot start a rematch: it may only ask, with the quick
reaction ``rematch``; the host's page sees who asked (:attr:`HostTable.rematch_asks`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..agents import HardAgent, Search, make_agent
from ..cards import CODES
from ..errors import ChkobbaError
from ..protocol import GameState, Observation
from ..records import Record, parse_record, replay
from ..registry import game_class
from ..session import Session
from ..web.answer import Reader, answer
from ..web.edge import Seat
from . import wire
from .deal import commitment, deck, first_dealer, round_seed
from .wire import OnlineError

Out = list[tuple[int, dict[str, Any]]]
State = GameState[Observation]

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
# a phone asked for a round's seed that has not committed (or, once every
# commitment is shown, not revealed) within this many seconds is treated as
# away for that round's seeds: they start again without it, and every phone
# is told which phone was late (withholding a seed stalls nothing)
SEED_WAIT = 20.0
# the first turn of a round after the first gets this much more time: the
# round's summary is being read on every phone
READING = 15.0
REACTIONS_KEPT = 20

HOST = "host"
REMOTE = "remote"
COMPUTER = "computer"


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


@dataclass
class SeatSpec:
    """Who plays a seat: ``host`` (this phone), ``remote`` (a friend's phone,
    the computer at ``level`` while it is away), or ``computer`` at ``level``."""
    kind: str
    level: str = "medium"


@dataclass
class _Seat:
    spec: SeatSpec
    secret_hash: bytes | None = None  # SHA-256 of the seat's secret, once claimed
    peer: int | None = None
    away_since: float | None = None  # when its phone left (None: present, or never came)
    retired: set[bytes] = field(default_factory=set)  # secrets of phones this seat was taken from
    audit_failed: dict[str, Any] | None = None  # the round its phone said does not check out (round, code)


@dataclass
class _Peer:
    bucket: TokenBucket  # every message but heartbeats and reactions
    reactions: TokenBucket  # quick reactions, more strictly
    heartbeats: TokenBucket  # heartbeats, apart (they never use up the moves' allowance)
    seeds: TokenBucket  # commitments and seeds, apart
    flood: TokenBucket  # every message, before it is read
    seat: int | None = None
    last_seen: float = 0.0
    invited: int | None = None  # the seat whose invitation this connection came from: the only one it may take


@dataclass
class _Seeds:
    seats: list[int]
    commits: dict[int, str] = field(default_factory=dict)
    reveals: dict[int, str] = field(default_factory=dict)
    announced: bool = False
    restart: int = 0  # how many times this round's seeds started again
    reason: dict[str, list[int]] | None = None  # why they last did: the seats that left, that were late
    since: float = 0.0  # when the commitments (then, once announced, the seeds) were asked for

    def request(self, number: int, match: int) -> dict[str, Any]:
        return {"type": "commit_request", "round": number, "seats": list(self.seats), "restart": self.restart,
                "reason": self.reason, "match": match}

    def ready(self) -> bool:
        return len(self.reveals) == len(self.seats)


class _SeededSession(Session):
    """A session whose decks come from the round seeds (:mod:`.deal`); it
    waits (does not deal) while the next round's seed is not known."""

    def __init__(self, state: State, record: Record, seed: int) -> None:
        self.round_seeds: dict[int, str] = {}
        super().__init__(state, record, seed)

    def _next_deck(self, s: State) -> tuple[list[str], bool] | None:
        if not s.needs_deal or s.is_over:
            return None
        rounds = self._record.rounds
        new_round = not s.deal_continues_round() or not rounds
        number = len(rounds) + 1 if new_round else len(rounds)
        seed = self.round_seeds.get(number)
        if seed is None:
            return None
        codes = deck(self.game, seed, 0 if new_round else len(rounds[-1].decks))
        by_code = {CODES[c]: c for c in s.full_deck()}
        s.deal([by_code[c] for c in codes])
        return codes, new_round

    def deal_now(self) -> None:
        """Deal the deck the state waits for, now that its seed is known (a
        new state object, as a move makes: copies of the session keep theirs)."""
        before = self.state
        new = before.copy()
        deck = self._next_deck(new)
        if deck is None:
            return
        self._write_deck(deck)
        self._step = (before, None, deck)
        self.state = new

    def record_value(self) -> Record:
        return self._record


def _digest(secret: str) -> bytes:
    return hashlib.sha256(b"chkobba-online/1/seat/" + secret.encode("ascii")).digest()


def new_secret() -> str:
    """A seat's (or a seed's) 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


class HostTable:
    """The host's table: seats, peers, the seeds of each round, the session."""

    def __init__(self, game: str, options: dict[str, Any] | None, seats: Sequence[SeatSpec],
                 clock: Callable[[], float], grace: float = 30.0, heartbeat_timeout: float = 10.0,
                 rate: float = 4.0, burst: float = 16.0, rng: random.Random | None = None,
                 host_seed: Callable[[], str] = new_secret,
                 timers: tuple[float, float] | None = None, sliced: bool = False,
                 seed_wait: float = SEED_WAIT) -> None:
        opts = game_class(game).options_class().from_dict(options or {})
        if len(seats) != opts.players:
            raise ValueError(f"{game} with these options has {opts.players} seats, not {len(seats)}")
        if [s.kind for s in seats].count(HOST) != 1 or any(s.kind not in (HOST, REMOTE, COMPUTER) for s in seats):
            raise ValueError("exactly one seat is the host's; the others are remote or computer")
        self.game, self.options = game, opts.to_dict()
        self.seats = [_Seat(s) for s in seats]
        self.host_seat = [s.kind for s in seats].index(HOST)
        self.clock, self.grace, self.heartbeat_timeout = clock, grace, heartbeat_timeout
        self.rate, self.burst = rate, burst
        self.seed_wait = seed_wait
        # what changed the table (a message taken, not refused): the page saves and draws only then
        self.version = 0
        self._same = False
        self._presence_sent: list[tuple[bool, bool]] | None = None
        self.rng = rng or random.Random()
        self._host_seed = host_seed
        self._host_seeds: dict[int, str] = {}
        self.peers: dict[int, _Peer] = {}
        self.seeds: dict[int, _Seeds] = {}
        self.session: _SeededSession | None = None
        self.seen: dict[int, list[str]] = {}  # round -> actions as broadcast live
        self._audited: set[int] = set()
        self._agents = {i: make_agent(game, s.level) for i, s in enumerate(seats) if s.kind != HOST}
        # Online timers, (seconds to call, seconds to play); None: off. A player
        # who runs out gets the engine's ``timeout`` move where the game has
        # one (Seven Diamonds), else (Chkobba: no timeout move in its rules)
        # the easy computer's move for that seat (docs/online.md, "Timers").
        if timers is not None and not (0 < timers[0] <= 600 and 0 < timers[1] <= 600):
            raise ValueError("timers are seconds, more than 0 and at most 600")
        self.timers = timers
        self._turn: tuple[tuple[int, int], float] | None = None  # (position, since) of the turn being timed
        self._stand_in = make_agent(game, "easy")
        self.match = 1  # the match at these seats, from 1 (a rematch adds one)
        # quick reactions as sent (time, seat, reaction), the last few: the host's page shows them
        self.reactions: list[tuple[float, int, str]] = []
        self.reacted = 0  # how many reactions were ever sent (the last one's number, from 1)
        self._host_reactions = TokenBucket(REACTION_RATE, REACTION_BURST, clock)
        self.rematch_asks: set[int] = set()  # seats whose phones asked for a rematch (this match over)
        # sliced: tick leaves the computer's moves to the page, which thinks
        # each in short slices (think) between which it draws and answers,
        # and plays it (computer_move) once shown for its pace; else tick
        # plays them all at once (the tests, a command line)
        self.sliced = sliced
        # the computer's decision being thought: (position, seat, its search or its choice)
        self._thought: tuple[tuple[int, int], int, Search | Action] | None = None

    # ------------------------------------------------------------ queries
    @property
    def started(self) -> bool:
        return bool(self.seeds)

    def position(self) -> tuple[int, int]:
        """(round from 1, ply from 0) of the game now; (0, 0) before the deal."""
        if self.session is None:
            return (0, 0)
        rounds = self.session.record_value().rounds
        return (len(rounds), len(rounds[-1].actions) if rounds else 0)

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

    def presence(self) -> list[dict[str, Any]]:
        return [{"seat": i, "kind": s.spec.kind, "present": self.present(i),
                 "computer": self.computer_plays(i), "rematch": i in self.rematch_asks,
                 "audit_failed": s.audit_failed, "claimed": s.secret_hash is not None}
                for i, s in enumerate(self.seats)]

    @property
    def over(self) -> bool:
        """Whether this match is over (a rematch may start)."""
        return self.session is not None and self.session.is_over

    def clock_now(self) -> dict[str, Any] | None:
        """The timed turn's clock for every phone: the position, the seat to act
        and its whole seconds left (None when no turn is being timed)."""
        left = self.time_left()
        s = self.session
        if left is None or s is None:
            return None
        r, ply = self.position()
        return {"round": r, "ply": ply, "seat": s.to_act(), "left": int(left + 0.999)}

    def _seats_message(self) -> Out:
        self._presence_sent = [(p["present"], p["computer"]) for p in self.presence()]
        return self._broadcast({"type": "seats", "seats": self.presence(), "clock": self.clock_now()})

    # ------------------------------------------------------------ peers
    def connect(self, peer: int, seat: int | None = None) -> None:
        """The transport opened a connection (not yet seated); ``seat``: the
        seat whose invitation it came from, the only one it may take."""
        self.peers[peer] = _Peer(TokenBucket(self.rate, self.burst, self.clock),
                                 TokenBucket(REACTION_RATE, REACTION_BURST, self.clock),
                                 TokenBucket(HEARTBEAT_RATE, HEARTBEAT_BURST, self.clock),
                                 TokenBucket(SEED_RATE, SEED_BURST, self.clock),
                                 TokenBucket(FLOOD_RATE, FLOOD_BURST, self.clock), None, self.clock(), seat)

    def disconnect(self, peer: int) -> Out:
        """The connection closed (or its heartbeats stopped): its seat waits
        ``grace`` seconds, then the computer plays it until the owner rejoins."""
        p = self.peers.pop(peer, None)
        if p is None or p.seat is None:
            return []
        self.version += 1
        s = self.seats[p.seat]
        if s.peer == peer:
            s.peer = None
            s.away_since = self.clock()
        return self._seats_message()

    def receive(self, peer: int, text: object) -> Out:
        """A peer's message: what to send in answer (to it and to others).

        Before anything else, every message takes a token of the peer's
        flood allowance (:data:`FLOOD_RATE`): over it, the message is dropped
        unread and unanswered. A message taken (not refused) adds one to
        :attr:`version` (the page saves and draws only then); a heartbeat
        changes nothing to keep."""
        p = self.peers.get(peer)
        if p is None or not p.flood.take():
            return []
        # The message is read (bounded: wire.MAX_BYTES) only to know which
        # allowance it takes from: heartbeats and quick reactions have their
        # own, so neither uses up the one of moves and seeds. A message over
        # its allowance is refused as ``online.rate``, answering its type, and
        # nothing else is done with it.
        kind = "?"
        try:
            data = wire.decode(text)
        except OnlineError as e:
            if not p.bucket.take():
                return [(peer, self._error(OnlineError("online.rate"), kind))]
            p.last_seen = self.clock()
            return [(peer, self._error(e, kind))]
        kind = data["type"] if isinstance(data.get("type"), str) and data["type"] in wire.FIELDS else "?"
        bucket = {"heartbeat": p.heartbeats, "reaction": p.reactions, "commit": p.seeds,
                  "reveal": p.seeds}.get(kind, p.bucket)
        if not bucket.take():
            return [(peer, self._error(OnlineError("online.rate"), kind))]
        p.last_seen = self.clock()
        try:
            msg = wire.check(data)
            if isinstance(msg, wire.Heartbeat):
                return [(peer, {"v": wire.VERSION, "type": "heartbeat", "t": msg.t})]
            self._same = False
            out = self._take(peer, p, msg)
        except ChkobbaError as e:
            return [(peer, self._error(e, kind))]
        if not self._same:
            self.version += 1
        return out

    def _take(self, peer: int, p: _Peer, msg: wire.Message) -> Out:
        if isinstance(msg, wire.Join):
            return self._join(peer, p, msg)
        if p.seat is None:
            raise OnlineError("online.not_seated")
        if isinstance(msg, wire.Leave):
            return self.disconnect(peer)
        if isinstance(msg, wire.Reaction):
            return self._react(p.seat, msg.reaction)
        if isinstance(msg, wire.Commit):
            return self._commit(p.seat, msg.round, msg.hash)
        if isinstance(msg, wire.Reveal):
            return self._reveal(p.seat, msg.round, msg.seed)
        if isinstance(msg, wire.AuditFailed):
            return self._audit_failed(p.seat, msg)
        assert isinstance(msg, wire.Act)
        return self._act(p.seat, msg)

    def _audit_failed(self, seat: int, msg: wire.AuditFailed) -> Out:
        """A friend's phone says a round does not check out: every phone is told which."""
        if self.seats[seat].audit_failed is not None:
            self._same = True  # said once already: nothing changes, nothing is sent
            return []
        self.seats[seat].audit_failed = {"round": msg.round, "code": msg.code, "match": self.match}
        return self._seats_message()

    def _error(self, e: ChkobbaError, kind: str) -> dict[str, Any]:
        return {"v": wire.VERSION, "type": "error", "code": e.code, "params": e.params, "error": str(e),
                "answers": kind}

    def _join(self, peer: int, p: _Peer, msg: wire.Join) -> Out:
        if p.seat is not None:
            raise OnlineError("online.already_seated", seat=p.seat)
        if not 0 <= msg.seat < len(self.seats) or self.seats[msg.seat].spec.kind != REMOTE:
            raise OnlineError("online.no_seat", seat=msg.seat)
        if p.invited is not None and msg.seat != p.invited:
            raise OnlineError("online.wrong_seat")  # an invitation belongs to its seat (an edited link)
        s = self.seats[msg.seat]
        digest = _digest(msg.secret)
        if any(hmac.compare_digest(old, digest) for old in s.retired):
            raise OnlineError("online.seat_retired")
        if s.secret_hash is not None and not hmac.compare_digest(s.secret_hash, digest):
            raise OnlineError("online.seat_taken", seat=msg.seat)
        if s.secret_hash is None:
            s.secret_hash = digest
        if s.peer is not None and s.peer != peer:  # the same phone, a new connection: the old one is dropped
            old = self.peers.get(s.peer)
            if old is not None:
                old.seat = None
        s.peer, s.away_since, p.seat = peer, None, msg.seat
        # the rounds whose seeds were asked for before this phone sat down (and are not dealt yet)
        pending = {str(n): sd.request(n, self.match) for n, sd in sorted(self.seeds.items()) if not self._dealt(n)}
        out: Out = [(peer, {"type": "welcome", "seat": msg.seat, "game": self.game, "options": self.options,
                            "seats": self.presence(), "match": self.match, "round": self.position()[0],
                            "pending": pending})]
        for number in sorted(self.seeds):  # a pending seed round this seat belongs to
            sd = self.seeds[number]
            if msg.seat in sd.seats and msg.seat not in sd.reveals and sd.announced and not self._dealt(number):
                out.append((peer, {"type": "commits", "round": number, "commits": dict(sd.commits)}))
        out += self._views([msg.seat])
        out += self._seats_message()
        return [(q, {"v": wire.VERSION, **m}) for q, m in out]

    def reissue(self, seat: int) -> Out:
        """The host gives a friend's seat a fresh invitation (for a friend on a
        new browser or a new phone, whose secret is not the one the seat
        knows): the seat's secret is retired (that phone can no longer sit
        there: ``online.seat_retired``), the seat is free for the next phone
        that joins through its invitation, and the computer plays it
        meanwhile. A connection from that seat's invitation that is waiting
        (refused as taken) is told to sit down (``seat_open``)."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].spec.kind != REMOTE:
            raise OnlineError("online.no_seat", seat=seat)
        s = self.seats[seat]
        out: Out = []
        if s.secret_hash is not None:
            s.retired.add(s.secret_hash)
        s.secret_hash = None
        if s.peer is not None:
            old = self.peers.get(s.peer)
            if old is not None:
                old.seat = None
                out.append((s.peer, self._error(OnlineError("online.seat_retired"), "join")))
            s.peer = None
        s.away_since = None
        s.audit_failed = None
        self.version += 1
        for peer, p in self.peers.items():
            if p.seat is None and p.invited == seat:
                out.append((peer, {"v": wire.VERSION, "type": "seat_open", "seat": seat}))
        return out + self._seats_message()

    # ------------------------------------------------------------ reactions, rematch
    def _react(self, seat: int, reaction: str) -> Out:
        self.reactions = (self.reactions + [(self.clock(), seat, reaction)])[-REACTIONS_KEPT:]
        self.reacted += 1
        out: Out = []
        if reaction == "rematch" and self.over and seat != self.host_seat:
            self.rematch_asks.add(seat)  # asked, at a finished match: the host's page says who
            out += self._seats_message()
        return self._broadcast({"type": "reaction", "seat": seat, "reaction": reaction}) + out

    def host_react(self, reaction: str) -> Out:
        """The host's own quick reaction (one of :data:`wire.REACTIONS`), under
        the same allowance as a friend's; ``online.rate`` over it."""
        if reaction not in wire.REACTIONS:
            raise OnlineError("online.field", field="reaction", type="reaction",
                              want="one of " + ", ".join(wire.REACTIONS))
        if not self._host_reactions.take():
            raise OnlineError("online.rate")
        return self._react(self.host_seat, reaction)

    def rematch(self) -> Out:
        """The host starts a new match at the same seats (only once this one
        is over; else nothing): the same secrets keep their seats, the match's
        rounds, seeds and audits start afresh, and round 1's seeds are asked of
        every phone present (fresh seeds, committed and revealed as for any
        round). Only the host's page calls this: a friend may only ask."""
        if not self.over:
            return []
        self.match += 1
        self.session = None
        self.seeds, self._host_seeds, self.seen = {}, {}, {}
        self._audited = set()
        self._turn = None
        self.rematch_asks = set()
        out = self._broadcast({"type": "rematch", "match": self.match})
        return out + self._request_seeds(1) + self._seats_message()

    # ------------------------------------------------------------ seeds
    def start(self) -> Out:
        """Ask for round 1's seeds (the game starts once they are revealed)."""
        if self.started:
            return []
        return self._request_seeds(1)

    def _dealt(self, number: int) -> bool:
        s = self.session
        return s is not None and number in s.round_seeds

    def _request_seeds(self, number: int, reason: dict[str, list[int]] | None = None) -> Out:
        """Ask every phone present (the host's included) for round ``number``'s
        seeds; again, fresh from everyone, when they start again (``reason``:
        the seats that left or were late, left out of this round's seeds)."""
        late = set(reason["late"]) if reason else set()
        phones = [i for i in range(len(self.seats)) if i == self.host_seat or
                  (self.seats[i].spec.kind == REMOTE and self.present(i) and i not in late)]
        old = self.seeds.get(number)
        sd = _Seeds(phones, restart=old.restart + 1 if old is not None else 0, reason=reason, since=self.clock())
        self.seeds[number] = sd
        own = self._host_seed()
        self._host_seeds[number] = own
        sd.commits[self.host_seat] = commitment(own)
        out = self._broadcast(sd.request(number, self.match))
        return out + self._maybe_announce(number)

    def _commit(self, seat: int, number: int, digest: str) -> Out:
        sd = self.seeds.get(number)
        if sd is not None and sd.commits.get(seat) == digest:
            self._same = True  # the same commitment again (a phone that sat down again): nothing changes
            return []
        if sd is None or seat not in sd.seats or seat in sd.commits or sd.announced:
            raise OnlineError("online.no_commit", round=number)
        sd.commits[seat] = digest
        return self._maybe_announce(number)

    def _maybe_announce(self, number: int) -> Out:
        sd = self.seeds[number]
        if sd.announced or len(sd.commits) < len(sd.seats):
            return []
        sd.announced = True
        sd.since = self.clock()
        out = self._broadcast({"type": "commits", "round": number, "commits": dict(sd.commits)})
        # only now, with every commitment fixed and sent, does the host reveal its own seed (to itself)
        sd.reveals[self.host_seat] = self._host_seeds[number]
        return out + self._maybe_deal()

    def _reveal(self, seat: int, number: int, seed: str) -> Out:
        sd = self.seeds.get(number)
        if sd is None or not sd.announced or seat not in sd.seats or seat in sd.reveals:
            raise OnlineError("online.no_reveal", round=number)
        if not hmac.compare_digest(commitment(seed), sd.commits[seat]):
            raise OnlineError("online.reveal_mismatch", round=number)
        sd.reveals[seat] = seed
        return self._maybe_deal()

    def _maybe_deal(self) -> Out:
        """Deal when the deck waited for has its seed; then play the computers."""
        if 1 in self.seeds and self.seeds[1].ready() and self.session is None:
            seed1 = round_seed(self.game, 1, self.seeds[1].reveals)
            dealer = first_dealer(seed1, len(self.seats))
            state: State = game_class(self.game).new(self.options, dealer)
            self.session = _SeededSession(state, Record(self.game, dict(self.options), dealer, []), 0)
            self.session.round_seeds[1] = seed1
            self.session.deal_now()
            return self._after_change(dealt=True)
        s = self.session
        if s is None or not s.state.needs_deal or s.is_over:
            return []
        number = len(s.record_value().rounds) + (0 if s.state.deal_continues_round() else 1)
        sd = self.seeds.get(number)
        if sd is None or not sd.ready():
            return []
        s.round_seeds[number] = round_seed(self.game, number, sd.reveals)
        s.deal_now()
        return self._after_change(dealt=True)

    # ------------------------------------------------------------ play
    def _act(self, seat: int, msg: wire.Act) -> Out:
        s = self.session
        if s is None:
            raise OnlineError("online.not_started")
        now = self.position()
        if (msg.round, msg.ply) != now:
            raise OnlineError("online.stale", round=msg.round, ply=msg.ply, now_round=now[0], now_ply=now[1])
        to_act = s.to_act()
        if to_act != seat:
            if to_act is None:
                raise ChkobbaError("deal.pending")
            raise OnlineError("online.not_your_turn", seat=to_act)
        return self._apply(seat, msg.action)

    def host_act(self, action: str) -> Out:
        """The host's own player acts (raises ChkobbaError if refused)."""
        s = self.session
        if s is None:
            raise OnlineError("online.not_started")
        to_act = s.to_act()
        if to_act is None:
            raise ChkobbaError("deal.pending")
        if to_act != self.host_seat:
            raise OnlineError("online.not_your_turn", seat=to_act)
        return self._apply(self.host_seat, action)

    def _apply(self, seat: int, action: str) -> Out:
        s = self.session
        assert s is not None
        before = self.position()
        a = s.apply(action)  # raises with the engine's one-line reason, changing nothing
        self.seen.setdefault(before[0], []).append(str(a))
        out = self._broadcast({"type": "move", "round": before[0], "ply": before[1], "seat": seat,
                               "action": str(a)})
        return out + self._after_change(dealt=self.position()[0] != before[0])

    def _after_change(self, dealt: bool) -> Out:
        s = self.session
        assert s is not None
        out: Out = []
        rounds = s.record_value().rounds
        if dealt and len(rounds) >= 2:
            out += self._audit(len(rounds) - 1)
        if dealt and not s.is_over and len(rounds) + 1 not in self.seeds:
            out += self._request_seeds(len(rounds) + 1)  # ready before this round ends
        if not dealt and s.state.needs_deal and not s.is_over:
            out += self._maybe_deal_waiting()
        if s.is_over and rounds and len(rounds) not in self._audited:
            out += self._audit(len(rounds))
        return out + self._views(range(len(self.seats)))

    def _maybe_deal_waiting(self) -> Out:
        s = self.session
        assert s is not None
        number = len(s.record_value().rounds) + (0 if s.state.deal_continues_round() else 1)
        if number not in self.seeds:
            return self._request_seeds(number)
        return self._maybe_deal()

    def _audit(self, number: int) -> Out:
        """Round ``number`` is over: every phone gets what it needs to audit it."""
        s = self.session
        assert s is not None
        if number in self._audited:
            return []
        self._audited.add(number)
        entry = s.record_value().rounds[number - 1]
        sd = self.seeds[number]
        return self._broadcast({"type": "audit", "round": number, "decks": [list(d) for d in entry.decks],
                                "actions": list(entry.actions), "commits": dict(sd.commits),
                                "reveals": dict(sd.reveals), "first_dealer": s.record_value().first_dealer})

    def tick(self) -> Out:
        """Time passes: notice silent peers, and let the computer play its
        seats (and away friends' seats after the grace period; with
        ``sliced``, :meth:`think` and :meth:`computer_move` do). Call it
        after every receive and on a timer."""
        out: Out = []
        now = self.clock()
        for peer, p in list(self.peers.items()):
            if p.seat is not None and now - p.last_seen > self.heartbeat_timeout:
                out += self.disconnect(peer)
        s = self.session
        for number, sd in list(self.seeds.items()):
            # a phone that went away before revealing (after the grace period), or
            # any phone that did not commit or reveal within seed_wait: the round's
            # seeds start again without it (fresh seeds from everyone), and every
            # phone is told which phones left and which were late
            if (s is not None and number in s.round_seeds) or sd.ready():
                continue
            missing = [i for i in sd.seats if i not in (sd.reveals if sd.announced else sd.commits)]
            left = [i for i in missing if not self.present(i)]
            if any(self.computer_plays(i) for i in left) or now - sd.since >= self.seed_wait:
                self.version += 1
                out += self._request_seeds(number, {"left": left, "late": [i for i in missing if i not in left]})
        if self._presence_sent is not None and \
                self._presence_sent != [(p["present"], p["computer"]) for p in self.presence()]:
            self.version += 1
            out += self._seats_message()  # the computer took a seat over (the grace period ended)
        for _ in range(0 if self.sliced else 10_000):
            if s is None or s.is_over:
                break
            seat = s.to_act()
            if seat is None or not self.computer_plays(seat):
                break
            agent = self._agents[seat]
            choice = agent.choose(s.observation(seat), s.legal_actions(), self.rng)
            out += self._apply(seat, str(choice))
        return out + self._run_timer(now)

    def computer_turn(self) -> int | None:
        """The seat the computer is to play now, if any."""
        s = self.session
        if s is None or s.is_over:
            return None
        seat = s.to_act()
        return seat if seat is not None and self.computer_plays(seat) else None

    def think(self, max_ms: float) -> bool | None:
        """Think about the computer's move for about ``max_ms`` ms (with
        ``sliced``): True once it is decided (:meth:`computer_move` plays it),
        False while thinking, None when no computer is to act. A search (the
        hard player) goes on across calls; the others decide in the first."""
        seat = self.computer_turn()
        if seat is None:
            self._thought = None
            return None
        pos = self.position()
        if self._thought is None or self._thought[:2] != (pos, seat):
            s = self.session
            assert s is not None
            agent = self._agents[seat]
            obs, legal = s.observation(seat), s.legal_actions()
            begun = agent.begin(obs, legal, self.rng) if isinstance(agent, HardAgent) else agent.choose(obs, legal, self.rng)
            self._thought = (pos, seat, begun)
            return not isinstance(begun, Search)
        begun = self._thought[2]
        return not isinstance(begun, Search) or begun.step(max_ms)

    def computer_move(self) -> Out:
        """Play the computer's move :meth:`think` decided; nothing when the
        table has moved on since (a friend came back to that seat, say)."""
        thought, self._thought = self._thought, None
        seat = self.computer_turn()
        if thought is None or seat is None or thought[:2] != (self.position(), seat):
            return []
        begun = thought[2]
        if isinstance(begun, Search):
            if not begun.done:
                self._thought = thought
                return []
            begun = begun.best()
        return self._apply(seat, str(begun))

    def time_left(self) -> float | None:
        """Seconds left to the seat to act (a player's turn being timed), else None."""
        if self._turn is None or self.timers is None or self.session is None:
            return None
        pos, since = self._turn
        if pos != self.position():
            return None
        return max(0.0, self._limit() - (self.clock() - since))

    def _limit(self) -> float:
        s = self.session
        assert s is not None and self.timers is not None
        # playing a card (or capturing) vs a call (Seven Diamonds' double, pass...)
        plays = any(a.kind in ("lay", "capture", "claim", "table", "keep") for a in s.legal_actions())
        r, ply = self.position()
        reading = READING if r > 1 and ply == 0 else 0.0  # the last round's summary is being read
        return (self.timers[1] if plays else self.timers[0]) + reading

    def _run_timer(self, now: float) -> Out:
        s = self.session
        if self.timers is None or s is None or s.is_over:
            self._turn = None
            return []
        seat = s.to_act()
        if seat is None or self.computer_plays(seat):
            self._turn = None
            return []
        pos = self.position()
        if self._turn is None or self._turn[0] != pos:
            self._turn = (pos, now)   # a new turn: its clock starts now; every phone is told
            return self._seats_message()
        if now - self._turn[1] < self._limit():
            return []
        self._turn = None
        legal = s.legal_actions()
        timeout = [a for a in legal if a.kind == "timeout"]
        choice = timeout[0] if timeout else self._stand_in.choose(s.observation(seat), legal, self.rng)
        return self._apply(seat, str(choice))

    # ------------------------------------------------------------ the host's save
    def save(self) -> dict[str, Any]:
        """Everything to resume the table after the host's page reloads, as
        JSON values, kept on the host's phone only: the record, the seeds of
        every round (the host's own included), the digests of the seats'
        secrets (never the secrets), the moves broadcast live."""
        s = self.session
        return {
            "v": wire.VERSION, "game": self.game, "options": dict(self.options),
            "seats": [{"kind": x.spec.kind, "level": x.spec.level,
                       "secret_hash": x.secret_hash.hex() if x.secret_hash is not None else None,
                       "retired": sorted(r.hex() for r in x.retired), "audit_failed": x.audit_failed}
                      for x in self.seats],
            "host_seeds": {str(k): v for k, v in self._host_seeds.items()},
            "seeds": {str(k): {"seats": list(sd.seats), "commits": {str(a): b for a, b in sd.commits.items()},
                               "reveals": {str(a): b for a, b in sd.reveals.items()}, "announced": sd.announced,
                               "restart": sd.restart, "reason": sd.reason}
                      for k, sd in self.seeds.items()},
            "record": s.record() if s is not None else None,
            "round_seeds": {str(k): v for k, v in s.round_seeds.items()} if s is not None else {},
            "seen": {str(k): list(v) for k, v in self.seen.items()},
            "audited": sorted(self._audited),
            "timers": list(self.timers) if self.timers is not None else None,
            "match": self.match,
            "over": self.over,
        }

    @classmethod
    def resume(cls, data: dict[str, Any], clock: Callable[[], float], **kwargs: Any) -> "HostTable":
        """The table of a :meth:`save`: every friend's seat waits for its phone
        to rejoin with its secret (the grace period starts now)."""
        seats = [SeatSpec(x["kind"], x["level"]) for x in data["seats"]]
        timers = data.get("timers")
        if timers is not None and "timers" not in kwargs:
            kwargs["timers"] = (float(timers[0]), float(timers[1]))
        table = cls(data["game"], data["options"], seats, clock, **kwargs)
        for seat, x in zip(table.seats, data["seats"]):
            if x["secret_hash"] is not None:
                seat.secret_hash = bytes.fromhex(x["secret_hash"])
                seat.away_since = clock()
            seat.retired = {bytes.fromhex(r) for r in x.get("retired", [])}
            seat.audit_failed = x.get("audit_failed")
        table._host_seeds = {int(k): v for k, v in data["host_seeds"].items()}
        table.seeds = {int(k): _Seeds(list(v["seats"]), {int(a): b for a, b in v["commits"].items()},
                                      {int(a): b for a, b in v["reveals"].items()}, bool(v["announced"]),
                                      int(v.get("restart", 0)), v.get("reason"), clock())
                       for k, v in data["seeds"].items()}
        if data["record"] is not None:
            rec = parse_record(data["record"])
            session = _SeededSession(replay(rec), rec, 0)
            session.round_seeds = {int(k): v for k, v in data["round_seeds"].items()}
            table.session = session
        table.seen = {int(k): list(v) for k, v in data["seen"].items()}
        table._audited = set(data["audited"])
        table.match = int(data.get("match", 1))
        return table

    def host_view(self) -> dict[str, Any] | None:
        """The host's own seat's answer (what the host's page draws): the
        same builder as the friends' views; None before the first deal."""
        s = self.session
        if s is None:
            return None
        return answer(s, Reader(self.host_seat, self.host_seat), self._seat_json(), table="online",
                      humans=self._humans())

    def _seat_json(self) -> list[Seat]:
        return [Seat("human") if x.spec.kind != COMPUTER else Seat("computer", x.spec.level) for x in self.seats]

    def _humans(self) -> list[int]:
        return [i for i, x in enumerate(self.seats) if x.spec.kind != COMPUTER]

    # ------------------------------------------------------------ sending
    def _views(self, seats: Sequence[int] | range) -> Out:
        """Each listed remote seat's answer: the facade's one answer builder
        (:func:`chkobba.web.answer.answer`) worded for that seat, so a
        friend's page draws what the host's draws, plus that seat's own legal
        actions when it is to act (the answer lists no card plays)."""
        s = self.session
        if s is None:
            return []
        round_number, ply = self.position()
        seats_json, humans = self._seat_json(), self._humans()
        out: Out = []
        for seat in seats:
            peer = self.seats[seat].peer
            if peer is not None and self.seats[seat].spec.kind == REMOTE:
                body = answer(s, Reader(seat, seat), seats_json, table="online", humans=humans)
                legal = s.legal() if s.to_act() == seat else []
                out.append((peer, {"v": wire.VERSION, "type": "view", "round": round_number, "ply": ply,
                                   "answer": body, "legal": legal}))
        return out

    def _broadcast(self, msg: dict[str, Any]) -> Out:
        self.version += 1  # every phone is told something: the table changed (the host's page too)
        body = {"v": wire.VERSION, **msg}
        return [(s.peer, dict(body)) for s in self.seats if s.peer is not None and s.spec.kind == REMOTE]
