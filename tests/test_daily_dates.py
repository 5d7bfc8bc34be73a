"""Dates that cannot hurt (issue 37), through the facade's calls: a deal
dated after today (Tunisia's calendar) opens only as an error saying when it
will be playable; the streak counts only days up to today; an imported file
with a later daily row is refused in words; a moment outside what a date
can hold is one clear error, never ``web.internal``."""

from __future__ import annotations

import json
from datetime import date as Date
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import daily as D
from chkobba import daily_results as R
from chkobba import stats as S
from chkobba import web
from chkobba.web.edge import SEED_LIMIT
from facade_calls import err, ok

NOON = 1_796_126_400          # 2026-12-01 12:00 UTC: 13:00 in Tunis
TODAY = "2026-12-01"
LAST = int(datetime(9999, 12, 31, 22, 59, 59, tzinfo=timezone.utc).timestamp())   # 23:59:59 on 9999-12-31 in Tunis
CLEAR = {"daily.future", "daily.before", "daily.calendar", "daily.date", "web.daily.at"}


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def days(*dates: str, game: str = "chkobba") -> dict[str, Any]:
    return {"days": [[d, game, 3, 2] for d in sorted(dates)]}


def stats_with(*dates: str) -> dict[str, Any]:
    return S.to_file(S.with_daily(S.empty(), days(*dates)))


def future_save(day: str = "2030-01-01", game: str = "chkobba") -> dict[str, Any]:
    """A daily save of a later day's deal, as a page could have stored it
    (its seed is the deal's: the deal's seed is public)."""
    deal = D.daily(day, game)
    s = deal.session()
    seats = [{"kind": "human"} if lv is None else {"kind": "computer", "level": lv} for lv in deal.seats]
    return {"v": 2, "game": game, "record": s.record(), "seed": deal.seed, "seats": seats, "coach": False,
            "daily": day}


# ----------------------------------------------------------- a later date

@pytest.mark.parametrize("game", D.GAMES)
def test_a_later_days_deal_opens_only_as_an_error_saying_when(game: str) -> None:
    ok("start", seed=1)
    before = ok("state")["save"]
    for call, extra in (("daily_start", {}), ("daily_par", {}), ("daily_par_step", {})):
        out = err(call, date="2026-12-02", game=game, at=NOON, **extra)
        assert out["code"] == "daily.future", (call, out)
        assert "2026-12-02" in out["error"] and "00:00 in Tunisia" in out["error"] and TODAY in out["error"]
        assert out["params"] == {"date": "2026-12-02", "today": TODAY}
    # without the page's moment, the facade's own clock says what today is
    assert err("daily_start", date="9999-12-31", game=game)["code"] == "daily.future"
    assert ok("state")["save"] == before            # nothing changed
    # 23:00 UTC on the 1st is the 2nd in Tunis: the 2nd's deal opens then, not a second before
    assert err("daily_start", date="2026-12-02", game=game, at=NOON + 11 * 3600 - 1)["code"] == "daily.future"
    assert ok("daily_start", date="2026-12-02", game=game, at=NOON + 11 * 3600)["save"]["daily"] == "2026-12-02"


def test_a_saved_later_deal_never_resumes_nor_plays_nor_counts() -> None:
    save = future_save()
    out = err("resume", save=save)
    assert out["code"] == "web.save" and out["params"]["reason"]["code"] == "daily.future"
    assert "2030-01-01" in out["error"]
    assert err("daily_choose", save=save, seat=1)["params"]["reason"]["code"] == "daily.future"
    assert err("daily_result", save=save, stats=None)["params"]["reason"]["code"] == "daily.future"


def test_a_result_is_refused_when_its_day_is_after_the_pages_today() -> None:
    st_ = ok("daily_start", date=TODAY, at=NOON)
    out = err("daily_result", save=st_["save"], stats=None, at=NOON - 86_400)   # the page's clock: the day before
    assert out["code"] == "daily.future" and out["params"] == {"date": TODAY, "today": "2026-11-30"}


def test_no_deal_before_the_first_day_a_result_link_can_date() -> None:
    out = err("daily_start", date="1999-12-31", at=NOON)
    assert out["code"] == "daily.before" and "2000-01-01" in out["error"]
    assert err("daily_start", at=0)["code"] == "daily.before"        # 1970-01-01 by the page's clock
    assert ok("daily_start", date="2000-01-01", at=NOON)["save"]["daily"] == "2000-01-01"


# ------------------------------------------------------------ the streak

def test_a_later_row_neither_ends_nor_makes_the_streak() -> None:
    three = ("2026-11-29", "2026-11-30", TODAY)
    for extra in ((), ("2030-01-01",), ("2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05")):
        out = ok("stats_view", stats=stats_with(*three, *extra), now=NOON)
        assert out["daily"]["chkobba"]["streak"] == 3, extra
        assert out["daily"]["chkobba"]["best_streak"] == 3, extra
        assert out["daily"]["any"]["streak"] == 3, extra
    assert R.summary(days(*three, "2030-01-01"), TODAY)["chkobba"]["streak"] == 3


def test_an_imported_file_with_a_later_daily_row_is_refused_in_words() -> None:
    kept = stats_with("2026-11-30")
    text = S.to_text(S.with_daily(S.empty(), days("2026-11-29", "2030-01-01")))
    out = err("stats_import", stats=kept, text=text, now=NOON)
    assert out["code"] == "stats.file"
    reason = out["params"]["reason"]
    assert reason["code"] == "stats.file.daily_future"
    assert reason["params"]["date"] == "2030-01-01" and reason["params"]["today"] == TODAY
    assert "2030-01-01" in out["error"] and "after today" in out["error"]
    # an older page's daily results: the same
    moved = err("stats_daily_move", stats=kept, results=days("2030-01-01"), now=NOON)
    assert moved["params"]["reason"]["code"] == "stats.file.daily_future"
    # a file of days up to today is taken
    good = S.to_text(S.with_daily(S.empty(), days("2026-11-29", TODAY)))
    assert ok("stats_import", stats=kept, text=good, now=NOON)["added_days"] == 2


# ------------------------------------------------- moments a date cannot hold

@pytest.mark.parametrize("at", [LAST + 1, LAST + 3600, 253_402_300_800, SEED_LIMIT])
def test_a_moment_past_the_calendar_is_one_clear_error(at: int) -> None:
    # 9999-12-31 23:00 UTC is already the year 10000 in Tunis (astimezone overflows)
    for call, args in (("daily_today", {"at": at}), ("daily_start", {"at": at}), ("daily_par", {"at": at}),
                       ("daily_start", {"date": TODAY, "at": at}), ("daily_replay", {"date": TODAY, "at": at})):
        out = err(call, **args)
        assert out["code"] == "daily.calendar", (call, out)
        assert "9999-12-31" in out["error"]


def test_the_last_moment_of_the_calendar_and_the_first_day() -> None:
    assert ok("daily_today", at=LAST)["date"] == "9999-12-31"
    assert ok("daily_today", at=0) == {"date": "1970-01-01", "yesterday": "1969-12-31",
                                       "games": list(D.GAMES)}
    assert D.day_before("0001-01-01") is None
    first = days("0001-01-01")
    assert R.summary(first, "0001-01-01")["chkobba"]["streak"] == 1           # no day before it to look at
    assert D.tunis_date(datetime(1, 1, 1, 1, 30, tzinfo=timezone(timedelta(hours=2)))) == "0001-01-01"
    assert D.tunis_date(datetime(9999, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=1)))) == "9999-12-31"
    with pytest.raises(D.DailyError) as e:
        D.tunis_date(datetime(9999, 12, 31, 23, 0, tzinfo=timezone.utc))
    assert e.value.code == "daily.calendar"


def test_stats_now_past_the_calendar_is_one_clear_error() -> None:
    out = err("stats_view", stats=None, now=LAST + 3600)
    assert out["code"] == "daily.calendar"


# ----------------------------------------------------------------- fuzz

edge_moments = st.one_of(st.integers(0, SEED_LIMIT), st.integers(LAST - 86_400 * 2, LAST + 86_400 * 2),
                         st.sampled_from([0, 1, LAST, LAST + 1, SEED_LIMIT, SEED_LIMIT + 1, -1, 2**63]))
any_date = st.dates(min_value=Date.min, max_value=Date.max).map(Date.isoformat)


@settings(max_examples=150, deadline=None)
@given(day=any_date, at=edge_moments, game=st.sampled_from(D.GAMES))
def test_any_date_at_any_moment_opens_only_up_to_today(day: str, at: int, game: str) -> None:
    web.reset_tables()
    out = web_call("daily_start", date=day, game=game, at=at)
    if not 0 <= at <= SEED_LIMIT:
        assert out["code"] == "web.daily.at"
        return
    try:
        today = D.tunis_date(at)
    except D.DailyError:
        assert out["code"] == "daily.calendar"
        return
    if day > today:
        assert out["code"] == "daily.future" and out["params"] == {"date": day, "today": today}
    elif day < D.FIRST_DAY:
        assert out["code"] == "daily.before"
    else:
        assert out["ok"]["save"]["daily"] == day


@settings(max_examples=150, deadline=None)
@given(at=edge_moments, rows=st.lists(any_date, max_size=6, unique=True))
def test_any_moment_and_any_rows_give_a_summary_or_one_clear_error(at: int, rows: list[str]) -> None:
    out = web_call("daily_today", at=at)
    assert "ok" in out or out["code"] in CLEAR, out
    stats_file = stats_with(*rows)
    out = web_call("stats_view", stats=stats_file, now=at)
    assert "ok" in out or out["code"] in CLEAR | {"web.stats.now"}, out
    if "ok" in out:
        today = Date.fromisoformat(D.tunis_date(at))
        kept = sorted(Date.fromisoformat(r) for r in rows if Date.fromisoformat(r) <= today)
        streak = 0
        if kept and (today - kept[-1]).days <= 1:
            streak = 1
            while streak < len(kept) and (kept[-streak] - kept[-streak - 1]).days == 1:
                streak += 1
        assert out["ok"]["daily"]["chkobba"]["streak"] == streak
        text = S.to_text(S.with_daily(S.empty(), days(*rows)))
        imported = web_call("stats_import", stats=None, text=text, now=at)
        later = [r for r in rows if r > today.isoformat()]
        if later:
            assert imported["params"]["reason"]["code"] == "stats.file.daily_future"
        else:
            assert "ok" in imported, imported


def web_call(name: str, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(web.call(name, json.dumps(args)))
    assert out.get("code") != "web.internal", (name, args, out)
    return out
