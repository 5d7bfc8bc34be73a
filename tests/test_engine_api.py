"""The engine's APIs for tables, replays and embeds (issue 8): the claim
window in the view, the moves of a round, options described by Python, and
positions (a record stopped at (round, ply), seen by any seat or by all)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chkobba import cards as C
from chkobba.errors import InvalidOptions, InvalidRecord
from chkobba.messages import MESSAGES, render
from chkobba.options import OPTIONS_BY_GAME, check, describe
from chkobba.records import parse_record, replay, summary
from chkobba.session import Session

KINDS = {"cut", "redeal", "lay", "capture", "claim", "call", "pass", "timeout", "forced_pass", "last_card", "out"}
GAMES = [("chkobba", {}), ("chkobba", {"players": 4}), ("chkobba", {"capture": "compulsory"}),
         ("seven_diamonds", {}), ("seven_diamonds", {"calls": False, "timers": False})]


def random_session(game: str, options: dict[str, Any], seed: int, steps: int) -> Session:
    sess = Session.new(game, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if sess.is_over:
            break
        sess.apply(rng.choice(sess.legal()))
    return sess


# ------------------------------------------------------------- B. claim window
def test_claim_window_is_the_engines_over_seeded_games() -> None:
    """Open exactly after a lay onto a non-empty table by the previous seat at
    a table with claims; never after a lay onto an empty table; the same for
    every seat that looks; and open whenever a claim is legal."""
    opened = 0
    for seed in range(40):
        options = {"players": 4} if seed % 3 == 0 else {}
        sess = Session.new("chkobba", options, seed=seed)
        rng = random.Random(seed)
        table_before: tuple[int, ...] = ()
        while not sess.is_over and len(sess.state.results) < 1:
            s = sess.state
            claim = sess.view(0)["claim"]
            assert all(sess.view(seat)["claim"] == claim for seat in range(sess.players))
            last = sess.last_move
            expect = None
            if (s.phase == "play" and last is not None and last["kind"] == "lay" and not last["round_ended"]
                    and table_before and s.history() and str(s.history()[-1]) == last["action"]):
                expect = {"card": last["card"], "seat": last["seat"]}
            assert claim == expect
            if any(t.startswith("claim") for t in sess.legal()):
                assert claim is not None
            opened += claim is not None
            table_before = s.table
            sess.apply(rng.choice(sess.legal()))
    assert opened > 20


def test_no_claim_window_where_claims_are_off() -> None:
    for options in ({"capture": "compulsory"}, {"missed_capture": False}):
        sess = random_session("chkobba", options, 5, 0)
        rng = random.Random(5)
        for _ in range(60):
            assert sess.view(0)["claim"] is None
            sess.apply(rng.choice(sess.legal()))
    assert random_session("seven_diamonds", {}, 1, 20).view(0)["claim"] is None


# -------------------------------------------------------------------- C. moves
@pytest.mark.parametrize("game,options", GAMES)
def test_moves_tell_every_round_as_the_record_does(game: str, options: dict[str, Any]) -> None:
    for seed in range(3):
        sess = random_session(game, options, seed, 150)
        rec = sess.record()
        for ri, rnd in enumerate(rec["rounds"]):
            moves = sess.moves(ri)
            assert [m["action"] for m in moves if m["action"] is not None] == rnd["actions"]
            for m in moves:
                assert m["kind"] in KINDS
                assert m["code"] in MESSAGES and render(m["code"], m["params"]) == m["text"]
                assert m["cards"] == m["take"] and all(c in C.CODES for c in m["cards"])
                assert m["card"] is None or m["card"] in C.CODES
                assert isinstance(m["seat"], int) and 0 <= m["seat"] < sess.players
            ended = [i for i, m in enumerate(moves) if m["round_ended"]]
            finished = ri < len(sess.state.results)
            assert ended == ([len(moves) - 1] if moves and finished else [])
        # a resumed session tells the same moves
        again = Session.from_record(rec)
        for ri in range(len(rec["rounds"])):
            assert again.moves(ri) == sess.moves(ri)
        assert again.last_move == sess.last_move
        json.dumps(sess.moves())


def test_moves_default_round_and_out_of_range() -> None:
    sess = random_session("chkobba", {}, 3, 0)
    assert sess.moves() == [] and sess.last_move is None
    sess.apply(sess.legal()[0])
    assert sess.moves() == sess.moves(0) and len(sess.moves()) == 1
    assert sess.moves(5) == [] and sess.moves(-1) == []
    m = sess.moves()[0]
    assert m["kind"] == "cut" and m["action"] in ("keep", "table")
    assert sess.last_move == dict(m, kind=m["action"])  # the last move keeps v0.1's kind: the action's


def test_seven_diamonds_moves_show_forced_passes_and_the_end() -> None:
    sess = random_session("seven_diamonds", {"timers": False}, 4, 400)
    kinds = {m["kind"] for ri in range(len(sess.record()["rounds"])) for m in sess.moves(ri)}
    assert {"forced_pass", "last_card", "out", "lay", "call"} <= kinds or {"forced_pass", "out"} <= kinds
    for ri in range(len(sess.state.results)):
        moves = sess.moves(ri)
        assert moves[-1]["kind"] == "out" and moves[-1]["round_ended"] and moves[-1]["action"] is None


def test_a_sweep_is_a_chkobba_move() -> None:
    for seed in range(30):
        sess = random_session("chkobba", {}, seed, 200)
        for ri in range(len(sess.state.results)):
            swept = [m for m in sess.moves(ri) if m["chkobba"]]
            assert len(swept) == sum(sess.state.results[ri].chkobba)
            assert all(m["kind"] in ("capture", "claim") for m in swept)


# ------------------------------------------------------------------ D. options
@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
def test_describe_options(game: str) -> None:
    desc = describe(game)
    cls = OPTIONS_BY_GAME[game]
    defaults = cls.from_dict({}).to_dict()
    assert [d["name"] for d in desc] == list(defaults)
    for d in desc:
        assert set(d) >= {"name", "default", "choices", "min", "max", "requires", "code"}
        assert d["default"] == defaults[d["name"]]
        assert d["code"] in MESSAGES
        for value in d["choices"] or []:
            assert check(game, {d["name"]: value}).to_dict()[d["name"]] == value
        if d["min"] is not None and d["kind"] == "number":
            check(game, {d["name"]: d["min"]})
            check(game, {d["name"]: d["max"]})
            with pytest.raises(InvalidOptions):
                check(game, {d["name"]: d["max"] + 1})
            with pytest.raises(InvalidOptions):
                check(game, {d["name"]: d["min"] - 1})
        if d["requires"]:
            for other, value in d["requires"].items():
                assert value in next(x for x in desc if x["name"] == other)["choices"]
    json.dumps(desc)


def test_missed_capture_requires_optional_capture() -> None:
    assert next(d for d in describe("chkobba") if d["name"] == "missed_capture")["requires"] == {"capture": "optional"}


def test_check_refuses_in_words() -> None:
    with pytest.raises(InvalidOptions, match='option "players" must be one of 2, 4, not 3'):
        check("chkobba", {"players": 3})
    with pytest.raises(InvalidOptions, match='unknown game "poker"'):
        describe("poker")
    with pytest.raises(InvalidOptions, match="options must be a JSON object"):
        check("chkobba", "abc")  # type: ignore[arg-type]


# ---------------------------------------------------------------- E. positions
@pytest.mark.parametrize("game,options", GAMES)
def test_positions_are_the_record_cut_there(game: str, options: dict[str, Any]) -> None:
    sess = random_session(game, options, 7, 120)
    rec = sess.record()
    rng = random.Random(1)
    points = [(r + 1, p) for r, rnd in enumerate(rec["rounds"]) for p in range(len(rnd["actions"]) + 1)]
    for r, ply in rng.sample(points, min(12, len(points))) + [points[0], points[-1]]:
        pos = Session.from_record(rec, seed=5, at=(r, ply))
        cut = pos.record()
        assert cut["rounds"][:r - 1] == rec["rounds"][:r - 1]
        assert cut["rounds"][r - 1]["actions"] == rec["rounds"][r - 1]["actions"][:ply]
        # the cut record replays (it is a valid save) to the same position
        again = replay(cut)
        assert summary(again) == summary(pos.state) or pos.state.round_over()
        if not pos.state.needs_deal:
            assert [str(a) for a in again.legal_actions()] == pos.legal()
            for seat in range(pos.players):
                assert again.observation(seat) == pos.state.observation(seat)
        # play may go on from a position
        if pos.to_act() is not None:
            pos.apply(pos.legal()[0])
            replay(pos.record())


def test_the_end_of_a_round_is_the_next_deal_of_the_record() -> None:
    sess = random_session("chkobba", {}, 4, 200)
    rec = sess.record()
    assert len(rec["rounds"]) >= 3
    n = len(rec["rounds"][0]["actions"])
    end = Session.from_record(rec, at=(1, n))
    nxt = Session.from_record(rec, at=(2, 0))
    assert end.record() == nxt.record() and end.view(None) == nxt.view(None)
    assert end.record()["rounds"][1]["decks"] == rec["rounds"][1]["decks"][:1]
    # the last round of a record, finished: the session deals on from its seed
    last = Session.from_record(random_session("chkobba", {}, 4, 0).record())
    assert last.view(None)["phase"] == "cut"


def test_position_views_for_any_seat_and_for_all() -> None:
    sess = random_session("chkobba", {"players": 4}, 2, 30)
    pos = Session.from_record(sess.record(), at=(1, 9))
    s = pos.state
    full = pos.view(None)
    assert full["seat"] is None and full["hand"] == []
    assert [sorted(h) for h in full["hands"]] == [sorted(C.codes(h)) for h in s.hands]
    for seat in range(4):
        v = pos.view(seat)
        assert "hands" not in v and sorted(v["hand"]) == sorted(C.codes(s.hands[seat]))
        assert v["table"] == full["table"] and v["claim"] == full["claim"]
    # every card is somewhere: hands, table, piles, deck
    seen = sum(len(h) for h in full["hands"]) + len(full["table"]) + sum(full["piles"]) + full["deck"]
    assert seen == 40
    assert full["legal"] == pos.legal()
    sd = Session.from_record(random_session("seven_diamonds", {}, 2, 10).record(), at=(1, 6))
    v = sd.view(None)
    assert sum(len(h) for h in v["hands"]) + sum(len(x) for x in v["table"].values()) == 32


def test_position_at_the_cut_shows_the_cut_card_to_all() -> None:
    sess = random_session("chkobba", {}, 3, 5)
    pos = Session.from_record(sess.record(), at=(1, 0))
    assert pos.state.phase == "cut" and pos.view(None)["cut_card"] == sess.record()["rounds"][0]["decks"][0][0]
    assert pos.view(pos.state.dealer)["cut_card"] is None


@pytest.mark.parametrize("at,code", [((0, 0), "position.round"), ((3, 0), "position.round"),
                                     ((1, -1), "position.ply"), ((1, 999), "position.ply"),
                                     ((1,), "position.form"), ("1,2", "position.form"),
                                     ((1.0, 2), "position.form"), ((True, 0), "position.form")])
def test_bad_positions_are_refused_in_words(at: Any, code: str) -> None:
    rec = random_session("chkobba", {}, 1, 10).record()
    with pytest.raises(InvalidRecord) as e:
        Session.from_record(rec, at=at)
    assert e.value.code == code and "\n" not in str(e.value)


def test_position_of_a_bad_record_is_the_records_error() -> None:
    rec = random_session("chkobba", {}, 1, 10).record()
    rec["rounds"][0]["actions"][3] = "KHxKH"
    with pytest.raises(InvalidRecord) as e:
        Session.from_record(rec, at=(1, 1))
    with pytest.raises(InvalidRecord) as whole:
        replay(parse_record(rec))
    assert str(e.value) == str(whole.value)
