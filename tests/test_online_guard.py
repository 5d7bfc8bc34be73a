"""A hostile friend against the host's table: a flood costs no change (the
page's ``version`` does not move, so it neither saves nor redraws), an edited
invitation takes no seat, a withheld seed stalls nothing, and a seat whose
phone lost its secret heals through a fresh invitation."""

from __future__ import annotations

import json
from typing import Any

from test_online import Net, snapshot, started

from chkobba.online import wire
from chkobba.online.guest import Guest
from chkobba.online.host import COMPUTER, HOST, REMOTE


def codes(out: list[tuple[int, dict[str, Any]]]) -> list[str]:
    return [m.get("code", m["type"]) for _, m in out]


def test_a_flood_of_refused_messages_changes_no_version() -> None:
    net = started()
    h, g = net.host, net.guests[1]
    net.clock.now += 5
    before, version = snapshot(h), h.version
    for text in ["{}", "x" * (wire.MAX_BYTES + 1), b"\xff", 12, None, ["a"], wire.encode(wire.Join(1, "ab" * 16))] * 300:
        h.receive(1, text)
    assert snapshot(h) == before and h.version == version, "refused messages: nothing to save or draw"
    h.heartbeat_timeout = 1e9  # the heartbeats are not simulated
    net.clock.now += 60  # the allowances refill
    assert h.session is not None
    while h.session.to_act() != 0:
        assert net.step()
    version = h.version
    net.deliver(h.host_act(h.session.legal()[0]))
    assert h.version > version, "the host's own move changes the table"
    while h.session.to_act() != 1:
        assert net.step()
    version = h.version
    net.send(1, g.act(g.legal[0]))
    assert h.version > version, "a friend's move taken changes the table"


def test_messages_that_are_not_text_are_refused_in_words() -> None:
    net = started()
    net.clock.now += 5
    before = snapshot(net.host)
    for value in (12, None, ["join"], {"type": "leave"}, 1.5):
        (_, msg), = net.host.receive(1, value)
        assert msg["type"] == "error" and msg["code"] == "online.json" and msg["error"]
    assert snapshot(net.host) == before


def test_an_edited_invitation_takes_no_seat_and_the_invited_seat_stays_free() -> None:
    """2v2, two friends: friend 1's invitation link edited to seat 2."""
    net = Net("chkobba", {"players": 4}, [HOST, REMOTE, REMOTE, COMPUTER])
    h = net.host
    net.deliver(h.disconnect(2))
    h.seats[2].secret_hash = None  # seat 2's friend has not come yet: its invitation is still open
    h.connect(60, 1)
    out = h.receive(60, wire.encode(wire.Join(2, "cd" * 16)))
    assert codes(out) == ["online.wrong_seat"]
    assert h.seats[2].secret_hash is None and h.seats[2].peer is None, "the invited seat is still open"
    # the invited friend, on its own invitation's connection, takes it
    friend = Guest(2)
    h.connect(61, 2)
    out = h.receive(61, friend.join())
    assert out[0][1]["type"] == "welcome" and h.seats[2].peer == 61


def test_a_friend_that_never_commits_or_never_reveals_stalls_nothing() -> None:
    for withhold in ("commit", "reveal"):
        net = Net("chkobba", {"players": 2}, [HOST, REMOTE])
        h = net.host
        h.heartbeat_timeout = 1e9  # it stays connected, heartbeats and all
        g = net.guests.pop(1)
        out = h.start()
        if withhold == "reveal":
            for _, m in out:
                for text in g.receive(json.loads(json.dumps(m))):
                    h.receive(1, text)  # commits; its reveal never comes
            assert 1 in h.seeds[1].commits and h.session is None
        net.clock.now += h.seed_wait - 1
        net.deliver(h.tick())
        assert h.session is None, "within the bound the round waits"
        net.clock.now += 1
        out = h.tick()
        assert h.session is not None and h.seeds[1].seats == [0], withhold
        request = next(m for _, m in out if m["type"] == "commit_request")
        assert request["restart"] == 1 and request["reason"] == {"left": [], "late": [1]}
        assert h.present(1), "late for the seeds, not gone: it plays its seat"


def test_a_friend_on_a_fresh_browser_gets_its_seat_back_from_a_new_invitation() -> None:
    net = started()
    h, old = net.host, net.guests[1]
    net.deliver(h.disconnect(1))
    fresh = Guest(1)  # its storage is gone: a new secret
    h.connect(70, 1)
    assert codes(h.receive(70, fresh.join())) == ["online.seat_taken"]
    # the old phone is connected again meanwhile: the new invitation takes the seat from it
    h.connect(71, 1)
    h.receive(71, old.join())
    assert h.seats[1].peer == 71
    out = h.reissue(1)
    assert (71, "online.seat_retired") in [(p, m.get("code")) for p, m in out]
    assert (70, "seat_open") in [(p, m["type"]) for p, m in out]
    assert h.seats[1].secret_hash is None and h.computer_plays(1)
    # the waiting connection sits down with the fresh phone's secret
    replies = fresh.receive({"v": 1, "type": "seat_open", "seat": 1})
    out = h.receive(70, replies[0])
    assert out[0][1]["type"] == "welcome" and h.seats[1].peer == 70 and not h.computer_plays(1)
    # the old secret is retired
    h.connect(72, 1)
    assert codes(h.receive(72, old.join())) == ["online.seat_retired"]
    assert h.seats[1].peer == 70
    # the seat's state is kept across the host's reload
    again = type(h).resume(json.loads(json.dumps(h.save())), net.clock)
    again.connect(73, 1)
    assert codes(again.receive(73, old.join())) == ["online.seat_retired"]


def test_a_repeated_audit_report_is_said_once() -> None:
    net = started()
    h = net.host
    net.clock.now += 5
    report = wire.encode(wire.AuditFailed(1, "online.audit_commits"))
    out = h.receive(1, report)
    assert h.presence()[1]["audit_failed"] == {"round": 1, "code": "online.audit_commits", "match": 1}
    assert [m["type"] for _, m in out] == ["seats"]
    version = h.version
    assert h.receive(1, report) == [] and h.version == version
