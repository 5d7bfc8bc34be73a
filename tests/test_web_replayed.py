"""The facade keeps the last few replayed saves (chkobba/web/saves.py,
``Store.replayed``): a save the table just wrote is found again without
replaying the match, and what is handed out is a copy, so nothing a caller
does to it reaches the next call; every check of the save still runs."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.session import Session
from chkobba.web import saves
from chkobba.web.edge import Seat, WebError
from chkobba.web.saves import MAX_REPLAYED, STORE, Table, load, reset_tables

SEATS = [Seat("human"), Seat("computer", "medium")]


def played(seed: int, moves: int, game: str = "chkobba") -> Session:
    session = Session.new(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if session.is_over:
            break
        session.apply(rng.choice(session.legal()))
    return session


def a_save(session: Session) -> dict[str, object]:
    seats = SEATS if session.players == 2 else SEATS + [Seat("computer", "easy")] * (session.players - 2)
    return Table("t1", session, list(seats)).save()


def same(a: Session, b: Session) -> bool:
    return a.record() == b.record() and a.seed == b.seed and a.view(None) == b.view(None)


def test_a_written_save_is_found_again_as_a_copy() -> None:
    reset_tables()
    session = played(3, 20)
    save = json.loads(json.dumps(a_save(session)))   # as the page stores and sends it back
    calls = []
    real = Session.from_record
    try:
        Session.from_record = classmethod(lambda cls, *a, **k: calls.append(1) or real(*a, **k))  # type: ignore
        first, _, _ = load(save)
        second, _, _ = load(save)
    finally:
        Session.from_record = real  # type: ignore[method-assign]
    assert calls == [], "the save the table wrote was replayed again"
    assert first is not second and first is not session
    assert same(first, session) and same(second, session)
    # playing on what was handed out, or on at the table, changes nothing the next call gets
    before = session.copy()
    first.apply(first.legal()[0])
    session.apply(session.legal()[0])
    third, _, _ = load(save)
    assert same(third, before)


def test_the_checks_of_a_save_still_run_on_a_kept_record() -> None:
    reset_tables()
    save = a_save(played(4, 10))
    load(save)
    bad = dict(save, seats=[{"kind": "human"}])
    with pytest.raises(WebError):
        load(bad)
    with pytest.raises(WebError):
        load(dict(save, v=7))
    assert same(load(save)[0], played(4, 10))


def test_only_the_last_few_are_kept_and_a_fresh_page_has_none() -> None:
    reset_tables()
    for i in range(MAX_REPLAYED + 3):
        a_save(played(10 + i, 5))
    assert len(STORE._replayed) == MAX_REPLAYED
    reset_tables()
    assert len(STORE._replayed) == 0


def test_a_record_that_is_not_plain_json_is_replayed_and_refused_as_before() -> None:
    reset_tables()
    save = a_save(played(5, 3))
    odd = copy.deepcopy(save)
    odd["record"]["rounds"][0]["actions"].append(float("nan"))  # type: ignore[index]
    assert saves.Store._replay_key(odd["record"], 1) is None
    with pytest.raises(WebError):
        load(odd)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60), other=st.integers(0, 60),
       game=st.sampled_from(["chkobba", "seven_diamonds"]))
def test_kept_or_replayed_a_save_gives_the_same_session(seed: int, moves: int, other: int, game: str) -> None:
    """Whatever was kept before, a save loads to what a fresh replay gives."""
    reset_tables()
    session = played(seed, moves, game)
    save = json.loads(json.dumps(a_save(session)))
    a_save(played(seed, other, game))                # another position of the same game kept too
    kept, _, _ = load(save)
    reset_tables()
    fresh, _, _ = load(save)
    assert same(kept, fresh)
