"""Pass-and-play hand-offs over many sequences (issue 23): whatever the
seats, the game, the moves (timeouts included) and the order of the calls,
the page is never sent the hand of one human while another human is to act
without the hand-off screen, and never sent a hand while the screen is up.
Also the page's side of it: the hand-off button ignores a click that began
before the screen was up (a double tap on the last call)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from facade_calls import ok

from chkobba import web
from chkobba.session import Session

EASY = {"kind": "computer", "level": "easy"}
HUMAN = {"kind": "human"}


def seat_plans() -> list[tuple[str, int, list[dict[str, Any]]]]:
    plans = []
    for humans in ([0, 1], [0, 2], [1, 3], [0, 1, 2], [0, 1, 2, 3], [2, 3], [1, 2]):
        plans.append(("seven_diamonds", 4, [HUMAN if i in humans else EASY for i in range(4)]))
        plans.append(("chkobba", 4, [HUMAN if i in humans else EASY for i in range(4)]))
    plans.append(("chkobba", 2, [HUMAN, HUMAN]))
    return plans


def check(st: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    to_act, viewer = st["to_act"], st["human"]
    assert seats[viewer]["kind"] == "human"
    if st["handoff"] is not None:
        assert st["handoff"] == viewer
        assert st["view"]["hand"] == [] and st["words"] == []
        assert not st.get("seven", {}).get("playable")
    elif to_act is not None and seats[to_act]["kind"] == "human":
        # a human to act sees their own hand, never another's
        assert to_act == viewer, (to_act, viewer)
    session = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
    if st["handoff"] is None:
        assert st["view"]["hand"] == session.view(viewer)["hand"]


@pytest.mark.parametrize("plan", range(len(seat_plans())))
def test_hand_offs_over_random_sequences(plan: int) -> None:
    game, players, seats = seat_plans()[plan]
    for seed in range(2):
        rng = random.Random(seed * 100 + plan)
        options: dict[str, Any] = {"players": players}
        if game == "chkobba":
            options["target"] = 11
        st = ok("start", game=game, seed=seed, seats=seats, options=options)
        check(st, seats)
        for _ in range(160):
            if st["to_act"] is None:
                break
            seat = st["to_act"]
            if st["handoff"] is not None:
                # the player may tap at once, or a computer may still be to act first
                if seats[seat]["kind"] == "human" or rng.random() < 0.5:
                    st = ok("reveal")
                    check(st, seats)
                    continue
            session = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
            if seats[seat]["kind"] == "human":
                legal = session.legal()
                action = str(rng.choice(legal))
            else:
                action = web.choose(st["save"], seat)["action"]
            st = ok("act", action=action, seat=seat)
            check(st, seats)


def test_the_hand_off_button_needs_a_press_of_its_own() -> None:
    js = (Path(__file__).resolve().parents[1] / "web" / "shell" / "handoff.js").read_text(encoding="utf-8")
    # the click is taken only when a pointerdown or a key press began on the screen itself
    assert 'addEventListener("pointerdown"' in js and "this.pressed" in js and "e.detail > 1" in js
