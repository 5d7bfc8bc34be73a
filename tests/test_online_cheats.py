"""A cheating host against the friends' phones: each way of choosing the deal
the issue found (36) is caught by the friend's own :class:`Guest` at the
round's audit, and an honest host's restarts still check out.

Each cheat is a :class:`HostTable` that runs the whole table honestly but for
one thing. Every test below was run against the ``Guest`` before these rules
(the package of the commit before, copied aside) and failed there: the old
phone revealed its seed to a host that had not committed, skipped its own
check when the host left it out (``own=None``), and took any restart."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import test_online
from test_online import Net

from chkobba.online.deal import commitment, deck, round_seed
from chkobba.online.guest import Guest
from chkobba.online.host import COMPUTER, HOST, REMOTE, HostTable


def suits(game: str, number: int, reveals: dict[int, str]) -> bool:
    """What a cheating host wants: a deck that starts with a seven (1 in 10 fair)."""
    return deck(game, round_seed(game, number, reveals), 0)[0][0] == "7"


def net_of(cls: type[HostTable], kinds: list[str], options: dict[str, Any] | None = None,
           seed: int = 0) -> Net:
    saved = test_online.HostTable
    test_online.HostTable = cls  # type: ignore[misc]
    try:
        return Net("chkobba", options or {"players": len(kinds)}, kinds, seed)
    finally:
        test_online.HostTable = saved  # type: ignore[misc]


def failed_rounds(g: Guest) -> list[int]:
    return [n for n, _ in g.audit_failures]


def _restart(table: HostTable, number: int, reason: dict[str, list[int]]) -> Any:
    try:
        return table._request_seeds(number, reason)  # type: ignore[call-arg]
    except TypeError:  # the host of the commit before: no reason given
        return table._request_seeds(number)


# ------------------------------------------------------------------ (1)

class OmitsItsCommitment(HostTable):
    """Shows the friends every commitment but its own; once the friend's seed
    is in, picks its own among 5,000 to get a deck it likes, and commits to
    that one in the audit."""

    def _maybe_announce(self, number: int) -> Any:
        sd = self.seeds[number]
        if sd.seats == [self.host_seat]:
            return super()._maybe_announce(number)
        if sd.announced or len(sd.commits) < len(sd.seats):
            return []
        sd.announced = True
        return self._broadcast({"type": "commits", "round": number,
                                "commits": {k: v for k, v in sd.commits.items() if k != self.host_seat}})

    def _reveal(self, seat: int, number: int, seed: str) -> Any:
        sd = self.seeds[number]
        if sd.seats == [self.host_seat]:
            return super()._reveal(seat, number, seed)
        sd.reveals[seat] = seed
        if len(sd.reveals) < len(sd.seats) - 1:
            return []
        mine = next(m for m in ("%032x" % random.Random(i).getrandbits(128) for i in range(5000))
                    if suits(self.game, number, {**sd.reveals, self.host_seat: m}))
        sd.reveals[self.host_seat] = mine
        sd.commits[self.host_seat] = commitment(mine)
        self._host_seeds[number] = mine
        return self._maybe_deal()

    def alone(self, number: int) -> Any:
        """The friend would not reveal: go on without it, as if it were late."""
        return _restart(self, number, {"left": [], "late": [i for i in self.seeds[number].seats
                                                          if i != self.host_seat]})


def test_a_host_that_omits_its_own_commitment_gets_no_seed_and_fails_the_audit() -> None:
    net = net_of(OmitsItsCommitment, [HOST, REMOTE])
    h, g = net.host, net.guests[1]
    net.deliver(h.start())
    assert h.session is None, "the friend's phone revealed its seed to a host that had not committed"
    assert 1 not in h.seeds[1].reveals
    # the cheat goes on without the friend's seed: the friend's phone says round 1 does not check out
    net.deliver(h.alone(1))  # type: ignore[attr-defined]
    assert h.session is not None
    net.play(rounds=1)
    assert 1 in failed_rounds(g) and 1 not in g.audited, (g.audited, g.audit_failures)
    assert g.failed[0]["code"] in ("online.audit_commits", "online.audit_own")
    # and the host's page was told which phone's audit failed
    assert h.presence()[1]["audit_failed"]["round"] == 1


def test_a_host_whose_audit_shows_other_commitments_than_those_shown_is_caught() -> None:
    """The host shows one commitment of its own, then audits with another."""
    net = test_online.started()
    h, g = net.host, net.guests[1]
    net.play(rounds=1)
    assert g.audited == [1]
    audit_msg = next(m for m in net.inbox[1] if m["type"] == "audit" and m["round"] == 1)
    forged = json.loads(json.dumps(audit_msg))
    other = "ab" * 16
    forged["commits"]["0"], forged["reveals"]["0"] = commitment(other), other
    g.audited.clear()
    g.receive(forged)
    assert 1 in failed_rounds(g)
    assert g.failed[-1]["code"] == "online.audit_commits"


# ------------------------------------------------------------------ (2)

class LeavesTheFriendOut(HostTable):
    """Asks only itself for the seeds, though the friend sits at the table
    (``told``: the friend is sent the request that leaves it out; else it is
    sent nothing about the seeds at all)."""
    told = True

    def _request_seeds(self, number: int, reason: Any = None) -> Any:
        saved = [s.away_since for s in self.seats]
        for s in self.seats:
            if s.spec.kind == REMOTE:
                s.away_since = self.clock()  # "not present", for the request only
        try:
            return super()._request_seeds(number) if reason is None else super()._request_seeds(number, reason)  # type: ignore[call-arg]
        finally:
            for s, a in zip(self.seats, saved):
                s.away_since = a

    def _broadcast(self, msg: dict[str, Any]) -> Any:
        if not self.told and msg["type"] in ("commit_request", "commits"):
            return []
        return super()._broadcast(msg)


class SaysNothing(LeavesTheFriendOut):
    told = False


@pytest.mark.parametrize("cls", [LeavesTheFriendOut, SaysNothing], ids=["told", "not-told"])
def test_a_host_that_does_not_ask_a_present_friend_for_its_seed_fails_the_audit(cls: type[HostTable]) -> None:
    net = net_of(cls, [HOST, REMOTE])
    h, g = net.host, net.guests[1]
    net.deliver(h.start())
    assert h.session is not None and set(h.seeds[1].reveals) == {0}, "the host's seed alone made the deal"
    net.play(rounds=2)
    assert h.position()[0] >= 3
    assert failed_rounds(g)[:2] == [1, 2] and not g.audited, (g.audited, g.audit_failures)
    assert {f["code"] for f in g.failed} == {"online.audit_own"}


def test_a_host_that_leaves_another_present_friend_out_is_caught_by_both() -> None:
    """2v2, two friends: the host leaves friend 2 out of the seeds (and says nothing)."""

    class LeavesSeat2Out(HostTable):
        def _request_seeds(self, number: int, reason: Any = None) -> Any:
            saved = self.seats[2].away_since
            self.seats[2].away_since = self.clock()
            try:
                return super()._request_seeds(number)
            finally:
                self.seats[2].away_since = saved

    net = net_of(LeavesSeat2Out, [HOST, REMOTE, REMOTE, COMPUTER])
    net.deliver(net.host.start())
    net.play(rounds=1)
    for peer in (1, 2):
        assert 1 in failed_rounds(net.guests[peer]), (peer, net.guests[peer].audit_failures)
    assert net.guests[1].failed[0]["code"] == "online.audit_not_asked"
    assert net.guests[1].failed[0]["params"]["seat"] == 2
    assert net.guests[2].failed[0]["code"] == "online.audit_own"


# ------------------------------------------------------------------ (3)

class RestartsUntilItSuits(HostTable):
    """Once every seed is in, looks at the deck they give; until it likes it,
    starts the round's seeds again "because a phone left" (``claim``: the
    seats it names as gone)."""
    claim: list[int] = []
    fake_departure = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.restarted = 0

    def _maybe_deal(self) -> Any:
        for number, sd in sorted(self.seeds.items()):
            dealt = self.session is not None and number in self.session.round_seeds
            if sd.ready() and not dealt and not suits(self.game, number, sd.reveals) and self.restarted < 300:
                self.restarted += 1
                if self.fake_departure:
                    # first every phone is told seat 2 is gone, then the seeds start again without it
                    s = self.seats[2]
                    s.away_since = self.clock()
                    out = self._seats_message() + _restart(self, number, {"left": [2], "late": []})
                    s.away_since = None
                    return out
                return _restart(self, number, {"left": list(self.claim), "late": []})
        return super()._maybe_deal()


class BlamesTheFriend(RestartsUntilItSuits):
    claim = [1]


class FakesADeparture(RestartsUntilItSuits):
    fake_departure = True


@pytest.mark.parametrize("cls", [RestartsUntilItSuits, BlamesTheFriend], ids=["no-reason", "blames-the-friend"])
def test_a_host_that_restarts_until_the_deal_suits_it_fails_the_audit(cls: type[HostTable]) -> None:
    net = net_of(cls, [HOST, REMOTE])
    h, g = net.host, net.guests[1]
    net.deliver(h.start())
    assert h.session is not None
    dealt = h.session.record_value().rounds[0].decks[0]
    assert dealt[0][0] == "7" and h.restarted > 0, "the host got the deck it wanted"  # type: ignore[attr-defined]
    net.play(rounds=1)
    assert 1 in failed_rounds(g) and 1 not in g.audited, (g.audited, g.audit_failures)
    assert g.failed[0]["code"] == "online.audit_restart"
    # every restart was shown on the friend's phone as it came, with its count and reason
    shown = g.restarts[1]
    assert [r["restart"] for r in shown] == list(range(1, h.restarted + 1))  # type: ignore[attr-defined]
    assert shown[0]["reason"]["left"] == cls.claim  # type: ignore[attr-defined]


def test_a_host_that_fakes_a_departure_to_restart_is_caught_by_the_phone_it_named() -> None:
    """2v2, two friends: the host says friend 2 left, restarts without it
    until it likes the deck; friend 1 cannot tell (it is told seat 2 left),
    friend 2, which never left, can."""
    net = net_of(FakesADeparture, [HOST, REMOTE, REMOTE, COMPUTER], seed=1)
    h = net.host
    net.deliver(h.start())
    assert h.session is not None and h.restarted > 0  # type: ignore[attr-defined]
    net.play(rounds=1)
    g1, g2 = net.guests[1], net.guests[2]
    assert 1 in failed_rounds(g2), g2.audit_failures
    assert g2.failed[0]["code"] in ("online.audit_own", "online.audit_restart")
    assert g1.restarts[1] and g1.restarts[1][0]["reason"]["left"] == [2]
    assert h.presence()[2]["audit_failed"]["round"] == 1


# -------------------------------------------------- what an honest host may do


def test_an_honest_restart_after_a_phone_left_before_revealing_checks_out() -> None:
    """Seven Diamonds, three friends: friend 3's phone leaves before it
    reveals; after the grace period the seeds start again without it; the
    phones that had revealed are shown the restart and its reason, and their
    audit passes."""
    net = Net("seven_diamonds", {}, [HOST, REMOTE, REMOTE, REMOTE])
    h = net.host
    h.heartbeat_timeout = 1e9  # the heartbeats are not simulated: the others stay
    g3 = net.guests.pop(3)  # this phone commits, then goes silent
    out = h.start()
    net.deliver(out)
    for text in g3.receive(json.loads(json.dumps(next(m for p, m in out if p == 3)))):
        net.deliver(h.receive(3, text))
    assert h.session is None and set(h.seeds[1].commits) == {0, 1, 2, 3}
    assert 1 in net.guests[1].revealed, "friends 1 and 2 revealed, friend 3 has not"
    net.deliver(h.disconnect(3))
    net.clock.now += h.grace
    net.deliver(h.tick())
    assert h.session is not None and h.seeds[1].seats == [0, 1, 2] and h.seeds[1].restart == 1
    net.play(rounds=1)
    for peer in (1, 2):
        g = net.guests[peer]
        assert g.restarts[1] == [{"restart": 1, "reason": {"left": [3], "late": []}, "seats": [0, 1, 2],
                                  "live": True}]
        assert g.audited[:1] == [1] and not g.audit_failures, g.audit_failures


def test_a_friend_away_when_the_seeds_were_asked_is_not_a_failure() -> None:
    """A friend who sits down after the seeds of a round were asked for is
    not in them, and its audit says so without failing."""
    net = Net("chkobba", {"players": 4}, [HOST, REMOTE, REMOTE, COMPUTER])
    h = net.host
    late = net.guests.pop(2)
    net.deliver(h.disconnect(2))  # friend 2's phone sat, then left before the game started
    net.deliver(h.start())
    assert h.session is not None and h.seeds[1].seats == [0, 1]
    net.add_guest(12, late)  # back, on a new connection
    net.play(rounds=2)
    assert late.audit_failures == [] and late.away_rounds[:1] == [1], (late.audit_failures, late.away_rounds)
    assert 2 in late.audited or 3 in late.audited


def _iter_types(inbox: list[dict[str, Any]]) -> Iterator[str]:
    return (m["type"] for m in inbox)


def test_a_host_that_sends_no_audit_is_caught() -> None:
    class NoAudit(HostTable):
        def _audit(self, number: int) -> Any:
            self._audited.add(number)
            return []

    net = net_of(NoAudit, [HOST, REMOTE])
    net.deliver(net.host.start())
    net.play(rounds=1)
    g = net.guests[1]
    assert "audit" not in _iter_types(net.inbox[1])
    assert failed_rounds(g) == [1] and g.failed[0]["code"] == "online.audit_missing"
