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
