"""Result links no game can have are refused (issue 37): a daily result
(``r1.``) or a challenge (``x1.``) re-sealed with a right checksum but
claiming an impossible result answers ``link.result``, through the facade's
calls (``daily_start``/``daily_result`` with ``vs``, ``challenge_start``);
every result a real round or match gives still writes and reads."""

from __future__ import annotations

import base64
import random
import zlib
from typing import Any, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import daily, web
from chkobba.links import challenge as C
from chkobba.links.codec import _Writer
from chkobba.session import Session
from facade_calls import err, ok

DATE = "2026-12-01"


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def _seal(prefix: str, w: _Writer) -> str:
    """A link sealed as the site seals one (a right checksum), whatever it says."""
    body = w.finish()
    crc = zlib.crc32(prefix.encode() + body)
    return prefix + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")


def forged_result(day: str, game: str, res: dict[str, Any]) -> str:
    """An ``r1.`` text written field by field, with no check of what it says."""
    w = _Writer()
    w.write(C.GAMES.index(game), 2)
    w.number((daily.parse_date(day) - C._EPOCH).days)
    for name, kind, extra in C._DAILY_FIELDS[game]:
        value = res[name]
        if kind == "flag":
            w.write(int(value), 1)
        elif kind == "set":
            for item in extra:
                w.write(int(item in value), 1)
        elif kind == "range":
            w.write(value - extra[0], 2)
        else:
            w.number(value)
    return _seal(C.RESULT_PREFIX, w)


def forged_challenge(game: str, options: dict[str, Any], res: dict[str, Any]) -> str:
    from chkobba.links.codec import _write_options
    opts = Session.new(game, options, seed=0).record()["options"]
    w = _Writer()
    w.write(C.GAMES.index(game), 2)
    _write_options(w, game, opts)
    w.number(5)
    for i in range(opts["players"]):
        w.write(0 if i == 0 else 3, 2)
    for name, kind, _x in C._MATCH_FIELDS[game]:
        value = res[name]
        if kind == "flag":
            w.write(int(value), 1)
        elif kind == "pair":
            w.number(value[0])
            w.number(value[1])
        else:
            w.number(value)
    return _seal(C.CHALLENGE_PREFIX, w)


CHK = ("karta", "dinari", "barmila", "haya")
IMPOSSIBLE_DAILY = [
    ("chkobba", {"points": 1_000_000, "other": 0, "categories": [], "chkobbas": 0}),       # no category, no sweep
    ("chkobba", {"points": 0, "other": 0, "categories": list(CHK), "chkobbas": 0}),       # all four, 0 points
    ("chkobba", {"points": 4, "other": 20, "categories": list(CHK), "chkobbas": 0}),      # other: 20 sweeps
    ("chkobba", {"points": 40, "other": 0, "categories": [], "chkobbas": 40}),           # 40 sweeps in 36 plays
    ("chkobba", {"points": 2, "other": 30, "categories": ["karta", "haya"], "chkobbas": 0}),
    ("seven_diamonds", {"points": 1_000_000, "other": 0, "won": True, "multiplier": 1, "bonus": 0, "cards": 0}),
    ("seven_diamonds", {"points": 50, "other": 0, "won": False, "multiplier": 1, "bonus": 0, "cards": 50}),
    ("seven_diamonds", {"points": 900, "other": 0, "won": True, "multiplier": 3, "bonus": 0, "cards": 300}),
    ("seven_diamonds", {"points": 15, "other": 0, "won": True, "multiplier": 1, "bonus": 0, "cards": 15}),
    ("seven_diamonds", {"points": 500, "other": 0, "won": True, "multiplier": 1, "bonus": 500, "cards": 0}),
]


@pytest.mark.parametrize("game,res", IMPOSSIBLE_DAILY)
def test_a_daily_result_link_no_round_can_have_is_refused(game: str, res: dict[str, Any]) -> None:
    text = forged_result(DATE, game, res)
    with pytest.raises(C.InvalidLink) as e:
        C.decode_result(text, DATE, game)
    assert e.value.code == "link.result"
    with pytest.raises(C.InvalidLink):
        C.encode_result(DATE, game, res)
    # through the facade: the friend's page opening the link
    out = err("daily_start", date=DATE, game=game, vs=text)
    assert out["code"] == "link.result" and "not one a game can have" in out["error"]


IMPOSSIBLE_MATCH = [
    ("chkobba", {"players": 2}, {"won": True, "score": [11, 0], "games": [1_000_000, 0], "rounds": 1_000_000,
                                 "chkobbas": 0}),                       # best of one won 1,000,000 games to 0
    ("chkobba", {"players": 2}, {"won": True, "score": [0, 11], "games": [1, 0], "rounds": 3, "chkobbas": 0}),
    ("chkobba", {"players": 2, "match": 3}, {"won": True, "score": [11, 3], "games": [1, 0], "rounds": 3,
                                             "chkobbas": 0}),           # best of three won with one game
    ("chkobba", {"players": 2, "match": 3}, {"won": True, "score": [11, 3], "games": [3, 1], "rounds": 8,
                                             "chkobbas": 0}),
    ("chkobba", {"players": 2}, {"won": True, "score": [9, 3], "games": [1, 0], "rounds": 3, "chkobbas": 0}),
    ("chkobba", {"players": 2}, {"won": True, "score": [1_000_000, 3], "games": [1, 0], "rounds": 3,
                                 "chkobbas": 0}),
    ("chkobba", {"players": 2}, {"won": False, "score": [11, 0], "games": [0, 1], "rounds": 3, "chkobbas": 0}),
    ("chkobba", {"players": 2}, {"won": True, "score": [13, 2], "games": [1, 0], "rounds": 2, "chkobbas": 500}),
    ("seven_diamonds", {"timers": False}, {"won": True, "score": [100, 600], "games": [1, 0], "rounds": 3}),
    ("seven_diamonds", {"timers": False}, {"won": True, "score": [600, 500], "games": [1, 0], "rounds": 3}),
    ("seven_diamonds", {"timers": False}, {"won": True, "score": [600, 0], "games": [2, 0], "rounds": 3}),
]


@pytest.mark.parametrize("game,options,res", IMPOSSIBLE_MATCH)
def test_a_challenge_no_match_can_have_is_refused(game: str, options: dict[str, Any], res: dict[str, Any]) -> None:
    text = forged_challenge(game, options, res)
    with pytest.raises(C.InvalidLink) as e:
        C.decode_challenge(text)
    assert e.value.code == "link.result"
    out = err("challenge_start", link=text)
    assert out["code"] == "link.result"
    assert err("state")["code"]   # no table was made


def _random_match(game: str, options: dict[str, Any], seed: int) -> Session:
    s = Session.new(game, options, seed=seed)
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal()))
    return s


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([("chkobba", {"players": 2}), ("chkobba", {"players": 4, "match": 3}),
                        ("chkobba", {"players": 2, "target": 21, "all_diamonds_wins": True}),
                        ("seven_diamonds", {"target": 200, "timers": False})]),
       st.integers(0, 10_000), st.integers(0, 3))
def test_every_real_match_result_still_makes_a_challenge(case: tuple[str, dict[str, Any]], seed: int,
                                                         me: int) -> None:
    game, options = case
    s = _random_match(game, options, seed)
    players = s.players
    seat = me % players
    seats = tuple(None if i == seat else "hard" for i in range(players))
    c = C.Challenge(game, s.record()["options"], seed, seats, C.match_result(s, seat))
    assert C.decode_challenge(C.encode_challenge(c)) == c


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(daily.GAMES), st.integers(0, 10_000))
def test_every_real_daily_round_still_makes_a_result_link(game: str, seed: int) -> None:
    deal = daily.daily(DATE, game)
    s = deal.session()
    rng = random.Random(seed)
    while not daily.round_over(s):
        s.apply(rng.choice(s.legal()))
    you = daily.round_result(deal, s.summary()["rounds"][0])
    assert C.decode_result(C.encode_result(DATE, game, you), DATE, game) == you
    other = daily.round_result(deal, s.summary()["rounds"][0], seat=1)
    assert C.decode_result(C.encode_result(DATE, game, other), DATE, game) == other
