"""A friend's phone: its seat's secret, its seeds, and the audit of each round.

:class:`Guest` answers the host's messages (``commit_request`` -> a
commitment to a fresh seed, ``commits`` -> the seed, once the host has shown
every phone's commitment), keeps the public log of moves as they are played,
and audits each finished round (:func:`chkobba.online.deal.audit`): a host
that changed a seed or a move after the fact is caught, and ``audit_failures``
says how, in the message's code and English.

A rematch (the host's ``rematch`` message, or a ``welcome`` or
``commit_request`` naming a later match) makes the phone forget the last
match's seeds, moves and rounds: the new match's round 1 is committed with a
fresh seed, never one the last match's audit revealed. Audit failures are
kept across matches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ChkobbaError
from ..records import Record, RoundRecord
from . import wire
from .deal import audit, commitment
from .host import new_secret


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
        self.errors: list[dict[str, Any]] = []
        self.reactions: list[tuple[int, str]] = []
        self.match = 1

    def _new_match(self, match: object) -> None:
        """The host plays match ``match`` now: a later one forgets the last one's seeds and rounds."""
        if type(match) is not int or match <= self.match:
            return
        self.match = match
        self.seeds, self.my_commits, self.seen = {}, {}, {}
        self.rounds, self.audited = [], []
        self.view, self.legal, self.position = None, [], (0, 0)

    def save(self) -> dict[str, Any]:
        """What this phone keeps to sit down again after its page reloads:
        its secret, its seeds and commitments, the moves it saw and the
        rounds it audited (JSON values, kept in this phone's storage only)."""
        return {"v": wire.VERSION, "seat": self.seat, "secret": self.secret,
                "seeds": {str(k): v for k, v in self.seeds.items()},
                "commits": {str(k): v for k, v in self.my_commits.items()},
                "seen": {str(r): {str(p): a for p, a in m.items()} for r, m in self.seen.items()},
                "audited": list(self.audited), "failures": [list(f) for f in self.audit_failures],
                "rounds": [[[list(d) for d in r.decks], list(r.actions)] for r in self.rounds],
                "match": self.match}

    @classmethod
    def resume(cls, data: dict[str, Any]) -> "Guest":
        guest = cls(int(data["seat"]), str(data["secret"]))
        guest.seeds = {int(k): str(v) for k, v in data["seeds"].items()}
        guest.my_commits = {int(k): str(v) for k, v in data["commits"].items()}
        guest.seen = {int(r): {int(p): str(a) for p, a in m.items()} for r, m in data["seen"].items()}
        guest.audited = [int(x) for x in data["audited"]]
        guest.audit_failures = [(int(n), str(t)) for n, t in data["failures"]]
        guest.rounds = [RoundRecord([list(d) for d in decks], list(actions)) for decks, actions in data["rounds"]]
        guest.match = int(data.get("match", 1))
        return guest

    def join(self) -> str:
        return wire.encode(wire.Join(self.seat, self.secret))

    def act(self, action: str) -> str:
        return wire.encode(wire.Act(action, *self.position))

    def react(self, reaction: str) -> str:
        """A quick reaction (one of :data:`wire.REACTIONS`; the host checks it)."""
        return wire.encode(wire.Reaction(reaction))

    def receive(self, msg: dict[str, Any]) -> list[str]:
        """One message from the host; returns the texts to send back."""
        kind = msg.get("type")
        if kind in ("welcome", "commit_request", "rematch"):
            self._new_match(msg.get("match", 1))
        if kind == "welcome":
            self.header = (msg["game"], dict(msg["options"]))
        elif kind == "commit_request" and self.seat in msg["seats"]:
            number = msg["round"]
            if number not in self.seeds or msg.get("restart"):
                self.seeds[number] = self._new_seed()
                self.my_commits[number] = commitment(self.seeds[number])
            return [wire.encode(wire.Commit(number, self.my_commits[number]))]
        elif kind == "commits":
            number = msg["round"]
            mine = self.my_commits.get(number)
            if mine is not None and msg["commits"].get(str(self.seat), msg["commits"].get(self.seat)) == mine:
                return [wire.encode(wire.Reveal(number, self.seeds[number]))]
        elif kind == "view":
            self.view = msg["answer"]
            self.legal = list(msg["legal"])
            self.position = (msg["round"], msg["ply"])
        elif kind == "move":
            self.seen.setdefault(msg["round"], {})[msg["ply"]] = msg["action"]
        elif kind == "audit":
            self._audit(msg)
        elif kind == "reaction":
            self.reactions.append((msg["seat"], msg["reaction"]))
        elif kind == "error":
            self.errors.append(msg)
            if msg.get("code") == "online.not_seated":
                return [self.join()]  # the host's page restarted before our join reached it: sit down again
        return []

    def _audit(self, msg: dict[str, Any]) -> None:
        number = msg["round"]
        if self.header is None:
            return
        while len(self.rounds) < number:
            self.rounds.append(RoundRecord([], []))
        self.rounds[number - 1] = RoundRecord([list(d) for d in msg["decks"]], list(msg["actions"]))
        record = Record(self.header[0], dict(self.header[1]), msg["first_dealer"], self.rounds[:number])
        commits = {int(k): v for k, v in msg["commits"].items()}
        reveals = {int(k): v for k, v in msg["reveals"].items()}
        own = (self.seat, self.seeds[number]) if number in self.seeds and self.seat in commits else None
        try:
            audit(record, number, commits, reveals, seen=self.seen.get(number, {}), own=own)
        except ChkobbaError as e:
            self.audit_failures.append((number, f"{e.code}: {e}"))
        else:
            self.audited.append(number)
