"""A friend's phone: its seat's secret, its seeds, and the audit of each round.

:class:`Guest` answers the host's messages (``commit_request`` -> a
commitment to a fresh seed, ``commits`` -> the seed), keeps the public log of
moves as they are played, and audits each finished round
(:func:`chkobba.online.deal.audit`). It does not take the host's word for
anything it can check itself (``docs/online.md``, "The trust model"):

1. it reveals its seed only once the host has shown it a commitment from
   every phone asked for the round, the host's own included, with its own
   unchanged; it keeps what it was shown;
2. every request for a round's seeds made while this phone sits at the table
   must ask every phone present (the host's, this one's), except a phone the
   request names as gone or late; this phone is never left out while it sits;
3. a restart of a round's seeds after this phone revealed its own is
   legitimate only if it names a phone (not this one, not the host's) that
   was asked and left, or did not answer in time, before revealing;
4. a round's audit fails when its commitments are not the ones shown, when
   its seeds are not those of the phones asked, when this phone's own seed
   is absent (it was asked while present, or it had revealed) or changed, or
   when a round ended while this phone sat and its audit never came.

A rule broken is kept as the round's *fault* (its code and params) when it
happens and reported at the round's audit; the first failure of each round is
also sent to the host (``audit_failed``), whose page says which phone's audit
failed. Every restart is kept as it comes (:attr:`Guest.restarts`, with its
count and the reason the host gave) for the page to show.

A rematch (the host's ``rematch`` message, or a ``welcome`` or
``commit_request`` naming a later match) makes the phone forget the last
match's seeds, moves and rounds: the new match's round 1 is committed with a
fresh seed, never one the last match's audit revealed. Audit failures are
kept across matches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ChkobbaError
from ..records import Record, RecordDict, RoundRecord
from . import wire
from .deal import audit, commitment
from .host import new_secret
from .wire import HEX64, OnlineError

Fault = tuple[str, dict[str, Any]]


def _seats(value: object) -> list[int]:
    """A list of seat numbers as sent (anything else: none)."""
    if not isinstance(value, list) or not all(type(x) is int for x in value):
        return []
    return sorted(set(value))


def _reason(value: object) -> dict[str, list[int]]:
    """A restart's reason as sent: the seats that left, the seats that were late."""
    if not isinstance(value, dict):
        return {"left": [], "late": []}
    return {"left": _seats(value.get("left")), "late": _seats(value.get("late"))}


class Guest:
    def __init__(self, seat: int, secret: str | None = None, seed: Callable[[], str] = new_secret) -> None:
        self.seat = seat
        self.secret = secret or new_secret()
        self._new_seed = seed
        self.seeds: dict[int, str] = {}
        self.my_commits: dict[int, str] = {}
        self.seen: dict[int, dict[int, str]] = {}
        self.view: dict[str, Any] | None = None  # the facade's answer for this seat
        self.legal: list[str] = []
        self.position = (0, 0)
        self.header: tuple[str, dict[str, Any]] | None = None
        self.rounds: list[RoundRecord] = []
        self.audited: list[int] = []
        self.audit_failures: list[tuple[int, str]] = []
        # each failure as the page words it: round, code, params
        self.failed: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.reactions: list[tuple[int, str]] = []
        self.match = 1
        # what this phone was asked and shown, per round of this match
        self.asks: dict[int, dict[str, Any]] = {}  # round -> seats, restart, reason, live, sitting
        self.shown: dict[int, dict[int, str]] = {}  # round -> the commitments shown before revealing
        self.revealed: dict[int, str] = {}  # round -> the seed revealed for its current request
        self.faults: dict[int, Fault] = {}  # round -> the first rule the host broke in it
        self.restarts: dict[int, list[dict[str, Any]]] = {}  # round -> each restart as it came
        self.reported: set[int] = set()  # rounds whose failure was sent to the host
        self.presence: list[dict[str, Any]] = []
        self.sitting = 0  # how many times this phone sat down (a welcome); 0: not now
        self.seated = False
        self.sat_round = 0  # the round the host was at when this phone last sat down
        self.away_rounds: list[int] = []  # rounds dealt without this phone's seed while it was away
        self.first_dealer: int | None = None  # as the last round that checked out here said
        self.counted = 0  # the match (its number) this phone's statistics counted; 0: none

    # ------------------------------------------------------------ keeping
    def _new_match(self, match: object) -> None:
        """The host plays match ``match`` now: a later one forgets the last one's seeds and rounds."""
        if type(match) is not int or match <= self.match:
            return
        self.match = match
        self.seeds, self.my_commits, self.seen = {}, {}, {}
        self.rounds, self.audited = [], []
        self.view, self.legal, self.position = None, [], (0, 0)
        self.asks, self.shown, self.revealed, self.faults, self.restarts = {}, {}, {}, {}, {}
        self.reported, self.away_rounds = set(), []
        self.sat_round = 0
        self.first_dealer = None

    def save(self) -> dict[str, Any]:
        """What this phone keeps to sit down again after its page reloads:
        its secret, its seeds and commitments, what it was asked and shown,
        the moves it saw and the rounds it audited (JSON values, kept in
        this phone's storage only)."""
        def by_round(d: Mapping[int, Any]) -> dict[str, Any]:
            return {str(k): v for k, v in d.items()}
        return {"v": wire.VERSION, "seat": self.seat, "secret": self.secret,
                "seeds": by_round(self.seeds), "commits": by_round(self.my_commits),
                "seen": {str(r): {str(p): a for p, a in m.items()} for r, m in self.seen.items()},
                "audited": list(self.audited), "failures": [list(f) for f in self.audit_failures],
                "failed": list(self.failed),
                "rounds": [[[list(d) for d in r.decks], list(r.actions)] for r in self.rounds],
                "match": self.match, "asks": by_round(self.asks),
                "shown": {str(r): by_round(c) for r, c in self.shown.items()},
                "revealed": by_round(self.revealed),
                "faults": {str(r): [c, p] for r, (c, p) in self.faults.items()},
                "restarts": by_round(self.restarts), "reported": sorted(self.reported),
                "sitting": self.sitting, "sat_round": self.sat_round, "away_rounds": list(self.away_rounds),
                "first_dealer": self.first_dealer, "counted": self.counted}

    @classmethod
    def resume(cls, data: dict[str, Any]) -> "Guest":
        guest = cls(int(data["seat"]), str(data["secret"]))
        guest.seeds = {int(k): str(v) for k, v in data["seeds"].items()}
        guest.my_commits = {int(k): str(v) for k, v in data["commits"].items()}
        guest.seen = {int(r): {int(p): str(a) for p, a in m.items()} for r, m in data["seen"].items()}
        guest.audited = [int(x) for x in data["audited"]]
        guest.audit_failures = [(int(n), str(t)) for n, t in data["failures"]]
        guest.failed = [dict(f) for f in data.get("failed", [])]
        guest.rounds = [RoundRecord([list(d) for d in decks], list(actions)) for decks, actions in data["rounds"]]
        guest.match = int(data.get("match", 1))
        guest.asks = {int(k): dict(v) for k, v in data.get("asks", {}).items()}
        guest.shown = {int(r): {int(s): str(h) for s, h in c.items()} for r, c in data.get("shown", {}).items()}
        guest.revealed = {int(k): str(v) for k, v in data.get("revealed", {}).items()}
        guest.faults = {int(r): (str(c), dict(p)) for r, (c, p) in data.get("faults", {}).items()}
        guest.restarts = {int(k): list(v) for k, v in data.get("restarts", {}).items()}
        guest.reported = {int(x) for x in data.get("reported", [])}
        guest.sitting = int(data.get("sitting", 0))
        guest.sat_round = int(data.get("sat_round", 0))
        guest.away_rounds = [int(x) for x in data.get("away_rounds", [])]
        dealer = data.get("first_dealer")
        guest.first_dealer = None if dealer is None else int(dealer)
        guest.counted = int(data.get("counted", 0))
        return guest  # not seated: its page reloaded, it sits down again (a welcome)

    # ------------------------------------------------------------ sending
    def join(self, name: str = "") -> str:
        """The join message, with the player's name (checked here as the host
        checks it: ``online.field``, nothing sent, for a name it would refuse)."""
        return wire.encode(wire.Join(self.seat, self.secret, wire.check_name(name)))

    def act(self, action: str) -> str:
        return wire.encode(wire.Act(action, *self.position))

    def react(self, reaction: str) -> str:
        """A quick reaction (one of :data:`wire.REACTIONS`; the host checks it)."""
        return wire.encode(wire.Reaction(reaction))

    # ------------------------------------------------------------ what the host says
    @property
    def host_seat(self) -> int | None:
        return next((p["seat"] for p in self.presence if p.get("kind") == "host"), None)

    def _present(self) -> set[int]:
        """The phones present, as the host last said (the host's always)."""
        return {p["seat"] for p in self.presence
                if p.get("kind") == "host" or (p.get("kind") == "remote" and p.get("present"))}

    def _fault(self, number: int, code: str, **params: Any) -> None:
        """A rule of the round broken, seen now: the round fails here at once
        (its audit, if it comes, cannot make it check out)."""
        if number not in self.faults:
            self.faults[number] = (code, {"round": number, **params})
            self._fail(number, self.faults[number])

    def receive(self, msg: dict[str, Any]) -> list[str]:
        """One message from the host; returns the texts to send back. A
        message this phone cannot read is kept in :attr:`errors`, nothing else."""
        try:
            replies = self._receive(msg)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            self.errors.append({"type": "error", "code": "online.json", "params": {"problem": type(e).__name__},
                                "error": "a message from the host this phone cannot read"})
            replies = []
        return replies + self._reports()

    def _receive(self, msg: dict[str, Any]) -> list[str]:
        kind = msg.get("type")
        if kind in ("welcome", "commit_request", "rematch"):
            self._new_match(msg.get("match", 1))
        if kind == "welcome":
            self.header = (msg["game"], dict(msg["options"]))
            return self._welcome(msg)
        if kind == "seats":
            if isinstance(msg.get("seats"), list):
                self.presence = [p for p in msg["seats"] if isinstance(p, dict) and type(p.get("seat")) is int]
        elif kind == "commit_request":
            return self._commit_request(msg, live=True)
        elif kind == "commits":
            return self._commits(msg["round"], msg["commits"])
        elif kind == "view":
            self.view = msg["answer"]
            self.legal = list(msg["legal"])
            self.position = (msg["round"], msg["ply"])
            self._audits_due(msg["round"], bool(((msg["answer"] or {}).get("sheet") or {}).get("over")))
        elif kind == "move":
            self.seen.setdefault(msg["round"], {})[msg["ply"]] = msg["action"]
        elif kind == "audit":
            self._audit(msg)
        elif kind == "reaction":
            self.reactions.append((msg["seat"], msg["reaction"]))
        elif kind == "error":
            self.errors.append(msg)
            if msg.get("code") == "online.not_seated":
                self.seated = False
                return [self.join()]  # the host's page restarted before our join reached it: sit down again
        elif kind == "seat_open":
            return [self.join()]  # the host gave this seat a new invitation: sit down with this phone's secret
        return []

    def _welcome(self, msg: dict[str, Any]) -> list[str]:
        self.seated = True
        self.sitting += 1
        if isinstance(msg.get("seats"), list):
            self.presence = [p for p in msg["seats"] if isinstance(p, dict) and type(p.get("seat")) is int]
        now = msg.get("round")
        self.sat_round = now if type(now) is int and now >= 0 else 0
        out: list[str] = []
        pending = msg.get("pending")
        for key, ask in (pending.items() if isinstance(pending, dict) else []):
            if isinstance(ask, dict) and str(key).isdigit():
                out += self._commit_request({**ask, "round": int(key)}, live=False)
        return out

    def _commit_request(self, msg: dict[str, Any], live: bool) -> list[str]:
        """A round's seeds are asked for (``live``: while this phone sits;
        else listed in its welcome: asked before it sat down)."""
        number = msg["round"]
        if type(number) is not int or number < 1:
            return []
        seats = _seats(msg.get("seats"))
        sent = msg.get("restart")
        count = int(sent) if isinstance(sent, (int, bool)) else 0
        reason = _reason(msg.get("reason"))
        before = self.asks.get(number)
        if before is not None and before["restart"] == count and before["seats"] == seats:
            # the same request again (a rejoin): the same seed, committed again
            before["live"] = before["live"] or live
            return [wire.encode(wire.Commit(number, self.my_commits[number]))] \
                if self.seat in seats and number in self.my_commits else []
        host = self.host_seat
        if count > 0 and count not in [r["restart"] for r in self.restarts.get(number, [])]:
            # shown as it comes, with its count and the reason the host gave
            self.restarts.setdefault(number, []).append({"restart": count, "reason": reason, "seats": seats,
                                                         "live": live})
        if before is not None and count != before["restart"]:
            if number in self.revealed:
                # after this phone revealed: only a phone that was asked and left (or was late) before revealing
                named = set(reason["left"]) | set(reason["late"])
                ok = (bool(named) and not named & {self.seat, host} and named <= set(before["seats"])
                      and not named & set(seats) and not set(reason["left"]) & self._present())
                if not ok:
                    self._fault(number, "online.audit_restart", count=count)
        if live:
            skipped = (self._present() | {self.seat}) - set(seats) - set(reason["late"]) - set(reason["left"])
            if self.seat not in seats:
                skipped.add(self.seat)
            if host is not None and host not in seats:
                skipped.add(host)
            if self.seat in skipped:
                self._fault(number, "online.audit_own")  # this phone sits here, and was left out
            elif skipped:
                self._fault(number, "online.audit_not_asked", seat=min(skipped))
        self.asks[number] = {"seats": seats, "restart": count, "reason": reason, "live": live,
                             "sitting": self.sitting}
        self.shown.pop(number, None)
        self.revealed.pop(number, None)
        if self.seat not in seats:
            return []
        if number not in self.seeds or before is None or count != before["restart"] or before["seats"] != seats:
            self.seeds[number] = self._new_seed()
            self.my_commits[number] = commitment(self.seeds[number])
        return [wire.encode(wire.Commit(number, self.my_commits[number]))]

    def _commits(self, number: int, sent: dict[str, Any]) -> list[str]:
        """Every commitment, shown: reveal this phone's seed only if they are all there."""
        ask = self.asks.get(number)
        mine = self.my_commits.get(number)
        if ask is None or mine is None or self.seat not in ask["seats"]:
            return []
        shown: dict[int, str] = {}
        for k, v in sent.items():
            if not str(k).isdigit() or not isinstance(v, str) or HEX64.fullmatch(v) is None:
                self._fault(number, "online.audit_commits")
                return []
            shown[int(k)] = v
        host = self.host_seat
        complete = (set(shown) == set(ask["seats"]) and shown.get(self.seat) == mine
                    and (host is None or host in shown))
        if not complete or (number in self.shown and self.shown[number] != shown):
            self._fault(number, "online.audit_commits")
            return []  # the host could pick its seed after seeing ours: keep it
        self.shown[number] = shown
        self.revealed[number] = self.seeds[number]
        return [wire.encode(wire.Reveal(number, self.seeds[number]))]

    def _audits_due(self, now: int, over: bool) -> None:
        """Every round that ended while this phone sat has been audited by now."""
        if not self.seated:
            return
        last = now if over else now - 1
        for number in range(max(1, self.sat_round), last + 1):
            if number not in self.audited and not any(f["round"] == number for f in self.failed):
                self._fault(number, "online.audit_missing")

    def _fail(self, number: int, fault: Fault) -> None:
        code, params = fault
        if any(f["round"] == number for f in self.failed):
            return
        self.failed.append({"round": number, "code": code, "params": params, "match": self.match})
        self.audit_failures.append((number, f"{code}: {OnlineError(code, **params)}"))

    def _reports(self) -> list[str]:
        """Each round that failed here, told to the host once (its page says which phone)."""
        out = []
        for f in self.failed:
            if f["round"] not in self.reported and f["code"] in wire.AUDIT_CODES:
                self.reported.add(f["round"])
                out.append(wire.encode(wire.AuditFailed(f["round"], f["code"])))
        return out

    def _own_check(self, number: int, commits: dict[int, str], reveals: dict[int, str]) -> Fault | None:
        """This phone's own part in the round's seeds."""
        ask = self.asks.get(number)
        same_sitting = ask is not None and ask["sitting"] == self.sitting and self.seated
        if self.seat in reveals or self.seat in commits:
            if reveals.get(self.seat) != self.seeds.get(number) or commits.get(self.seat) != self.my_commits.get(number):
                return ("online.audit_own", {"round": number})
            return None
        if number in self.revealed:
            return ("online.audit_own", {"round": number})  # the host had our seed, and dealt without it
        if ask is not None and same_sitting and ask["live"] and self.seat in ask["seats"]:
            return ("online.audit_own", {"round": number})  # asked while present, then left out unsaid
        if ask is None and self.seated and number > self.sat_round:
            return ("online.audit_own", {"round": number})  # sitting here, never asked
        if number not in self.away_rounds:
            self.away_rounds.append(number)  # dealt while this phone was away: the others' seeds made it
        return None

    def _audit(self, msg: dict[str, Any]) -> None:
        number = msg["round"]
        if self.header is None or type(number) is not int or number < 1 or number in self.audited:
            return
        if any(f["round"] == number for f in self.failed):
            return
        while len(self.rounds) < number:
            self.rounds.append(RoundRecord([], []))
        self.rounds[number - 1] = RoundRecord([list(d) for d in msg["decks"]], list(msg["actions"]))
        record = Record(self.header[0], dict(self.header[1]), msg["first_dealer"], self.rounds[:number])
        commits = {int(k): v for k, v in msg["commits"].items()}
        reveals = {int(k): v for k, v in msg["reveals"].items()}
        fault = self.faults.get(number)
        ask = self.asks.get(number)
        if fault is None and number in self.shown and commits != self.shown[number]:
            fault = ("online.audit_commits", {"round": number})
        if fault is None and ask is not None and ask["sitting"] == self.sitting and self.seated \
                and set(commits) != set(ask["seats"]):
            fault = ("online.audit_commits", {"round": number})
        host = self.host_seat
        if fault is None and host is not None and host not in commits:
            fault = ("online.audit_not_asked", {"round": number, "seat": host})
        if fault is None:
            fault = self._own_check(number, commits, reveals)
        if fault is None:
            try:
                own = (self.seat, self.seeds[number]) if self.seat in reveals else None
                audit(record, number, commits, reveals, seen=self.seen.get(number, {}), own=own)
            except ChkobbaError as e:
                fault = (e.code, dict(e.params))
        if fault is not None:
            self.faults.setdefault(number, fault)
            self._fail(number, fault)
        else:
            self.audited.append(number)
            self.first_dealer = int(msg["first_dealer"])

    # ------------------------------------------------------------ for the page
    def status(self) -> dict[str, Any]:
        """What the friend's page shows: rounds checked and failed, restarts, position."""
        return {"audited": list(self.audited), "failures": [list(f) for f in self.audit_failures],
                "failed": list(self.failed), "position": list(self.position), "legal": list(self.legal),
                "match": self.match, "restarts": {str(k): v for k, v in self.restarts.items()},
                "away_rounds": list(self.away_rounds), "counted": not self.failed_this_match()}

    def record(self, rounds: int | None = None) -> RecordDict | None:
        """The record of this match's first ``rounds`` rounds (all it holds
        without), as this phone audited them: None unless every one of them
        checked out here and no round of this match failed (a round it did
        not audit, or one that failed, is never taken on the host's word)."""
        n = len(self.rounds) if rounds is None else rounds
        if (self.header is None or self.first_dealer is None or n < 1 or n > len(self.rounds)
                or self.failed_this_match() or not set(range(1, n + 1)) <= set(self.audited)):
            return None
        return Record(self.header[0], dict(self.header[1]), self.first_dealer, self.rounds[:n]).to_dict()

    def failed_this_match(self) -> bool:
        """Whether a round of this match failed its audit here (the match then counts nowhere)."""
        return any(f.get("match", self.match) == self.match for f in self.failed)
