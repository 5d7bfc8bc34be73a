"""The facade's embed, link, lesson and share calls (chkobba/web/embeds.py,
chkobba/web/lessons.py; docs/facade.md "Embeds, links and lessons")."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chkobba import web
from chkobba.messages import MESSAGES, render
from chkobba.links import Link, decode, encode
from chkobba.links.lessons import LESSONS_DIR, load_all
from chkobba.records import parse_record
from chkobba.session import Session
from facade_calls import call, ok

WORDS = ("keep", "table", "propose", "pass", "accept", "refuse")


def record(seed: int = 3, rounds: int = 1) -> dict[str, Any]:
    s = Session.new("chkobba", {}, seed=seed)
    rng = random.Random(seed)
    while s.state.round_index < rounds and s.to_act() is not None:
        s.apply(rng.choice(s.view(s.to_act())["legal"]))
    return s.record()


def choice_position(rec: dict[str, Any]) -> tuple[int, int]:
    for ply in range(1, len(rec["rounds"][0]["actions"])):
        s = Session.from_record(rec, seed=0, at=(1, ply))
        seat = s.to_act()
        if seat is not None and len([a for a in s.view(seat)["legal"] if a not in WORDS]) >= 3:
            return (1, ply)
    raise AssertionError


def test_replay_steps_through_every_position_with_every_hand() -> None:
    rec = record()
    text = encode(Link(parse_record(rec), None, "replay", None, False))
    a = ok("link_open", link=text, table="r")
    assert a["mode"] == "replay" and a["index"] == 0 and a["reader"] is None
    assert a["count"] == sum(len(r["actions"]) + 1 for r in rec["rounds"])
    for index in range(a["count"]):
        b = ok("link_step", table="r", index=index)
        st = b["state"]
        assert b["index"] == index
        assert "hands" in st["view"] and st["view"]["hand"] == st["view"]["hands"][0]
        assert "legal" not in st["view"]
    assert call("link_step", table="r", index=a["count"])["code"] == "web.embed.index"
    assert call("link_step", table="r", index=-1)["code"] == "web.embed.index"
    assert call("link_step", table="r", index=True)["code"] == "web.embed.index"
    assert call("link_act", table="r", action="7D")["code"] == "web.embed.mode"
    assert call("link_step", table="nothing-here", index=0)["code"] == "web.embed.no_table"


def test_replay_of_one_seat_hides_the_other_hands() -> None:
    rec = record()
    a = ok("link_open", link=encode(Link(parse_record(rec), (1, 3), "replay", 1, False)), table="s")
    assert a["index"] == 3 and "hands" not in a["state"]["view"] and a["state"]["human"] == 1


def test_play_from_here_takes_the_readers_move_then_the_computers() -> None:
    rec = record()
    at = choice_position(rec)
    a = ok("link_open", link=encode(Link(parse_record(rec), at, "play", None, False)), table="p")
    s = Session.from_record(rec, seed=0, at=at)
    reader = s.to_act()
    assert a["reader"] == reader and a["state"]["to_act"] == reader
    bad = call("link_act", table="p", action="ZZ")
    assert "error" in bad
    assert ok("state" if False else "link_open", link=encode(Link(parse_record(rec), at, "play", None, False)),
              table="p")["state"]["view"]["history"] == a["state"]["view"]["history"]
    move = [x for x in s.view(reader)["legal"] if x not in WORDS][0]
    b = ok("link_act", table="p", action=move)
    assert b["state"]["to_act"] != reader
    assert call("link_act", table="p", action=move)["code"] == "web.embed.not_reader"
    c = ok("link_computer", table="p")
    assert c["action"] and len(c["state"]["view"]["history"]) == len(b["state"]["view"]["history"]) + 1


def test_puzzle_judges_with_the_coach_and_reasons_only_when_allowed() -> None:
    rec = record()
    at = choice_position(rec)
    s = Session.from_record(rec, seed=0, at=at)
    legal = [x for x in s.view(s.to_act())["legal"] if x not in WORDS]
    for reasons in (True, False):
        ok("link_open", link=encode(Link(parse_record(rec), at, "puzzle", None, reasons)), table="z")
        verdicts = {m: ok("link_judge", table="z", action=m) for m in legal}
        assert sum(v["right"] for v in verdicts.values()) >= 1
        assert all(v["legal"] for v in verdicts.values())
        for v in verdicts.values():
            assert ("reason" in v) == reasons
            if reasons:
                # the reason as a message too (a page words it in its language), rendering to the same English
                msg = v["reason_message"]
                assert msg["code"] in MESSAGES and render(msg["code"], msg["params"]) == v["reason"]
                if v["best"]:
                    assert render(v["best"]["message"]["code"], v["best"]["message"]["params"]) == v["best"]["reason"]
        illegal = ok("link_judge", table="z", action="KCxAS2D")
        assert illegal["legal"] is False and illegal["right"] is False and illegal["code"] and illegal["text"]


@pytest.mark.parametrize("text, code", [
    ("", "link.empty"), ("c2.AAAA", "link.version"), ("<script>alert(1)</script>", "link.prefix"),
    ("c1.<b>x</b>", "link.characters"), ("c1." + "A" * 70_000, "link.too_long"),
])
def test_hostile_links_are_refused_in_words(text: str, code: str) -> None:
    answer = call("link_open", link=text, table="h")
    assert answer["code"] == code and "\n" not in answer["error"] and "<" not in answer["error"]


def test_truncated_links_are_refused() -> None:
    text = encode(Link(parse_record(record()), None, "replay", None, False))
    for cut in range(1, len(text) - 3):
        answer = call("link_open", link=text[:cut], table="t")
        assert "error" in answer and answer["code"].startswith("link."), answer


def test_every_lesson_step_through_the_facade() -> None:
    for path in sorted(LESSONS_DIR.glob("*.json")):
        data = json.loads(path.read_text())
        opened = ok("lesson_open", lesson=data)
        lesson = next(x for x in load_all() if x.id == opened["id"])
        assert [s["id"] for s in opened["steps"]] == [s.id for s in lesson.steps]
        for step, page_step in zip(lesson.steps, opened["steps"]):
            assert decode(page_step["link"]) == step.link()
            assert page_step["state"]["to_act"] == step.seat == page_step["state"]["human"]
            right = ok("lesson_judge", lesson=lesson.id, step=step.id, move=step.moves[0])
            assert right["right"] and right["code"] == "lesson.right"
            for wrong in step.wrong:
                v = ok("lesson_judge", lesson=lesson.id, step=step.id, move=wrong["move"])
                assert not v["right"] and v["code"] == wrong["code"] and v["hint"] == step.hint.text


def test_lesson_calls_refuse_bad_input() -> None:
    assert call("lesson_open", lesson={"id": "x"})["code"] == "web.lesson.data"
    assert call("lesson_open", lesson="nope")["code"] == "web.lesson.data"
    assert call("lesson_judge", lesson="nope", step="x", move="7D")["code"] == "web.lesson.unknown"
    assert call("lesson_judge", lesson=["x"], step="x", move="7D")["code"] == "web.lesson.unknown"


def test_share_links_replay_the_saved_game() -> None:
    st = ok("start", seed=11, seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    save = st["save"]
    s = Session.from_record(save["record"], seed=save["seed"])
    rng = random.Random(0)
    while s.state.round_index < 1:
        s.apply(rng.choice(s.view(s.to_act())["legal"]))
    s.apply(s.view(s.to_act())["legal"][0])
    save = dict(save, record=s.record())
    links = ok("share", save=save)
    game = decode(links["game"])
    assert game.mode == "replay" and game.record == parse_record(s.record()) and game.at is None
    pos = decode(links["position"])
    assert pos.mode == "play" and pos.session().state.history() == s.state.history()
    assert [decode(x).at for x in links["rounds"]] == [(1, 0), (2, 0)]
    last = ok("share", save=save, last_round=True)
    assert [decode(x).at for x in last["rounds"]] == [(2, 0)] and last["game"] == links["game"]
    assert call("share", save=save, last_round="yes")["code"] == "web.share.last_round"
    assert call("share", save={"v": 9})["code"] == "web.save"


def sd_record(seed: int = 3) -> dict[str, Any]:
    s = Session.new("seven_diamonds", {}, seed=seed)
    rng = random.Random(seed)
    while s.state.round_index < 1 and s.to_act() is not None:
        legal = s.view(s.to_act())["legal"]
        s.apply(rng.choice([a for a in legal if a != "timeout"] or legal))
    return s.record()


def test_seven_diamonds_links_answer_the_seven_diamonds_renderers_state() -> None:
    """A Seven Diamonds link gives the state the Seven Diamonds table draws
    (the calls as words, the ``seven`` block), as the main table's: the
    cards that may be laid only in a game of the reader's own (play), never
    in a replay, a puzzle or a lesson."""
    rec = sd_record()
    r = parse_record(rec)
    calls_at = (1, 0)
    play_at = next((1, p) for p in range(1, len(rec["rounds"][0]["actions"]))
                   if (s := Session.from_record(rec, seed=0, at=(1, p))).to_act() is not None
                   and s.view(s.to_act())["phase"] == "play")
    seat = Session.from_record(rec, seed=0, at=play_at).to_act()
    legal = Session.from_record(rec, seed=0, at=play_at).view(seat)["legal"]

    rp = ok("link_open", table="e", link=encode(Link(r, None, "replay", None, False)))
    st = rp["state"]
    assert st["game"] == "seven_diamonds" and st["words"] == [] and st["seven"]["playable"] == []
    assert all("level" not in s for s in st["seats"])               # whoever played the record
    assert rp["at"] == [1, 0] and rp["plies"] == len(rec["rounds"][0]["actions"])
    assert ok("link_step", table="e", index=3)["at"] == [1, 3]

    pl = ok("link_open", table="p", link=encode(Link(r, play_at, "play", None, False)))["state"]
    assert pl["seven"]["playable"] == [c for c in pl["view"]["hand"] if c in legal] != []
    assert pl["human"] == seat and pl["seats"][(seat + 1) % 4]["level"] == "medium"

    pz = ok("link_open", table="q", link=encode(Link(r, play_at, "puzzle", None, False)))["state"]
    assert pz["seven"]["playable"] == [] and pz["view"]["hand"] == pl["view"]["hand"]

    calls = ok("link_open", table="c", link=encode(Link(r, calls_at, "puzzle", None, False)))["state"]
    assert calls["view"]["phase"] == "calls"
    assert {w["action"] for w in calls["words"]} == set(Session.from_record(rec, seed=0, at=calls_at)
                                                        .view(calls["to_act"])["legal"]) - {"timeout"}
    assert calls["seven"]["speaking_order"]


def test_play_from_here_keeps_the_computers_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: "Play from here" of a game against hard seats a hard
    computer (it seated medium whatever the game's level)."""
    from chkobba.web import embeds
    st = ok("start", seed=12, seats=[{"kind": "human"}, {"kind": "computer", "level": "hard"}])
    save = st["save"]
    s = Session.from_record(save["record"], seed=save["seed"])
    rng = random.Random(1)
    for _ in range(6):
        s.apply(rng.choice(s.view(s.to_act())["legal"]))
    while s.to_act() != 0:         # the reader plays seat 0, the computer seat 1
        s.apply(rng.choice(s.view(s.to_act())["legal"]))
    links = ok("share", save=dict(save, record=s.record()), last_round=True)
    assert decode(links["position"]).level == "hard"
    opened = ok("link_open", table="hard", link=links["position"])
    assert opened["reader"] == 0 and opened["state"]["seats"][1] == {"kind": "computer", "level": "hard"}
    used: list[str] = []
    real = embeds.make_agent

    def spy(game: str, level: str) -> Any:
        used.append(level)
        return real(game, level)

    monkeypatch.setattr(embeds, "make_agent", spy)
    mine = s.copy()
    while mine.to_act() == 0:      # the reader's moves, then the computer's turn
        move = mine.legal()[0]
        mine.apply(move)
        ok("link_act", table="hard", action=move)
    assert mine.to_act() == 1
    ok("link_computer", table="hard")
    assert used == ["hard"]
    # a link without a level (older ones) plays the embed's default
    plain = encode(Link(parse_record(s.record()), None, "play", None, False))
    assert ok("link_open", table="plain", link=plain)["state"]["seats"][1]["level"] == embeds.EMBED_LEVEL
