"""Links (issue 14): records and positions as short versioned texts.

- Round trip: ``decode(encode(link)) == link`` and ``encode(decode(text)) ==
  text`` for random records and positions of both games over every option
  set (random legal play, stopped anywhere or played to the end).
- Hostile input: random text, and valid links cut, altered, lengthened or
  re-checksummed after damage, give a valid link or one ChkobbaError with a
  registered code and a one-line message, never another exception.

``CHKOBBA_FUZZ=N`` multiplies the example counts.
"""

from __future__ import annotations

import base64
import os
import random
import zlib
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import CHKOBBA_OPTIONS

from chkobba.errors import ChkobbaError
from chkobba.links import MAX_LENGTH, PREFIX, Link, decode, decode_record, encode
from chkobba.links.codec import GAMES, OPTIONS_V1, _base, _rank, _unrank
from chkobba.messages import MESSAGES
from chkobba.options import options_class
from chkobba.positions import position
from chkobba.records import Record, parse_record, replay
from chkobba.registry import game_class
from chkobba.session import Session

FUZZ = max(1, int(os.environ.get("CHKOBBA_FUZZ", "1")))


def fuzz(examples: int) -> Callable[[Any], Any]:
    return settings(max_examples=examples * FUZZ, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


SEVEN_OPTIONS = {
    "calls": st.booleans(),
    "target": st.one_of(st.sampled_from([1, 100, 500]), st.integers(1, 100_000)),
    "last_seven_bonus": st.one_of(st.sampled_from([0, 200]), st.integers(0, 10_000)),
    "timers": st.one_of(st.just(False), st.just(True),
                        st.fixed_dictionaries({}, optional={"call": st.integers(1, 600),
                                                            "card": st.integers(1, 600)})),
}


@st.composite
def records(draw: st.DrawFn, game: str | None = None) -> Record:
    """A legal record: random options, random legal play from a random seed,
    stopped after a random number of actions or played to the end (short
    targets keep whole matches small)."""
    game = game or draw(st.sampled_from(GAMES))
    table = CHKOBBA_OPTIONS if game == "chkobba" else SEVEN_OPTIONS
    keep = draw(st.sets(st.sampled_from(sorted(table))))
    options = {k: draw(table[k]) for k in sorted(keep)}
    if game == "seven_diamonds" and draw(st.booleans()):
        options["target"] = draw(st.integers(1, 150))  # whole games, not too long
    seed = draw(st.integers(0, 2**31))
    stop = draw(st.one_of(st.integers(0, 40), st.integers(0, 400), st.just(10**6)))
    if game == "seven_diamonds" and stop == 10**6 and options.get("target", 500) > 500:
        # a whole game to a target in the thousands is legal but its link would pass MAX_LENGTH
        options["target"] = 500
    s = Session.new(game, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal()))
    return parse_record(s.record())


@st.composite
def links(draw: st.DrawFn, rec: Record | None = None) -> Link:
    rec = rec or draw(records())
    at: tuple[int, int] | None = None
    if rec.rounds and draw(st.booleans()):
        r = draw(st.integers(1, len(rec.rounds)))
        at = (r, draw(st.integers(0, len(rec.rounds[r - 1].actions))))
    state = replay(rec) if at is None else position(rec, at)[1]
    players = rec.options["players"]
    modes = ["replay"]
    if not state.is_over:
        modes.append("play")
    if state.to_act() is not None:
        modes.append("puzzle")
    mode = draw(st.sampled_from(modes))
    if mode == "puzzle":
        show = draw(st.sampled_from([None, state.to_act()]))
    else:
        show = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    reasons = draw(st.booleans()) if mode == "puzzle" else False
    level = draw(st.sampled_from([None, "easy", "medium", "hard"])) if mode == "play" else None
    return Link(rec, at, mode, show, reasons, level)


def assert_clean_error(e: ChkobbaError) -> None:
    assert e.code in MESSAGES, e.code
    assert e.code != "link.internal", str(e)
    text = str(e)
    assert text and "\n" not in text and len(text) < 400, text


def decode_or_error(text: object) -> Link | None:
    try:
        link = decode(text)
    except ChkobbaError as e:
        assert_clean_error(e)
        return None
    # anything accepted is a valid link, written the one way
    assert isinstance(text, str) and encode(link) == text
    replay(parse_record(link.record.to_dict()))
    return link


# -------------------------------------------------------------- round trip
@fuzz(20)
@given(st.data())
def test_round_trip_links(data: st.DataObject) -> None:
    rec = data.draw(records())
    for _ in range(5):  # several positions and views of each record
        round_trip(data.draw(links(rec)))


def round_trip(link: Link) -> None:
    text = encode(link)
    assert text.startswith(PREFIX)
    assert all(c.isalnum() or c in "-_." for c in text)
    back = decode(text)
    assert back == link
    assert encode(back) == text
    # the position it gives is the one the record gives
    s1, s2 = back.session(seed=5), Session.from_record(link.record, 5, at=link.at)
    assert s1.view(None) == s2.view(None)


@fuzz(40)
@given(records())
def test_round_trip_records(rec: Record) -> None:
    text = encode(rec)
    assert decode_record(text) == rec
    assert decode(text) == Link(rec)


def test_a_link_too_long_to_open_is_never_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game to a target in the thousands can outgrow MAX_LENGTH: encode
    refuses it in words (the Share dialog says so) rather than hand out a
    link that decode would refuse."""
    s = Session.new("seven_diamonds", {}, seed=4)
    rng = random.Random(4)
    while not s.is_over:
        s.apply(rng.choice(s.legal()))
    text = encode(s.record())
    monkeypatch.setattr("chkobba.links.codec.MAX_LENGTH", len(text) - 1)
    with pytest.raises(ChkobbaError) as e:
        encode(s.record())
    assert e.value.code == "link.too_long" and e.value.params == {"length": len(text), "limit": len(text) - 1}


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_round_trip_and_are_short(game: str) -> None:
    for seed in range(3):
        s = Session.new(game, {}, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal()))
        text = encode(s.record())
        assert decode_record(text).to_dict() == s.record()
        assert len(text) < 2000


def test_capture_order_is_written_canonically() -> None:
    s = Session.new("chkobba", {}, seed=11)
    rng = random.Random(2)
    while not any("x" in a for r in s.record()["rounds"] for a in r["actions"] if "x" in a and len(a) > 5):
        s.apply(rng.choice(s.legal()))
    rec = s.record()
    # the same capture with its taken cards in another order: the same link
    for rnd in rec["rounds"]:
        for i, a in enumerate(rnd["actions"]):
            if "x" in a and len(a) > 5:
                head, _, tail = a.partition("x")
                pairs = [tail[k:k + 2] for k in range(0, len(tail), 2)]
                rnd["actions"][i] = head + "x" + "".join(reversed(pairs))
    assert encode(rec) == encode(s.record())


def test_permutation_rank() -> None:
    for game in GAMES:
        base = _base(game_class(game))
        rng = random.Random(4)
        for _ in range(50):
            deck = list(base)
            rng.shuffle(deck)
            assert _unrank(_rank(deck, base), base) == deck
        assert _rank(base, base) == 0


def test_v1_option_table_is_the_engines() -> None:
    """The frozen v1 table matches the engine's options: if this fails, the
    engine changed its options and links need a new version."""
    for game in GAMES:
        specs = options_class(game).SPECS
        table = OPTIONS_V1[game]
        assert [s.name for s in specs] == [t[0] for t in table]
        for spec, (name, kind, default, choices) in zip(specs, table):
            assert spec.default == default and spec.kind == kind, name
            if kind in ("number", "timers"):
                assert (spec.min, spec.max) == choices, name
            else:
                assert tuple(spec.choices or ()) == choices, name


def test_view_settings_are_checked() -> None:
    s = Session.new("chkobba", {}, seed=1)
    for _ in range(3):
        s.apply(s.legal()[0])
    rec = parse_record(s.record())
    turn = s.to_act()
    assert turn is not None
    ok = Link(rec, (1, 3), "puzzle", turn, True)
    assert decode(encode(ok)) == ok
    bad = [
        (Link(rec, None, "film"), "link.mode"),
        (Link(rec, None, "replay", 5), "link.seat"),
        (Link(rec, None, "replay", None, True), "link.reasons"),
        (Link(rec, None, "replay", None, False, "hard"), "link.level"),
        (Link(rec, None, "play", None, False, "expert"), "link.level"),
        (Link(rec, (1, 3), "puzzle", 1 - turn), "link.puzzle_seat"),
        (Link(rec, (2, 0)), "link.record"),
        (Link(rec, (1, 99)), "link.record"),
    ]
    for link, code in bad:
        with pytest.raises(ChkobbaError) as e:
            encode(link)
        assert e.value.code == code


def test_bad_record_is_refused_when_encoding() -> None:
    rec = parse_record(Session.new("chkobba", {}, seed=1).record())
    rec.rounds[0].actions.append("QHx7D")
    with pytest.raises(ChkobbaError):
        encode(rec)


# ---------------------------------------------------------- hostile input
def good_text() -> str:
    s = Session.new("chkobba", {"players": 4}, seed=9)
    rng = random.Random(9)
    for _ in range(30):
        s.apply(rng.choice(s.legal()))
    return encode(Link(parse_record(s.record()), (1, 5), "puzzle", None, True))


GOOD = good_text()


@pytest.mark.parametrize("text,code", [
    (None, "link.not_text"),
    (b"c1.AAAA", "link.not_text"),
    ("", "link.empty"),
    ("c1.", "link.damaged"),
    ("c2." + GOOD[3:], "link.version"),
    ("c10.xyz", "link.version"),
    ("hello", "link.prefix"),
    ("#" + GOOD, "link.prefix"),
    (GOOD + "=", "link.characters"),
    (GOOD[:40] + "<script>alert(1)</script>", "link.characters"),
    (GOOD + " ", "link.characters"),
    (GOOD[:-1], "link.damaged"),
    (GOOD[:-2], "link.damaged"),
    (GOOD + "A", "link.damaged"),
    (GOOD + "AAAA", "link.damaged"),
    ("c1." + "A" * (1 << 20), "link.too_long"),
    ("c1." + "A" * MAX_LENGTH, "link.too_long"),
])
def test_hostile_texts(text: object, code: str) -> None:
    with pytest.raises(ChkobbaError) as e:
        decode(text)
    assert e.value.code == code
    assert_clean_error(e.value)


def test_good_text_decodes() -> None:
    assert decode_or_error(GOOD) is not None


def reseal(body: bytes) -> str:
    """A body with a matching check: what an attacker who read the docs sends."""
    crc = zlib.crc32(PREFIX.encode() + body)
    return PREFIX + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")


def body_of(text: str) -> bytes:
    data = text[len(PREFIX):]
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))[:-4]


@fuzz(150)
@given(st.one_of(st.text(max_size=300), st.text(alphabet="ABCDEFabcdef0123456789-_", max_size=400)
                 .map(lambda t: PREFIX + t)))
def test_random_text(text: str) -> None:
    assert decode_or_error(text) is None


@fuzz(300)
@given(st.data())
def test_mutated_links(data: st.DataObject) -> None:
    text = GOOD
    kind = data.draw(st.sampled_from(["cut", "change", "insert", "delete"]))
    i = data.draw(st.integers(0, len(text) - 1))
    ch = data.draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \n\x00é"))
    if kind == "cut":
        bad = text[:i]
    elif kind == "change":
        bad = text[:i] + ch + text[i + 1:]
    elif kind == "insert":
        bad = text[:i] + ch + text[i:]
    else:
        bad = text[:i] + text[i + 1:]
    if bad != text:
        assert decode_or_error(bad) is None


@fuzz(400)
@given(st.data())
def test_resealed_damage(data: st.DataObject) -> None:
    """Damage with a matching check: the structure itself is read as hostile."""
    body = bytearray(body_of(data.draw(st.sampled_from([GOOD, SEVEN]))))
    kind = data.draw(st.sampled_from(["flip", "cut", "extend", "random"]))
    if kind == "flip":
        for _ in range(data.draw(st.integers(1, 4))):
            bit = data.draw(st.integers(0, len(body) * 8 - 1))
            body[bit // 8] ^= 1 << (bit % 8)
    elif kind == "cut":
        body = body[:data.draw(st.integers(0, len(body) - 1))]
    elif kind == "extend":
        body += bytes(data.draw(st.binary(min_size=1, max_size=40)))
    else:
        body = bytearray(data.draw(st.binary(max_size=300)))
    decode_or_error(reseal(bytes(body)))


def seven_text() -> str:
    s = Session.new("seven_diamonds", {"target": 300, "timers": {"call": 5, "card": 9}}, seed=3)
    rng = random.Random(3)
    while not s.is_over:
        s.apply(rng.choice(s.legal()))
    return encode(Link(parse_record(s.record()), (2, 4), "play", 1))


SEVEN = seven_text()


def test_hostile_errors_are_plain_lines() -> None:
    """An error never shows the link's own text as markup: only quoted, short."""
    with pytest.raises(ChkobbaError) as e:
        decode("c9<img src=x onerror=alert(1)>")
    assert "<" not in str(e.value)


def test_reader_seat_and_json_position() -> None:
    s = Session.new("chkobba", {"players": 4}, seed=2)
    for _ in range(4):
        s.apply(s.legal()[-1])
    rec = parse_record(s.record())
    link = Link(rec, [1, 4], "play")  # type: ignore[arg-type]  # JSON gives a list
    assert link.at == (1, 4) and decode(encode(link)) == link
    assert link.reader_seat() == s.to_act()
    assert Link(rec, (1, 4), "play", 2).reader_seat() == 2
    assert Link(rec).reader_seat() is None


def test_a_play_link_names_the_computers_level_and_older_ones_still_open() -> None:
    """Issue 23: play from here keeps the level the game was played against.
    The level is written after the view only when named, so a play link made
    before it existed (its zero padding) still opens, with no level named."""
    s = Session.new("chkobba", {}, seed=2)
    for _ in range(5):
        s.apply(s.legal()[0])
    rec = parse_record(s.record())
    for level in ("easy", "medium", "hard"):
        round_trip(Link(rec, None, "play", None, False, level))
    old = encode(Link(rec, None, "play"))
    assert decode(old).level is None
    # every older play link, whatever its padding, reads as "not named"
    for n in range(1, 8):
        s.apply(s.legal()[0])
        link = Link(parse_record(s.record()), None, "play")
        assert decode(encode(link)) == link
