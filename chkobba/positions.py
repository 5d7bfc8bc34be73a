"""Positions: a game at any point of a record, and the moves of its rounds.

A position is a record plus where to stop: ``at=(round, ply)`` with ``round``
counted from 1 and ``ply`` the number of that round's actions applied (from
0: right after the round's first deal). :func:`position` gives the record cut
there and the state it leads to; :class:`~chkobba.session.Session` builds on it
(``Session.from_record(record, at=(2, 5))``), and ``Session.view(seat)`` shows
the position to any seat, or with every hand when ``seat`` is ``None``.

The record is read and checked whole first (``records.replay``), so a
position of a bad record fails with the record's own error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .actions import Action
from .cards import card
from .errors import InvalidRecord
from .messages import quote
from .protocol import GameState, JSONDict, Observation
from .records import Record, RoundRecord, round_starts
from .registry import game_class

State = GameState[Observation]


@dataclass
class Step:
    """One action of a checked record: where it is, the state before and after."""

    round: int   # from 1
    ply: int     # the action's index in its round, from 0
    action: Action
    before: State
    after: State  # right after the action, before any new deal


def _deal(state: State, deck: list[str]) -> None:
    state.deal([card(c) for c in deck])


def walk(rec: Record) -> Iterator[tuple[int, int, State, int]]:
    """Every position of a record already checked by ``replay``, in order:
    ``(round, ply, state, decks_dealt_in_round)``, ply 0 right after each
    round's first deal, ply k after its k-th action (and after any deal that
    action called for, such as an accepted re-deal's new deck)."""
    state: State = game_class(rec.game).new(dict(rec.options), rec.first_dealer)
    for r, rnd in enumerate(rec.rounds, 1):
        if not rnd.decks:
            continue
        state = state.copy()
        _deal(state, rnd.decks[0])
        dealt = 1
        yield r, 0, state, dealt
        for i, text in enumerate(rnd.actions, 1):
            state = state.copy()
            state.play(state.parse(text))
            if state.needs_deal and state.deal_continues_round() and dealt < len(rnd.decks):
                _deal(state, rnd.decks[dealt])
                dealt += 1
            yield r, i, state, dealt


def steps(rec: Record, round_number: int) -> list[Step]:
    """The actions of one round of a checked record, each with the state
    before it and right after it (before any deal it calls for). The round
    is played from its kept start (:func:`_round_starts`), not from the
    start of the match."""
    out: list[Step] = []
    if not 1 <= round_number <= len(rec.rounds):
        return out
    if not all(rnd.decks for rnd in rec.rounds):
        return _walked_steps(rec, round_number)
    rnd = rec.rounds[round_number - 1]
    state = _round_starts(rec)[round_number - 1].copy()
    dealt = 1
    for ply, text in enumerate(rnd.actions):
        a = state.parse(text)
        after = state.copy()
        after.play(a)
        out.append(Step(round_number, ply, a, state, after))
        state = after.copy()
        if state.needs_deal and state.deal_continues_round() and dealt < len(rnd.decks):
            _deal(state, rnd.decks[dealt])
            dealt += 1
    return out


def _walked_steps(rec: Record, round_number: int) -> list[Step]:
    """:func:`steps` by a walk from the start (a record with a round that
    deals nothing, which a checked record never has)."""
    out: list[Step] = []
    if not 1 <= round_number <= len(rec.rounds):
        return out
    rnd = rec.rounds[round_number - 1]
    prev: State | None = None
    for r, ply, state, dealt in walk(Record(rec.game, rec.options, rec.first_dealer,
                                            rec.rounds[:round_number])):
        if r != round_number:
            continue
        if prev is not None and ply > 0:
            a = prev.parse(rnd.actions[ply - 1])
            after = prev.copy()
            after.play(a)
            out.append(Step(r, ply - 1, a, prev, after))
        prev = state
    return out


def check_at(rec: Record, at: object) -> tuple[int, int]:
    """``at`` as ``(round, ply)`` inside ``rec``; raises :class:`InvalidRecord`."""
    if (not isinstance(at, (tuple, list)) or len(at) != 2
            or not all(type(x) is int for x in at)):
        raise InvalidRecord("position.form", value=quote(at))
    r, ply = at[0], at[1]
    if not 1 <= r <= len(rec.rounds):
        raise InvalidRecord("position.round", rounds=len(rec.rounds), round=r)
    count = len(rec.rounds[r - 1].actions)
    if not 0 <= ply <= count or not rec.rounds[r - 1].decks:
        raise InvalidRecord("position.ply", round=r, count=count, ply=ply)
    return r, ply


def position(rec: Record, at: tuple[int, int]) -> tuple[Record, State]:
    """The record cut at ``at`` (its later rounds and actions dropped, and
    the decks not yet used) and the state there. ``rec`` must be checked.

    At the end of a round the game waits for the next deal: when the record
    goes on, the position is the next round's first deal, ``(round + 1, 0)``;
    otherwise the session deals the next deck from its seed."""
    r, ply = check_at(rec, at)
    if ply == len(rec.rounds[r - 1].actions) and r < len(rec.rounds):
        # the end of a round that the record follows with another: the next
        # round's deal, from the record's own deck (not a new one)
        return position(rec, (r + 1, 0))
    state = _round_starts(rec)[r - 1].copy()
    rnd = rec.rounds[r - 1]
    dealt = 1
    for text in rnd.actions[:ply]:
        state.play(state.parse(text))
        if state.needs_deal and state.deal_continues_round() and dealt < len(rnd.decks):
            _deal(state, rnd.decks[dealt])
            dealt += 1
    rounds = [RoundRecord([list(d) for d in x.decks], list(x.actions)) for x in rec.rounds[:r - 1]]
    rounds.append(RoundRecord([list(d) for d in rnd.decks[:dealt]], list(rnd.actions[:ply])))
    return Record(rec.game, dict(rec.options), rec.first_dealer, rounds), state


def _round_starts(rec: Record) -> list[State]:
    """The state right after each round's first deal, for a checked record
    (every round deals), kept with the record's replay
    (:func:`chkobba.records.round_starts`): a position is reached from the
    start of its round, not from the start of the match (stepping through
    a long replay would otherwise replay it all each time). Copy before playing."""
    return round_starts(rec)


def every_position(rec: Record) -> list[tuple[int, int]]:
    """Every position of a record, ``(round, ply)`` in order of play: only
    what the record holds (a replay steps through these). A record that
    ends at a round's end ends at that round's last ply (not at a deal the
    record does not hold); a record with no round has no position.

    Use this, not the rounds of ``Session.from_record(...).record()``: a
    session deals the next deck from its seed when the record stops at a
    round's end, and that deal is not in the record."""
    return [(r, p) for r, rnd in enumerate(rec.rounds, 1) if rnd.decks
            for p in range(len(rnd.actions) + 1)]


def round_moves(rec: Record, round_index: int) -> list[JSONDict]:
    """The moves of a round (``round_index`` from 0) of a checked record,
    oldest first, engine events included (see ``Session.moves``)."""
    out: list[JSONDict] = []
    for st in steps(rec, round_index + 1):
        out.extend(st.before.describe_moves(st.action, st.after))
    return out
