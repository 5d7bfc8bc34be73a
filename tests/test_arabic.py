"""Arabic texts as an Arabic reader sees them.

- Plurals: i18n.js picks a form with Intl.PluralRules("ar-TN"), which gives
  zero, one, two, few, many and other; every Arabic plural text has all six
  (else 0 shows «0 ورقة», 2 «2 ورقة»).
- Right to left: a card symbol (7♦), a row of ranks (7 8 9 10 J Q K A) or a
  run of several Latin tokens with digits, written inside an Arabic sentence,
  is displayed by the Unicode bidi algorithm in the wrong order (♦7,
  J Q K A 10 9 8 7) unless it is isolated left to right (U+2066 LRI ...
  U+2069 PDI). Every such run of every Arabic catalog text, lesson text and
  rules-page line is isolated; the cards the page draws from parameters
  (.mini, .minis) are isolated by the style sheet.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

AR_FORMS = {"zero", "one", "two", "few", "many", "other"}
LRI, PDI = "\u2066", "\u2069"
SUITS = "♦♥♠♣"
TOKEN = rf"[A-Za-z0-9{SUITS}\ufe0e=]+"
# several Latin/digit tokens joined by spaces or commas (a rank row, "Q = 8، J = 9")
RUN = re.compile(rf"{TOKEN}(?:[ ،,]+{TOKEN})+|{TOKEN}")
PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*\}", re.I)
TAG = re.compile(r"<[^>]*>")
LTR_ELEMENT = re.compile(r'<(\w+)[^>]*\bdir="ltr"[^>]*>(.*?)</\1>|<bdi>(.*?)</bdi>')
CARD_ELEMENT = re.compile(r'<span class="c" data-card="[^"]*"></span>')   # rules.js draws a card (.mini)


def forms(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())


def needs_isolation(run: str) -> bool:
    tokens = re.split(r"[ ،,]+", run.strip(" ،,"))
    if any(re.search(rf"[A-Za-z0-9][{SUITS}]", t) for t in tokens):
        return True                      # ♦ is neutral: 7♦ shows as ♦7
    # letters and numbers mixed over several tokens: the numbers' spaces take the Arabic
    # direction and the letters keep theirs (7 8 9 10 J Q K A shows as J Q K A 10 9 8 7);
    # numbers alone (7، 8، 9، 10 or 2 + 3 = 5) read right to left as Arabic does
    return len(tokens) > 1 and any(re.search(r"\d", t) for t in tokens) and any(re.search("[A-Za-z]", t) for t in tokens)


def unisolated(text: str) -> list[str]:
    """The runs of `text` that need an isolate and are outside one."""
    text = LTR_ELEMENT.sub(lambda m: LRI + (m.group(2) or m.group(3) or "") + PDI, text)  # dir="ltr" isolates (HTML)
    text = CARD_ELEMENT.sub("\u2063", text)
    text = PLACEHOLDER.sub("\u2063", TAG.sub(" ", text))   # a placeholder is its own isolated element
    bad, depth, outside = [], 0, []
    buf = ""
    for ch in text:
        if ch == LRI:
            outside.append(buf); buf = ""; depth += 1
        elif ch == PDI:
            depth -= 1; buf = ""
        elif depth == 0:
            buf += ch
    outside.append(buf)
    for part in outside:
        for m in RUN.finditer(part):
            if needs_isolation(m.group(0)):
                bad.append(m.group(0))
    return bad


def arabic_texts() -> list[tuple[str, str]]:
    out = [(k, t) for k, v in catalogs.load("ar", generated=False).items() for t in forms(v)]
    rules = ROOT / "web" / "i18n" / "ar" / "rules.html"
    out += [(f"rules.html:{n}", line) for n, line in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1)]
    return out


def test_every_arabic_plural_has_every_form() -> None:
    missing = [f"{k}: {sorted(AR_FORMS - set(v))}" for k, v in catalogs.load("ar", generated=False).items()
               if isinstance(v, dict) and not AR_FORMS <= set(v)]
    assert not missing, "Arabic plurals without all six forms:\n" + "\n".join(missing)


def test_i18n_picks_forms_by_plural_rules() -> None:
    # the forms the test requires are the ones the runtime asks for
    js = (ROOT / "web" / "i18n" / "i18n.js").read_text(encoding="utf-8")
    assert "new Intl.PluralRules(lang.locale)" in js and 'locale: "ar-TN"' in js


@pytest.mark.parametrize("text,bad", [
    ("السبعة ديناري 7♦︎ تحل اللعب", ["7♦︎"]),
    ("كل لون يطلع من السبعة (7 8 9 10 J Q K A).", ["7 8 9 10 J Q K A"]),
    ("Q = 8، J = 9، K = 10", ["Q = 8، J = 9، K = 10"]),
    ("«claim QHx7DAS»", ["claim QHx7DAS"]),
    ("الطاولة: 7، 8، 9، 10 و2 + 3 = 5", []),       # numbers alone read right to left
    ('الترتيب: <span dir="ltr">7 8 9 10 J Q K A</span>.', []),
    ("كل لون يطلع (\u20667 8 9 10 J Q K A\u2069).", []),
    ("«{action}» موش حركة، كيف «7D»", []),        # one token reads the same both ways
    ("التسجيل موش object JSON", []),
])
def test_the_check_finds_unisolated_runs(text: str, bad: list[str]) -> None:
    assert unisolated(text) == bad


def test_arabic_card_runs_are_isolated() -> None:
    bad = [f"{where}: {runs} in {text.strip()!r}" for where, text in arabic_texts() if (runs := unisolated(text))]
    assert not bad, f"{len(bad)} Arabic texts show cards or ranks in the wrong order:\n" + "\n".join(bad)


def test_cards_drawn_from_parameters_are_isolated() -> None:
    css = (ROOT / "web" / "css" / "cards.css").read_text(encoding="utf-8")
    rule = re.search(r"\.card, \.mini, \.minis \{([^}]*)\}", css)
    assert rule and "direction: ltr" in rule.group(1) and "unicode-bidi: isolate" in rule.group(1)
