"""Hints are an opt-in table option: off by default (no Hint button at all);
when on, the coach runs only when the player presses Hint."""

from __future__ import annotations

from typing import Any

from e2e_driver import (
    DESKTOP,
    PHONE,
    open_table,
    pick_action,
    point_and_play,
    saved,
    session_of,
    settle,
    shot,
    start_game,
)

HINT_ITEMS = "#table .hints li[data-action]"
HINT_BUTTON = "#table .btn-hint"
HINTS = "#table .hints"


def test_hint_button_ranks_legal_actions_only_when_asked(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=11")
    assert page.locator('#start-form input[name="coach"]').is_checked() is False  # off by default
    start_game(page, players=2, levels=("easy",), coach=True)
    for turn in range(2):
        assert settle(page) == "you"
        assert page.locator(HINT_BUTTON).count() == 1
        # Nothing was asked for, and nothing is shown, until Hint is pressed.
        assert page.locator(HINTS).count() == 0
        assert page.evaluate("() => window.chkobbaApp.hintsAsked || 0") == turn
        page.click(HINT_BUTTON)
        page.wait_for_selector(HINT_ITEMS)
        actions = page.locator(HINT_ITEMS).evaluate_all("els => els.map(e => e.dataset.action)")
        legal = set(session_of(saved(page)).legal())
        assert 1 <= len(actions) <= 3
        assert set(actions) <= legal, (actions, legal)
        assert page.locator(f"{HINTS} li").first.inner_text().strip()
        if turn == 0:
            shot(page, "hints-phone")
        # Playing a move clears the hint; the next turn starts without one.
        point_and_play(page, pick_action(saved(page)))
        assert page.locator(HINTS).count() == 0


def test_no_hint_button_when_hints_are_off(make_page: Any) -> None:
    page = make_page(DESKTOP)
    open_table(page, "?seed=11")
    start_game(page, players=2, levels=("easy",))
    for _ in range(2):
        assert settle(page) == "you"
        assert page.locator(HINT_BUTTON).count() == 0
        assert page.locator(HINTS).count() == 0
        page.keyboard.press("h")  # the shortcut does nothing either
        assert page.evaluate("() => window.chkobbaApp.hintsAsked || 0") == 0
        point_and_play(page, pick_action(saved(page)))
    # The facade refuses too: a save without the option gets no hint.
    # (the computer players and the coach: web/ai.py in the page's interpreter)
    answer = page.evaluate("""async () => { const ai = await window.chkobbaApp.ai;
        return JSON.parse(ai.start("hint", JSON.stringify({save: window.chkobbaApp.state.save, seat: 0})).answer); }""")
    assert answer["code"] == "web.hints_off" and answer["error"] == "Hints are off at this table"
