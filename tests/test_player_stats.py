"""Player statistics (chkobba/stats.py, the facade's stats_* calls,
docs/stats.md): counted from the engine's own summary of finished matches,
each match once, files read strictly (hostile input gets one plain error)."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba import stats as S
from chkobba import web
from chkobba.errors import ChkobbaError
from chkobba.messages import MESSAGES, render
from chkobba.session import Session
from facade_calls import ok, err

FUZZ = int(os.environ.get("CHKOBBA_FUZZ", "1"))
EASY = {"kind": "computer", "level": "easy"}
HUMAN = {"kind": "human"}


def finished(game: str, options: dict[str, Any], seed: int) -> Session:
    """A match played to its end with random legal moves."""
    s = Session.new(game, options, seed=seed)
    rng = random.Random(seed)
    while s.to_act() is not None:
        s.apply(rng.choice(s.legal()))
    return s


def save_of(s: Session, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"v": 2, "game": s.game, "record": s.record(), "seed": s.seed, "seats": seats, "coach": False}


@pytest.fixture(scope="module")
def matches() -> list[Session]:
    return [finished("chkobba", {"players": 2}, seed) for seed in range(4)]


# ------------------------------------------------------------------- counting

def expected(s: Session, side: int) -> dict[str, Any]:
    """The numbers of one match straight from the replay output."""
    out = s.summary()
    return {"won": out["winner"] == side, "rounds": len(out["rounds"]),
            "points": sum(r["points"][side] for r in out["rounds"]),
            "chkobbas": sum(r.get("chkobba", [0, 0])[side] for r in out["rounds"])}


def test_a_finished_match_counts_from_the_engines_summary(matches: list[Session]) -> None:
    stats = S.empty()
    for i, s in enumerate(matches):
        stats = S.add_match(stats, s, [HUMAN, EASY], at=1000 + i)
    [row] = S.totals(stats)
    want = [expected(s, 0) for s in matches]
    assert row["game"] == "chkobba" and row["level"] == "easy"
    assert row["variant"] == {"players": 2, "capture": "optional", "target": 11, "match": 1}
    assert row["matches"] == 4
    assert row["wins"] == sum(w["won"] for w in want)
    assert row["rounds"] == sum(w["rounds"] for w in want)
    assert row["points"] == sum(w["points"] for w in want)
    assert row["chkobbas"] == sum(w["chkobbas"] for w in want)
    assert row["avg_points"] == round(row["points"] / row["rounds"], 2)
    wins = [w["won"] for w in want]
    best = cur = 0
    for w in wins:
        cur = cur + 1 if w else 0
        best = max(best, cur)
    assert (row["best_streak"], row["streak"]) == (best, cur)


def test_the_same_match_counts_once_and_an_unfinished_one_not_at_all(matches: list[Session]) -> None:
    once = S.add_match(S.empty(), matches[0], [HUMAN, EASY], at=1)
    assert S.add_match(once, matches[0], [HUMAN, EASY], at=2) == once
    going = Session.new("chkobba", {"players": 2}, seed=9)
    with pytest.raises(S.StatsError) as e:
        S.add_match(once, going, [HUMAN, EASY], at=3)
    assert e.value.code == "stats.not_over"


def test_groups_split_by_variant_level_and_game() -> None:
    four = finished("chkobba", {"players": 4, "capture": "compulsory"}, 3)
    seven = finished("seven_diamonds", {"target": 1, "timers": False}, 4)
    stats = S.add_match(S.empty(), four, [HUMAN, EASY, {"kind": "computer", "level": "hard"}, EASY], at=1)
    stats = S.add_match(stats, seven, [HUMAN, HUMAN, HUMAN, HUMAN], at=2)
    rows = S.totals(stats)
    assert [(r["game"], r["level"]) for r in rows] == [("chkobba", "mixed"), ("seven_diamonds", "none")]
    assert rows[0]["variant"] == {"players": 4, "capture": "compulsory", "target": 11, "match": 1}
    assert rows[1]["variant"] == {"players": 4, "calls": True, "target": 1}
    assert rows[1]["chkobbas"] == 0
    side = 0
    assert rows[1]["points"] == sum(r["points"][side] for r in seven.summary()["rounds"])
    assert rows[1]["wins"] == int(seven.summary()["winner"] == side)


def test_merge_counts_every_match_once(matches: list[Session]) -> None:
    a = S.empty()
    for i, s in enumerate(matches[:3]):
        a = S.add_match(a, s, [HUMAN, EASY], at=i)
    b = S.add_match(S.empty(), matches[3], [HUMAN, EASY], at=10)
    b = S.add_match(b, matches[0], [HUMAN, EASY], at=0)
    m = S.merge(a, b)
    assert S.totals(m)[0]["matches"] == 4
    assert S.merge(m, m) == m
    assert S.merge(m, a) == m
    assert S.totals(S.merge(b, a)) == S.totals(m)


def test_past_the_limit_old_matches_fold_into_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(S, "MAX_MATCHES", 3)
    group = {"game": "chkobba", "variant": S.variant_of("chkobba", {"players": 2, "capture": "optional",
                                                                   "target": 11, "match": 1}), "level": "easy"}
    wins = [True, True, False, True, True, True, False, True]
    stats = S.empty()
    for i, w in enumerate(wins):
        stats = S.add_row(stats, group, [f"{i:024x}", 0, i, w, 2, 3 + i, 1])
    assert len(stats["matches"]) == 3
    [row] = S.totals(stats)
    assert (row["matches"], row["wins"], row["rounds"], row["chkobbas"]) == (8, 6, 16, 8)
    assert row["points"] == sum(3 + i for i in range(8))
    assert (row["best_streak"], row["streak"]) == (3, 1)
    assert S.from_file(json.loads(json.dumps(S.to_file(stats)))) == stats


# ------------------------------------------------------------------- files

def test_a_file_round_trips_and_is_versioned(matches: list[Session]) -> None:
    stats = S.add_match(S.empty(), matches[1], [HUMAN, EASY], at=7)
    data = S.to_file(stats)
    assert data["format"] == "chkobba-stats" and data["version"] == 1
    assert S.from_text(S.to_text(stats)) == stats


BAD_FILES = [
    ("", "stats.file.json"),
    ("[", "stats.file.json"),
    ("NaN", "json.constant"),
    ('{"format": "chkobba-stats", "format": "chkobba-stats", "version": 1, "groups": [], "matches": []}',
     "json.duplicate_key"),
    ("[1, 2]", "stats.file.type"),
    ('{"format": "other", "version": 1, "groups": [], "matches": []}', "stats.file.format"),
    ('{"format": "chkobba-stats", "version": 5, "groups": [], "matches": []}', "stats.file.version"),
    ('{"format": "chkobba-stats", "version": 1, "groups": [], "matches": [], "x": 1}', "stats.file.key"),
    ('{"format": "chkobba-stats", "version": 1, "groups": []}', "stats.file.missing"),
    ('{"format": "chkobba-stats", "version": 1, "groups": [], "matches": [["' + "a" * 24 + '", 0, 1, true, 1, 1, 0]]}',
     "stats.file.value"),
    ("[" * 5000 + "]" * 5000, "stats.file.depth"),
    (" " * (S.MAX_TEXT + 1), "stats.file.size"),
]
GROUP = {"game": "chkobba", "variant": {"players": 2, "capture": "optional", "target": 11, "match": 1},
         "level": "easy"}


def valid_file(rows: int = 2) -> dict[str, Any]:
    return {"format": "chkobba-stats", "version": 1, "groups": [json.loads(json.dumps(GROUP))],
            "matches": [[f"{i:024x}", 0, i, i % 2 == 0, 3, 7, 1] for i in range(rows)]}


@pytest.mark.parametrize("text,reason", BAD_FILES)
def test_bad_files_are_refused_in_words(text: str, reason: str) -> None:
    with pytest.raises(S.StatsError) as e:
        S.from_text(text)
    assert e.value.code == "stats.file"
    assert e.value.params["reason"]["code"] == reason   # type: ignore[index,call-overload]
    assert "\n" not in str(e.value) and len(str(e.value)) < 300


@pytest.mark.parametrize("change", [
    lambda d: d["matches"][0].__setitem__(4, -1),           # negative rounds
    lambda d: d["matches"][0].__setitem__(5, 10**30),       # a huge count
    lambda d: d["matches"][0].__setitem__(3, 1),            # won must be true or false
    lambda d: d["matches"][0].__setitem__(1, 5),            # no such group
    lambda d: d["matches"][1].__setitem__(0, d["matches"][0][0]),   # the same match twice
    lambda d: d["groups"].append(dict(d["groups"][0])),            # the same group twice
    lambda d: d["groups"][0]["variant"].__setitem__("target", 12),
    lambda d: d["groups"][0]["variant"].__setitem__("players", 2.0),
    lambda d: d["groups"][0].__setitem__("level", "expert"),
    lambda d: d["groups"][0].__setitem__("earlier", {k: 1 for k in S.EARLIER} | {"wins": 2}),
    lambda d: d["matches"].extend([[f"{i:024x}", 0, 1, True, 1, 1, 0] for i in range(10, 5020)]),
])
def test_wrong_values_are_refused(change: Any) -> None:
    data = valid_file()
    S.from_file(json.loads(json.dumps(data)))
    change(data)
    with pytest.raises(S.StatsError) as e:
        S.from_file(data)
    assert e.value.code == "stats.file"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=60 * FUZZ, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(json_values)
def test_fuzzed_files_only_ever_raise_the_plain_error(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value)[:-1]):
        try:
            S.from_text(text)
        except S.StatsError as e:
            assert e.code == "stats.file"
            render(e.code, e.params)


def _mutate(data: Any, rng: random.Random, value: Any) -> Any:
    """``data`` with one value somewhere replaced, dropped or duplicated."""
    if isinstance(data, dict) and data:
        key = rng.choice(sorted(data))
        out = dict(data)
        what = rng.random()
        if what < 0.2:
            del out[key]
        elif what < 0.3:
            out[str(value)[:10]] = value
        elif what < 0.6:
            out[key] = value
        else:
            out[key] = _mutate(out[key], rng, value)
        return out
    if isinstance(data, list) and data:
        i = rng.randrange(len(data))
        out_list = list(data)
        what = rng.random()
        if what < 0.2:
            del out_list[i]
        elif what < 0.3:
            out_list.insert(i, out_list[i])
        elif what < 0.6:
            out_list[i] = value
        else:
            out_list[i] = _mutate(out_list[i], rng, value)
        return out_list
    return value


@settings(max_examples=100 * FUZZ, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.integers(0, 2**32), json_values)
def test_mutated_files_are_read_or_refused_in_words(seed: int, value: Any) -> None:
    data = _mutate(valid_file(3), random.Random(seed), value)
    try:
        stats = S.from_text(json.dumps(data))
    except S.StatsError as e:
        assert e.code == "stats.file"
        return
    assert S.from_text(S.to_text(stats)) == stats


rows = st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.integers(1, 40), st.integers(0, 400),
                          st.integers(0, 30), st.integers(0, 2**53)), max_size=30)


@settings(max_examples=60 * FUZZ, deadline=None)
@given(rows, st.integers(0, 30))
def test_round_trip_and_merge_properties(items: list[tuple[int, bool, int, int, int, int]], cut: int) -> None:
    groups = [dict(GROUP, level=level) for level in ("easy", "medium", "hard", "none")]
    stats = S.empty()
    for n, (g, won, rounds, points, chk, at) in enumerate(items):
        stats = S.add_row(stats, groups[g], [f"{n:024x}", 0, at, won, rounds, points, chk])
    assert S.from_text(S.to_text(stats)) == stats
    assert S.from_file(json.loads(S.to_text(stats))) == stats
    # two phones: a history split anywhere, with an overlap, merges back to the whole
    a, b = S.empty(), S.empty()
    for n, (g, won, rounds, points, chk, at) in enumerate(items):
        row = [f"{n:024x}", 0, at, won, rounds, points, chk]
        if n < cut + 2:
            a = S.add_row(a, groups[g], row)
        if n >= cut:
            b = S.add_row(b, groups[g], row)
    assert S.totals(S.merge(a, b)) == S.totals(stats)
    assert S.totals(S.merge(S.merge(a, b), b)) == S.totals(stats)


# ------------------------------------------------------------------- facade

def test_facade_add_view_export_import(matches: list[Session]) -> None:
    first = ok("stats_add", save=save_of(matches[0], [HUMAN, EASY]), at=100)
    assert first["added"] is True
    again = ok("stats_add", save=save_of(matches[0], [HUMAN, EASY]), stats=first["stats"], at=200)
    assert again["added"] is False and again["stats"] == first["stats"]
    both = ok("stats_add", save=save_of(matches[1], [HUMAN, EASY]), stats=first["stats"], at=300)
    [row] = both["rows"]
    assert row["matches"] == 2
    assert row["game_label"]["code"] == "stats.game.chkobba"
    assert [p["code"] for p in row["variant_labels"]] == ["stats.players", "stats.capture.optional",
                                                          "stats.target", "stats.match.1"]
    assert all(p["code"] in MESSAGES for p in row["variant_labels"] + [row["level_label"]])
    text = ok("stats_export", stats=both["stats"])["text"]
    fresh = ok("stats_import", text=text)
    assert fresh["added"] == 2 and fresh["rows"] == both["rows"]
    twice = ok("stats_import", text=text, stats=fresh["stats"])
    assert twice["added"] == 0 and twice["rows"] == both["rows"]
    assert ok("stats_view", stats=both["stats"])["rows"] == both["rows"]
    assert ok("stats_view")["rows"] == []


def test_facade_refusals_are_plain(matches: list[Session]) -> None:
    going = Session.new("chkobba", {"players": 2}, seed=5)
    assert err("stats_add", save=save_of(going, [HUMAN, EASY]))["code"] == "stats.not_over"
    assert err("stats_add", save={"v": 2})["code"] == "web.save"
    assert err("stats_add", save=save_of(matches[0], [HUMAN, EASY]), at=-1)["code"] == "web.stats.at"
    damaged = err("stats_add", save=save_of(matches[0], [HUMAN, EASY]), stats={"format": "x"})
    assert damaged["code"] == "stats.file"
    assert err("stats_import", text=5)["code"] == "web.stats.text"
    bad = err("stats_import", text='{"format": "chkobba-stats", "version": 1, "groups": [], "matches": [1]}')
    assert bad["code"] == "stats.file" and "\n" not in bad["error"]
    assert err("stats_view", stats=[])["code"] == "stats.file"
    assert err("stats_export", stats=None, extra=1)["code"] == "web.unknown_field"


# ------------------------------------------- issue 21: counted once, always readable

def full_file(rows: int = S.MAX_MATCHES, start: int = 10**9) -> dict[str, Any]:
    """A file holding the most matches kept one by one, all ended after ``start``."""
    return {"format": "chkobba-stats", "version": 1, "groups": [json.loads(json.dumps(GROUP))],
            "matches": [[f"{i:024x}", 0, start + i, True, 3, 7, 1] for i in range(rows)]}


def total(stats: S.Stats) -> int:
    return sum(t["matches"] for t in S.totals(stats))


def test_a_match_older_than_a_full_store_counts_once(matches: list[Session]) -> None:
    """Finding 2: with 5,000 matches kept, a match dated before all of them
    is folded at once; adding it again (a reload at the end of a match)
    counted it again."""
    stats = S.from_file(full_file())
    once = S.add_match(stats, matches[0], [HUMAN, EASY], at=5)
    assert total(once) == S.MAX_MATCHES + 1
    again = S.add_match(once, matches[0], [HUMAN, EASY], at=5)
    assert again is once and total(again) == S.MAX_MATCHES + 1
    later = S.add_match(once, matches[0], [HUMAN, EASY], at=10**12)   # its clock set right since
    assert total(later) == S.MAX_MATCHES + 1
    # remembered through a file too
    back = S.from_text(S.to_text(once))
    assert S.to_file(back)["version"] == 2
    assert total(S.add_match(back, matches[0], [HUMAN, EASY], at=5)) == S.MAX_MATCHES + 1


def test_the_same_old_file_imported_twice_adds_its_matches_once() -> None:
    """Finding 2: importing the same 10-match file (older than all 5,000
    kept) twice added 20."""
    stats = S.from_file(full_file())
    old = {"format": "chkobba-stats", "version": 1, "groups": [json.loads(json.dumps(GROUP))],
           "matches": [[f"{i:024x}", 0, 100 + i, False, 2, 5, 0] for i in range(10**6, 10**6 + 10)]}
    text = json.dumps(old)
    once, added = S.merge_count(stats, S.from_text(text))
    assert (total(once), added) == (S.MAX_MATCHES + 10, 10)
    twice, added = S.merge_count(once, S.from_text(text))
    assert (total(twice), added) == (S.MAX_MATCHES + 10, 0)
    assert S.totals(twice) == S.totals(once)


def test_the_facade_counts_an_old_match_once(matches: list[Session]) -> None:
    stored = S.to_file(S.from_file(full_file()))
    first = ok("stats_add", save=save_of(matches[0], [HUMAN, EASY]), stats=stored, at=5)
    assert first["added"] is True and first["rows"][0]["matches"] == S.MAX_MATCHES + 1
    again = ok("stats_add", save=save_of(matches[0], [HUMAN, EASY]), stats=first["stats"], at=5)
    assert again["added"] is False and again["rows"] == first["rows"]
    old = {"format": "chkobba-stats", "version": 1, "groups": [json.loads(json.dumps(GROUP))],
           "matches": [[f"{i:024x}", 0, 100 + i, False, 2, 5, 0] for i in range(10**6, 10**6 + 10)]}
    once = ok("stats_import", text=json.dumps(old), stats=first["stats"])
    twice = ok("stats_import", text=json.dumps(old), stats=once["stats"])
    assert once["rows"][0]["matches"] == twice["rows"][0]["matches"] == S.MAX_MATCHES + 11


def test_the_facade_says_an_old_file_added_nothing_the_second_time() -> None:
    stored = S.to_file(S.from_file(full_file()))
    old = {"format": "chkobba-stats", "version": 1, "groups": [json.loads(json.dumps(GROUP))],
           "matches": [[f"{i:024x}", 0, 100 + i, False, 2, 5, 0] for i in range(10**6, 10**6 + 10)]}
    once = ok("stats_import", text=json.dumps(old), stats=stored)
    assert ok("stats_import", text=json.dumps(old), stats=once["stats"])["added"] == 0


def test_totals_at_the_limit_saturate_and_the_store_stays_readable(matches: list[Session]) -> None:
    """Finding 3: a file whose folded totals sit at the 10^12 limit, plus one
    match folded into them, made a store that the next read refused."""
    data = full_file()
    data["groups"][0]["earlier"] = {k: S.MAX_TOTAL for k in S.EARLIER}
    stats = S.from_text(json.dumps(data))
    grown = S.add_match(stats, matches[0], [HUMAN, EASY], at=10**12)   # the oldest kept is folded
    assert len(grown["matches"]) == S.MAX_MATCHES
    assert S.from_text(S.to_text(grown)) == grown
    assert S.from_file(S.to_file(grown)) == grown
    [row] = S.totals(grown)
    assert row["matches"] == S.MAX_TOTAL + S.MAX_MATCHES
    answer = ok("stats_add", save=save_of(matches[1], [HUMAN, EASY]), stats=S.to_file(stats), at=10**12)
    assert ok("stats_view", stats=answer["stats"])["rows"]
    assert ok("stats_export", stats=answer["stats"])["text"]


def test_a_new_kind_of_table_past_the_group_limit_is_refused_in_words(monkeypatch: pytest.MonkeyPatch,
                                                                      matches: list[Session]) -> None:
    """An accepted add never makes a store with more groups than a file may hold."""
    monkeypatch.setattr(S, "MAX_GROUPS", 1)
    stats = S.add_match(S.empty(), matches[0], [HUMAN, EASY], at=1)
    with pytest.raises(S.StatsError) as e:
        S.add_match(stats, matches[1], [HUMAN, {"kind": "computer", "level": "hard"}], at=2)
    assert e.value.code == "stats.full" and "\n" not in str(e.value)
    assert S.from_file(S.to_file(stats)) == stats


def test_the_fullest_store_fits_a_file() -> None:
    """Every field at its largest: the text is within MAX_TEXT, so an export
    can always be imported back."""
    groups = []
    for target in range(100_000, 100_000 - S.MAX_GROUPS, -1):
        groups.append({"game": "seven_diamonds", "variant": {"players": 4, "calls": False, "target": target},
                       "level": "medium"})
    per = S.MAX_FOLDED // S.MAX_GROUPS
    for n, g in enumerate(groups):
        g["earlier"] = {**{k: S.MAX_TOTAL for k in S.EARLIER}, "last": S.MAX_AT, "horizon": S.MAX_AT,
                        "ids": "".join(S.digest(f"{n:012x}{k:012x}") for k in range(per))}
    data = {"format": "chkobba-stats", "version": 2, "groups": groups,
            "matches": [[f"{i + 10**20:024x}", S.MAX_GROUPS - 1, S.MAX_AT, False, S.MAX_ROUNDS, S.MAX_POINTS, 0]
                        for i in range(S.MAX_MATCHES)]}
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) <= S.MAX_TEXT
    stats = S.from_text(text)
    assert len(S.to_text(stats)) <= S.MAX_TEXT
    assert S.from_text(S.to_text(stats)) == stats


def test_folded_digests_are_checked_in_a_file() -> None:
    data = full_file(3)
    data["version"] = 2
    data["groups"][0]["earlier"] = {**{k: 1 for k in S.EARLIER}, "last": 5, "horizon": 0,
                                    "ids": S.digest(data["matches"][0][0])}
    with pytest.raises(S.StatsError) as e:      # a kept match also folded
        S.from_file(json.loads(json.dumps(data)))
    assert e.value.params["reason"]["code"] == "stats.file.twice"   # type: ignore[index,call-overload]
    for bad in ("abc", "!" * 8, 5):
        data["groups"][0]["earlier"]["ids"] = bad
        with pytest.raises(S.StatsError):
            S.from_file(json.loads(json.dumps(data)))
    data["groups"][0]["earlier"].update(ids="", horizon=6)          # a horizon after the last fold
    with pytest.raises(S.StatsError):
        S.from_file(json.loads(json.dumps(data)))


def test_docs_list_every_stats_code() -> None:
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "stats.md").read_text(encoding="utf-8")
    for code in S.STATS_MESSAGES:   # (their English: STATS_MESSAGES itself, as the doc says)
        assert f"`{code}`" in doc, code
    for code in ("web.stats.at", "web.stats.text"):
        assert f"`{code}`" in doc
