"""The facade's Seven Diamonds parts and pass-and-play (docs/facade.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from chkobba import web
from chkobba.games.seven_diamonds.constants import POINTS
from chkobba.cards import CODES
from chkobba.session import Session
from facade_calls import ok, err


@pytest.fixture(autouse=True)
def fresh_tables() -> None:
    web.reset_tables()


EASY = {"kind": "computer", "level": "easy"}


def step(st: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One move: a computer's choice, or a random legal choice for the human shown."""
    seat = st["to_act"]
    if st["handoff"] is not None:
        st = ok("reveal")
        assert st["handoff"] is None
    if st["seats"][seat]["kind"] == "computer":
        action = web.choose(st["save"], seat)["action"]
    else:
        assert st["human"] == seat
        if st["view"]["phase"] == "calls":
            action = rng.choice([w["action"] for w in st["words"]])
        else:
            action = rng.choice(st["seven"]["playable"])
    return ok("act", action=action, seat=seat)


def test_a_whole_game_with_the_facade_saying_what_is_legal() -> None:
    rng = random.Random(5)
    st = ok("start", game="seven_diamonds", seed=11, seats=[{"kind": "human"}, EASY, EASY, EASY],
            options={"timers": False, "target": 300})
    assert st["sides"] == [[0, 2], [1, 3]] and st["handoff"] is None
    calls_seen = set()
    for _ in range(3000):
        if st["to_act"] is None:
            break
        session = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
        legal = [str(a) for a in session.legal()]
        assert "timeout" not in legal and st["seven"]["timer"] is None
        if st["to_act"] == 0:
            if st["view"]["phase"] == "calls":
                words = [w["action"] for w in st["words"]]
                assert sorted(words) == sorted(legal)
                calls_seen.update(words)
                for w in st["words"]:
                    assert w["arabic"] == {"pass": "", "double": "\u062f\u0628\u0644", "triple": "\u062b\u0631\u064a"}[w["action"]]
                order = st["seven"]["speaking_order"]
                assert order[0] == (st["view"]["dealer"] + 1) % 4 and sorted(order) == [0, 1, 2, 3]
            else:
                assert st["words"] == []
                assert sorted(st["seven"]["playable"]) == sorted(legal)
                assert set(st["seven"]["playable"]) <= set(st["view"]["hand"])
        else:
            assert st["words"] == [] and st["seven"]["playable"] == []
        before = len(st["sheet"]["rounds"])
        st = step(st, rng)
        if len(st["sheet"]["rounds"]) > before:
            res = st["seven"]["last_result"]
            round_ = st["sheet"]["rounds"][-1]
            assert res["points"] == round_["points"]
            assert sum(h["total"] for h in res["hands"]) == res["cards"]
            for h in res["hands"]:
                assert h["losing"] == (h["seat"] % 2 != res["winner_team"])
                want = [POINTS[CODES.index(c)] if h["losing"] else 0 for c in h["cards"]]
                assert h["points"] == want
            assert max(res["points"]) == (res["cards"] + res["bonus"]) * res["multiplier"]
    assert st["to_act"] is None and st["sheet"]["over"] and st["sheet"]["result"]
    assert "double" in calls_seen and "pass" in calls_seen


def test_timers_are_offered_as_the_engine_says() -> None:
    st = ok("start", game="seven_diamonds", seed=3)
    while st["to_act"] != 0:
        st = ok("act", action=web.choose(st["save"], st["to_act"])["action"], seat=st["to_act"])
    assert st["seven"]["timer"] == {"kind": "call", "seconds": 10} and st["seven"]["timeout"] is True
    assert "timeout" not in [w["action"] for w in st["words"]]
    after = ok("act", action="timeout", seat=0)
    kinds = [m["kind"] for m in after["moves"] if m["seat"] == 0]
    assert kinds[:2] == ["timeout", "pass"]


def test_at_least_one_human_any_seat() -> None:
    assert err("start", game="seven_diamonds", seats=[EASY] * 4)["code"] == "web.no_human"
    st = ok("start", game="seven_diamonds", seed=2, seats=[EASY, EASY, {"kind": "human"}, EASY])
    assert st["human"] == 2 and st["humans"] == [2] and st["handoff"] is None
    assert len(st["view"]["hand"]) == 8


@pytest.mark.parametrize("game,players", [("seven_diamonds", 4), ("chkobba", 2), ("chkobba", 4)])
def test_pass_and_play_never_shows_a_hand_to_the_wrong_player(game: str, players: int) -> None:
    seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}] + [EASY] * (players - 2)
    st = ok("start", game=game, seed=9, seats=seats, options={"players": players})
    assert st["handoff"] is not None and st["view"]["hand"] == [] and st["words"] == []
    rng = random.Random(1)
    handoffs = 0
    for _ in range(400):
        if st["to_act"] is None:
            break
        seat = st["to_act"]
        if st["handoff"] is None and seats[seat]["kind"] == "human" and seat != st["human"]:
            # a move ended the round: its mover read the summary; then the page hands off
            assert st["moves"][-1]["round_ended"] is True
            st = ok("hand_off")
        if st["handoff"] is not None:
            handoffs += 1
            assert st["view"]["hand"] == [] and not st.get("seven", {}).get("playable")
            if seats[seat]["kind"] == "human":
                assert err("act", action="pass", seat=seat)["code"] == "web.hidden"
            st = ok("reveal")
        viewer = st["human"]
        session = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
        # the hand shown is the viewer's own, and the viewer is a human
        assert seats[viewer]["kind"] == "human"
        assert st["view"]["hand"] == session.view(viewer)["hand"]
        if seats[seat]["kind"] == "human":
            assert viewer == seat
            action = str(rng.choice(session.legal()))
        else:
            action = web.choose(st["save"], seat)["action"]
        nxt = ok("act", action=action, seat=seat)
        # a different human to act: hidden until they tap (after the round's summary
        # when the move ended a round: the mover keeps the view until then)
        if nxt["to_act"] is not None and seats[nxt["to_act"]]["kind"] == "human" and nxt["to_act"] != viewer:
            if nxt["moves"][-1]["round_ended"] is True:
                assert nxt["handoff"] is None and nxt["human"] == viewer
            else:
                assert nxt["handoff"] == nxt["to_act"] and nxt["view"]["hand"] == []
        st = nxt
    assert handoffs >= 3
    # a resumed pass-and-play game starts hidden
    again = ok("resume", save=st["save"])
    assert again["handoff"] is not None and again["view"]["hand"] == []


@pytest.mark.parametrize("game,players", [("chkobba", 4), ("seven_diamonds", 4)])
def test_pass_and_play_round_end_is_read_by_the_player_holding_the_device(game: str, players: int) -> None:
    """Issue 23: after the last move of a round the facade handed the view to
    the next person at once, so the summary was worded for them while the
    table behind it showed the mover's. Now the mover keeps the view (the
    round's end, its summary and its result are theirs to read) until the
    page asks ``hand_off`` when the summary closes."""
    seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}] + [EASY] * (players - 2)
    rng = random.Random(3)
    for seed in range(6):
        st = ok("start", game=game, seed=seed, seats=seats, options={"players": players})
        while st["to_act"] is not None and not st["sheet"]["rounds"]:
            seat = st["to_act"]
            if st["handoff"] is not None:
                st = ok("reveal")
            holder = st["human"]
            session = Session.from_record(st["save"]["record"], seed=st["save"]["seed"])
            action = str(rng.choice(session.legal())) if seats[seat]["kind"] == "human" \
                else web.choose(st["save"], seat)["action"]
            st = ok("act", action=action, seat=seat)
        after = st["to_act"]
        if after is None or seats[after]["kind"] != "human" or after == holder:
            continue                          # no hand-off due at this round's end
        # the round's end, read by whoever holds the device, with the new score
        assert st["human"] == holder and st["handoff"] is None and st["moves"][-1]["round_ended"]
        assert st["sheet"]["rounds"][-1]["running"] == st["sheet"]["score"] or st["sheet"]["rounds"][-1]["game_over"]
        assert st["view"]["hand"] == Session.from_record(st["save"]["record"], seed=st["save"]["seed"]) \
            .view(holder)["hand"]
        legal = Session.from_record(st["save"]["record"], seed=st["save"]["seed"]).legal()
        assert err("act", action=legal[0], seat=after)["code"] == "web.hidden"   # not before the hand-off
        assert ok("state") == st                                                  # and nothing changed
        handed = ok("hand_off")
        assert handed["handoff"] == after and handed["human"] == after and handed["view"]["hand"] == []
        assert ok("hand_off") == handed                       # nothing more to hand over
        shown = ok("reveal")
        assert shown["handoff"] is None and shown["human"] == after
        return
    raise AssertionError("no round ended with a hand-off due")
