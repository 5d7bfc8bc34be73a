"""The learnt Chkobba play policy (chkobba/agents/policy.py): its features see
the seat's view only and are deterministic, the weights load, medium's weights
give medium's play, and the search takes it as its playout policy."""

from __future__ import annotations

import math
import random

import pytest

from chkobba.agents import Budget, HardAgent
from chkobba.agents.chkobba import ChkobbaModel, View, medium_play
from chkobba.agents.policy import FEATURES, N_FEATURES, learnt_play, learnt_playout, learnt_scores, move_features
from chkobba.agents.policy_weights import WEIGHTS
from chkobba.cards import card
from chkobba.games.chkobba.state import DECK, ChkobbaState
from chkobba.session import Session

MEDIUM = [1.0] + [0.0] * (N_FEATURES - 1)


def position(table: list[str], first: list[str], second: list[str]) -> ChkobbaState:
    """Two players; the cutter tables the cut and holds ``first``."""
    head = [card(c) for c in table + first + second]
    deck = head + [c for c in DECK if c not in head]
    return ChkobbaState.new({}, 1, deck).apply("table")


def feats(s: ChkobbaState) -> dict[str, dict[str, float]]:
    obs = s.observation(s.to_act())
    view = View.of_obs(obs)
    return {str(a): dict(zip(FEATURES, move_features(view, a))) for a in obs.legal_actions()}


def test_the_weights_load_and_match_the_features() -> None:
    assert len(WEIGHTS) == N_FEATURES == len(set(FEATURES))
    assert all(math.isfinite(w) for w in WEIGHTS)


def test_features_say_what_the_move_does() -> None:
    f = feats(position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"]))
    take = f["7Sx7D"]
    assert take["capture"] == 1.0 and take["takes_7d"] == 1.0 and take["sevens_taken"] == 2.0
    assert take["cards_taken"] == 0.5 and take["chkobba"] == 0.0 and take["table_cards"] == 0.75
    assert f["5Cx2H3C"]["diamonds_taken"] == 0.0 and f["5Cx2H3C"]["cards_taken"] == 0.75
    lay = f["4H"]
    assert lay["capture"] == 0.0 and lay["lay_value"] == 0.4 and lay["table_cards"] == 1.25
    assert f["7S"]["lay_seven"] == 1.0   # a seven laid on the seven of diamonds
    assert lay["late"] == pytest.approx(1 / 36)   # the first of the round's 36 cards in hand
    # the king (10) takes the 4 and the 6; the queen and the jack stay
    g = feats(position(["4S", "6C", "QD", "JH"], ["KD", "2H", "5C"], ["AC", "6H", "QC"]))
    assert g["KDx4S6C"]["chkobba"] == 0.0 and g["KDx4S6C"]["table_cards"] == 0.5
    assert g["KDx4S6C"]["diamonds_taken"] == 1.0


def test_features_are_deterministic_and_depend_on_the_view_only() -> None:
    s = position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    other = obs.determinize(random.Random(5)) if hasattr(obs, "determinize") else None
    a = [move_features(View.of_obs(obs), x) for x in obs.legal_actions()]
    b = [move_features(View.of_obs(s.observation(0)), x) for x in obs.legal_actions()]
    assert a == b
    if other is not None:   # another hidden deal behind the same observation
        c = [move_features(View.of_obs(other.observation(0)), x) for x in obs.legal_actions()]
        assert a == c


def test_medium_weights_play_as_medium() -> None:
    sess = Session.new("chkobba", {"players": 2}, seed=11)
    rng = random.Random(3)
    checked = 0
    while not sess.is_over and checked < 60:
        seat = sess.to_act()
        assert seat is not None
        obs = sess.observation(seat)
        legal = [a for a in sess.legal_actions() if a.kind != "timeout"]
        if obs.phase == "play" and len(legal) > 1:
            view = View.of_obs(obs)
            assert learnt_play(view, legal, None, MEDIUM) == medium_play(view, legal)
            checked += 1
        sess.apply(legal[rng.randrange(len(legal))])
    assert checked >= 20


def test_the_learnt_scores_rank_the_seven_of_diamonds_first() -> None:
    s = position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    legal = obs.legal_actions()
    scores = learnt_scores(View.of_obs(obs), legal)
    assert str(legal[max(range(len(legal)), key=lambda i: scores[i])]) == "7Sx7D"


def test_hard_with_learnt_playouts_decides_and_is_deterministic() -> None:
    s = position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    agent = HardAgent("chkobba", Budget(rollouts=60), ChkobbaModel(playout=learnt_playout()))
    search = agent.start(obs, obs.legal_actions(), random.Random(1))
    search.run()
    again = agent.start(obs, obs.legal_actions(), random.Random(1))
    again.run()
    assert str(search.best()) == "7Sx7D"
    assert search.ranking() == again.ranking()
    assert search.rollouts > 0


def test_the_playout_policy_changes_the_playouts() -> None:
    s = position(["5D", "KS", "2H", "3C"], ["7S", "4H", "JC"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    odd = [0.0] * N_FEATURES
    odd[FEATURES.index("lay_value")] = 1.0   # lays its highest card, never captures first
    values = {}
    for name, w in (("medium", None), ("odd", odd)):
        model = ChkobbaModel(playout=learnt_playout(w)) if name == "odd" else ChkobbaModel()
        st = model.determinize(obs, random.Random(2))
        st.play(obs.legal_actions()[0])
        values[name] = [model.rollout(st.copy(), 0, random.Random(k)) for k in range(10)]
    assert values["medium"] != values["odd"]


def test_an_unknown_playout_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown playout policy"):
        ChkobbaModel(playout="greedy")


def test_the_fused_value_is_the_weighted_features_to_the_bit() -> None:
    from chkobba.agents.policy import score, value
    rng = random.Random(4)
    checked = 0
    for g in range(4):
        sess = Session.new("chkobba", {"players": 2}, seed=g)
        while not sess.is_over and len(sess.state.results) < 1:
            seat = sess.to_act()
            assert seat is not None
            obs = sess.observation(seat)
            legal = [a for a in sess.legal_actions() if a.kind != "timeout"]
            if obs.phase == "play":
                view = View.of_obs(obs)
                for a in legal:
                    for w in (list(WEIGHTS), [rng.uniform(-1, 1) for _ in WEIGHTS]):
                        assert value(view, a, w) == score(w, move_features(view, a))
                        checked += 1
            sess.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_the_learnt_move_ordering_is_an_option_off_by_default() -> None:
    from chkobba.agents.chkobba import KIT
    shipped = KIT.model()
    assert isinstance(shipped, ChkobbaModel) and shipped.ordering == "medium"
    assert ChkobbaModel().ordering == "medium"
    s = position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    legal = obs.legal_actions()
    view = View.of_obs(obs)
    learnt = ChkobbaModel(ordering=learnt_scores).prior(obs, legal)
    assert learnt == learnt_scores(view, legal)
    assert learnt != ChkobbaModel().prior(obs, legal)   # medium's estimates
    with pytest.raises(ValueError, match="unknown move ordering"):
        ChkobbaModel(ordering="greedy")


def test_the_learnt_ordering_picks_the_moves_searched() -> None:
    # one move searched: the policy's best (7Sx7D), the rest never tried
    s = position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    agent = HardAgent("chkobba", Budget(rollouts=20, max_actions=1), ChkobbaModel(ordering=learnt_scores))
    search = agent.start(obs, obs.legal_actions(), random.Random(1))
    search.run()
    tried = [r["action"] for r in search.ranking() if r["rollouts"]]
    assert tried == ["7Sx7D"] and str(search.best()) == "7Sx7D"
