"""A whole Chkobba 1 v 1 round played with the keyboard only (Tab, Enter,
Space and the shortcuts T and L; no mouse) in Arabic, listening to the
table's polite live region as a screen reader would: every computer move is
announced (by its card's Arabic name), whose turn it is, and the round's
result, each text checked against the Arabic catalog (web/i18n/ar/a11y.json,
card names from web/i18n/ar/ui.json)."""

from __future__ import annotations

import os
from typing import Any

from a11y_util import catalog, template_regex
from e2e_driver import CHOICES, DESKTOP, HAND, TABLE_CARDS, pick_action, saved, settle, shot, state

LANG = os.environ.get("A11Y_ROUND_LANG", "ar")   # the test is written for Arabic; en checks the same path

# Every text the live region says, as a screen reader hears it (one entry per change).
LISTEN = """() => {
  window.__said = [];
  const host = document.getElementById('table');
  new MutationObserver((records) => {
    for (const r of records) {
      const live = r.target.closest && r.target.closest('.live');
      if (live && r.type === 'childList' && live.textContent) window.__said.push(live.textContent);
    }
  }).observe(host, {childList: true, subtree: true});
}"""


def card_name(cat: dict[str, Any], code: str) -> str:
    return str(cat["card.name"]).replace("{rank}", cat[f"card.rank.{code[0]}"]).replace("{suit}", cat[f"card.suit.{code[1]}"])


def tab_to(page: Any, selector: str, max_tabs: int = 80) -> None:
    for _ in range(max_tabs):
        if page.evaluate("(sel) => document.activeElement.matches(sel)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def actions_so_far(page: Any) -> tuple[int, int]:
    rounds = saved(page)["record"]["rounds"]
    return len(rounds), len(rounds[-1]["actions"])


def play_by_keys(page: Any, action: str) -> None:
    before = actions_so_far(page)
    if action in ("keep", "table", "propose", "pass", "accept", "refuse"):
        tab_to(page, f'{CHOICES} button[data-action="{action}"]')
        page.keyboard.press("Enter")
    elif "x" in action:
        card, take = action.split("x")
        tab_to(page, f'{HAND} .card[data-card="{card}"]')
        page.keyboard.press("Space")
        for i in range(0, len(take), 2):
            tab_to(page, f'{TABLE_CARDS} .card[data-card="{take[i:i + 2]}"]')
            page.keyboard.press("Enter")
        page.keyboard.press("t")
    else:
        tab_to(page, f'{HAND} .card[data-card="{action}"]')
        page.keyboard.press("Enter")
        page.keyboard.press("l")
    page.wait_for_function(
        """([n, k]) => { const r = window.chkobbaApp.state.save.record.rounds;
             return r.length > n || r[r.length - 1].actions.length > k; }""", arg=list(before))


def test_a_whole_round_by_keyboard_with_a_screen_reader_in_arabic(make_page: Any) -> None:
    cat = catalog(LANG)
    page = make_page(DESKTOP)
    page.goto(page.base_url + f"?lang={LANG}&seed=11")
    page.evaluate("() => localStorage.setItem('chkobba.pace', 'instant')")
    page.reload()
    page.wait_for_selector("html.ready")
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == \
        [LANG, "rtl" if LANG == "ar" else "ltr"]
    # one polite live region in the table, a status
    regions = page.eval_on_selector_all("#table [aria-live=polite]", "els => els.map(e => e.getAttribute('role'))")
    assert regions == ["status"], regions
    page.evaluate(LISTEN)
    # The start screen is up with Deal focused: Enter deals.
    assert page.evaluate("() => document.activeElement.id") == "start-button"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('start').open && window.chkobbaApp.state")

    for _ in range(80):
        where = settle(page)
        if where == "summary":
            break
        assert where == "you", where
        # every card has its name in the page's language
        for el in page.locator(f"{HAND} .card, {TABLE_CARDS} .card").all():
            assert el.get_attribute("aria-label") == card_name(cat, el.get_attribute("data-card"))
        play_by_keys(page, pick_action(state(page)["save"]))
    else:
        raise AssertionError("the round did not end")
    shot(page, f"a11y-round-summary-{LANG}")
    said = page.evaluate("() => window.__said")
    record = saved(page)["record"]
    actions = record["rounds"][0]["actions"]
    seats = [m["seat"] for m in state(page)["moves"]] if state(page)["moves"] else []
    assert len(seats) == len(actions)

    # every move in turn (the computer's and yours), by its card's name, in order
    at = 0
    for action, seat in zip(actions, seats, strict=True):
        card = action[6:8] if action.startswith("claim ") else action[:2]
        if action in ("keep", "table", "propose", "pass", "accept", "refuse"):
            continue
        name = card_name(cat, card)
        while at < len(said) and name not in said[at]:
            at += 1
        assert at < len(said), f"seat {seat}'s move {action} ({name}) was never announced: {said}"
    computer_moves = sum(1 for s in seats if s == 1)
    assert computer_moves >= 15
    # whose turn: said after each computer move that gives you the turn
    yours = str(cat["a11y.turn.you"])
    assert sum(yours in s for s in said) >= computer_moves - 1, said
    # the round's result, from the catalog's template with the true numbers
    sheet = state(page)["sheet"]
    last = sheet["rounds"][-1]
    fmt = "(n) => new Intl.NumberFormat(document.documentElement.lang === 'ar' ? 'ar-TN' : document.documentElement.lang).format(n)"
    num = {k: page.evaluate(fmt, v) for k, v in
           {"round": 1, "points_a": last["points"][0], "points_b": last["points"][1],
            "score_a": last["running"][0], "score_b": last["running"][1]}.items()}
    template = str(cat["a11y.round.result"])
    for k, v in num.items():
        template = template.replace("{" + k + "}", v)
    pattern = template_regex(template)
    assert any(pattern.search(s) for s in said), (template, said[-3:])

    # The summary is a dialog with its button focused; Escape goes on to the
    # next round as the button does, and focus comes back to the table.
    assert page.evaluate("() => document.activeElement.id") == "summary-next"
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('summary').open")
    assert settle(page) == "you"
    page.wait_for_function("() => !!document.activeElement.closest('#table .hand-you, #table .choices')")
    # the next deal says whose turn it is
    assert page.evaluate("() => document.querySelector('#table .live').textContent").endswith(yours)
