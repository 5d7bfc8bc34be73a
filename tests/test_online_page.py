"""chkobba.online.page: the online page's edge, as web/online/*.js calls it.

Every call the host's and the friend's pages make goes through
``Page.call(name, payload)``: JSON in, JSON out, a refusal in words. A host
page and a friend's page play a whole round here, message by message, the
way the browser passes them (the host's ``[peer, message]`` pairs, the
friend's texts)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chkobba.online import page as online_page
from chkobba.online.page import CALLS, Page


def ok(page: Page, name: str, **args: Any) -> Any:
    answer = json.loads(page.call(name, json.dumps(args)))
    assert "error" not in answer, answer
    return answer["ok"]


def refused(page: Page, name: str, payload: Any) -> dict[str, Any]:
    text = page.call(name, json.dumps(payload) if isinstance(payload, (dict, list)) else payload)
    answer = json.loads(text)
    assert set(answer) == {"error", "code", "params"}, answer
    assert answer["error"] and "\n" not in answer["error"] and "Traceback" not in answer["error"]
    return answer


class Phones:
    """One host page and one friend's page (seat 1), passing what the pages pass."""

    def __init__(self, seats: list[list[str]] | None = None, game: str = "chkobba",
                 options: dict[str, Any] | None = None) -> None:
        self.now = 100.0
        self.host = Page()
        self.friend = Page()
        seats = seats or [["host", "medium"], ["remote", "medium"]]
        ok(self.host, "host_new", game=game, options=options if options is not None else {"players": 2},
           seats=seats, timers=None, now=self.now)
        ok(self.host, "host_connect", peer=1, seat=1, now=self.now)
        ok(self.friend, "guest_sit", seat=1)
        self.to_friend(ok(self.friend, "guest_join"))

    def to_friend(self, text: str) -> None:
        """The friend's page sent ``text``: the host's page receives it, and sends what it answers."""
        self.deliver(ok(self.host, "host_receive", peer=1, text=text, now=self.now))

    def deliver(self, out: list[list[Any]]) -> None:
        for peer, msg in out:
            assert peer == 1
            for text in ok(self.friend, "guest_receive", message=json.loads(json.dumps(msg))):
                self.to_friend(text)

    def tick(self, seconds: float = 1.0) -> None:
        self.now += seconds
        self.deliver(ok(self.host, "host_tick", now=self.now))

    def computers(self) -> None:
        """What web/online/host.js's hostComputers does: think in slices, then play."""
        while ok(self.host, "host_computer_turn", now=self.now) is not None:
            ok(self.host, "host_tidy")
            decided = False
            while decided is False:
                decided = ok(self.host, "host_think", ms=12, now=self.now)
            if decided is not True:
                return
            self.deliver(ok(self.host, "host_computer_move", now=self.now))


def play_a_round(p: Phones, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        p.tick()
        p.computers()
        st = ok(p.host, "host_state", now=p.now)
        if st["answer"] is not None and st["answer"]["sheet"]["rounds"]:
            return
        if st["legal"]:
            p.deliver(ok(p.host, "host_act", action=rng.choice(st["legal"]), now=p.now))
            continue
        mine = ok(p.friend, "guest_status")
        if mine["legal"]:
            p.to_friend(ok(p.friend, "guest_act", action=rng.choice(mine["legal"])))
    raise AssertionError("the round did not end")


def test_a_host_page_and_a_friends_page_play_a_round_and_the_friend_audits_it() -> None:
    p = Phones()
    st = ok(p.host, "host_state", now=p.now)
    assert st["started"] and st["seat"] == 0 and [x["present"] for x in st["presence"]] == [True, True]
    play_a_round(p)
    status = ok(p.friend, "guest_status")
    assert status["audited"] == [1] and status["failed"] == [] and set(status["errors"]) <= {"online.rate"}
    record = json.loads(ok(p.host, "host_record"))
    assert record["rounds"]
    # the host's save resumes on a new page: the same table, the same record
    again = Page()
    ok(again, "host_resume", save=ok(p.host, "host_save"), now=p.now)
    assert ok(again, "host_record") == ok(p.host, "host_record")
    # the friend's save too: the same seat and what it audited
    friend = Page()
    ok(friend, "guest_sit", seat=1, saved=ok(p.friend, "guest_save"))
    assert ok(friend, "guest_status")["audited"] == [1]


def test_the_host_version_grows_only_when_the_table_changes() -> None:
    p = Phones()
    v = ok(p.host, "host_version")
    out = ok(p.host, "host_receive", peer=1, text="not json", now=p.now)
    assert [m["code"] for _, m in out] == ["online.json"]
    assert ok(p.host, "host_version") == v, "a refused message changes nothing"


def test_the_computer_plays_a_seat_in_slices() -> None:
    p = Phones(seats=[["host", "easy"], ["remote", "easy"], ["computer", "easy"], ["computer", "easy"]],
               options={"players": 4})
    play_a_round(p, seed=3)
    assert ok(p.friend, "guest_status")["audited"] == [1]


def test_the_hosts_own_move_and_reaction_refused_in_words() -> None:
    # the first dealer comes from the phones' joint seed (random secrets):
    # tables are opened until the friend leads round 1 (each does half the time)
    for _ in range(40):
        p = Phones()
        st = ok(p.host, "host_state", now=p.now)
        assert st["answer"] is not None
        if st["answer"]["to_act"] == 1:
            break
    assert st["answer"]["to_act"] == 1 and st["legal"] == []   # the friend leads round 1
    got = refused(p.host, "host_act", {"action": "7D", "now": p.now})
    assert got["code"] == "online.not_your_turn" and got["error"] == "it is not your turn: seat 1 plays now"
    bad = refused(p.host, "host_react", {"reaction": "nonsense", "now": p.now})
    assert bad["code"]
    assert ok(p.host, "host_react", reaction="bravo", now=p.now)
    assert [r for _, _, r in ok(p.host, "host_state", now=p.now)["reactions"]] == ["bravo"]


def test_the_friends_leave_message_is_a_protocol_message() -> None:
    p = Phones()
    msg = json.loads(ok(p.friend, "guest_leave"))
    assert msg["type"] == "leave"


@pytest.mark.parametrize(("name", "payload", "code"), [
    (7, "{}", "web.call_name"),
    ("host_fly", "{}", "web.unknown_call"),
    ("host_state", 5, "web.payload_type"),
    ("host_state", "{", "web.payload_json"),
    ("host_state", "[]", "web.payload_object"),
    ("host_state", '{"now": 1, "now": 2}', "web.payload_json"),
    ("host_state", "{}", "web.no_table"),
    ("guest_status", "{}", "web.no_table"),
    ("host_state", '{"seat": 1}', "web.unknown_field"),
    ("host_connect", '{"seat": 1}', "web.missing_field"),
    ("host_new", '{"game": "poker", "options": {}, "seats": []}', "web.game"),
    ("host_new", '{"game": "chkobba", "options": [], "seats": []}', "web.options"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": {}}', "web.seats"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": [["host", "easy"]]}', "web.seats_count"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": [["host", "easy"], "x"]}', "web.seat"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": [["host", "easy"], ["boss", "easy"]]}',
     "web.seat_kind"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": [["host", "easy"], ["remote", "god"]]}',
     "web.seat_level"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": [["remote", "easy"], ["remote", "easy"]]}',
     "web.human_first"),
    ("host_new", '{"game": "chkobba", "options": {"players": 2}, "seats": [["host", "easy"], ["remote", "easy"]], '
     '"timers": [0, 30]}', "web.options"),
    ("host_resume", '{"save": {"game": "chkobba"}}', "web.save"),
    ("host_resume", '{"save": 3}', "web.save.type"),
    ("host_state", '{"now": -1}', "web.stats.at"),
    ("host_state", '{"now": true}', "web.stats.at"),
    ("guest_sit", '{"seat": 9}', "web.seat_index"),
    ("guest_sit", '{"seat": 1, "saved": {"seat": "x"}}', "web.save"),
])
def test_bad_input_is_one_clear_error_and_changes_nothing(name: Any, payload: Any, code: str) -> None:
    page = Page()
    assert refused(page, name, payload)["code"] == code
    assert page.table is None and page.guest is None


def test_bad_calls_on_a_table_change_nothing() -> None:
    p = Phones()
    before = ok(p.host, "host_save")
    for name, payload in [("host_connect", {"peer": 0, "seat": 1}), ("host_connect", {"peer": 2, "seat": "1"}),
                          ("host_receive", {"peer": 1, "text": 5}), ("host_think", {"ms": 0}),
                          ("host_think", {"ms": 10_000}), ("host_act", {"action": ""}),
                          ("host_act", {"action": "x" * 100}), ("host_reissue", {"seat": -1}),
                          ("guest_receive", {"message": "text"})]:
        refused(p.host, name, payload)
    assert ok(p.host, "host_save") == before
    assert refused(p.friend, "guest_receive", {"message": []})["code"] == "web.payload_object"
    assert refused(p.friend, "guest_act", {"action": 7})["code"] == "web.action"


def test_the_hosts_clock_is_the_calls_now_and_never_goes_back() -> None:
    page = Page()
    ok(page, "host_new", game="chkobba", options={"players": 2}, seats=[["host", "easy"], ["remote", "easy"]],
       timers=[30, 30], now=50.0)
    assert page.clock() == 50.0
    ok(page, "host_tick", now=40.0)
    assert page.clock() == 50.0


def test_every_call_is_a_host_or_a_guest_call_and_the_browser_page_has_one() -> None:
    assert all(n.startswith(("host_", "guest_")) for n in CALLS)
    assert {n for n in CALLS if n.startswith("host_")} >= {"host_new", "host_receive", "host_state", "host_tick"}
    assert json.loads(online_page.call("host_state"))["code"] == "web.no_table"
    assert "now" in CALLS["host_state"][2] and "now" not in CALLS["guest_status"][2]


def test_a_failing_call_answers_words_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    page = Page()

    def broken(page: Page, args: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    monkeypatch.setitem(CALLS, "host_state", (broken, (), ("now",)))
    answer = json.loads(page.call("host_state", "{}"))
    assert answer["code"] == "web.internal" and "boom" not in answer["error"]
