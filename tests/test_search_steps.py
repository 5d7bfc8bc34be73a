"""A playout in pieces (``ChkobbaModel.rollout_steps``, resumed by
``Search.step`` across its time slices) plays the very moves of the one-shot
``rollout``: the same draws of its rng in the same order, the same value; and
a search stepped in slices of any length ends where ``run()`` ends, bit for
bit. No timings are asserted here (docs/main-thread.md measures them)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings, strategies as st

from chkobba.agents.chkobba import KIT, ChkobbaModel
from chkobba.agents.seven_diamonds import KIT as SEVEN_KIT
from chkobba.agents import make_agent
from chkobba.agents.search import Budget, Search
from chkobba.session import Session
from positions import drive, sessions_where


def _playing(obs: Any) -> bool:
    return bool(obs.phase == "play")


# positions of medium games, 1v1 and 2v2, early and late in a round
POSITIONS = (sessions_where(_playing, 10, seed=61, share=0.2)
             + sessions_where(_playing, 10, seed=62, options={"players": 4}, share=0.2))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.integers(0, 10**6), st.sampled_from([2, 6, 40]))
def test_a_playout_in_pieces_is_the_one_shot_playout(i: int, seed: int, horizon: int) -> None:
    sess = POSITIONS[i]
    seat = sess.to_act()
    assert seat is not None
    obs: Any = sess.observation(seat)
    legal = obs.legal_actions()
    values = []
    draws = []
    for pieces in (False, True):
        model = ChkobbaModel(horizon=horizon)
        state = model.determinize(obs, random.Random(seed))
        state.play(legal[seed % len(legal)])
        rng = random.Random(seed + 1)
        if pieces:
            v, pauses = drive(model.rollout_steps(state.copy(), obs.seat & 1, rng))
        else:
            v = model.rollout(state.copy(), obs.seat & 1, rng)
        values.append(v)
        draws.append(rng.getstate())    # the rng drew the same numbers
    assert values[0].hex() == values[1].hex()
    assert draws[0] == draws[1]


def _search(obs: Any, seed: int, rollouts: int) -> Search:
    return Search(KIT.model(), obs, obs.legal_actions(), random.Random(seed), Budget(rollouts=rollouts))


def _same(a: Search, b: Search) -> None:
    assert a.done and b.done
    assert a.best() == b.best()
    assert a.ranking() == b.ranking()
    assert [x.hex() for x in a.total] == [x.hex() for x in b.total]
    assert [[x.hex() for x in v] for v in a.values] == [[x.hex() for x in v] for v in b.values]
    assert (a.n, a.live, a.rollouts, a.worlds) == (b.n, b.live, b.rollouts, b.worlds)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.integers(0, 10**6), st.integers(1, 80),
       st.lists(st.sampled_from([0.0, 0.0, 0.01, 0.5, 3.0, 1000.0]), min_size=1, max_size=8))
def test_a_search_in_slices_of_any_length_ends_where_run_ends(i: int, seed: int, rollouts: int,
                                                              slices: list[float]) -> None:
    sess = POSITIONS[i]
    seat = sess.to_act()
    assert seat is not None
    obs: Any = sess.observation(seat)
    whole = _search(obs, seed, rollouts)
    whole.run()
    sliced = _search(obs, seed, rollouts)
    k = 0
    while not sliced.step(slices[k % len(slices)]):
        k += 1
    _same(whole, sliced)


def test_a_zero_slice_pauses_inside_a_playout() -> None:
    # a zero-length slice stops after the first move of a playout: a rollout
    # takes several slices, and the search still ends where run() ends
    assert _zero_slices_per_rollout(KIT.model, POSITIONS[:4] + POSITIONS[10:14], seed=3, rollouts=30) > 1.5


def _zero_slices_per_rollout(model: Any, positions: list[Any], seed: int, rollouts: int) -> float:
    """The most zero-length slices a search took per rollout over
    ``positions`` (each search checked to end where ``run()`` ends): more
    than one when playouts were paused and resumed."""
    most = 0.0
    for sess in positions:
        seat = sess.to_act()
        assert seat is not None
        obs: Any = sess.observation(seat)
        if len(obs.legal_actions()) < 2:
            continue
        whole = Search(model(), obs, obs.legal_actions(), random.Random(seed), Budget(rollouts=rollouts))
        whole.run()
        sliced = Search(model(), obs, obs.legal_actions(), random.Random(seed), Budget(rollouts=rollouts))
        steps = 1
        while not sliced.step(0.0):
            steps += 1
        _same(whole, sliced)
        most = max(most, steps / max(1, sliced.rollouts))
    return most


def test_a_model_without_pieces_plays_its_playouts_whole() -> None:
    class Whole(ChkobbaModel):
        rollout_steps = None     # type: ignore[assignment]
    sess = POSITIONS[12]
    seat = sess.to_act()
    assert seat is not None
    obs: Any = sess.observation(seat)
    legal = obs.legal_actions()
    whole = Search(KIT.model(), obs, legal, random.Random(9), Budget(rollouts=40))
    whole.run()
    plain = Search(Whole(), obs, legal, random.Random(9), Budget(rollouts=40))
    steps = 0
    while not plain.step(0.0):
        steps += 1
        assert plain._playing is None     # never paused inside a playout
    _same(whole, plain)


# Seven Diamonds' playouts pause too (``SevenDiamondsModel.rollout_steps``)
def _seven_playing(obs: Any) -> bool:
    return bool(obs.phase == "play")


def _seven_positions(count: int, seed: int) -> list[Session]:
    """Copies of medium Seven Diamonds rounds where the seat to act has a choice of cards."""
    out: list[Session] = []
    medium = make_agent("seven_diamonds", "medium")
    rng = random.Random(seed)
    g = 0
    while len(out) < count:
        s = Session.new("seven_diamonds", {}, seed=seed * 100 + g)
        g += 1
        while not s.is_over and s.latest_round() <= 1:
            seat = s.to_act()
            if seat is None:
                break
            obs: Any = s.observation(seat)
            legal = obs.legal_actions()
            if _seven_playing(obs) and sum(a.kind == "lay" for a in legal) > 1 and rng.random() < 0.3:
                out.append(s.copy())
            s.apply(medium.choose(obs, legal, rng))
    return out[:count]


SEVEN = _seven_positions(8, seed=63)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len(SEVEN) - 1), st.integers(0, 10**6))
def test_a_seven_diamonds_playout_in_pieces_is_the_one_shot_playout(i: int, seed: int) -> None:
    sess = SEVEN[i]
    obs: Any = sess.observation(sess.to_act() or 0)
    legal = obs.legal_actions()
    model: Any = SEVEN_KIT.model()
    state = model.determinize(obs, random.Random(seed))
    state.play(legal[seed % len(legal)])
    whole = model.rollout(state.copy(), obs.seat & 1, random.Random(seed + 1))
    pieces, _ = drive(model.rollout_steps(state.copy(), obs.seat & 1, random.Random(seed + 1)))
    assert whole.hex() == pieces.hex()


def test_a_seven_diamonds_search_in_zero_slices_pauses_inside_playouts_and_ends_where_run_ends() -> None:
    # more slices than rollouts: playouts were paused and resumed
    assert _zero_slices_per_rollout(SEVEN_KIT.model, SEVEN[:4], seed=5, rollouts=24) > 1.5
