"""Results re-derived, not read (issue 37), through the facade's calls: a
daily or challenge result is what replaying the save from the day's (or the
link's) seed and options gives, with every computer move the fixed-budget
computer's move at that position. A save that differs in its deck, options,
seats, levels, take-backs or a computer's move gets one clear error
(``web.check.*``), counts nowhere and makes no result link."""

from __future__ import annotations

import copy
from typing import Any, Callable, Iterator

import pytest

from chkobba import daily as D
from chkobba import web
from chkobba.links import challenge as C
from facade_calls import call, err, ok

DATE = "2026-12-01"
NOON = 1_796_126_400          # 2026-12-01 12:00 UTC


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    web.reset_tables()
    yield
    web.reset_tables()


def play(st_: dict[str, Any], choose: str, computer: Callable[[Any, int], str] | None = None,
         pick: int = 0) -> dict[str, Any]:
    """Play the round (daily) or the match (challenge) out at the main table:
    the person the ``pick``-th legal action; the computers by the ``choose``
    call, or by ``computer(session, seat)`` (a cheat: the player choosing
    the computer's moves)."""
    daily = "daily" in st_["save"]
    while True:
        s = web.table_session("main")
        seat = s.to_act()
        if seat is None or (daily and D.round_over(s)):
            return st_
        if st_["seats"][seat]["kind"] == "computer":
            action = (computer(s, seat) if computer is not None
                      else ok(choose, save=st_["save"], seat=seat)["action"])
        else:
            legal = s.legal()
            action = legal[pick % len(legal)]
        st_ = ok("act", action=action, seat=seat)


def resumed(save: dict[str, Any]) -> dict[str, Any]:
    web.reset_tables()
    return ok("resume", save=save)   # type: ignore[no-any-return]


def refused(save: dict[str, Any], code: str) -> dict[str, Any]:
    """The save's result is refused in words: no result, no statistics, no link."""
    out = err("daily_result", save=save, stats=None, at=NOON)
    assert out["code"] == code, out
    assert "does not count" in out["error"]
    again = err("daily_par", date=DATE, save=save)
    assert again["code"] == code
    return out


def test_an_honest_round_is_checked_and_counts() -> None:
    st_ = play(ok("daily_start", date=DATE, at=NOON), "daily_choose")
    out = ok("daily_result", save=st_["save"], stats=None, at=NOON)
    assert out["vs"] and out["stats"]["daily"]["days"][0][0] == DATE
    # the same after a reload, the computers' decisions then thought again, in steps
    web.reset_tables()
    steps = 0
    while not (step := ok("daily_par_step", date=DATE, save=st_["save"]))["done"]:
        steps += 1
    assert steps >= 9 and step["decisions"] >= 9      # one computer decision a step
    assert ok("daily_result", save=st_["save"], stats=None, at=NOON)["result"] == out["result"]


def test_a_stacked_deck_is_refused() -> None:
    save = ok("daily_start", date=DATE, at=NOON)["save"]
    deck = save["record"]["rounds"][0]["decks"][0]
    stacked = copy.deepcopy(save)
    stacked["record"]["rounds"][0]["decks"][0] = deck[::-1]
    st_ = play(resumed(stacked), "daily_choose")
    out = refused(st_["save"], "web.check.cards")
    assert "cards" in out["error"]


@pytest.mark.parametrize("change", ["options", "easy", "human"])
def test_other_options_or_players_are_refused(change: str) -> None:
    st_ = play(ok("daily_start", date=DATE, at=NOON), "daily_choose")
    cheat = copy.deepcopy(st_["save"])
    if change == "options":
        cheat["record"]["options"]["target"] = 21
    elif change == "easy":
        cheat["seats"][1] = {"kind": "computer", "level": "easy"}
    else:
        cheat["seats"][1] = {"kind": "human"}
    refused(cheat, "web.check.options" if change == "options" else "web.check.seats")


def not_the_computers(choose: Any, pick: int = 0) -> Any:
    """The cheat: a chooser of the computer's moves that plays the ``pick``-th
    legal move other than ``choose(session, seat)`` (the fixed-budget
    computer's) wherever there is one."""
    def worst(s: Any, seat: int) -> str:
        best = str(choose(s, seat))
        others = [a for a in s.legal() if a != best]
        return others[pick] if others else best
    return worst


def test_computer_moves_chosen_by_the_player_are_refused() -> None:
    deal = D.daily(DATE, "chkobba")
    worst = not_the_computers(lambda s, seat: D.computer_choice(deal, s, seat), pick=-1)
    st_ = play(ok("daily_start", date=DATE, at=NOON), "daily_choose", computer=worst)
    out = refused(st_["save"], "web.check.move")
    assert out["params"]["round"] == 1 and "computer's move" in out["error"]


def test_a_save_with_takebacks_is_refused() -> None:
    st_ = play(ok("daily_start", date=DATE, at=NOON), "daily_choose")
    cheat = dict(st_["save"], takebacks=5)
    out = refused(cheat, "web.check.takebacks")
    assert out["params"]["count"] == 5


def test_a_sliced_check_of_a_cheat_ends_in_its_error() -> None:
    st_ = play(ok("daily_start", date=DATE, at=NOON), "daily_choose")
    cheat = dict(st_["save"], takebacks=2)
    assert err("daily_par_step", date=DATE, save=cheat)["code"] == "web.check.takebacks"


# ---------------------------------------------------------------- challenges

SEATS = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]


def challenge_table() -> dict[str, Any]:
    first = play(ok("start", game="chkobba", options={"players": 2}, seats=SEATS, seed=21), "choose")
    link = ok("challenge_link", save=first["save"])["link"]
    web.reset_tables()
    return ok("challenge_start", link=link)   # type: ignore[no-any-return]


def test_a_challenge_whose_computer_moves_the_player_chose_is_refused() -> None:
    c_st = challenge_table()
    c = C.decode_challenge(c_st["save"]["challenge"])

    st_ = play(c_st, "challenge_choose", computer=not_the_computers(lambda s, seat: C.computer_choice(c, s, seat)))
    out = err("challenge_result", save=st_["save"])
    assert out["code"] == "web.check.move" and "does not count" in out["error"]


def test_an_honest_challenge_is_checked_and_one_with_takebacks_is_refused() -> None:
    st_ = play(challenge_table(), "challenge_choose")
    assert ok("challenge_result", save=st_["save"])["verdict"] in (-1, 0, 1)
    web.reset_tables()            # a fresh page: the computers' decisions are thought again
    assert ok("challenge_result", save=st_["save"])["verdict"] in (-1, 0, 1)
    out = err("challenge_result", save=dict(st_["save"], takebacks=3))
    assert out["code"] == "web.check.takebacks"


def test_a_cheated_challenge_counts_nowhere_in_the_statistics() -> None:
    c_st = challenge_table()
    c = C.decode_challenge(c_st["save"]["challenge"])

    st_ = play(c_st, "challenge_choose", computer=not_the_computers(lambda s, seat: C.computer_choice(c, s, seat)))
    out = err("stats_add", save=st_["save"], stats=None, at=1)
    assert out["code"] == "web.check.move"
    honest = play(challenge_table(), "challenge_choose")
    assert ok("stats_add", save=honest["save"], stats=None, at=1)["added"] is True


def test_a_challenges_check_is_thought_in_slices_before_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a reload, a finished challenge's computer moves are thought again
    one a ``challenge_check_step`` (web/ai.py slices each): ``challenge_result``
    and ``stats_add`` then think nothing, so the page never freezes on them."""
    st_ = play(challenge_table(), "challenge_choose")
    web.reset_tables()            # a fresh page: no decision remembered
    calls: list[int] = []
    real = C.computer_choice

    def counted(c: Any, session: Any, seat: int) -> Any:
        calls.append(1)
        return real(c, session, seat)
    monkeypatch.setattr(C, "computer_choice", counted)
    steps = 0
    while True:
        before = len(calls)
        step = ok("challenge_check_step", save=st_["save"])
        assert len(calls) - before <= 1, "one decision a step"
        steps += 1
        if step["done"]:
            break
    assert calls and step["decisions"] == len(calls) and steps >= len(calls)
    thought = len(calls)
    assert ok("challenge_result", save=st_["save"])["verdict"] in (-1, 0, 1)
    assert ok("stats_add", save=st_["save"], stats=None, at=1)["added"] is True
    assert len(calls) == thought, "the result thought again"


def test_a_challenges_check_step_refuses_a_cheat_in_words() -> None:
    c_st = challenge_table()
    c = C.decode_challenge(c_st["save"]["challenge"])
    st_ = play(c_st, "challenge_choose", computer=not_the_computers(lambda s, seat: C.computer_choice(c, s, seat)))
    for _ in range(200):
        out = call("challenge_check_step", save=st_["save"])
        if "error" in out or out["ok"]["done"]:
            break
    assert out["code"] == "web.check.move" and "does not count" in out["error"]
    assert err("challenge_check_step", save=dict(st_["save"], takebacks=2))["code"] == "web.check.takebacks"
