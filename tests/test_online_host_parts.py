"""The host's table in parts, and Session's public deck hook it deals through.

``HostTable`` is composed of parts with one concern each (chkobba/online/
host_*.py, none over 400 lines) and its session's decks come from the round
seeds through ``Session(deck_source=...)``, not an override of Session's
private ``_next_deck``."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

import test_online
from chkobba.cards import CODES, Card
from chkobba.online import host as host_module
from chkobba.online.deal import deck, round_seed
from chkobba.online.host import HOST, REMOTE, HostTable
from chkobba.protocol import GameState, Observation
from chkobba.records import Record
from chkobba.registry import game_class
from chkobba.session import DeckSlot, Session

ONLINE = Path(host_module.__file__).parent
State = GameState[Observation]


def _classes_under(cls: type) -> list[type]:
    return [k for k in cls.__mro__ if k is not object]


def test_no_class_of_the_host_overrides_the_sessions_private_deal() -> None:
    net = test_online.started()
    session = net.host.session
    assert session is not None
    for k in _classes_under(type(session)) + _classes_under(HostTable):
        if k is not Session:
            assert "_next_deck" not in vars(k), f"{k.__qualname__} overrides Session._next_deck"


def test_the_hosts_decks_are_the_round_seeds_decks() -> None:
    net = test_online.started()
    h = net.host
    net.play(rounds=2)
    assert h.session is not None
    rounds = h.session.record_value().rounds
    assert len(rounds) >= 2
    for number, entry in enumerate(rounds, 1):
        seed = round_seed("chkobba", number, h.seeds[number].reveals)
        assert entry.decks == [deck("chkobba", seed, i) for i in range(len(entry.decks))]


def test_no_host_module_is_over_400_lines_and_each_says_its_concern() -> None:
    modules = sorted(ONLINE.glob("host*.py"))
    assert len(modules) >= 5, modules
    for path in modules:
        text = path.read_text()
        assert text.count("\n") <= 400, (path.name, text.count("\n"))
        doc = ast.get_docstring(ast.parse(text))
        assert doc, f"{path.name} says nothing of what it is for"
        if path.name not in ("host.py", "host_flow.py"):
            assert "One part of" in doc, path.name


# ------------------------------------------------------------------ the hook

def _new(game: str = "chkobba", dealer: int = 0) -> tuple[State, Record]:
    opts = game_class(game).options_class().from_dict({})
    state: State = game_class(game).new(opts.to_dict(), dealer)
    return state, Record(game, opts.to_dict(), dealer, [])


def test_a_session_without_a_deck_source_shuffles_as_before() -> None:
    s = Session.new("chkobba", {}, seed=77, first_dealer=0)
    expected = list(game_class("chkobba").full_deck())
    random.Random("77/0").shuffle(expected)
    assert s.record()["rounds"][0]["decks"][0] == [CODES[c] for c in expected]


def test_a_deck_source_gives_the_decks_and_may_say_not_yet() -> None:
    asked: list[DeckSlot] = []
    known: dict[int, list[Card]] = {}

    def source(state: State, slot: DeckSlot) -> list[Card] | None:
        asked.append(slot)
        return known.get(slot.round)

    state, rec = _new()
    s = Session(state, rec, 0, deck_source=source)
    assert asked == [DeckSlot(0, 1, 0)] and s.state.needs_deal and s.decks_dealt == 0
    assert s.deal_waiting() is False, "still not known: still waiting"
    cards = list(reversed(game_class("chkobba").full_deck()))
    known[1] = cards
    before = s.state
    assert s.deal_waiting() is True
    assert s.state is not before and not s.state.needs_deal
    assert s.record()["rounds"][0]["decks"][0] == [CODES[c] for c in cards]
    assert s.latest_step_replays()
    # a copy deals from the same source
    c = s.copy()
    for _ in range(200):
        if c.state.needs_deal or c.is_over:
            break
        c.apply(c.legal()[0])
    assert c.state.needs_deal and asked[-1] in (DeckSlot(1, 2, 0), DeckSlot(1, 1, 1)), asked[-1]
    assert s.decks_dealt == 1, "the copy's play leaves the session as it was"


def test_a_deck_source_that_gives_a_wrong_deck_is_refused_and_changes_nothing() -> None:
    state, rec = _new()
    full = list(game_class("chkobba").full_deck())
    bad: dict[str, Any] = {"deck": full[:-1] + full[:1], "now": False}
    with pytest.raises(ValueError, match="every card of the full deck once"):
        Session(state, rec, 0, deck_source=lambda st, slot: bad["deck"])
    state, rec = _new()
    s = Session(state, rec, 0, deck_source=lambda st, slot: bad["deck"] if slot.round > 1 or bad["now"] else None)
    bad["now"], bad["deck"] = True, full[:10]
    with pytest.raises(ValueError):
        s.deal_waiting()
    assert s.state.needs_deal and s.decks_dealt == 0 and s.record()["rounds"] == []


def test_a_friends_seat_still_plays_through_the_parts() -> None:
    """The composed table end to end: a friend sits, the seeds deal, moves go
    both ways, the round is audited on the friend's phone."""
    net = test_online.Net("chkobba", {"players": 2}, [HOST, REMOTE], seed=5)
    net.deliver(net.host.start())
    net.play(rounds=1)
    g = net.guests[1]
    assert g.audited[:1] == [1] and not g.audit_failures
