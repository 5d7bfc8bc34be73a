"""web/ai.py: the computer players and the coach think in slices in the
page's interpreter and answer exactly what one blocking facade call answers
(issue 22, "one Python per tab")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from chkobba import web
from chkobba.session import Session

spec = importlib.util.spec_from_file_location("chkobba_ai", Path(__file__).resolve().parent.parent / "web" / "ai.py")
assert spec and spec.loader
ai: Any = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ai)


def _start(**args: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(web.call("start", json.dumps(args)))
    return answer["ok"]


def _until(st: dict[str, Any], seat: int) -> dict[str, Any]:
    """Play on (the human's first legal move, the computers' own) until ``seat`` is to act."""
    while st["to_act"] != seat:
        who = st["to_act"]
        if st["to_act_kind"] == "computer":
            action = json.loads(web.call("choose", json.dumps({"save": st["save"], "seat": who})))["ok"]["action"]
        else:
            save = st["save"]
            session = Session.from_record(save["record"], seed=save["seed"])
            action = str(session.observation(who).legal_actions()[0])
        st = json.loads(web.call("act", json.dumps({"action": action, "seat": who})))["ok"]
    return st


def _sliced(name: str, payload: str) -> tuple[str, int]:
    task = ai.start(name, payload)
    slices = 0
    while (out := task.step(2.0)) is None:
        slices += 1
    return out, slices


def test_a_hard_computer_move_thought_in_slices_is_the_facades_move() -> None:
    st = _start(seed=7, seats=[{"kind": "human"}, {"kind": "computer", "level": "hard"}])
    st = _until(st, 1)
    payload = json.dumps({"save": st["save"], "seat": 1})
    out, slices = _sliced("choose", payload)
    assert slices > 1                       # it did think in more than one slice
    assert json.loads(out) == json.loads(web.call("choose", payload))
    assert json.loads(out)["ok"]["level"] == "hard"


def test_the_coach_thought_in_slices_gives_the_facades_hint() -> None:
    st = _until(_start(seed=3, coach=True, seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]), 0)
    payload = json.dumps({"save": st["save"], "seat": 0})
    out, slices = _sliced("hint", payload)
    assert slices > 1
    assert json.loads(out) == json.loads(web.call("hint", payload))
    assert json.loads(out)["ok"]["actions"]


def test_quick_players_and_refusals_answer_at_once() -> None:
    st = _start(seed=7, seats=[{"kind": "human"}, {"kind": "computer", "level": "medium"}])
    # the medium player answers within the first call
    assert json.loads(ai.start("choose", json.dumps({"save": st["save"], "seat": 1})).answer)["ok"]["level"] == "medium"
    # not a computer seat: the facade's refusal, in words, at once
    refused = ai.start("choose", json.dumps({"save": st["save"], "seat": 0})).answer
    assert json.loads(refused)["code"] == "web.not_computer"
    assert json.loads(ai.start("choose", "{not json").answer)["error"]
    try:
        ai.start("act", "{}")
    except ValueError as exc:
        assert "act" in str(exc)
    else:
        raise AssertionError("only choose and hint are thought about")
    # outside a task the search runs whole, as before
    st = _until(_start(seed=3, coach=True, seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]), 0)
    assert "ok" in json.loads(web.call("hint", json.dumps({"save": st["save"]})))


def test_par_thought_in_slices_is_par() -> None:
    from chkobba import daily as D
    from chkobba.web import daily as WD
    WD._RUNS.clear()
    payload = json.dumps({"date": "2026-11-20", "game": "chkobba"})
    out, slices = _sliced("daily_par", payload)
    assert slices > 10                      # a decision at a time, each in slices
    assert json.loads(out)["ok"] == D.par("2026-11-20", "chkobba")


def test_yesterdays_replay_in_slices_and_todays_refused_at_once() -> None:
    from chkobba.web import daily as WD
    WD._RUNS.clear()
    noon = 1764590400    # 2025-12-01 12:00 UTC
    today = json.dumps({"date": "2025-12-01", "game": "seven_diamonds", "at": noon})
    out, slices = _sliced("daily_replay", today)
    assert slices == 0 and json.loads(out)["code"] == "web.daily.not_yet"
    assert not WD._RUNS                     # nothing was computed for it
    out, slices = _sliced("daily_replay", json.dumps({"date": "2025-11-30", "game": "seven_diamonds", "at": noon}))
    assert slices > 0
    assert json.loads(out) == json.loads(web.call("daily_replay", json.dumps(
        {"date": "2025-11-30", "game": "seven_diamonds", "at": noon})))
    assert json.loads(out)["ok"]["link"]


def test_the_players_modules_are_imported_ahead_and_garbage_collected_before_the_rest_is_frozen() -> None:
    import gc
    import importlib
    for name in ai.WARM:
        importlib.import_module(name)   # each names a real module of the package
    try:
        ai.warm("os")
    except ValueError as exc:
        assert "os" in str(exc)
    else:
        raise AssertionError("only the players' modules are warmed")
    for name in ai.WARM:
        ai.warm(name)
    import weakref

    class Node:
        pass

    gone: list[bool] = []
    a, b = Node(), Node()
    a.other, b.other = b, a                    # a cycle, as a decision leaves (an exception's frames)
    weakref.finalize(a, lambda: gone.append(True))
    del a, b
    try:
        ai.tidy()
        assert gone == [True]                  # the garbage was collected, not frozen
        assert gc.get_freeze_count() > 0       # what was alive is out of the collector's sight
    finally:
        gc.unfreeze()


def test_the_practice_run_thinks_in_pieces_and_changes_no_answer() -> None:
    """The players' practice run before the first real decision (web/ai.py
    ``rehearse``: first runs of Python are slow in the browser) plays on
    sessions of its own, a piece a call, and leaves the facade's tables and
    every later answer as they were."""
    st = _until(_start(seed=11, seats=[{"kind": "human"}, {"kind": "computer", "level": "hard"}]), 1)
    payload = json.dumps({"save": st["save"], "seat": 1})
    answer = web.call("choose", payload)
    table = web.call("state", "{}")
    ai._rehearsing = None
    pieces = 0
    while ai.rehearse(1.0):
        pieces += 1
    assert pieces >= len(ai.REHEARSALS) * 2      # each kind of table: its moves, then search slices
    assert not ai.rehearse(1.0)                  # done once; later calls do nothing
    assert web.call("state", "{}") == table
    assert web.call("choose", payload) == answer
