"""Take-backs in the page: against the computer the hand returns and the
saved record is shorter and replays; in pass and play there is no button."""

from __future__ import annotations

from typing import Any

from e2e_driver import (HAND, PHONE, open_table, pick_action, point_and_play, saved, session_of, settle, shot,
                        start_game, state)

BUTTON = "#takeback-button"


def hand_cards(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all(f"{HAND} .card", "els => els.map(e => e.dataset.card)"))


def actions(save: dict[str, Any]) -> int:
    return sum(len(r["actions"]) for r in save["record"]["rounds"])


def test_take_back_against_the_computer(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=11")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    assert page.locator(BUTTON).is_visible()
    if not state(page)["takeback"]["possible"]:   # no move of yours yet in this deal
        assert page.locator(BUTTON).is_disabled()
        point_and_play(page, pick_action(state(page)["save"]))
        assert settle(page) == "you"
    before = state(page)
    hand = hand_cards(page)
    assert hand and page.locator(BUTTON).is_enabled()
    point_and_play(page, pick_action(before["save"]))
    assert settle(page) == "you"
    played = saved(page)
    assert hand_cards(page) != hand
    # keyboard: the button takes the focus and Enter presses it
    page.focus(BUTTON)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.chkobbaApp.state.takeback.count === 1")
    assert settle(page) == "you"
    back = saved(page)
    assert hand_cards(page) == hand                        # the hand returns
    assert actions(back) < actions(played)                 # the record is shorter...
    assert back["record"] == before["save"]["record"]      # ...cut where you played
    assert back["takebacks"] == 1
    assert session_of(back).record() == back["record"]     # ...and replays
    assert state(page)["view"] == before["view"]
    shot(page, "takeback-phone")
    for name, size in (("small", {"width": 320, "height": 568}), ("landscape", {"width": 640, "height": 360})):
        page.set_viewport_size(size)
        box = page.locator(BUTTON).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (name, box)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"], name
        page.locator(BUTTON).scroll_into_view_if_needed()
        shot(page, f"takeback-{name}")
    page.set_viewport_size(PHONE)
    # the game goes on from there; a reload resumes it with its count
    point_and_play(page, pick_action(back))
    assert settle(page) == "you"
    page.reload()
    page.wait_for_selector("html.ready")
    page.wait_for_function("() => window.chkobbaApp.state && window.chkobbaApp.state.takeback.count === 1")
    assert page.locator(BUTTON).is_visible()


def test_no_take_back_in_pass_and_play(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=4")
    page.select_option("#pace", "instant")
    page.select_option('#start-form select[name="level-1"]', "human")
    page.click("#start-button")
    page.wait_for_function("() => window.chkobbaApp.state && window.chkobbaApp.state.humans.length === 2")
    st = state(page)
    assert st["takeback"]["allowed"] is False
    assert page.locator(BUTTON).is_hidden()
    for _ in range(4):   # a few moves handed between the two people: still no button
        page.wait_for_function("""() => { const a = window.chkobbaApp, s = a.state;
            return s && !a.busy && !a.paused && (s.handoff !== null || s.to_act === s.human); }""", timeout=60_000)
        if state(page)["handoff"] is not None:
            page.click(".handoff-go")
            page.wait_for_function("() => window.chkobbaApp.state.handoff === null")
        assert page.locator(BUTTON).is_hidden()
        point_and_play(page, pick_action(state(page)["save"]))
    assert state(page)["takeback"] == {"allowed": False, "possible": False, "count": 0}
    assert "takebacks" not in saved(page)
