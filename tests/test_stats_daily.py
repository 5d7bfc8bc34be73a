"""The statistics file with the daily results and the games with take-backs
(issue 25; docs/stats.md, version 3): strict reading, old files still read,
export/import/merge round trips, and the facade's calls."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import daily_results as R
from chkobba import stats as S
from chkobba.session import Session
from facade_calls import err, ok

GROUP = {"game": "chkobba", "variant": {"players": 2, "capture": "optional", "target": 11, "match": 1},
         "level": "hard"}
SD_GROUP = {"game": "seven_diamonds", "variant": {"players": 4, "calls": True, "target": 100}, "level": "hard"}


def file(version: int, matches: list[list[Any]], **extra: Any) -> str:
    return json.dumps({"format": "chkobba-stats", "version": version, "groups": [GROUP], "matches": matches,
                       **extra})


ROW = ["0" * 23 + "1", 0, 5, True, 1, 11, 2]


def test_older_files_read_with_no_daily_results_and_no_takebacks() -> None:
    for version in (1, 2):
        s = S.from_text(file(version, [ROW]))
        assert S.daily_of(s) == R.empty()
        t = S.totals(s)[0]
        assert (t["takeback_matches"], t["takeback_wins"]) == (0, 0)
        assert S.to_file(s)["version"] == 1 and "daily" not in S.to_file(s)


def test_a_version_3_file_carries_takebacks_and_daily_results() -> None:
    days = {"days": [["2026-12-01", "chkobba", 3, 1], ["2026-12-02", "seven_diamonds", 0, 40]]}
    s = S.from_text(file(3, [ROW + [2], ["0" * 23 + "2", 0, 6, False, 1, 4, 0, 1], ["0" * 23 + "3", 0, 7, True, 1, 11, 0]],
                         daily=days))
    t = S.totals(s)[0]
    assert (t["matches"], t["wins"], t["takeback_matches"], t["takeback_wins"]) == (3, 2, 2, 1)
    assert S.daily_of(s) == days
    out = S.to_file(s)
    assert out["version"] == 3 and out["daily"] == days and out["matches"][0] == ROW + [2]
    assert S.from_file(out) == s


@pytest.mark.parametrize("text,reason", [
    (file(2, [ROW + [1]]), "stats.file.value"),                 # an eighth field before version 3
    (file(1, [], daily={"days": []}), "stats.file.key"),        # daily before version 3
    (file(3, [ROW + [0]]), "stats.file.value"),                 # a row says its take-backs only when there were some
    (file(3, [ROW + [True]]), "stats.file.value"),
    (file(3, [ROW + [1, 1]]), "stats.file.value"),
    (file(3, [], daily={"days": [["2026-13-01", "chkobba", 1, 1]]}), "stats.file.value"),
    (file(3, [], daily={"days": [["2026-12-01", "chess", 1, 1]]}), "stats.file.value"),
    (file(3, [], daily={"days": [["2026-12-01", "chkobba", 1, 1], ["2026-12-01", "chkobba", 2, 1]]}),
     "stats.file.twice"),
    (file(3, [], daily={"days": [], "best": 3}), "stats.file.key"),
    (file(3, [], daily=[]), "stats.file.value"),
])
def test_bad_takebacks_or_daily_results_are_refused_in_words(text: str, reason: str) -> None:
    with pytest.raises(S.StatsError) as e:
        S.from_text(text)
    assert e.value.code == "stats.file"
    assert e.value.params["reason"]["code"] == reason    # type: ignore[index,call-overload]


def test_folded_games_with_takebacks_stay_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(S, "MAX_MATCHES", 2)
    s = S.empty()
    for n in range(5):
        s = S.add_row(s, GROUP, [f"{n + 1:024x}", 0, n, n % 2 == 0, 1, 3, 0] + ([1] if n < 3 else []))
    t = S.totals(s)[0]
    assert (t["matches"], t["wins"], t["takeback_matches"], t["takeback_wins"]) == (5, 3, 3, 2)
    out = S.to_file(s)
    assert out["version"] == 3 and out["groups"][0]["earlier"]["takeback_matches"] == 3
    assert S.from_file(out) == s


days_st = st.lists(st.tuples(st.dates(min_value=__import__("datetime").date(2026, 1, 1),
                                      max_value=__import__("datetime").date(2026, 1, 20)).map(lambda d: d.isoformat()),
                             st.sampled_from(["chkobba", "seven_diamonds"]), st.integers(0, 200), st.integers(0, 200)),
                   max_size=8)
# a match's numbers follow from its id (an id is made from the whole record)
rows_st = st.lists(st.integers(1, 40), max_size=8, unique=True).map(
    lambda ns: [(n, n % 3 != 0, n % 4, n % 5 % 2) for n in ns])


def build(rows: list[tuple[int, bool, int, int]], days: list[tuple[str, str, int, int]]) -> S.Stats:
    s = S.empty()
    for n, won, tb, g in rows:
        group = (GROUP, SD_GROUP)[g]
        s = S.add_row(s, group, [f"{n:024x}", 0, n, won, 1, n % 7, n % 3 if g == 0 else 0] + ([tb] if tb else []))
    for d in days:
        s = S.add_daily(s, {"date": d[0], "game": d[1], "points": d[2], "par_points": d[3]})
    return s


@settings(max_examples=60, deadline=None)
@given(rows_st, days_st, rows_st, days_st)
def test_any_file_with_daily_and_takeback_rows_round_trips_export_import_merge(
        ra: Any, da: Any, rb: Any, db: Any) -> None:
    a, b = build(ra, da), build(rb, db)
    for s in (a, b):
        assert S.from_text(S.to_text(s)) == s                      # export, import
        assert S.merge(S.empty(), S.from_text(S.to_text(s))) == s   # import into an empty store
        assert S.merge(s, s) == s                                  # importing one's own export adds nothing
    ab, ba = S.merge(a, b), S.merge(b, a)
    assert S.daily_of(ab) == S.daily_of(ba) == R.merge(S.daily_of(a), S.daily_of(b))
    assert S.totals(ab) == S.totals(ba)
    assert S.from_text(S.to_text(ab)) == ab
    assert sum(t["takeback_matches"] for t in S.totals(ab)) == len(
        {r[0] for r in ra if r[2]} | {r[0] for r in rb if r[2]})


# ------------------------------------------------------------------ the facade

def finished_save(takebacks: int) -> dict[str, Any]:
    s = Session.new("chkobba", {"players": 2}, seed=5)
    rng = random.Random(5)
    while s.to_act() is not None:
        s.apply(rng.choice(s.legal()))
    save = {"v": 2, "game": "chkobba", "record": s.record(), "seed": s.seed,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "hard"}], "coach": False}
    if takebacks:
        save["takebacks"] = takebacks
    return save


def test_stats_add_counts_a_game_with_takebacks_apart() -> None:
    out = ok("stats_add", save=finished_save(3), at=1000, now=1_796_166_400)
    row = out["rows"][0]
    assert row["matches"] == 1 and row["takeback_matches"] == 1
    assert row["takeback_wins"] == row["wins"]
    assert out["stats"]["version"] == 3 and out["stats"]["matches"][0][7] == 3
    plain = ok("stats_add", save=finished_save(0), at=1000)
    assert plain["rows"][0]["takeback_matches"] == 0 and len(plain["stats"]["matches"][0]) == 7
    assert set(out["daily"]) == {"chkobba", "seven_diamonds", "any"}


def test_the_old_daily_results_move_into_the_statistics_once() -> None:
    old = {"days": [["2026-11-30", "chkobba", 2, 1], ["2026-12-01", "chkobba", 0, 3]]}
    kept = ok("stats_add", save=finished_save(0), at=1000)["stats"]
    moved = ok("stats_daily_move", stats=kept, results=old, now=1_796_166_400)   # 2026-12-02 in Tunis
    assert moved["added"] == 2
    assert moved["stats"]["daily"] == old and moved["stats"]["matches"] == kept["matches"]
    assert moved["daily"]["chkobba"]["streak"] == 2 and moved["daily"]["chkobba"]["played"] == 2
    again = ok("stats_daily_move", stats=moved["stats"], results=old)
    assert again["added"] == 0 and again["stats"] == moved["stats"]
    exported = ok("stats_export", stats=moved["stats"])["text"]
    imported = ok("stats_import", stats=None, text=exported)
    assert imported["stats"]["daily"] == old and imported["added_days"] == 2 and imported["added"] == 1
    assert ok("stats_import", stats=imported["stats"], text=exported)["added_days"] == 0
    bad = err("stats_daily_move", stats=kept, results={"days": [["someday", "chkobba", 1, 1]]})
    assert bad["code"] == "stats.file"
    assert err("stats_view", now="today")["code"] == "web.stats.now"


# ------------------------------------------------------------------ the daily deal's side

NOON = 1_796_126_400        # 2026-12-01 12:00 UTC (13:00 in Tunis)


def test_a_daily_result_goes_into_the_statistics() -> None:
    from chkobba import web
    from test_web_daily import DATE, play_round
    web.reset_tables()
    st = play_round("chkobba")
    kept = ok("stats_add", save=finished_save(1), at=1000)["stats"]
    out = ok("daily_result", save=st["save"], stats=kept, at=NOON)
    assert out["stats"]["daily"]["days"] == [[DATE, "chkobba", out["result"]["points"], out["result"]["par_points"]]]
    assert out["stats"]["matches"] == kept["matches"]          # nothing else changed
    assert out["results"] == out["stats"]["daily"] and out["summary"]["chkobba"]["streak"] == 1
    again = ok("daily_result", save=st["save"], stats=out["stats"], at=NOON)
    assert again["stats"] == out["stats"]                        # the first result of a deal counts
    assert ok("daily_result", save=st["save"], stats=None, at=NOON)["stats"]["version"] == 3
    assert err("daily_result", save=st["save"], stats={"format": "chkobba-stats"})["code"] == "stats.file"
    web.reset_tables()


def test_yesterdays_replay_is_refused_until_the_day_is_over() -> None:
    from chkobba import links
    assert ok("daily_today", at=NOON) == {"date": "2026-12-01", "yesterday": "2026-11-30",
                                          "games": ["chkobba", "seven_diamonds"]}
    for day in ("2026-12-01", "2026-12-02", "2030-01-01"):
        e = err("daily_replay", date=day, game="chkobba", at=NOON)
        assert e["code"] == "web.daily.not_yet" and "2026-12-01" in e["error"]
        assert err("daily_par_step", date=day, game="chkobba", at=NOON, over=True)["code"] == "web.daily.not_yet"
    # 23:00 UTC on the 30th is already the 1st in Tunis: the 30th is over
    out = ok("daily_replay", date="2026-11-30", game="chkobba", at=1_796_079_600)
    link = links.decode(out["link"])
    assert link.mode == "replay" and link.show is None and link.at == (1, 0)
    assert out["result"] == __import__("chkobba.daily").daily.par("2026-11-30", "chkobba")["result"]
    assert err("daily_par_step", date="2026-11-30", over="yes")["code"] == "web.daily.over"
    assert err("daily_replay", date="2026-11-31", at=NOON)["code"] == "daily.date"
