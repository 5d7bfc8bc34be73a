"""The host's seeds: each round's commitments, reveals, restarts and audit.

One part of :class:`~chkobba.online.host.HostTable`. No phone chooses the
cards: round ``n``'s deck comes from every phone's seed (:mod:`.deal`), each
committed (a hash) before any is revealed. For each round, this part keeps
which seats' seeds make it, their commitments, then (once every commitment
is shown) their seeds; the host's own seed is drawn when the round's seeds
are asked and revealed only once every commitment is fixed and sent. A
round's seeds may start again (fresh from every phone still there) when a
phone left or was late, with the count and reason every phone is shown.
Once a round is over, its audit message gives every phone what it needs to
check it. It also makes the host's session: a
:class:`~chkobba.session.Session` whose deck source is the round seeds
(:class:`SeededSession`), which waits, undealt, while a round's seed is not
known. It sends nothing: the table words and sends what it decides.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import CODES, Card
from ..protocol import GameState, Observation
from ..records import Record
from ..session import DeckSlot, Session
from .deal import commitment, deck, round_seed
from .wire import OnlineError

State = GameState[Observation]
Reason = dict[str, list[int]]

# a phone asked for a round's seed that has not committed (or, once every
# commitment is shown, not revealed) within this many seconds is treated as
# away for that round's seeds: they start again without it, and every phone
# is told which phone was late (withholding a seed stalls nothing)
SEED_WAIT = 20.0


@dataclass
class RoundSeeds:
    """One round's seeds: whose make it, their commitments, their seeds."""
    seats: list[int]
    commits: dict[int, str] = field(default_factory=dict)
    reveals: dict[int, str] = field(default_factory=dict)
    announced: bool = False
    restart: int = 0  # how many times this round's seeds started again
    reason: Reason | None = None  # why they last did: the seats that left, that were late
    since: float = 0.0  # when the commitments (then, once announced, the seeds) were asked for

    def request(self, number: int, match: int) -> dict[str, Any]:
        return {"type": "commit_request", "round": number, "seats": list(self.seats), "restart": self.restart,
                "reason": self.reason, "match": match}

    def ready(self) -> bool:
        return len(self.reveals) == len(self.seats)

    def missing(self) -> list[int]:
        """The seats whose commitment (or, once announced, seed) is not in."""
        got = self.reveals if self.announced else self.commits
        return [i for i in self.seats if i not in got]


class SeededSession(Session):
    """The host's session: its decks come from the round seeds (its
    :data:`~chkobba.session.DeckSource`); it waits (does not deal) while the
    next round's seed is not known, and deals with :meth:`deal_now` once it is."""

    def __init__(self, state: State, record: Record, game: str) -> None:
        self.round_seeds: dict[int, str] = {}
        self._game = game
        super().__init__(state, record, 0, deck_source=self._from_seeds)

    def _from_seeds(self, s: State, slot: DeckSlot) -> list[Card] | None:
        seed = self.round_seeds.get(slot.round)
        if seed is None:
            return None
        by_code = {CODES[c]: c for c in s.full_deck()}
        return [by_code[c] for c in deck(self._game, seed, slot.index)]

    def deal_now(self) -> None:
        """Deal the deck the state waits for, now that its seed is known."""
        self.deal_waiting()

    def record_value(self) -> Record:
        """The record itself (not a copy): the host reads its rounds."""
        return self._record


class SeedRounds:
    """Every round's seeds of the match being played, and which are audited."""

    def __init__(self, game: str, host_seat: int, host_seed: Callable[[], str], clock: Callable[[], float],
                 wait: float = SEED_WAIT) -> None:
        self.game, self.host_seat, self.clock = game, host_seat, clock
        self.host_seed = host_seed
        self.wait = wait
        self.rounds: dict[int, RoundSeeds] = {}
        self.host_seeds: dict[int, str] = {}  # the host's own seed of each round
        self.audited: set[int] = set()

    def reset(self) -> None:
        """A new match: no round's seeds yet, nothing audited."""
        self.rounds, self.host_seeds, self.audited = {}, {}, set()

    def ask(self, number: int, phones: Sequence[int], reason: Reason | None) -> RoundSeeds:
        """Round ``number``'s seeds, asked (again, fresh, if they were) of
        ``phones``; the host's seed is drawn and committed to now."""
        old = self.rounds.get(number)
        sd = RoundSeeds(list(phones), restart=old.restart + 1 if old is not None else 0, reason=reason,
                        since=self.clock())
        self.rounds[number] = sd
        own = self.host_seed()
        self.host_seeds[number] = own
        sd.commits[self.host_seat] = commitment(own)
        return sd

    def commit(self, seat: int, number: int, digest: str) -> bool:
        """A phone's commitment; False when it is the same one again (nothing
        changes), ``online.no_commit`` when none is asked of it."""
        sd = self.rounds.get(number)
        if sd is not None and sd.commits.get(seat) == digest:
            return False
        if sd is None or seat not in sd.seats or seat in sd.commits or sd.announced:
            raise OnlineError("online.no_commit", round=number)
        sd.commits[seat] = digest
        return True

    def announce(self, number: int) -> dict[str, Any] | None:
        """Once every commitment of round ``number`` is in: the ``commits``
        message every phone is sent, after which the host's own seed counts
        as revealed (to itself). None while one is missing, or once sent."""
        sd = self.rounds[number]
        if sd.announced or len(sd.commits) < len(sd.seats):
            return None
        sd.announced = True
        sd.since = self.clock()
        msg = {"type": "commits", "round": number, "commits": dict(sd.commits)}
        sd.reveals[self.host_seat] = self.host_seeds[number]
        return msg

    def reveal(self, seat: int, number: int, seed: str) -> None:
        """A phone's seed, checked against its commitment (or refused)."""
        sd = self.rounds.get(number)
        if sd is None or not sd.announced or seat not in sd.seats or seat in sd.reveals:
            raise OnlineError("online.no_reveal", round=number)
        if not hmac.compare_digest(commitment(seed), sd.commits[seat]):
            raise OnlineError("online.reveal_mismatch", round=number)
        sd.reveals[seat] = seed

    def seed(self, number: int) -> str | None:
        """Round ``number``'s seed, once every seed of it is revealed."""
        sd = self.rounds.get(number)
        if sd is None or not sd.ready():
            return None
        return round_seed(self.game, number, sd.reveals)

    def overdue(self, now: float, dealt: Callable[[int], bool], present: Callable[[int], bool],
                computer_plays: Callable[[int], bool]) -> Iterator[tuple[int, Reason]]:
        """The rounds whose seeds start again now, with why: a phone that went
        away before revealing (once the computer plays its seat), or any phone
        that did not commit or reveal within :attr:`wait` seconds. Each round
        is looked at as the one before it was restarted left things."""
        for number, sd in list(self.rounds.items()):
            if dealt(number) or sd.ready():
                continue
            missing = sd.missing()
            left = [i for i in missing if not present(i)]
            if any(computer_plays(i) for i in left) or now - sd.since >= self.wait:
                yield number, {"left": left, "late": [i for i in missing if i not in left]}

    def audit(self, number: int, session: SeededSession) -> dict[str, Any] | None:
        """Round ``number`` is over: the ``audit`` message (its decks, actions,
        commitments and seeds), once; None when it was given already."""
        if number in self.audited:
            return None
        self.audited.add(number)
        rec = session.record_value()
        entry = rec.rounds[number - 1]
        sd = self.rounds[number]
        return {"type": "audit", "round": number, "decks": [list(d) for d in entry.decks],
                "actions": list(entry.actions), "commits": dict(sd.commits),
                "reveals": dict(sd.reveals), "first_dealer": rec.first_dealer}

    # ------------------------------------------------------------ the host's save
    def save(self) -> dict[str, Any]:
        return {
            "host_seeds": {str(k): v for k, v in self.host_seeds.items()},
            "seeds": {str(k): {"seats": list(sd.seats), "commits": {str(a): b for a, b in sd.commits.items()},
                               "reveals": {str(a): b for a, b in sd.reveals.items()}, "announced": sd.announced,
                               "restart": sd.restart, "reason": sd.reason}
                      for k, sd in self.rounds.items()},
            "audited": sorted(self.audited),
        }

    def resume(self, data: dict[str, Any]) -> None:
        """The seeds of a :meth:`save` (a round being asked waits again from now)."""
        now = self.clock()
        self.host_seeds = {int(k): v for k, v in data["host_seeds"].items()}
        self.rounds = {int(k): RoundSeeds(list(v["seats"]), {int(a): b for a, b in v["commits"].items()},
                                          {int(a): b for a, b in v["reveals"].items()}, bool(v["announced"]),
                                          int(v.get("restart", 0)), v.get("reason"), now)
                       for k, v in data["seeds"].items()}
        self.audited = set(data["audited"])
