"""Every lesson file (lessons/*.json) of the rule tutorial: it loads, each
step's position is reached from its record, the right moves are legal and
bring about the step's point, another move is refused or judged wrong with a
reason, and the step travels as a link."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from chkobba.errors import ChkobbaError
from chkobba.links import decode, encode
from chkobba.links.lessons import LESSONS_DIR, Lesson, Step, load, load_all, parse_lesson
from chkobba.messages import MESSAGES, render

FILES = sorted(LESSONS_DIR.glob("*.json"))
STEPS = [(f"{lesson.id}/{s.id}", s) for lesson in load_all() for s in lesson.steps]

# the tutorial's topics (issue 14), each one step at least
TOPICS = ["captures/by_value", "captures/by_sum", "captures/value_first", "captures/choose", "captures/lay",
          "captures/chkobba", "captures/last_card", "captures/last_card_option", "captures/claim",
          "scoring/leftovers", "scoring/karta", "scoring/dinari", "scoring/barmila", "scoring/haya",
          "scoring/chkobba", "seven_diamonds/open", "seven_diamonds/build", "seven_diamonds/forced_pass",
          "seven_diamonds/double", "seven_diamonds/triple", "seven_diamonds/scoring",
          "seven_diamonds/last_seven"]


def test_files_found_and_topics_covered() -> None:
    assert len(FILES) >= 3
    names = [n for n, _ in STEPS]
    assert len(set(names)) == len(names)
    for topic in TOPICS:
        assert topic in names, topic


def test_text_keys_are_unique_and_stable() -> None:
    keys: list[str] = []
    for lesson in load_all():
        keys.append(lesson.title.key)
        for s in lesson.steps:
            keys += [s.text.key, s.hint.key]
            assert s.text.key == f"lesson.{lesson.id}.{s.id}.text"
    assert len(keys) == len(set(keys))


def matches(expected: Any, actual: Any) -> bool:
    """``expected`` holds for ``actual`` (dicts: every key given matches)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    return bool(expected == actual)


@pytest.mark.parametrize("name,step", STEPS, ids=[n for n, _ in STEPS])
def test_step(name: str, step: Step) -> None:
    s = step.session()
    # the position is reached: the reader's seat is to act
    assert s.to_act() == step.seat, name
    legal = s.legal()
    for move in step.moves:
        assert str(s.state.parse(move)) in legal, (name, move)
        v = step.judge(move)
        assert v.right, (name, move)
        out = step.outcome(move)
        assert matches(step.expect, out), (name, move, step.expect, out)
    # a wrong move: every other legal move, and the plausible mistakes listed
    right = {str(s.state.parse(m)) for m in step.moves}
    wrong_legal = [a for a in legal if a not in right]
    for a in wrong_legal:
        v = step.judge(a)
        assert not v.right and v.message.code == "lesson.not_this" and v.hint == step.hint
    for w in step.wrong:
        v = step.judge(w["move"])
        assert not v.right, (name, w)
        assert v.message.code == w["code"], (name, w, v.message)
        assert v.message.code in MESSAGES and str(v.message) == render(v.message.code, v.message.params)
    assert wrong_legal or step.wrong, f"{name}: no wrong move is tried"
    assert step.wrong, f"{name}: list one plausible mistake with the engine's reason"
    # the step is an embed
    text = encode(step.link())
    back = decode(text)
    assert back == step.link() and back.mode == "puzzle" and back.show == step.seat


def test_lesson_files_are_strict() -> None:
    data = json.loads(FILES[0].read_text(encoding="utf-8"))
    bad_cases = []
    d = json.loads(json.dumps(data))
    d["steps"][0]["text"] = "no key"
    bad_cases.append(d)
    d = json.loads(json.dumps(data))
    d["steps"][0]["record"]["rounds"][0]["decks"][0].pop()
    bad_cases.append(d)
    d = json.loads(json.dumps(data))
    d["steps"][0]["moves"] = []
    bad_cases.append(d)
    d = json.loads(json.dumps(data))
    d["steps"][0]["colour"] = "red"
    bad_cases.append(d)
    for case in bad_cases:
        with pytest.raises(ChkobbaError):
            parse_lesson(case, "test")
    assert isinstance(parse_lesson(data, "ok"), Lesson)
    assert load(FILES[0]).id == data["id"]


def test_lesson_texts_show_cards_as_symbols() -> None:
    from chkobba.links.lessons import cards_as_symbols
    sym = {"H": "\u2665\ufe0e", "C": "\u2663\ufe0e", "D": "\u2666\ufe0e", "S": "\u2660\ufe0e"}
    assert cards_as_symbols("play 5H (5Hx2C3D), not TS") == (
        f"play 5{sym['H']} (5{sym['H']} takes 2{sym['C']} 3{sym['D']}), not 10{sym['S']}")
    assert cards_as_symbols("5 + 2 = 7: KDs and AH5") == "5 + 2 = 7: KDs and AH5"   # not card codes
    for lesson in load_all():
        for step in lesson.steps:
            for text in (step.text.text, step.hint.text):
                assert not re.search(r"\b(?:10|[A2-9TJQK])[DHSC]\b", text), text
