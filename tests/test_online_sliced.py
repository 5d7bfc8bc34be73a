"""The host's computer seats thought in slices (``HostTable(sliced=True)``):
the host's page thinks a computer's move between its drawings instead of in
one long task (docs/online.md, "The computer's seats")."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from chkobba.agents import DEFAULT_BUDGETS, Budget
from chkobba.online.host import COMPUTER, HOST, REMOTE, HostTable, SeatSpec
from test_online import Net


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def counted_budgets() -> Iterator[None]:
    """Hard players that stop at a number of rollouts, not of milliseconds:
    the same choices however the search is cut into slices."""
    for game in ("chkobba", "seven_diamonds"):
        DEFAULT_BUDGETS[game] = Budget(rollouts=40, ms=None)
    yield
    for game in ("chkobba", "seven_diamonds"):
        del DEFAULT_BUDGETS[game]


def play_round(game: str, players: int, sliced: bool, seed: int) -> tuple[list[str], int]:
    """Round 1 with the host's seat playing at random and the others hard
    computers; its moves, and how many slices found a search unfinished."""
    seeds = random.Random(seed)
    h = HostTable(game, {"players": players}, [SeatSpec(HOST, "hard")] + [SeatSpec(COMPUTER, "hard")] * (players - 1),
                  Clock(), rng=random.Random(seed), host_seed=lambda: "%032x" % seeds.getrandbits(128), sliced=sliced)
    h.start()
    h.tick()
    pick = random.Random(seed + 1)
    unfinished = 0
    while h.session is not None and not h.session.is_over and h.position()[0] == 1:
        s = h.session
        seat = s.to_act()
        assert seat is not None
        if seat == h.host_seat:
            assert h.computer_turn() is None and h.think(5) is None
            h.host_act(pick.choice(s.legal()))
            h.tick()
            continue
        assert sliced, "without slices tick plays every computer seat"
        position = h.position()
        h.tick()
        assert h.position() == position, "with slices tick leaves the computer's move to the page"
        assert h.computer_turn() == seat
        while not h.think(1):
            unfinished += 1
        assert h.position() == position, "thinking plays nothing"
        h.computer_move()     # what it sends: nothing here, no friend sits
        assert h.position() != position
    assert h.session is not None
    return list(h.session.record_value().rounds[0].actions), unfinished


@pytest.mark.parametrize("game,players", [("chkobba", 2), ("chkobba", 4), ("seven_diamonds", 4)])
def test_a_move_thought_in_slices_is_the_move_thought_at_once(counted_budgets: None, game: str, players: int) -> None:
    at_once, _ = play_round(game, players, sliced=False, seed=7)
    sliced, unfinished = play_round(game, players, sliced=True, seed=7)
    assert sliced == at_once and len(sliced) > 4
    assert unfinished > 0, "some searches took more than one slice"


def test_a_friend_back_at_the_seat_the_computer_was_thinking_for_keeps_it() -> None:
    net = Net("chkobba", {"players": 2}, [HOST, REMOTE], seed=3, level="hard")
    h = net.host
    h.sliced = True
    net.deliver(h.start())
    g = net.guests[1]
    while True:
        while h.session is not None and h.session.to_act() != 1:
            assert net.step()
        assert h.session is not None
        if len(h.session.legal()) > 1:
            break
        assert net.step()
    net.deliver(h.disconnect(1))
    net.clock.now += h.grace
    net.deliver(h.tick())
    position = h.position()
    assert h.computer_turn() == 1, "after the grace period the computer is to play the seat"
    assert h.think(1) is False, "a hard search: not decided in its first call"
    # the friend comes back on a new connection before the computer decides
    h.connect(2)
    net.guests[2] = g
    net.inbox[2] = []
    net.send(2, g.join())
    assert h.computer_turn() is None and h.think(1) is None
    assert h.computer_move() == [] and h.position() == position
    net.send(2, g.act(g.legal[0]))
    assert h.position() != position, "the friend plays its own seat"
