"""Languages on every page (issue 12): Arabic (right to left), French and
English. Each page loads in each language with <html lang/dir> set and no
missing-key console error (the fixtures fail on any console error); the
picker switches language and is remembered across a reload; a game in
progress survives a switch; the Arabic table is screenshotted at 360x640,
320x640 and 1280x800 and checked for what mirrors and what must not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from e2e_driver import DESKTOP, HAND, NARROW, PHONE, T, TABLE_CARDS, saved, settle, shot, start_game
from embed_util import links, sample_record

LANGS = {"ar": "rtl", "fr": "ltr", "en": "ltr"}
# A word each language's table shows (the New game button) and the English
# one, to tell a page in that language from one left in English.
NEW_GAME = {"ar": "طرح جديد", "fr": "Nouvelle partie", "en": "New game"}


def root(page: Any) -> tuple[str, str]:
    return tuple(page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]"))


def open_table(page: Any, query: str = "") -> None:
    page.goto(page.base_url + query)
    page.wait_for_selector("html.ready")


def fits(page: Any) -> None:
    sw, iw = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert sw <= iw, f"page is {sw} px wide in a {iw} px window"


@pytest.mark.parametrize("lang", list(LANGS))
def test_table_page_in_each_language(make_page: Any, lang: str) -> None:
    page = make_page(PHONE)
    open_table(page, f"?lang={lang}&seed=3")
    assert root(page) == (lang, LANGS[lang])
    assert page.inner_text("#new-game") == NEW_GAME[lang]
    assert page.inner_text("#start-title") == NEW_GAME[lang]
    # the start form's options come from the catalogs too (msg.option.* for names)
    form = page.inner_text("#start-form")
    if lang != "en":
        for english in ("Players", "Table rules", "Computer: easy", "You against the computer", "Deal"):
            assert english not in form, (lang, english)
        # option names are the engine's message codes: translated by the catalogs' msg.* texts
        own = page.evaluate(f"async () => (await import('./i18n/{lang}.js')).default['msg.option.faces'] || null")
        assert ("Face card values" in form) == (own is None), own
    start_game(page)
    settle(page)
    assert page.get_attribute(HAND, "aria-label") != ("Your cards" if lang != "en" else "")
    # every card is named in the page's language
    name = page.locator(f"{HAND} .card").first.get_attribute("aria-label")
    if lang == "en":
        assert " of " in name
    elif lang == "fr":
        assert " de " in name
    else:
        assert not any(c.isascii() and c.isalpha() for c in name), name
    if lang != "en":
        table_text = page.inner_text(T)
        for english in ("Your turn", "Computer", "in hand", "Keys:", "Moves this round"):
            assert english not in table_text, (lang, english)
    fits(page)


def test_picker_switches_and_is_remembered_and_the_game_survives(make_page: Any) -> None:
    page = make_page(PHONE)
    open_table(page, "?seed=5")
    assert root(page) == ("en", "ltr")        # the test browser speaks English
    start_game(page)
    settle(page)
    before = saved(page)
    hand = sorted(page.eval_on_selector_all(f"{HAND} .card", "els => els.map(e => e.dataset.card)"))
    picker = page.locator("header .lang-picker")
    assert picker.get_attribute("aria-label") == "Language"
    with page.expect_navigation():
        picker.select_option("ar")
    page.wait_for_selector("html.ready")
    assert root(page) == ("ar", "rtl")
    assert page.evaluate("() => localStorage.getItem('chkobba.lang')") == "ar"
    assert page.locator("header .lang-picker").get_attribute("aria-label") == "اللغة"
    settle(page)
    # the same game, resumed: same save, same hand, no start screen
    assert saved(page) == before
    assert not page.evaluate("() => document.getElementById('start').open")
    assert sorted(page.eval_on_selector_all(f"{HAND} .card", "els => els.map(e => e.dataset.card)")) == hand
    # remembered across a plain reload (no ?lang= in the address)
    assert "lang=" not in page.url
    page.reload()
    page.wait_for_selector("html.ready")
    assert root(page) == ("ar", "rtl")
    assert page.inner_text("#new-game") == NEW_GAME["ar"]
    # and back to French
    with page.expect_navigation():
        page.locator("header .lang-picker").select_option("fr")
    page.wait_for_selector("html.ready")
    assert root(page) == ("fr", "ltr")
    settle(page)
    assert saved(page) == before


def _arabic_table(page: Any) -> None:
    open_table(page, "?lang=ar&seed=7")
    start_game(page)
    settle(page)


@pytest.mark.parametrize("size", ["360x640", "320x640", "1280x800"])
def test_arabic_table_mirrors_where_it_should(make_page: Any, size: str) -> None:
    viewport = {"360x640": PHONE, "320x640": NARROW, "1280x800": DESKTOP}[size]
    page = make_page(viewport)
    _arabic_table(page)
    # a capture row and the table keep their order; card faces never mirror
    directions = page.evaluate(f"""() => ({{
        page: getComputedStyle(document.body).direction,
        card: getComputedStyle(document.querySelector('{HAND} .card')).direction,
        table: getComputedStyle(document.querySelector('{TABLE_CARDS}')).direction,
        hand: getComputedStyle(document.querySelector('{HAND}')).direction,
    }})""")
    assert directions == {"page": "rtl", "card": "ltr", "table": "ltr", "hand": "ltr"}, directions
    # the rank corner of a card is at its top-left, as printed
    card = page.locator(f"{HAND} .card").first
    box = card.bounding_box()
    corner = card.locator(".corner").first.bounding_box()
    assert corner["x"] - box["x"] < box["width"] / 2
    # the page chrome mirrors: the brand is on the right, the actions on the left
    brand = page.locator("header .brand").bounding_box()
    actions = page.locator("header .bar-actions").bounding_box()
    assert brand["x"] > actions["x"]
    # the table's cards read left to right like the player's own hand: the
    # first card of the state's table is the leftmost
    table = page.evaluate("() => window.chkobbaApp.state.view.table")
    if len(table) > 1:
        xs = [page.locator(f'{TABLE_CARDS} .card[data-card="{c}"]').bounding_box()["x"] for c in table]
        assert xs == sorted(xs)
    fits(page)
    # Arabic text fits its boxes: no control cut off
    clipped = page.evaluate("""() => [...document.querySelectorAll('header *, #table button, #table .turn')]
        .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1
                 && getComputedStyle(e).overflowX !== 'visible')
        .map(e => e.className || e.tagName)""")
    assert not clipped, clipped
    shot(page, f"lang-ar-table-{size}")
    page.click("#new-game")
    shot(page, f"lang-ar-start-{size}")


def test_learn_page_in_each_language(make_page: Any) -> None:
    for lang in LANGS:
        page = make_page(PHONE)
        page.goto(page.base_url + f"learn.html?lang={lang}")
        page.wait_for_selector("body[data-state=ready]", timeout=180_000)
        assert root(page) == (lang, LANGS[lang])
        title = page.inner_text(".learn-title")
        if lang == "en":
            assert title
        assert page.locator("header .lang-picker").count() == 1
        fits(page)
        if lang == "ar":
            shot(page, "lang-ar-learn-360x640")
    # the picker on the tutorial switches and remembers
    with page.expect_navigation():
        page.locator("header .lang-picker").select_option("fr")
    page.wait_for_selector("body[data-state=ready]", timeout=180_000)
    assert root(page) == ("fr", "ltr")
    assert page.inner_text("#learn-next") == "Étape suivante"


def test_embed_in_each_language(make_page: Any) -> None:
    link = links(sample_record())["replay"]
    for lang in LANGS:
        page = make_page(PHONE)
        page.goto(page.base_url + f"embed.html?lang={lang}#{link}")
        page.wait_for_selector("body[data-state=ready]", timeout=180_000)
        assert root(page) == (lang, LANGS[lang])
        assert page.locator(".embed-bar .lang-picker").count() == 1
        mode = page.inner_text(".embed-mode")
        assert mode == {"ar": "إعادة", "fr": "Revoir", "en": "Replay"}[lang]
        fits(page)
        # a replay speaks to a reader who sits nowhere (issue 38): the cut
        # card is not "only you see it", seats are not "Bottom player"
        assert page.locator(".embed-table .cut").is_visible(), "the replay does not open on the cut"
        assert page.locator(".embed-table .cut-note").is_hidden(), page.inner_text(".embed-table .cut")
        words = page.inner_text(".embed-table")
        assert not any(w in words for w in ("Bottom player", "Top player", "Joueur d'en face", "قدامك")), words
        if lang == "ar":
            shot(page, "lang-ar-embed-360x640")
    # a bad link's one line of text is in the page's language too
    page = make_page(PHONE)
    page.goto(page.base_url + "embed.html?lang=fr#")
    page.wait_for_selector("body[data-state=error]")
    assert page.inner_text(".embed-msg") == "Ce cadre n'a pas de partie : son lien se termine sans."


def test_engine_messages_render_from_codes(make_page: Any) -> None:
    """A refusal is rendered from its code in the page's language (msg.<code>),
    not from the English the facade sent."""
    page = make_page(DESKTOP)
    open_table(page, "?lang=fr&seed=3")
    start_game(page)
    settle(page)
    html = page.evaluate("""async () => {
        const m = await import('./table/messages.js');
        return m.messageText({code: 'play.not_in_hand', params: {card: '7D'}, error: '7D is not in your hand'});
    }""")
    catalog = json.loads(page.evaluate("async () => JSON.stringify((await import('./i18n/fr.js')).default['msg.play.not_in_hand'] || null)"))
    english = "7\u2666\ufe0e is not in your hand"
    if catalog:       # the French text, once `words` has translated it
        assert html != english
    assert "7\u2666" in html                       # the card as a symbol either way
