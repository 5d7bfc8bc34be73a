"""One daily attempt (issue 37), through the facade's calls: opening today's
deal again resumes the round in progress, at any table, instead of dealing
it afresh (which let the computer's answers be watched and the round played
again differently); once the day's result is in, playing again is practice:
it never changes the day's result nor the streak, and makes no result link."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from chkobba import daily as D
from chkobba import web
from facade_calls import err, ok

DATE = "2026-12-01"
NOON = 1_796_126_400          # 2026-12-01 12:00 UTC


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def play(st_: dict[str, Any], moves: int = 10**6, pick: int = 0) -> dict[str, Any]:
    """Play at the main table: the person the ``pick``-th legal action, the
    computers by ``daily_choose``; ``moves`` of the person's at most."""
    while not D.round_over(web.table_session("main")):
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if st_["seats"][seat]["kind"] == "computer":
            action = ok("daily_choose", save=st_["save"], seat=seat)["action"]
        else:
            if moves == 0:
                return st_
            moves -= 1
            legal = s.legal()
            action = legal[pick % len(legal)]
        st_ = ok("act", action=action, seat=seat)
    return st_


def test_starting_the_deal_again_mid_round_resumes_it() -> None:
    first = ok("daily_start", date=DATE, at=NOON)
    mid = play(first, moves=3)
    record = mid["save"]["record"]
    assert len(record["rounds"][0]["actions"]) > 3
    again = ok("daily_start", date=DATE, at=NOON)
    assert again["save"]["record"] == record and again["view"] == mid["view"]
    assert first["resumed"] is False and again["resumed"] is True
    # another table id is no way round it: the round in progress moves there
    other = ok("daily_start", date=DATE, at=NOON, table="other")
    assert other["save"]["record"] == record and other["resumed"] is True
    assert err("state")["code"] == "web.no_table"
    # the other game's deal of the day is its own attempt
    assert ok("daily_start", date=DATE, game="seven_diamonds", at=NOON)["resumed"] is False


def test_once_the_result_is_in_playing_again_is_practice() -> None:
    st_ = play(ok("daily_start", date=DATE, at=NOON))
    first = ok("daily_result", save=st_["save"], stats=None, at=NOON)
    assert first["vs"]
    row = [r for r in first["stats"]["daily"]["days"] if r[0] == DATE]
    streak = first["summary"]["chkobba"]["streak"]
    # a round over is not in progress: starting again deals afresh
    st2 = play(ok("daily_start", date=DATE, at=NOON), pick=1)
    second = ok("daily_result", save=st2["save"], stats=first["stats"], at=NOON)
    assert second["vs"] is None                               # no result link for practice
    assert first["practice"] is False and second["practice"] is True
    assert second["stats"] == first["stats"]                  # the day's result and the streak unchanged
    assert [r for r in second["stats"]["daily"]["days"] if r[0] == DATE] == row
    assert second["summary"]["chkobba"]["streak"] == streak
    # an older page's results: the same
    old = ok("daily_result", save=st2["save"], results=first["stats"]["daily"], at=NOON)
    assert old["practice"] is True and old["vs"] is None and old["results"] == first["stats"]["daily"]
    # the start says so, given the statistics
    web.reset_tables()
    again = ok("daily_start", date=DATE, at=NOON, stats=first["stats"])
    assert again["resumed"] is False and again["practice"] is True
    assert ok("daily_start", date=DATE, game="seven_diamonds", at=NOON, stats=first["stats"])["practice"] is False
