"""Stateful property tests of the statistics store (chkobba/stats.py,
issue 21): adds, imports (of its own old exports and of other files),
exports, clocks going backwards, a full store, a full set of groups, with
small limits so that folding and the limits are reached in a few steps.

Invariants after every step:
- each match counted once: the store's total equals the number of distinct
  matches it said it counted, and a match it had counted is never counted
  again (while no digest is forgotten and no total saturates: the second
  run, with those limits tiny, checks readability only; docs/stats.md);
- every accepted store readable: its file text reads back to the same store.

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
    return GROUPS[n % len(GROUPS)], [f"{n * 7919 + 1:024x}", 0, 0, n % 3 != 0, 1 + n % 5, 3 * n % 17, n % 2]


def total(stats: S.Stats) -> int:
    return sum(t["matches"] for t in S.totals(stats))


def counted_ids(stats: S.Stats) -> set[str]:
    folded = S.folded_ids(stats)
    return {match(n)[1][0] for n in range(POOL)
            if any(m[0] == match(n)[1][0] for m in stats["matches"]) or S.digest(match(n)[1][0]) in folded}


class StatsStore(RuleBasedStateMachine):
    forgets = False      # whether the limits let digests be forgotten

    exports = Bundle("exports")

    def __init__(self) -> None:
        super().__init__()
        self.stats = S.empty()
        self.counted: set[str] = set()

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

    @rule(target=exports)
    def export(self) -> str:
        return S.to_text(self.stats)

    @rule(text=exports)
    def import_an_export(self, text: str) -> None:
        self._import(text)

    @rule(items=st.lists(st.tuples(st.integers(0, POOL - 1), st.integers(0, 60)), max_size=6,
                         unique_by=lambda x: x[0]))
    def import_another_file(self, items: list[tuple[int, int]]) -> None:
        groups: list[dict[str, Any]] = []
        rows = []
        for n, at in items:
            group, row = match(n)
            if group not in groups:
                groups.append(json.loads(json.dumps(group)))
            rows.append([row[0], groups.index(group), at] + row[3:])
        self._import(json.dumps({"format": "chkobba-stats", "version": 1, "groups": groups, "matches": rows}))

    def _import(self, text: str) -> None:
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
