"""Result links anyone can check (issue 37): a daily result (``r2.``) or a
challenge (``x3.``) carries the sender's moves, written as game links write
their actions; the friend's page replays them from the deal's cards and shows
the result as checked only when they give the result claimed (and, in a daily
deal, every computer move is the daily computer's). A link made before moves
were carried (``r1.``, ``x2.``) still opens, shown not checked; one whose
moves give another result is refused (``link.result_moves``)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from chkobba import daily as D
from chkobba import web
from chkobba.links import challenge as C
from chkobba.links.codec import _Writer
from facade_calls import err, ok
from test_challenge import SEATS, play_match
from test_results_links import _seal
from test_results_rederive import DATE, NOON, play


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def _round(game: str = "chkobba", pick: int = 0) -> dict[str, Any]:
    """A daily round played through the facade and its result (with its link)."""
    web.reset_tables()
    st_ = play(ok("daily_start", date=DATE, game=game, at=NOON), "daily_choose", pick=pick)
    return ok("daily_result", save=st_["save"], stats=None, at=NOON)   # type: ignore[no-any-return]


def _forged_daily(game: str, claim: dict[str, Any], moves: list[str]) -> str:
    """An ``r2.`` text claiming ``claim`` with these moves, sealed as the site seals one."""
    w = _Writer()
    w.write(C.GAMES.index(game), 2)
    w.number((D.parse_date(DATE) - C._EPOCH).days)
    C._write_result(w, C._DAILY_FIELDS[game], claim, daily=game)
    C._write_moves(w, D.daily(DATE, game).session(), moves)
    return _seal(C.RESULT_MOVES_PREFIX, w)


def _other_claim(you: dict[str, Any]) -> dict[str, Any]:
    """A result a round can have (arithmetic alone accepts it) that is not ``you``."""
    if "chkobbas" in you:
        return {**you, "points": you["points"] + 1, "chkobbas": you["chkobbas"] + 1}
    total = (you["cards"] + you["bonus"]) * (you["multiplier"] % 3 + 1)
    other = {**you, "multiplier": you["multiplier"] % 3 + 1}
    other.update({"points": total, "other": 0} if you["won"] else {"points": 0, "other": total})
    return other


@pytest.mark.parametrize("game", D.GAMES)
def test_a_real_daily_result_link_carries_its_moves_and_is_checked(game: str) -> None:
    sender = _round(game)
    vs = sender["vs"]
    assert vs.startswith(C.RESULT_MOVES_PREFIX) and len(vs) < 120
    assert C.decode_result(vs, DATE, game) == sender["result"]["you"]
    web.reset_tables()
    ok("daily_start", date=DATE, game=game, at=NOON, vs=vs)
    st_ = play(ok("state"), "daily_choose", pick=1)
    out = ok("daily_result", save=st_["save"], stats=None, at=NOON, vs=vs)
    assert out["friend"] == sender["result"]["you"] and out["friend_checked"] is True


@pytest.mark.parametrize("game", D.GAMES)
def test_a_daily_link_whose_moves_give_another_result_is_refused(game: str) -> None:
    sender = _round(game)
    you = sender["result"]["you"]
    moves = web.table_session("main").record()["rounds"][0]["actions"]
    forged = _forged_daily(game, _other_claim(you), moves)
    out = err("daily_start", date=DATE, game=game, at=NOON, vs=forged)
    assert out["code"] == "link.result_moves" and "do not give the result" in out["error"]
    with pytest.raises(C.InvalidLink) as e:
        C.encode_result(DATE, game, _other_claim(you), D.daily(DATE, game).session(), moves,
                        lambda s: D.round_result(D.daily(DATE, game), s.summary()["rounds"][0]))
    assert e.value.code == "link.result_moves"
    # the same moves with the true claim read, and moves cut short are refused
    assert ok("daily_start", date=DATE, game=game, at=NOON, vs=_forged_daily(game, you, moves))
    web.reset_tables()
    assert err("daily_start", date=DATE, game=game, at=NOON,
               vs=_forged_daily(game, you, moves[:-1]))["code"] == "link.result_moves"


def test_an_old_daily_link_without_moves_is_shown_not_checked() -> None:
    sender = _round("chkobba")
    old = C.encode_result(DATE, "chkobba", sender["result"]["you"])
    assert old.startswith(C.RESULT_PREFIX)
    web.reset_tables()
    ok("daily_start", date=DATE, game="chkobba", at=NOON, vs=old)
    st_ = play(ok("state"), "daily_choose", pick=1)
    out = ok("daily_result", save=st_["save"], stats=None, at=NOON, vs=old)
    assert out["friend"] == sender["result"]["you"] and out["friend_checked"] is False


def _sender_match() -> tuple[dict[str, Any], dict[str, Any]]:
    st_ = ok("start", game="chkobba", options={"players": 2}, seats=SEATS, seed=42)
    st_ = play_match(st_, "choose")
    return st_, ok("challenge_link", save=st_["save"])


def test_a_real_challenge_carries_the_moves_and_is_checked() -> None:
    st_, made = _sender_match()
    link = made["link"]
    assert link.startswith(C.CHALLENGE_MOVES_PREFIX) and made["checked"] is True and len(link) < 300
    c = C.decode_challenge(link)
    assert c.moves == tuple(a for r in st_["save"]["record"]["rounds"] for a in r["actions"])
    friend = ok("challenge_start", link=link, table="main")
    assert friend["sender"]["checked"] is True
    friend = play_match(friend, "challenge_choose")
    out = ok("challenge_result", save=friend["save"])
    assert out["sender_checked"] is True and out["theirs"] == made["result"]


def test_a_challenge_whose_moves_give_another_result_is_refused() -> None:
    _, made = _sender_match()
    c = C.decode_challenge(made["link"])
    res = dict(c.result)
    res["chkobbas"] = res["chkobbas"] + 1   # arithmetic alone accepts it
    with pytest.raises(C.InvalidLink) as e:
        C.encode_challenge(C.Challenge(c.game, c.options, c.seed, c.seats, res, c.takebacks, c.moves))
    assert e.value.code == "link.result_moves"
    # written by hand past the writer's check
    w = _Writer()
    from chkobba.links.codec import _write_options
    w.write(C.GAMES.index(c.game), 2)
    _write_options(w, c.game, c.options)
    w.number(c.seed)
    for level in c.seats:
        w.write(0 if level is None else C.LEVELS.index(level) + 1, 2)
    C._write_result(w, C._MATCH_FIELDS[c.game], res, options=c.options)
    w.number(0)
    assert c.moves is not None
    C._write_moves(w, c.session(), c.moves)
    forged = _seal(C.CHALLENGE_MOVES_PREFIX, w)
    web.reset_tables()
    out = err("challenge_start", link=forged)
    assert out["code"] == "link.result_moves" and "do not give the result" in out["error"]
    assert err("state")["code"]   # no table was made


def test_an_old_challenge_without_moves_is_shown_not_checked() -> None:
    _, made = _sender_match()
    c = C.decode_challenge(made["link"])
    old = C.encode_challenge(C.Challenge(c.game, c.options, c.seed, c.seats, c.result, c.takebacks))
    assert old.startswith(C.CHALLENGE_PREFIX)
    friend = ok("challenge_start", link=old, table="main")
    assert friend["sender"]["checked"] is False
    friend = play_match(friend, "challenge_choose")
    assert ok("challenge_result", save=friend["save"])["sender_checked"] is False


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the daily computer's searches from now on."""
    calls: list[int] = []
    real = D.computer_choice

    def counted(deal: D.Daily, session: Any, seat: int | None = None) -> Any:
        calls.append(1)
        return real(deal, session, seat)
    monkeypatch.setattr(D, "computer_choice", counted)
    return calls


def test_a_friends_daily_check_is_thought_in_slices_before_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """The friend's moves are re-derived one decision a ``daily_par_step``
    (as par and one's own check are): ``daily_result`` then thinks nothing,
    so a slow phone never freezes on a friend's link."""
    sender = _round("chkobba")
    vs = sender["vs"]
    web.reset_tables()   # a fresh page: nothing of the sender's round is remembered
    ok("daily_start", date=DATE, game="chkobba", at=NOON, vs=vs)
    st_ = play(ok("state"), "daily_choose", pick=1)
    calls = _counting(monkeypatch)
    steps = 0
    while True:
        before = len(calls)
        out = ok("daily_par_step", date=DATE, game="chkobba", at=NOON, save=st_["save"], vs=vs)
        assert len(calls) - before <= 1, "one decision a step"
        steps += 1
        if out["done"]:
            break
    assert calls and steps > len(calls), "the friend's computer moves are thought again, one a step"
    at_result = len(calls)
    res = ok("daily_result", save=st_["save"], stats=None, at=NOON, vs=vs)
    assert len(calls) == at_result, "daily_result thought again"
    assert res["friend"] == sender["result"]["you"] and res["friend_checked"] is True
    assert res["friend_refused"] is None


def test_a_friends_forged_computer_moves_are_said_and_do_not_cost_your_result() -> None:
    """A friend's link whose computer moves are not the daily computer's:
    your result still counts and gets its link; the friend's is not shown,
    and the answer says why in words (``friend_refused``)."""
    deal = D.daily(DATE, "chkobba")
    s = deal.session()
    while not D.round_over(s):   # the sender chose the computer's moves too
        s.apply(s.legal()[0])
    you = D.round_result(deal, s.summary()["rounds"][0])
    forged = _forged_daily("chkobba", you, s.record()["rounds"][0]["actions"])
    ok("daily_start", date=DATE, game="chkobba", at=NOON, vs=forged)
    st_ = play(ok("state"), "daily_choose", pick=1)
    while not ok("daily_par_step", date=DATE, game="chkobba", at=NOON, save=st_["save"], vs=forged)["done"]:
        pass
    out = ok("daily_result", save=st_["save"], stats=None, at=NOON, vs=forged)
    assert out["friend"] is None and out["friend_checked"] is False
    assert out["friend_refused"]["code"] == "web.check.move"
    assert out["vs"] and out["stats"]["daily"], "your own result counts and gets its link"
