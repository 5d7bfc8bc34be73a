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

:class:`HostTable` composes parts with one concern each, and words and
sends what they decide: :mod:`.host_limits` (each peer's allowances),
:mod:`.host_seats` (seats, connections, secrets, presence),
:mod:`.host_seeds` (each round's commitments, seeds, restarts, audit, and
the session dealt from them), :mod:`.host_clocks` (turn timers, heartbeat
timeout), :mod:`.host_computer` (the computer's seats, the stand-in move),
:mod:`.host_extras` (quick reactions, rematch asks). What stays here is
the message flow: reading a peer's message, the moves, the views and
broadcasts, the host's save. The flow's steps (``_broadcast``,
``_seats_message``, ``_request_seeds``, ``_maybe_announce``, ``_reveal``,
``_maybe_deal``, ``_audit``) are methods of the table, where the tests'
cheating hosts change one step.

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

from collections.abc import Callable
from typing import Any

from ..errors import ChkobbaError
from ..records import parse_record, replay
from . import wire
from .host_clocks import READING
from .host_extras import REACTIONS_KEPT
from .host_flow import TableFlow
from .host_limits import TokenBucket
from .host_seats import COMPUTER, HOST, REMOTE, SeatSpec, new_secret, specs
from .host_seeds import SEED_WAIT, SeededSession
from .wire import OnlineError

Out = list[tuple[int, dict[str, Any]]]

__all__ = ["HostTable", "SeatSpec", "TokenBucket", "new_secret", "HOST", "REMOTE", "COMPUTER", "READING",
           "SEED_WAIT", "REACTIONS_KEPT"]


class HostTable(TableFlow):
    """The host's table: seats, peers, the seeds of each round, the session;
    what the host's page and a friend's message ask of it."""

    # ------------------------------------------------------------ queries
    @property
    def started(self) -> bool:
        return bool(self.seeding.rounds)

    def time_left(self) -> float | None:
        """Seconds left to the seat to act (a player's turn being timed), else None."""
        return self.clocks.time_left(self.session, self.position())

    def _limit(self) -> float:
        assert self.session is not None
        return self.clocks.limit(self.session, self.position())

    def computer_turn(self) -> int | None:
        """The seat the computer is to play now, if any."""
        s = self.session
        if s is None or s.is_over:
            return None
        seat = s.to_act()
        return seat if seat is not None and self.computer_plays(seat) else None

    # ------------------------------------------------------------ peers
    def connect(self, peer: int, seat: int | None = None) -> None:
        """The transport opened a connection (not yet seated); ``seat``: the
        seat whose invitation it came from, the only one it may take."""
        self.seating.connect(peer, seat)

    def receive(self, peer: int, text: object) -> Out:
        """A peer's message: what to send in answer (to it and to others).

        Before anything else, every message takes a token of the peer's
        flood allowance (:data:`~.host_limits.FLOOD_RATE`): over it, the
        message is dropped unread and unanswered. A message taken (not
        refused) adds one to :attr:`version` (the page saves and draws only
        then); a heartbeat changes nothing to keep."""
        p = self.seating.peers.get(peer)
        if p is None or not p.allowances.admits():
            return []
        # The message is read (bounded: wire.MAX_BYTES) only to know which
        # allowance it takes from. A message over its allowance is refused as
        # ``online.rate``, answering its type, and nothing else is done with it.
        kind = "?"
        try:
            data = wire.decode(text)
        except OnlineError as e:
            if not p.allowances.takes(kind):
                return [(peer, self._error(OnlineError("online.rate"), kind))]
            p.last_seen = self.clock()
            return [(peer, self._error(e, kind))]
        kind = data["type"] if isinstance(data.get("type"), str) and data["type"] in wire.FIELDS else "?"
        if not p.allowances.takes(kind):
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

    def reissue(self, seat: int) -> Out:
        """The host gives a friend's seat a fresh invitation (for a friend on a
        new browser or a new phone, whose secret is not the one the seat
        knows): the seat's secret is retired (that phone can no longer sit
        there: ``online.seat_retired``), the seat is free for the next phone
        that joins through its invitation, and the computer plays it
        meanwhile. A connection from that seat's invitation that is waiting
        (refused as taken) is told to sit down (``seat_open``)."""
        unseated, waiting = self.seating.reissue(seat)
        out: Out = []
        if unseated is not None:
            out.append((unseated, self._error(OnlineError("online.seat_retired"), "join")))
        self.version += 1
        out += [(peer, {"v": wire.VERSION, "type": "seat_open", "seat": seat}) for peer in waiting]
        return out + self._seats_message()

    # ------------------------------------------------------------ reactions, rematch
    def host_react(self, reaction: str) -> Out:
        """The host's own quick reaction (one of :data:`wire.REACTIONS`), under
        the same allowance as a friend's; ``online.rate`` over it."""
        self.extras.check_host(reaction)
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
        self.seeding.reset()
        self.seen = {}
        self.clocks.turn = None
        self.extras.new_match()
        out = self._broadcast({"type": "rematch", "match": self.match})
        return out + self._request_seeds(1) + self._seats_message()

    # ------------------------------------------------------------ the game
    def start(self) -> Out:
        """Ask for round 1's seeds (the game starts once they are revealed)."""
        if self.started:
            return []
        return self._request_seeds(1)

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

    def tick(self) -> Out:
        """Time passes: notice silent peers, restart overdue seeds, and let
        the computer play its seats (and away friends' seats after the grace
        period; with ``sliced``, :meth:`think` and :meth:`computer_move` do).
        Call it after every receive and on a timer."""
        out: Out = []
        now = self.clock()
        s = self.session  # the computer plays from the next tick at a session dealt meanwhile
        for peer in self.seating.silent(now, self.clocks.heartbeat_timeout):
            out += self.disconnect(peer)
        # a phone that went away before revealing (after the grace period), or any
        # phone that did not commit or reveal within seed_wait: the round's seeds
        # start again without it, and every phone is told which left, which were late
        for number, reason in self.seeding.overdue(now, self._dealt, self.present, self.computer_plays):
            self.version += 1
            out += self._request_seeds(number, reason)
        if self._presence_sent is not None and \
                self._presence_sent != [(p["present"], p["computer"]) for p in self.presence()]:
            self.version += 1
            out += self._seats_message()  # the computer took a seat over (the grace period ended)
        for _ in range(0 if self.computers.sliced else 10_000):
            if s is None or s.is_over:
                break
            seat = s.to_act()
            if seat is None or not self.computer_plays(seat):
                break
            out += self._apply(seat, self.computers.choose(s, seat))
        return out + self._run_timer(now)

    def think(self, max_ms: float) -> bool | None:
        """Think about the computer's move for about ``max_ms`` ms (with
        ``sliced``): True once it is decided (:meth:`computer_move` plays it),
        False while thinking, None when no computer is to act."""
        seat = self.computer_turn()
        if seat is None or self.session is None:
            self.computers.thought = None
            return None
        return self.computers.think(self.session, seat, self.position(), max_ms)

    def computer_move(self) -> Out:
        """Play the computer's move :meth:`think` decided; nothing when the
        table has moved on since (a friend came back to that seat, say)."""
        seat = self.computer_turn()
        choice = self.computers.decided(seat, self.position())
        return [] if choice is None or seat is None else self._apply(seat, choice)

    def _run_timer(self, now: float) -> Out:
        s = self.session
        said = self.clocks.run(now, s, self.position(), self.computer_plays)
        if said == "started":
            return self._seats_message()   # every phone is told the turn's clock
        if said == "out" and s is not None:
            seat = s.to_act()
            assert seat is not None
            return self._apply(seat, self.computers.stand_in(s, seat))
        return []

    # ------------------------------------------------------------ the host's save
    def save(self) -> dict[str, Any]:
        """Everything to resume the table after the host's page reloads, as
        JSON values, kept on the host's phone only: the record, the seeds of
        every round (the host's own included), the digests of the seats'
        secrets (never the secrets), the moves broadcast live."""
        s = self.session
        return {
            "v": wire.VERSION, "game": self.game, "options": dict(self.options),
            "seats": self.seating.save(),
            **self.seeding.save(),
            "record": s.record() if s is not None else None,
            "round_seeds": {str(k): v for k, v in s.round_seeds.items()} if s is not None else {},
            "seen": {str(k): list(v) for k, v in self.seen.items()},
            "timers": list(self.timers) if self.timers is not None else None,
            "match": self.match,
            "over": self.over,
        }

    @classmethod
    def resume(cls, data: dict[str, Any], clock: Callable[[], float], **kwargs: Any) -> "HostTable":
        """The table of a :meth:`save`: every friend's seat waits for its phone
        to rejoin with its secret (the grace period starts now)."""
        timers = data.get("timers")
        if timers is not None and "timers" not in kwargs:
            kwargs["timers"] = (float(timers[0]), float(timers[1]))
        table = cls(data["game"], data["options"], specs(data["seats"]), clock, **kwargs)
        table.seating.resume(data["seats"])
        table.seeding.resume(data)
        if data["record"] is not None:
            rec = parse_record(data["record"])
            session = SeededSession(replay(rec), rec, table.game)
            session.round_seeds = {int(k): v for k, v in data["round_seeds"].items()}
            table.session = session
        table.seen = {int(k): list(v) for k, v in data["seen"].items()}
        table.match = int(data.get("match", 1))
        return table

    # ------------------------------------------------------------ sending
    def host_view(self) -> dict[str, Any] | None:
        """The host's own seat's answer (what the host's page draws): the
        same builder as the friends' views; None before the first deal."""
        return None if self.session is None else self.viewing.host_view(self.session)
