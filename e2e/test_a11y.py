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
from e2e_driver import PHONE, point_and_play, settle, shot, start_game
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
    for mode in ("replay", "replay_seat", "play", "puzzle"):
        page.goto(page.base_url + f"embed.html?lang={lang}#{made[mode]}")
        page.wait_for_selector(READY, timeout=180_000)
        problems += axe(page, f"embed {mode}")

    assert not problems, report(problems)
