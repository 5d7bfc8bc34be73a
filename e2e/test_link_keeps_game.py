"""A daily-deal link opened while a game is in progress asks before it
throws that game away ("nothing a player did is lost"): Keep playing keeps
the game and its save; saying yes deals the linked deal."""

from __future__ import annotations

from typing import Any

from e2e_driver import PHONE, open_table, pick_action, point_and_play, saved, settle, start_game, state

DATE = "2026-12-01"


def test_a_daily_link_asks_before_it_replaces_a_game_in_progress(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=11")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    point_and_play(page, pick_action(state(page)["save"]))
    assert settle(page) == "you"
    before = saved(page)
    # the friend's link, opened on the same phone
    open_table(page, f"?daily={DATE}&game=chkobba")
    page.wait_for_selector("#confirm[open]")
    assert "daily" not in state(page)["save"]                     # the game in progress is on the table behind
    assert "daily=" not in page.url                               # a reload will not ask again
    page.click("#confirm-no")                                     # Keep playing
    page.wait_for_function("() => !document.getElementById('confirm').open")
    assert saved(page) == before and "daily" not in state(page)["save"]
    # again, and yes this time: the daily deal
    open_table(page, f"?daily={DATE}&game=chkobba")
    page.wait_for_selector("#confirm[open]")
    page.click("#confirm-yes")
    page.wait_for_function("() => window.chkobbaApp.state && window.chkobbaApp.state.save.daily === '2026-12-01'")
    assert saved(page)["daily"] == DATE
    # the same link once more while that deal is on the table: it just goes on
    open_table(page, f"?daily={DATE}&game=chkobba")
    assert not page.evaluate("() => document.getElementById('confirm').open")
    assert state(page)["save"]["daily"] == DATE


def test_a_daily_link_on_a_fresh_phone_deals_at_once(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, f"?daily={DATE}&game=seven_diamonds")
    assert not page.evaluate("() => document.getElementById('confirm').open")
    assert state(page)["save"]["daily"] == DATE and state(page)["game"] == "seven_diamonds"
