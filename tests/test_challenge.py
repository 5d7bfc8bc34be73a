"""Challenge links and daily result links (chkobba/links/challenge.py) and the
facade's challenge calls (chkobba/web/challenge.py): round trips, hostile and
altered links (hypothesis), the length, the same decks as the sender's, the
challenge computers, take-backs refused, and the comparison at the end."""

from __future__ import annotations

import base64
import os
import random
import zlib
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba import daily, web
from chkobba.errors import ChkobbaError
from chkobba.links import challenge as C
from chkobba.games.seven_diamonds import table as SEVEN_TABLE
from chkobba.links.codec import InvalidLink
from chkobba.session import Session
from facade_calls import err, ok

FUZZ = int(os.environ.get("CHKOBBA_FUZZ", "1"))
EXAMPLES = 150 * FUZZ


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


# ------------------------------------------------------------- strategies

numbers = st.integers(0, C.MAX_NUMBER)


@st.composite
def match_results(draw: Any, game: str, opts: dict[str, Any]) -> dict[str, Any]:
    """A result a match of these options can have (chkobba/links/challenge.py
    _check_match): the winner has the games the match needs and reached the
    target with more points in the last game."""
    need = (opts.get("match", 1) + 1) // 2
    won = draw(st.booleans())
    other_games = draw(st.integers(0, need - 1))
    games = [need, other_games] if won else [other_games, need]
    target = opts["target"]
    rounds = sum(games) + draw(st.integers(0, 200))
    if game == "chkobba":
        rounds = max(rounds, (target + C.MAX_ROUND_POINTS - 1) // C.MAX_ROUND_POINTS)
        top = draw(st.integers(target, max(target, C.MAX_ROUND_POINTS * rounds)))
    else:
        top = draw(st.integers(target, C.MAX_NUMBER))
    low = draw(st.integers(0, min(top - 1, target - 1)))
    out: dict[str, Any] = {"won": won, "score": [top, low] if won else [low, top], "games": games,
                           "rounds": rounds}
    if game == "chkobba":
        out["chkobbas"] = draw(st.integers(0, min(500, C.MAX_SWEEPS * rounds)))
    return out


@st.composite
def challenges(draw: Any) -> C.Challenge:
    game = draw(st.sampled_from(["chkobba", "seven_diamonds"]))
    if game == "chkobba":
        options = {"players": draw(st.sampled_from([2, 4])), "target": draw(st.sampled_from([11, 21, 31])),
                   "match": draw(st.sampled_from([1, 3, 5])), "faces": draw(st.sampled_from(["QJK", "JQK"])),
                   "redeal": draw(st.booleans())}
    else:
        options = {"target": draw(st.integers(1, 100000)),
                   "timers": draw(st.sampled_from([False, {"call": 10, "card": 12}, {"call": 3, "card": 600}]))}
    opts = Session.new(game, options, seed=0).record()["options"]
    players = opts["players"]
    me = draw(st.integers(0, players - 1))
    seats = tuple(None if i == me else draw(st.sampled_from(C.LEVELS)) for i in range(players))
    return C.Challenge(game, opts, draw(st.integers(0, C.SEED_LIMIT)), seats, draw(match_results(game, opts)),
                       draw(st.one_of(st.integers(0, 40), st.integers(0, C.MAX_NUMBER))))


@st.composite
def daily_results(draw: Any) -> tuple[str, str, dict[str, Any]]:
    game = draw(st.sampled_from(["chkobba", "seven_diamonds"]))
    day = draw(st.dates(min_value=C._EPOCH, max_value=C._EPOCH.replace(year=2999))).isoformat()
    if game == "chkobba":   # a round's points: its categories and sweeps (_check_daily)
        cats = [c for c in ("karta", "dinari", "barmila", "haya") if draw(st.booleans())]
        sweeps = draw(st.integers(0, C.MAX_SWEEPS))
        res = {"points": len(cats) + sweeps, "other": draw(st.integers(0, 4 - len(cats) + C.MAX_SWEEPS - sweeps)),
               "categories": cats, "chkobbas": sweeps}
    else:
        won, multiplier = draw(st.booleans()), draw(st.integers(1, 3))
        bonus, cards = draw(st.sampled_from([0, SEVEN_TABLE.DAILY_SEVEN_BONUS])), 10 * draw(st.integers(0, 20))
        total = (cards + bonus) * multiplier
        res = {"points": total if won else 0, "other": 0 if won else total, "won": won,
               "multiplier": multiplier, "bonus": bonus, "cards": cards}
    return day, game, res


# ------------------------------------------------------------- round trips

@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(challenges())
def test_a_challenge_round_trips_and_stays_short(c: C.Challenge) -> None:
    text = C.encode_challenge(c)
    assert text.startswith("x2.") and len(text) <= 80
    assert C.decode_challenge(text) == c
    assert C.encode_challenge(C.decode_challenge(text)) == text   # one spelling


@settings(max_examples=EXAMPLES, deadline=None)
@given(daily_results())
def test_a_daily_result_round_trips_and_is_bound_to_its_deal(case: tuple[str, str, dict[str, Any]]) -> None:
    day, game, res = case
    text = C.encode_result(day, game, res)
    assert text.startswith("r1.") and len(text) <= 60
    assert C.decode_result(text, day, game) == res
    other = "seven_diamonds" if game == "chkobba" else "chkobba"
    with pytest.raises(InvalidLink) as e:
        C.decode_result(text, day, other)
    assert e.value.code == "link.result_deal"
    with pytest.raises(InvalidLink):
        C.decode_result(text, "1999-12-31", game)


FROZEN = {"chkobba": (0, ["6S", "QS", "6H", "QH", "3C", "KC", "2D", "2S"]),
          "seven_diamonds": (1, ["7C", "TC", "7D", "9D", "9S", "JC", "7S", "QC"])}


@pytest.mark.parametrize("game", sorted(FROZEN))
def test_the_decks_of_a_seed_are_frozen_for_version_1(game: str) -> None:
    """A challenge carries the seed, not the decks: the first dealer and the
    decks a seed gives are part of version 1 (a change here needs an x2 link)."""
    rec = Session.new(game, {}, seed=7).record()
    assert (rec["first_dealer"], rec["rounds"][0]["decks"][0][:8]) == FROZEN[game]


# ------------------------------------------------------------- hostile text

BAD = [None, 3, b"x1.", "", "c1.AAAA", "x2.AAAA", "x1.<script>", "x1.AA AA", "x1.AAAA=", "r1.AAAAAAA", "x" * 201,
       "x1." + "A" * 197, "x1.A", "x1.AAAAAAAAAA"]


@pytest.mark.parametrize("text", BAD)
def test_bad_challenges_are_one_link_error(text: Any) -> None:
    with pytest.raises(InvalidLink) as e:
        C.decode_challenge(text)
    assert e.value.code.startswith("link.")
    assert "<" not in str(e.value) and "\n" not in str(e.value)


def _reseal(prefix: str, body: bytes) -> str:
    crc = zlib.crc32(prefix.encode() + body)
    return prefix + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")


@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(challenges(), st.data())
def test_altered_challenges_are_refused_or_read_as_valid(c: C.Challenge, data: st.DataObject) -> None:
    text = C.encode_challenge(c)
    how = data.draw(st.sampled_from(["cut", "grow", "flip", "reseal", "junk"]))
    if how == "cut":
        bad = text[:data.draw(st.integers(0, len(text) - 1))]
    elif how == "grow":
        bad = text + data.draw(st.text("ABCxyz019_-", min_size=1, max_size=8))
    elif how == "flip":
        i = data.draw(st.integers(3, len(text) - 1))
        ch = data.draw(st.sampled_from([x for x in "AQgwBz_-9" if x != text[i]]))
        bad = text[:i] + ch + text[i + 1:]
    elif how == "junk":
        bad = data.draw(st.text(max_size=300))
    else:
        # a damaged body re-sealed with a correct CRC: each field is still checked
        raw = bytearray(base64.urlsafe_b64decode(text[3:] + "=" * (-len(text[3:]) % 4))[:-4])
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] ^= data.draw(st.integers(1, 255))
        bad = _reseal("x2.", bytes(raw[:data.draw(st.integers(1, len(raw)))]))
    try:
        got = C.decode_challenge(bad)
    except InvalidLink as e:
        assert e.code.startswith("link.") and e.code != "link.internal", e.code
        return
    # what reads is a valid challenge that writes back to the same text
    assert how in ("reseal", "junk") or bad == text
    assert C.encode_challenge(got) == bad
    got.session()


@settings(max_examples=EXAMPLES, deadline=None)
@given(daily_results(), st.binary(min_size=1, max_size=30))
def test_resealed_junk_results_are_refused_or_valid(case: tuple[str, str, dict[str, Any]], junk: bytes) -> None:
    day, game, _ = case
    try:
        res = C.decode_result(_reseal("r1.", junk), day, game)
    except InvalidLink as e:
        assert e.code != "link.internal"
        return
    assert C.decode_result(C.encode_result(day, game, res), day, game) == res


def test_impossible_results_are_not_written() -> None:
    c = C.Challenge("chkobba", Session.new("chkobba", {"players": 2}, seed=1).record()["options"], 1, (None, "hard"),
                    {"won": True, "score": [3, 11], "games": [0, 1], "rounds": 4, "chkobbas": 0})
    with pytest.raises(InvalidLink) as e:
        C.encode_challenge(c)
    assert e.value.code == "link.result"
    with pytest.raises(InvalidLink):
        C.encode_challenge(C.Challenge(c.game, c.options, 1, (None, None), {}))
    with pytest.raises(InvalidLink):
        C.encode_result("2026-12-01", "chkobba", {"points": -1, "other": 0, "categories": [], "chkobbas": 0})
    with pytest.raises(InvalidLink):
        C.encode_result("2026-12-01", "chkobba", {"points": 1, "other": 0, "categories": ["haya", "karta"],
                                                   "chkobbas": 0})


# ------------------------------------------------------------- the facade

SEATS = [{"kind": "human"}, {"kind": "computer", "level": "medium"}]


def play_match(st: dict[str, Any], choose: str, pick: int = 0) -> dict[str, Any]:
    """Play to the end of the match: the person the ``pick``-th legal action
    (wrapped), the computers by the ``choose`` call."""
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        if seat is None:
            return st
        if st["seats"][seat]["kind"] == "computer":
            action = ok(choose, save=st["save"], seat=seat)["action"]
        else:
            legal = s.legal()
            action = legal[pick % len(legal)]
        st = ok("act", action=action, seat=seat)


def test_a_challenge_deals_the_senders_match_and_compares() -> None:
    st = ok("start", game="chkobba", options={"players": 2}, seats=SEATS, seed=42)
    assert err("challenge_link", save=st["save"])["code"] == "web.challenge.not_over"
    st = play_match(st, "choose")
    sender = st["save"]["record"]
    made = ok("challenge_link", save=st["save"])
    link = made["link"]
    assert link.startswith("x3.") and len(link) < 300   # with the sender's moves (tests/test_results_checked.py)
    assert made["result"] == C.match_result(web.table_session("main"), 0)
    # the friend's table: the same options, the same first dealer and decks
    friend = ok("challenge_start", link=link, table="main")
    assert friend["save"]["challenge"] == link and friend["save"]["seed"] == 42
    rec = friend["save"]["record"]
    assert rec["options"] == sender["options"] and rec["first_dealer"] == sender["first_dealer"]
    assert rec["rounds"][0]["decks"] == sender["rounds"][0]["decks"]
    assert friend["takeback"]["allowed"] is False and friend["coach"] is False
    assert err("challenge_result", save=friend["save"])["code"] == "web.challenge.not_over"
    # the same cards and the same medium player as the sender's: playing the sender's moves gives the same match
    friend = play_match(friend, "challenge_choose")
    assert friend["save"]["record"]["rounds"][1]["decks"] == sender["rounds"][1]["decks"]
    assert friend["save"]["record"] == sender
    out = ok("challenge_result", save=friend["save"])
    assert out["yours"] == out["theirs"] == made["result"] and out["verdict"] == 0
    # a resumed challenge is still one, and plays on the same way
    again = ok("resume", save=friend["save"], table="other")
    assert again["save"]["challenge"] == link and again["takeback"]["allowed"] is False


def test_a_take_back_is_refused_in_a_challenge() -> None:
    c = C.Challenge("chkobba", Session.new("chkobba", {"players": 2}, seed=3).record()["options"], 3, (None, "easy"),
                    {"won": False, "score": [4, 11], "games": [0, 1], "rounds": 3, "chkobbas": 1})
    st = ok("challenge_start", link=C.encode_challenge(c))
    s = web.table_session("main")
    while s.to_act() != 0 or not s.record()["rounds"][0]["actions"]:
        seat = s.to_act()
        action = ok("challenge_choose", save=st["save"], seat=seat)["action"] if seat else s.legal()[0]
        st = ok("act", action=action, seat=seat)
        s = web.table_session("main")
    e = err("take_back")
    assert e["code"] == "takeback.mode" and "challenge" in e["error"]


def test_hard_challenge_computers_are_the_same_everywhere() -> None:
    c = C.Challenge("seven_diamonds", Session.new("seven_diamonds", {}, seed=9).record()["options"], 9,
                    (None, "hard", "hard", "hard"), {"won": True, "score": [500, 20], "games": [1, 0], "rounds": 5})
    st = ok("challenge_start", link=C.encode_challenge(c))
    s = web.table_session("main")
    seat = s.to_act()
    if seat == 0:
        st = ok("act", action=s.legal()[0], seat=0)
        s = web.table_session("main")
        seat = s.to_act()
    first = ok("challenge_choose", save=st["save"], seat=seat)["action"]
    assert first == str(C.computer_choice(c, s, seat)) == ok("challenge_choose", save=st["save"], seat=seat)["action"]


def test_no_challenge_of_a_daily_deal_or_of_pass_and_play() -> None:
    st = ok("daily_start", date="2026-12-01", game="chkobba")
    assert err("challenge_link", save=st["save"])["code"] == "web.challenge.not_computer"
    two = ok("start", game="chkobba", options={"players": 2}, seats=[{"kind": "human"}, {"kind": "human"}], seed=1)
    assert err("challenge_link", save=two["save"])["code"] == "web.challenge.not_computer"


@pytest.mark.parametrize("bad", ["x1.AAAA", "c1.AAAA", "<b>x</b>", "x9.AAAA", 7])
def test_a_bad_challenge_link_is_one_error_and_no_table(bad: Any) -> None:
    e = err("challenge_start", link=bad)
    assert e["code"].startswith("link.") and "\n" not in e["error"]
    assert web.table_ids() == []


def test_a_save_whose_challenge_is_not_its_game_is_refused() -> None:
    st = ok("start", game="chkobba", options={"players": 2}, seats=SEATS, seed=42)
    c = C.Challenge("chkobba", st["save"]["record"]["options"], 43, (None, "medium"),
                    {"won": True, "score": [11, 0], "games": [1, 0], "rounds": 2, "chkobbas": 0})
    save = dict(st["save"], challenge=C.encode_challenge(c))
    e = err("resume", save=save)
    assert e["code"] == "web.save" and "challenge" in e["error"]
    save["challenge"] = "x1.junk"
    assert err("resume", save=save)["code"] == "web.save"


def test_the_daily_result_carries_a_link_of_the_senders_result() -> None:
    from test_web_daily import play_round
    st = play_round("chkobba")
    out = ok("daily_result", save=st["save"])
    you = out["result"]["you"]
    assert C.decode_result(out["vs"], "2026-12-01", "chkobba") == you
    web.reset_tables()
    ok("daily_start", date="2026-12-01", game="chkobba", vs=out["vs"])
    st = play_round("chkobba")
    both = ok("daily_result", save=st["save"], vs=out["vs"])
    assert both["friend"] == you and both["result"]["you"] == you
    bad = err("daily_start", date="2026-12-02", game="chkobba", vs=out["vs"])
    assert bad["code"] == "link.result_deal"
    assert err("daily_start", date="2026-12-01", game="chkobba", vs="r1.AAAAAAA")["code"] == "link.damaged"
    with pytest.raises(ChkobbaError):
        C.decode_result(out["vs"][:-2], "2026-12-01", "chkobba")
    assert daily.parse_date("2026-12-01")


def test_a_hard_challenge_move_thought_in_slices_in_the_page_is_the_facades_move() -> None:
    """web/ai.py thinks for ``challenge_choose`` in slices, as for ``choose``:
    the answer is the one blocking call's (the same player on every phone)."""
    import importlib.util
    import json
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("chkobba_ai_challenge",
                                                  Path(__file__).resolve().parent.parent / "web" / "ai.py")
    assert spec and spec.loader
    ai: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ai)
    c = C.Challenge("chkobba", Session.new("chkobba", {"players": 2}, seed=7).record()["options"], 7, (None, "hard"),
                    {"won": True, "score": [11, 2], "games": [1, 0], "rounds": 3, "chkobbas": 0})
    st = ok("challenge_start", link=C.encode_challenge(c))
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        assert seat is not None
        if seat == 1 and len(s.legal()) > 1:
            break
        action = s.legal()[0] if seat == 0 else ok("challenge_choose", save=st["save"], seat=1)["action"]
        st = ok("act", action=action, seat=seat)
    payload = json.dumps({"save": st["save"], "seat": 1})
    task = ai.start("challenge_choose", payload)
    slices = 0
    while (out := task.step(2.0)) is None:
        slices += 1
    assert slices > 1
    assert json.loads(out) == json.loads(web.call("challenge_choose", payload))
    assert json.loads(out)["ok"] == {"action": str(C.computer_choice(c, web.table_session("main"), 1)), "level": "hard"}
