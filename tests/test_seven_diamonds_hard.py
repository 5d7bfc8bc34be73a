"""The Seven Diamonds hard search: its playouts finish exactly (``solve_ending``)."""

from __future__ import annotations

from collections.abc import Sequence

from chkobba.agents.seven_diamonds import _points_mask, solve_ending
from chkobba.cards import card, mask_of
from chkobba.games.seven_diamonds.state import NEXT, OTHER_SEVENS, SEVEN_OF_DIAMONDS, SEVENS
from positions import late_seven_positions


def brute(h: Sequence[int], pl: int, t: int, mult: int, bonus: int, side: int) -> float:
    """Plain minimax, no table, no pruning: what solve_ending must agree with."""
    best: float | None = None
    moves = h[t] & pl
    for c in range(64):
        if not (moves >> c) & 1:
            continue
        hand = h[t] & ~(1 << c)
        if not hand:
            pts = _points_mask(h[(t + 1) & 3]) + _points_mask(h[(t + 3) & 3]) + (bonus if (SEVENS >> c) & 1 else 0)
            v = float(pts * mult * (1 if (t & 1) == side else -1))
        else:
            npl = pl & ~(1 << c)
            if NEXT[c] >= 0:
                npl |= 1 << NEXT[c]
            if c == SEVEN_OF_DIAMONDS:
                npl |= OTHER_SEVENS
            h2 = list(h)
            h2[t] = hand
            s = (t + 1) & 3
            while not h2[s] & npl:
                s = (s + 1) & 3
            v = brute(h2, npl, s, mult, bonus, side)
        if best is None or ((t & 1) == side and v > best) or ((t & 1) != side and v < best):
            best = v
    assert best is not None
    return best


def test_exact_ending_agrees_with_plain_minimax() -> None:
    positions = late_seven_positions(11, 30)
    assert len(positions) >= 20
    for st in positions:
        for side in (0, 1):
            for mult in (1, 3):
                got = solve_ending(st.hands, st.playable, st.turn, mult, 200, side, max_nodes=10**6)
                assert got == brute(st.hands, st.playable, st.turn, mult, 200, side)


def test_exact_ending_values_the_last_seven_bonus() -> None:
    # seat 0 holds 8D and 7S, both playable, and nobody else can lay
    # anything: 8D then 7S goes out on a seven (+200); the other order does not.
    h = [mask_of([card("8D"), card("7S")]), mask_of([card("AC"), card("KC")]),
         mask_of([card("QH")]), mask_of([card("AH"), card("KH")])]
    playable = mask_of([card("8D"), card("7S")])
    v = solve_ending(h, playable, 0, 1, 200, 0)
    # 8D, then seats 1-3 pass (nothing fits), 7S: out on a seven with AC KC AH KH against us
    assert v == 200 + 60
    assert solve_ending(h, playable, 0, 1, 0, 0) == 60     # no bonus at this table


def test_exact_ending_gives_up_when_too_big() -> None:
    st = late_seven_positions(24, 3)[0]
    assert solve_ending(st.hands, st.playable, st.turn, 1, 200, 0, max_nodes=3) is None
