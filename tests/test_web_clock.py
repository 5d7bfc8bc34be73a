"""Timers changed during a match (``set_timers``, chkobba/web/clock.py): the
record stays one that replays, the table's position is unchanged, a save
resumes with the new timers, and bad values, games without timers and the
daily deal are refused with the table unchanged."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import web
from chkobba.records import replay
from chkobba.session import Session
from facade_calls import err, ok

SD = "seven_diamonds"
VS_COMPUTERS = [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * 3
TIMERS = [False, {"call": 10, "card": 12}, {"call": 30, "card": 40}, {"call": 60, "card": 60}, {"call": 3, "card": 3}]


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def position(state: dict[str, Any]) -> tuple[Any, ...]:
    """What the player sees of the position, timers aside."""
    view = {k: v for k, v in state["view"].items() if k not in ("options", "timer")}
    return (view, state["to_act"], [r["actions"] for r in state["save"]["record"]["rounds"]])


def play(moves: int, pick: int = 0) -> dict[str, Any]:
    """``moves`` moves at table main, each the ``pick``-th legal one (cycled)."""
    out: dict[str, Any] = ok("state")
    for _ in range(moves):
        s = web.table_session("main")
        seat = s.to_act()
        if seat is None:
            break
        legal = [a for a in s.legal() if a != "timeout"]
        out = ok("act", action=legal[pick % len(legal)], seat=seat)
    return out


def human_times_out() -> dict[str, Any]:
    """Play on until seat 0 may time out, and let its time run out."""
    for _ in range(200):
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if seat == 0 and "timeout" in s.legal():
            return ok("act", action="timeout", seat=0)
        play(1)
    raise AssertionError("seat 0 never had a turn")


def test_new_seconds_go_into_the_record_and_change_nothing_else() -> None:
    start = ok("start", game=SD, seed=7, seats=VS_COMPUTERS)
    assert start["timers"] == {"value": {"call": 10, "card": 12}, "changeable": True}
    before = play(9)
    after = ok("set_timers", timers={"call": 30, "card": 40})
    assert after["timers"]["value"] == {"call": 30, "card": 40}
    assert after["save"]["record"]["options"]["timers"] == {"call": 30, "card": 40}
    assert after["view"]["timer"]["seconds"] in (30, 40)
    assert position(after) == position(before)
    replay(after["save"]["record"])                     # the record replays
    again = ok("resume", save=after["save"])
    assert again["timers"] == after["timers"] and position(again) == position(after)


def test_off_before_any_timeout_writes_false_and_then_no_timeout_is_legal() -> None:
    ok("start", game=SD, seed=3, seats=VS_COMPUTERS)
    play(6)
    off = ok("set_timers", timers=False)
    assert off["timers"]["value"] is False
    assert off["save"]["record"]["options"]["timers"] is False
    assert "clock_off" not in off["save"]
    assert off["view"]["timer"] is None and off["seven"]["timeout"] is False
    assert "timeout" not in web.table_session("main").legal()
    on = ok("set_timers", timers={"call": 20, "card": 24})
    assert on["save"]["record"]["options"]["timers"] == {"call": 20, "card": 24}
    assert "timeout" in web.table_session("main").legal() or web.table_session("main").to_act() != 0


def test_off_after_a_timeout_keeps_the_record_and_stops_the_clock() -> None:
    ok("start", game=SD, seed=5, seats=VS_COMPUTERS)
    human_times_out()
    off = ok("set_timers", timers=False)
    # the record keeps its seconds (its timeout stays a legal move) ...
    assert off["save"]["record"]["options"]["timers"] == {"call": 10, "card": 12}
    assert off["save"]["clock_off"] is True and off["timers"]["value"] is False
    replay(off["save"]["record"])
    # ... and no time runs out any more, even after a reload
    resumed = ok("resume", save=off["save"])
    assert resumed["timers"]["value"] is False and resumed["save"]["clock_off"] is True
    for _ in range(200):
        s = web.table_session("main")
        if s.to_act() == 0 and "timeout" in s.legal():
            break
        play(1)
    saved = ok("state")["save"]
    refused = err("act", action="timeout", seat=0)
    assert refused["code"] == "web.timers.off"
    assert ok("state")["save"] == saved                 # nothing changed
    # on again: the clock runs with the new seconds
    on = ok("set_timers", timers={"call": 60, "card": 60})
    assert "clock_off" not in on["save"] and on["timers"]["value"] == {"call": 60, "card": 60}
    ok("act", action="timeout", seat=0)


@pytest.mark.parametrize("value", ["x", 0, None, True, [], {"call": 0, "card": 5}, {"call": 5, "card": 601},
                                   {"call": 5, "card": 5, "turn": 5}, {"call": True, "card": 5}, {"call": 1.5, "card": 5}])
def test_a_bad_value_is_refused_and_changes_nothing(value: Any) -> None:
    ok("start", game=SD, seed=2, seats=VS_COMPUTERS)
    before = play(3)["save"]
    assert err("set_timers", timers=value)["code"] == "web.timers.value"
    assert ok("state")["save"] == before


def test_missing_card_seconds_take_the_default() -> None:
    ok("start", game=SD, seed=2, seats=VS_COMPUTERS)
    out = ok("set_timers", timers={"call": 5})
    assert out["timers"]["value"] == {"call": 5, "card": 12}


def test_a_game_without_timers_and_the_daily_deal_refuse() -> None:
    ok("start", game="chkobba", seed=1)
    assert ok("state")["timers"] is None
    assert err("set_timers", timers=False)["code"] == "web.timers.none"
    daily = ok("daily_start", date="2026-12-01", game=SD)
    assert daily["timers"] == {"value": False, "changeable": False}
    before = daily["save"]
    assert err("set_timers", timers={"call": 10, "card": 12})["code"] == "web.timers.daily"
    assert ok("state")["save"] == before


@pytest.mark.parametrize("value", ["yes", 1, None, [], {}])
def test_a_save_with_a_bad_clock_off_is_refused(value: Any) -> None:
    st = ok("start", game=SD, seed=4, seats=VS_COMPUTERS)
    out = err("resume", save={**st["save"], "clock_off": value})
    assert out["code"] == "web.save"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.booleans()), min_size=1, max_size=12),
       st.integers(0, 50))
def test_any_changes_of_timers_keep_a_save_that_resumes_to_the_same_table(
        steps: list[tuple[int, int, bool]], seed: int) -> None:
    web.reset_tables()
    ok("start", game=SD, seed=seed, seats=VS_COMPUTERS)
    kept: list[str] = []
    for timers, moves, timeout in steps:
        s = web.table_session("main")
        if timeout and s.to_act() == 0 and "timeout" in s.legal() and not ok("state").get("save", {}).get("clock_off"):
            ok("act", action="timeout", seat=0)
        state = play(moves, pick=moves)
        state = ok("set_timers", timers=TIMERS[timers])
        kept = [a for r in state["save"]["record"]["rounds"] for a in r["actions"]]
        assert state["timers"]["value"] == TIMERS[timers]
        session = Session.from_record(state["save"]["record"], seed=state["save"]["seed"])
        assert session.to_act() == web.table_session("main").to_act()
        resumed = ok("resume", table="other", save=state["save"])
        assert position(resumed) == position(state) and resumed["timers"] == state["timers"]
    assert kept == [a for r in ok("state")["save"]["record"]["rounds"] for a in r["actions"]]


def test_a_challenge_keeps_the_senders_timers() -> None:
    """A challenge is played with the sender's options; its save is checked
    against the link on resume, so changing timers there would write a save
    that no longer resumes: refused, the table and its save unchanged."""
    from chkobba.links import challenge as C
    options = Session.new(SD, {"timers": {"call": 10, "card": 12}}, seed=4).record()["options"]
    c = C.Challenge(SD, options, 4, (None, "easy", "easy", "easy"),
                    {"won": False, "score": [0, 500], "games": [0, 1], "rounds": 2})
    st = ok("challenge_start", link=C.encode_challenge(c))
    assert st["timers"] == {"value": {"call": 10, "card": 12}, "changeable": False}
    refused = err("set_timers", timers=False)
    assert refused["code"] == "web.timers.challenge"
    assert ok("state")["save"] == st["save"]
    assert ok("resume", save=st["save"], table="again")["timers"]["value"] == {"call": 10, "card": 12}
