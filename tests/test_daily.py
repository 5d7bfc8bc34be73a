"""The daily deal (chkobba/daily.py): dates in Tunisia's time, the same cards and
the same computer moves everywhere, par, the result and its share text."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta, timezone
from typing import Any

import pytest

from chkobba import daily as D
from chkobba.messages import render
from chkobba.records import replay
from chkobba.session import Session


# ------------------------------------------------------------------ dates

def test_tunis_is_utc_plus_one_all_year() -> None:
    # 22:59:59 UTC is 23:59:59 in Tunis; 23:00 UTC is the next day, summer and winter alike
    for month in (1, 7):
        base = datetime(2026, month, 15, tzinfo=timezone.utc)
        assert D.tunis_date(base + timedelta(hours=22, minutes=59, seconds=59)) == f"2026-{month:02d}-15"
        assert D.tunis_date(base + timedelta(hours=23)) == f"2026-{month:02d}-16"
        assert D.tunis_date((base + timedelta(hours=23)).timestamp()) == f"2026-{month:02d}-16"
    # an instant in another zone is the same moment
    paris_summer = datetime(2026, 7, 15, 23, 30, tzinfo=timezone(timedelta(hours=2)))  # 21:30 UTC
    assert D.tunis_date(paris_summer) == "2026-07-15"
    assert D.tunis_date(datetime(2026, 12, 31, 23, 0, tzinfo=timezone.utc)) == "2027-01-01"


def test_the_tunis_zone_matches_tzdata_where_it_exists() -> None:
    try:
        from zoneinfo import ZoneInfo
        tz = ZoneInfo("Africa/Tunis")
    except Exception:  # no tzdata here: the module does not need it either
        pytest.skip("no time-zone database")
    for month in range(1, 13):
        for year in (2010, 2026):
            moment = datetime(year, month, 1, 12, tzinfo=timezone.utc)
            assert moment.astimezone(tz).utcoffset() == timedelta(hours=1)


@pytest.mark.parametrize("bad", ["2026-13-01", "2026-02-30", "26-12-01", "2026-12-1", " 2026-12-01",
                                 "2026-12-01\n", "", 1e30, float("nan"), None, [2026, 12, 1], "２０２６-12-01"])
def test_a_bad_date_is_one_clear_error(bad: object) -> None:
    with pytest.raises(D.DailyError) as e:
        D.daily(bad, "chkobba")  # type: ignore[arg-type]
    assert e.value.code in ("daily.date", "daily.instant", "daily.calendar")
    assert "\n" not in str(e.value)


def test_a_naive_datetime_and_an_unknown_game_are_refused() -> None:
    with pytest.raises(D.DailyError) as e:
        D.daily(datetime(2026, 12, 1, 12), "chkobba")
    assert e.value.code == "daily.instant"
    with pytest.raises(D.DailyError) as e:
        D.daily("2026-12-01", "poker")
    assert e.value.code == "daily.game"
    assert '"poker"' in str(e.value)


def test_a_day_is_over_at_midnight_in_tunis() -> None:
    assert not D.day_over("2026-12-01", datetime(2026, 12, 1, 22, 59, 59, tzinfo=timezone.utc))
    assert D.day_over("2026-12-01", datetime(2026, 12, 1, 23, 0, tzinfo=timezone.utc))
    assert not D.day_over("2026-12-02", datetime(2026, 12, 1, 23, 0, tzinfo=timezone.utc))
    with pytest.raises(D.DailyError):
        D.day_over("yesterday", 0)


def test_a_date_an_instant_and_a_date_object_name_the_same_deal() -> None:
    a = D.daily("2026-12-01", "chkobba")
    b = D.daily(date(2026, 12, 1), "chkobba")
    c = D.daily(datetime(2026, 11, 30, 23, 30, tzinfo=timezone.utc), "chkobba")
    assert a == b == c
    assert D.daily("2026-12-02", "chkobba").seed != a.seed
    assert D.daily("2026-12-01", "seven_diamonds").seed != a.seed


# --------------------------------------------------------- the same cards

def test_the_deal_is_fixed_by_the_date() -> None:
    # pinned: a change here changes everyone's daily deal
    a = D.daily("2026-12-01", "chkobba")
    s1, s2 = a.session(), a.session()
    assert s1.record() == s2.record()
    assert a.seed == D.deal_seed("2026-12-01", "chkobba")
    other = D.daily("2026-12-02", "chkobba").session()
    assert other.record()["rounds"][0]["decks"] != s1.record()["rounds"][0]["decks"]
    sd = D.daily("2026-12-01", "seven_diamonds").session()
    assert sd.game == "seven_diamonds" and sd.players == 4
    assert sd.record()["options"]["timers"] is False
    assert "timeout" not in sd.legal()


def test_the_seats_are_the_issues() -> None:
    assert D.daily("2026-12-01", "chkobba").seats == (None, "hard")
    assert D.daily("2026-12-01", "seven_diamonds").seats == (None, "hard", "hard", "hard")
    for budget in D.DAILY_BUDGETS.values():
        assert budget.ms is None and budget.rollouts  # never the clock


# ---------------------------------------------- the same computer moves

def _play(deal: D.Daily, human: random.Random) -> Session:
    s = deal.session()
    while not D.round_over(s):
        D.play_computers(deal, s)
        if D.round_over(s):
            break
        assert s.to_act() == D.HUMAN_SEAT
        s.apply(human.choice(s.legal()))
    return s


@pytest.mark.parametrize("game", D.GAMES)
def test_the_computers_play_the_same_moves_every_time(game: str) -> None:
    deal = D.daily("2026-12-01", game)
    a = _play(deal, random.Random(3))
    b = _play(deal, random.Random(3))
    assert a.record() == b.record()
    # the record replays and the round is the first one
    replay(a.record())
    assert len(a.summary()["rounds"]) == 1


def test_a_computer_decision_is_the_same_from_a_resumed_save() -> None:
    """A phone that reloads mid-round meets the same decision: it depends only on
    the deal and the position, not on the session object or earlier calls."""
    deal = D.daily("2026-12-03", "chkobba")
    s = deal.session()
    human = random.Random(5)
    checked = 0
    while not D.round_over(s) and checked < 6:
        seat = s.to_act()
        if seat == D.HUMAN_SEAT:
            s.apply(human.choice(s.legal()))
            continue
        resumed = Session.from_record(s.record(), seed=s.seed)
        a = D.computer_choice(deal, s)
        assert D.computer_choice(deal, resumed) == a
        s.apply(a)
        checked += 1
    assert checked == 6


def test_computer_choice_refuses_a_seat_not_to_act_and_the_end() -> None:
    deal = D.daily("2026-12-01", "chkobba")
    s = deal.session()
    seat = s.to_act()
    assert seat is not None
    with pytest.raises(D.DailyError) as e:
        D.computer_choice(deal, s, 1 - seat)
    assert e.value.code == "daily.not_turn"
    s = _play(deal, random.Random(1))
    with pytest.raises(D.DailyError) as e:
        D.computer_choice(deal, s)
    assert e.value.code == "daily.round_over"
    assert D.play_computers(deal, s) == []


# ------------------------------------------------------------------ par

@pytest.mark.parametrize("game", D.GAMES)
def test_par_is_the_round_played_by_the_computers(game: str) -> None:
    p = D.par("2026-12-01", game)
    assert p == D.par("2026-12-01", game)
    rec = p["record"]
    summary = replay(rec)
    assert summary is not None
    deal = D.daily("2026-12-01", game)
    # the same cards as the player's
    assert rec["rounds"][0]["decks"][0] == deal.session().record()["rounds"][0]["decks"][0]
    # replaying the computers' choices in every seat gives the par record
    s = deal.session()
    D.play_computers(deal, s, frozenset(range(len(deal.seats))))
    assert s.record() == rec
    assert p["result"] == D.round_result(deal, s.summary()["rounds"][0])


@pytest.mark.parametrize("game", D.GAMES)
def test_playing_pars_moves_scores_par(game: str) -> None:
    """A player who plays exactly what the computer would in their seat meets the
    same opponents' moves and scores par exactly (margin 0)."""
    deal = D.daily("2026-12-04", game)
    s = deal.session()
    while not D.round_over(s):
        D.play_computers(deal, s)
        if not D.round_over(s):
            s.apply(D.computer_choice(deal, s, D.HUMAN_SEAT))
    res = D.result(deal, s)
    assert res["margin"] == 0 and res["you"] == res["par"]
    assert str(D.share(res)).count("level with par") == 1


# ---------------------------------------------------------- result, share

def test_result_against_par_and_its_share_text() -> None:
    deal = D.daily("2026-12-01", "chkobba")
    s = _play(deal, random.Random(11))
    res = D.result(deal, s)
    rnd = s.summary()["rounds"][0]
    assert res["points"] == rnd["points"][0]
    assert res["par_points"] == D.par("2026-12-01", "chkobba")["result"]["points"]
    assert res["margin"] == res["points"] - res["par_points"]
    msg = D.share(res)
    assert msg.code == "daily.share.chkobba"
    text = str(msg)
    assert "2026-12-01" in text and f"score {res['points']}," in text
    # no card is named in the share text
    for code in s.record()["rounds"][0]["decks"][0]:
        assert code not in text


def test_share_words_each_case() -> None:
    base: dict[str, Any] = {"date": "2026-12-01", "game": "chkobba", "points": 3, "par_points": 1, "margin": 2,
            "you": {"points": 3, "other": 1, "categories": ["karta", "haya"], "chkobbas": 1},
            "par": {"points": 1, "other": 3, "categories": ["dinari"], "chkobbas": 0}}
    assert str(D.share(base)) == ("Chkobba, daily deal of 2026-12-01: score 3, par 1 (2 above par). "
                                  "Won: karta (most cards), the 7 of diamonds. Chkobbas: 1")
    none = dict(base, points=0, margin=-1, par_points=1, you=dict(base["you"], categories=[], chkobbas=0))
    assert str(D.share(none)) == ("Chkobba, daily deal of 2026-12-01: score 0, par 1 (1 below par). "
                                  "Won: none. Chkobbas: 0")
    sd: dict[str, Any] = {"date": "2026-12-01", "game": "seven_diamonds", "points": 120, "par_points": 0, "margin": 120,
          "you": {"points": 120, "other": 0, "won": True, "multiplier": 2, "bonus": 0, "cards": 60},
          "par": {"points": 0, "other": 40, "won": False, "multiplier": 1, "bonus": 0, "cards": 40}}
    assert str(D.share(sd)) == ("Seven Diamonds, daily deal of 2026-12-01: score 120, par 0 "
                                "(120 above par); my team went out first")
    # no "1 points": the number is a score, not a count to agree with
    one = dict(base, points=1, margin=0)
    assert str(D.share(one)).startswith("Chkobba, daily deal of 2026-12-01: score 1, par 1 (")
    # the message renders from its code and params (what a page translates)
    m = D.share(sd)
    assert render(m.code, m.params) == str(m)


def test_result_before_the_end_is_refused() -> None:
    deal = D.daily("2026-12-01", "chkobba")
    with pytest.raises(D.DailyError) as e:
        D.result(deal, deal.session())
    assert e.value.code == "daily.not_over"


def test_doctests() -> None:
    import doctest
    result = doctest.testmod(D, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
