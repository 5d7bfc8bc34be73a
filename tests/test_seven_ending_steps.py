"""Seven Diamonds' exact endings in pieces (``solve_ending_steps``, inside a
playout that ``Search.step`` hands out in time slices) answer exactly what
the one-shot solver answers, and pause every few positions.
No timings are asserted here (docs/main-thread.md measures them)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from chkobba.agents.seven_diamonds import EXACT_CARDS, EXACT_NODES, SevenModel, solve_ending, solve_ending_steps
from positions import drive, late_seven_positions


POSITIONS = [p for left in (8, 12, EXACT_CARDS, 20, 24) for p in late_seven_positions(left, 6, seed=7)]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.integers(0, 1), st.sampled_from([1, 2, 3]), st.integers(1, 200),
       st.sampled_from([1, 2, 3, 40, 300, EXACT_NODES, 10**6]))
def test_an_ending_in_pieces_is_the_one_shot_ending(i: int, side: int, mult: int, every: int, max_nodes: int) -> None:
    s = POSITIONS[i]
    args = (s.hands, s.playable, s.turn, mult, 200, side)
    whole = solve_ending(*args, max_nodes=max_nodes)
    pieces, pauses = drive(solve_ending_steps(*args, max_nodes=max_nodes, every=every))
    assert pieces == whole            # the same value, or None (too big) for both
    if every == 1 and whole is not None:
        assert pauses >= 1            # a pause after each position searched


def test_a_big_ending_pauses_every_few_positions() -> None:
    # every position of the list searched whole, in pieces of 64 positions: the biggest pauses several times
    most = max(drive(solve_ending_steps(s.hands, s.playable, s.turn, 1, 200, 0, max_nodes=10**6))[1]
               for s in POSITIONS)
    assert most >= 5


def test_a_playout_in_pieces_pauses_inside_its_exact_ending() -> None:
    # A playout from a position already at the exact size: before, its ending
    # was one piece (no pause at all); now a big ending (more than STEP_NODES
    # positions) pauses inside, with the same value as the playout played at
    # once. The model finishes playouts exactly from 24 cards here, where
    # endings are big enough (at 16, most take a few dozen positions).
    model = SevenModel(exact_cards=24)
    paused = 0
    for s in POSITIONS:
        if sum(h.bit_count() for h in s.hands) > model.exact_cards:
            continue
        for side in (0, 1):
            whole = model.rollout(s.copy(), side, random.Random(1))
            pieces, pauses = drive(model.rollout_steps(s.copy(), side, random.Random(1)))
            assert whole.hex() == pieces.hex()
            paused += pauses > 0
    assert paused >= 2
