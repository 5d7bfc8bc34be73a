"""The last deal's solver on a known 2v2 deal (every hand known, as tools use
it): ``endgame.state_value``
gives what a plain minimax over the engine's rules gives, every seat playing
its side's best."""

from __future__ import annotations

import random

from chkobba.agents import endgame
from chkobba.agents.chkobba import ChkobbaModel
from chkobba.games.chkobba.state import PLAY, ChkobbaState
from positions import sessions_where


def minimax(s: ChkobbaState, side: int, start: int, score: tuple[int, int]) -> tuple[float, int]:
    """No table, no cut-offs: every line of play to the end of the round
    (``score``: the score before the round)."""
    if len(s.results) > start:
        pts = s.results[start].points
        me, opp = score[side] + pts[side], score[side ^ 1] + pts[side ^ 1]
        res = s.results[start]
        if s.options.all_diamonds_wins and res.all_diamonds is not None:
            u = 1.0 if res.all_diamonds == side else 0.0
        else:
            u = endgame.game_win_chance(me, opp, s.options.target)
        return (round(u, 9), pts[side] - pts[side ^ 1])
    values = []
    for a in s.legal_actions():
        t = s.copy()
        t.play(a)
        values.append(minimax(t, side, start, score))
    return max(values) if (s.turn & 1) == side else min(values)


def test_four_player_last_deals_are_solved_exactly() -> None:
    found = sessions_where(lambda o: o.phase == PLAY and o.deck_left == 0 and sum(o.hand_counts) <= 8,
                           12, seed=5, options={"players": 4})
    model = ChkobbaModel()
    for i, sess in enumerate(found):
        seat = sess.to_act()
        assert seat is not None
        st = model.determinize(sess.observation(seat), random.Random(i))
        assert st.n == 4
        for side in (0, 1):
            assert endgame.state_value(st, side) == minimax(st, side, len(st.results), st.score)


def test_a_four_player_deal_too_big_is_left_to_sampling() -> None:
    found = sessions_where(lambda o: o.phase == PLAY and o.deck_left == 0 and sum(o.hand_counts) == 12,
                           1, seed=5, options={"players": 4})
    seat = found[0].to_act()
    assert seat is not None
    st = ChkobbaModel().determinize(found[0].observation(seat), random.Random(0))
    assert endgame.state_value(st, 0, max_nodes=10) is None
