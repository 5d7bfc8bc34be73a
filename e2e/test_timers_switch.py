"""Timers changed during a match from the switch under the table (issue 23:
"settings that do not change the rules never need a new game"): Seven
Diamonds' timers turned off after a timeout, kept off across a reload, and
on again with other seconds; no switch where the game has no timers."""

from __future__ import annotations

from typing import Any

from e2e_driver import PHONE, T, open_table, saved, shot, state
from test_seven_table import settle, start_seven

from chkobba.session import Session

SWITCH = "#timers-switch"
SELECT = "#timers-select"


def test_timers_turned_off_after_a_timeout_and_on_again(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page)
    page.clock.install()   # the page's timers run on a clock the test moves
    start_seven(page, timers="5")          # "Short: 3 s each"
    assert settle(page) == "you"
    assert page.locator(SWITCH).is_visible()
    assert page.input_value(SELECT) == "5"
    # the time runs out once: the engine's timeout is played for the seat
    page.clock.run_for(3500)
    page.wait_for_function("() => (window.chkobbaApp.state.moves || []).some(m => m.kind === 'timeout' && m.seat === 0)",
                           timeout=20_000)
    assert settle(page) == "you"
    page.wait_for_selector(f"{T} .sd-timer:not([hidden])")
    # off, in the middle of the match: no new game, the position unchanged
    before = state(page)
    page.select_option(SELECT, "0")
    page.wait_for_function("() => window.chkobbaApp.state.timers.value === false")
    st = state(page)
    assert st["view"]["history"] == before["view"]["history"] and st["view"]["hand"] == before["view"]["hand"]
    assert page.locator(f"{T} .sd-timer").is_hidden()
    save = saved(page)
    assert save["clock_off"] is True and save["record"]["options"]["timers"] == {"call": 3, "card": 3}
    Session.from_record(save["record"], seed=save["seed"])        # the save replays
    page.clock.run_for(4000)               # longer than the 3 s: nothing is played for the seat
    assert len(state(page)["view"]["history"]) == len(st["view"]["history"])
    shot(page, "timers-switch-off-phone")
    # a reload keeps them off
    page.reload()
    page.wait_for_selector("html.ready")
    assert settle(page) == "you"
    assert page.input_value(SELECT) == "0" and page.locator(f"{T} .sd-timer").is_hidden()
    # on again, a minute each: the countdown shows it and the record says it
    page.select_option(SELECT, "4")
    page.wait_for_function("() => JSON.stringify(window.chkobbaApp.state.timers.value) === '{\"call\":60,\"card\":60}'")
    page.wait_for_selector(f"{T} .sd-timer:not([hidden])")
    left = int(page.get_attribute(f"{T} .sd-timer", "data-left") or "0")
    assert 50 <= left <= 60
    save = saved(page)
    assert "clock_off" not in save and save["record"]["options"]["timers"] == {"call": 60, "card": 60}


def test_the_switch_speaks_the_players_language_and_hides_where_there_are_no_timers(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?lang=ar")
    start_seven(page, timers="0")
    assert settle(page) == "you"
    assert page.locator(SWITCH).is_visible()
    assert page.inner_text(SWITCH).strip().startswith("الوقت")
    assert page.get_attribute(SELECT, "aria-label")
    shot(page, "timers-switch-ar-phone")
    # a Chkobba table has no timers: no switch
    page.click("#new-game")
    page.check('#start-form input[name="game"][value="chkobba"]')
    page.click("#start-button")
    if page.evaluate("() => document.getElementById('confirm').open"):
        page.click("#confirm-yes")
    page.wait_for_function("() => window.chkobbaApp.state && window.chkobbaApp.state.game === 'chkobba'")
    assert state(page)["timers"] is None
    assert page.locator(SWITCH).is_hidden()
