"""axe-core on every screen, in each language (?lang=ar, fr, en), in the
light and the dark colour scheme: the start form, the table mid-round (1 v 1,
2 v 2, Seven Diamonds), every dialog (new game, confirm, share, hand-off),
the damaged-save notice, the round summary with the score sheet, the rules,
a tutorial step and every embed mode. Any serious or critical violation
fails, each printed on its own line (docs/accessibility.md)."""

from __future__ import annotations

from typing import Any

import pytest

from a11y_util import LANGS, axe, load, match_end, mid_round, save_of
from e2e_driver import PHONE, pick_action, point_and_play, settle, shot, start_game
from embed_util import links, sample_record

READY = "body[data-state=ready]"


def report(problems: list[str]) -> str:
    return f"{len(problems)} serious or critical accessibility violations:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_axe_on_every_screen_of_the_table(make_page: Any, lang: str) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url + f"?lang={lang}&seed=3")
    page.wait_for_selector("html.ready")
    assert page.evaluate("() => document.documentElement.lang") == lang
    problems: list[str] = []
    # No save: the start form is up.
    assert page.evaluate("() => document.getElementById('start').open")
    problems += axe(page, "start form")

    start_game(page)
    assert settle(page) == "you"
    problems += axe(page, "table 1v1 after the deal")

    page.click("#share-button")
    page.wait_for_selector("#share[open]")
    problems += axe(page, "share dialog")
    page.click("#share-close")

    page.click("#new-game")
    page.wait_for_selector("#start[open]")
    problems += axe(page, "new game (settings) over a game")
    page.click("#start-button")
    page.wait_for_selector("#confirm[open]")
    problems += axe(page, "confirm a new game")
    page.click("#confirm-no")

    positions = [
        ("table 1v1 mid-round", save_of(mid_round("chkobba", {"players": 2}, 5, 12), 2)),
        ("table 2v2 mid-round", save_of(mid_round("chkobba", {"players": 4}, 6, 14), 4)),
        ("Seven Diamonds mid-round", save_of(mid_round("seven_diamonds", {}, 7, 10), 4)),
    ]
    for screen, save in positions:
        load(page, save)
        assert settle(page) == "you", screen
        problems += axe(page, screen)
        if lang == "ar":
            shot(page, f"a11y-{screen.split()[0].lower()}-{screen.split()[1]}-ar-phone")

    session, last = match_end()
    load(page, save_of(session, 2))
    assert settle(page) == "you"
    point_and_play(page, last)
    assert settle(page) == "summary"
    assert page.locator("#summary table.breakdown th[scope=col]").count() >= 2
    assert page.locator("#summary table.sheet th[scope=col]").count() >= 3
    problems += axe(page, "round summary and score sheet")

    two_humans = save_of(mid_round("chkobba", {"players": 2}, 8, 6), 2, seats=[{"kind": "human"}] * 2)
    load(page, two_humans)
    page.wait_for_selector(".handoff:not([hidden])")
    problems += axe(page, "hand-off (pass and play)")

    page.evaluate("() => localStorage.setItem('chkobba.save.v1', 'not a save')")
    page.reload()
    page.wait_for_selector("html.ready")
    page.wait_for_selector("#notice:not([hidden])")
    problems += axe(page, "damaged save notice")

    assert not problems, report(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_axe_on_the_rules_the_tutorial_and_every_embed_mode(make_page: Any, lang: str) -> None:
    page = make_page(PHONE)
    problems: list[str] = []
    page.goto(page.base_url + f"rules.html?lang={lang}")
    page.wait_for_selector("h1")
    problems += axe(page, "rules")

    page.goto(page.base_url + f"learn.html?lang={lang}")
    page.wait_for_selector(READY, timeout=180_000)
    page.wait_for_selector(".learn-table .card")
    problems += axe(page, "learn (a tutorial step)")

    made = links(sample_record(5))
    for mode in ("replay", "play", "puzzle"):
        page.goto(page.base_url + f"embed.html?lang={lang}#{made[mode]}")
        page.wait_for_selector(READY, timeout=180_000)
        problems += axe(page, f"embed {mode}")

    assert not problems, report(problems)


FOCUS_CHECK = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {where: 'body'};
  const r = a.getBoundingClientRect(), s = getComputedStyle(a);
  const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  return {where: a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.dataset.card ? '[' + a.dataset.card + ']' : '')
                 + (a.name ? '[name=' + a.name + ']' : '') + (a.dataset.act ? '[' + a.dataset.act + ']' : ''),
          shown: inView && !!hit && (a === hit || a.contains(hit) || (a.labels && [...a.labels].some((l) => l.contains(hit)))),
          hit: hit ? hit.tagName.toLowerCase() + '.' + hit.className : null,
          ring: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};
}"""


def tab_round(page: Any, tabs: int) -> list[dict[str, Any]]:
    seen = []
    for _ in range(tabs):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUS_CHECK))
    return seen


def test_focus_is_always_seen_and_never_hidden_behind_sticky_bars(make_page: Any) -> None:
    """2.4.7 and 2.4.11 at 360 x 640: Tab through the start form (its Deal
    bar is sticky), the table and the summary; the focused element has a
    ring and nothing covers it."""
    page = make_page(PHONE)
    page.goto(page.base_url + "?lang=fr&seed=3")
    page.wait_for_selector("html.ready")
    bad: list[str] = []
    for screen, tabs in (("start form", 30),):
        for f in tab_round(page, tabs):
            if f["where"] != "body" and not (f["shown"] and f["ring"]):
                bad.append(f"{screen}: {f}")
    page.keyboard.press("Escape")   # nothing to go back to: the form stays
    assert page.evaluate("() => document.getElementById('start').open")
    start_game(page)
    assert settle(page) == "you"
    page.locator("#table .hand-you .card").first.focus()
    for f in tab_round(page, 25):
        if f["where"] != "body" and not (f["shown"] and f["ring"]):
            bad.append(f"table: {f}")
    assert not bad, "\n".join(bad)


def test_share_dialog_by_keyboard_traps_focus_and_gives_it_back_then_the_hand_off(make_page: Any) -> None:
    """The share dialog opened by keyboard keeps the focus inside and gives
    it back to its button; then (a pass-and-play save loaded on the same
    page) the hand-off screen leaves nothing behind it focusable."""
    page = make_page(PHONE)
    page.goto(page.base_url + "?seed=3")
    page.wait_for_selector("html.ready")
    start_game(page)
    assert settle(page) == "you"
    page.focus("#share-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#share[open]")
    inside = [page.evaluate("() => !!document.activeElement.closest('#share')")]
    for _ in range(12):
        page.keyboard.press("Tab")
        inside.append(page.evaluate("() => !!document.activeElement.closest('#share')"))
    assert all(inside), f"the share dialog let the focus out: {inside}"
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('share').open")
    assert page.evaluate("() => document.activeElement.id") == "share-button", "the focus did not go back to Share"
    # the hand-off screen (pass and play)
    load(page, save_of(mid_round("chkobba", {"players": 2}, 8, 6), 2, seats=[{"kind": "human"}] * 2))
    page.wait_for_selector(".handoff:not([hidden])")
    assert page.evaluate("() => document.activeElement.classList.contains('handoff-go')"), "the hand-off's button has no focus"
    seen = set()
    for _ in range(8):
        page.keyboard.press("Tab")
        seen.add(page.evaluate("() => document.activeElement === document.body || !!document.activeElement.closest('.handoff')"))
    assert seen == {True}, "something behind the hand-off screen takes the focus"


def test_reduced_motion_no_card_flies(make_page: Any) -> None:
    page = make_page(PHONE, reduced_motion="reduce")
    page.goto(page.base_url + "?seed=3")
    page.wait_for_selector("html.ready")
    start_game(page)
    page.select_option("#pace", "fast")
    for _ in range(3):
        assert settle(page) == "you"
        st = page.evaluate("() => window.chkobbaApp.state")
        point_and_play(page, pick_action(st["save"]))
    assert settle(page) in ("you", "summary")
    assert page.evaluate("() => window.chkobbaApp.table.flightLog.length") == 0
    assert page.locator(".flying").count() == 0
    assert page.evaluate("() => getComputedStyle(document.querySelector('.spinner')).animationName") == "none"
