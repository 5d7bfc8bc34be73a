"""The Seven Diamonds calls model (docs/agents.md "Wave 7"): an option of
hard's search, off by default."""

from __future__ import annotations

import random
from typing import Any

from chkobba.actions import DOUBLE, PASS, TRIPLE, Action
from chkobba.agents.seven_diamonds import (CallEvidence, SevenModel, call_chance, medium_call, model_call)
from chkobba.cards import card, mask_of
from chkobba.games.seven_diamonds.constants import points_of
from chkobba.games.seven_diamonds.determinize import determinize
from chkobba.games.seven_diamonds.setup import setup as seven_setup
from chkobba.games.seven_diamonds.state import seven_diamonds_state
from chkobba.session import Session

LOW = "8D 9D TD 8S 9S TS 8H 9H"       # no seven, no points: hard doubles such hands
HIGH = "AD AS AH AC KD KS KH QC"      # stuck with 150 points: hard passes
SEVENS4 = "7D 7S 7H 7C JD JS JH QD"
REST = "QS QH KC JC TC TH 9C 8C"

PASS_DOUBLE = [Action(PASS), Action(DOUBLE)]


def hand(text: str) -> int:
    return mask_of(card(x) for x in text.split())


def test_the_calls_model_reads_the_points_a_hand_is_stuck_with() -> None:
    assert call_chance(hand(LOW), DOUBLE) > 0.9
    assert call_chance(hand(HIGH), DOUBLE) < 0.1
    assert model_call(hand(LOW), PASS_DOUBLE).kind == DOUBLE
    assert model_call(hand(HIGH), PASS_DOUBLE).kind == PASS
    assert medium_call(hand(LOW), PASS_DOUBLE).kind == PASS      # medium's hand strength passes it
    assert model_call(hand(LOW), [Action(PASS)]).kind == PASS     # no choice, no call
    assert model_call(hand(LOW), [Action(PASS), Action(TRIPLE)]).kind in (PASS, TRIPLE)


def test_call_evidence_lists_the_other_seats_calls_made_with_a_choice() -> None:
    # dealer 3: seats 0, 1, 2 spoke; seat 3 (the dealer) is to speak
    st = seven_setup([LOW, HIGH, SEVENS4, REST], calls=["pass", "double", "pass"], dealer=3)
    ev = CallEvidence(st.observation(3))
    # seat 0 could double and passed; seat 1 doubled; seat 2 (the other team) could triple and passed
    assert ev.calls == [(0, DOUBLE, False), (1, DOUBLE, True), (2, TRIPLE, False)]
    # the partner of the doubler has no choice: its pass says nothing; nor do my own calls
    st = seven_setup([LOW, HIGH, SEVENS4, REST], calls=["double", "pass", "pass"], dealer=3)
    assert CallEvidence(st.observation(3)).calls == [(0, DOUBLE, True), (1, TRIPLE, False)]
    assert CallEvidence(st.observation(0)).calls == [(1, TRIPLE, False)]


def test_call_evidence_counts_the_cards_laid_since_in_play() -> None:
    import math
    s = Session.new("seven_diamonds", seed=3, first_dealer=3)
    dealt = list(seven_diamonds_state(s.state).hands)
    for word in ("double", "pass", "pass", "pass"):    # seats 0 (double), 1, 2, 3
        s.apply(word)
    for _ in range(6):
        s.apply(s.legal_actions()[0])
    st = seven_diamonds_state(s.state)
    me = st.turn
    ev = CallEvidence(st.observation(me))
    assert [h | ev.laid[seat] for seat, h in enumerate(st.hands)] == dealt
    # seat 0 doubled; seats 1 and 3 could triple and passed; seat 2 (seat 0's partner) had no choice
    assert ev.calls == [c for c in [(0, DOUBLE, True), (1, TRIPLE, False), (3, TRIPLE, False)] if c[0] != me]
    want = sum(math.log(call_chance(dealt[seat], kind) if made else 1.0 - call_chance(dealt[seat], kind))
               for seat, kind, made in ev.calls)
    assert abs(ev.log_weight(st.hands) - want) < 1e-9


def test_sampled_deals_follow_the_calls_only_with_the_model_on() -> None:
    st = seven_setup([LOW, HIGH, SEVENS4, REST], calls=["pass", "double", "pass"], dealer=3)
    obs = st.observation(3)
    off, on = SevenModel(), SevenModel(calls_model=True)
    off_points = on_points = 0
    for k in range(100):
        a = off.determinize(obs, random.Random(k))
        assert a.hands == determinize(obs, random.Random(k)).hands     # off: the sampler as before
        b = on.determinize(obs, random.Random(k))
        assert b.hands[3] == obs.hand and [h.bit_count() for h in b.hands] == [8, 8, 8, 8]
        off_points += points_of(a.hands[1])
        on_points += points_of(b.hands[1])
    # seat 1 doubled: with the model its sampled hands hold far fewer points
    assert on_points < 0.85 * off_points


def test_the_calls_can_weigh_the_deals_of_the_calls_only() -> None:
    s = Session.new("seven_diamonds", seed=3, first_dealer=3)
    for word in ("double", "pass", "pass", "pass"):
        s.apply(word)
    s.apply(s.legal_actions()[0])
    st = seven_diamonds_state(s.state)
    obs = st.observation(st.turn)
    only = SevenModel(calls_model=True, calls_in_play=False)
    both = SevenModel(calls_model=True)
    plain = [determinize(obs, random.Random(k)).hands for k in range(10)]
    assert [only.determinize(obs, random.Random(k)).hands for k in range(10)] == plain
    assert [both.determinize(obs, random.Random(k)).hands for k in range(10)] != plain


def test_playouts_call_as_the_model_says_only_with_it_on() -> None:
    # seat 3 speaks last with a hand the model doubles and medium passes
    st = seven_setup([HIGH, SEVENS4, REST, LOW], calls=["pass", "pass", "pass"], dealer=3)
    assert st.turn == 3
    off = st.copy()
    SevenModel(exact_cards=0).rollout(off, 0, random.Random(0))     # played out to the round's end
    on = st.copy()
    SevenModel(exact_cards=0, calls_model=True).rollout(on, 0, random.Random(0))
    assert off.results[-1].multiplier == 1
    assert on.results[-1].multiplier == 2


def test_the_shipped_model_has_the_calls_model_off() -> None:
    from chkobba.agents import HardAgent
    model = HardAgent("seven_diamonds").model
    assert isinstance(model, SevenModel) and not model.calls_model


def _bench() -> Any:
    import sys
    from pathlib import Path
    bench = str(Path(__file__).resolve().parent.parent / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import seven_calls  # type: ignore[import-not-found]  # (bench/ is put on the path above)
    return seven_calls


def test_the_calls_bench_logs_each_call_with_its_reference_and_true_values(tmp_path: Any) -> None:
    import json
    sc = _bench()
    rows = sc.measure_deal(5, 0, 6, SevenModel())
    assert rows and all(r["hard"] in r["legal"] and r["medium"] in r["legal"] for r in rows)
    assert all(len(r["ref"]) == len(r["truth"]) == len(r["legal"]) == len(r["ref_se"]) for r in rows)
    assert all(r["worlds"] == 6 for r in rows)
    log = tmp_path / "calls.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = sc.summary(log)
    assert out["decisions"] == len(rows) and out["deals"] == 1
    assert 0.0 <= out["all"]["hard"]["matches_best"] <= 1.0


def test_the_calls_fit_recovers_a_known_rule() -> None:
    sc = _bench()
    rng = random.Random(1)
    xs = [[1.0, rng.uniform(-3, 3)] for _ in range(400)]
    ys = [rng.random() < 1.0 / (1.0 + 2.718281828 ** -(2.0 * x[1] - 1.0)) for x in xs]
    w = sc.logistic(xs, ys)
    assert abs(w[1] - 2.0) < 0.6 and abs(w[0] + 1.0) < 0.5
