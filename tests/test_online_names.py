"""Players' names at the online table (chkobba.online.wire.valid_name): a
friend's name comes with its join, the host's with its table, and every
phone is told each seat's name in the presence (``welcome``, ``seats``).
A name is outside data: read strictly (short, letters of any script, digits,
a few marks; no control, bidi or markup character), refused in words, and a
refused join changes nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chkobba.online import wire
from chkobba.online.guest import Guest
from chkobba.online.host import HOST, REMOTE, HostTable, SeatSpec
from chkobba.online.page import Page

GOOD = ["Sami", "سامي", "سَامِي", "Anne-Marie", "O'Neil", "J.-P. 2", "Ali_3", "٣ نجوم", "x" * 16, "Zoë", "李小龙", ""]
HOSTILE: list[Any] = [
    "x" * 17,                                  # too long
    "x" * 1_000_000,                           # far too long: refused on its length alone
    "Sa\x00mi", "Sa\nmi", "Sa\tmi", "\x1b[31m",  # control characters
    "abc\u202edcba", "\u202aSami", "Sa\u2066mi\u2069", "\u200fSami", "Sa\u200dmi", "\ufeffSami",  # bidi, zero-width
    "<img onerror=alert(1)>", "<b>Sami</b>", "Sami&amp;", '"Sami"', "Sami;",  # markup
    " Sami", "Sami ", "Sa  mi", "\u00a0Sami",   # spaces first, last, doubled; another space
    "Sami\U0001F600", "\u0301",                # an emoji; (a mark alone is a letter's part: allowed below)
    7, 1.5, None, True, ["Sami"], {"name": "Sami"},   # not text
]
HOSTILE.remove("\u0301")


@pytest.mark.parametrize("name", GOOD)
def test_a_short_name_in_any_script_is_taken(name: str) -> None:
    assert wire.valid_name(name) and wire.check_name(name) == name


@pytest.mark.parametrize("name", HOSTILE, ids=lambda v: repr(v)[:24])
def test_a_hostile_name_is_refused_in_words(name: Any) -> None:
    assert not wire.valid_name(name)
    with pytest.raises(wire.OnlineError) as e:
        wire.check_name(name)
    assert e.value.code == "online.field" and e.value.params["field"] == "name"
    assert "16" in str(e.value) and "\n" not in str(e.value)


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def table(players: int = 2, host_name: str = "") -> HostTable:
    kinds = [HOST] + [REMOTE] * (players - 1)
    return HostTable("chkobba", {"players": players}, [SeatSpec(k, "easy", host_name if k == HOST else "")
                                                        for k in kinds], Clock(), rng=random.Random(1))


def join_text(seat: int, name: object, secret: str = "ab" * 16) -> str:
    return json.dumps({"v": 1, "type": "join", "seat": seat, "secret": secret, "name": name})


def test_a_friends_name_reaches_every_phone_and_the_hosts_too() -> None:
    h = table(4, host_name="Leïla")
    for peer in (1, 2, 3):
        h.connect(peer, peer)
    h.receive(1, Guest(1, "a1" * 16).join("Sami"))
    h.receive(2, Guest(2, "a2" * 16).join())         # no name: the seat's usual words
    out = h.receive(3, Guest(3, "a3" * 16).join("سامي"))
    welcome = next(m for p, m in out if p == 3 and m["type"] == "welcome")
    assert [s["name"] for s in welcome["seats"]] == ["Leïla", "Sami", "", "سامي"]
    told = {p for p, m in out if m["type"] == "seats" and [s["name"] for s in m["seats"]] == ["Leïla", "Sami", "", "سامي"]}
    assert told == {1, 2, 3}
    # the host's save keeps the names; a reload shows them again (the friends' once they sit)
    again = HostTable.resume(json.loads(json.dumps(h.save())), Clock())
    assert [s["name"] for s in again.presence()] == ["Leïla", "Sami", "", "سامي"]


def test_a_join_without_a_name_reads_as_before_and_encodes_without_one() -> None:
    text = wire.encode(wire.Join(1, "ab" * 16))
    assert "name" not in json.loads(text) and wire.read(text) == wire.Join(1, "ab" * 16, "")
    named = wire.encode(wire.Join(1, "ab" * 16, "Sami"))
    assert wire.read(named) == wire.Join(1, "ab" * 16, "Sami")


@pytest.mark.parametrize("name", [n for n in HOSTILE if not (isinstance(n, str) and len(n) > 900)],
                         ids=lambda v: repr(v)[:24])
def test_a_join_with_a_hostile_name_is_refused_and_changes_nothing(name: Any) -> None:
    h = table()
    h.connect(1, 1)
    before, version = json.dumps(h.save(), sort_keys=True), h.version
    out = h.receive(1, join_text(1, name))
    (peer, msg), = out
    assert peer == 1 and msg["type"] == "error" and msg["code"] == "online.field"
    assert msg["params"]["field"] == "name" and msg["answers"] == "join"
    assert json.dumps(h.save(), sort_keys=True) == before and h.version == version
    assert h.seats[1].peer is None and h.presence()[1]["name"] == ""
    # the same phone then sits with a good name
    h.receive(1, join_text(1, "Sami"))
    assert h.seats[1].peer == 1 and h.presence()[1]["name"] == "Sami"


def test_a_name_too_long_for_a_message_is_refused_by_its_size() -> None:
    h = table()
    h.connect(1, 1)
    (_, msg), = h.receive(1, join_text(1, "x" * 2000))
    assert msg["code"] == "online.too_large"


def test_a_rejoin_may_change_the_name_and_a_new_invitation_forgets_it() -> None:
    h = table()
    h.connect(1, 1)
    g = Guest(1, "cd" * 16)
    h.receive(1, g.join("Sami"))
    h.disconnect(1)
    h.connect(2, 1)
    h.receive(2, g.join("Samir"))
    assert h.presence()[1]["name"] == "Samir"
    h.reissue(1)
    assert h.presence()[1]["name"] == ""


def test_a_tampered_save_drops_a_bad_name_to_none() -> None:
    h = table(host_name="Leïla")
    saved = h.save()
    saved["seats"][0]["name"] = "<img onerror=alert(1)>"
    saved["seats"][1]["name"] = "\u202eevil"
    again = HostTable.resume(saved, Clock())
    assert [s["name"] for s in again.presence()] == ["", ""]


def ok(page: Page, call: str, **args: Any) -> Any:
    answer = json.loads(page.call(call, json.dumps(args)))
    assert "error" not in answer, answer
    return answer["ok"]


SEATS = [["host", "easy"], ["remote", "easy"]]


def test_the_pages_check_the_name_they_are_given() -> None:
    host = Page()
    for bad in ("\u202eevil", "<img onerror=alert(1)>", "x" * 17, 7, None):
        answer = json.loads(host.call("host_new", json.dumps({"game": "chkobba", "options": {"players": 2},
                                                              "seats": SEATS, "name": bad, "now": 1})))
        assert answer["code"] == "online.field" and answer["params"]["field"] == "name", answer
        assert host.table is None
    ok(host, "host_new", game="chkobba", options={"players": 2}, seats=SEATS, name="Leïla", now=1)
    assert [s["name"] for s in ok(host, "host_state", now=1)["presence"]] == ["Leïla", ""]
    friend = Page()
    ok(friend, "guest_sit", seat=1)
    answer = json.loads(friend.call("guest_join", json.dumps({"name": "a\u202eb"})))
    assert answer["code"] == "online.field"
    ok(host, "host_connect", peer=1, seat=1, now=1)
    ok(host, "host_receive", peer=1, text=ok(friend, "guest_join", name="سامي"), now=1)
    assert [s["name"] for s in ok(host, "host_state", now=1)["presence"]] == ["Leïla", "سامي"]
