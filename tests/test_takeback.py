"""Take-backs (chkobba/takeback.py): against the computer only, within a round; the
record after any take-backs replays to the state of playing only the kept moves."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba import takeback as T
from chkobba.records import replay, summary
from chkobba.session import Session


def test_doctests() -> None:
    result = doctest.testmod(T, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _to_human_turn(s: Session, rng: random.Random, human: int = 0) -> None:
    while not s.is_over and s.to_act() != human:
        s.apply(rng.choice(s.legal()))


def test_take_back_undoes_your_move_and_the_computers_answers() -> None:
    s = Session.new("chkobba", {"players": 2}, seed=3)
    rng = random.Random(0)
    _to_human_turn(s, rng)
    before = s.record()
    view = s.view(0)
    s.apply(rng.choice(s.legal()))
    _to_human_turn(s, rng)
    assert s.record() != before
    back = T.take_back(s, 0)
    assert back.record() == before
    assert back.view(0) == view
    assert back.to_act() == 0
    assert back.seed == s.seed
    # the session given is left as it was
    assert s.record() != before


def test_take_back_repeatedly_within_the_hand_then_refused_at_the_deal() -> None:
    s = Session.new("chkobba", {"players": 2}, seed=4, first_dealer=1)  # seat 0 cuts: the first action is ours
    rng = random.Random(1)
    s.apply("keep")                       # the cut hands the cards out: a deal
    records = []
    for _ in range(2):                    # two of seat 0's three cards of the first hand
        _to_human_turn(s, rng)
        records.append(s.record())
        s.apply(rng.choice([a for a in s.legal() if a not in ("propose", "accept")]))
    _to_human_turn(s, rng)
    assert s.observation(0).deck_left == 30 and s.decks_dealt == 1   # still the first hand
    for rec in reversed(records):
        s = T.take_back(s, 0)
        assert s.record() == rec
    assert s.record()["rounds"][0]["actions"] == ["keep"]
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0)                 # the cut: the hands were dealt after it
    assert e.value.code == "takeback.dealt"


def test_refused_past_a_new_hand_and_past_a_redeal() -> None:
    s = Session.new("chkobba", {"players": 2}, seed=4, first_dealer=1)
    rng = random.Random(2)
    s.apply("keep")
    while s.observation(0).deck_left == 30:
        s.apply(rng.choice([a for a in s.legal() if a not in ("propose", "accept")]))
    _to_human_turn(s, rng)   # a new hand: seat 0's last move came before it
    before = s.record_json()
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0)
    assert e.value.code == "takeback.dealt"
    assert s.record_json() == before
    # an accepted re-deal: the proposal stays once the new deck is dealt
    for seed in range(400):
        s = Session.new("chkobba", {"players": 2}, seed=seed, first_dealer=1)
        s.apply("keep")
        if "propose" in s.legal():
            break
    s.apply("propose")
    s.apply("accept")
    assert s.decks_dealt == 2
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0)
    assert e.value.code == "takeback.dealt"


def test_refused_at_the_start_of_a_new_round_and_after_the_match() -> None:
    s = Session.new("chkobba", {"players": 2}, seed=5)
    rng = random.Random(2)
    while not s.summary()["rounds"]:
        s.apply(rng.choice(s.legal()))
    if s.to_act() != 0:  # the new round's first move is the computer's: ours is yet to come
        with pytest.raises(T.TakebackRefused) as e:
            T.take_back(s, 0)
        assert e.value.code == "takeback.nothing"
    assert s.record()["rounds"][-1]["actions"] == []
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0)
    assert e.value.code == "takeback.nothing"
    while not s.is_over:
        s.apply(rng.choice(s.legal()))
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0)
    assert e.value.code == "takeback.round_over"


@pytest.mark.parametrize("mode", ["online", "pass_and_play", "daily", "challenge"])
def test_refused_in_every_other_mode(mode: str) -> None:
    s = Session.new("chkobba", {"players": 2}, seed=6)
    rng = random.Random(3)
    _to_human_turn(s, rng)
    s.apply(rng.choice(s.legal()))
    before = s.record_json()
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0, mode)
    assert e.value.code == "takeback.mode"
    assert e.value.params["mode"] == {"code": f"takeback.mode.{mode}", "params": {}}
    assert "only for games against the computer" in str(e.value)
    assert s.record_json() == before


@pytest.mark.parametrize("mode", ["Computer", "", None, 3, "x" * 500])
def test_an_unknown_mode_or_seat_is_one_clear_error(mode: object) -> None:
    s = Session.new("chkobba", {"players": 2}, seed=6)
    with pytest.raises(T.TakebackRefused) as e:
        T.take_back(s, 0, mode)  # type: ignore[arg-type]
    assert e.value.code == "takeback.unknown_mode"
    assert len(str(e.value)) < 200
    for seat in (2, -1, "0", True):
        with pytest.raises(T.TakebackRefused) as e:
            T.take_back(s, seat)  # type: ignore[arg-type]
        assert e.value.code == "takeback.not_your_seat"


def test_seven_diamonds_forced_passes_are_not_counted_as_actions() -> None:
    """Forced passes are engine events, not record actions: the cut counts actions only."""
    for seed in range(40):
        s = Session.new("seven_diamonds", {"timers": False}, seed=seed)
        rng = random.Random(seed)
        kept = None
        while not s.summary()["rounds"]:
            if s.to_act() == 0:
                kept = s.record()
            s.apply(rng.choice(s.legal()))
            if kept is not None and any(m["kind"] == "forced_pass" for m in s.moves(0)) and s.to_act() == 0:
                back = T.take_back(s, 0)
                assert back.record() == kept
                replay(back.record())
                return
    pytest.fail("no deal with a forced pass before the player's turn")


# ------------------------------------------------------------ the property

@st.composite
def scripts(draw: st.DrawFn) -> tuple[str, int, int, list[int]]:
    game = draw(st.sampled_from(["chkobba", "chkobba4", "seven_diamonds"]))
    seed = draw(st.integers(0, 10_000))
    dealer = draw(st.integers(0, 3))
    # each step: a move (its index among the legal actions) or, as -1, a take-back
    steps = draw(st.lists(st.one_of(st.integers(0, 50), st.just(-1)), min_size=1, max_size=80))
    return game, seed, dealer, steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_any_moves_and_take_backs_leave_a_record_of_the_kept_moves(script: tuple[str, int, int, list[int]]) -> None:
    """The model: a list of (round, seat, action, dealt) played so far
    (``dealt``: cards were dealt right after the action: a deck, or the deck's
    count of cards left went down). A take-back drops the human's last action
    of the current round and everything after it, or is refused when there is
    none or when cards were dealt since. At the end, the session's record
    replays to the same state as a new session playing only the kept actions."""
    game, seed, dealer, steps = script
    players = 4 if game != "chkobba" else 2
    name = "seven_diamonds" if game == "seven_diamonds" else "chkobba"
    options = {"players": players} if name == "chkobba" else {"timers": False}
    s = Session.new(name, options, seed=seed, first_dealer=dealer % players)
    kept: list[tuple[int, int, str, bool]] = []

    def dealing(s: Session) -> tuple[int, int | None]:
        return s.decks_dealt, getattr(s.observation(0), "deck_left", None)

    for step in steps:
        if s.is_over:
            break
        current = len(s.record()["rounds"])
        if step == -1:
            mine = [i for i, (r, seat, _, _) in enumerate(kept) if r == current and seat == 0]
            if not mine or any(dealt for _, _, _, dealt in kept[mine[-1]:]):
                with pytest.raises(T.TakebackRefused) as e:
                    T.take_back(s, 0)
                assert e.value.code == ("takeback.dealt" if mine else "takeback.nothing")
                continue
            s = T.take_back(s, 0)
            del kept[mine[-1]:]
        else:
            seat = s.to_act()
            assert seat is not None
            legal = s.legal()
            action = legal[step % len(legal)]
            before = dealing(s)
            s.apply(action)
            kept.append((current, seat, action, dealing(s) != before))
    fresh = Session.new(name, options, seed=seed, first_dealer=dealer % players)
    for _, _, action, _ in kept:
        fresh.apply(action)
    assert s.record() == fresh.record()
    assert s.view(None) == fresh.view(None)
    assert summary(replay(s.record())) == fresh.summary()
    resumed = Session.from_record(s.record())
    assert resumed.view(None) == fresh.view(None)
