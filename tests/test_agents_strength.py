"""The stronger hard level: the exact last deal, the game-win chance, what the
other seats' moves reveal, and the bench that plays it against a revision."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chkobba.actions import Action
from chkobba.agents import HardAgent, hint, make_agent
from chkobba.agents.chkobba import View, score_action
from chkobba.agents.endgame import applies, game_win_chance, solve
from chkobba.agents.inference import Evidence
from chkobba.cards import card
from chkobba import determinize
from chkobba.games.chkobba.state import ChkobbaState
from chkobba.session import Session

from positions import sessions_where

ROOT = Path(__file__).resolve().parent.parent


def last_deals(count: int, seed: int, options: dict[str, Any] | None = None) -> list[Session]:
    """Two-player positions with the deck empty, more than one legal move,
    met in medium games (each a copy of the session at that point)."""
    return sessions_where(applies, count, seed, options)


def brute(s: ChkobbaState, side: int, start: int, score: tuple[int, int], target: int) -> tuple[float, int]:
    """Plain minimax, no pruning and no table: the reference for the solver."""
    best: tuple[float, int] | None = None
    for a in s.legal_actions():
        t = s.copy()
        t.play(a)
        if len(t.results) > start:
            pts = t.results[start].points
            w = (round(game_win_chance(score[side] + pts[side], score[side ^ 1] + pts[side ^ 1], target), 9),
                 pts[side] - pts[side ^ 1])
        else:
            w = brute(t, side, start, score, target)
        if best is None or (w > best if (s.turn & 1) == side else w < best):
            best = w
    assert best is not None
    return best


def test_last_deal_solver_matches_plain_minimax() -> None:
    for sess in last_deals(12, seed=3):
        s = sess.state
        seat = s.to_act()
        obs = s.observation(seat)
        legal = obs.legal_actions()
        got = solve(obs, legal, max_nodes=10**9)
        assert got is not None
        for a, v in zip(legal, got):
            t = s.copy()
            t.play(a)
            if len(t.results) > len(s.results):
                continue
            assert v == brute(t, seat & 1, len(s.results), s.score, s.options.target), str(a)


def test_solved_value_is_what_best_play_gets() -> None:
    """Both seats playing the solver's choice reach exactly the value it
    promised (the state the solver used is the real one: the deck is empty)."""
    for sess in last_deals(10, seed=5):
        s = sess.state
        side = s.to_act() & 1
        obs = s.observation(s.to_act())
        promised = max(solve(obs, obs.legal_actions()) or [])
        start = len(s.results)
        while len(s.results) == start:
            o = s.observation(s.to_act())
            legal = o.legal_actions()
            vals = solve(o, legal)
            assert vals is not None
            s = s.copy()
            s.play(legal[max(range(len(legal)), key=lambda i: vals[i])])
        pts = s.results[start].points
        assert promised[1] == pts[side] - pts[side ^ 1]


def test_solver_refuses_a_position_too_big_for_its_limit() -> None:
    sess = next(x for x in last_deals(6, seed=7) if sum(len(h) for h in x.state.hands) > 2)
    obs = sess.observation(sess.to_act())
    legal = obs.legal_actions()
    assert solve(obs, legal, max_nodes=0) is None
    assert solve(obs, legal) is not None


def test_hard_plays_the_solved_move_and_the_coach_says_so() -> None:
    for sess in last_deals(8, seed=11):
        obs = sess.observation(sess.to_act())
        legal = obs.legal_actions()
        vals = solve(obs, legal)
        assert vals is not None
        best = max(vals)
        choice = make_agent("chkobba", "hard").choose(obs, legal, random.Random(0))
        assert vals[legal.index(choice)] == best
        h = hint(obs, random.Random(0))
        top = h["actions"][0]
        assert top["exact"] is True and vals[legal.index(Action(*_parse(sess, top["action"])))] == best
        assert h["stats"]["exact"] is True
        if best[0] < 1.0 and best[1] > 0:
            assert "wins the last deal by force" in top["reason"]


def _parse(sess: Session, text: str) -> tuple[Any, ...]:
    return tuple(sess.state.parse(text))


def test_game_win_chance() -> None:
    for a in range(0, 11):
        for b in range(0, 11):
            assert game_win_chance(a, b, 11) + game_win_chance(b, a, 11) == pytest.approx(1.0)
    assert game_win_chance(0, 0, 11) == pytest.approx(0.5)
    assert game_win_chance(10, 3, 11) > game_win_chance(9, 3, 11) > game_win_chance(9, 4, 11)
    assert game_win_chance(11, 10, 11) == 1.0 and game_win_chance(12, 12, 11) == 0.5


def test_the_search_plays_for_the_game_near_the_target() -> None:
    """At 10-10 to 11 a sure point beats a chance at two: the solver ranks by
    the game first."""
    assert game_win_chance(11, 10, 11) > game_win_chance(12, 11, 11) - 1e-9
    assert (game_win_chance(11, 10, 11), 1) > (game_win_chance(10, 10, 11), 0)


def test_evidence_makes_a_seven_unlikely_after_the_seven_of_diamonds_was_left() -> None:
    """The other player laid a card while the 7D lay on the table: samples
    giving them a seven (which would have taken it) weigh less."""
    checked = 0
    for g in range(60):
        s = Session.new("chkobba", {}, seed=900 + g)
        medium = make_agent("chkobba", "medium")
        rng = random.Random(g)
        while not s.is_over and checked < 5:
            seat = s.to_act()
            assert seat is not None
            obs = s.observation(seat)
            legal = obs.legal_actions()
            if obs.phase == "play":
                ev = Evidence(obs, View, score_action)
                for (j, _, e), table in zip(ev.moves, ev.tables):
                    sevens = [c for c in (card("7S"), card("7H"), card("7C")) if c in e]
                    others = [c for c in e if c not in sevens and s.state.values[c] not in
                              [s.state.values[t] for t in table]]
                    if card("7D") in table and sevens and others:
                        assert min(e[c] for c in sevens) > max(e[c] for c in others)
                        checked += 1
            s.apply(medium.choose(obs, legal, rng))
        if checked >= 5:
            break
    assert checked >= 1


def test_evidence_uses_only_the_observation() -> None:
    """Two hidden deals behind one observation: the same evidence."""
    s = Session.new("chkobba", {"players": 4}, seed=4)
    medium = make_agent("chkobba", "medium")
    rng = random.Random(1)
    for _ in range(30):
        seat = s.to_act()
        assert seat is not None
        s.apply(medium.choose(s.observation(seat), s.legal_actions(), rng))
    seat = s.to_act()
    obs = s.observation(seat)
    other = determinize(obs, random.Random(9)).observation(seat)
    assert obs == other
    a, b = Evidence(obs, View, score_action), Evidence(other, View, score_action)
    assert a.moves == b.moves and a.moves


@pytest.mark.parametrize("options", [{}, {"capture": "compulsory"}, {"players": 4}])
def test_hard_with_inference_stays_legal(options: dict[str, Any]) -> None:
    s = Session.new("chkobba", options, seed=12)
    agent = HardAgent("chkobba")
    rng = random.Random(0)
    for _ in range(40):
        seat = s.to_act()
        assert seat is not None
        obs = s.observation(seat)
        a = agent.choose(obs, obs.legal_actions(), rng)
        assert a in obs.legal_actions()
        s.apply(a)


def test_vs_revision_plays_duplicate_games_in_separate_processes(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "vs_revision.py"), "--rev", ".", "--level", "easy",
                          "--level-b", "medium", "--games", "4", "--jobs", "2", "--json", "--log", str(log)],
                         check=True, capture_output=True, text=True, cwd=ROOT, timeout=600)
    res = json.loads(out.stdout)
    assert res["games"] == 4 and res["pairs"] == 2
    assert res["a"] == "easy@." and res["b"] == "medium@."
    assert res["a_wins"] + res["b_wins"] + res["draws"] == 4
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]
    assert {r["a_side"] for r in rows} == {0, 1}


def test_paired_interval() -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import vs_revision
    rows = [{"pair": k // 2, "winner": w} for k, w in enumerate(["a", "a", "a", "b", "b", "b", "a", "a"])]
    share, lo, hi, n = vs_revision.paired_ci(rows)
    assert n == 4 and share == pytest.approx(5 / 8)
    assert lo < share < hi


def test_vs_revision_asks_a_v01_facade_for_the_level_of_seat_zero(tmp_path: Path) -> None:
    """v0.1's facade reads the asked seat's level from the save's seats even
    when that seat is the human one it requires first (and plays medium when
    the seat has no level): the bench must send the level there too."""
    pkg = tmp_path / "chkobba"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "web.py").write_text(
        "import json\n"
        "def call(name, payload):\n"
        "    args = json.loads(payload)\n"
        "    seats = args['save']['seats']\n"
        "    if seats[0].get('kind') != 'human':\n"
        "        return json.dumps({'error': {'message': 'the first seat must be yours'}})\n"
        "    level = seats[args['seat']].get('level', 'medium')\n"
        "    return json.dumps({'ok': {'action': 'play-' + level, 'level': level}})\n")
    sys.path.insert(0, str(ROOT / "bench"))
    import vs_revision
    side = vs_revision.Side(tmp_path)
    try:
        save = {"record": {}, "seats": [{"kind": "computer", "level": "hard"}] * 2}
        assert side.choose(save, 0)[0] == "play-hard"
        assert side.choose(save, 1)[0] == "play-hard"
    finally:
        side.close()
