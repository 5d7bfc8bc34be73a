"""Computer players: each level's rules on crafted positions, honesty (the
decision depends only on the observation), legality over many random
positions of both games, the anytime search API, the coach and the arena."""

from __future__ import annotations

import io
import json
import dataclasses
import gc
import random
import types
from contextlib import redirect_stdout
from typing import Any

import pytest

from chkobba.cli import arena
from chkobba.actions import CLAIM, LAY, TIMEOUT, Action
from chkobba.agents import Budget, HardAgent, hint, make_agent
from chkobba.agents.chkobba import View, score_action
from chkobba.agents.seven_diamonds import hand_strength
from chkobba.cards import CODES, card, mask_of
from chkobba.games.chkobba.state import DECK, ChkobbaState
from chkobba.games.seven_diamonds.state import SevenDiamondsState
from chkobba import determinize
from chkobba.session import Session

SMALL = Budget(rollouts=100)


def chkobba_position(table: list[str], first: list[str], second: list[str], dealer: int = 1,
                     options: dict[str, Any] | None = None, plays: tuple[str, ...] = ()) -> ChkobbaState:
    """A two-player deal where the cutter tables the cut: ``table`` goes on
    the table, ``first`` to the cutter (who plays first), ``second`` to the
    dealer; the rest of the deck in card order. Then ``plays`` are applied."""
    head = [card(c) for c in table + first + second]
    deck = head + [c for c in DECK if c not in head]
    s = ChkobbaState.new(options or {}, dealer, deck)
    s = s.apply("table")
    for p in plays:
        s = s.apply(p)
    return s


def decide(level: str, s: Any, seed: int = 0, budget: Budget | None = None) -> Action:
    seat = s.to_act()
    obs = s.observation(seat)
    agent = make_agent(s.game, level, budget) if level == "hard" else make_agent(s.game, level)
    return agent.choose(obs, obs.legal_actions(), random.Random(seed))


# ------------------------------------------------------------ medium's rules

@pytest.mark.parametrize("level", ["medium", "hard"])
def test_takes_the_seven_of_diamonds(level: str) -> None:
    s = chkobba_position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    assert s.to_act() == 0
    assert str(decide(level, s, budget=SMALL)) == "7Sx7D"


def test_claims_a_missed_seven_of_diamonds() -> None:
    # seat 0 plays first and lays 7H although it could take the 7D
    s = chkobba_position(["7D", "KS", "2H", "3C"], ["7H", "4S", "5S"], ["AC", "6H", "QC"], plays=("7H",))
    assert s.to_act() == 1
    a = decide("medium", s)
    assert a.kind == CLAIM and str(a) == "claim 7Hx7D"
    assert decide("hard", s, budget=SMALL).kind == CLAIM


# A real position (found in a medium game, kept as a record): the table is
# JC KD; seat 0 holds 2D 7H KH. KHxKD would leave JC alone, and a jack
# (9) sweeps it; laying 7H (table 26) is safe.
SWEEP_RECORD = {
    "game": "chkobba", "options": {"players": 2}, "first_dealer": 1,
    "rounds": [{"decks": [["QH", "4H", "7S", "4D", "6H", "3S", "6S", "KC", "AS", "6C", "5H", "KS", "AD", "QS",
                           "5C", "4S", "3D", "JS", "3H", "AH", "2C", "3C", "KD", "JC", "5D", "7D", "2H", "5S",
                           "2D", "7H", "KH", "6D", "JH", "QD", "4C", "JD", "7C", "2S", "QC", "AC"]],
                "actions": ["table", "3S", "KCx3S7S", "6S", "6Cx6S", "6H", "AS", "KSx4D6H", "5CxAS4H", "5H",
                            "QSxQH", "AD", "4S", "3H", "AHxAD", "JSx4S5H", "3Cx3H", "3D", "2C", "5Dx2C3D",
                            "5S", "JC", "2H", "KD", "7Dx2H5S"]}]}


def test_no_single_card_left_to_sweep_when_a_safe_lay_exists() -> None:
    s = Session.from_record(SWEEP_RECORD).state
    seat = s.to_act()
    obs = s.observation(seat)
    assert [CODES[c] for c in obs.table] == ["JC", "KD"]
    view = View.of_obs(obs)
    risky = next(a for a in obs.legal_actions() if str(a) == "KHxKD")
    assert score_action(view, risky)[1] > 0.4          # the sweep risk is seen
    a = decide("medium", s)
    table_after = [c for c in s.table if c not in a.take] + ([a.card] if a.kind == LAY else [])
    assert len(table_after) != 1, str(a)
    assert str(a) == "7H"
    assert decide("hard", s, budget=SMALL) != risky


def test_medium_avoids_leaving_a_sweepable_sum() -> None:
    # a table adding up to more than 10 can't be swept: no risk is counted
    s = chkobba_position(["3S", "4D", "JC", "KH"], ["AS", "KC", "2D"], ["AC", "6H", "QC"],
                         options={"capture": "optional"})
    obs = s.observation(0)
    view = View.of_obs(obs)
    risks = {str(a): score_action(view, a)[1] for a in obs.legal_actions()}
    assert risks["KC"] == 0.0      # table over 10: nobody can sweep


def test_medium_cut_keeps_a_seven() -> None:
    deck = [card("7S")] + [c for c in DECK if c != card("7S")]
    s = ChkobbaState.new({}, 1, deck)
    assert str(decide("medium", s)) == "keep"
    deck = [card("KS")] + [c for c in DECK if c != card("KS")]
    s = ChkobbaState.new({}, 1, deck)
    assert str(decide("medium", s)) == "table"


def test_seven_diamonds_hand_strength_orders_hands() -> None:
    strong = mask_of(card(c) for c in ["7D", "8D", "9D", "TD", "7S", "8S", "9S", "7H"])
    weak = mask_of(card(c) for c in ["AD", "KD", "QS", "KS", "AH", "JC", "QC", "KC"])
    assert hand_strength(strong) > hand_strength(weak)


def test_seven_diamonds_medium_keeps_its_run_and_holds_back_a_new_suit() -> None:
    # seat 0 holds the diamonds up to TD and 7H with nothing above it in hearts:
    # laying 8D keeps its own run going; 7H would only open hearts to the others.
    from chkobba.games.seven_diamonds.state import DECK as SD_DECK, SevenDiamondsState
    mine = [card(c) for c in ["7D", "8D", "9D", "TD", "7H", "AS", "KS", "QS"]]
    s = SevenDiamondsState.new({"calls": False, "timers": False}, 3, mine + [c for c in SD_DECK if c not in mine])
    medium = make_agent("seven_diamonds", "medium")
    rng = random.Random(0)
    while True:
        seat = s.to_act()
        obs = s.observation(seat)
        legal = obs.legal_actions()
        if seat == 0 and len(legal) > 1:
            break
        s = s.apply(medium.choose(obs, legal, rng))
    assert {str(a) for a in legal} == {"8D", "7H"}
    assert str(medium.choose(obs, legal, rng)) == "8D"


def test_seven_diamonds_agents_never_time_out() -> None:
    s = Session.new("seven_diamonds", {}, seed=1)
    obs = s.observation(s.to_act())
    legal = obs.legal_actions()
    assert any(a.kind == TIMEOUT for a in legal)
    for level in ("easy", "medium", "hard"):
        agent = make_agent("seven_diamonds", level, SMALL) if level == "hard" else make_agent("seven_diamonds", level)
        assert agent.choose(obs, legal, random.Random(0)).kind != TIMEOUT


# ------------------------------------------------------------------ honesty

def random_positions(game: str, options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """States met in medium-vs-easy games (both seats' decisions)."""
    rng = random.Random(seed)
    out: list[Any] = []
    agents = [make_agent(game, "medium"), make_agent(game, "easy")]
    while len(out) < count:
        session = Session.new(game, options, seed=rng.randrange(10**6))
        steps = 0
        while not session.is_over and steps < 400 and len(out) < count:
            seat = session.to_act()
            assert seat is not None
            if rng.random() < 0.15:
                out.append(session.state.copy())
            obs = session.observation(seat)
            session.apply(agents[seat & 1].choose(obs, session.legal_actions(), rng))
            steps += 1
    return out


STATE_CLASSES = (ChkobbaState, SevenDiamondsState)


def reachable_objects(root: object) -> list[object]:
    """Every object reachable from ``root`` through its data (classes,
    modules and functions are code, not data, and are not followed)."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, skip):
            continue
        seen[id(o)] = o
        todo.extend(gc.get_referents(o))
    return list(seen.values())


def hidden_part(s: Any, seat: int) -> list[Any]:
    return [h for k, h in enumerate(s.hands) if k != seat] + [getattr(s, "deck", None)]


@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
def test_honesty_the_agent_cannot_reach_the_state(game: str) -> None:
    """An agent is handed an observation whose hidden part was dealt again at
    random (another world behind the same view). No state is reachable from
    the observation at all, so the agent decides exactly as it does on the
    real game's observation: it cannot tell the two games apart."""
    options: dict[str, Any] = {} if game == "seven_diamonds" else {"players": 2}
    agents = [make_agent(game, "easy"), make_agent(game, "medium"), make_agent(game, "hard", Budget(rollouts=24))]
    differed = 0
    # the walk would find a state hidden anywhere in an observation's data
    one = random_positions(game, options, 1, seed=3)[0]
    leaky = dataclasses.replace(one.observation(0), results=({"deep": [one]},))
    assert any(isinstance(o, STATE_CLASSES) for o in reachable_objects(leaky))
    for s in random_positions(game, options, 14, seed=11):
        seat = s.to_act()
        real = s.observation(seat)
        world = determinize(real, random.Random(7))
        resampled = world.observation(seat)
        assert resampled == real and resampled is not real
        differed += hidden_part(world, seat) != hidden_part(s, seat)
        for obs in (real, resampled):
            objects = reachable_objects(obs)
            assert not any(isinstance(o, STATE_CLASSES) for o in objects), "a state is reachable from the observation"
        for agent in agents:
            x = agent.choose(resampled, resampled.legal_actions(), random.Random(99))
            y = agent.choose(real, real.legal_actions(), random.Random(99))
            assert x == y, (agent, str(x), str(y))
    assert differed > 5


# --------------------------------------------------------- always legal

CHKOBBA_TABLES: list[dict[str, Any]] = [
    {"players": 2}, {"players": 4}, {"players": 2, "capture": "compulsory"},
    {"players": 4, "faces": "JQK", "last_card_sweep": True, "missed_capture": False},
]


@pytest.mark.parametrize("game,options", [("chkobba", o) for o in CHKOBBA_TABLES] +
                         [("seven_diamonds", {}), ("seven_diamonds", {"calls": False, "timers": False})])
def test_agents_only_return_legal_actions(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(5)
    levels = ["easy", "medium", "hard"]
    agents = {lv: make_agent(game, lv, Budget(rollouts=12)) if lv == "hard" else make_agent(game, lv)
              for lv in levels}
    decisions = 0
    for g in range(6):
        session = Session.new(game, options, seed=100 + g)
        seats = [levels[(g + k) % 3] for k in range(session.players)]
        steps = 0
        while not session.is_over and steps < 400:
            seat = session.to_act()
            assert seat is not None
            obs = session.observation(seat)
            legal = session.legal_actions()
            a = agents[seats[seat]].choose(obs, legal, rng)
            assert a in legal and a.kind != TIMEOUT
            session.apply(a)
            decisions += 1
            steps += 1
    assert decisions > 600


# ------------------------------------------------------- anytime + coach

def test_search_is_anytime_and_interruptible() -> None:
    s = chkobba_position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    obs = s.observation(0)
    legal = obs.legal_actions()
    search = HardAgent("chkobba").start(obs, legal, random.Random(3), Budget(rollouts=10**6, ms=None))
    assert search.best() in legal          # before any thinking: medium's choice
    slices = 0
    while not search.step(10) and slices < 5:
        assert search.best() in legal
        slices += 1
    assert search.stats()["rollouts"] > 0 and not search.done  # stopped by the caller, not by its budget
    before = search.stats()["rollouts"]
    search.step(1)  # and it goes on where it stopped
    assert search.stats()["rollouts"] > before and search.best() in legal
    # the same seed and rollout budget give the same answer
    b = Budget(rollouts=60)
    x = HardAgent("chkobba", b).choose(obs, legal, random.Random(8))
    y = HardAgent("chkobba", b).choose(obs, legal, random.Random(8))
    assert x == y


@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
def test_hint_is_json_and_ranks_every_action(game: str) -> None:
    s = random_positions(game, {}, 3, seed=4)[-1]
    seat = s.to_act()
    obs = s.observation(seat)
    h = hint(obs, random.Random(1), Budget(rollouts=30))
    text = json.dumps(h)
    assert json.loads(text)["seat"] == seat
    legal = {str(a) for a in obs.legal_actions() if a.kind != TIMEOUT}
    assert {row["action"] for row in h["actions"]} == legal
    assert h["best"] == h["actions"][0]["action"]
    assert all("reason" in row for row in h["actions"])


def test_hint_on_the_seven_of_diamonds() -> None:
    s = chkobba_position(["7D", "KS", "2H", "3C"], ["7S", "4H", "5C"], ["AC", "6H", "QC"])
    h = hint(s.observation(0), random.Random(1), Budget(rollouts=60))
    assert h["best"] == "7Sx7D"
    assert "7D" in h["actions"][0]["reason"]


# ------------------------------------------------------------------ arena

def test_small_arena_hard_beats_easy() -> None:
    setup = arena.Setup("chkobba", {"players": 2}, "hard", "easy", 3, Budget(rollouts=40), None)
    results = arena.run(setup, 4)
    out = arena.summarize(setup, results, 1.0)
    assert out["a_wins"] > out["b_wins"]
    assert out["a_points_per_round"] > out["b_points_per_round"]


def test_arena_command_json() -> None:
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = arena.main(["--game", "chkobba", "--a", "medium", "--b", "easy", "--games", "4", "--seed", "2",
                         "--option", "capture=compulsory", "--option", "target=21", "--json"])
    assert rc == 0
    out = json.loads(buf.getvalue())
    assert out["games"] == 4 and out["a_wins"] + out["b_wins"] + out["draws"] == 4
    assert out["options"]["capture"] == "compulsory" and out["options"]["target"] == 21


def test_arena_four_players_and_seven_diamonds() -> None:
    for argv in (["--game", "chkobba", "--players", "4"], ["--game", "seven_diamonds", "--target", "200"]):
        buf = io.StringIO()
        with redirect_stdout(buf):
            rc = arena.main(argv + ["--a", "medium", "--b", "easy", "--games", "2", "--json"])
        assert rc == 0
        assert json.loads(buf.getvalue())["games"] == 2


def test_arena_refuses_a_bad_option() -> None:
    assert arena.main(["--option", "capture=sometimes", "--games", "2"]) == 2
