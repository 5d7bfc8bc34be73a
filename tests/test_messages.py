"""Structured messages (issue 8): every error, move and coach reason carries a
stable code and its parameters, and the English text is the code's template
filled in. docs/messages.md is the one table of the codes."""

from __future__ import annotations

import itertools
import random
import re
import string
from pathlib import Path
from typing import Any

import pytest

from chkobba.actions import Action, parse_action
from chkobba.cards import CODES, card
from chkobba.errors import ChkobbaError, IllegalAction, InvalidAction, InvalidOptions
from chkobba.messages import CORE_MESSAGES, MESSAGES, Message, message, quote, register, render
from chkobba.options import check
from chkobba import registry
from chkobba.registry import game_class
from chkobba.session import Session

ROOT = Path(__file__).resolve().parent.parent
CODE_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def check_message(code: str, params: dict[str, Any], text: str) -> None:
    """The message contract: a known code, every placeholder given, cards as
    codes, and the English text is the rendering."""
    assert code in MESSAGES, code
    assert placeholders(MESSAGES[code]) <= set(params), (code, params)
    for name, value in params.items():
        if name == "card" or name.endswith("_card"):
            assert value in CODES, (code, name, value)
        if name == "cards" or name.endswith("_cards"):
            assert isinstance(value, list) and all(v in CODES for v in value), (code, name, value)
    assert render(code, params) == text
    assert "\n" not in text


def test_codes_are_dotted_lowercase_and_templates_render() -> None:
    for code, template in MESSAGES.items():
        assert CODE_RE.match(code), code
        render(code, {name: "x" for name in placeholders(template)})


def test_english_rendering_of_cards_and_lists() -> None:
    assert render("capture.value_mismatch", {"card": "QH", "value": 8, "taken_card": "7D", "taken_value": 7}) \
        == "QH is worth 8 and 7D is worth 7"
    assert render("seven_diamonds.must_lay", {"action": "pass", "cards": ["8H", "7S"]}) \
        == '"pass" is not a move now: you must lay a card when one fits (8H, 7S)'
    nested = message("coach.reason", parts=[message("coach.lays", card="7D").to_json(),
                                            message("coach.sheds", points=10).to_json()])
    assert str(nested) == "lays 7D, sheds 10 points"


def test_errors_carry_code_params_and_english_text() -> None:
    err = IllegalAction("play.not_in_hand", card="7D")
    assert (err.code, err.params, str(err)) == ("play.not_in_hand", {"card": "7D"}, "7D is not in your hand")
    assert err.to_json() == {"error": "7D is not in your hand", "code": "play.not_in_hand",
                             "params": {"card": "7D"}}
    plain = ChkobbaError("something in words")
    assert (plain.code, plain.params, str(plain)) == ("error.text", {"text": "something in words"},
                                                      "something in words")
    assert str(IllegalAction(Message("capture.none", {"card": "KH"}))) == "KH can't capture"


def test_register_adds_codes_but_never_changes_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # the registry is the module's: the test's code is taken out again after it
    # (tests/test_catalogs.py checks that every registered code is translated)
    monkeypatch.setattr("chkobba.messages.MESSAGES", dict(MESSAGES))
    register({"test.only": "a test message {n}"})
    assert render("test.only", {"n": 1}) == "a test message 1"
    register({"test.only": "a test message {n}"})  # same text again: fine
    with pytest.raises(ValueError):
        register({"test.only": "another text"})
    assert "test.only" not in CORE_MESSAGES


def test_quote_makes_outside_text_one_short_line() -> None:
    assert quote("7D") == "7D"
    assert quote("7D\n\r\t\x00\u00a0\u2028") == "7D\\n\\r\\t\\x00\\xa0\\u2028"
    long = quote("x" * 3_000_000, limit=60)
    assert len(long) <= 60 and "..." in long
    assert quote(None) == "None" and quote(5) == "5"
    for text in ["a\nb", "\x1b[31m", "é" * 500]:
        q = quote(text)
        assert q.isprintable() and len(q) <= 60


def every_action_text(state: Any) -> list[str]:
    """Legal texts plus many wrong ones: every card laid, captured with one
    or two table cards, claimed, and every word."""
    deck = [CODES[c] for c in state.full_deck()]
    texts = [str(a) for a in state.legal_actions()]
    texts += ["keep", "table", "propose", "pass", "accept", "refuse", "double", "triple", "timeout"]
    for c in deck:
        texts.append(c)
    table = list(getattr(state, "table", ()) or ()) if isinstance(getattr(state, "table", ()), tuple) else []
    for c in deck[::3]:
        for t in table[:3]:
            if CODES[t] != c:
                texts.append(f"{c}x{CODES[t]}")
                texts.append(f"claim {c}x{CODES[t]}")
        for a, b in itertools.combinations(table[:4], 2):
            if c not in (CODES[a], CODES[b]):
                texts.append(f"{c}x{CODES[a]}{CODES[b]}")
    return texts


@pytest.mark.parametrize("game,options", [("chkobba", {}), ("chkobba", {"capture": "compulsory", "players": 4}),
                                          ("seven_diamonds", {}), ("seven_diamonds", {"timers": False})])
def test_every_refusal_along_random_games_has_a_code(game: str, options: dict[str, Any]) -> None:
    codes_seen: set[str] = set()
    for seed in range(3):
        sess = Session.new(game, options, seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if sess.is_over:
                break
            s = sess.state
            for text in every_action_text(s):
                try:
                    a = s.parse(text)
                    s.verify_action(a)
                    assert s.can_apply(a)
                except ChkobbaError as err:
                    codes_seen.add(err.code)
                    assert err.code != "error.text"
                    check_message(err.code, err.params, str(err))
                    if isinstance(err, IllegalAction):
                        assert not s.can_apply(a)
            sess.apply(rng.choice(sess.legal()))
    assert len(codes_seen) >= 5, codes_seen


@pytest.mark.parametrize("text", ["", "7", "7DD", "ZZ", "8X", "7Dx", "7Dx7D", "7Dx6H6H", "claim", "claim 7D",
                                  "claimQHx7D", "claim  QHx7D", " 7D", "7D ", "7D\n", "\t7D", "7D\u00a0",
                                  "QHx7D AS", "claim\tQHx7D", "keep ", "Keep", "x" * 5000, "a\nb"])
def test_unreadable_action_texts(text: str) -> None:
    with pytest.raises(InvalidAction) as e:
        parse_action(text)
    check_message(e.value.code, e.value.params, str(e.value))
    assert len(str(e.value)) < 300


def test_strict_reading_keeps_only_the_order_of_captured_cards_free() -> None:
    assert parse_action("QHx7DAS") == parse_action("QHxAS7D") == Action("capture", card("QH"),
                                                                          (card("AS"), card("7D")))
    assert str(parse_action("claim QHx7DAS")) == "claim QHxAS7D"
    for game in ("chkobba", "seven_diamonds"):
        s = game_class(game).new({}, 0)
        for bad in (" 7D", "7D ", "7D\u00a0", "\u20037D", "7D\r\n"):
            with pytest.raises(InvalidAction, match="without spaces"):
                s.parse(bad)
    with pytest.raises(InvalidAction):
        parse_action(5)


def test_option_errors_have_codes() -> None:
    for game, bad in [("chkobba", {"target": 12}), ("chkobba", {"colour": 1}), ("chkobba", {"redeal": 1}),
                      ("seven_diamonds", {"target": 0}), ("seven_diamonds", {"timers": {"tick": 1}}),
                      ("seven_diamonds", {"timers": {"call": 0}}), ("seven_diamonds", {"timers": "x"}),
                      ("seven_diamonds", {"last_seven_bonus": -1}), ("poker", {})]:
        with pytest.raises(InvalidOptions) as e:
            check(game, bad)
        assert e.value.code.startswith("options."), e.value.code
        check_message(e.value.code, e.value.params, str(e.value))


def test_option_error_texts_are_as_before() -> None:
    with pytest.raises(InvalidOptions, match=r"""^option "target" must be one of 11, 21, 31, not 12$"""):
        check("chkobba", {"target": 12})
    with pytest.raises(InvalidOptions, match=r"""^option "faces" must be one of 'QJK', 'JQK', not 'KQJ'$"""):
        check("chkobba", {"faces": "KQJ"})
    with pytest.raises(InvalidOptions, match=r"""^unknown option "match" for seven diamonds \(known: calls, """):
        check("seven_diamonds", {"match": 3})


DOC_INTRO = """# Message codes

Every error the engine raises, every move it describes and every coach reason
carries a stable **code** and its **parameters**; the English text below is the
default rendering (`chkobba.messages.render(code, params)`), which the command line
prints and which `str(error)` gives. A page translates from the code instead
(Arabic, French, English) and shows cards as symbols.

- In Python: `err.code`, `err.params`, `str(err)`; `MESSAGES` maps each code to
  its English template; moves and coach rows carry `code`, `params` and `text`.
- Codes are dotted lowercase ASCII (`area.what`) and never change meaning; a new
  wording gets a new code. Modules outside the engine (the web facade's `web.*`)
  add theirs with `chkobba.messages.register`.
- Parameters: `card` or a name ending in `_card` is ONE card code (`"6H"`);
  `cards` or a name ending in `_cards` is a LIST of card codes (rendered joined
  with `, `); a parameter holding a message `{"code", "params"}` (or a list of
  them, joined with `, `) renders as that message: `reason` of
  `record.action_refused` and `parts` of `coach.reason`. Other parameters are
  numbers or short plain strings: `action` an action's text, `seat` a seat
  number. Text from outside (a record, a request) is passed through
  `chkobba.messages.quote` first: control characters escaped, shortened.
- `error.text` only wraps a plain text raised by code that has no code of its
  own yet; the engine itself never raises it.

This table is checked against the code by `tests/test_messages.py`.

"""

AREAS = [("error", "Generic"), ("card", "Cards"), ("action", "Reading an action's text"),
         ("deal", "Deals and turns"), ("match", None), ("game", None),
         ("chkobba", "Chkobba: the deck, the cut, re-deals"), ("play", "Playing a card"),
         ("capture", "Chkobba: captures"), ("claim", "Chkobba: claims of missed captures"),
         ("seven_diamonds", "Seven Diamonds"), ("options", "Table options"),
         ("option", "Option labels (start form)"), ("record", "Records"), ("position", "Positions"),
         ("word", "Word labels (buttons)"), ("move", "Moves (Session.moves, the last move)"),
         ("coach", "Coach reasons (hints)"), ("daily", "The daily deal (chkobba/daily.py)"),
         ("takeback", "Take-backs (chkobba/takeback.py)"), ("online", "Online table (chkobba.online)")]
EXTRA_PARAMS = {"capture.sum_mismatch": ["cards"]}


# The engine's messages the table lists: its own and each built-in game's (its package's ``texts``).
DOCUMENTED = {**CORE_MESSAGES, **{code: text for name in ("chkobba", "seven_diamonds")
                                  for code, text in registry.game(name).messages.items()}}


def messages_doc() -> str:
    """docs/messages.md as generated from the code (``python tests/test_messages.py`` writes it)."""
    out = [DOC_INTRO.rstrip("\n") + "\n", "| code | parameters | English text |\n|---|---|---|"]
    for area, title in AREAS:
        codes = [c for c in DOCUMENTED if c.split(".")[0] == area]
        if title:
            out.append(f"| **{title}** | | |")
        for c in codes:
            params = [n for _, n, _, _ in string.Formatter().parse(DOCUMENTED[c]) if n] + EXTRA_PARAMS.get(c, [])
            shown = ", ".join(f"`{p}`" for p in dict.fromkeys(params))
            out.append(f"| `{c}` | {shown} | {DOCUMENTED[c]} |")
    return "\n".join(out) + "\n"


def test_docs_table_lists_every_code_with_its_text() -> None:
    areas = {a for a, _ in AREAS}
    assert {c.split(".")[0] for c in CORE_MESSAGES} <= areas
    assert (ROOT / "docs" / "messages.md").read_text(encoding="utf-8") == messages_doc(), \
        "docs/messages.md is out of date: python tests/test_messages.py rewrites it"


if __name__ == "__main__":
    (ROOT / "docs" / "messages.md").write_text(messages_doc(), encoding="utf-8")
