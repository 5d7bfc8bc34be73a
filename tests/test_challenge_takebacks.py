"""A challenge says what the sender did (issue 37): the link records how
many moves the sender took back, and the friend's page is told it by the
facade's answers (``challenge_link``, ``challenge_start``,
``challenge_result``); an ``x1.`` link made before says nothing (null)."""

from __future__ import annotations

import base64
import zlib
from typing import Any, Iterator

import pytest

from chkobba import web
from chkobba.links import challenge as C
from chkobba.links.codec import InvalidLink
from facade_calls import err, ok

SEATS = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def to_end(st_: dict[str, Any], takebacks: int = 0) -> dict[str, Any]:
    """Play the match out: the person the first legal action, the computer by
    ``choose``; ``takebacks`` times, the person's move is taken back first."""
    left = takebacks
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        if seat is None:
            return st_
        if st_["seats"][seat]["kind"] == "computer":
            st_ = ok("act", action=ok("choose", save=st_["save"], seat=seat)["action"], seat=seat)
            continue
        st_ = ok("act", action=s.legal()[0], seat=seat)
        if left and st_["takeback"]["allowed"]:
            st_ = ok("take_back")
            left -= 1


def test_the_senders_takebacks_travel_in_the_link_to_the_friends_table() -> None:
    st_ = to_end(ok("start", game="chkobba", options={"players": 2}, seats=SEATS, seed=11), takebacks=5)
    made = st_["save"].get("takebacks", 0)
    assert made >= 1
    out = ok("challenge_link", save=st_["save"])
    assert out["takebacks"] == made
    assert C.decode_challenge(out["link"]).takebacks == made          # in the link itself
    web.reset_tables()
    friend = ok("challenge_start", link=out["link"])
    assert friend["sender"] == {"result": out["result"], "takebacks": made, "checked": True}
    end = to_end(friend)
    res = ok("challenge_result", save=end["save"])
    assert res["sender_takebacks"] == made


def test_no_takebacks_say_zero_and_an_old_link_says_nothing() -> None:
    st_ = to_end(ok("start", game="chkobba", options={"players": 2}, seats=SEATS, seed=12))
    out = ok("challenge_link", save=st_["save"])
    assert out["takebacks"] == 0 and out["link"].startswith("x3.")
    assert ok("challenge_start", link=out["link"])["sender"]["takebacks"] == 0
    # an x1. link (made before the count was written): read, the count unsaid
    c = C.decode_challenge(out["link"])
    v1 = _x1(c)
    old = C.decode_challenge(v1)
    assert old.takebacks is None and old.result == c.result and old.seed == c.seed
    assert ok("challenge_start", link=v1)["sender"]["takebacks"] is None


def _x1(c: C.Challenge) -> str:
    """The version 1 text of a challenge (no take-backs field), as the site wrote it before."""
    from chkobba.links.codec import _Writer, _write_options
    w = _Writer()
    w.write(C.GAMES.index(c.game), 2)
    _write_options(w, c.game, c.options)
    w.number(c.seed)
    for level in c.seats:
        w.write(0 if level is None else C.LEVELS.index(level) + 1, 2)
    C._write_result(w, C._MATCH_FIELDS[c.game], c.result, options=c.options)
    body = w.finish()
    crc = zlib.crc32(b"x1." + body)
    return "x1." + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")


def test_a_takebacks_count_no_save_can_hold_is_not_written() -> None:
    c = C.decode_challenge(ok("challenge_link", save=to_end(ok("start", game="chkobba", options={"players": 2},
                                                                 seats=SEATS, seed=13))["save"])["link"])
    for bad in (-1, C.MAX_NUMBER + 1, None, True):
        with pytest.raises(InvalidLink) as e:
            C.encode_challenge(C.Challenge(c.game, c.options, c.seed, c.seats, c.result, bad))
        assert e.value.code == "link.result"
    assert err("challenge_start", link="x4.AAAA")["code"] == "link.challenge.version"
