"""The rules page (web/rules.html): both games and every table option, in
players' words, readable on a phone, from the site's own origin, offline too.

The option check reads the engine's option classes, so adding an option to
ChkobbaOptions or SevenDiamondsOptions without rules text for it (or changing
a default without changing the page) fails here."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Any

import pytest

from chkobba.options import ChkobbaOptions, SevenDiamondsOptions
from e2e_driver import ARTIFACTS, DESKTOP, PHONE

NARROW = {"width": 320, "height": 640}
CARD_TEXT = re.compile(r"^(A|[2-7]|8|9|10|J|Q|K)[\u2666\u2665\u2660\u2663]\ufe0e$")


def open_rules(make_page: Any, viewport: dict[str, int], anchor: str = "", lang: str = "en") -> tuple[Any, list[str]]:
    page = make_page(viewport)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.goto(page.base_url + f"rules.html?lang={lang}" + anchor)
    page.wait_for_load_state("load")
    # rules.js has loaded the language's rules into <main> (web/i18n/<lang>/rules.html)
    page.wait_for_selector(f'html[data-rules-lang="{lang}"]', state="attached")
    return page, console


def no_horizontal_scroll(page: Any) -> None:
    widths = page.evaluate("""() => ({doc: document.documentElement.scrollWidth,
        body: document.body.scrollWidth, view: document.documentElement.clientWidth})""")
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths
    # Nothing pokes out of the viewport either (a wide table, a long word).
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => { const r = e.getBoundingClientRect();
                       return r.width && (r.right > innerWidth + 0.5 || r.left < -0.5); })
        .map(e => e.tagName + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || '').slice(0, 30))""")
    assert not wide, wide


@pytest.mark.parametrize("viewport", [PHONE, NARROW, DESKTOP], ids=["360x640", "320x640", "desktop"])
def test_rules_page_fits_and_loads_cleanly(make_page: Any, viewport: dict[str, int]) -> None:
    page, console = open_rules(make_page, viewport)
    assert page.title().startswith("Rules")
    no_horizontal_scroll(page)
    name = f"rules-{viewport['width']}x{viewport['height']}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    if viewport is PHONE:
        page.screenshot(path=str(ARTIFACTS / f"{name}-full.png"), full_page=True)
    # The same page laid out right to left (as it will be in Arabic) still fits.
    page.evaluate("() => { document.documentElement.dir = 'rtl'; }")
    no_horizontal_scroll(page)
    if viewport is PHONE:
        page.goto(page.base_url + "rules.html?lang=en#options")
        page.wait_for_selector('html[data-rules-lang="en"]', state="attached")
        page.evaluate("() => { document.documentElement.dir = 'rtl'; }")
        page.screenshot(path=str(ARTIFACTS / "rules-360x640-rtl-options.png"))
    assert not console, console
    # Every request stayed on the site's origin (checked by make_page too).
    assert page.watch.requests and not page.watch.foreign()


@pytest.mark.parametrize("cls", [ChkobbaOptions, SevenDiamondsOptions], ids=lambda c: c.game)
def test_every_engine_option_is_described(make_page: Any, cls: Any) -> None:
    page, console = open_rules(make_page, PHONE, "#options")
    defaults = cls().to_dict()
    described = page.evaluate(f"""() => [...document.querySelectorAll('#options [data-game="{cls.game}"]')]
        .map(e => e.dataset.option)""")
    for f in fields(cls):
        sel = f"#options #opt-{cls.game}-{f.name}"
        el = page.locator(sel)
        assert el.count() == 1, f"the rules page does not describe the {cls.game} option {f.name!r} ({sel})"
        assert el.get_attribute("data-option") == f.name
        text = " ".join(el.inner_text().split())
        assert len(text) >= 30, f"{f.name}: {text!r} is too short to explain an option"
        shown = el.get_attribute("data-default")
        assert shown is not None and json.loads(shown) == defaults[f.name], (
            f"{cls.game} option {f.name}: the page says the default is {shown}, the engine {defaults[f.name]!r}")
        # Which value is the default (or that there is no other choice).
        assert re.search(r"\b(default|always)\b", text.lower()), f"{f.name}: {text!r} does not say the default"
    # ...and nothing is described that the engine does not have.
    assert sorted(described) == sorted(f.name for f in fields(cls))
    assert not console, console


def test_anchors_links_and_cards(make_page: Any) -> None:
    page, console = open_rules(make_page, PHONE, "#seven-diamonds")
    for anchor in ("chkobba", "seven-diamonds", "options"):
        assert page.locator(f"#{anchor}").count() == 1, anchor
    # The anchor the table links to is where the page opens.
    top = page.evaluate("() => document.getElementById('seven-diamonds').getBoundingClientRect().top")
    assert 0 <= top < 40, top
    # Every link inside the page lands on something.
    broken = page.evaluate("""() => [...document.querySelectorAll('a[href^="#"]')]
        .map(a => a.getAttribute('href').slice(1)).filter(id => !document.getElementById(id))""")
    assert not broken, broken
    # Cards are written as players read them (7♦), with a spoken name.
    cards = page.evaluate("""() => [...document.querySelectorAll('.c')]
        .map(c => [c.textContent, c.getAttribute('aria-label')])""")
    assert len(cards) >= 10
    for text, label in cards:
        assert CARD_TEXT.match(text), text
        assert re.match(r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                        r"(diamonds|hearts|spades|clubs)$", label), label
    body = page.inner_text("main")
    for code in re.findall(r"\b[A2-9TJQK][DHSC]\b", body):
        pytest.fail(f"a card is written as a programmer's code: {code}")
    assert "7\u2666" in body
    assert not console, console


def test_rules_page_is_precached_for_offline(site: Any) -> None:
    sw = (site / "sw.js").read_text()
    assert '"./rules.html"' in sw and '"./rules.css"' in sw and '"./rules.js"' in sw
    for lang in ("en", "fr", "ar"):
        assert f'"./i18n/{lang}/rules.html"' in sw and f'"./i18n/{lang}.js"' in sw, lang


# --- The page in each language (web/i18n/<lang>/rules.html and rules.json) ---

IDS = "() => [...document.querySelectorAll('main [id]')].map(e => e.id)"
OPTIONS = """() => [...document.querySelectorAll('#options .option')]
    .map(e => [e.id, e.dataset.game || '', e.dataset.option, e.dataset.default])"""


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_rules_page_in_each_language(make_page: Any, lang: str) -> None:
    english, console_en = open_rules(make_page, PHONE)
    en_ids, en_options = english.evaluate(IDS), english.evaluate(OPTIONS)
    en_title = english.title()
    english.close()
    page, console = open_rules(make_page, PHONE, lang=lang)
    root = page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]")
    assert root == [lang, "rtl" if lang == "ar" else "ltr"]
    # The same sections, the same option blocks with the same defaults, in the same order.
    assert page.evaluate(IDS) == en_ids
    assert page.evaluate(OPTIONS) == en_options
    # ...in the reader's language: the title, the chrome and the prose are not English.
    assert page.title() and page.title() != en_title
    body = page.inner_text("main")
    assert len(body) > 4000
    for english_words in ("The cards", "Scoring a round", "Table options", "Back to the table"):
        assert english_words not in page.inner_text("body"), english_words
    if lang == "ar":
        assert re.search("[\u0600-\u06ff]{3,}", page.inner_text("h1")), page.inner_text("h1")
        assert "الشكبّة" in body and "السبعة الحيّة" in body and "البرميلة" in body
    else:
        assert "Règles" in page.inner_text("h1") and "Barmila" in body and "carreau" in body
    # Cards: drawn as players read them (7♦), left to right even in Arabic, named in the language.
    cards = page.evaluate("""() => [...document.querySelectorAll('main .c')].map(c =>
        [c.textContent, c.getAttribute('aria-label'), getComputedStyle(c).direction])""")
    assert len(cards) >= 10
    names = page.evaluate("async () => { const m = await import('./i18n/i18n.js'); return m.cardName('7D'); }")
    assert names and "7D" not in names
    for text, label, direction in cards:
        assert CARD_TEXT.match(text), text
        assert label and not re.search(r"\b[A2-9TJQK][DHSC]\b", label) and " of " not in label, label
        assert direction == "ltr"
    assert names in [label for _, label, _ in cards]
    for code in re.findall(r"\b[A2-9TJQK][DHSC]\b", body):
        pytest.fail(f"a card is written as a programmer's code: {code}")
    # The text runs from the start side: right in Arabic, left otherwise.
    h1 = page.evaluate("""() => { const r = document.querySelector('h1').getBoundingClientRect();
        const m = document.querySelector('main').getBoundingClientRect();
        return [r.left - m.left, m.right - r.right, getComputedStyle(document.querySelector('h1')).direction]; }""")
    assert h1[2] == ("rtl" if lang == "ar" else "ltr")
    no_horizontal_scroll(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rules-{lang}-360x640.png"))
    # An anchor from the table lands on its section in every language.
    page.goto(page.base_url + f"rules.html?lang={lang}#seven-diamonds")
    page.wait_for_selector(f'html[data-rules-lang="{lang}"]', state="attached")
    top = page.evaluate("() => document.getElementById('seven-diamonds').getBoundingClientRect().top")
    assert 0 <= top < 40, top
    page.screenshot(path=str(ARTIFACTS / f"rules-{lang}-360x640-seven-diamonds.png"))
    broken = page.evaluate("""() => [...document.querySelectorAll('a[href^="#"]')]
        .map(a => a.getAttribute('href').slice(1)).filter(id => !document.getElementById(id))""")
    assert not broken, broken
    assert not console and not console_en, console + console_en


@pytest.mark.parametrize("viewport", [NARROW, DESKTOP], ids=["320x640", "desktop"])
def test_arabic_rules_fit(make_page: Any, viewport: dict[str, int]) -> None:
    page, console = open_rules(make_page, viewport, lang="ar")
    no_horizontal_scroll(page)
    page.screenshot(path=str(ARTIFACTS / f"rules-ar-{viewport['width']}x{viewport['height']}.png"))
    assert not console, console


def test_language_picker_switches_and_remembers(make_page: Any) -> None:
    page, console = open_rules(make_page, PHONE)
    picker = page.locator("header select.lang-picker")
    assert picker.count() == 1 and picker.input_value() == "en"
    assert picker.bounding_box()["height"] >= 44
    picker.select_option("ar")
    page.wait_for_selector('html[data-rules-lang="ar"]', state="attached")
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
    assert page.inner_text("h1") == "القواعد"
    assert page.inner_text("header .back") != "Back to the table"
    # In Arabic the header mirrors: the brand sits at the right, the way back at the left.
    brand = page.locator("header .brand").bounding_box()
    back = page.locator("header .back").bounding_box()
    assert brand["x"] > back["x"], (brand, back)
    page.screenshot(path=str(ARTIFACTS / "rules-ar-picker-360x640.png"))
    # Remembered: the page opened again without ?lang= is in Arabic.
    page.goto(page.base_url + "rules.html")
    page.wait_for_selector('html[data-rules-lang="ar"]', state="attached")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    page.locator("header select.lang-picker").select_option("fr")
    page.wait_for_selector('html[data-rules-lang="fr"]', state="attached")
    assert page.inner_text("h1") == "Règles"
    assert not console, console
