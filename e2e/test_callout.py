"""A sweep is called at the table by the Chkobba renderer (issue 20: the
shared core holds no game's UI): "Chkobba!" after the last move and in the
move log, for a chkobba the facade marks."""

from __future__ import annotations

import random
from typing import Any

from e2e_driver import T, load_save, open_table, settle

from chkobba import web
from chkobba.session import Session


def swept() -> Session:
    """A position where the computer's last move was a chkobba and seat 0 is to act."""
    for seed in range(300):
        s = Session.new("chkobba", {}, seed=seed)
        rng = random.Random(seed)
        while not s.is_over and not s.state.results:
            last = s.last_move
            if last and last["chkobba"] and last["seat"] == 1 and s.to_act() == 0 and s.state.phase == "play":
                return s
            s.apply(rng.choice([t for t in s.legal() if not t.startswith("claim")]))
    raise AssertionError("no chkobba by seat 1 in 300 seeds")


def test_a_chkobba_is_called_in_the_last_move_and_the_log(make_page: Any) -> None:
    s = swept()
    page = make_page()
    open_table(page)
    load_save(page, {"v": web.SAVE_VERSION, "record": s.record(), "seed": s.seed,
                     "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]})
    settle(page)
    assert page.locator(f"{T} .last-move .chkobba-call").count() == 1
    assert page.locator(f"{T} .log-moves .chkobba-call").count() >= 1
