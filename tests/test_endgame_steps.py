"""The last deal's solver in pieces (``endgame.solve_steps``, driven in time
slices by ``Search.step``) answers exactly what the one-shot solver answers,
and the pile tables built quickly at import are the term-by-term sums.
No timings are asserted here (docs/main-thread.md measures them)."""

from __future__ import annotations

import random
from math import comb
from typing import Any

from hypothesis import given, settings, strategies as st

from chkobba.agents import endgame
from chkobba.agents.chkobba import KIT, ChkobbaModel, _split_probs
from chkobba.agents.endgame import applies, solve, solve_steps
from chkobba.agents.search import Budget, Search
from positions import drive, sessions_where

# last deals met in medium games, at two targets (the game's chance changes the values)
POSITIONS = sessions_where(applies, 24, seed=41) + sessions_where(applies, 12, seed=42, options={"target": 11})


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.integers(1, 80), st.sampled_from([0, 3, 40, 300, endgame.MAX_NODES, 10**9]))
def test_solver_in_pieces_answers_what_the_one_shot_solver_answers(i: int, every: int, max_nodes: int) -> None:
    sess = POSITIONS[i]
    obs: Any = sess.observation(sess.to_act())
    legal = obs.legal_actions()
    got, pauses = drive(solve_steps(obs, legal, max_nodes=max_nodes, every=every))
    assert got == solve(obs, legal, max_nodes=max_nodes)
    assert pauses >= 1


def test_solver_pauses_every_few_positions() -> None:
    # the biggest of the positions: the pieces are many and small
    obs: Any = None
    most = -1
    for sess in POSITIONS:
        o: Any = sess.observation(sess.to_act())
        nodes = _nodes(o)
        if nodes > most:
            obs, most = o, nodes
    assert most > 64
    got, pauses = drive(solve_steps(obs, obs.legal_actions(), max_nodes=10**9, every=8))
    assert got is not None
    assert pauses >= most // 8


def _nodes(obs: Any) -> int:
    import random as r
    from chkobba.games.chkobba.determinize import determinize
    solver = endgame._Solver(determinize(obs, r.Random(0)), obs.seat & 1, 10**9)
    for a in obs.legal_actions():
        solver.after(a)
    return solver.nodes


def test_search_hands_the_solver_out_in_slices_with_the_same_answer() -> None:
    most = 0
    for sess in POSITIONS[:12]:
        obs: Any = sess.observation(sess.to_act())
        legal = obs.legal_actions()
        whole = Search(KIT.model(), obs, legal, random.Random(5), Budget(rollouts=60))
        whole.run()
        sliced = Search(KIT.model(), obs, legal, random.Random(5), Budget(rollouts=60))
        # a zero-length slice stops after the first piece: the first step never finishes a solve
        assert sliced.step(0.0) is False
        steps = 1
        while not sliced.step(0.0):
            steps += 1
        assert whole.exact is not None and sliced.exact == whole.exact
        assert sliced.best() == whole.best()
        assert sliced.ranking() == whole.ranking()
        most = max(most, steps)
    assert most > 2     # a bigger last deal took several slices


def test_a_model_without_pieces_is_solved_whole() -> None:
    class Whole(ChkobbaModel):
        exact_steps = None     # type: ignore[assignment]
    sess = POSITIONS[0]
    obs: Any = sess.observation(sess.to_act())
    legal = obs.legal_actions()
    s = Search(Whole(), obs, legal, random.Random(1), Budget(rollouts=60))
    assert s.step(0.0) is True
    assert s.exact == solve(obs, legal)


def _split_probs_term_by_term(total: int) -> list[list[tuple[float, float]]]:
    # the definition (and the code before it was made quick): each split's chance added in turn
    out = [[(0.0, 0.0)] * (total + 1) for _ in range(total + 1)]
    for a in range(total + 1):
        for b in range(total + 1 - a):
            r = total - a - b
            w = lo = 0.0
            for x in range(r + 1):
                p = comb(r, x) / 2 ** r
                d = (a + x) - (b + r - x)
                if d > 0:
                    w += p
                elif d < 0:
                    lo += p
            out[a][b] = (w, lo)
    return out


def test_pile_tables_are_the_term_by_term_sums_to_the_last_bit() -> None:
    for total in (0, 1, 2, 3, 10, 40):
        quick, slow = _split_probs(total), _split_probs_term_by_term(total)
        assert [[(w.hex(), lo.hex()) for w, lo in row] for row in quick] == \
               [[(w.hex(), lo.hex()) for w, lo in row] for row in slow]
