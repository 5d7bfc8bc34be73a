"""Chkobba's last-deal solver on a known deal (``endgame.state_value``), and
the coach's sampled rows: round points, no chance of the game (only the
solved last deal's rows carry ``game_chance``)."""

from __future__ import annotations

import random
from typing import Any

from chkobba.agents import Budget, hint
from chkobba.agents.endgame import applies, solve, state_value

from positions import sessions_where


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


def test_the_coach_shows_no_game_chance_for_sampled_moves() -> None:
    sess = sessions_where(lambda o: o.phase == "play" and o.deck_left > 6, 1, seed=13, options={"target": 11})[0]
    who = sess.to_act()
    assert who is not None
    rows = hint(sess.observation(who), random.Random(1), Budget(rollouts=50))["actions"]
    assert rows and all("game_chance" not in r and "exact" not in r for r in rows)
