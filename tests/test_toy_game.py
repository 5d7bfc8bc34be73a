"""A game is a package of its own: High Card (tests/toygame/), registered
here only, plays through the facade as the page calls it, and its record
and links round-trip, with no file outside its package and this test
knowing of it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chkobba import daily, links, registry
from chkobba.__main__ import main as command_line
from chkobba.errors import ChkobbaError
from chkobba.links import challenge as C
from chkobba.records import parse_record, replay, summary
from chkobba.session import Session
from facade_calls import err, ok
from toygame.game import GAME

TABLE = "toy"


@pytest.fixture
def toy() -> Iterator[None]:
    with registry.adding(GAME):
        yield


def test_the_toy_is_unknown_until_registered() -> None:
    assert "high_card" not in registry.GAMES
    assert err("describe", game="high_card")["code"] == "web.game"
    with pytest.raises(ChkobbaError):
        Session.new("high_card")


def test_the_registry_hands_out_the_toy_and_takes_it_back(toy: None) -> None:
    assert list(registry.GAMES) == ["chkobba", "seven_diamonds", "high_card"]
    assert registry.PLAYERS["high_card"] == (2,)
    assert "high_card" not in daily.GAMES            # it declares no daily deal
    with pytest.raises(ChkobbaError):
        daily.daily("2026-12-01", "high_card")
    with pytest.raises(ValueError):
        registry.register(GAME)                      # a name is registered once
    with pytest.raises(ValueError):
        registry.unregister("chkobba")               # the built-in games stay, at their indexes


def play_through_the_facade(seed: int, level: str = "medium") -> dict[str, Any]:
    """A whole match as the page plays it: the human seat plays a card of its
    hand, the computer's move comes from ``choose`` on the save."""
    st = ok("start", table=TABLE, game="high_card", seed=seed,
            seats=[{"kind": "human"}, {"kind": "computer", "level": level}])
    rng = random.Random(seed)
    for _ in range(200):
        if st["to_act"] is None:
            return st
        seat = st["to_act"]
        if st["to_act_kind"] == "computer":
            text = ok("choose", table=TABLE, save=st["save"], seat=seat)["action"]
        else:
            assert st["words"] == [] and st["view"]["hand"]
            text = rng.choice(st["view"]["hand"])
        st = ok("act", table=TABLE, action=text, seat=seat)
        assert ok("state", table=TABLE) == st
    raise AssertionError("the match did not end")


def test_a_match_plays_through_the_facade(toy: None) -> None:
    d = ok("describe")
    facts = next(g for g in d["games"] if g["game"] == "high_card")
    assert facts == {"game": "high_card", "name": "High Card", "available": True, "players": [2],
                     "options": facts["options"], "daily": False, "sweeps": False, "timers": [20, 20]}
    assert [o["name"] for o in facts["options"]] == ["players", "target"]
    assert ok("messages")["messages"]["high_card.deck"].startswith("a High Card deck")
    st = play_through_the_facade(seed=3)
    assert st["game"] == "high_card" and st["sheet"]["over"]
    winner = st["sheet"]["winner"]
    assert st["sheet"]["score"][winner] == 2 and st["summary"]["winner"] == winner
    assert st["sheet"]["result"]["code"] in ("web.result.game_you", "web.result.game_computer")
    assert st["high_card"] == {"trick": []}
    assert err("act", table=TABLE, action="2D", seat=0)["code"] == "web.game_over"


def test_its_record_replays_and_its_links_round_trip(toy: None, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    st = play_through_the_facade(seed=8)
    record = st["save"]["record"]
    assert record["game"] == "high_card"
    # the strict reader and ``python -m chkobba replay`` (its contract: the summary as JSON on stdout)
    end = replay(parse_record(json.dumps(record)))
    assert summary(end) == st["summary"]
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert command_line(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == st["summary"]
    # a game link of the record, read back as written
    text = links.encode(record)
    assert links.decode_record(text).to_json() == parse_record(record).to_json()
    opened = ok("link_open", table="toy-embed", link=text)      # the embed page replays it
    assert opened["game"] == opened["state"]["game"] == "high_card" and opened["mode"] == "replay"
    last = ok("link_step", table="toy-embed", index=opened["count"] - 1)
    assert last["state"]["summary"] == st["summary"]
    # a challenge link: the seed, the seats and the sender's result (the toy's result fields)
    session = Session.from_record(record, seed=st["save"]["seed"])
    result = C.match_result(session, 0)
    c = C.Challenge("high_card", record["options"], st["save"]["seed"], (None, "medium"), result, 0)
    assert C.decode_challenge(C.encode_challenge(c)) == c
    started = ok("challenge_start", table=TABLE, link=C.encode_challenge(c))
    assert started["game"] == "high_card" and started["sender"]["result"] == result


def test_its_finished_match_counts_in_the_statistics(toy: None) -> None:
    st = play_through_the_facade(seed=5, level="hard")    # the search, on the toy's model
    added = ok("stats_add", table=TABLE, save=st["save"], at=1_764_500_000_000)
    row = next(r for r in added["rows"] if r["game"] == "high_card")
    assert row["matches"] == 1 and row["chkobbas"] is None and row["variant"] == {"players": 2, "target": 2}
    assert row["game_label"]["code"] == "stats.game.high_card"


def test_the_errors_that_list_the_games_name_it(toy: None) -> None:
    with pytest.raises(ChkobbaError) as e:
        parse_record('{"game": "poker", "options": {}, "first_dealer": 0, "rounds": []}')
    assert str(e.value) == 'record: "game" must be one of the games (known: chkobba, seven_diamonds, high_card), not "poker"'
    with pytest.raises(ChkobbaError) as e:
        daily.daily("2026-12-01", "high_card")
    assert str(e.value) == '"high_card" has no daily deal (the daily games: chkobba, seven_diamonds)'


def test_the_registry_is_as_it_was_after_the_toy() -> None:
    assert list(registry.GAMES) == ["chkobba", "seven_diamonds"]
    assert [g["game"] for g in ok("describe")["games"]] == ["chkobba", "seven_diamonds"]
    assert "high_card.deck" not in ok("messages")["messages"]
