"""Hard Chkobba plays for the game: the distribution of a round's remaining
points, the game-win chance of a position in the middle of a round, the
playout values scored by the game, and the last deal solved inside playouts."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from chkobba.agents import Budget, HardAgent, hint, make_agent
from chkobba.agents import endgame
from chkobba.agents.chkobba import ChkobbaModel, game_scale, leaf_game_chance, pile_eval, round_split
from chkobba.agents.endgame import applies, game_win_chance, solve, state_value
from chkobba.games.chkobba.state import DECK_MASK
from chkobba.session import Session

from positions import position, sessions_where


def random_piles(rng: random.Random) -> tuple[int, int]:
    cards = [c for c in range(52) if (DECK_MASK >> c) & 1]
    rng.shuffle(cards)
    k = rng.randrange(0, 41)
    j = rng.randrange(0, k + 1)
    mine = sum(1 << c for c in cards[:j])
    theirs = sum(1 << c for c in cards[j:k])
    return mine, theirs


def test_round_split_is_a_distribution_that_agrees_with_the_evaluation() -> None:
    """It sums to one, mirrors when the piles swap, and its expected point
    difference is medium's evaluation of the piles (future chkobbas are even)."""
    rng = random.Random(3)
    for _ in range(200):
        mine, theirs = random_piles(rng)
        d = round_split(mine, theirs)
        assert sum(d.values()) == pytest.approx(1.0)
        assert all(p >= 0.0 for p in d.values())
        mirror = round_split(theirs, mine)
        for (x, y), p in d.items():
            assert mirror[(y, x)] == pytest.approx(p)
        assert sum(p * (x - y) for (x, y), p in d.items()) == pytest.approx(pile_eval(mine, theirs))


def test_leaf_game_chance_is_a_monotone_probability() -> None:
    rng = random.Random(5)
    assert leaf_game_chance(0, 0, 0, 0, 0, 0, 11) == pytest.approx(0.5)
    for _ in range(100):
        mine, theirs = random_piles(rng)
        me, opp = rng.randrange(0, 11), rng.randrange(0, 11)
        u = leaf_game_chance(mine, theirs, 0, 0, me, opp, 11)
        assert 0.0 <= u <= 1.0
        assert u + leaf_game_chance(theirs, mine, 0, 0, opp, me, 11) == pytest.approx(1.0)
        # a point more before the round, or a chkobba more in it, never hurts
        assert leaf_game_chance(mine, theirs, 0, 0, me + 1, opp, 11) >= u - 1e-12
        assert leaf_game_chance(mine, theirs, 1, 0, me, opp, 11) >= u - 1e-12
        assert leaf_game_chance(mine, theirs, 0, 0, me, opp + 1, 11) <= u + 1e-12


def test_game_scale_speaks_in_round_points_far_from_the_target() -> None:
    """At 0-0 to 31 a point of round difference is worth about the same game
    chance whatever the round; the slope is positive and never below its floor."""
    w0, slope = game_scale(0, 0, 31)
    assert w0 == pytest.approx(0.5)
    assert 0.02 <= slope < 0.1
    assert game_win_chance(1, 0, 31) - game_win_chance(0, 1, 31) == pytest.approx(2 * slope, rel=0.5)
    assert game_scale(10, 3, 11)[1] == 0.02   # the game is all but decided: the floor


def finished(points: tuple[int, int]) -> Any:
    """A Chkobba state whose round just ended with ``points`` (its last round
    result stands in for one; the rest is a real two-player state)."""
    s: Any = position(["2H", "3H"], "", options={"target": 11})
    s.results = [SimpleNamespace(points=points, all_diamonds=None)]
    return s


def model_deciding_at(score: tuple[int, int], target: int) -> ChkobbaModel:
    """A model scoring playouts by the game, searching a decision of a two-player
    game at ``score`` to ``target`` (the search begins each playout with ``determinize``)."""
    m = ChkobbaModel(for_game=True, infer=False)
    s = position(["2H", "3H"], "", options={"target": target}, score=score)
    m.determinize(s.observation(0), random.Random(0))
    return m


def test_near_the_target_a_sure_point_beats_a_chance_at_more() -> None:
    """At 10-9 to 11 a round won 1-0 wins the game; a gamble worth more round
    points on average (60%: 3-0, 40%: 0-1, +1.4) leaves a chance to lose it.
    Scored by points the gamble is better; scored by the game, the sure point."""
    rng = random.Random(0)
    m = model_deciding_at((10, 9), 11)
    sure = m.rollout(finished((1, 0)), 0, rng)
    gamble = 0.6 * m.rollout(finished((3, 0)), 0, rng) + 0.4 * m.rollout(finished((0, 1)), 0, rng)
    assert 0.6 * 3 + 0.4 * -1 > 1
    assert sure > gamble
    # far from the target the two orders agree
    m = model_deciding_at((0, 0), 31)
    sure = m.rollout(finished((1, 0)), 0, rng)
    gamble = 0.6 * m.rollout(finished((3, 0)), 0, rng) + 0.4 * m.rollout(finished((0, 1)), 0, rng)
    assert gamble > sure


def test_state_value_is_the_solved_value_of_the_best_move() -> None:
    for sess in sessions_where(applies, 8, seed=21):
        s: Any = sess.state
        seat = s.to_act()
        assert seat is not None
        obs: Any = s.observation(seat)
        vals = solve(obs, obs.legal_actions(), max_nodes=10**9)
        assert vals is not None
        assert state_value(s.copy(), seat & 1, max_nodes=10**9) == max(vals)
        assert state_value(s.copy(), seat & 1, max_nodes=0) is None


def test_penultimate_deal_playouts_solve_the_last_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """From the penultimate deal of a two-player round the playouts reach the
    last deal and call the solver on the sampled deal; with the option off,
    or earlier in the round, they do not."""
    calls: list[int] = []
    real = endgame.state_value

    def counting(s: Any, side: int, max_nodes: int = 10**9) -> Any:
        assert s.pos >= len(s.deck) and s.n == 2
        calls.append(1)
        return real(s, side, max_nodes)

    monkeypatch.setattr(endgame, "state_value", counting)
    penultimate = sessions_where(lambda o: o.phase == "play" and 0 < o.deck_left <= 6, 3, seed=8)
    early = sessions_where(lambda o: o.phase == "play" and o.deck_left > 12, 3, seed=8)
    for sess, on, expect in [(penultimate, True, True), (penultimate, False, False), (early, True, False)]:
        calls.clear()
        for x in sess:
            who = x.to_act()
            assert who is not None
            obs = x.observation(who)
            agent = HardAgent("chkobba", Budget(rollouts=300), model=ChkobbaModel(solve_last_deal_in_playouts=on))
            assert agent.choose(obs, obs.legal_actions(), random.Random(0)) in obs.legal_actions()
        assert bool(calls) is expect


@pytest.mark.parametrize("options", [{}, {"capture": "compulsory"}, {"players": 4}, {"target": 21}])
def test_hard_playing_for_the_game_stays_legal_and_the_coach_ranks_every_move(options: dict[str, Any]) -> None:
    """With both options on (off by default), hard stays legal; the coach too."""
    s = Session.new("chkobba", options, seed=31)
    agent = HardAgent("chkobba", model=ChkobbaModel(for_game=True, solve_last_deal_in_playouts=True))
    rng = random.Random(0)
    for k in range(30):
        seat = s.to_act()
        assert seat is not None
        obs = s.observation(seat)
        legal = obs.legal_actions()
        a = agent.choose(obs, legal, rng)
        assert a in legal
        if k % 15 == 0 and len(legal) > 1:
            h = hint(obs, random.Random(k))
            assert len(h["actions"]) == len(legal) and h["best"] in {str(x) for x in legal}
            assert all(r["reason"] for r in h["actions"])
        s.apply(a)
        if s.is_over:
            break


def test_the_coach_shows_the_game_chance_of_sampled_moves() -> None:
    """Playing for the game (an option, off by default: docs/agents.md, Wave 4),
    the coach's sampled rows carry the chance of winning
    the game their playouts stand for (a probability), best move first."""
    sess = sessions_where(lambda o: o.phase == "play" and o.deck_left > 6, 1, seed=13, options={"target": 11})[0]
    who = sess.to_act()
    assert who is not None
    obs = sess.observation(who)
    search = HardAgent("chkobba", Budget(rollouts=300), model=ChkobbaModel(for_game=True)).start(
        obs, obs.legal_actions(), random.Random(1))
    search.run()
    ranking = search.ranking()
    rows = [r for r in ranking if r["rollouts"]]
    assert rows and all(0.0 <= r["game_chance"] <= 1.0 for r in rows)
    # the best move's playouts stand for (about: its estimate is shrunk towards medium's) the best chance
    assert ranking[0]["game_chance"] >= max(r["game_chance"] for r in rows if not r["pruned"]) - 0.02
    # off (the default): round points, no game chance
    assert all("game_chance" not in r for r in hint(obs, random.Random(1), Budget(rollouts=50))["actions"])


def test_at_four_players_the_playouts_stay_in_round_points() -> None:
    """2v2 measured no gain from playing for the game: its searches are the
    round-point searches of before (same choices, no game chance shown)."""
    for sess in sessions_where(lambda o: o.phase == "play" and o.deck_left > 0, 3, seed=17, options={"players": 4}):
        who = sess.to_act()
        assert who is not None
        obs = sess.observation(who)
        legal = obs.legal_actions()
        a = HardAgent("chkobba", Budget(rollouts=300), model=ChkobbaModel(for_game=True)).start(
            obs, legal, random.Random(2))
        b = HardAgent("chkobba", Budget(rollouts=300), model=ChkobbaModel(for_game=False)).start(obs, legal, random.Random(2))
        a.run()
        b.run()
        assert a.total == b.total and a.best() == b.best()
        assert all("game_chance" not in r for r in a.ranking())
