"""The French and Arabic texts: the engine's messages (msg.*), the lessons
(lesson.*), the rules page and the glossary.

- web/i18n/{fr,ar}/messages.json translate every message code, and
  web/i18n/{fr,ar}/lessons.json every lesson text, with the same placeholders
  and the same card codes as English (a lesson names the cards of its
  position; a translation must name the same ones);
- the three rules fragments (web/i18n/<lang>/rules.html) have the same
  sections and option blocks, name the same cards, and are well formed;
- docs/glossary.md: every French and Arabic term it lists is the one the
  catalogs use.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

I18N = ROOT / "web" / "i18n"
LANGS = ("fr", "ar")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}", re.I)
CARD = re.compile(r"\b[A2-9TJQK][DHSC]\b", re.ASCII)  # \b as in the page's JS (ASCII words): "و3D" names 3D
ARABIC = re.compile("[\u0600-\u06ff]")
ENGLISH = catalogs.load("en")


def forms(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    assert isinstance(value, dict) and "other" in value, value
    return list(value.values())


def placeholders(value: Any) -> set[str]:
    return {n for text in forms(value) for n in PLACEHOLDER.findall(text)}


def cards(value: Any) -> set[str]:
    # outside placeholders: "{card}x7D" names no card of its own
    return {c for text in forms(value) for c in CARD.findall(PLACEHOLDER.sub(" ", text))}


def own(lang: str, area: str) -> dict[str, Any]:
    data = json.loads((I18N / lang / f"{area}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("area,prefix", [("messages", "msg."), ("lessons", "lesson.")])
def test_every_text_is_translated(lang: str, area: str, prefix: str) -> None:
    table = own(lang, area)
    english = {k: v for k, v in ENGLISH.items() if k.startswith(prefix)}
    assert english, prefix
    missing = sorted(set(english) - set(table))
    extra = sorted(set(table) - set(english))
    assert not missing, f"{lang}/{area}.json lacks {len(missing)} texts: {missing[:10]}"
    assert not extra, f"{lang}/{area}.json has keys English lacks: {extra[:10]}"
    assert all(k.startswith(prefix) for k in table)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("area", ["messages", "lessons"])
def test_same_placeholders_and_cards(lang: str, area: str) -> None:
    for key, value in own(lang, area).items():
        want, got = placeholders(ENGLISH[key]), placeholders(value)
        # a plural form may leave {count} out ("one card"); nothing else may go or come
        if isinstance(value, str):
            assert got == want, f"{lang} {key}: placeholders {sorted(got)}, English {sorted(want)}"
        else:
            assert want - {"count"} <= got <= want | {"count"}, (
                f"{lang} {key}: placeholders {sorted(got)}, English {sorted(want)}")
        if isinstance(value, dict):
            assert "count" in want, f"{lang} {key}: plural forms, but no count decides them"
            assert set(value) <= {"zero", "one", "two", "few", "many", "other"}
        assert cards(value) == cards(ENGLISH[key]), f"{lang} {key}: cards {cards(value)} vs {cards(ENGLISH[key])}"
        for text in forms(value):
            assert text.strip() and text == text.strip(), f"{lang} {key}: {text!r}"
            assert text.count("{") == text.count("}"), f"{lang} {key}: {text!r}"


@pytest.mark.parametrize("area", ["messages", "lessons"])
def test_texts_are_in_their_language(area: str) -> None:
    for key, value in own("ar", area).items():
        bare = PLACEHOLDER.sub("", " ".join(forms(value))).strip()
        if bare:  # "{text}", "{parts}": nothing to translate
            assert ARABIC.search(bare), f"ar {key} is not Arabic: {value!r}"
    fr = own("fr", area)
    same = [k for k, v in fr.items() if v == ENGLISH[k] and PLACEHOLDER.sub("", str(v)).strip(" :")]
    # Only words both languages write alike (Double, Triple) may equal the English.
    assert len(same) <= 3, same


def test_arabic_plurals_have_their_forms() -> None:
    # An Arabic text chosen by a count says two (زوز) and three to ten (plural noun) its own way.
    for area in ("messages", "lessons"):
        for key, value in own("ar", area).items():
            if isinstance(value, dict):
                assert {"zero", "one", "two", "few", "many", "other"} <= set(value), key


# --- The rules page: one fragment per language ---

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Outline(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.options: list[tuple[str, str, str, str]] = []
        self.cards: list[str] = []
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.append(a["id"])
        if "option" in a.get("class", "").split():
            self.options.append((a.get("id", ""), a.get("data-game", ""), a.get("data-option", ""), a.get("data-default", "")))
        if "c" in a.get("class", "").split():
            self.cards.append(a.get("data-card", ""))
        if tag in ("script", "style", "iframe", "object") or any(k.startswith("on") for k in a):
            self.problems.append(f"<{tag}> with {sorted(a)}: a fragment holds text, never code")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def outline(lang: str) -> Outline:
    o = Outline()
    o.feed((I18N / lang / "rules.html").read_text(encoding="utf-8"))
    o.close()
    return o


def test_rules_fragments_have_the_same_sections() -> None:
    en = outline("en")
    assert {"chkobba", "seven-diamonds", "options", "this-table", "top-of-rules"} <= set(en.ids)
    assert len(en.ids) == len(set(en.ids)), "an id twice"
    for lang in ("en", "fr", "ar"):
        o = outline(lang)
        assert not o.problems and not o.stack, (lang, o.problems, o.stack)
        assert o.ids == en.ids, f"{lang}: sections {o.ids} vs English {en.ids}"
        assert o.options == en.options, lang
        assert all(CARD.fullmatch(c) for c in o.cards), (lang, o.cards)
        assert sorted(set(o.cards)) == sorted(set(en.cards)), lang


def test_rules_chrome_is_translated() -> None:
    keys = set(own("en", "rules"))
    assert keys and all(k.startswith("rules.") for k in keys)
    for lang in LANGS:
        table = own(lang, "rules")
        assert set(table) == keys, lang
    assert all(ARABIC.search(v) for v in own("ar", "rules").values())


# --- The glossary ---

def glossary_terms() -> list[tuple[str, str]]:
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    rows = [line for line in text.split("## Terms", 1)[1].splitlines() if line.startswith("| ")][2:]
    out = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 5, row
        for lang, cell in (("fr", cells[1]), ("ar", cells[2])):
            cell = re.sub(r"\([^)]*\)", "", cell)
            for term in re.split(r"[,،/]", cell):
                if term.strip():
                    out.append((lang, term.strip()))
    return out


def all_texts(lang: str) -> str:
    parts = [json.dumps(catalogs.load(lang, generated=False), ensure_ascii=False)]
    parts.append((I18N / lang / "rules.html").read_text(encoding="utf-8"))
    return " ".join(parts).lower()


def test_glossary_terms_are_the_catalogs_words() -> None:
    terms = glossary_terms()
    assert len(terms) > 80
    texts = {lang: all_texts(lang) for lang in LANGS}
    unused = [(lang, term) for lang, term in terms if term.lower() not in texts[lang]]
    assert not unused, f"glossary terms the catalogs do not use: {unused}"
