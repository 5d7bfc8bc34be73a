"""The player's daily results (chkobba/daily_results.py): each deal once, streaks,
the best, merging two phones' results, strict reading of a file."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import daily_results as R
from chkobba.stats import StatsError


def res(day: str, game: str = "chkobba", points: int = 2, par: int = 1) -> dict[str, Any]:
    return {"date": day, "game": game, "points": points, "par_points": par}


def test_doctests() -> None:
    result = doctest.testmod(R, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_a_deal_counts_once_the_first_result_is_kept() -> None:
    r = R.add(R.empty(), res("2026-12-01", points=1, par=3))
    again = R.add(r, res("2026-12-01", points=5, par=3))
    assert again == r == {"days": [["2026-12-01", "chkobba", 1, 3]]}
    both = R.add(r, res("2026-12-01", "seven_diamonds", 120, 0))
    assert len(both["days"]) == 2
    assert r == {"days": [["2026-12-01", "chkobba", 1, 3]]}  # add is pure


def test_streaks_and_best() -> None:
    r = R.empty()
    for day in ("2026-11-20", "2026-11-21", "2026-11-22", "2026-11-28", "2026-11-29", "2026-12-01", "2026-12-02"):
        r = R.add(r, res(day))
    r = R.add(r, res("2026-11-30", "seven_diamonds", 0, 40))
    s = R.summary(r, "2026-12-02")
    assert s["chkobba"]["streak"] == 2 and s["chkobba"]["best_streak"] == 3
    # any game: 28, 29, 30 (seven diamonds), 1, 2 in a row
    assert s["any"]["streak"] == 5 and s["any"]["best_streak"] == 5
    # today not played yet: yesterday's streak still stands; a missed day breaks it
    assert R.summary(r, "2026-12-03")["chkobba"]["streak"] == 2
    assert R.summary(r, "2026-12-04")["chkobba"]["streak"] == 0
    assert s["seven_diamonds"] == {"played": 1, "streak": 0, "best_streak": 1, "at_par": 0, "best_margin": -40,
                                   "best_points": 0, "last": ["2026-11-30", "seven_diamonds", 0, 40]}
    assert s["chkobba"]["best_margin"] == 1 and s["chkobba"]["at_par"] == 7
    empty = R.summary(R.empty(), "2026-12-02")
    assert empty["chkobba"]["best_margin"] is None and empty["any"]["streak"] == 0


def test_streaks_cross_months_and_years() -> None:
    r = R.empty()
    for day in ("2026-12-30", "2026-12-31", "2027-01-01", "2028-02-28", "2028-02-29", "2028-03-01"):
        r = R.add(r, res(day))
    s = R.summary(r, "2028-03-01")
    assert s["chkobba"]["streak"] == 3 and s["chkobba"]["best_streak"] == 3


rows = st.lists(st.tuples(st.dates().map(lambda d: d.isoformat()).filter(lambda d: len(d) == 10),
                          st.sampled_from(["chkobba", "seven_diamonds"]), st.integers(0, 500), st.integers(0, 500)),
                max_size=20)


def build(items: list[tuple[str, str, int, int]]) -> dict[str, Any]:
    r = R.empty()
    for day, game, p, q in items:
        r = R.add(r, res(day, game, p, q))
    return r


@settings(max_examples=80, deadline=None)
@given(rows, rows)
def test_merge_is_a_commutative_union_that_never_improves_a_result(a: Any, b: Any) -> None:
    ra, rb = build(a), build(b)
    m = R.merge(ra, rb)
    assert m == R.merge(rb, ra)
    assert R.merge(m, ra) == m  # importing the same file again changes nothing
    keys = {(r[0], r[1]) for r in ra["days"] + rb["days"]}
    assert {(r[0], r[1]) for r in m["days"]} == keys
    for row in m["days"]:
        ours = [r for r in ra["days"] + rb["days"] if r[:2] == row[:2]]
        assert row[2] - row[3] == min(r[2] - r[3] for r in ours)
    assert R.from_file(json.loads(json.dumps(m))) == m


@pytest.mark.parametrize("bad", [
    None, [], {"days": {}}, {}, {"days": [], "extra": 1},
    {"days": [["2026-12-01", "chkobba", 1]]},
    {"days": [["2026-13-01", "chkobba", 1, 1]]},
    {"days": [["2026-12-01", "poker", 1, 1]]},
    {"days": [["2026-12-01", "chkobba", -1, 1]]},
    {"days": [["2026-12-01", "chkobba", 1, True]]},
    {"days": [["2026-12-01", "chkobba", 1, 1.0]]},
    {"days": [["2026-12-01", "chkobba", 1, 10**30]]},
    {"days": [["2026-12-01", "chkobba", 1, 1], ["2026-12-01", "chkobba", 2, 1]]},
    {"days": [["x" * 10_000, "chkobba", 1, 1]]},
])
def test_a_bad_file_is_one_clear_error(bad: Any) -> None:
    with pytest.raises(StatsError) as e:
        R.from_file(bad)
    assert e.value.code == "stats.file"
    text = str(e.value)
    assert "\n" not in text and len(text) < 300, text


def test_too_many_rows_are_refused() -> None:
    days = [[f"{2000 + i // 365:04d}-01-01", "chkobba", 0, 0] for i in range(R.MAX_DAYS + 1)]
    with pytest.raises(StatsError) as e:
        R.from_file({"days": days})
    assert "daily results" in str(e.value)


def test_a_file_is_read_back_sorted() -> None:
    data = {"days": [["2026-12-02", "chkobba", 1, 1], ["2026-12-01", "seven_diamonds", 20, 0],
                     ["2026-12-01", "chkobba", 0, 2]]}
    assert R.from_file(data)["days"] == sorted(data["days"])
