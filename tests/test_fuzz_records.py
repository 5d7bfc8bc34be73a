"""Fuzzing records at the edges (issue 10).

Hypothesis builds legal records for every option set of both games (random
legal play through a Session, stopped anywhere or played to the end) and then
mutates them: drop, duplicate, swap, retype, unicode, control characters,
huge numbers, deep nesting, unknown keys, damaged JSON text, oversize. The
contract, whatever the input:

- ``parse_record`` and ``replay`` either succeed or raise a ChkobbaError
  (never anything else), whose message is exactly one short printable line;
- a record that replays is a correct one: read back (``parse_record(...)
  .to_dict()``) it replays to the same state, and a session resumed from it
  writes saves that replay after every further move;
- ``python -m chkobba replay`` prints the in-process replay's summary
  (exit 0), or exactly the in-process error as one line on stderr with
  nothing on stdout (exit 1), never a traceback.

Most examples run in-process; a few go through the command line.
``CHKOBBA_FUZZ=N`` multiplies every example count by N for long runs
(docs/hostile-input.md records one).
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import CHKOBBA_OPTIONS

from chkobba.errors import ChkobbaError, InvalidRecord
from chkobba.messages import MESSAGES, render
from chkobba.records import MAX_BYTES, parse_record, replay, summary
from chkobba.session import Session

FUZZ = max(1, int(os.environ.get("CHKOBBA_FUZZ", "1")))
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def fuzz_settings(examples: int) -> Callable[[Any], Any]:
    return settings(max_examples=examples * FUZZ, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


# ------------------------------------------------------------ legal records
SEVEN_OPTIONS = {
    "players": st.just(4),
    "calls": st.booleans(),
    "target": st.one_of(st.sampled_from([1, 100, 300, 500]), st.integers(1, 100_000)),
    "last_seven_bonus": st.one_of(st.sampled_from([0, 200]), st.integers(0, 10_000)),
    "timers": st.one_of(st.just(False), st.just(True),
                        st.fixed_dictionaries({}, optional={"call": st.integers(1, 600),
                                                            "card": st.integers(1, 600)})),
}


@st.composite
def option_sets(draw: st.DrawFn, game: str) -> dict[str, Any]:
    """Any option set of ``game``: each option given or left to its default."""
    table = CHKOBBA_OPTIONS if game == "chkobba" else SEVEN_OPTIONS
    keep = draw(st.sets(st.sampled_from(sorted(table))))
    return {k: draw(table[k]) for k in sorted(keep)}


def play(sess: Session, rng: random.Random, moves: int) -> Session:
    for _ in range(moves):
        if sess.is_over:
            break
        legal = sess.legal_actions()
        sess.apply(legal[rng.randrange(len(legal))])
    return sess


@st.composite
def legal_records(draw: st.DrawFn) -> dict[str, Any]:
    """A legal record: random legal play from any option set, stopped after
    any number of moves (a fifth of them played to the end of the match)."""
    game = draw(st.sampled_from(["chkobba", "seven_diamonds"]))
    options = draw(option_sets(game))
    seed = draw(st.integers(0, 2**31 - 1))
    to_end = draw(st.integers(0, 4)) == 0
    moves = 3000 if to_end else draw(st.integers(0, 160))
    sess = play(Session.new(game, options, seed=seed), random.Random(seed), moves)
    rec = sess.record()
    if draw(st.booleans()) and rec["rounds"] and not sess.is_over:
        # stop anywhere in the last round, even before its first action
        last = rec["rounds"][-1]
        cut = draw(st.integers(0, len(last["actions"])))
        # each accepted re-deal so far has its deck (even when the record stops at it)
        redeals = last["actions"][:cut].count("accept")
        last["actions"] = last["actions"][:cut]
        last["decks"] = last["decks"][:redeals + 1]
    if draw(st.booleans()):
        rec["options"] = options  # as given, defaults left out
    return rec


# ---------------------------------------------------------------- mutations
def paths(root: Any, limit: int = 8) -> list[tuple[Any, ...]]:
    """Every place in a record (not deeper than ``limit``), without recursion."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(root, ())]
    while stack:
        node, prefix = stack.pop()
        out.append(prefix)
        if len(prefix) >= limit:
            continue
        if isinstance(node, dict):
            stack += [(v, prefix + (k,)) for k, v in node.items()]
        elif isinstance(node, list):
            stack += [(v, prefix + (i,)) for i, v in enumerate(node)]
    out.sort(key=lambda p: (len(p), [str(k) for k in p]))
    return out


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        node = node[k]
    return node


def put(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    get(root, path[:-1])[path[-1]] = value
    return root


EVIL_CHARS = ["\n", "\r", "\r\n", "\x00", "\t", "\x1b[2J", "\u2028", "\u2029", "\x85", "\u00a0", "\ufeff", "\u202e",
              "\ud800", "\udfff", "\U0001f600", '"', "\\", " ", "x", "\u0627"]
HUGE = [10**30, -10**30, 2**63, -2**63 - 1, 10**4000, 1e308, -1e308, 1.5, -0.0, 2**31]
OTHER_VALUES: list[Any] = [None, True, False, 0, 1, -1, 4, 40, "", "7D", "keep", "chkobba", "seven_diamonds",
                           [], {}, [[]], [{}], {"decks": [], "actions": []}, ["7D"], [7], {"": None}]


def deep(kind: str, depth: int) -> Any:
    node: Any = "7D"
    for _ in range(depth):
        node = [node] if kind == "list" else {"decks": node}
    return node


@st.composite
def mutated(draw: st.DrawFn, rec: dict[str, Any]) -> tuple[str, Any, list[str]]:
    """A record changed in one to three ways; (what was done where, the
    record, the operations)."""
    data: Any = json.loads(json.dumps(rec))
    done = []
    for _ in range(draw(st.integers(1, 3))):
        ps = paths(data)
        # aim at the interesting places more often than at deck cards
        area = draw(st.sampled_from(["any", "top", "options", "round", "actions", "action", "deck"]))
        pick = {"top": [p for p in ps if len(p) <= 1], "options": [p for p in ps if p[:1] == ("options",)],
                "round": [p for p in ps if len(p) <= 3 and p[:1] == ("rounds",)],
                "actions": [p for p in ps if len(p) == 3 and p[-1] == "actions"],
                "action": [p for p in ps if len(p) == 4 and p[2:3] == ("actions",)],
                "deck": [p for p in ps if len(p) >= 4 and p[2:3] == ("decks",)]}.get(area) or ps
        path = draw(st.sampled_from(pick))
        node = get(data, path)
        ops = ["retype", "huge", "deep"]
        if path:
            ops.append("drop")
            if isinstance(get(data, path[:-1]), list):
                ops.append("duplicate")
        if isinstance(node, str):
            ops += ["unicode", "control", "text"]
        if isinstance(node, dict):
            ops += ["control", "key"]
        if isinstance(node, list) and len(node) >= 2:
            ops += ["swap", "swap"]
        op = draw(st.sampled_from(ops))
        done.append(f"{op}@{'/'.join(map(str, path))}")
        if op == "drop":
            del get(data, path[:-1])[path[-1]]
        elif op == "duplicate":
            get(data, path[:-1]).insert(path[-1], node)  # the same object twice (it may be deep)
        elif op == "swap":
            i, j = draw(st.integers(0, len(node) - 1)), draw(st.integers(0, len(node) - 1))
            node[i], node[j] = node[j], node[i]
        elif op == "retype":
            data = put(data, path, copy.deepcopy(draw(st.sampled_from(OTHER_VALUES))))
        elif op == "unicode":
            data = put(data, path, draw(st.one_of(st.text(max_size=30), st.builds(
                lambda t, at: node[:at] + t + node[at:], st.text(min_size=1, max_size=3), st.integers(0, len(node))))))
        elif op == "control" and isinstance(node, str):
            at = draw(st.integers(0, len(node)))
            data = put(data, path, node[:at] + draw(st.sampled_from(EVIL_CHARS)) + node[at:])
        elif op == "control":
            key = draw(st.sampled_from(sorted(node) or ["game"]))
            evil = draw(st.sampled_from(EVIL_CHARS))
            node[draw(st.sampled_from([evil + key, key + evil]))] = node.pop(key, 1)
        elif op == "huge":
            data = put(data, path, draw(st.sampled_from(HUGE)))
        elif op == "deep":
            data = put(data, path, deep(draw(st.sampled_from(["list", "dict"])), draw(st.sampled_from([4, 50, 3000]))))
        elif op == "key":
            node[draw(st.text(max_size=12))] = copy.deepcopy(draw(st.sampled_from(OTHER_VALUES)))
        else:  # "text": the string repeated, or a long one
            data = put(data, path, node * draw(st.integers(2, 5)) if node else "x" * 10_000)
    return " ".join(done), data, [d.split("@")[0] for d in done]


# ----------------------------------------------------------------- contract
def assert_coded(err: ChkobbaError) -> None:
    assert err.code.startswith("record.") and err.code in MESSAGES, err.code
    assert render(err.code, json.loads(json.dumps(err.params))) == str(err)


def assert_one_line(msg: str) -> None:
    assert msg and msg == msg.strip(), repr(msg)
    assert not any(c in msg for c in LINE_BREAKS), repr(msg)
    assert msg.isprintable(), repr(msg)
    assert len(msg) <= 400, len(msg)


def same_state(a: Any, b: Any) -> None:
    assert summary(a) == summary(b)
    assert (a.to_act(), a.dealer, a.round_index, a.phase) == (b.to_act(), b.dealer, b.round_index, b.phase)
    assert a.legal_actions() == b.legal_actions()
    assert a.history() == b.history()
    for seat in range(a.n):
        assert a.observation(seat) == b.observation(seat)


def check_contract(data: Any, rng_seed: int = 0) -> str | None:
    """Replay ``data`` in-process and check the contract; returns the error
    line if it is refused, else None."""
    try:
        rec = parse_record(data)
    except ChkobbaError as e:
        assert isinstance(e, InvalidRecord), type(e)
        assert_one_line(str(e))
        assert_coded(e)
        with pytest.raises(InvalidRecord) as again:
            replay(data)
        assert str(again.value) == str(e)
        return str(e)
    try:
        state = replay(data)
    except ChkobbaError as e:
        assert isinstance(e, InvalidRecord), type(e)
        assert_one_line(str(e))
        assert_coded(e)
        with pytest.raises(InvalidRecord):
            Session.from_record(data)
        return str(e)
    # a correct replay: read back, it replays the same; resumed, every save replays
    same_state(replay(json.loads(json.dumps(rec.to_dict()))), state)
    sess = Session.from_record(data)
    rng = random.Random(rng_seed)
    for _ in range(rng.randrange(0, 12)):
        if sess.is_over:
            break
        sess.apply(rng.choice(sess.legal()))
        same_state(replay(json.loads(sess.record_json())), sess.state)
    return None


def cli(text: str | bytes) -> subprocess.CompletedProcess[bytes]:
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    return subprocess.run([sys.executable, "-m", "chkobba", "replay", "-"], input=text, capture_output=True,
                          timeout=120)


def check_cli(text: str) -> None:
    """The command line agrees with the in-process replay, byte for byte."""
    try:
        expected = json.dumps(summary(replay(text))) + "\n"
        error = None
    except ChkobbaError as e:
        error = str(e)
    out = cli(text)
    assert b"Traceback" not in out.stderr
    if error is None:
        assert out.returncode == 0, out.stderr
        assert out.stdout.decode() == expected and out.stderr == b""
    else:
        assert out.returncode == 1 and out.stdout == b""
        assert out.stderr.decode("utf-8") == error + "\n"


# -------------------------------------------------------------------- tests
@fuzz_settings(30)
@given(legal_records(), st.integers(0, 2**16))
def test_legal_records_replay(rec: dict[str, Any], seed: int) -> None:
    assert check_contract(rec, seed) is None
    assert check_contract(json.dumps(rec), seed) is None


@fuzz_settings(300)
@given(st.data())
def test_mutated_records(data: st.DataObject) -> None:
    rec = data.draw(legal_records())
    what, bad, ops = data.draw(mutated(rec))
    error = check_contract(bad, len(what))
    for op in ops:
        event(f"mutation {op}")
    event("refused" if error else "replayed")


@fuzz_settings(100)
@given(legal_records(), st.data())
def test_damaged_json_text(rec: dict[str, Any], data: st.DataObject) -> None:
    text = json.dumps(rec, ensure_ascii=data.draw(st.booleans()))
    op = data.draw(st.sampled_from(["truncate", "insert", "replace", "delete", "wrap", "bytes"]))
    at = data.draw(st.integers(0, len(text)))
    if op == "truncate":
        bad: str | bytes = text[:at]
    elif op == "insert":
        bad = text[:at] + data.draw(st.one_of(st.sampled_from(EVIL_CHARS + ["{", "[", "]", "}", ",", ":", "NaN",
                                                                              "1e999", '"', "\\u0000"]),
                                             st.text(max_size=8))) + text[at:]
    elif op == "replace":
        bad = text[:at] + data.draw(st.characters()) + text[at + 1:]
    elif op == "delete":
        bad = text[:at] + text[at + data.draw(st.integers(1, 20)):]
    elif op == "wrap":
        n = data.draw(st.sampled_from([1, 10, 1000, 50_000]))
        bad = "[" * n + text + "]" * n
    else:
        raw = text.encode()
        bad = raw[:at] + data.draw(st.binary(min_size=1, max_size=4)) + raw[at:]
    event("refused" if check_contract(bad) else "replayed")


@fuzz_settings(10)
@given(st.data())
def test_command_line_agrees(data: st.DataObject) -> None:
    rec = data.draw(legal_records())
    if data.draw(st.booleans()):
        rec = data.draw(mutated(rec))[1]
    try:
        text = json.dumps(rec)
    except (ValueError, RecursionError):
        text = json.dumps({"game": "chkobba", "first_dealer": 0, "rounds": [], "x": "deep"})
    check_cli(text)


@pytest.mark.parametrize("text", [
    "", " ", "null", "0", '"chkobba"', "[]", "{}", "\x00", "\ufeff{}", '{"game": "chkobba"',
    '{"game": "chkobba", "first_dealer": 0, "rounds": [{"decks": [], "actions": []}]}',
    '{"game": "chkobba", "first_dealer": 0, "rounds": [], "options": {"players": 3}}',
    '{"game": "seven_diamonds", "first_dealer": 0, "rounds": [], "options": {"match": 3}}',
    '{"game": "seven_diamonds", "first_dealer": 0, "rounds": [], "options": {"timers": {"call\\n": 1}}}',
    '{"game": "chkobba", "first_dealer": 0, "rounds": [], "\\u2028": 1}',
    '{"game": "chkobba", "first_dealer": 1e999, "rounds": []}',
    "[" * 100_000, '{"a": ' * 100_000, "[1, " * 100_000,
])
def test_command_line_on_odd_inputs(text: str) -> None:
    check_cli(text)


def test_oversize_inputs() -> None:
    """Just over 16 MB is refused unread, in-process and on the command line;
    a huge action under the limit gives a short line."""
    rec = {"game": "chkobba", "first_dealer": 0,
           "rounds": [{"decks": [Session.new(seed=1).record()["rounds"][0]["decks"][0]], "actions": []}]}
    pad = json.dumps(rec)[:-1] + ', "x": "' + "y" * MAX_BYTES + '"}'
    assert len(pad.encode()) > MAX_BYTES
    msg = check_contract(pad)
    assert msg == "record: the input is over 16 MB, larger than any record can be"
    check_cli(pad)
    rec["rounds"][0]["actions"] = ["keep\r\n" * 1_000_000]
    text = json.dumps(rec)
    assert len(text) < MAX_BYTES
    msg = check_contract(text)
    assert msg is not None and msg.startswith('round 1, action 0 "keep\\r\\nkeep\\r\\n') and len(msg) < 200
    check_cli(text)
