"""docs/glossary.md is the single source of the game's words: its table of
rejected variants and its table of one word per key are read here, and every
catalog (web/i18n/<lang>/*.json, the engine's and lessons' texts included),
every lesson text and every rules page (web/i18n/<lang>/rules.html) is
checked against them. A text that says a rejected variant fails with the key,
the variant and the glossary's reason."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

GLOSSARY = ROOT / "docs" / "glossary.md"
LANGS = ("ar", "fr", "en")
PATTERN = re.compile(r"`((?:[^`\\]|\\.)+)`")


class Rejected(NamedTuple):
    concept: str
    lang: str
    say: str
    patterns: list[re.Pattern[str]]
    why: str


class PerKey(NamedTuple):
    english: re.Pattern[str]
    lang: str
    patterns: list[re.Pattern[str]]


def section(name: str) -> list[list[str]]:
    """The rows (cells) of the first table under `## name`."""
    text = GLOSSARY.read_text(encoding="utf-8")
    assert f"## {name}\n" in text, f"docs/glossary.md has no section {name!r}"
    body = text.split(f"## {name}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in body.splitlines() if line.startswith("|")][2:]
    # "\|" is a pipe inside a cell (in a regular expression)
    return [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))] for row in rows]


def patterns(cell: str) -> list[re.Pattern[str]]:
    found = PATTERN.findall(cell)
    assert found, f"no `pattern` in {cell!r}"
    return [re.compile(p, re.I | re.M) for p in found]


def rejected() -> list[Rejected]:
    out = []
    for cells in section("Rejected variants"):
        assert len(cells) == 5, cells
        concept, lang, say, pats, why = cells
        assert lang in LANGS + ("all",), cells
        out.append(Rejected(concept, lang, say, patterns(pats), why))
    return out


def per_key() -> list[PerKey]:
    out = []
    for cells in section("One word per key"):
        assert len(cells) == 3, cells
        english, lang, pats = cells
        assert lang in LANGS, cells
        out.append(PerKey(patterns(english)[0], lang, patterns(pats)))
    return out


def forms(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in value.values() if isinstance(v, str)]


def texts(lang: str) -> list[tuple[str, str]]:
    """(where, text) of every catalog text, lesson text and rules-page line."""
    out = [(key, text) for key, value in catalogs.load(lang).items() for text in forms(value)]
    rules = ROOT / "web" / "i18n" / lang / "rules.html"
    for n, line in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1):
        out.append((f"{rules.relative_to(ROOT)}:{n}", line))
    return out


def test_the_glossary_tables_are_read() -> None:
    rows = rejected()
    assert {r.lang for r in rows} >= {"ar", "fr"}
    assert len(rows) >= 12
    assert len(per_key()) >= 3


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_says_a_rejected_variant(lang: str) -> None:
    rules = [r for r in rejected() if r.lang in (lang, "all")]
    bad = []
    for where, text in texts(lang):
        for r in rules:
            for p in r.patterns:
                m = p.search(text)
                if m:
                    bad.append(f"{where}: «{m.group(0)}» in {text!r} (say {r.say}: {r.why})")
    assert not bad, f"{len(bad)} rejected variants:\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_one_word_per_key(lang: str) -> None:
    english = catalogs.load("en")
    table = catalogs.load(lang)
    bad = []
    for rule in [r for r in per_key() if r.lang == lang]:
        for key, value in table.items():
            if key not in english or not any(rule.english.search(t) for t in forms(english[key])):
                continue
            for text in forms(value):
                for p in rule.patterns:
                    if p.search(text):
                        bad.append(f"{key}: English says {rule.english.pattern}, {lang} says «{p.pattern}»: {text!r}")
    assert not bad, f"{len(bad)} keys:\n" + "\n".join(bad)


def test_a_rejected_variant_is_caught() -> None:
    # the check itself: a text with a rejected variant fails it
    rows = {(r.lang, r.say): r for r in rejected()}
    assert any(p.search("آخر الطرح {round}") for p in rows[("ar", "دورة")].patterns)
    assert any(p.search("Fin de la donne 3") for p in rows[("fr", "manche")].patterns)
    assert any(p.search("Touches : posez une carte") for p in rows[("fr", "tu")].patterns)
    assert any(p.search("أحسن من 3 أدوار") for p in rows[("ar", "الأحسن في 3")].patterns)
    assert not any(p.search("الأحسن في 3 طروحات") for p in rows[("ar", "الأحسن في 3")].patterns)
    assert not any(p.search("un contre un") for p in rows[("fr", "double, triple")].patterns)


def test_issue_38s_wordings_are_caught() -> None:
    # the wrong forms a new player read (issue 38), each caught by its row
    rows = {(r.lang, r.concept): r for r in rejected()}

    def caught(lang: str, concept: str, text: str) -> bool:
        return any(p.search(text) for p in rows[(lang, concept)].patterns)

    assert caught("ar", "a score pair", "الكمبيوتر ربح الطرح {winner_points}-{loser_points}")
    assert caught("ar", "a score pair", "الكمبيوتر ربح الطرح \u2067{winner_points}\u2013{loser_points}\u2069")
    assert not caught("ar", "a score pair", "الكمبيوتر ربح الطرح \u2067{loser_points}\u2013{winner_points}\u2069")
    assert not caught("ar", "a score pair", "ربحت الطرح \u2067{winner_points}\u2013{loser_points}\u2069")
    assert caught("ar", "number and noun", "إنت: {points} نقاط")
    assert not caught("ar", "number and noun", "نقاطك: {points}")
    assert caught("ar", "nothing won", "ربحت: {categories}.")
    assert caught("ar", "play (imperative)", "إلعب مع صحابك")
    assert not caught("ar", "play (imperative)", "العب مع صحابك")
    assert caught("fr", "a name after à / de", "Passe l'appareil à {name}")
    assert caught("fr", "a name after à / de", "sont allées à {side} : {cards}")
    assert not caught("fr", "a name after à / de", "Au tour de : {name}. Passe-lui l'appareil")
    assert caught("fr", "a game's target", "Adversaires en {target}")
    assert not caught("fr", "a game's target", "partie en {target}")
    assert caught("en", "a replay's seats", "Bottom player")
    assert not caught("en", "a replay's seats", "Player at the bottom")
    assert caught("all", "a damaged save", "the game resumes from the move before it.")
