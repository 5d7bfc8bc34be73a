"""The browser facade in CPython: JSON in, JSON out, bad input refused in plain words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chkobba import web


def call(name: str, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(web.call(name, json.dumps(args)))
    return out


def test_start_act_and_refuse_illegal() -> None:
    st = call("start", seed=3)["ok"]
    view = st["view"]
    assert view["seat"] == 0 and view["game"] == "chkobba"
    # play the computer's moves (through the same facade) until the human acts
    for _ in range(10):
        seat = st["view"]["to_act"]
        if seat == 0:
            break
        action = call("choose", save=st["save"], seat=seat)["ok"]["action"]
        st = call("act", action=action, seat=seat)["ok"]
    assert st["view"]["to_act"] == 0
    before = call("state")["ok"]
    bad = call("act", action="QHx7D", seat=0)
    assert "error" in bad and bad["error"]
    assert call("state")["ok"] == before  # nothing changed


@pytest.mark.parametrize("args,fragment", [
    ({"seed": 1.5}, "the seed must be a whole number"),
    ({"seed": "x"}, "the seed must be a whole number"),
    ({"options": {"target": 12}}, '"target"'),
    ({"options": {"players": 3}}, "2 or 4 players"),
    ({"game": "poker"}, "not available"),
])
def test_start_refuses_bad_settings(args: dict[str, Any], fragment: str) -> None:
    call("start", seed=1)
    before = call("state")["ok"]
    out = call("start", **args)
    assert fragment in out["error"]
    assert call("state")["ok"] == before


@pytest.mark.parametrize("save", [None, {"v": 99}, {"v": 1, "record": {"game": "chkobba"}},
                                  {"v": 1, "record": "garbage", "seats": []}])
def test_resume_refuses_corrupted_saves(save: Any) -> None:
    out = call("resume", save=save)
    assert out["error"].startswith("the saved game could not be resumed")


def test_unknown_call_and_bad_payload() -> None:
    assert "error" in json.loads(web.call("nope", "{}"))
    assert "error" in json.loads(web.call("start", "[1, 2]"))


def test_malformed_requests_are_refused_in_words() -> None:
    assert json.loads(web.call("start", "{bad")) == {"error": "the request is not valid JSON"}
    assert "bad request to start" in json.loads(web.call("start", '{"colour": 1}'))["error"]


def test_claim_window_survives_a_reload_after_earlier_rounds() -> None:
    """A resumed save whose last move is a lay still offers the claim button
    (the window is said after every lay, so it tells nothing)."""
    import random
    from chkobba.session import Session
    sess = Session.new("chkobba", {}, seed=2)
    rng = random.Random(2)
    # play past the first round, then until seat 0 is to act right after a lay by seat 1
    while not (sess.state.results and sess.to_act() == 0 and sess.last_move
               and sess.last_move["kind"] == "lay" and sess.last_move["seat"] == 1):
        sess.apply(rng.choice([t for t in sess.legal() if not t.startswith("claim")]))
    save = {"v": web.SAVE_VERSION, "record": sess.record(), "seed": sess.seed,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}
    st = call("resume", save=save)["ok"]
    assert st["view"]["last"]["round_ended"] is False
    assert st["claim_window"] == {"card": sess.last_move["card"], "seat": 1}
