"""The browser facade in CPython: JSON in, JSON out, bad input refused in plain words."""

from __future__ import annotations

import json
import os
import random
from typing import Any, Iterator

import pytest

from chkobba import web
from chkobba.session import Session
from facade_calls import call, ok, err

HUMAN_AND_EASY = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def session_of(table: str = "main") -> Session:
    return web.table_session(table)


def play_random(rng: random.Random, table: str = "main", claims: bool = True) -> dict[str, Any]:
    """One random legal move at ``table`` through the facade."""
    s = session_of(table)
    seat = s.to_act()
    assert seat is not None
    legal = [a for a in s.legal() if claims or not a.startswith("claim")]
    return ok("act", table=table, action=rng.choice(legal), seat=seat)  # type: ignore[no-any-return]


def v1_save(session: Session, seats: list[dict[str, Any]], coach: bool = False) -> dict[str, Any]:
    """A save exactly as the v0.1 site's facade wrote it."""
    return {"v": 1, "record": session.record(), "seed": session.seed, "seats": seats, "coach": coach}


# ------------------------------------------------------------------ playing

def test_start_act_and_refuse_illegal() -> None:
    st = ok("start", seed=3)
    view = st["view"]
    assert view["seat"] == 0 and view["game"] == "chkobba" and "legal" not in view
    assert st["table"] == "main" and st["human"] == 0 and st["sides"] == [[0], [1]]
    for _ in range(10):
        seat = st["to_act"]
        if seat == 0:
            break
        action = ok("choose", save=st["save"], seat=seat)["action"]
        st = ok("act", action=action, seat=seat)
    assert st["to_act"] == 0
    before = ok("state")
    bad = err("act", action="QHx7D", seat=0)
    assert bad["code"]
    assert ok("state") == before  # nothing changed
    assert err("act", action="7D", seat=1)["code"] == "web.not_turn"
    assert ok("state") == before


def test_four_players_sides_and_words() -> None:
    st = ok("start", seed=5, options={"players": 4})
    assert st["sides"] == [[0, 2], [1, 3]]
    assert [s["kind"] for s in st["seats"]] == ["human", "computer", "computer", "computer"]
    for w in st["words"]:
        assert w["code"] == f"word.{w['action']}" and w["label"]


def test_words_carry_codes_at_the_cut() -> None:
    for seed in range(40):
        st = ok("start", seed=seed)
        if st["to_act"] == 0 and st["view"]["phase"] == "cut":
            assert {w["action"] for w in st["words"]} == {"keep", "table"}
            for w in st["words"]:
                assert w["code"] == f"word.{w['action']}"
                assert ok("messages")["messages"][w["code"]] == w["label"]
            return
    pytest.fail("no seed gave the human the cut")


# --------------------------------------------------------------- bad input

BAD_STARTS = [
    ({"seed": 1.5}, "web.seed"),
    ({"seed": "x"}, "web.seed"),
    ({"seed": -1}, "web.seed"),
    ({"seed": 2**53 + 1}, "web.seed"),
    ({"seed": True}, "web.seed"),
    ({"options": {"target": 12}}, None),
    ({"options": {"players": 3}}, None),
    ({"options": {"players": 2.0}}, None),
    ({"options": {"players": "2"}}, None),
    ({"options": {"colour": 1}}, None),
    ({"options": "abc"}, "web.options"),
    ({"options": 5}, "web.options"),
    ({"options": [1]}, "web.options"),
    ({"seats": [1, 2]}, "web.seat"),
    ({"seats": "abc"}, "web.seats"),
    ({"seats": 5}, "web.seats"),
    ({"seats": [{"kind": "human"}]}, "web.seats_count"),
    ({"seats": [{"kind": "computer"}, {"kind": "computer"}]}, "web.no_human"),
    ({"seats": [{"kind": "human"}, {"kind": "computer", "level": "insane"}]}, "web.seat_level"),
    ({"seats": [{"kind": "human"}, {"kind": "computer", "colour": 1}]}, "web.seat_field"),
    ({"seats": [{"kind": "human"}, {"kind": "robot"}]}, "web.seat_kind"),
    ({"coach": "yes"}, "web.coach"),
    ({"coach": 1}, "web.coach"),
    ({"game": "poker"}, "web.game"),
    ({"game": 5}, "web.game"),
    ({"table": ""}, "web.table_id"),
    ({"table": "a" * 41}, "web.table_id"),
    ({"table": "a b"}, "web.table_id"),
    ({"table": 5}, "web.table_id"),
    ({"colour": 1}, "web.unknown_field"),
]


@pytest.mark.parametrize("args,code", BAD_STARTS)
def test_start_refuses_bad_settings_and_changes_nothing(args: dict[str, Any], code: str | None) -> None:
    ok("start", seed=1)
    before = ok("state")
    out = err("start", **args)
    if code is not None:
        assert out["code"] == code
    assert ok("state") == before
    assert web.table_ids() == ["main"]
    # the next good call works
    assert ok("start", seed=2, options={"players": 4})["view"]["players"] == 4


def test_players_two_point_zero_is_refused_in_words() -> None:
    out = err("start", options={"players": 2.0})
    assert "players" in out["error"] and "2.0" in out["error"]


def test_seven_diamonds_is_available_by_start_and_resume() -> None:
    sd = Session.new("seven_diamonds", {}, seed=4)
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * 3
    assert ok("start", game="seven_diamonds")["game"] == "seven_diamonds"
    assert ok("resume", save=v1_save(sd, seats))["game"] == "seven_diamonds"
    assert ok("resume", save={**v1_save(sd, seats), "v": 2, "game": "seven_diamonds"})["game"] == "seven_diamonds"
    games = {g["game"]: g for g in ok("describe")["games"]}
    assert games["chkobba"]["available"] is True and games["seven_diamonds"]["available"] is True


@pytest.mark.parametrize("save", [None, {}, [], "abc", 5, {"v": 99}, {"v": 2.0}, {"v": True},
                                  {"v": 1, "record": {"game": "chkobba"}, "seats": HUMAN_AND_EASY},
                                  {"v": 1, "record": "garbage", "seats": []},
                                  {"v": 1, "seats": HUMAN_AND_EASY},
                                  {"v": 2, "record": None, "seats": HUMAN_AND_EASY}])
def test_resume_refuses_corrupted_saves(save: Any) -> None:
    ok("start", seed=1)
    before = ok("state")
    out = err("resume", save=save)
    assert out["code"] == "web.save"
    assert out["error"].startswith("The saved game could not be resumed: ")
    assert ok("state") == before


def test_resume_refuses_bad_fields_of_a_good_save() -> None:
    good = ok("start", seed=6)["save"]
    for change, reason in [({"seed": "x"}, "web.save.seed"), ({"seed": 2**60}, "web.save.seed"),
                           ({"coach": "no"}, "web.save.coach"), ({"seats": [1, 2]}, "web.save.seats"),
                           ({"seats": "abc"}, "web.save.seats"), ({"seats": 5}, "web.save.seats"),
                           ({"extra": 1}, "web.save.unknown_key"), ({"game": "poker"}, "web.save.game"),
                           ({"v": 3}, "web.save.version")]:
        out = err("resume", save={**good, **change}, table="other")
        assert out["code"] == "web.save" and out["params"]["reason"]["code"] == reason, (change, out)
        out = err("choose", save={**good, **change}, seat=1)
        assert out["code"] == "web.save"
    assert "other" not in web.table_ids()


def test_resume_refuses_a_record_that_would_not_save_again() -> None:
    """Issue 10: a finished round followed by an empty round entry was accepted,
    and the save written after it no longer replayed. Now either the resume is
    refused or the save it answers replays."""
    sess = Session.new("chkobba", {}, seed=11)
    rng = random.Random(11)
    while not sess.state.results:
        sess.apply(rng.choice([t for t in sess.legal() if not t.startswith("claim")]))
    record = sess.record()
    # cut the record after the finished round and add an empty one
    record["rounds"] = record["rounds"][:1] + [{"decks": [], "actions": []}]
    out = call("resume", save={"v": 1, "record": record, "seed": 1, "seats": HUMAN_AND_EASY})
    if "ok" in out:
        again = call("resume", save=out["ok"]["save"], table="again")
        assert "ok" in again
    else:
        assert out["code"] == "web.save"


def test_choose_and_hint_refuse_malformed_saves_in_words() -> None:
    st = ok("start", seed=3, coach=True)
    good = st["save"]
    for save in ({}, None, "abc", [1], {"v": 2}):
        assert err("choose", save=save, seat=1)["code"] == "web.save"
        assert err("hint", save=save)["code"] == "web.save"
    no_record = {k: v for k, v in good.items() if k != "record"}
    assert err("hint", save=no_record)["code"] == "web.save"
    for seats in ([1, 2], "abc", 5):
        assert err("choose", save={**good, "seats": seats}, seat=1)["code"] == "web.save"
    for seat in (-1, 2, 1.0, "1", None, True):
        assert err("choose", save=good, seat=seat)["code"] == "web.seat_index"
    assert err("choose", save=good, seat=0)["code"] == "web.not_computer"
    assert err("choose", save=good)["code"] == "web.missing_field"
    assert err("hint", save={**good, "coach": False})["code"] == "web.hints_off"
    assert err("hint", save=good, seat=1)["code"] == "web.hints_own_seat"


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def test_deeply_nested_json_answers_an_error() -> None:
    ok("start", seed=1)
    before = ok("state")
    for name in ("state", "resume", "start", "act", "choose", "hint"):
        for text in ("[" * 100_000, "{\"a\":" * 100_000, "[" * 50 + "]" * 50,
                     json.dumps({"save": {"v": 1, "record": {"x": nested(20)}}})):
            out = json.loads(web.call(name, text))
            assert out["code"] in ("web.payload_depth", "web.payload_json"), out
    assert json.loads(web.call("resume", "[" * 100_000 + "]" * 100_000))["code"] == "web.payload_depth"
    assert ok("state") == before


@pytest.mark.parametrize("name", [None, 5, ["start"], {"a": 1}, b"start", 1.5, True])
def test_a_call_name_that_is_not_a_text(name: Any) -> None:
    out = json.loads(web.call(name, "{}"))
    assert out["code"] == "web.call_name"


@pytest.mark.parametrize("payload", [None, 5, b"{}", {"seed": 1}, ["{}"], 1.5, True])
def test_a_payload_that_is_not_a_text(payload: Any) -> None:
    out = json.loads(web.call("start", payload))
    assert out["code"] == "web.payload_type"


@pytest.mark.parametrize("payload,code", [
    ("{bad", "web.payload_json"), ("", None), ("[1, 2]", "web.payload_object"), ("5", "web.payload_object"),
    ('"x"', "web.payload_object"), ("null", "web.payload_object"), ('{"seed": NaN}', "web.payload_json"),
    ('{"seed": Infinity}', "web.payload_json"), ('{"seed": 1e999}', "web.payload_json"),
    ('{"options": {"target": -1e400}}', "web.payload_json"), ("{\"seed\": 1" + "0" * 5000 + "}", "web.payload_json"),
    ("{\"x\": \"" + "a" * (web.MAX_PAYLOAD + 1) + "\"}", "web.payload_size"),
])
def test_malformed_requests_are_refused_in_words(payload: str, code: str | None) -> None:
    out = json.loads(web.call("start", payload))
    if code is None:
        assert "ok" in out   # an empty payload is {}
    else:
        assert out["code"] == code and out["error"]


def test_unknown_call_and_unknown_field() -> None:
    out = json.loads(web.call("nope\n" * 30, "{}"))
    assert out["code"] == "web.unknown_call" and "\n" not in out["error"] and len(out["error"]) < 300
    assert "start" in out["error"]
    out = call("start", colour=1)
    assert out["code"] == "web.unknown_field" and "colour" in out["error"]
    assert err("state")["code"] == "web.no_table"


def test_an_unexpected_failure_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    st = ok("start", seed=8)
    while st["to_act"] != 0:
        st = ok("act", action=ok("choose", save=st["save"], seat=st["to_act"])["action"], seat=st["to_act"])
    before = ok("state")
    real = web.answer.sheet

    def broken(*a: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(web.answer, "sheet", broken)
    legal = [a for a in session_of().legal() if not a.startswith("claim")]
    out = json.loads(web.call("act", json.dumps({"action": legal[0], "seat": 0})))
    assert out == {"error": web.WEB_MESSAGES["web.internal"], "code": "web.internal", "params": {}}
    monkeypatch.setattr(web.answer, "sheet", real)
    assert ok("state") == before
    assert ok("act", action=legal[0], seat=0)["save"]["record"] != before["save"]["record"]


# ------------------------------------------------------------------- tables

def test_tables_are_kept_apart_and_bounded() -> None:
    a = ok("start", table="a", seed=1)
    b = ok("start", table="b-2_x", seed=2, options={"players": 4})
    assert a["table"] == "a" and b["table"] == "b-2_x"
    rng = random.Random(0)
    for _ in range(5):
        play_random(rng, table="a")
    assert ok("state", table="b-2_x") == b
    for i in range(web.MAX_TABLES + 5):
        ok("start", table=f"t{i}", seed=i)
    assert len(web.table_ids()) == web.MAX_TABLES
    assert err("state", table="a")["code"] == "web.no_table"
    # using a table keeps it: t5 is used, then more tables come, t5 stays
    ok("state", table="t5")
    for i in range(3):
        ok("start", table=f"u{i}", seed=i)
    assert "t5" in web.table_ids() and "t6" not in web.table_ids()


# -------------------------------------------------------------------- saves

def test_a_v1_save_of_the_v0_1_site_resumes_and_is_answered_as_v2() -> None:
    sess = Session.new("chkobba", {"target": 21}, seed=9)
    rng = random.Random(9)
    for _ in range(25):
        sess.apply(rng.choice([t for t in sess.legal() if not t.startswith("claim")]))
    seats = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]
    st = ok("resume", save=v1_save(sess, seats, coach=True))
    assert st["save"] == {"v": 2, "game": "chkobba", "record": sess.record(), "seed": sess.seed,
                          "seats": seats, "coach": True}
    assert st["coach"] is True and st["seats"] == seats
    assert st["view"]["hand"] == sess.view(0)["hand"]
    # without coach (older saves) and without seed
    plain = v1_save(sess, seats)
    del plain["coach"], plain["seed"]
    assert ok("resume", save=plain, table="p")["coach"] is False
    again = ok("resume", save=st["save"], table="again")
    assert {k: v for k, v in again.items() if k != "table"} == {k: v for k, v in st.items() if k != "table"}


def _same_position(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("game", "seats", "sides", "to_act", "to_act_kind", "words", "claim", "summary", "coach", "save"):
        assert a[key] == b[key], key
    for key in ("hand", "table", "score", "games", "history", "phase", "hand_counts", "piles", "results"):
        assert a["view"][key] == b["view"][key], key
    assert a["sheet"]["rounds"] == b["sheet"]["rounds"] and a["sheet"]["result"] == b["sheet"]["result"]


GAMES = int(os.environ.get("CHKOBBA_FUZZ", "0")) * 4 + 4


@pytest.mark.parametrize("options", [{}, {"players": 4}, {"capture": "compulsory", "last_card_sweep": True},
                                     {"match": 3, "all_diamonds_wins": True}])
def test_every_answered_save_resumes_to_the_same_state(options: dict[str, Any]) -> None:
    rng = random.Random(json.dumps(options))
    for g in range(max(1, GAMES // 4)):
        st = ok("start", seed=rng.randrange(1000), options=options)
        steps = 0
        while st["to_act"] is not None and steps < 160:
            st = play_random(rng)
            again = ok("resume", save=st["save"], table="check")
            _same_position(st, again)
            steps += 1


# --------------------------------------------------------------- the sheet

def _play_out(rng: random.Random, table: str = "main") -> dict[str, Any]:
    st = ok("state", table=table)
    while st["to_act"] is not None:
        st = play_random(rng, table, claims=False)
        sheet = st["sheet"]
        if sheet["result"] is not None and not sheet["over"]:
            assert st["view"]["history"] == []   # said between games only
    return st


@pytest.mark.parametrize("players", [2, 4])
def test_sheet_of_a_whole_game(players: int) -> None:
    ok("start", seed=21, options={"players": players})
    st = _play_out(random.Random(21))
    sheet = st["sheet"]
    assert sheet["over"] and sheet["winner"] in (0, 1)
    rounds = sheet["rounds"]
    assert rounds and [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    total = [0, 0]
    for r in rounds:
        total = [total[0] + r["points"][0], total[1] + r["points"][1]]
        assert r["running"] == total and r["game"] == 1
        assert r["breakdown"]["points"] == r["points"]
    assert [r["breakdown"] for r in rounds] == st["summary"]["rounds"]
    assert sheet["score"] == total == st["summary"]["score"]
    result = sheet["result"]
    w = sheet["winner"]
    who = {2: ("you", "computer"), 4: ("your_side", "other_side")}[players][w]
    assert result["code"] == f"web.result.game_{who}"
    assert result["text"] == web._render(result["code"], result["params"])
    assert result["text"].endswith(f"the game {total[w]}-{total[1 - w]}")
    assert "match" not in result["text"]


def test_sheet_of_a_match_says_match_and_each_game() -> None:
    ok("start", seed=4, options={"match": 3})
    rng = random.Random(4)
    seen_between = []
    st = ok("state")
    while st["to_act"] is not None:
        st = play_random(rng, claims=False)
        if st["sheet"]["result"] and not st["sheet"]["over"]:
            seen_between.append(st["sheet"]["result"])
    sheet = st["sheet"]
    assert sheet["over"] and sheet["result"]["code"].startswith("web.result.match_")
    assert "match" in sheet["result"]["text"]
    games = sheet["games"]
    w = sheet["winner"]
    assert sheet["result"]["text"].endswith(f"the match {games[w]}-{games[1 - w]}")
    assert seen_between and all(r["code"].startswith("web.result.match_") and "game" in r["text"]
                                for r in seen_between)
    assert {r["game"] for r in sheet["rounds"]} == set(range(1, sum(games) + 1))
    winners = [r["game_winner"] for r in sheet["rounds"] if r["game_over"]]
    assert [winners.count(0), winners.count(1)] == games
    for prev, cur in zip(sheet["rounds"], sheet["rounds"][1:]):
        if cur["game"] != prev["game"]:
            assert prev["game_over"] and cur["running"] == cur["points"]


# ---------------------------------------------------------- describe, misc

def test_describe_and_messages() -> None:
    d = ok("describe")
    assert d["levels"] == ["easy", "medium", "hard"] and d["seat_kinds"] == ["human", "computer"]
    assert d["save_version"] == 2
    assert [g["game"] for g in d["games"]] == ["chkobba", "seven_diamonds"]
    chk = d["games"][0]
    names = [o["name"] for o in chk["options"]]
    assert names[0] == "players" and set(names) == set(web.defaults()["chkobba"])
    assert [g["game"] for g in ok("describe", game="seven_diamonds")["games"]] == ["seven_diamonds"]
    # what the page shows of each game besides its table comes from here, not from the page's own lists
    facts = {g["game"]: (g["daily"], g["sweeps"], g["timers"]) for g in d["games"]}
    assert facts == {"chkobba": (True, True, [30, 30]), "seven_diamonds": (True, False, [10, 12])}
    assert err("describe", game="poker")["code"] == "web.game"
    msgs = ok("messages")["messages"]
    assert set(web.WEB_MESSAGES) <= set(msgs)
    assert all(isinstance(v, str) for v in msgs.values())


def test_claim_survives_a_reload_after_earlier_rounds() -> None:
    """A resumed save whose last move is a lay still offers the claim button
    (the window is said after every lay, so it tells nothing)."""
    sess = Session.new("chkobba", {}, seed=2)
    rng = random.Random(2)
    while not (sess.state.results and sess.to_act() == 0 and sess.last_move
               and sess.last_move["kind"] == "lay" and sess.last_move["seat"] == 1):
        sess.apply(rng.choice([t for t in sess.legal() if not t.startswith("claim")]))
    st = ok("resume", save=v1_save(sess, HUMAN_AND_EASY))
    assert st["view"]["last"]["round_ended"] is False
    assert st["claim"] == {"card": sess.last_move["card"], "seat": 1}
    assert "claim_window" not in st   # the facade derives no claim rule of its own


def test_docs_name_every_code_of_the_facade() -> None:
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "facade.md").read_text()
    for code in web.WEB_MESSAGES:
        shown = code
        for who in ("you", "computer", "opponent", "your_side", "other_side"):
            if code.startswith("web.result.") and code.endswith("_" + who):
                shown = code[: -len(who)] + "WHO"
        assert f"`{shown}`" in doc, code
    for name in web.API:
        assert f"| `{name}` |" in doc, name


def test_a_huge_text_in_a_save_gives_a_short_error() -> None:
    sess = Session.new("chkobba", {}, seed=1)
    record = sess.record()
    record["rounds"][0]["actions"] = ["7D" * 5000 + "\n"]
    out = err("resume", save={"v": 2, "record": record, "seed": 1, "seats": HUMAN_AND_EASY})
    assert out["code"] == "web.save" and len(out["error"]) <= web.MAX_ERROR
    assert len(json.dumps(out["params"])) < 2000 and "\n" not in json.dumps(out["params"]).replace("\\n", "")


def yours(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The session's moves as seat 0 reads them (its own in the second person)."""
    from chkobba.web.answer import worded
    return [worded(m, 0) for m in moves]


def test_moves_of_this_round_and_the_last() -> None:
    st = ok("start", seed=12)
    rng = random.Random(12)
    assert st["moves"] == [] and st["last_round_moves"] == []
    for _ in range(3):
        st = play_random(rng, claims=False)
    assert st["moves"] == yours(session_of().moves()) and len(st["moves"]) >= 3
    assert all(m["code"] and m["text"] for m in st["moves"])
    finished: list[list[dict[str, Any]]] = []   # the moves of each finished round
    while len(finished) < 2 and st["to_act"] is not None:
        before = st
        st = play_random(rng, claims=False)
        if len(st["sheet"]["rounds"]) > len(before["sheet"]["rounds"]):
            # the round just finished stays shown until the new one has a move
            assert st["moves"][-1]["round_ended"] is True
            assert st["moves"][: len(before["moves"])] == before["moves"]
            assert st["last_round_moves"] == (finished[-1] if finished else [])
            finished.append(st["moves"])
            st = play_random(rng, claims=False)
            assert st["last_round_moves"] == finished[-1]
            assert 1 <= len(st["moves"]) <= 2 and st["moves"] == yours(session_of().moves())
    assert len(finished) == 2


def test_hint_reasons_carry_codes() -> None:
    st = ok("start", seed=3, coach=True)
    while st["to_act"] != 0:
        st = ok("act", action=ok("choose", save=st["save"], seat=st["to_act"])["action"], seat=st["to_act"])
    actions = ok("hint", save=st["save"])["actions"]
    msgs = ok("messages")["messages"]
    assert actions and all(a["code"] in msgs for a in actions)
    assert [a["rank"] for a in actions] == list(range(1, len(actions) + 1))


# Seeds 14 and 23 end games with all ten diamonds (with these random moves).
@pytest.mark.parametrize("seed", [14, 23] + list(range(100, 100 + int(os.environ.get("CHKOBBA_FUZZ", "0")) * 5)))
def test_game_winners_of_the_sheet_add_up_to_the_engines_games(seed: int) -> None:
    ok("start", seed=seed, options={"match": 5, "all_diamonds_wins": True, "players": 2 + 2 * (seed & 1)})
    rng = random.Random(seed)
    st = ok("state")
    said = []
    while st["to_act"] is not None:
        st = play_random(rng, claims=False)
        if st["sheet"]["result"] and st["view"]["history"] == [] and not st["sheet"]["over"]:
            said.append(st["sheet"]["result"]["text"])
    if seed in (14, 23):
        assert any("with all ten diamonds" in t for t in said), said
    winners = [r["game_winner"] for r in st["sheet"]["rounds"] if r["game_over"]]
    assert [winners.count(0), winners.count(1)] == st["sheet"]["games"] == st["summary"]["games"]
    assert all(r["game_winner"] is None for r in st["sheet"]["rounds"] if not r["game_over"])


def test_answers_carry_the_fields_of_the_contract() -> None:
    """The fields branch `table` builds on (CONTRACT.md, docs/facade.md)."""
    st = ok("start", seed=7, options={"players": 4})
    assert set(st) == {"table", "game", "view", "seats", "sides", "human", "to_act", "to_act_kind", "words",
                       "claim", "moves", "last_round_moves", "sheet", "summary", "coach", "save",
                       "humans", "handoff", "spectator", "takeback", "timers", "captures"}
    assert st["spectator"] is False   # one answer shape for tables and embeds (issue 20)
    assert set(st["sheet"]) == {"rounds", "score", "games", "target", "match", "over", "winner", "result"}
    assert set(st["save"]) == {"v", "game", "record", "seed", "seats", "coach"}
    rng = random.Random(7)
    while not st["sheet"]["rounds"]:
        st = play_random(rng, claims=False)
    assert set(st["sheet"]["rounds"][0]) == {"round", "game", "points", "running", "breakdown", "game_over",
                                            "game_winner"}
    assert st["moves"] and {"seat", "action", "kind", "card", "cards", "chkobba", "round_ended", "code", "params",
                            "text"} <= set(st["moves"][0])
    d = ok("describe")
    assert set(d) >= {"games", "levels", "seat_kinds", "save_version"}
    assert set(d["games"][0]) >= {"game", "available", "players", "options"}
    assert {"name", "default", "choices", "min", "max", "requires", "code"} <= set(d["games"][0]["options"][0])
    assert set(ok("messages")) == {"messages"}


def test_captures_are_the_legal_captures_of_the_human_only() -> None:
    """``captures`` (the page's quicker capture, docs/facade.md): the human's
    legal captures while the human is to act, no claim; empty otherwise."""
    rng = random.Random(3)
    ok("start", seed=3, options={"players": 2})
    seen_mine = seen_other = False
    for _ in range(60):
        st = play_random(rng, claims=False)
        session = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
        if st["to_act"] == 0 and st["view"]["phase"] == "play":
            legal = session.legal()
            assert st["captures"] == [a for a in legal if "x" in a and not a.startswith("claim")]
            seen_mine = seen_mine or bool(st["captures"])
        else:
            assert st["captures"] == []
            seen_other = True
        if seen_mine and seen_other:
            return
    raise AssertionError("no position with captures of the human and one of another seat")
