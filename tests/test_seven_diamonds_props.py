"""Property tests (hypothesis) and a randomized soak for Seven Diamonds."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings, strategies as st

from chkobba.errors import IllegalAction
from chkobba import determinize
from chkobba.records import replay, summary
from chkobba.games.seven_diamonds.state import CALLS, DECK_MASK, PLAY, SevenDiamondsState
from chkobba.session import Session

OPTIONS = st.fixed_dictionaries({
    "calls": st.booleans(),
    "timers": st.sampled_from([False, {"call": 10, "card": 12}]),
    "target": st.sampled_from([1, 150, 500]),
    "last_seven_bonus": st.sampled_from([0, 200]),
})


def fingerprint(s: SevenDiamondsState) -> tuple[Any, ...]:
    return (s.phase, s.dealer, tuple(s.hands), s.table, s.playable, s.turn, s.spoken, s.multiplier, s.doubler,
            s.voids, s.score, s.games, s.results, s.history(), s.event_log(), s.winner, s.round_index,
            s.last_actor)


def check_invariants(s: SevenDiamondsState) -> None:
    if s.phase in (CALLS, PLAY):
        # the 32 cards: each exactly once, in a hand or on the table
        parts = [s.table, *s.hands]
        assert sum(p.bit_count() for p in parts) == 32
        assert s.table | s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] == DECK_MASK
        # the laid cards of a suit are a run up from its 7
        for k in range(4):
            run = s.table >> (k * 13)
            laid = [(run >> r) & 1 for r in (6, 7, 8, 9, 10, 11, 12, 0)]
            assert laid == sorted(laid, reverse=True)
        for seat in range(4):
            assert not s.hands[seat] & s.voids[seat]  # voids are true
    if s.phase == PLAY:
        assert s.hands[s.turn] & s.playable  # the seat to act always has a card: never passed when able
    total = [sum(r.points[i] for r in s.results) for i in (0, 1)]
    assert tuple(total) == s.score


def play_random(options: dict[str, Any], seed: int, max_actions: int = 10_000) -> Session:
    rng = random.Random(seed)
    ses = Session.new("seven_diamonds", options, seed=seed)
    for _ in range(max_actions):
        if ses.is_over:
            break
        ses.apply(rng.choice(ses.legal()))
    return ses


@settings(max_examples=25, deadline=None)
@given(OPTIONS, st.integers(0, 2**31))
def test_invariants_and_passes_in_random_games(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    ses = Session.new("seven_diamonds", options, seed=seed)
    rounds_seen = 0
    steps_in_round = 0
    while not ses.is_over and rounds_seen < 3:
        s = ses.state
        check_invariants(s)
        before = s.round_index
        prev_events = len(s.event_log())
        ses.apply(rng.choice(ses.legal()))
        steps_in_round += 1
        assert steps_in_round <= 4 + 32  # every round terminates: 4 calls and at most 32 cards
        after = ses.state
        if after.round_index != before or after.phase != PLAY:
            if after.results and len(after.results) > rounds_seen:
                rounds_seen = len(after.results)
                steps_in_round = 0
            continue
        # a forced pass is only ever given to a seat with nothing to lay (the
        # passes follow the card just laid, so the playable cards are the same)
        passed = [e.seat for e in after.event_log()[prev_events:] if e.kind == "passed"]
        for seat in passed:
            assert not after.hands[seat] & after.playable
            assert after.voids[seat] & after.playable == after.playable
    check_invariants(ses.state)


@settings(max_examples=20, deadline=None)
@given(OPTIONS, st.integers(0, 2**31), st.integers(0, 40))
def test_apply_never_mutates_and_illegal_changes_nothing(options: dict[str, Any], seed: int, steps: int) -> None:
    s = play_random(options, seed, max_actions=steps).state
    if s.is_over:
        return
    fp = fingerprint(s)
    for a in s.legal_actions():
        t = s.apply(a)
        assert fingerprint(s) == fp and t is not s
    for text in ["triple", "double", "7D", "AS", "9H", "pass", "timeout"]:
        try:
            s.apply(text)
        except IllegalAction:
            pass
        assert fingerprint(s) == fp


@settings(max_examples=20, deadline=None)
@given(OPTIONS, st.integers(0, 2**31), st.integers(0, 36))
def test_observations_leak_nothing(options: dict[str, Any], seed: int, steps: int) -> None:
    rng = random.Random(seed)
    options = dict(options, target=100000)
    ses = Session.new("seven_diamonds", options, seed=seed)
    for _ in range(steps):
        ses.apply(rng.choice(ses.legal()))
    s = ses.state
    for seat in range(4):
        obs = s.observation(seat)
        for k in range(4):
            d = determinize(obs, random.Random(k))
            assert d.observation(seat) == obs
            check_invariants(d)  # includes: voids respected, the seat to act holds a playable card
            assert d.hands[seat] == s.hands[seat]
        # another seat's observation differs only in what it may see
        if seat:
            other = s.observation(0)
            assert other.events == obs.events and other.hand_counts == obs.hand_counts


def test_determinize_respects_heavy_void_constraints() -> None:
    # long random rounds pile up voids; sample each observation many times
    found = 0
    for seed in range(30):
        rng = random.Random(seed)
        ses = Session.new("seven_diamonds", {"calls": False, "timers": False, "target": 100000}, seed=seed)
        while ses.state.round_index < 1:
            s = ses.state
            if s.phase == PLAY and sum(v.bit_count() for v in s.voids) >= 8:
                found += 1
                obs = s.observation(rng.randrange(4))
                for k in range(5):
                    d = determinize(obs, random.Random(k))
                    assert d.observation(obs.seat) == obs
                    check_invariants(d)
            ses.apply(rng.choice(ses.legal()))
    assert found > 20


@settings(max_examples=15, deadline=None)
@given(OPTIONS, st.integers(0, 2**31), st.integers(0, 200))
def test_record_round_trips_through_the_session(options: dict[str, Any], seed: int, steps: int) -> None:
    ses = play_random(options, seed, steps)
    again = Session.from_record(ses.record())
    assert again.summary() == ses.summary()
    assert summary(replay(ses.record_json())) == ses.summary()
    assert again.state.history() == ses.state.history()
    assert again.state.event_log() == ses.state.event_log()


RULE_POINTS = {"A": 20, "K": 10, "Q": 10, "J": 10}   # RULES.md: a card left in a losing hand


def test_soak_over_option_combinations() -> None:
    """Whole random games, 20 for each option combination (seeds 1-320: the
    same games on every machine, where a time budget played more or fewer)."""
    combos = [{"calls": c, "timers": t, "target": target, "last_seven_bonus": b}
              for c in (True, False) for t in (False, {"call": 3, "card": 4})
              for target in (1, 300) for b in (0, 200)]
    games = 0
    seed = 0
    while games < 20 * len(combos):
        options = combos[games % len(combos)]
        seed += 1
        rng = random.Random(seed)
        ses = Session.new("seven_diamonds", options, seed=seed)
        n = 0
        while not ses.is_over:
            s = ses.state
            if n % 7 == 0:
                check_invariants(s)
            legal = s.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            ses.apply(rng.choice(legal))
            n += 1
            assert n < 5000
        final = ses.state
        w = final.winner
        assert w is not None and final.score[w] >= options["target"] > final.score[1 - w]
        assert final.games == ((1, 0) if w == 0 else (0, 1))
        for r in final.results:
            # recounted from the cards left by RULES.md's scoring: the losing
            # team's cards (A 20; K, Q, J 10; others 0), the bonus for a last 7,
            # the multiplier over both
            d = r.details()
            assert d["left"][r.winner_seat] == [] and r.winner_team == r.winner_seat % 2
            left = [c for seat in range(4) if seat % 2 != r.winner_team for c in d["left"][seat]]
            assert r.cards == sum(RULE_POINTS.get(c[0], 0) for c in left)
            assert r.bonus == (options["last_seven_bonus"] if d["last_card"][0] == "7" else 0)
            assert r.points[r.winner_team] == (r.cards + r.bonus) * r.multiplier and r.points[1 - r.winner_team] == 0
            assert r.multiplier == 1 or options["calls"]
        games += 1
