"""Fuzz at the facade's edge (issue 10): random call names, payload texts,
fields and mutated saves thrown at ``chkobba.web.call``.

The contract, for every call: the answer is JSON text holding exactly
``{"ok": ...}`` or ``{"error", "code", "params"}`` (one line of words), never an
exception; a call that fails leaves every table as it was; a call that
succeeds answers a save that resumes. ``CHKOBBA_FUZZ=N`` multiplies the
number of examples for long runs (docs/facade.md).
"""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from chkobba import web
from chkobba.session import Session

FUZZ = max(1, int(os.environ.get("CHKOBBA_FUZZ", "1")))
SETTINGS = settings(max_examples=60 * FUZZ, deadline=None, derandomize=FUZZ == 1,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

NAMES = sorted(web.API)
EASY = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
EASY4 = EASY + [{"kind": "computer", "level": "easy"}] * 2


def _saves() -> list[dict[str, Any]]:
    """Saves of real games at several points (v1 and v2), all with easy
    computers so a fuzzed ``choose`` stays quick."""
    out: list[dict[str, Any]] = []
    for seed, opts, seats, steps in ((1, {}, EASY, 0), (2, {}, EASY, 30), (3, {"players": 4}, EASY4, 45),
                                      (4, {"capture": "compulsory"}, EASY, 70)):
        sess = Session.new("chkobba", opts, seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if sess.to_act() is None:
                break
            sess.apply(rng.choice(sess.legal()))
        out.append({"v": 1, "record": sess.record(), "seed": sess.seed, "seats": seats, "coach": True})
        out.append({"v": 2, "game": "chkobba", "record": sess.record(), "seed": sess.seed, "seats": seats,
                    "coach": False})
    return out


SAVES = _saves()

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-3, max_value=60), st.integers(), st.integers(min_value=2**53 - 2, max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.text(alphabet=st.sampled_from("\x00\n\r\t\u2028 \u00a0ذ7DHSCKQJx+"), max_size=8),
    st.sampled_from(["", "chkobba", "seven_diamonds", "human", "computer", "easy", "keep", "table",
                     "propose", "pass", "7D", "claim", "main", "x" * 300]),
)
json_values = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)), max_leaves=12)


plausible = st.sampled_from([2, 4, 3, 2.0, "2", True, False, None, 11, 21, 31, 12, 1, 3, 5, "QJK", "JQK",
                             "optional", "compulsory", "", 0, -1, 2**64])
valid_tables = st.sampled_from(["main", "four", "t1", "t-2_x"])


def _answer(text: str) -> dict[str, Any]:
    out = json.loads(text)
    assert isinstance(out, dict)
    assert set(out) in ({"ok"}, {"error", "code", "params"}), out
    if "error" in out:
        assert isinstance(out["error"], str) and out["error"]
        assert "\n" not in out["error"] and "\r" not in out["error"]
        assert isinstance(out["code"], str) and isinstance(out["params"], dict)
        assert len(out["error"]) <= web.MAX_ERROR and out["error"].isprintable()
    return out


def _tables() -> dict[str, str]:
    """Every table's state, as text."""
    return {tid: web.call("state", json.dumps({"table": tid})) for tid in list(web._tables)}


def _ensure_tables() -> None:
    if "main" not in web._tables:
        _answer(web.call("start", json.dumps({"seed": 5})))
    if "four" not in web._tables:
        _answer(web.call("start", json.dumps({"seed": 6, "table": "four", "options": {"players": 4},
                                              "seats": EASY4})))


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web.tables, "HINT_ROLLOUTS", 4)
    monkeypatch.setattr(web.tables, "HINT_MS", 20)


def _check(name: Any, payload: Any, count: bool = True) -> dict[str, Any]:
    """Call, check the answer's shape, that a failure changed nothing, and that
    an answered save resumes."""
    _ensure_tables()
    before = _tables()
    out = _answer(web.call(name, payload))
    if count and isinstance(name, str) and name in web.API:
        event(f"{name}: {out.get('code', 'ok')}")   # --hypothesis-show-statistics
    if "error" in out:
        assert _tables() == before, (name, payload, out)
    elif isinstance(out["ok"], dict) and "save" in out["ok"]:
        again = _answer(web.call("resume", json.dumps({"save": out["ok"]["save"], "table": "fuzzcheck"})))
        assert "ok" in again, again
        assert again["ok"]["save"] == out["ok"]["save"]
        web._tables.pop("fuzzcheck", None)
    return out


@SETTINGS
@given(name=st.one_of(st.sampled_from(NAMES), st.text(max_size=20), json_values),
       payload=st.one_of(st.text(max_size=60), json_values,
                         json_values.map(json.dumps),
                         st.sampled_from(["{", "[" * 5000, "{\"a\":" * 3000, "NaN", "{\"seed\": NaN}", "{\"seed\": 1e999}", "", "{}"])))
def test_random_names_and_payloads(name: Any, payload: Any) -> None:
    _check(name, payload)


@SETTINGS
@given(data=st.data())
def test_random_fields_of_known_calls(data: st.DataObject) -> None:
    """Each call with its own fields (and now and then one it does not take),
    holding random values."""
    name = data.draw(st.sampled_from(NAMES))
    spec = web.API[name]
    keys = list(spec.required + spec.optional)
    fields = data.draw(st.dictionaries(st.sampled_from(keys + ["x"] if data.draw(st.integers(0, 7)) == 0 else keys),
                                       plausible | json_values | st.sampled_from(SAVES), max_size=len(keys)))
    _check(name, json.dumps(fields))


@SETTINGS
@given(options=st.dictionaries(st.sampled_from(["players", "faces", "capture", "missed_capture", "target", "match",
                                                "redeal", "last_card_sweep", "all_diamonds_wins", "timers", "z"]),
                               plausible | json_values, max_size=4) | json_values,
       seats=st.none() | json_values | st.lists(st.fixed_dictionaries(
           {"kind": st.sampled_from(["human", "computer", "robot"])},
           optional={"level": st.sampled_from(["easy", "medium", "hard", "", 1])}), max_size=5),
       seed=st.none() | st.integers(0, 2**53) | scalars, table=st.integers(0, 5).flatmap(lambda i: scalars if i == 5 else valid_tables))
def test_random_starts(options: Any, seats: Any, seed: Any, table: Any) -> None:
    _check("start", json.dumps({"options": options, "seats": seats, "seed": seed, "table": table}))


@SETTINGS
@given(action=st.one_of(scalars, st.sampled_from(["keep", "table", "pass", "propose", "accept", "refuse"]),
                        st.text(alphabet="0123456789AJQKDHSCx+ claim", max_size=12)),
       seat=st.one_of(st.integers(-1, 4), scalars), table=st.sampled_from(["main", "four", "main", "four", "nope"]),
       legal=st.integers(0, 3), pick=st.integers(0, 10**6))
def test_random_actions(action: Any, seat: Any, table: str, legal: int, pick: int) -> None:
    """Random actions, and (most of the time) legal ones by the right seat, so
    games move on and their answered saves are checked too."""
    _ensure_tables()
    if legal and table in web._tables:
        sess = web._tables[table].session
        if sess.to_act() is None:
            web._tables.pop(table)
            _ensure_tables()
            sess = web._tables[table].session
        seat = sess.to_act()
        moves = sess.legal()
        action = moves[pick % len(moves)]   # drawn apart from the table's state
    _check("act", json.dumps({"action": action, "seat": seat, "table": table}))


# -------------------------------------------------------- mutated saves

def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, path + (i,))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


@st.composite
def mutated_saves(draw: st.DrawFn) -> Any:
    save = copy.deepcopy(draw(st.sampled_from(SAVES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(save)
        path = draw(st.sampled_from(paths))
        if not path:
            if draw(st.booleans()):
                return draw(json_values)
            continue
        parent = _get(save, path[:-1])
        key = path[-1]
        how = draw(st.sampled_from(["drop", "dup", "swap", "retype", "text", "huge", "deep", "big"]))
        if how == "drop":
            del parent[key]
        elif how == "dup" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
        elif how == "retype":
            parent[key] = draw(json_values)
        elif how == "text":
            old = parent[key]
            extra = draw(st.sampled_from(["\n", "\t", " ", "\u00a0", "\x00", "ذ", "\u2028", "x"]))
            parent[key] = (old + extra if draw(st.booleans()) else extra + old) if isinstance(old, str) else extra
        elif how == "huge":
            parent[key] = draw(st.sampled_from([2**53 + 1, 2**64, -(2**63), 10**30, 1e308, -1]))
        elif how == "deep":
            value: Any = 1
            for _ in range(draw(st.integers(5, 40))):
                value = [value]
            parent[key] = value
        elif how == "big":
            parent[key] = "7D" * draw(st.integers(100, 5000))
    return save


@SETTINGS
@given(save=mutated_saves(), name=st.sampled_from(["resume", "choose", "hint"]),
       seat=st.one_of(st.integers(0, 3), scalars), table=st.sampled_from(["main", "four", "fresh"]))
def test_mutated_saves(save: Any, name: str, seat: Any, table: str) -> None:
    payload: dict[str, Any] = {"save": save, "table": table}
    if name != "resume":
        payload["seat"] = seat
    out = _check(name, json.dumps(payload))
    if name == "resume" and "ok" in out:
        web._tables.pop("fresh", None)


def test_the_fuzzing_can_fail() -> None:
    """The checks above are not vacuous: a real save resumes, and a broken
    answer shape would be caught."""
    out = _check("resume", json.dumps({"save": SAVES[3], "table": "fuzzcheck2"}), count=False)
    assert "ok" in out and out["ok"]["table"] == "fuzzcheck2"
    web._tables.pop("fuzzcheck2", None)
    with pytest.raises(AssertionError):
        _answer(json.dumps({"ok": 1, "error": "x"}))
    with pytest.raises(AssertionError):
        _answer(json.dumps({"error": "two\nlines", "code": "c", "params": {}}))
