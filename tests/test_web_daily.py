"""The facade's daily deal: the date's cards, the daily computers, one
round, par, the result and its share text, the daily results."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from chkobba import daily, web
from chkobba import messages as M
from facade_calls import err, ok

DATE = "2026-12-01"


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def play_round(game: str, copy_par: bool = False) -> dict[str, Any]:
    """Play the daily round at the table: the person plays the first legal
    action (or par's own move), the computers by ``daily_choose``."""
    st = ok("daily_start", date=DATE, game=game)
    deal = daily.daily(DATE, game)
    while not daily.round_over(web.table_session("main")):
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if st["seats"][seat]["kind"] == "computer":
            action = ok("daily_choose", save=st["save"], seat=seat)["action"]
            assert action == str(daily.computer_choice(deal, s, seat))
        elif copy_par:
            action = str(daily.computer_choice(deal, s, seat))
        else:
            action = s.legal()[0]
        st = ok("act", action=action, seat=seat)
    return st  # type: ignore[no-any-return]


def test_the_daily_table_deals_the_dates_cards() -> None:
    st = ok("daily_start", date=DATE, game="chkobba")
    assert st["save"]["daily"] == DATE
    assert st["save"]["seed"] == daily.deal_seed(DATE, "chkobba")
    assert [s["kind"] for s in st["seats"]] == ["human", "computer"]
    assert st["seats"][1]["level"] == "hard"
    assert st["takeback"]["allowed"] is False
    again = ok("daily_start", date=DATE, game="chkobba", table="other")
    assert again["view"] == st["view"]
    sd = ok("daily_start", date=DATE, game="seven_diamonds")
    assert sd["game"] == "seven_diamonds" and len(sd["seats"]) == 4


def test_the_date_from_the_phones_clock_is_tunisias() -> None:
    at = 1_796_166_400   # 2026-12-01 23:06:40 UTC: already the 2nd in Tunis
    assert ok("daily_today", at=at)["date"] == "2026-12-02"
    assert ok("daily_start", at=at)["save"]["daily"] == "2026-12-02"


@pytest.mark.parametrize("date", ["2026-13-01", "2026-02-30", "01/12/2026", "", 20261201, None])
def test_a_bad_date_is_one_clear_error_and_changes_nothing(date: Any) -> None:
    ok("start", seed=1)
    before = ok("state")["save"]
    out = err("daily_start", date=date)
    assert out["code"] == "daily.date"
    assert "YYYY-MM-DD" in out["error"] and "\n" not in out["error"]
    assert ok("state")["save"] == before
    assert err("daily_start", date=DATE, game="poker")["code"] == "daily.game"
    assert err("daily_today", at=-1)["code"] == "web.daily.at"


def test_a_round_played_like_par_scores_par_and_shares_no_card() -> None:
    st = play_round("chkobba", copy_par=True)
    out = ok("daily_result", save=st["save"], at=1_796_126_400)   # 2026-12-01 12:00 UTC
    res = out["result"]
    assert res["margin"] == 0 and res["points"] == daily.par(DATE, "chkobba")["result"]["points"]
    text = M.render(out["share"]["code"], out["share"]["params"])
    assert text.startswith(f"Chkobba, daily deal of {DATE}") and "level with par" in text
    assert out["results"] == {"days": [[DATE, "chkobba", res["points"], res["par_points"]]]}
    assert out["summary"]["chkobba"]["streak"] == 1
    # one round: no move after it, no take-back
    assert err("act", action="keep", seat=0)["code"] in ("daily.round_over", "web.game_over")
    assert err("take_back")["code"] in ("takeback.mode", "takeback.round_over")
    # the first result of a date counts
    again = ok("daily_result", save=st["save"], results=out["results"])
    assert again["results"] == out["results"]


def test_seven_diamonds_daily_round_and_result() -> None:
    st = play_round("seven_diamonds")
    out = ok("daily_result", save=st["save"])
    assert out["result"]["game"] == "seven_diamonds"
    assert out["share"]["code"] == "daily.share.seven_diamonds"


def test_take_back_is_refused_in_the_daily_deal() -> None:
    st = ok("daily_start", date=DATE, game="chkobba")
    made = False
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        if seat == 0 and made:
            break
        if seat == 0:
            action, made = s.legal()[0], True
        else:
            action = ok("daily_choose", save=st["save"], seat=seat)["action"]
        st = ok("act", action=action, seat=seat)
    out = err("take_back")
    assert out["code"] == "takeback.mode" and "daily deal" in out["error"]


def test_daily_saves_are_checked() -> None:
    st = ok("daily_start", date=DATE, game="chkobba")
    save = st["save"]
    assert ok("resume", save=save)["save"]["daily"] == DATE
    for bad in ("2026-12-02", "yesterday", 5):
        out = err("resume", save={**save, "daily": bad})
        assert out["code"] == "web.save" and out["params"]["reason"]["code"] == "web.save.daily"
    plain = ok("start", seed=3)["save"]
    assert err("daily_choose", save=plain, seat=1)["code"] == "web.daily.not_daily"
    assert err("daily_result", save=save)["code"] == "daily.not_over"
