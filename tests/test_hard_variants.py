"""bench/hard_variants.py's oracles (the bound on inference, docs/agents.md):
each sampled deal must hold the other seat's real hand (and, for
``oracle-deck``, the real deck), and nothing else the seat could not see."""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import hard_variants as HV  # noqa: E402
from positions import sessions_where  # noqa: E402

from chkobba.games.chkobba.state import PLAY  # noqa: E402


def test_the_oracles_deal_the_true_hands_and_only_the_unseen_cards() -> None:
    found = sessions_where(lambda o: o.phase == PLAY and o.deck_left > 0, 6, 3, {"players": 2})
    assert found
    for sess in found:
        seat = sess.to_act()
        assert seat is not None
        truth = sess.state
        HV._Truth.state = truth
        obs = sess.observation(seat)
        other = 1 - seat
        plain = HV.CK.ChkobbaModel(infer=False).determinize(obs, random.Random(1))
        for deck_too in (False, True):
            s = HV.OracleModel(deck=deck_too).determinize(obs, random.Random(2))
            assert s.hands[seat] == obs.hand
            assert sorted(s.hands[other]) == sorted(truth.hands[other])
            assert sorted(s.deck[s.pos:]) == sorted(truth.deck[truth.pos:])
            # the deck holds what the plain sample dealt to the other seat and the deck, less the real hand
            assert sorted(s.deck[s.pos:]) == sorted(c for c in plain.deck[plain.pos:] + plain.hands[other]
                                                    if c not in truth.hands[other])
            if deck_too:
                assert tuple(s.deck[s.pos:]) == tuple(truth.deck[truth.pos:])
    HV._Truth.state = None


def test_without_a_truth_the_oracle_samples_as_hard_does() -> None:
    sess = sessions_where(lambda o: o.phase == PLAY and o.deck_left > 0, 1, 4, {"players": 2})[0]
    HV._Truth.state = None
    obs = sess.observation(sess.to_act())
    a = HV.OracleModel(deck=False).determinize(obs, random.Random(5))
    b = HV.CK.ChkobbaModel(infer=False).determinize(obs, random.Random(5))
    assert a.hands == b.hands and a.deck == b.deck
