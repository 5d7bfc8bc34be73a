"""bench/learn_location.py: the features of a hand-built position, and the
data command's files are the same for the same seed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chkobba.cards import card
from chkobba.games.chkobba.observation import chkobba_observation

from positions import deck_for, session_with

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import learn_location as L  # noqa: E402


def _named(x: list[tuple[int, float]]) -> dict[str, float]:
    return {L.FEATURES[i]: v for i, v in x}


def test_features_of_a_lay_that_passed_up_captures() -> None:
    # seat 1 plays first (dealer 0); it lays the 3S on 5H 2C JS KD, holding 4D 6H
    deck = deck_for("5H 2C JS KD", ["3S 4D 6H", "AC QC 6S"])
    s = session_with(deck, {"players": 2}, first_dealer=0, actions=["table", "3S"])
    obs = chkobba_observation(s.observation(0))
    assert obs.to_act == 0 and obs.hand_counts == (3, 2)
    f = {c: _named(x) for c, x in L.features(obs).items()}
    assert card("4D") in f and card("3S") not in f and card("AC") not in f   # only the unseen cards
    five = f[card("5D")]   # a five would have taken the 5H: laid when it could have captured
    assert five["laid_when_could_capture"] == 1.0 and five["passed_up_capture"] == 1.0
    assert "captured_what_it_could" not in five and "played_same_value" not in five
    assert five["plays_into_hand"] == 1.0 and five["other_k"] == 2.0
    assert f[card("7D")]["passed_up_capture"] == 1.0 and f[card("7D")]["seven_diamonds"] == 1.0   # 5H + 2C
    assert f[card("KH")]["laid_when_could_capture"] == 1.0   # the KD
    eight = f[card("QD")]   # no capture for an eight (the QD): no evidence
    assert "laid_when_could_capture" not in eight and "passed_up_capture" not in eight
    assert f[card("3D")]["played_same_value"] == 1.0
    # medium would rather have taken with a five than laid the three: a five is less likely held
    assert five["medium_log_weight"] < eight.get("medium_log_weight", 0.0) <= 0.0
    n = len(f)
    assert five["prior_logit"] == __import__("math").log(2 / (n - 2))


def test_features_of_a_capture_another_card_could_have_made() -> None:
    deck = deck_for("5H 2C JS KD", ["5S 4D 6H", "AC QC 6S"])
    s = session_with(deck, {"players": 2}, first_dealer=0, actions=["table", "5Sx5H"])
    f = {c: _named(x) for c, x in L.features(chkobba_observation(s.observation(0))).items()}
    assert f[card("5D")]["captured_what_it_could"] == 1.0 and "passed_up_capture" not in f[card("5D")]
    assert f[card("7D")]["passed_up_capture"] == 1.0   # the 5H + 2C, a capture the five did not make


def _data(out: Path, games: int) -> None:
    L.cmd_data(argparse.Namespace(games=games, slice=1, seed=3, level="medium", out=out))


def test_data_is_the_same_for_a_seed_and_resumes(tmp_path: Path) -> None:
    _data(tmp_path / "a", 2)
    _data(tmp_path / "b", 1)
    _data(tmp_path / "b", 2)   # goes on from slice 1
    for name in ("slice-0000.jsonl", "slice-0001.jsonl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    game = __import__("json").loads((tmp_path / "a" / "slice-0001.jsonl").read_text())
    assert game["game"] == 1 and game["positions"]
    pos = game["positions"][5]
    obs = L.observation_at(game, pos)
    assert obs.deck_left == pos["deck_left"] and len(pos["other"]) == obs.hand_counts[1 - obs.seat]


def test_the_learnt_models_deals_keep_the_counts_and_follow_its_marginals() -> None:
    import random
    from chkobba import cards as C
    deck = deck_for("5H 2C JS KD", ["3S 4D 6H", "AC QC 6S"])
    obs = chkobba_observation(session_with(deck, {"players": 2}, first_dealer=0, actions=["table", "3S"]).observation(0))
    w = [0.0] * len(L.FEATURES)
    w[L.INDEX["seven_diamonds"]] = 3.0
    model = L.LearntModel(w)
    unseen = sorted(C.cards_of(obs.unseen_mask()))
    held = 0
    for i in range(200):
        s = model.determinize(obs, random.Random(i))
        assert len(s.hands[1]) == 2 and s.hands[0] == obs.hand
        assert sorted(s.hands[1] + s.deck[s.pos:]) == unseen
        held += card("7D") in s.hands[1]
    p = L.model_marginals(w, obs)[card("7D")]
    assert p > 0.5 and abs(held / 200 - p) < 0.15
