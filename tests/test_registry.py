"""A game registers once (issue 20): the registry's declarations serve every
edge, the engine says what the facade used to work out (each game's winner,
a seat's side), and nothing outside ``chkobba/games/`` and the registry
branches on a game's name or state class."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from chkobba import registry
from chkobba.session import Session

ROOT = Path(__file__).resolve().parent.parent
GAME_TEST = re.compile(r'''== ?["'](chkobba|seven_diamonds)["']|["'](chkobba|seven_diamonds)["'] ?==|'''
                       r'''isinstance\([^)]*(ChkobbaState|SevenDiamondsState|ChkobbaObservation|SevenDiamondsObservation)''')


def test_nothing_outside_the_games_branches_on_a_game() -> None:
    found = []
    for path in sorted((ROOT / "chkobba").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("chkobba/games/") or rel == "chkobba/registry.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_TEST.search(line):
                found.append(f"{rel}:{n}: {line.strip()}")
    assert not found, found


def test_the_check_finds_a_branch() -> None:
    assert GAME_TEST.search('    if game == "chkobba":')
    assert GAME_TEST.search("isinstance(s, SevenDiamondsState)")


@pytest.mark.parametrize("name", registry.GAMES)
def test_each_game_is_declared_whole(name: str) -> None:
    g = registry.game(name)
    assert g.name == name and g.players and g.state_class.options_class().game == name
    kit = g.agents()
    assert kit.model().game == name
    names = [f[0] for f in g.link_fields]
    assert names == [spec.name for spec in g.options_class().SPECS]


@pytest.mark.parametrize("name,options", [("chkobba", {"players": 2, "target": 21, "match": 3}),
                                          ("chkobba", {"players": 4, "all_diamonds_wins": True}),
                                          ("seven_diamonds", {"target": 300})])
def test_the_engine_says_each_games_winner_and_each_seats_side(name: str, options: dict[str, object]) -> None:
    for seed in range(3):
        s = Session.new(name, options, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            st = s.state
            for seat in range(st.n):
                assert st.side_of(seat) == st.observation(seat).side
            obs = st.observation(st.to_act() or 0)
            assert type(registry.determinize(obs, rng)) is type(st)
            s.apply(rng.choice(s.legal()))
        st = s.state
        winners = st.game_winners
        assert [winners.count(0), winners.count(1)] == list(st.games) and winners[-1] == st.winner
        assert all((r.game_winner is None) == (r.game_won_by is None) for r in st.results)
