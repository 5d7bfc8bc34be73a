"""chkobba.page (issue 39): the writer's API in CPython, without a browser."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from chkobba import page
from chkobba.errors import ChkobbaError


def by_value() -> page.Position:
    return page.setup(hands=["7D 3C KH", "QS 2H 5C"], table="7H 4S JC")


def test_legal_and_why_are_the_engines() -> None:
    p = by_value()
    assert p.legal() == ["7Dx7H", "7D", "KH", "3C"]
    v = p.why("7Dx4S")
    assert not v.legal and v.code == "capture.value_mismatch" and v.text == "7D is worth 7 and 4S is worth 4"
    assert p.why("7Dx7H").legal and p.why("7Dx7H").code == "page.legal"


def test_judge_right_wrong_and_not_asked() -> None:
    p = by_value()
    assert p.judge("7Dx7H", ["7Dx7H"]).right is True
    assert p.judge("KH", ["7Dx7H"]).code == "lesson.not_this"
    assert p.judge("9D", ["7Dx7H"]).legal is False


def test_play_leaves_the_position_and_state_is_the_answer_builders() -> None:
    p = by_value()
    q = p.play("7Dx7H")
    assert q.to_act == 1 and p.to_act == 0
    assert q.state(0)["view"]["piles"] == [2, 0]
    assert set(p.state()) >= {"view", "seats", "to_act", "sheet"}


def test_question_call_answers_like_the_facade() -> None:
    q = page.Question(by_value(), ("7Dx7H",), hint="take the 7")
    wrong = json.loads(q.call("judge", json.dumps({"action": "7Dx4S"})))["ok"]
    assert wrong["code"] == "capture.value_mismatch" and wrong["hint"] == "take the 7" and "state" not in wrong
    right = json.loads(q.call("judge", json.dumps({"action": "7Dx7H"})))["ok"]
    assert right["right"] is True and right["state"]["to_act"] == 1 and "7H" not in right["state"]["view"]["table"]
    assert "error" in json.loads(q.call("other", "{}"))


def test_words_go_through_the_pages_renderer() -> None:
    seen = []
    page.set_words(lambda code, params, english: seen.append(code) or f"<{code}>")
    try:
        assert by_value().why("7Dx4S").text == "<capture.value_mismatch>"
    finally:
        page.set_words(None)
    assert seen == ["capture.value_mismatch"]


def test_bad_input_is_the_engines_error_in_words() -> None:
    with pytest.raises(ChkobbaError) as e:
        page.link("c1.bad")
    assert e.value.code.startswith("link.")
    with pytest.raises(ChkobbaError):
        page.setup(hands=["7D 9D", "KH"])       # 9D is no Chkobba card
    with pytest.raises(ChkobbaError):
        page.record("{not json")
    with pytest.raises(ValueError):
        page.setup(game="poker", hands=[])
    with pytest.raises(ValueError):
        by_value().link()                       # a position from its parts is no link


class FakeBrowser:
    """chkobba.page.browser's three calls, recorded (no page in CPython)."""

    def __init__(self) -> None:
        self.mounted: list[tuple[str, dict[str, object]]] = []
        self.failed: list[tuple[str, Exception]] = []

    def words(self, code: str, params: object, english: str) -> str:
        return f"[{code}]"

    def mount_question(self, target: str, spec: page.Question) -> str:
        self.mounted.append((target, spec.first()))
        return f"table at {target}"

    def fail(self, target: str, exc: Exception) -> None:
        self.failed.append((target, exc))


@pytest.fixture()
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBrowser]:
    from chkobba.page import browser
    f = FakeBrowser()
    for name in ("words", "mount_question", "fail"):
        monkeypatch.setattr(browser, name, getattr(f, name))
    monkeypatch.setattr(page, "_mounted", [])
    yield f
    page.set_words(None)


def test_table_mounts_a_question_and_says_it_in_the_pages_words(fake: FakeBrowser) -> None:
    assert page.table("#t", by_value(), right=["7Dx7H"]) == "table at #t"
    (target, first), = fake.mounted
    assert target == "#t" and first["mode"] == "question" and first["right"] is True
    assert first["state"]["view"]["table"] == ["7H", "4S", "JC"]  # type: ignore[index]
    assert page.tables() == ["table at #t"] and not fake.failed
    assert by_value().why("7Dx4S").text == "[capture.value_mismatch]"   # the page's renderer now


def test_a_table_that_cannot_be_made_says_why_in_its_element(fake: FakeBrowser) -> None:
    assert page.table("#a", by_value(), right=["7Dx4S"]) is None        # a "right" move that is illegal
    assert page.table("#b", lambda: page.setup(hands=["7D 9D", "KH"])) is None
    assert page.table("#c", "not a position") is None  # type: ignore[arg-type]
    assert [t for t, _ in fake.failed] == ["#a", "#b", "#c"]
    a, b, c = (e for _, e in fake.failed)
    assert isinstance(a, ValueError) and "7D is worth 7 and 4S is worth 4" in str(a)
    assert isinstance(b, ChkobbaError) and "9D" in str(b)
    assert isinstance(c, ValueError) and not fake.mounted and page.tables() == []


# ------------------------------------------------------- the embeds' modes

RECORD = {"game": "chkobba", "first_dealer": 0, "options": {"players": 2},
          "rounds": [{"decks": [["6S", "QS", "6H", "QH", "3C", "KC", "2D", "2S", "3D", "AD", "6D", "QD", "JC", "AC",
                                 "5D", "7D", "4H", "QC", "KH", "5C", "5H", "6C", "7S", "KS", "3H", "7C", "4C", "AS",
                                 "2H", "KD", "2C", "JH", "4S", "JS", "7H", "5S", "AH", "JD", "4D", "3S"]],
                      "actions": ["keep", "6H", "AD"]}]}


class FakeLive(FakeBrowser):
    def __init__(self) -> None:
        super().__init__()
        self.live: list[tuple[str, dict[str, object], page.Live]] = []

    def mount_live(self, target: str, spec: page.Live) -> str:
        self.live.append((target, spec.first(), spec))
        return f"{spec.mode} at {target}"


@pytest.fixture()
def live(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLive]:
    from chkobba.page import browser
    f = FakeLive()
    for name in ("words", "mount_question", "mount_live", "fail"):
        monkeypatch.setattr(browser, name, getattr(f, name), raising=name != "mount_live")
    monkeypatch.setattr(page, "_mounted", [])
    yield f
    page.set_words(None)


def ok(text: str) -> dict[str, object]:
    out = json.loads(text)
    assert "ok" in out, out
    return out["ok"]  # type: ignore[no-any-return]


def test_a_replay_table_steps_through_the_record_with_the_facades_calls(live: FakeLive) -> None:
    assert page.table("#r", page.record(RECORD), mode="replay") == "replay at #r"
    (target, first, spec), = live.live
    assert first["mode"] == "replay" and first["index"] == 0 and first["count"] == 4
    step = ok(spec.call("link_step", json.dumps({"index": 1})))
    assert step["index"] == 1 and step["at"] == [1, 1]
    refused = json.loads(spec.call("link_act", json.dumps({"action": "6S"})))
    assert refused["code"] == "web.unknown_call"             # a replay is watched, not played
    assert json.loads(spec.call("link_step", json.dumps({"index": 9})))["code"] == "web.embed.index"


def test_a_play_table_gets_the_computers_answer(live: FakeLive) -> None:
    text = page.record(RECORD).link("play")
    assert page.table("#p", text, mode="play") == "play at #p"       # a link's text will do
    (_, first, spec), = live.live
    assert first["mode"] == "play" and first["reader"] == 1 and first["state"]["to_act"] == 1  # type: ignore[index]
    illegal = json.loads(spec.call("link_act", json.dumps({"action": "6Sx3C"})))
    assert illegal["code"].startswith("capture."), illegal
    mine = ok(spec.call("link_act", json.dumps({"action": "6Sx6H"})))
    assert mine["state"]["to_act"] == 0  # type: ignore[index]
    theirs = ok(spec.call("link_computer", "{}"))
    assert isinstance(theirs["action"], str) and theirs["state"]["to_act"] == 1  # type: ignore[index]


def test_a_puzzle_table_judges_a_wrong_then_a_right_move(live: FakeLive) -> None:
    page.table("#z", lambda: page.record(RECORD), mode="puzzle")
    (_, first, spec), = live.live
    assert first["mode"] == "puzzle"
    wrong = ok(spec.call("link_judge", json.dumps({"action": "QS"})))
    assert wrong["legal"] is True and wrong["right"] is False and wrong["code"] == "web.embed.wrong"
    illegal = ok(spec.call("link_judge", json.dumps({"action": "6Sx3C"})))
    assert illegal["legal"] is False and str(illegal["code"]).startswith("capture.")
    right = ok(spec.call("link_judge", json.dumps({"action": PUZZLE_RIGHT})))
    assert right["right"] is True and right["code"] == "web.embed.right"


PUZZLE_RIGHT = "6Sx6H"


def test_a_mode_table_that_cannot_be_made_says_why(live: FakeLive) -> None:
    assert page.table("#a", by_value(), mode="replay") is None       # a position from its parts has no record
    assert page.table("#b", page.record(RECORD), mode="film") is None
    assert page.table("#c", "c1.bad", mode="play") is None
    assert page.table("#d", page.record(RECORD), mode="puzzle", right=["6S"]) is None
    assert [t for t, _ in live.failed] == ["#a", "#b", "#c", "#d"] and not live.live
    assert isinstance(live.failed[2][1], ChkobbaError) and live.failed[2][1].code.startswith("link.")


def test_a_play_tables_seat_is_the_writers(live: FakeLive) -> None:
    page.table("#s", page.record(RECORD), mode="play", seat=0)
    (_, first, _), = live.live
    assert first["reader"] == 0 and first["state"]["to_act"] == 1  # type: ignore[index]
