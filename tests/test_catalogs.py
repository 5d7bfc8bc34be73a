"""The catalogs (web/i18n/<lang>/*.json, scripts/catalogs.py): every
translation says the same placeholders as its English text, plural texts
have their "other" form, and no key is in two files."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from chkobba import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import catalogs  # noqa: E402

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}", re.I)
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}


def forms(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    assert isinstance(value, dict) and value, f"a text is a string or plural forms, not {value!r}"
    assert set(value) <= PLURAL_FORMS and "other" in value, f"plural forms need 'other': {sorted(value)}"
    assert all(isinstance(v, str) for v in value.values())
    return list(value.values())


def names(value: object) -> set[str]:
    return {n for text in forms(value) for n in PLACEHOLDER.findall(text)}


ENGLISH = catalogs.load("en")


@pytest.mark.parametrize("lang", catalogs.LANGS)
def test_catalog_texts_are_well_formed(lang: str) -> None:
    table = catalogs.load(lang)
    for key, value in table.items():
        assert re.fullmatch(r"[a-z0-9_]+(\.[A-Za-z0-9_]+)+", key), f"{lang}: key {key!r}"
        forms(value)


@pytest.mark.parametrize("lang", [code for code in catalogs.LANGS if code != "en"])
def test_translations_keep_the_placeholders(lang: str) -> None:
    table = catalogs.load(lang)
    extra = sorted(set(table) - set(ENGLISH))
    assert not extra, f"{lang} has keys English lacks: {extra[:10]}"
    for key, value in table.items():
        # plural forms may leave out {count} in a form ("one card"), never add a name
        want, got = names(ENGLISH[key]), names(value)
        assert got <= want | {"count"} and want - got <= {"count"}, f"{lang} {key}: {sorted(got)} vs {sorted(want)}"


# --------------------------------------------------------------- completeness

WEB = catalogs.ROOT / "web"
# The areas whose French and Arabic another helper writes (msg.*: the
# engine's messages, lesson.*: the lessons); until their files exist the
# completeness check of those keys is an expected failure, and strict: once
# web/i18n/<lang>/messages.json is there, a missing key fails.
GENERATED = ("msg.", "lesson.")


def _missing(lang: str, generated: bool) -> list[str]:
    table = catalogs.load(lang)
    return sorted(k for k in ENGLISH if k not in table and k.startswith(GENERATED) == generated)


@pytest.mark.parametrize("lang", [code for code in catalogs.LANGS if code != "en"])
def test_translations_have_every_page_key(lang: str) -> None:
    missing = _missing(lang, generated=False)
    assert not missing, f"{lang} lacks {len(missing)} key(s) English has: {missing[:15]}"


@pytest.mark.parametrize("lang", [
    pytest.param(code, marks=pytest.mark.xfail(
        not (catalogs.WEB_I18N / code / "messages.json").exists(), strict=True,
        reason="the French and Arabic engine messages and lessons are not written yet"))
    for code in catalogs.LANGS if code != "en"])
def test_translations_have_every_message_and_lesson_key(lang: str) -> None:
    missing = _missing(lang, generated=True)
    assert not missing, f"{lang} lacks {len(missing)} message/lesson key(s): {missing[:15]}"


# ---------------------------------------------------------------- no unused key

def page_sources() -> list[Path]:
    """The page's scripts and markup (not the catalogs or the built modules)."""
    files = [p for p in WEB.rglob("*") if p.suffix in (".js", ".html") and p.is_file()]
    return sorted(p for p in files if "i18n" not in p.relative_to(WEB).parts[:1] or p.name == "i18n.js")


LITERAL = re.compile(r"""["'`]([a-z0-9_]+(?:\.[A-Za-z0-9_]+)+)["'`]""")
DATA_ATTR = re.compile(r"""data-i18n(?:-attr)?=["']([^"']+)["']""")

# Keys built at run time from a prefix, each accounted for here:
#   msg.<code>          every message code of the engine's registry (the
#                       table renders any code the facade sends);
#   lesson.<...>        every text of lessons/*.json (learn.js: title_key,
#                       text_key, hint_key from the facade);
#   card.rank.<r>, card.suit.<s>   i18n.js cardName, for every card code;
#   start.game.<g>      a game's name (web/shell/startform.js), for every
#                       game the facade's describe lists;
#   daily.start.<g>, daily.yesterday.<g>   its daily deal's entry and
#                       yesterday's (web/shell/daily.js), for every game with one.
RANKS = "A23456789TJQK"
SUITS = "DHSC"


def dynamic_keys() -> set[str]:
    keys = set(catalogs.engine_english()) | set(catalogs.lesson_english())
    keys |= {f"card.rank.{r}" for r in RANKS} | {f"card.suit.{s}" for s in SUITS}
    games = json.loads(web.call("describe", "{}"))["ok"]["games"]
    keys |= {f"start.game.{g['game']}" for g in games}
    keys |= {f"{head}.{g['game']}" for head in ("daily.start", "daily.yesterday") for g in games if g["daily"]}
    return keys


def used_keys() -> set[str]:
    used: set[str] = set()
    for path in page_sources():
        text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.S)
        used |= set(LITERAL.findall(text))
        for value in DATA_ATTR.findall(text):
            for part in value.split(";"):
                used.add(part.split(":")[-1].strip())
    return used


def test_every_english_key_is_used() -> None:
    dyn = dynamic_keys()
    used = used_keys()
    unused = sorted(k for k in ENGLISH if k not in used and k not in dyn)
    assert not unused, f"{len(unused)} catalog key(s) no page uses: {unused[:20]}"


def test_every_key_a_page_asks_for_is_in_english() -> None:
    """Each t("key") / data-i18n="key" of the pages is in the English catalog."""
    asked: set[str] = set()
    for path in page_sources():
        text = re.sub(r"<!--.*?-->", "", path.read_text(encoding="utf-8"), flags=re.S)
        asked |= set(re.findall(r"""\bt(?:Html)?\(\s*["']([a-z0-9_]+(?:\.[A-Za-z0-9_]+)+)["']""", text))
        for value in DATA_ATTR.findall(text) if path.suffix == ".html" else []:
            for part in value.split(";"):
                asked.add(part.split(":")[-1].strip())
    missing = sorted(asked - set(ENGLISH))
    assert not missing, missing


def test_dynamic_prefixes_are_complete_in_english() -> None:
    assert dynamic_keys() <= set(ENGLISH)


def test_the_check_finds_an_unused_key(tmp_path: Path) -> None:
    """The unused-key check can fail: a key nobody uses is reported."""
    assert "zz.nobody_uses_this" not in used_keys()
    assert "seat.you" in used_keys() and "app.new_game" in used_keys()


# ------------------------------------------------------ no English in markup

class _Texts(__import__("html.parser").parser.HTMLParser):
    SKIP = {"script", "style", "noscript", "py-config", "mpy-config"}
    ATTRS = {"aria-label", "title", "placeholder", "alt"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append(tag)
        a = dict(attrs)
        for name in self.ATTRS:
            if a.get(name) and re.search(r"[A-Za-z]{2}", a[name] or ""):
                self.found.append(f"<{tag} {name}={a[name]!r}>")
        if tag == "meta" and a.get("name") == "description" and a.get("content"):
            self.found.append(f"meta description {a['content']!r}")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if any(t in self.SKIP for t in self.stack):
            return
        if re.search(r"[A-Za-z]{2}", data):
            self.found.append(data.strip())


@pytest.mark.parametrize("page", ["index.html", "embed.html", "learn.html"])
def test_pages_hold_no_english_in_their_markup(page: str) -> None:
    """Every text of these pages is filled from the catalogs (data-i18n);
    only <noscript> (no script, no catalog) says it in all three languages."""
    parser = _Texts()
    parser.feed((WEB / page).read_text(encoding="utf-8"))
    assert not parser.found, parser.found


def test_stylesheets_write_no_words() -> None:
    """CSS may draw punctuation (content: "(") but no words: a word in a
    stylesheet could not be translated (use content: attr(data-...))."""
    found = []
    for path in sorted((WEB / "css").glob("*.css")):
        for m in re.finditer(r"""content:\s*(["'])(.*?)\1""", path.read_text(encoding="utf-8")):
            if re.search(r"[A-Za-z]{2}", m.group(2)):
                found.append(f"{path.name}: {m.group(0)}")
    assert not found, found
