"""The facade's take-backs: ``take_back`` at a table against the computer,
refused in pass and play, the save a record that replays and counts them."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from chkobba import web
from chkobba.session import Session
from facade_calls import err, ok

VS_EASY = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def play_until_human_moved(st: dict[str, Any], moves: int = 1) -> dict[str, Any]:
    """Play (first legal action, computer seats included) until seat 0 made
    ``moves`` card moves of the round and it is seat 0's turn again."""
    made = 0
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if seat == 0 and made >= moves and st["takeback"]["possible"]:
            return st
        if seat == 0:
            made += 1
        st = ok("act", action=s.legal()[0], seat=seat)


def actions(save: dict[str, Any]) -> int:
    return sum(len(r["actions"]) for r in save["record"]["rounds"])


def test_take_back_against_the_computer_returns_the_hand() -> None:
    st = ok("start", seed=11, seats=VS_EASY)
    assert st["takeback"] == {"allowed": True, "possible": False, "count": 0}
    assert "takebacks" not in st["save"]
    before = play_until_human_moved(st, moves=1)
    s = web.table_session("main")
    mine = s.legal()[0]
    after_move = ok("act", action=mine, seat=0)
    while web.table_session("main").to_act() not in (0, None):
        seat = web.table_session("main").to_act()
        after_move = ok("act", action=web.table_session("main").legal()[0], seat=seat)
    back = ok("take_back")
    assert back["to_act"] == 0
    assert back["takeback"]["count"] == 1
    assert back["save"]["takebacks"] == 1
    assert back["view"] == before["view"]                    # the hand and the table are back
    assert actions(back["save"]) < actions(after_move["save"])
    assert back["save"]["record"] == before["save"]["record"]   # the record is cut, nothing written in it
    # the save replays and resumes with its count
    replayed = Session.from_record(back["save"]["record"], seed=back["save"]["seed"])
    assert replayed.record() == back["save"]["record"]
    web.reset_tables()
    resumed = ok("resume", save=back["save"])
    assert resumed["takeback"]["count"] == 1 and resumed["save"]["takebacks"] == 1
    # play goes on and the count stays in the save
    s = web.table_session("main")
    on = ok("act", action=s.legal()[0], seat=0)
    assert on["save"]["takebacks"] == 1


def test_take_back_at_a_rounds_start_is_refused_and_changes_nothing() -> None:
    st = ok("start", seed=11, seats=VS_EASY)
    while web.table_session("main").to_act() != 0:
        s = web.table_session("main")
        st = ok("act", action=s.legal()[0], seat=s.to_act())
    if st["takeback"]["possible"]:
        pytest.skip("seat 0 already moved in this deal")
    out = err("take_back")
    assert out["code"] == "takeback.nothing"
    assert ok("state")["save"] == st["save"]


def test_take_back_is_refused_in_pass_and_play() -> None:
    st = ok("start", seed=4, seats=[{"kind": "human"}, {"kind": "human"}])
    assert st["takeback"]["allowed"] is False
    for _ in range(6):
        s = web.table_session("main")
        seat = s.to_act()
        ok("reveal")
        st = ok("act", action=s.legal()[0], seat=seat)
    assert st["takeback"] == {"allowed": False, "possible": False, "count": 0}
    out = err("take_back")
    assert out["code"] == "takeback.mode"
    assert "pass and play" in out["error"]
    assert ok("state")["save"] == st["save"]


def test_take_back_needs_a_table_and_takes_no_other_field() -> None:
    assert err("take_back")["code"] == "web.no_table"
    ok("start", seed=1, seats=VS_EASY)
    assert err("take_back", seat=0)["code"] == "web.unknown_field"


@pytest.mark.parametrize("value", [-1, 1.5, "2", True, None, 10**7])
def test_a_save_with_a_bad_takeback_count_is_refused(value: Any) -> None:
    save = ok("start", seed=2, seats=VS_EASY)["save"]
    out = err("resume", save={**save, "takebacks": value})
    assert out["code"] == "web.save"
    assert out["params"]["reason"]["code"] == "web.save.takebacks"

