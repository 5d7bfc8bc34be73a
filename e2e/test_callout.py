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



def laid_last(players: int, cards: int) -> Session:
    """A position where another seat's last move laid a card on a table of
    ``cards`` or more (the table's last card, at its inline end) and seat 0
    is to act."""
    for seed in range(300):
        s = Session.new("chkobba", {"players": players}, seed=seed)
        rng = random.Random(seed)
        while not s.is_over and not s.state.results:
            last = s.last_move
            if (last and last["kind"] == "lay" and last["seat"] != 0 and s.to_act() == 0 and s.state.phase == "play"
                    and len(s.view(0)["table"]) >= cards):
                return s
            s.apply(rng.choice([t for t in s.legal() if not t.startswith("claim")]))
    raise AssertionError(f"no lay on a table of {cards} cards in 300 seeds")


def test_just_laid_stays_on_screen_over_the_tables_last_card(make_page: Any) -> None:
    """"Just laid" over the table's last card, when that card is at the
    table's edge (2v2 at 360 px, five cards in a row), lines up with the
    card's outer edge instead of leaving the screen (in French it scrolled
    the page sideways); right to left too."""
    s = laid_last(4, 5)
    save = {"v": web.SAVE_VERSION, "record": s.record(), "seed": s.seed,
            "seats": [{"kind": "human"}] + [{"kind": "computer", "level": "easy"}] * 3}
    for lang in ("fr", "ar"):
        page = make_page({"width": 360, "height": 640})
        open_table(page, f"?lang={lang}")
        load_save(page, save)
        settle(page)
        card = page.locator(f"{T} .table-cards .card.just-laid")
        assert card.count() == 1
        assert card.evaluate("(c) => c === c.parentElement.lastElementChild")
        # the label's box: the card's box moved by the ::before's offset and transform
        box = card.evaluate("""(c) => { const r = c.getBoundingClientRect(), b = getComputedStyle(c, '::before');
            const w = parseFloat(b.width), left = parseFloat(b.left), m = new DOMMatrix(b.transform);
            return {left: r.left + left + m.m41, right: r.left + left + m.m41 + w, width: w, card: [r.left, r.right]}; }""")
        assert box["width"] > 0 and box["left"] >= 0 and box["right"] <= 360 + 0.5, (lang, box)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), lang
