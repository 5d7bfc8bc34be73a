"""Strict reading of game records (RECORDS.md, "Strict reading") and the
hostile inputs of issue 10: each point under "Found" has a test here that
failed before the fix.

Errors are checked for the one-line contract with :func:`assert_one_line`:
one line whatever the record holds, quoted text shortened, never echoed twice.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chkobba.errors import ChkobbaError, InvalidRecord
from chkobba.messages import MESSAGES, render
from chkobba.messages import quote as _quote
from chkobba.records import MAX_BYTES, parse_record, replay, summary
from chkobba.session import Session

HERE = Path(__file__).parent
REPO = HERE.parent
EXAMPLES = HERE / "examples"     # the project's copies of the shared examples (tests/examples/README.md)
GOLDEN = HERE / "golden"
MIRROR: dict[str, Any] = json.loads((GOLDEN / "mirror-round.json").read_text())
SEVEN: dict[str, Any] = json.loads((EXAMPLES / "seven-diamonds-game.json").read_text())
FUZZ = int(os.environ.get("CHKOBBA_FUZZ", "1"))

# every character str.splitlines() breaks a line at
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def quote(text: str) -> str:
    """Outside text as a record error quotes it."""
    return '"' + _quote(text) + '"'


def copy(rec: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(rec))
    return out


def assert_one_line(msg: str, limit: int = 400) -> None:
    assert msg == msg.strip() and msg
    assert len(msg.splitlines()) == 1, repr(msg[:200])
    assert not any(c in msg for c in LINE_BREAKS), repr(msg[:200])
    assert msg.isprintable(), repr(msg[:200])
    assert len(msg) <= limit, f"{len(msg)} characters"


def refused(rec: Any) -> str:
    with pytest.raises(InvalidRecord) as e:
        replay(rec)
    msg = str(e.value)
    assert_one_line(msg)
    assert_coded(e.value)
    return msg


def assert_coded(err: ChkobbaError) -> None:
    """A record error has a code of its own, JSON params, and its text is the
    code's English rendering (a page renders the same from code and params)."""
    assert err.code.startswith("record.") and err.code in MESSAGES, err.code
    assert render(err.code, json.loads(json.dumps(err.params))) == str(err)


def cli(data: str | bytes | None, *args: str, limit_memory: bool = False,
        timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """``python -m chkobba replay`` (stdin when ``data`` is given)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return subprocess.run([sys.executable, "-m", "chkobba", "replay", *(args or ("-",))], input=data,
                          capture_output=True, timeout=timeout, preexec_fn=cap if limit_memory else None)


def assert_cli_refuses(out: subprocess.CompletedProcess[bytes], code: int = 1) -> str:
    assert out.returncode == code, out.stderr[-2000:]
    assert out.stdout == b""
    assert b"Traceback" not in out.stderr
    err = out.stderr.decode("utf-8")
    assert err.endswith("\n") and err.count("\n") == 1, repr(err[:300])
    assert_one_line(err[:-1])
    return err[:-1]


def finished_round() -> dict[str, Any]:
    """The mirror record, its one round played to its end."""
    rec = copy(MIRROR)
    assert summary(replay(rec))["complete"] is True
    return rec


# --------------------------------------------- an empty trailing round entry
def test_empty_trailing_round_is_refused_by_replay_and_resume() -> None:
    rec = finished_round()
    rec["rounds"].append({"decks": [], "actions": []})
    assert refused(rec).startswith("round 2: the round lists no deck")
    with pytest.raises(InvalidRecord):
        Session.from_record(rec)
    # an empty round in the middle too
    rec["rounds"].append(copy(MIRROR)["rounds"][0])
    assert refused(rec).startswith("round 2: the round lists no deck")


def test_record_stopping_at_an_accepted_redeal_lists_its_next_deck() -> None:
    from positions import deck_for
    deck = deck_for("5C 5D 5H 2S", [])
    rec = {"game": "chkobba", "first_dealer": 0,
           "rounds": [{"decks": [deck], "actions": ["table", "propose", "accept"]}]}
    assert refused(rec) == "round 1: a re-deal was accepted but the round lists no further deck"
    rec["rounds"][0]["decks"].append(list(reversed(deck)))
    assert replay(rec).to_act() == 1  # the cutter, on the new deck
    # the session writes the re-deal's deck with the accept
    sess = Session.from_record({"game": "chkobba", "first_dealer": 0,
                                "rounds": [{"decks": [deck], "actions": ["table", "propose"]}]})
    sess.apply("accept")
    assert len(sess.record()["rounds"][0]["decks"]) == 2
    assert summary(replay(sess.record())) == sess.summary()


def test_each_round_entry_deals_exactly_the_decks_it_uses() -> None:
    rec = finished_round()
    rec["rounds"][0]["decks"].append(list(rec["rounds"][0]["decks"][0]))
    assert refused(rec) == "round 1, deck 2: the round never uses this deck"
    rec = finished_round()
    rec["rounds"][0]["decks"][0] = rec["rounds"][0]["decks"][0][:39]
    assert refused(rec) == "round 1, deck 1: a Chkobba deck has 40 cards, this one has 39"
    rec = finished_round()
    rec["rounds"][0]["decks"][0][1] = rec["rounds"][0]["decks"][0][0]
    assert "twice in the deck" in refused(rec)
    rec = copy(SEVEN)
    rec["rounds"][0]["decks"] = [copy(MIRROR)["rounds"][0]["decks"][0]]
    assert refused(rec).startswith("round 1, deck 1: a Seven Diamonds deck has 32 cards")


def test_no_round_entry_after_the_end_of_the_match() -> None:
    for game in ("chkobba", "seven_diamonds"):
        sess = Session.new(game, {"target": 100} if game == "seven_diamonds" else {}, seed=5)
        rng = random.Random(5)
        while not sess.is_over:
            sess.apply(rng.choice(sess.legal()))
        rec = sess.record()
        assert summary(replay(rec))["winner"] is not None
        n = len(rec["rounds"])
        more = copy(rec)
        more["rounds"].append(copy(rec["rounds"][0]))
        assert refused(more) == f"round {n + 1}: the match was already over after round {n}"
        more["rounds"][-1] = {"decks": [], "actions": []}
        assert refused(more) == f"round {n + 1}: the match was already over after round {n}"


# --------------------------------------------------------- required keys
@pytest.mark.parametrize("key", ["game", "first_dealer", "rounds"])
def test_required_keys(key: str) -> None:
    rec = copy(MIRROR)
    del rec[key]
    assert refused(rec) == (f'record: "{key}" is missing (a record has "game", "first_dealer" and "rounds")')


def test_round_keys_required() -> None:
    for key in ("decks", "actions"):
        rec = copy(MIRROR)
        del rec["rounds"][0][key]
        assert refused(rec) == f'round 1: "{key}" is missing (a round has "decks" and "actions")'


def test_options_may_be_left_out() -> None:
    rec = copy(MIRROR)
    del rec["options"]
    assert summary(replay(rec)) == summary(replay(MIRROR))


def test_no_rounds_is_a_complete_match_before_its_first_deal() -> None:
    for game in ("chkobba", "seven_diamonds"):
        out = summary(replay({"game": game, "first_dealer": 1, "rounds": []}))
        assert out == {"game": game, "rounds": [], "score": [0, 0], "games": [0, 0], "winner": None,
                       "complete": True}
    out = cli('{"game": "chkobba", "first_dealer": 0, "rounds": []}')
    assert out.returncode == 0 and json.loads(out.stdout)["complete"] is True


# ------------------------------------------------------- options per game
def test_match_is_a_chkobba_option_only() -> None:
    rec = copy(SEVEN)
    rec["options"]["match"] = 3
    msg = refused(rec)
    assert msg.startswith('record: option "match" is a Chkobba option, not a Seven Diamonds one'), msg
    rec = copy(MIRROR)
    rec["options"]["last_seven_bonus"] = 100
    assert refused(rec).startswith('record: option "last_seven_bonus" is a Seven Diamonds option, not a Chkobba one')
    rec = copy(MIRROR)
    rec["options"]["speed"] = "fast"
    assert refused(rec).startswith('record: unknown option "speed" (Chkobba options: all_diamonds_wins, capture,')


def test_option_values_in_words() -> None:
    rec = copy(MIRROR)
    rec["options"]["faces"] = "Q\nJ\nK" * 1000
    msg = refused(rec)
    assert msg.startswith('record: option "faces" must be one of \'QJK\', \'JQK\', not \'Q\\nJ\\nK'), msg
    assert len(msg) < 200
    rec["options"]["faces"] = "QJK"
    rec["options"]["target"] = 10**4000
    assert refused(rec) == 'record: option "target" cannot be a very large number'
    rec["options"]["target"] = True
    assert refused(rec) == 'record: option "target" must be one of 11, 21, 31, not true'
    rec = copy(SEVEN)
    rec["options"]["timers"] = {"call": 10, "car\nd": 12}
    assert refused(rec) == 'record: option "timers" has an unknown key "car\\nd" (its keys: call, card)'


# ------------------------------------------------------ strict action text
WRAPS = [" {}", "{} ", "{}\t", "\t{}", "{}\n", "\r\n{}", "\u00a0{}", "{}\u00a0", "\u3000{}", "{}\x00"]


@pytest.mark.parametrize("wrap", WRAPS)
def test_whitespace_around_an_action_is_refused(wrap: str) -> None:
    rec = copy(MIRROR)
    text = wrap.format(rec["rounds"][0]["actions"][1])
    rec["rounds"][0]["actions"][1] = text
    msg = refused(rec)
    assert msg.startswith(f"round 1, action 1 {quote(text)}: "), msg
    assert msg.count(quote(text)) == 1


@pytest.mark.parametrize("text", ["claim4Hx4D", "claim  4Hx4D", " claim 4Hx4D", "claim\t4Hx4D", "claim 4Hx4D ",
                                  "CLAIM 4Hx4D", "claim 4hx4d", "claim 4H x4D", "claim 4Hx 4D"])
def test_claim_is_written_one_way(text: str) -> None:
    orig = json.loads((EXAMPLES / "chkobba-1v1-match.json").read_text())
    rec = copy(orig)
    assert rec["rounds"][0]["actions"][4] == "claim 4Hx4D"
    replay(rec)
    rec["rounds"][0]["actions"][4] = text
    msg = refused(rec)
    assert msg.startswith(f"round 1, action 4 {quote(text)}: "), msg


@pytest.mark.parametrize("text", ["ke ep", "KEEP", "Table", "7d", "7Dx", "claim 7D", "", "x7D", "7D,AH", "7Dx AH"])
def test_other_non_canonical_texts(text: str) -> None:
    rec = copy(MIRROR)
    rec["rounds"][0]["actions"][0] = text
    msg = refused(rec)
    assert msg.startswith(f"round 1, action 0 {quote(text)}: "), msg


def test_captured_cards_in_any_order() -> None:
    orig = json.loads((EXAMPLES / "chkobba-1v1-match.json").read_text())
    rec = copy(orig)
    acts = rec["rounds"][1]["actions"]
    assert acts[7] == "6Sx2H4D"
    acts[7] = "6Sx4D2H"
    assert summary(replay(rec)) == summary(replay(orig))


def test_action_text_in_seven_diamonds() -> None:
    for wrap in WRAPS:
        rec = copy(SEVEN)
        text = wrap.format(rec["rounds"][0]["actions"][0])
        rec["rounds"][0]["actions"][0] = text
        assert refused(rec).startswith(f"round 1, action 0 {quote(text)}: ")


@pytest.mark.parametrize("text", [" keep", "keep\n", "\u00a0keep"])
def test_session_refuses_whitespace_around_actions(text: str) -> None:
    sess = Session.from_record({"game": "chkobba", "first_dealer": 0, "rounds": [MIRROR["rounds"][0] | {"actions": []}]})
    with pytest.raises(ChkobbaError):
        sess.apply(text)


@pytest.mark.parametrize("game,text", [("chkobba", " 7D"), ("chkobba", "claimJDxJH"), ("chkobba", "claim  JDxJH"),
                                       ("chkobba", "claim\tJDxJH"), ("seven_diamonds", "pass "),
                                       ("seven_diamonds", "\tdouble")])
def test_game_parse_is_strict(game: str, text: str) -> None:
    from chkobba.registry import game_class
    state = game_class(game).new()
    with pytest.raises(ChkobbaError):
        state.parse(text)


# ----------------------------------------------------- one-line errors
EVIL = ["a\nb", "a\rb", "a\r\nb", "\u2028x", "\x00", "\x1b[31mred", "\u0085", "\ud800", "\"quoted\"", "\\n",
        "\u202eevil", "x" * 3_000_000 + "\n"]


def _places(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Records holding ``text`` where a record has text: action, key, option
    key and value, a round key, a deck card, the game."""
    out = []
    rec = copy(MIRROR)
    rec["rounds"][0]["actions"][3] = text
    out.append(("action", rec))
    rec = copy(MIRROR)
    rec[text] = 1
    out.append(("key", rec))
    rec = copy(MIRROR)
    rec["options"][text] = 1
    out.append(("option key", rec))
    rec = copy(MIRROR)
    rec["options"]["capture"] = text
    out.append(("option value", rec))
    rec = copy(MIRROR)
    rec["rounds"][0][text] = []
    out.append(("round key", rec))
    rec = copy(MIRROR)
    rec["rounds"][0]["decks"][0][7] = text
    out.append(("deck card", rec))
    rec = copy(MIRROR)
    rec["game"] = text
    out.append(("game", rec))
    rec = copy(SEVEN)
    rec["options"]["timers"] = {text: 3}
    out.append(("timers key", rec))
    rec = copy(SEVEN)
    rec["rounds"][1]["actions"][2] = text
    out.append(("seven diamonds action", rec))
    return out


@pytest.mark.parametrize("text", EVIL, ids=[f"evil{i}" for i in range(len(EVIL))])
def test_error_is_one_line_whatever_the_record_holds(text: str) -> None:
    for where, rec in _places(text):
        msg = refused(rec)
        assert len(msg) < 250, (where, msg)
        if where == "option value":  # the options' own message shows it as a Python text: 'a\nb'
            continue
        q = quote(text)
        assert q in msg, (where, msg)
        assert msg.count(q) == 1, (where, msg)  # never echoed twice
        assert len(q) < 70


def test_error_line_on_the_command_line_with_a_huge_action() -> None:
    rec = copy(MIRROR)
    rec["rounds"][0]["actions"][3] = "QH\n" * 1_000_000
    err = assert_cli_refuses(cli(json.dumps(rec)))
    assert err.startswith('round 1, action 3 "QH\\nQH\\nQH\\n') and len(err) < 300
    rec["rounds"][0]["actions"][3] = "\ud800\u2028\x00"
    err = assert_cli_refuses(cli(json.dumps(rec)))
    assert err.startswith('round 1, action 3 "\\ud800\\u2028\\x00": ')


def test_quoted_text_is_shortened_and_escaped() -> None:
    rec = copy(MIRROR)
    rec["rounds"][0]["actions"][3] = "\x00" * 1000
    msg = refused(rec)
    assert msg.startswith('round 1, action 3 "\\x00\\x00') and len(msg) < 200
    rec["rounds"][0]["actions"][3] = "\u0627\u0644\u0643\u0627\u0631\u0637\u0629"  # printable Arabic stays
    assert refused(rec).startswith('round 1, action 3 "\u0627\u0644\u0643\u0627\u0631\u0637\u0629": ')


def test_other_values_are_shown_short() -> None:
    rec = copy(MIRROR)
    rec["first_dealer"] = 10**100
    assert refused(rec) == 'record: "first_dealer" must be a seat from 0 to 1, not a very large number'
    rec["first_dealer"] = [[[[]]]]
    assert refused(rec) == 'record: "first_dealer" must be a seat from 0 to 1, not a list'
    rec = copy(MIRROR)
    rec["game"] = {"x": "y"}
    assert refused(rec) == 'record: "game" must be one of the games (known: chkobba, seven_diamonds), not an object'
    rec = copy(MIRROR)
    rec["rounds"][0]["actions"][2] = ["7D"]
    assert refused(rec) == 'round 1, action 2: an action is a text such as "7D" or "keep", not a list'


# ----------------------------------------------------- JSON, size, depth
@pytest.mark.parametrize("text,message", [
    ('{"game": "chkobba", "game": "chkobba", "first_dealer": 0, "rounds": []}',
     'record: the key "game" appears twice in one object'),
    ('{"game": "chkobba", "first_dealer": NaN, "rounds": []}', "record: not valid JSON (NaN is not a JSON number)"),
    ('{"game": "chkobba", "first_dealer": -Infinity, "rounds": []}',
     "record: not valid JSON (-Infinity is not a JSON number)"),
    ('{"game": "chkobba", "first_dealer": ' + "9" * 5000 + ', "rounds": []}',
     "record: not valid JSON (a number has too many digits)"),
    ("{", "record: not valid JSON (Expecting property name enclosed in double quotes at line 1, column 2)"),
    ("[" * 100_000, "record: the input is nested deeper than any record can be (at most 5 levels)"),
    ('{"a":' * 100_000, "record: the input is nested deeper than any record can be (at most 5 levels)"),
    ('{"game": "chkobba", "first_dealer": 0, "rounds": [[[[[[]]]]]]}',
     "record: the input is nested deeper than any record can be (at most 5 levels)"),
])
def test_json_is_read_strictly(text: str, message: str) -> None:
    assert refused(text) == message


def test_deep_python_values_are_refused_without_recursion() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    for rec in ({"game": deep, "first_dealer": 0, "rounds": []}, {"game": "chkobba", "first_dealer": 0, "rounds": deep},
                {"game": "chkobba", "first_dealer": 0, "rounds": [], "options": {"target": deep}}):
        assert refused(rec) == "record: the input is nested deeper than any record can be (at most 5 levels)"
    loop: dict[str, Any] = {"game": "chkobba", "first_dealer": 0}
    loop["rounds"] = [loop]
    assert "nested deeper" in refused(loop)


def test_size_limit() -> None:
    big = json.dumps(MIRROR)[:-1] + ', "pad": "' + " " * MAX_BYTES + '"}'
    assert refused(big) == "record: the input is over 16 MB, larger than any record can be"
    # four-byte characters count as four bytes
    wide = '{"x": "' + "\U0001f600" * (MAX_BYTES // 4) + '"}'
    assert refused(wide) == "record: the input is over 16 MB, larger than any record can be"
    # just under the limit is read (and refused for what it holds)
    fits = json.dumps(MIRROR)[:-1] + ', "pad": "' + " " * (MAX_BYTES - 10_000) + '"}'
    assert refused(fits) == 'record: unknown key "pad" (known: game, options, first_dealer, rounds)'


def test_command_line_deep_nesting() -> None:
    for text in ("[" * 200_000, '{"game": ' * 200_000, "[1," * 200_000):
        err = assert_cli_refuses(cli(text))
        assert err == "record: the input is nested deeper than any record can be (at most 5 levels)"


def test_command_line_dev_zero_under_a_memory_cap() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    err = assert_cli_refuses(cli(None, "/dev/zero", limit_memory=True))
    assert err == "record: the input is over 16 MB, larger than any record can be"
    big = b" " * (MAX_BYTES + 1)
    err = assert_cli_refuses(cli(big, limit_memory=True))
    assert err == "record: the input is over 16 MB, larger than any record can be"


def test_command_line_unreadable(tmp_path: Path) -> None:
    odd = tmp_path / "a\nb.json"
    err = assert_cli_refuses(cli(None, str(odd)), code=2)
    assert err.startswith('cannot read "') and "\\n" in err
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"game": "chkobba \xe9"}'.encode("latin-1"))
    err = assert_cli_refuses(cli(None, str(bad)), code=2)
    assert err.endswith("it is not UTF-8 text (a record is JSON)")
    err = assert_cli_refuses(cli(b'\xef\xbb\xbf{"game": "chkobba", "first_dealer": 0, "rounds": []}'))
    assert err.startswith("record: not valid JSON")


def test_replay_of_the_examples_is_unchanged() -> None:
    """Byte for byte: the summary is json.dumps of the expected value."""
    pairs = [(p, p.with_name(p.name[:-5] + ".expected.json")) for p in sorted(EXAMPLES.glob("*.json"))
             if not p.name.endswith(".expected.json")]
    pairs += [(GOLDEN / "mirror-round.json", GOLDEN / "mirror-round.expected.json")]
    for rec, exp in pairs:
        out = cli(None, str(rec))
        assert out.returncode == 0 and out.stderr == b""
        assert out.stdout == (json.dumps(json.loads(exp.read_text())) + "\n").encode()


# ------------------------------------------- the session never writes a bad save
def _same(a: Any, b: Any) -> None:
    assert summary(a) == summary(b)
    assert a.to_act() == b.to_act()
    assert a.legal_actions() == b.legal_actions()
    assert a.history() == b.history()
    assert (a.dealer, a.round_index, a.phase) == (b.dealer, b.round_index, b.phase)
    for seat in range(a.n):
        assert a.observation(seat) == b.observation(seat)


SAVE_OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("chkobba", {}),
    ("chkobba", {"players": 4, "capture": "compulsory", "redeal": True, "faces": "JQK"}),
    ("chkobba", {"players": 2, "missed_capture": True, "last_card_sweep": True, "all_diamonds_wins": True,
                 "match": 3}),
    ("chkobba", {"players": 4, "redeal": True, "target": 21}),
    ("seven_diamonds", {"target": 150}),
    ("seven_diamonds", {"calls": False, "timers": False, "target": 100, "last_seven_bonus": 0}),
]


@pytest.mark.parametrize("k", range(len(SAVE_OPTIONS) * FUZZ))
def test_every_save_replays_after_every_action(k: int) -> None:
    game, options = SAVE_OPTIONS[k % len(SAVE_OPTIONS)]
    sess = Session.new(game, options, seed=1000 + k)
    rng = random.Random(k)
    moves = 0
    while not sess.is_over and moves < 400:
        legal = sess.legal()
        # now and then an illegal or unreadable action: refused, and nothing changes
        if rng.random() < 0.05:
            before = sess.record_json()
            with pytest.raises(ChkobbaError):
                bad = ["9D", "double"] if game == "chkobba" else ["5S", "keep"]
                sess.apply(rng.choice(bad + ["claim ", "QHxQH", "7D7S"]))
            assert sess.record_json() == before
        sess.apply(rng.choice(legal))
        moves += 1
        rec = sess.record()
        assert all(r["decks"] for r in rec["rounds"])
        _same(replay(json.loads(json.dumps(rec))), sess.state)
        if moves % 25 == 0:
            again = Session.from_record(sess.record_json())
            _same(again.state, sess.state)
            assert again.record() == rec
