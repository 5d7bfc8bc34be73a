"""Stateful property tests of the statistics store (chkobba/stats.py,
issue 21): adds, imports (of its own old exports and of other files),
exports, clocks going backwards, a full store, a full set of groups, with
small limits so that folding and the limits are reached in a few steps.

Invariants after every step:
- each match counted once: the store's total equals the number of distinct
  matches it said it counted, and a match it had counted is never counted
  again (while no digest is forgotten and no total saturates: the second
  run, with those limits tiny, checks readability only; docs/stats.md);
- every accepted store readable: its file text reads back to the same store;
- games with take-backs counted apart: the totals' ``takeback_matches`` and
  ``takeback_wins`` are those of the distinct matches counted;
- the daily results (the file's ``daily`` key) are those of a model: the first
  result of a deal added counts, a merge keeps the lower of two results.

``CHKOBBA_FUZZ=N`` runs N times more examples (the documented long run:
``CHKOBBA_FUZZ=50 .venv/bin/python -m pytest -q tests/test_stats_machine.py``).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from chkobba import stats as S

FUZZ = int(os.environ.get("CHKOBBA_FUZZ", "1"))
POOL = 14
GROUPS = [{"game": "chkobba", "variant": {"players": 2, "capture": "optional", "target": 11, "match": 1},
           "level": level} for level in ("easy", "medium", "hard", "none")]


def match(n: int) -> tuple[dict[str, Any], list[Any]]:
    """Match n of the pool: always the same group and numbers (its id is made
    from its record), ``at`` given when it is added."""
    row = [f"{n * 7919 + 1:024x}", 0, 0, n % 3 != 0, 1 + n % 5, 3 * n % 17, n % 2]
    if n % 4 == 1:
        row.append(1 + n % 3)     # a game with take-backs
    return GROUPS[n % len(GROUPS)], row


DAYS = ["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"]
daily_rows = st.tuples(st.sampled_from(DAYS), st.sampled_from(["chkobba", "seven_diamonds"]),
                       st.integers(0, 5), st.integers(0, 5))


def rank(row: tuple[str, str, int, int]) -> tuple[int, int, tuple[str, str, int, int]]:
    return row[2] - row[3], row[2], row


def total(stats: S.Stats) -> int:
    return sum(t["matches"] for t in S.totals(stats))


def counted_ids(stats: S.Stats) -> set[str]:
    folded = S.folded_ids(stats)
    return {match(n)[1][0] for n in range(POOL)
            if any(m[0] == match(n)[1][0] for m in stats["matches"]) or S.digest(match(n)[1][0]) in folded}


BY_ID = {match(n)[1][0]: match(n)[1] for n in range(POOL)}


class StatsStore(RuleBasedStateMachine):
    forgets = False      # whether the limits let digests be forgotten

    exports = Bundle("exports")

    def __init__(self) -> None:
        super().__init__()
        self.stats = S.empty()
        self.counted: set[str] = set()
        self.daily: dict[tuple[str, str], tuple[str, str, int, int]] = {}

    def _accept(self, new: S.Stats, newly: set[str]) -> None:
        if not self.forgets:
            assert not newly & self.counted, "a match counted twice"
        self.counted |= newly
        self.stats = new

    @rule(n=st.integers(0, POOL - 1), at=st.integers(0, 60))
    def add(self, n: int, at: int) -> None:
        group, row = match(n)
        row = [row[0], 0, at] + row[3:]
        old = self.stats
        try:
            new = S.add_row(old, group, row)
        except S.StatsError as e:
            assert e.code == "stats.full"
            assert len(old["groups"]) == S.MAX_GROUPS
            return
        if new is old:
            assert S.counts(old, row[0], group, at)
            if row[0] not in self.counted:
                # only a match as old as what its group may have forgotten
                assert any(g.get("earlier") and g["earlier"]["horizon"] >= at for g in old["groups"])
            return
        self._accept(new, {row[0]})

    @rule(row=daily_rows)
    def add_daily(self, row: tuple[str, str, int, int]) -> None:
        new = S.add_daily(self.stats, {"date": row[0], "game": row[1], "points": row[2], "par_points": row[3]})
        self.daily.setdefault(row[:2], row)     # the first result of a deal counts
        self.stats = new

    @rule(target=exports)
    def export(self) -> str:
        return S.to_text(self.stats)

    @rule(text=exports)
    def import_an_export(self, text: str) -> None:
        self._import(text)

    @rule(items=st.lists(st.tuples(st.integers(0, POOL - 1), st.integers(0, 60)), max_size=6,
                         unique_by=lambda x: x[0]),
          days=st.lists(daily_rows, max_size=5, unique_by=lambda r: r[:2]))
    def import_another_file(self, items: list[tuple[int, int]], days: list[tuple[str, str, int, int]]) -> None:
        groups: list[dict[str, Any]] = []
        rows = []
        for n, at in items:
            group, row = match(n)
            if group not in groups:
                groups.append(json.loads(json.dumps(group)))
            rows.append([row[0], groups.index(group), at] + row[3:])
        v3 = bool(days) or any(len(r) > 7 for r in rows)
        data: dict[str, Any] = {"format": "chkobba-stats", "version": 3 if v3 else 1, "groups": groups,
                                "matches": rows}
        if v3:
            data["daily"] = {"days": [list(r) for r in sorted(days)]}
        self._import(json.dumps(data), [tuple(r) for r in days])  # type: ignore[misc]

    def _merge_daily(self, days: list[tuple[str, str, int, int]]) -> None:
        for row in days:
            if row[:2] not in self.daily or rank(row) < rank(self.daily[row[:2]]):
                self.daily[row[:2]] = row

    def _import(self, text: str, days: list[tuple[str, str, int, int]] | None = None) -> None:
        try:
            incoming = S.from_text(text)
        except S.StatsError as e:        # a file with more groups than the (small) limit
            assert e.params["reason"]["code"] == "stats.file.count"   # type: ignore[index,call-overload]
            return
        before = counted_ids(self.stats)
        try:
            merged, added = S.merge_count(self.stats, incoming)
        except S.StatsError as e:
            assert e.params["reason"]["code"] == "stats.file.count"   # type: ignore[index,call-overload]
            return
        newly = counted_ids(merged) - before
        assert added == len(newly)
        self._accept(merged, newly)
        self._merge_daily(days if days is not None else [tuple(r) for r in incoming["daily"]["days"]])  # type: ignore[misc]

    @rule()
    def reload_the_store(self) -> None:
        self.stats = S.from_text(S.to_text(self.stats))

    @invariant()
    def each_match_counted_once(self) -> None:
        if not self.forgets:
            assert total(self.stats) == len(self.counted)
        assert len(self.stats["matches"]) <= S.MAX_MATCHES
        assert len(S.folded_ids(self.stats)) <= S.MAX_FOLDED

    @invariant()
    def takebacks_counted_apart(self) -> None:
        if self.forgets:
            return
        rows = [BY_ID[mid] for mid in self.counted]
        assert sum(t["takeback_matches"] for t in S.totals(self.stats)) == sum(1 for r in rows if len(r) > 7)
        assert sum(t["takeback_wins"] for t in S.totals(self.stats)) == sum(1 for r in rows if len(r) > 7 and r[3])

    @invariant()
    def daily_results_are_the_models(self) -> None:
        assert [tuple(r) for r in S.daily_of(self.stats)["days"]] == sorted(self.daily.values())

    @invariant()
    def every_accepted_store_is_readable(self) -> None:
        text = S.to_text(self.stats)
        assert len(text) <= S.MAX_TEXT
        assert S.from_text(text) == self.stats
        assert S.from_file(json.loads(json.dumps(S.to_file(self.stats)))) == self.stats


@pytest.mark.parametrize("forgets", [False, True])
def test_the_store_counts_each_match_once_and_stays_readable(monkeypatch: pytest.MonkeyPatch,
                                                            forgets: bool) -> None:
    monkeypatch.setattr(S, "MAX_MATCHES", 4)
    monkeypatch.setattr(S, "MAX_GROUPS", 3)
    monkeypatch.setattr(S, "MAX_FOLDED", 2 if forgets else POOL)
    if forgets:     # and totals that saturate within a few matches: the counts are no longer exact
        monkeypatch.setattr(S, "MAX_TOTAL", 3)
    monkeypatch.setattr(StatsStore, "forgets", forgets)
    run_state_machine_as_test(StatsStore, settings=settings(
        max_examples=60 * FUZZ, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
