"""What a new player minded (issue 9), each proven in the browser: the move
log, phone fit, the score sheet, the end of a round, the cut card, loading,
dialogs and focus, the rules link, storage persistence, animations."""

from __future__ import annotations

import json
import random
from typing import Any

from a11y_util import match_end   # a 1 v 1 game to 11 the human's next action ends
from e2e_driver import (DESKTOP, HAND, LOG, NARROW, PHONE, T, TURN, open_table, pick_action,
                        play_until_summary, point_and_play, saved, session_of, settle, shot, start_game, state)

from chkobba import web
from chkobba.session import Session

WATCH_MOVES = """() => {
  window.__shown = [];
  const el = document.querySelector('#table .last-move');
  new MutationObserver(() => {
    const a = el.querySelector('[data-last-action]');
    if (a) window.__shown.push(a.dataset.lastAction);
  }).observe(el, {childList: true, subtree: true, characterData: true});
}"""


def _save_of(session: Session, players: int = 2, level: str = "easy") -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": level}] * (players - 1)
    return {"v": web.SAVE_VERSION, "game": "chkobba", "record": session.record(), "seed": session.seed,
            "seats": seats, "coach": False}


def open_with_save(page: Any, save: dict[str, Any], pace: str) -> None:
    """The page opens on ``save`` at ``pace``, as a returning player's (both
    put in storage before its first script runs: one boot, not a boot and a
    reload)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('e2e.loaded')) {"
        f" localStorage.setItem('chkobba.save.v1', {json.dumps(json.dumps(save))});"
        f" localStorage.setItem('chkobba.pace', {json.dumps(pace)});"
        " sessionStorage.setItem('e2e.loaded', '1'); }")
    open_table(page)


def _fits(page: Any, where: str = "") -> None:
    sw, iw = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert sw <= iw, f"{where}: page is {sw} px wide in a {iw} px window"


def _round_actions(page: Any) -> list[str]:
    return list(saved(page)["record"]["rounds"][-1]["actions"])


# (1) the move log, and every computer move shown in turn -------------------

def test_move_log_lists_every_move_and_each_computer_move_is_shown(make_page: Any) -> None:
    page = make_page(DESKTOP)
    open_table(page, "?seed=5")
    start_game(page, players=4, levels=("easy", "easy", "easy"))
    page.select_option("#pace", "fast")
    page.evaluate(WATCH_MOVES)
    for _ in range(3):
        assert settle(page) == "you"
        point_and_play(page, pick_action(saved(page)))
    assert settle(page) == "you"
    st = state(page)
    actions = _round_actions(page)
    log = page.locator(f"{LOG} .log-moves .log-item")
    # every move of the round, newest first, as the facade listed them
    assert log.count() == len(st["moves"]) == len(actions), (log.count(), len(st["moves"]), actions)
    assert log.evaluate_all("els => els.map(e => e.dataset.action)") == list(reversed(actions))
    # words and card symbols, never card codes; captures list the cards taken
    texts = log.evaluate_all("els => els.map(e => e.textContent)")
    for m, text in zip(reversed(st["moves"]), texts):
        assert text.strip()
        if m.get("card"):
            assert page.locator(f'{LOG} .log-moves .log-item[data-action="{m["action"]}"] .mini').count() >= 1
        for c in m.get("cards") or m.get("take") or []:
            assert page.locator(f'{LOG} .log-moves .log-item[data-action="{m["action"]}"] [data-mini="{c}"]').count() == 1
    # each computer move was shown on its own as the last move, none skipped
    shown = page.evaluate("() => window.__shown")
    computer_moves = [a for a in actions[-9:] if a in actions]
    for a in computer_moves:
        assert a in shown, (a, shown)
    # in 2 v 2 each other seat shows its own newest move
    for seat in (1, 2, 3):
        mine = [m for m in st["moves"] if m["seat"] == seat]
        if mine:
            assert page.get_attribute(f'{T} .seat[data-seat="{seat}"] .seat-move', "data-action") == mine[-1]["action"]
    page.locator(f"{LOG} > summary").scroll_into_view_if_needed()
    shot(page, "move-log-2v2-desktop")


def the_round_just_played_stays_in_the_log(page: Any) -> None:
    """The summary of a round is shown: once the next round starts, the round
    just played stays readable in the log, as the last round until the new
    one has a move, then under "Previous round"."""
    finished = saved(page)["record"]["rounds"][0]["actions"]
    page.click("#summary-next")
    settle(page)
    page.click(f"{LOG} > summary")
    if page.get_attribute(LOG, "data-round") == "finished":
        assert page.inner_text(f"{LOG} .log-title") == "Moves of the last round"
        prev = page.locator(f"{LOG} .log-moves .log-item")
    else:
        prev = page.locator(f"{LOG} .log-previous-moves .log-item")
    assert prev.evaluate_all("els => els.map(e => e.dataset.action)") == list(reversed(finished)), \
        "the log does not list the round just played"
    page.locator(f"{LOG} > summary").scroll_into_view_if_needed()
    _fits(page)
    shot(page, "move-log-phone")


# (2) every layout fits a phone ---------------------------------------------

def test_every_layout_fits_360_and_320_wide(make_page: Any) -> None:
    """The start screen at 360 and 320 px, then at each width a 1 v 1 and a
    2 v 2 game (the second dealt from New game over the first), two moves
    in: nothing scrolls sideways or is cut off at the sides, the move log
    open too."""
    page = make_page(PHONE)
    open_table(page, "?seed=7")
    for viewport in (PHONE, NARROW):
        page.set_viewport_size(viewport)
        _fits(page, f"the start screen at {viewport['width']} px")
    log_open = f"() => document.querySelector('{LOG}').open"
    for viewport in (PHONE, NARROW):
        page.set_viewport_size(viewport)
        width = viewport["width"]
        for players, levels in ((2, ("easy",)), (4, ("easy", "easy", "easy"))):
            where = f"{players // 2}v{players // 2} at {width} px"
            if page.evaluate(log_open):
                page.click(f"{LOG} > summary")   # (the last game's log: closed, as a new page has it)
            start_game(page, players=players, levels=levels)
            for _ in range(2):
                if settle(page) != "you":
                    break
                point_and_play(page, pick_action(saved(page)))
            settle(page)
            _fits(page, where)
            # nothing of the table is cut off at the sides
            box = page.evaluate("""() => [...document.querySelectorAll('#table .seat, #table .card, #table .btn')]
                .filter(e => e.getClientRects().length)
                .map(e => e.getBoundingClientRect()).map(r => [r.left, r.right])""")
            assert all(left >= -0.5 and right <= width + 0.5 for left, right in box), (where, box)
            page.click(f"{LOG} > summary")
            _fits(page, f"{where}, the log open")
            shot(page, f"table-{players // 2}v{players // 2}-{width}")


# (5) score sheet; (7) the end of the round shows before its summary ---------

def test_score_sheet_and_game_result_with_next_steps(make_page: Any) -> None:
    session, last = match_end(3)
    page = make_page(PHONE)
    open_with_save(page, _save_of(session), "fast")
    assert settle(page) == "you"
    point_and_play(page, last)
    # (7) the table shows how the round ended before the summary opens
    page.wait_for_selector(f"{T} .ck.round-end")
    assert not page.evaluate("() => document.getElementById('summary').open")
    assert page.locator(f"{HAND} .card").count() == 0
    res = state(page)["view"]["results"][-1]
    if res["leftovers"]:
        shown = page.locator(f"{T} .table-cards .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert shown == res["leftovers"]
        assert "Left on the table" in page.inner_text(f"{T} .leftover-note")
    shot(page, "round-end-phone")
    assert settle(page) == "summary"
    assert page.locator(".flying").count() == 0   # no card flies over the summary
    st = state(page)
    sheet = st["sheet"]
    assert sheet["over"] and sheet["result"]
    # every round with its points and the running total
    rows = page.locator("#summary .sheet tbody tr")
    assert rows.count() == len(sheet["rounds"])
    for i, r in enumerate(sheet["rounds"]):
        for side in (0, 1):
            cell = rows.nth(i).locator(f'td[data-side="{side}"] .run')
            assert int(cell.get_attribute("data-running")) == r["running"][side]
    # the result in the facade's words (game vs match decided in Python)
    result = page.inner_text("#summary .result")
    assert result == sheet["result"]["text"]
    assert "match" not in result   # a single game is not a match
    assert page.inner_text("#summary-title") == "End of the game"
    assert page.inner_text("#summary-next") == "Play again"
    assert page.locator("#summary-settings").is_visible()
    assert page.locator("#summary-stats").is_visible()
    shot(page, "score-sheet-phone")
    assert page.evaluate("() => document.getElementById('summary-next').getBoundingClientRect().bottom <= innerHeight")
    page.set_viewport_size({"width": 320, "height": 640})
    # the three buttons (statistics, settings, play again) stay whole on a 320 px screen
    outside = page.evaluate("""() => [...document.querySelectorAll('#summary .form-actions button')]
        .filter((b) => !b.hidden).map((b) => [b.id, b.getBoundingClientRect()])
        .filter(([, r]) => r.left < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight).map(([id]) => id)""")
    assert outside == [], outside
    shot(page, "score-sheet-320")
    page.set_viewport_size(DESKTOP)
    shot(page, "score-sheet-desktop")
    # change settings opens the start form with this game's settings
    page.click("#summary-settings")
    assert page.evaluate("() => document.getElementById('start').open")
    assert page.locator("#start-cancel").is_hidden()


# (9) loading and the phone top bar; (11) the rules, from the start screen and
# the table; (8) the cut card is labelled -----------------------------------

def test_loading_the_phone_bar_the_rules_link_and_the_cut_card(make_page: Any) -> None:
    seed = next(s for s in range(50)
                if (x := Session.new("chkobba", {"players": 2}, seed=s)).to_act() == 0 and x.state.phase == "cut")
    page = make_page(PHONE)
    page.goto(page.base_url + f"?seed={seed}")
    page.wait_for_selector(f"{T} .loading-indicator")
    # (before the table component is mounted, the first paint's frame has no table cards at all: nothing to say)
    empty = page.evaluate("""() => { const cards = document.querySelector('#table .table-cards');
        return cards ? getComputedStyle(cards, '::after').content : 'none'; }""")
    if not page.evaluate("() => document.documentElement.classList.contains('ready')"):
        assert empty in ("none", "normal", ""), f"the empty table while loading: {empty}"
    page.wait_for_selector("html.ready")
    for sel in (".brand-text", ".pace-text"):
        box = page.locator(sel).bounding_box()
        assert box and box["width"] > 20 and box["height"] > 5, (sel, box)
    brand = page.locator(".brand").bounding_box()
    nav = page.locator(".bar-actions").bounding_box()
    assert brand["x"] + brand["width"] <= nav["x"] + 1, (brand, nav)   # the name is not covered
    _fits(page, "the phone's start screen")
    # the rules, from the start screen and from the table
    assert page.locator('#start a[href^="rules.html"]').is_visible(), "no rules link on the start screen"
    start_game(page, players=2, levels=("easy",))
    link = page.locator('header a[href^="rules.html"]')
    assert link.is_visible() and link.inner_text() == "Rules", "the top bar's rules link"
    # the cut card
    assert settle(page) == "you"
    cut = page.locator(f"{T} .cut")
    assert cut.is_visible(), "the cut card is not shown"
    assert cut.locator(".card").get_attribute("data-card") == state(page)["view"]["cut_card"]
    assert "Cut card" in cut.locator(".cut-label").inner_text()
    # the cut card is not one of the table cards in play
    assert page.locator(f"{T} .table-cards .cut-card").count() == 0
    shot(page, "cut-card-phone")


# (10) focus stays in dialogs; Deal asks before ending a game ------------------

def _focus_inside(page: Any, dialog: str) -> bool:
    return bool(page.evaluate("(id) => document.getElementById(id).contains(document.activeElement)", dialog))


def test_focus_is_trapped_in_dialogs_and_deal_asks_first_then_a_second_table_mounts(make_page: Any) -> None:
    page = make_page(DESKTOP)
    open_table(page, "?seed=11")
    assert _focus_inside(page, "start")
    for _ in range(25):
        page.keyboard.press("Tab")
        assert _focus_inside(page, "start")
    for _ in range(5):
        page.keyboard.press("Shift+Tab")
        assert _focus_inside(page, "start")
    shot(page, "dialog-start-desktop")
    start_game(page, players=2, levels=("easy",))
    assert settle(page) == "you"
    point_and_play(page, pick_action(saved(page)))
    settle(page)
    before = saved(page)
    # New game, then Deal: the game in progress is not thrown away unasked
    page.focus("#new-game")
    page.keyboard.press("Enter")
    assert _focus_inside(page, "start")
    page.keyboard.press("Escape")   # back to the game; focus returns to the button
    assert not page.evaluate("() => document.getElementById('start').open")
    assert page.evaluate("() => document.activeElement.id") == "new-game"
    page.click("#new-game")
    page.click("#start-button")
    assert page.evaluate("() => document.getElementById('confirm').open")
    assert _focus_inside(page, "confirm")
    for _ in range(6):
        page.keyboard.press("Tab")
        assert _focus_inside(page, "confirm")
    shot(page, "dialog-confirm-desktop")
    page.click("#confirm-no")
    assert not page.evaluate("() => document.getElementById('confirm').open")
    assert saved(page) == before
    page.set_viewport_size(PHONE)
    shot(page, "dialog-start-phone")
    page.click("#start-button")
    shot(page, "dialog-confirm-phone")
    page.click("#confirm-yes")
    page.wait_for_function("() => !document.getElementById('start').open && !document.getElementById('confirm').open")
    settle(page)
    assert saved(page)["record"] != before["record"]
    page.set_viewport_size(DESKTOP)
    a_second_table_mounts_into_any_element(page)


# the site over time: persistent storage once a game is saved -----------------

PERSIST_SPY = """() => {
  window.__persistCalls = 0;
  if (!navigator.storage) return;
  navigator.storage.persist = () => { window.__persistCalls += 1; return Promise.resolve(true); };
}"""


# (6) animations: no card flies over a dialog or starts oversized -------------

def test_cards_fly_from_their_true_size_and_storage_persists_and_the_round_stays_in_the_log(make_page: Any) -> None:
    """A 1 v 1 game on a phone at the fast pace: persistent storage is asked
    once a game is saved, no sooner; a card leaving an opponent's hand starts
    at the size of a card back there; no card flies over the summary; the
    round just played stays in the log."""
    page = make_page(PHONE)
    page.add_init_script(f"({PERSIST_SPY})()")
    open_table(page, "?seed=11")
    assert page.evaluate("() => window.__persistCalls") == 0, "persistent storage asked before a game was saved"
    start_game(page, players=2, levels=("easy",))
    page.select_option("#pace", "fast")
    for i in range(4):
        assert settle(page) == "you"
        if i == 1:
            assert page.evaluate("() => window.__persistCalls") == 1, "persistent storage not asked once after a move"
        point_and_play(page, pick_action(saved(page)))
    settle(page)
    flights = page.evaluate("() => window.chkobbaApp.table.flightLog")
    back = page.locator(f"{T} .seat[data-seat='1'] .card.back").first.bounding_box()
    from_seat = [f for f in flights if f["origin"] == "seat"]
    assert from_seat, flights   # the computer's cards left its hand
    for f in from_seat:
        # a card leaving an opponent's hand starts at the size of a card back there
        assert abs(f["from"][0] - back["width"]) < 1.5, (f, back)
        assert f["from"][0] <= f["to"][0] + 0.5, f
    # (the console check in conftest fails this test on any animation warning)
    play_until_summary(page)
    assert page.locator(".flying").count() == 0
    the_round_just_played_stays_in_the_log(page)


# the page as a component: several tables, each drawn inside its own element ----

def a_second_table_mounts_into_any_element(page: Any) -> None:
    """A game in play (desktop): a view-only table mounted into an element of
    the page shows the same hand, cannot be played, uses no page-wide id and
    leaves the element empty once destroyed; the page's own table still plays."""
    assert settle(page) == "you", "no game to mount a second table of"
    out = page.evaluate("""async () => {
        const { mount } = await import('./table/core.js');
        const host = document.createElement('div');
        document.body.append(host);
        const st = window.chkobbaApp.state;
        const t = mount(host, { state: st, viewOnly: true });
        const mine = [...host.querySelectorAll('.hand-you .card')].map(e => e.dataset.card);
        const first = [...document.querySelectorAll('#table .hand-you .card')].map(e => e.dataset.card);
        const buttons = [...host.querySelectorAll('.hand-you button, .table-cards button')].length;
        t.destroy();
        return { mine, first, buttons, ids: [...document.querySelectorAll('#table [id]')].length,
                 left: host.childElementCount };
    }""")
    hand = state(page)["view"]["hand"]
    assert out["mine"] == hand and out["first"] == hand
    assert out["buttons"] == 0          # a view-only table cannot be played
    assert out["ids"] == 0              # nothing inside a table has a page-wide id
    assert out["left"] == 0             # destroy() leaves the element empty
    # the page's own table still plays
    point_and_play(page, pick_action(saved(page)))


def _game_end_in_match(first_seed: int) -> tuple[Session, str]:
    """A best-of-3 match where the human's next action ends its first game."""
    for seed in range(first_seed, first_seed + 40):
        rng = random.Random(seed)
        s = Session.new("chkobba", {"players": 2, "target": 11, "match": 3}, seed=seed)
        while s.state.game_index == 0 and s.to_act() is not None:
            legal = [a for a in s.legal() if not a.startswith("claim")]
            if s.to_act() == 0 and s.state.phase == "play":
                for a in legal:
                    trial = Session.from_record(s.record(), seed=s.seed)
                    trial.apply(a)
                    if trial.state.game_index == 1:
                        return s, a
            words = [a for a in legal if a in ("keep", "pass", "refuse")]
            s.apply(words[0] if words else rng.choice(legal))
    raise AssertionError("no game end found")


def test_end_of_a_game_inside_a_match_says_so_and_goes_on(make_page: Any) -> None:
    session, last = _game_end_in_match(1)
    page = make_page(DESKTOP)
    open_with_save(page, _save_of(session), "instant")
    assert settle(page) == "you"
    point_and_play(page, last)
    assert settle(page) == "summary"
    sheet = state(page)["sheet"]
    assert not sheet["over"] and sheet["result"]
    assert page.inner_text("#summary .result") == sheet["result"]["text"]
    assert page.inner_text("#summary-title") == "End of game 1"
    assert page.inner_text("#summary-next") == "Next game"
    assert page.locator("#summary .games").is_visible()   # games won so far, best of 3
    shot(page, "game-in-match-desktop")
    page.click("#summary-next")
    settle(page)
    assert page.get_attribute(f"{T} .scoreline", "data-games") == ",".join(map(str, sheet["games"]))
