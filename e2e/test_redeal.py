"""Re-deal: the human proposes from a saved position where three table cards
share a value, and the computer's answer is applied on the table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_driver import CHOICES, DESKTOP, HAND, TABLE_CARDS, TURN, load_save, open_table, saved, settle, shot, state

from chkobba import web
from chkobba.session import Session

# Last-move texts shown while the round goes on, recorded by the page itself
# so that a quick computer move after the answer cannot hide it from the test.
WATCH_LAST_MOVE = """() => {
  window.__lastMoves = [];
  const el = document.querySelector('#table .last-move');
  new MutationObserver(() => window.__lastMoves.push(el.textContent))
    .observe(el, {childList: true, subtree: true, characterData: true});
}"""


def _redeal_position(seed: int) -> Session:
    """Seed 6: the computer cuts and keeps, then plays on; the table shows
    AC 4H AD AS and the human may propose a re-deal."""
    s = Session.new("chkobba", {"players": 2}, seed=seed)
    while not (s.state.phase == "redeal" and s.to_act() == 0):
        legal = s.legal()
        s.apply("keep" if "keep" in legal else "pass")
    return s


@pytest.mark.parametrize("level", ["medium", "easy"])
def test_human_proposes_redeal_and_the_computer_answer_is_applied(make_page: Any, level: str) -> None:
    session = _redeal_position(6)
    seats = [{"kind": "human"}, {"kind": "computer", "level": level}]
    save = {"v": web.SAVE_VERSION, "record": session.record(), "seed": session.seed, "seats": seats}
    # What the computer will answer, by the same facade call web/ai.py makes.
    after = Session.from_record(session.record(), seed=session.seed)
    after.apply("propose")
    answer = json.loads(web.call("choose", json.dumps({"save": {**save, "record": after.record()}, "seat": 1})))["ok"]["action"]
    assert answer == {"medium": "accept", "easy": "refuse"}[level]

    page = make_page(DESKTOP)
    open_table(page)
    page.evaluate("() => localStorage.setItem('chkobba.pace', 'instant')")
    load_save(page, save)
    assert settle(page) == "you"
    values = [c[0] for c in page.locator(f"{TABLE_CARDS} .card").evaluate_all("els => els.map(e => e.dataset.card)")]
    assert max(values.count(v) for v in values) >= 3, values
    assert "re-deal" in page.inner_text(TURN)
    dealer = state(page)["view"]["dealer"]
    hand_before = state(page)["view"]["hand"]
    page.evaluate(WATCH_LAST_MOVE)
    page.click(f'{CHOICES} button[data-action="propose"]')
    page.wait_for_function(
        "(a) => window.chkobbaApp.state.save.record.rounds[0].actions.includes(a)", arg=answer)
    settle(page)
    shot(page, f"redeal-{answer}-desktop")
    rnd = saved(page)["record"]["rounds"][0]
    actions = rnd["actions"]
    assert actions[2:4] == ["propose", answer]
    shown = page.evaluate("() => window.__lastMoves")
    view = state(page)["view"]
    if answer == "accept":
        assert any("accepted the re-deal" in t for t in shown), shown
        # A new shuffle and a new cut by the same dealer.
        assert len(rnd["decks"]) == 2
        assert view["dealer"] == dealer
        assert view["round_index"] == 0
        assert actions[4] in ("keep", "table")  # the new cut
        assert page.locator(f"{HAND} .card").evaluate_all("els => els.map(e => e.dataset.card)") == view["hand"]
        assert view["hand"] != hand_before
    else:
        assert any("refused the re-deal" in t for t in shown), shown
        # Play starts on the same deal.
        assert len(rnd["decks"]) == 1
        assert view["phase"] == "play"
        assert page.locator(f'{CHOICES} button[data-action="propose"]').count() == 0
        assert "Your turn" in page.inner_text(TURN)
    replayed = Session.from_record(saved(page)["record"], seed=session.seed)
    assert replayed.view(0)["hand"] == view["hand"]
