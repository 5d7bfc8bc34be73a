"""The one state answer (issue 20) speaks to its reader's seat (issue 21,
finding 4): play from here as the losing seat never reads "You win", and a
replay, read by a spectator, names the side that won."""

from __future__ import annotations

import json
import random
from typing import Any

from chkobba import links, web
from chkobba.records import parse_record
from chkobba.session import Session


def ok(name: str, **payload: Any) -> Any:
    out = json.loads(web.call(name, json.dumps(payload)))
    assert "ok" in out, out
    return out["ok"]


def finished(players: int, last_by_loser: bool) -> Session:
    """A finished one-game match won by side 0 whose last action was made by
    a seat of the losing side 1 (or of the winning side): seat 0 is not the
    reader, as a facade that words every result for seat 0 would assume."""
    for seed in range(200):
        s = Session.new("chkobba", {"players": players}, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice([t for t in s.legal() if not t.startswith("claim")]))
        winner = s.state.winner
        assert winner is not None
        if winner == 0 and (s.state.side_of(s.state.last_actor) != winner) == last_by_loser:
            return s
    raise AssertionError("no such match in 200 seeds")


def test_play_from_here_as_the_losing_seat_is_told_it_lost() -> None:
    for players, lost in ((2, "web.result.game_computer"), (4, "web.result.game_other_side")):
        s = finished(players, last_by_loser=True)
        rec = parse_record(s.record())
        last = rec.rounds[-1]
        at = (len(rec.rounds), len(last.actions) - 1)
        link = links.encode(links.Link(rec, at, "play", None, False))
        opened = ok("link_open", link=link, table="reader")
        reader = opened["reader"]
        assert reader == s.state.last_actor and s.state.side_of(reader) != s.state.winner
        done = ok("link_act", table="reader", action=last.actions[-1])
        result = done["state"]["sheet"]["result"]
        assert done["over"] and result["code"] == lost, result
        assert not result["text"].startswith("You") and not result["text"].startswith("Your")
        assert done["state"]["human"] == reader and done["state"]["spectator"] is False


def test_a_replay_is_worded_for_a_spectator() -> None:
    s = finished(2, last_by_loser=False)
    rec = parse_record(s.record())
    link = links.encode(links.Link(rec, None, "replay", None, False))
    opened = ok("link_open", link=link, table="replay")
    end = ok("link_step", table="replay", index=opened["count"] - 1)
    st = end["state"]
    result = st["sheet"]["result"]
    assert st["spectator"] is True and result["code"] == "web.result.game_side"
    assert result["text"].startswith(f"Side {s.state.winner + 1} wins the game")


def test_the_table_still_speaks_to_its_first_human() -> None:
    s = finished(2, last_by_loser=True)
    save = {"v": 2, "game": "chkobba", "record": s.record(), "seed": s.seed,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}
    st = ok("resume", save=save, table="first")
    want = "web.result.game_you" if s.state.winner == 0 else "web.result.game_computer"
    assert st["sheet"]["result"]["code"] == want and st["spectator"] is False


def test_a_person_across_the_table_is_not_the_computer() -> None:
    """Two people passing one phone: the one who lost reads "Your opponent
    wins", not "The computer wins" (seen in pass and play)."""
    s = finished(2, last_by_loser=True)
    record = s.record()
    last = record["rounds"][-1]["actions"][-1]
    record["rounds"][-1]["actions"] = record["rounds"][-1]["actions"][:-1]
    save = {"v": 2, "game": "chkobba", "record": record, "seed": s.seed,
            "seats": [{"kind": "human"}, {"kind": "human"}]}
    opened = ok("resume", save=save, table="rivals")
    loser = opened["to_act"]
    assert loser == s.state.last_actor and s.state.side_of(loser) != s.state.winner
    ok("reveal", table="rivals")                 # the phone is handed to the one to play the last card
    st = ok("act", table="rivals", action=last, seat=loser)
    assert st["human"] == loser                   # the summary is read by the one holding the phone
    result = st["sheet"]["result"]
    assert result["code"] == "web.result.game_opponent", result
    assert result["text"].startswith("Your opponent wins the game") and "computer" not in result["text"]


def test_your_own_moves_are_worded_for_you() -> None:
    """Issue 23: the reader's own moves read in the second person ("you lay
    5H", «إنت حطّيت»), in the moves of the round, the round before and the
    last move; another seat's, and every move of a replay, as they are."""
    from chkobba.messages import MESSAGES
    s = Session.new("chkobba", {"players": 2}, seed=4)
    rng = random.Random(4)
    while s.state.round_index < 1 or len(s.record()["rounds"][-1]["actions"]) < 6:
        s.apply(rng.choice(s.legal()))
    save = {"v": 2, "game": "chkobba", "record": s.record(), "seed": s.seed,
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}]}

    def check(st: dict[str, Any], reader: int | None) -> int:
        moves = st["moves"] + st["last_round_moves"] + [m for m in [st["view"]["last"]] if m is not None]
        mine = 0
        for m in moves:
            base = m["code"].replace("move.you.", "move.")
            you = "move.you." + base[len("move."):]
            if reader is not None and m["seat"] == reader and you in MESSAGES:
                assert m["code"] == you and m["text"] == web.render(you, m["params"]), m
                mine += 1
            else:
                assert not m["code"].startswith("move.you."), m
        return mine

    assert check(ok("resume", save=save, table="mine"), 0) > 0
    rec = parse_record(s.record())
    assert check(ok("link_open", table="watch", link=links.encode(links.Link(rec, None, "replay")))["state"], None) == 0
    watched = ok("link_step", table="watch", index=len(every(rec)) - 1)
    assert check(watched["state"], None) == 0
    at = (len(rec.rounds), len(rec.rounds[-1].actions))
    seat = Session.from_record(rec, seed=0, at=at).to_act()
    play = ok("link_open", table="seat", link=links.encode(links.Link(rec, at, "play", seat)))
    assert check(play["state"], seat) > 0


def every(rec: Any) -> list[tuple[int, int]]:
    from chkobba.positions import every_position
    return every_position(rec)
