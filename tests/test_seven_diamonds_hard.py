"""The Seven Diamonds hard search (wave 4): exact endings and playing for the game."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from chkobba.agents import Budget, HardAgent, make_agent
from chkobba.agents.seven_diamonds import (GAME_SCALE, SevenModel, _points_mask, game_table, game_value,
                                           solve_ending)
from chkobba.cards import CODES, card, cards_of, codes, mask_of
from chkobba.games.seven_diamonds.setup import setup as seven_setup
from chkobba.games.seven_diamonds.state import (DECK, NEXT, OTHER_SEVENS, PLAY, SEVEN_OF_DIAMONDS, SEVENS,
                                                SevenDiamondsState)
from chkobba.session import Session
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


def test_game_table_is_a_fair_game_between_equal_teams() -> None:
    w = game_table(500)
    n = len(w) - 1
    for u in range(1, n + 1, 7):
        for t in range(1, n + 1, 7):
            assert w[u][t] + w[t][u] == pytest.approx(1.0, abs=1e-9)
            assert 0.0 < w[u][t] < 1.0
            if u > 1:
                assert w[u - 1][t] >= w[u][t]     # needing less is never worse
    assert game_value((500, 480), 0, 500) == 1.0 and game_value((480, 500), 0, 500) == 0.0
    assert game_value((0, 0), 1, 500) == pytest.approx(0.5)
    assert game_value((300, 0), 0, 500) > game_value((0, 0), 0, 500) > game_value((0, 300), 0, 500)


def call_choice(hand: list[str], score: tuple[int, int], for_game: bool) -> str:
    rest = [CODES[c] for c in DECK if CODES[c] not in hand]
    s = seven_setup([hand, rest[:8], rest[8:16], rest[16:]], dealer=3, score=score,   # seat 0 speaks first
                    options={"timers": False})
    obs = s.observation(0)
    agent = HardAgent("seven_diamonds", Budget(rollouts=300), SevenModel(for_game=for_game))
    return str(agent.choose(obs, obs.legal_actions(), random.Random(1)))


def test_ahead_near_the_target_a_good_hand_does_not_double() -> None:
    # any win ends the game: doubling would only help the others catch up
    hand = ["7D", "8D", "9D", "TD", "7S", "8S", "KC", "QH"]
    assert call_choice(hand, (0, 0), True) == "double"
    assert call_choice(hand, (490, 0), False) == "double"    # round points alone say double
    assert call_choice(hand, (490, 0), True) == "pass"


def test_far_behind_a_fair_hand_doubles() -> None:
    # a round at x1 cannot save the game: the chance at x2 is worth the risk
    hand = ["7D", "8D", "9D", "7S", "8S", "KC", "AH", "QH"]
    assert call_choice(hand, (0, 0), True) == "pass"
    assert call_choice(hand, (0, 490), False) == "pass"
    assert call_choice(hand, (0, 490), True) == "double"


def with_score(st: SevenDiamondsState, score: tuple[int, int]) -> SevenDiamondsState:
    """The same position of play (hands, rows, calls, turn, dealer) at another score."""
    calls = [str(a) for a in st.history()[:4]] if st.options.calls else []
    return seven_setup([codes(cards_of(h)) for h in st.hands], codes(cards_of(st.table)), turn=st.turn,
                       calls=calls, dealer=st.dealer, score=score, options=st.options.to_dict())


def test_hard_rollouts_score_game_chances() -> None:
    st = with_score(late_seven_positions(14, 1)[0], (100, 200))
    model = SevenModel(for_game=True)
    v = model.rollout(st.copy(), 0, random.Random(0))
    assert 0.0 <= v <= GAME_SCALE
    points = SevenModel().rollout(st.copy(), 0, random.Random(0))   # the default: round points
    assert v != points


def test_what_plays_reveal_favours_the_true_hands() -> None:
    # against medium players, the real hands explain their plays better than
    # the average deal the sampler draws without the evidence
    import math
    from chkobba.agents.seven_diamonds import SevenEvidence
    from chkobba.games.seven_diamonds.determinize import determinize
    medium = make_agent("seven_diamonds", "medium")
    ratios = []
    for g in range(12):
        s = Session.new("seven_diamonds", seed=200 + g)
        rng = random.Random(g)
        while not s.state.results:
            st = s.state
            obs = s.observation(st.turn)
            legal = obs.legal_actions()
            if st.phase == PLAY and len(legal) > 2 and rng.random() < 0.3:
                ev = SevenEvidence(obs)
                if ev.moves:
                    true = math.exp(ev.log_weight(st.hands))
                    sampled = [math.exp(ev.log_weight(determinize(obs, random.Random(k)).hands)) for k in range(12)]
                    ratios.append(true / (sum(sampled) / len(sampled)))
            s.apply(medium.choose(obs, legal, rng))
    assert len(ratios) >= 20
    assert sum(ratios) / len(ratios) > 1.3


def test_evidence_skips_a_lay_made_for_a_timed_out_seat() -> None:
    from chkobba.agents.seven_diamonds import SevenEvidence
    s = Session.new("seven_diamonds", {"calls": False}, seed=5)
    medium = make_agent("seven_diamonds", "medium")
    rng = random.Random(0)
    for _ in range(3):
        obs = s.observation(s.state.turn)
        s.apply(medium.choose(obs, obs.legal_actions(), rng))
    timed_seat = s.state.turn
    s.apply("timeout")       # the game lays for it
    seat = s.state.turn
    assert seat != timed_seat
    obs = s.observation(seat)
    laid = [(e.seat, e.card) for e in obs.events if e.kind == "lay" and e.seat != seat]
    timed_card = next(c for x, c in reversed(laid) if x == timed_seat)
    ev = SevenEvidence(obs)
    assert [(m[0], m[1]) for m in ev.moves] == [x for x in laid if x != (timed_seat, timed_card)]
