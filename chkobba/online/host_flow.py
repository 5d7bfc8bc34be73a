"""The host's message flow: what each event of the table sends, and to whom.

:class:`TableFlow` is the state of :class:`~chkobba.online.host.HostTable`
(its parts, the session, what was broadcast) and the steps of a round as
messages: a peer's message taken (join, commit, reveal, act, reaction, a
failed audit), a round's seeds asked, announced, revealed and dealt, a move
applied and broadcast, the round audited, each friend's view and the
presence sent. The concerns themselves are the parts' (:mod:`.host_seats`,
:mod:`.host_seeds`, :mod:`.host_clocks`, :mod:`.host_computer`,
:mod:`.host_extras`, :mod:`.host_views`); a step here asks them and words
what they decide. Each step is a method, so a test's cheating host (and the
e2e tests' page, patched in its interpreter) changes one step and no other.
:class:`~chkobba.online.host.HostTable` adds the table's public edge.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import ChkobbaError
from ..protocol import GameState, Observation
from ..records import Record
from ..registry import game_class
from . import wire
from .deal import first_dealer
from .host_clocks import Clocks
from .host_computer import Computers
from .host_extras import Extras
from .host_seats import Peer, Seat, SeatSpec, Seating, new_secret
from .host_seeds import SEED_WAIT, Reason, RoundSeeds, SeededSession, SeedRounds
from .host_views import Views
from .wire import OnlineError

Out = list[tuple[int, dict[str, Any]]]
State = GameState[Observation]


class TableFlow:
    """The table's parts and state, and the messages each event sends."""

    # ------------------------------------------------------------ the table
    def __init__(self, game: str, options: dict[str, Any] | None, seats: Sequence[SeatSpec],
                 clock: Callable[[], float], grace: float = 30.0, heartbeat_timeout: float = 10.0,
                 rate: float = 4.0, burst: float = 16.0, rng: random.Random | None = None,
                 host_seed: Callable[[], str] = new_secret,
                 timers: tuple[float, float] | None = None, sliced: bool = False,
                 seed_wait: float = SEED_WAIT) -> None:
        opts = game_class(game).options_class().from_dict(options or {})
        if len(seats) != opts.players:
            raise ValueError(f"{game} with these options has {opts.players} seats, not {len(seats)}")
        self.game, self.options = game, opts.to_dict()
        self.clock = clock
        self.seating = Seating(seats, clock, grace, rate, burst)
        self.host_seat = self.seating.host_seat
        self.seeding = SeedRounds(game, self.host_seat, host_seed, clock, seed_wait)
        self.clocks = Clocks(clock, timers, heartbeat_timeout)
        self.computers = Computers(game, seats, rng or random.Random(), sliced)
        self.extras = Extras(clock)
        self.viewing = Views(self.seating.seats, self.host_seat)
        # what changed the table (a message taken, not refused): the page saves and draws only then
        self.version = 0
        self._same = False
        self._presence_sent: list[tuple[bool, bool]] | None = None
        self.session: SeededSession | None = None
        self.seen: dict[int, list[str]] = {}  # round -> actions as broadcast live
        self.match = 1  # the match at these seats, from 1 (a rematch adds one)

    def position(self) -> tuple[int, int]:
        """(round from 1, ply from 0) of the game now; (0, 0) before the deal."""
        if self.session is None:
            return (0, 0)
        rounds = self.session.record_value().rounds
        return (len(rounds), len(rounds[-1].actions) if rounds else 0)

    def present(self, seat: int) -> bool:
        return self.seating.present(seat)

    def computer_plays(self, seat: int) -> bool:
        """Whether the computer plays this seat now (a computer seat, or a
        friend's seat never taken or away for longer than the grace period)."""
        return self.seating.computer_plays(seat)

    def presence(self) -> list[dict[str, Any]]:
        return self.seating.presence(self.extras.rematch_asks)

    @property
    def over(self) -> bool:
        """Whether this match is over (a rematch may start)."""
        return self.session is not None and self.session.is_over

    def clock_now(self) -> dict[str, Any] | None:
        """The timed turn's clock for every phone (None when no turn is being timed)."""
        return self.clocks.clock_now(self.session, self.position())

    # ------------------------------------------------------------ the parts' state, read here
    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def peers(self) -> dict[int, Peer]:
        return self.seating.peers

    @property
    def grace(self) -> float:
        return self.seating.grace

    @grace.setter
    def grace(self, value: float) -> None:
        self.seating.grace = value

    @property
    def heartbeat_timeout(self) -> float:
        return self.clocks.heartbeat_timeout

    @heartbeat_timeout.setter
    def heartbeat_timeout(self, value: float) -> None:
        self.clocks.heartbeat_timeout = value

    @property
    def timers(self) -> tuple[float, float] | None:
        return self.clocks.timers

    @timers.setter
    def timers(self, value: tuple[float, float] | None) -> None:
        self.clocks.timers = value

    @property
    def seed_wait(self) -> float:
        return self.seeding.wait

    @seed_wait.setter
    def seed_wait(self, value: float) -> None:
        self.seeding.wait = value

    @property
    def seeds(self) -> dict[int, RoundSeeds]:
        return self.seeding.rounds

    @property
    def _host_seeds(self) -> dict[int, str]:
        return self.seeding.host_seeds

    @property
    def _audited(self) -> set[int]:
        return self.seeding.audited

    @property
    def sliced(self) -> bool:
        return self.computers.sliced

    @sliced.setter
    def sliced(self, value: bool) -> None:
        self.computers.sliced = value

    @property
    def rng(self) -> random.Random:
        return self.computers.rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self.computers.rng = value

    @property
    def reactions(self) -> list[tuple[float, int, str]]:
        return self.extras.reactions

    @property
    def reacted(self) -> int:
        return self.extras.reacted

    @property
    def rematch_asks(self) -> set[int]:
        return self.extras.rematch_asks

    # ------------------------------------------------------------ a peer's message
    def _take(self, peer: int, p: Peer, msg: wire.Message) -> Out:
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

    def _error(self, e: ChkobbaError, kind: str) -> dict[str, Any]:
        return {"v": wire.VERSION, "type": "error", "code": e.code, "params": e.params, "error": str(e),
                "answers": kind}

    def _join(self, peer: int, p: Peer, msg: wire.Join) -> Out:
        self.seating.sit(peer, p, msg.seat, msg.secret, msg.name)
        # the rounds whose seeds were asked for before this phone sat down (and are not dealt yet)
        rounds = self.seeding.rounds
        pending = {str(n): sd.request(n, self.match) for n, sd in sorted(rounds.items()) if not self._dealt(n)}
        out: Out = [(peer, {"type": "welcome", "seat": msg.seat, "game": self.game, "options": self.options,
                            "seats": self.presence(), "match": self.match, "round": self.position()[0],
                            "pending": pending})]
        for number in sorted(rounds):  # a pending seed round this seat belongs to
            sd = rounds[number]
            if msg.seat in sd.seats and msg.seat not in sd.reveals and sd.announced and not self._dealt(number):
                out.append((peer, {"type": "commits", "round": number, "commits": dict(sd.commits)}))
        out += self._views([msg.seat])
        out += self._seats_message()
        return [(q, {"v": wire.VERSION, **m}) for q, m in out]

    def _audit_failed(self, seat: int, msg: wire.AuditFailed) -> Out:
        """A friend's phone says a round does not check out: every phone is told which."""
        if self.seats[seat].audit_failed is not None:
            self._same = True  # said once already: nothing changes, nothing is sent
            return []
        self.seats[seat].audit_failed = {"round": msg.round, "code": msg.code, "match": self.match}
        return self._seats_message()

    def disconnect(self, peer: int) -> Out:
        """The connection closed (or its heartbeats stopped): its seat waits
        ``grace`` seconds, then the computer plays it until the owner rejoins."""
        if not self.seating.drop(peer):
            return []
        self.version += 1
        return self._seats_message()

    def _react(self, seat: int, reaction: str) -> Out:
        asked = self.extras.react(seat, reaction, self.over and seat != self.host_seat)
        out = self._seats_message() if asked else []  # the host's page says who asked
        return self._broadcast({"type": "reaction", "seat": seat, "reaction": reaction}) + out

    # ------------------------------------------------------------ seeds
    def _dealt(self, number: int) -> bool:
        s = self.session
        return s is not None and number in s.round_seeds

    def _request_seeds(self, number: int, reason: Reason | None = None) -> Out:
        """Ask every phone present (the host's included) for round ``number``'s
        seeds; again, fresh from everyone, when they start again (``reason``:
        the seats that left or were late, left out of this round's seeds)."""
        late = set(reason["late"]) if reason else set()
        phones = [i for i in self.seating.phones() if i == self.host_seat or i not in late]
        sd = self.seeding.ask(number, phones, reason)
        return self._broadcast(sd.request(number, self.match)) + self._maybe_announce(number)

    def _commit(self, seat: int, number: int, digest: str) -> Out:
        if not self.seeding.commit(seat, number, digest):
            self._same = True  # the same commitment again (a phone that sat down again): nothing changes
            return []
        return self._maybe_announce(number)

    def _maybe_announce(self, number: int) -> Out:
        # only once every commitment is fixed and sent does the host reveal its own seed (to itself)
        msg = self.seeding.announce(number)
        return [] if msg is None else self._broadcast(msg) + self._maybe_deal()

    def _reveal(self, seat: int, number: int, seed: str) -> Out:
        self.seeding.reveal(seat, number, seed)
        return self._maybe_deal()

    def _maybe_deal(self) -> Out:
        """Deal when the deck waited for has its seed (round 1's makes the session)."""
        if self.session is None:
            seed1 = self.seeding.seed(1)
            if seed1 is None:
                return []
            dealer = first_dealer(seed1, len(self.seats))
            state: State = game_class(self.game).new(self.options, dealer)
            self.session = SeededSession(state, Record(self.game, dict(self.options), dealer, []), self.game)
            self.session.round_seeds[1] = seed1
            self.session.deal_now()
            return self._after_change(dealt=True)
        s = self.session
        if not s.state.needs_deal or s.is_over:
            return []
        seed = self.seeding.seed(self._waiting_round())
        if seed is None:
            return []
        s.round_seeds[self._waiting_round()] = seed
        s.deal_now()
        return self._after_change(dealt=True)

    def _waiting_round(self) -> int:
        """The round (from 1) of the deck the session waits for."""
        s = self.session
        assert s is not None
        return len(s.record_value().rounds) + (0 if s.state.deal_continues_round() else 1)

    def _audit(self, number: int) -> Out:
        """Round ``number`` is over: every phone gets what it needs to audit it."""
        assert self.session is not None
        msg = self.seeding.audit(number, self.session)
        return [] if msg is None else self._broadcast(msg)

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
        number = self._waiting_round()
        if number not in self.seeds:
            return self._request_seeds(number)
        return self._maybe_deal()

    # ------------------------------------------------------------ sending
    def _views(self, seats: Sequence[int] | range) -> Out:
        """Each listed friend's seat's answer (:mod:`.host_views`)."""
        return [] if self.session is None else self.viewing.views(self.session, seats, self.position())

    def _seats_message(self) -> Out:
        self._presence_sent = [(p["present"], p["computer"]) for p in self.presence()]
        return self._broadcast({"type": "seats", "seats": self.presence(), "clock": self.clock_now()})

    def _broadcast(self, msg: dict[str, Any]) -> Out:
        self.version += 1  # every phone is told something: the table changed (the host's page too)
        body = {"v": wire.VERSION, **msg}
        return [(peer, dict(body)) for peer in self.seating.remote_peers()]
