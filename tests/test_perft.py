"""Golden legal-move counts (python-chess's "perft") for fixed deals of both games.

``perft(state, n)`` counts the sequences of ``n`` legal actions from a
position; a sequence that reaches the end of a round, an accepted re-deal or
the end of the match (no seat to act) stops there and counts once. The
numbers were computed on the engine before the refactor of issue 8 and are
kept as literals: a change in any rule (captures, claims, re-deals, calls,
timers, forced passes, order of play) shows as a number changing.

Each deal is ``full_deck()`` shuffled by ``random.Random(seed)``; ``prefix``
plays that many first legal actions before counting, to reach mid-round
positions (claims, refills of the hands, the end of a round).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from chkobba.registry import game_class


def perft(s: Any, depth: int) -> int:
    if depth == 0 or s.to_act() is None:
        return 1
    actions = s.legal_actions()
    if depth == 1:
        return len(actions)
    n = 0
    for a in actions:
        t = s.copy()
        t.play(a)
        n += perft(t, depth - 1)
    return n


def start(game: str, options: dict[str, Any], seed: int, dealer: int, prefix: int) -> Any:
    cls = game_class(game)
    s = cls.new(options, dealer)
    deck = list(cls.full_deck())
    random.Random(seed).shuffle(deck)
    s.deal(deck)
    for _ in range(prefix):
        if s.to_act() is None:
            break
        s.play(s.legal_actions()[0])
    return s


# (name, game, options, seed, first dealer, prefix, depth, count)
GOLDEN = [
    ("chkobba-1v1-default", "chkobba", {}, 1, 0, 0, 9, 119428),
    ("chkobba-compulsory", "chkobba", {"capture": "compulsory"}, 2, 1, 0, 16, 53164),
    ("chkobba-2v2", "chkobba", {"players": 4}, 3, 2, 0, 8, 116088),
    ("chkobba-redeal-table", "chkobba", {}, 130, 0, 0, 9, 98554),
    ("chkobba-2v2-jqk-redeal", "chkobba", {"players": 4, "faces": "JQK"}, 163, 3, 0, 8, 44691),
    ("chkobba-mid-round", "chkobba", {}, 4, 0, 9, 9, 73782),
    ("chkobba-round-end", "chkobba", {}, 7, 1, 28, 14, 17544),
    ("seven-diamonds-calls-timers", "seven_diamonds", {}, 5, 0, 0, 13, 79872),
    ("seven-diamonds-no-calls", "seven_diamonds", {"calls": False, "timers": False}, 6, 3, 0, 28, 26900),
    ("seven-diamonds-to-round-end", "seven_diamonds", {"timers": False}, 8, 1, 12, 40, 840),
]


@pytest.mark.parametrize("name,game,options,seed,dealer,prefix,depth,count", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_perft(name: str, game: str, options: dict[str, Any], seed: int, dealer: int, prefix: int,
               depth: int, count: int) -> None:
    assert perft(start(game, options, seed, dealer, prefix), depth) == count


@pytest.mark.parametrize("name,game,options,seed,dealer,prefix,depth,count", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_legal_actions_read_back_and_apply(name: str, game: str, options: dict[str, Any], seed: int,
                                           dealer: int, prefix: int, depth: int, count: int) -> None:
    """Near each golden position, every legal action's text reads back to the
    same action and the checked ``apply`` accepts it."""
    frontier = [start(game, options, seed, dealer, prefix)]
    for _ in range(3):
        nxt = []
        for s in frontier:
            if s.to_act() is None:
                continue
            for a in s.legal_actions():
                assert s.parse(str(a)) == a
                nxt.append(s.apply(str(a)))
        frontier = nxt
