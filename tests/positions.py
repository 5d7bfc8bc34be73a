"""Helpers that state Chkobba positions for rule tests, through the public
positions API: :func:`chkobba.games.chkobba.setup.setup` (a position from its
parts) and ``Session.from_record`` (a position reached by play)."""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from chkobba.agents import make_agent
from chkobba.cards import card, code
from chkobba.games.chkobba.setup import setup
from chkobba.games.chkobba.state import DECK, ChkobbaState
from chkobba.games.seven_diamonds.state import PLAY, SevenDiamondsState, seven_diamonds_state
from chkobba.session import Session


def cards(text: str) -> list[int]:
    return [card(c) for c in text.split()]


def deck_for(table: str, hands: Sequence[str], rest: str = "") -> list[str]:
    """A deck for a "table" cut: ``table`` (4 cards) then the first hands in
    order of play from the cutter, then ``rest``, then every other card."""
    head = table.split() + [c for h in hands for c in h.split()] + rest.split()
    assert len(set(head)) == len(head), head
    tail = [code(c) for c in DECK if code(c) not in head]
    return head + tail


def position(hands: Sequence[str], table: str, turn: int = 0, options: dict[str, Any] | None = None,
             dealer: int | None = None, deck: str = "", piles: Sequence[str] = ("", ""),
             score: tuple[int, int] = (0, 0), games: tuple[int, int] = (0, 0)) -> ChkobbaState:
    """A state in the middle of play with the given hands (by seat) and table."""
    return setup(hands, table, turn=turn, options=options, dealer=dealer, deck=deck, piles=piles,
                 score=score, games=games)


def session_with(deck: list[str], options: dict[str, Any] | None = None, first_dealer: int = 0,
                 actions: Sequence[str] = (), at: tuple[int, int] | None = None) -> Session:
    """A session replaying one round that starts with ``deck`` (stopped at
    ``at=(1, ply)`` when given)."""
    opts = dict(options or {})
    rec = {"game": "chkobba", "options": opts, "first_dealer": first_dealer,
           "rounds": [{"decks": [deck], "actions": list(actions)}]}
    return Session.from_record(rec, seed=1, at=at)


def sessions_where(pred: Callable[[Any], bool], count: int, seed: int, options: dict[str, Any] | None = None,
                   share: float = 0.5, seed_stride: int = 100, level: str = "medium") -> list[Session]:
    """Copies of ``level`` games' sessions (medium by default) at positions
    where ``pred(obs)`` holds and the seat to act has more than one legal move
    (each such position kept with probability ``share``; game ``g`` dealt with
    seed ``seed * seed_stride + g``). Also the positions of
    ``bench/pyodide_hard.py`` and ``bench/card_location.py``."""
    out: list[Session] = []
    player = make_agent("chkobba", level)
    rng = random.Random(seed)
    g = 0
    while len(out) < count:
        s = Session.new("chkobba", options or {}, seed=seed * seed_stride + g)
        g += 1
        while not s.is_over and len(out) < count:
            seat = s.to_act()
            assert seat is not None
            obs = s.observation(seat)
            legal = obs.legal_actions()
            if pred(obs) and len(legal) > 1 and rng.random() < share:
                out.append(Session.from_record(s.record(), seed=s.seed))
            s.apply(player.choose(obs, legal, rng))
    return out


def drive(gen: Any) -> tuple[Any, int]:
    """Run a generator to its end: (its return value, how many pauses)."""
    pauses = 0
    try:
        while True:
            next(gen)
            pauses += 1
    except StopIteration as stop:
        return stop.value, pauses


def late_seven_positions(cards_left: int, games: int, seed: int = 0) -> list[SevenDiamondsState]:
    """Seven Diamonds play positions of medium rounds, one a round: the first
    with at most ``cards_left`` cards in the hands (rounds ``seed * 1000 + g``)."""
    medium = make_agent("seven_diamonds", "medium")
    out = []
    for g in range(games):
        s = Session.new("seven_diamonds", seed=seed * 1000 + g)
        rng = random.Random(g)
        while not s.state.results:
            st = seven_diamonds_state(s.state)
            if st.phase == PLAY and sum(h.bit_count() for h in st.hands) <= cards_left:
                out.append(st.copy())
                break
            obs = s.observation(st.turn)
            s.apply(medium.choose(obs, obs.legal_actions(), rng))
    return out
