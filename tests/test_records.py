"""Game records: the examples, golden records, the replay command and its errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chkobba.errors import InvalidRecord
from chkobba.records import parse_record, replay, summary
from chkobba.session import Session

HERE = Path(__file__).parent
EXAMPLES = HERE / "examples"     # the project's copies of the shared folder's examples
# the shared project folder beside the repository (CHKOBBA_SHARED names it elsewhere)
SHARED = Path(os.environ.get("CHKOBBA_SHARED", HERE.parent.parent / "shared")) / "examples"
GOLDEN = HERE / "golden"


def _pairs() -> list[tuple[Path, Path]]:
    out = []
    for d in (EXAMPLES, GOLDEN):
        for rec in sorted(d.glob("*.json")):
            if rec.name.endswith(".expected.json"):
                continue
            exp = rec.with_name(rec.name[:-5] + ".expected.json")
            if exp.exists():
                out.append((rec, exp))
    return out


PAIRS = _pairs()


def test_examples_found() -> None:
    assert len([p for p in PAIRS if p[0].parent == GOLDEN]) >= 1
    assert len([p for p in PAIRS if p[0].parent == EXAMPLES]) == 3


@pytest.mark.skipif(not SHARED.exists(), reason="no shared folder beside the repository")
def test_examples_are_the_shared_ones() -> None:
    """tests/examples/ holds the shared folder's records byte for byte (its README is ours)."""
    ours = sorted(p.name for p in EXAMPLES.glob("*.json"))
    theirs = sorted(p.name for p in SHARED.glob("*.json"))
    assert ours == theirs
    for name in ours:
        assert (EXAMPLES / name).read_bytes() == (SHARED / name).read_bytes(), name


@pytest.mark.parametrize("rec,exp", PAIRS, ids=[p[0].stem for p in PAIRS])
def test_record_replays_to_expected(rec: Path, exp: Path) -> None:
    data = json.loads(rec.read_text())
    assert summary(replay(data)) == json.loads(exp.read_text())


@pytest.mark.parametrize("rec,exp", PAIRS[:1] + PAIRS[-1:], ids=["first", "last"])
def test_replay_command(rec: Path, exp: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "chkobba", "replay", str(rec)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(exp.read_text())
    # byte for byte as v0.1 printed it: the expected value in its key order, json.dumps' spacing
    assert out.stdout == json.dumps(json.loads(exp.read_text())) + "\n"
    out = subprocess.run([sys.executable, "-m", "chkobba", "replay", "-"], input=rec.read_text(),
                         capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout) == json.loads(exp.read_text())


MIRROR = json.loads((GOLDEN / "mirror-round.json").read_text())


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    rec = json.loads(json.dumps(MIRROR))
    node = rec
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return rec


BAD = [
    ("not json", "{", "record: not valid JSON"),
    ("not object", [], "record: a game record is a JSON object"),
    ("game", _with(["game"], "poker"), 'record: "game" must be one of the games (known: chkobba, seven_diamonds), not "poker"'),
    ("option", _with(["options"], {"target": 12}), 'record: option "target" must be one of 11, 21, 31, not 12'),
    ("dealer", _with(["first_dealer"], 2), 'record: "first_dealer" must be a seat from 0 to 1, not 2'),
    ("deck size", _with(["rounds", 0, "decks", 0], ["7D"]), "round 1, deck 1: a Chkobba deck has 40 cards, this one has 1"),
    ("deck card", _with(["rounds", 0, "decks", 0], ["9D"] + MIRROR["rounds"][0]["decks"][0][1:]),
     'round 1, deck 1: 9D is not a card of the Chkobba deck (no 8, 9 or 10)'),
    ("first action", _with(["rounds", 0, "actions", 0], "5S"),
     'round 1, action 0 "5S": it is the cut: the cutter (seat 1) says "keep" or "table", not "5S"'),
    ("wrong value", _with(["rounds", 0, "actions", 2], "QHx7D"), 'round 1, action 2 "QHx7D": QH is not in your hand'),
    ("syntax", _with(["rounds", 0, "actions", 1], "7D7S"), 'round 1, action 1 "7D7S": not an action'),
    ("extra", _with(["rounds", 0, "actions"], MIRROR["rounds"][0]["actions"] + ["AH"]),
     'round 1, action 37 "AH": the round is over'),
    ("unknown key", _with(["seed"], 3), 'record: unknown key "seed"'),
    ("action type", _with(["rounds", 0, "actions", 3], 7), "round 1, action 3: an action is a text such as \"7D\" or \"keep\", not 7"),
]


@pytest.mark.parametrize("name,data,message", BAD, ids=[b[0] for b in BAD])
def test_bad_records(name: str, data: Any, message: str) -> None:
    with pytest.raises(InvalidRecord) as e:
        replay(data if isinstance(data, str) else json.loads(json.dumps(data)))
    assert str(e.value).startswith(message), str(e.value)


def test_illegal_capture_message_in_record() -> None:
    # seat 1 lays AH first in the mirror round; make seat 0 answer with a wrong capture
    rec = json.loads(json.dumps(MIRROR))
    first, answer = rec["rounds"][0]["actions"][1:3]
    wrong = answer[:2] + "x5D"
    rec["rounds"][0]["actions"][2] = wrong
    with pytest.raises(InvalidRecord) as e:
        replay(rec)
    assert str(e.value) == f'round 1, action 2 "{wrong}": {answer[:2]} is worth 1 and 5D is worth 5'


def test_replay_command_error_contract(tmp_path: Path) -> None:
    rec = json.loads(json.dumps(MIRROR))
    rec["rounds"][0]["actions"][4] = "KDxAS"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(rec))
    out = subprocess.run([sys.executable, "-m", "chkobba", "replay", str(f)], capture_output=True, text=True)
    assert out.returncode != 0
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith('round 1, action 4 "KDxAS": ')
    out = subprocess.run([sys.executable, "-m", "chkobba", "replay", str(tmp_path / "missing.json")],
                         capture_output=True, text=True)
    assert out.returncode != 0 and out.stdout == "" and "cannot read" in out.stderr


def test_mid_round_record_is_incomplete_and_resumable() -> None:
    rec = json.loads(json.dumps(MIRROR))
    rec["rounds"][0]["actions"] = rec["rounds"][0]["actions"][:9]
    s = replay(rec)
    out = summary(s)
    assert out["complete"] is False and out["rounds"] == [] and out["score"] == [0, 0]
    sess = Session.from_record(rec)
    assert sess.record() == parse_record(rec).to_dict()
    assert sess.to_act() == s.to_act()


def test_record_stopping_after_accepted_redeal() -> None:
    from positions import deck_for
    deck = deck_for("5C 5D 5H 2S", [])
    rec = {"game": "chkobba", "first_dealer": 0,
           "rounds": [{"decks": [deck], "actions": ["table", "propose", "accept", "keep"]}]}
    with pytest.raises(InvalidRecord, match=r'round 1, action 3 "keep": a re-deal was accepted but the round lists no further deck'):
        replay(rec)
    rec["rounds"][0]["decks"].append(list(reversed(deck)))
    s = replay(rec)
    assert s.phase in ("play", "redeal") and s.dealer == 0


def test_save_load_round_trip_through_session() -> None:
    import random
    sess = Session.new("chkobba", {"players": 4, "match": 3}, seed=11)
    rng = random.Random(3)
    for _ in range(150):
        sess.apply(rng.choice(sess.legal()))
    again = Session.from_record(json.loads(json.dumps(sess.record())))
    assert again.summary() == sess.summary()
    assert again.state.observation(0) == sess.state.observation(0)
    assert again.legal() == sess.legal()


def test_golden_2v2_claim_position() -> None:
    """Hand-checked: tests/golden/2v2-claim-midround.json, after its 14 actions."""
    from positions import cards
    from chkobba.cards import mask_of
    s = replay(json.loads((GOLDEN / "2v2-claim-midround.json").read_text()))
    assert s.piles[0] == mask_of(cards("5D 2C 3S 7D 6C AH"))
    assert s.piles[1] == mask_of(cards("KS KD 6S 2D 4H 7S 3C 4D"))
    assert set(s.table) == set(cards("QH JC"))
    assert s.chkobbas == [(), ()] and s.to_act() == 0 and s.dealer == 3
    assert all(len(h) == 3 for h in s.hands) and s.deck_left == 40 - 4 - 24


def test_golden_seven_diamonds_round_checked_by_hand() -> None:
    """tests/golden/seven-diamonds-bonus-to-target.json (random play, seed 7541,
    kept for its features: a triple, call and card timeouts, forced passes,
    the last-seven bonus doubled, a game won exactly at the target). Its
    expected output is what `python -m chkobba replay` printed; round 2 was
    then checked by hand against RULES.md (Seven Diamonds):

    - deal (dealer 3, eight each from seat 0): seat 0 JS 8S JD AC QD 8D TD 9H,
      seat 1 TH AH KD 8C 9C 7S JH 7H, seat 2 7C 9D KS 9S QC KC TC 7D,
      seat 3 AD TS 8H QH KH QS JC AS;
    - calls from seat 0: timeout (= pass), double (seat 1, team 1), pass, pass
      (seat 3 is of the doubling team: pass only): x2;
    - seat 2 opens with 7D; seat 3 holds none of 8D 7H 7S 7C and is passed;
      the three card timeouts play a card for the seat (seat 2: 7C, seat 0: TD,
      seat 3: QH, each the only card it could lay);
      seat 1 lays 7S, its last card, and goes out;
    - left: seat 0 JS 8S AC (10 + 0 + 20), seat 2 KS 9S KC (10 + 0 + 10):
      50 for team 1; seat 3's TS QS AS (its partner) never count;
    - 7S is a seven: +200; x2 after the bonus: (50 + 200) x 2 = 500;
    - 210 - 0 after round 1 (x3 of 70), so 210 - 500: team 1 reaches the
      target 500 exactly and wins the game.
    """
    rec = json.loads((GOLDEN / "seven-diamonds-bonus-to-target.json").read_text())
    s = replay(rec)
    r = s.results[1].details()
    assert rec["rounds"][1]["actions"][:4] == ["timeout", "double", "pass", "pass"]
    assert (r["winner_seat"], r["last_card"], r["multiplier"], r["cards"], r["bonus"]) == (1, "7S", 2, 50, 200)
    assert r["left"] == [["8S", "JS", "AC"], [], ["9S", "KS", "KC"], ["TS", "QS", "AS"]]
    assert r["points"] == [0, 500] and s.score == (210, 500) and s.winner == 1
    passed = [(e.seat, e.kind) for e in Session.from_record(rec, at=(2, 5)).state.event_log()]
    assert passed[-2:] == [(2, "lay"), (3, "passed")]     # after 7D: seat 3 has nothing to lay


def test_replay_command_unreadable_files(tmp_path: Path) -> None:
    f = tmp_path / "bin.json"
    f.write_bytes(bytes(range(128, 256)))
    for path in (f, tmp_path):
        out = subprocess.run([sys.executable, "-m", "chkobba", "replay", str(path)], capture_output=True, text=True)
        assert out.returncode != 0 and out.stdout == ""
        assert out.stderr.startswith("cannot read") and len(out.stderr.strip().splitlines()) == 1
