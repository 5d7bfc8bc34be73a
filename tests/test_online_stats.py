"""An online match in each phone's statistics, once, and the round's replay
link (chkobba/online/page.py host_stats, guest_stats, host_replay,
guest_replay): a friend's phone counts only a match it audited whole, a
re-sent final state or a reload counts nothing more, and the host's replay
link of a round never holds the next round's deck."""

from __future__ import annotations

import json
import random
from typing import Any

from chkobba import links, stats
from chkobba.online.page import Page
from tests.test_online_page import Phones, ok, play_a_round, refused


def play_the_match(p: Phones, seed: int = 0) -> None:
    """Both phones play (a random legal move each turn) until the match is over."""
    rng = random.Random(seed)
    for _ in range(3000):
        p.tick()
        st = ok(p.host, "host_state", now=p.now)
        if st["over"]:
            return
        mine = ok(p.friend, "guest_status")
        if st["legal"]:
            p.deliver(ok(p.host, "host_act", action=rng.choice(st["legal"]), now=p.now))
        elif mine["legal"]:
            p.to_friend(ok(p.friend, "guest_act", action=rng.choice(mine["legal"])))
    raise AssertionError("the match did not end")


def stored(answer: dict[str, Any] | None, before: Any) -> Any:
    """What the page stores: the answer's statistics when it added the match."""
    return answer["stats"] if answer is not None and answer["added"] else before


def matches(file: Any) -> list[list[Any]]:
    return [] if file is None else stats.from_file(file)["matches"]


def test_the_friends_phone_counts_its_match_once_through_a_resent_state_and_a_reload() -> None:
    p = Phones()
    assert ok(p.friend, "guest_stats", stats=None, at=1) is None, "a match in progress counts nothing"
    play_the_match(p)
    file = None
    first = ok(p.friend, "guest_stats", stats=file, at=1000)
    assert first is not None and first["added"]
    file = stored(first, file)
    kept = stats.from_file(file)
    assert [g["level"] for g in kept["groups"]] == ["online"] and file["version"] == 4
    [row] = kept["matches"]
    record = json.loads(ok(p.host, "host_record"))
    assert row[0] == stats.match_id(record), "the friend's record of the match is the host's"
    won = stats.from_file(ok(p.host, "host_stats", stats=None, at=1)["stats"])["matches"][0][3]
    assert row[3] is not won, "each phone counts its own seat's side"
    # the host sends the final state again (the last view, a welcome): nothing more
    p.deliver(ok(p.host, "host_receive", peer=1, text=ok(p.friend, "guest_join"), now=p.now))
    assert ok(p.friend, "guest_stats", stats=file, at=2000) is None
    # the friend's page reloads, sits down again from its save, is welcomed again
    again = Page()
    ok(again, "guest_sit", seat=1, saved=ok(p.friend, "guest_save"))
    p.friend = again
    ok(p.host, "host_disconnect", peer=1, now=p.now)
    ok(p.host, "host_connect", peer=1, seat=1, now=p.now)
    p.to_friend(ok(again, "guest_join"))
    assert ok(again, "guest_stats", stats=file, at=3000) is None, "counted already (kept in the save)"
    # without the flag (a save from before it): the record's id still counts the match once
    assert again.guest is not None
    again.guest.counted = 0
    answer = ok(again, "guest_stats", stats=file, at=4000)
    assert answer is not None and not answer["added"] and len(matches(stored(answer, file))) == 1


def test_a_match_whose_audit_failed_on_the_friends_phone_is_not_counted() -> None:
    p = Phones()
    deliver = p.deliver

    def cheat(out: list[list[Any]]) -> None:
        # the host's audit of round 1 claims another last move than the one played
        for _, msg in out:
            if msg.get("type") == "audit" and msg["round"] == 1:
                msg["actions"] = msg["actions"][:-1] + [msg["actions"][-2]]
        deliver(out)
    p.deliver = cheat  # type: ignore[method-assign]
    play_the_match(p)
    status = ok(p.friend, "guest_status")
    assert status["failed"][0]["round"] == 1
    assert ok(p.friend, "guest_stats", stats=None, at=1000) is None
    assert refused(p.friend, "guest_replay", {"round": 1})["code"] == "online.audit_round"
    assert ok(p.host, "host_stats", stats=None, at=1000)["added"], "the host's own phone counts its match"


def test_the_hosts_replay_link_of_a_round_stops_there_never_the_next_deal() -> None:
    p = Phones()
    play_a_round(p)
    record = json.loads(ok(p.host, "host_record"))
    assert len(record["rounds"]) == 2 and record["rounds"][1]["decks"], "the next round is dealt already"
    link = ok(p.host, "host_replay", round=1)
    shown = links.decode(link).record
    assert len(shown.rounds) == 1 and shown.rounds[0].decks == record["rounds"][0]["decks"]
    assert ok(p.friend, "guest_replay", round=1) == link, "the friend's audited round: the same link"
    assert refused(p.host, "host_replay", {"round": 2})["code"] == "online.audit_round"
    assert refused(p.friend, "guest_replay", {"round": 2})["code"] == "online.audit_round"
    assert ok(p.host, "host_stats", stats=None, at=1) is None, "a match in progress counts nothing"


def test_an_online_group_is_written_as_version_4_and_refused_in_an_older_version() -> None:
    p = Phones()
    play_the_match(p)
    file = ok(p.host, "host_stats", stats=None, at=1)["stats"]
    assert file["version"] == 4 and stats.from_file(file)["groups"][0]["level"] == "online"
    assert stats.from_text(stats.to_text(stats.from_file(file))) == stats.from_file(file)
    older = dict(file, version=3)
    try:
        stats.from_file(older)
    except stats.StatsError as e:
        assert e.code == "stats.file"
    else:
        raise AssertionError("a version 3 file has no online level")
    assert stats.to_file(stats.empty())["version"] == 1, "a file without online matches keeps its version"
