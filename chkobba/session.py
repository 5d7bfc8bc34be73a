"""A game being played: a state, its record, and where new decks come from.

The session is what the command line and the web table drive. It owns the
record (RECORDS.md) as it grows, shuffles each new deck from a seeded source
(deck ``k`` of a session comes from ``Random(f"{seed}/{k}")``, the same in
CPython and Pyodide), and applies action texts: an illegal or unreadable one
raises a :class:`~chkobba.errors.ChkobbaError` (with a message code and the
English text) and changes nothing.

Where decks come from is the session's one hook: ``Session(..., deck_source=f)``
asks ``f(state, slot)`` for each deck (:data:`DeckSource`, :class:`DeckSlot`);
it may answer None ("not yet": the state waits, undealt) and the owner deals
it later with :meth:`Session.deal_waiting` (the online host, whose decks come
from every phone's committed seeds: :mod:`chkobba.online.host_seeds`).

Positions: ``Session.from_record(record, at=(round, ply))`` stops a record at
any point (:mod:`chkobba.positions`), and ``view(None)`` shows every hand.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .actions import Action
from .cards import CODES, Card, card
from .errors import ChkobbaError, InvalidRecord
from .positions import Step, position, round_moves, steps
from .protocol import GameState, JSONDict, Observation
from .records import Record, RecordDict, RoundRecord, Summary, parse_record, replay, summary
from .registry import game_class

State = GameState[Observation]


@dataclass(frozen=True)
class DeckSlot:
    """Which deck a state waits for: the session's ``k``-th deck (from 0,
    every round's and re-deal's counted), for ``round`` (from 1, as the
    record numbers them), the ``index``-th deck of that round (0: the
    round's first; more: its re-deals)."""
    k: int
    round: int
    index: int


DeckSource = Callable[[State, DeckSlot], Sequence[Card] | None]
"""Where a session's decks come from: the cards of ``state``'s full deck in
the order to deal them, or None while that deck is not known yet (the state
then waits for :meth:`Session.deal_waiting`)."""


class Session:
    """A match in progress, with its growing record."""

    def __init__(self, state: State, record: Record, seed: int, deck_source: DeckSource | None = None) -> None:
        """``deck_source``: where each new deck comes from (default: the
        seeded shuffle, deck ``k`` from ``Random(f"{seed}/{k}")``)."""
        self.state = state
        self._record = record
        self.seed = seed
        self._deck_source = deck_source
        self._moves: dict[tuple[int, int], list[JSONDict]] = {}
        self._decks = sum(len(r.decks) for r in record.rounds)
        # what the latest step wrote: (the state before it, the action's text, the deck it dealt)
        self._step: tuple[State, str | None, tuple[list[str], bool] | None] | None = None
        before = state.copy() if state.needs_deal and not state.is_over else state
        deck = self._next_deck(state)
        self._write_deck(deck)
        if deck is not None:
            self._step = (before, None, deck)

    # -------------------------------------------------------------- creation
    @classmethod
    def new(cls, game: str = "chkobba", options: Mapping[str, object] | None = None, seed: int | None = None,
            first_dealer: int | None = None) -> "Session":
        """A new match. The first dealer is drawn from the seed unless given."""
        state_cls = game_class(game)
        opts = state_cls.options_class().from_dict(options or {})
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if first_dealer is None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(opts.players)
        state: State = state_cls.new(opts.to_dict(), first_dealer)
        return cls(state, Record(game, opts.to_dict(), first_dealer, []), seed)

    @classmethod
    def from_record(cls, record: Record | Mapping[str, object] | str, seed: int | None = None,
                    at: tuple[int, int] | None = None) -> "Session":
        """Resume a record (a save, a shared game, a tutorial position).

        ``at=(round, ply)`` stops it there: ``round`` from 1, ``ply`` the
        number of that round's actions applied, from 0 (the session's record
        is then the record cut at that point, and play may go on from it).
        Without a seed, later decks come from one derived from the (cut)
        record itself, so resuming the same record twice gives the same game."""
        rec = record.copy() if isinstance(record, Record) else parse_record(record)
        state = replay(rec)
        if at is not None:
            rec, state = position(rec, at)
        if seed is None:
            seed = zlib.crc32(rec.dumps().encode())
        return cls(state, rec, seed)

    # --------------------------------------------------------------- queries
    @property
    def game(self) -> str:
        return self.state.game

    @property
    def players(self) -> int:
        return self.state.n

    def to_act(self) -> int | None:
        return self.state.to_act()

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal(self) -> list[str]:
        return [str(a) for a in self.state.legal_actions()]

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def observation(self, seat: int) -> Observation:
        return self.state.observation(seat)

    def record_data(self) -> RecordDict:
        """The record so far (RECORDS.md), as a JSON object."""
        return self._record.to_json()

    def record(self) -> RecordDict:
        """The record so far (RECORDS.md), as a JSON object (:meth:`record_data`)."""
        return self._record.to_json()

    @property
    def decks_dealt(self) -> int:
        """How many decks the record holds (every round's, re-deals included)."""
        return self._decks

    def latest_round(self) -> int:
        """The index (from 0) of the latest round that has any action: the
        round :meth:`moves` shows by default (0 when none has)."""
        rounds = self._record.rounds
        index = len(rounds) - 1
        while index > 0 and not rounds[index].actions:
            index -= 1
        return max(index, 0)

    def copy(self) -> "Session":
        """A session to try a move on: playing on the copy leaves this one as
        it is (a move replaces the state object, never changes it in place,
        and touches only the record's last round and its list of rounds)."""
        clone = Session.__new__(Session)
        clone.state = self.state
        clone.seed = self.seed
        clone._deck_source = self._deck_source
        rec = self._record
        rounds = list(rec.rounds)
        if rounds:
            rounds[-1] = RoundRecord(list(rounds[-1].decks), list(rounds[-1].actions))
        clone._record = Record(rec.game, rec.options, rec.first_dealer, rounds)
        clone._moves = dict(self._moves)
        clone._decks = self._decks
        clone._step = self._step
        return clone

    def latest_step_replays(self) -> bool:
        """Whether the latest step replays: its action's text and the deck it
        dealt, read back from the record as a replay reads them and applied
        to the position before it, give this session's position. That is
        what replaying the whole record would find wrong about the step, at
        the cost of one action (the earlier steps were checked when made)."""
        if self._step is None:
            return True
        before, text, deck = self._step
        t = before.copy()
        try:
            if text is not None:
                a = t.parse(text)
                t.verify_action(a)
                t.play(a)
            if deck is not None:
                codes, new_round = deck
                last = self._record.rounds[-1]
                if last.decks[-1] != codes or new_round != (len(last.decks) == 1):
                    return False
                t.deal([card(c) for c in last.decks[-1]])
        except ChkobbaError:
            return False
        return (t.history() == self.state.history() and t.to_act() == self.state.to_act()
                and t.score == self.state.score and t.round_index == self.state.round_index)

    def record_json(self) -> str:
        return self._record.dumps()

    def summary(self) -> Summary:
        """The replay output (RECORDS.md) of the game so far."""
        return summary(self.state)

    # ----------------------------------------------------------------- moves
    def moves(self, round_index: int | None = None) -> list[JSONDict]:
        """The moves of a round (``round_index`` from 0, as in the view;
        default: the latest round that has any move), oldest first; ``[]``
        for a round that does not exist.

        Each move is ``{"seat", "action" (record text, or None for an engine
        event), "kind", "card", "cards", "take" (same as cards), "chkobba",
        "round_ended", "code", "params", "text"}``. Kinds: ``cut``,
        ``redeal`` (propose/pass/accept/refuse), ``lay``, ``capture``,
        ``claim``, ``call`` (double/triple), ``pass`` (a call), ``timeout``,
        and the engine's events ``forced_pass``, ``last_card``, ``out``."""
        rounds = self._record.rounds
        if round_index is None:
            round_index = len(rounds) - 1
            while round_index > 0 and not rounds[round_index].actions:
                round_index -= 1
        if type(round_index) is not int or not 0 <= round_index < len(rounds):
            return []
        key = (round_index, len(rounds[round_index].actions))
        hit = self._moves.get(key)
        if hit is None:
            hit = round_moves(self._record, round_index)
            self._moves[key] = hit
        return [dict(m) for m in hit]

    def steps(self, round_index: int) -> list[Step]:
        """The actions of a round (``round_index`` from 0), each with the
        state before it and right after it (before any deal it called for),
        played from the round's start (:func:`chkobba.positions.steps`)."""
        return steps(self._record, round_index + 1)

    @property
    def last_move(self) -> JSONDict | None:
        """The newest move made by a seat's action, as the table has shown it
        since v0.1: ``kind`` is the action's own kind (``keep``, ``propose``,
        ``lay``, ``capture``, ``claim``, ``double``, ``pass``, ``timeout``...),
        ``round_ended`` says whether that action ended the round; the other
        keys are those of :meth:`moves`. None before the record's first action."""
        rounds = self._record.rounds
        for ri in range(len(rounds) - 1, -1, -1):
            if not rounds[ri].actions:
                continue
            moves = self.moves(ri)
            for i in range(len(moves) - 1, -1, -1):
                action = moves[i]["action"]
                if isinstance(action, str):
                    out = dict(moves[i])
                    out["kind"] = self.state.parse(action).kind
                    out["round_ended"] = any(m["round_ended"] for m in moves[i:])
                    return out
        return None

    # --------------------------------------------------------------- actions
    def apply(self, action: str | Action) -> Action:
        """Play an action (text or value) for the seat to act; returns it.

        Raises ChkobbaError (and changes nothing) if it is unreadable or illegal."""
        s = self.state
        a = s.parse(action) if isinstance(action, str) else action
        s.verify_action(a)
        new = s.copy()
        new.play(a)
        ri = len(self._record.rounds) - 1
        actions = self._record.rounds[ri].actions
        known = self._moves.get((ri, len(actions)))
        described = known + s.describe_moves(a, new) if known is not None else None
        deck = self._next_deck(new)
        # everything that can fail is done: the state and its record change together
        self._moves.pop((ri, len(actions)), None)
        actions.append(str(a))
        if described is not None:  # keep the round's moves up to date without replaying it
            self._moves[(ri, len(actions))] = described
        self._write_deck(deck)
        self._step = (s, str(a), deck)
        self.state = new
        return a

    def shuffled(self, s: State, slot: DeckSlot) -> list[Card]:
        """The default deck source: ``s``'s full deck shuffled by
        ``Random(f"{seed}/{k}")``."""
        deck = list(s.full_deck())
        random.Random(f"{self.seed}/{slot.k}").shuffle(deck)
        return deck

    def deal_waiting(self) -> bool:
        """Deal the deck the state waits for, if its source now gives it (one
        that answered None before); True when it dealt. The deal makes a new
        state object, as a move does (copies of the session keep theirs)."""
        before = self.state
        new = before.copy()
        deck = self._next_deck(new)
        if deck is None:
            return False
        self._write_deck(deck)
        self._step = (before, None, deck)
        self.state = new
        return True

    def _next_deck(self, s: State) -> tuple[list[str], bool] | None:
        """Deal ``s`` its next deck if it waits for one and its source gives
        it; returns the deck's codes and whether it starts a new round entry
        (else it is a re-deal of the current round), for :meth:`_write_deck`."""
        if not s.needs_deal or s.is_over:
            return None
        rounds = self._record.rounds
        new_round = not s.deal_continues_round() or not rounds
        slot = DeckSlot(self._decks, len(rounds) + 1 if new_round else len(rounds),
                        0 if new_round else len(rounds[-1].decks))
        if self._deck_source is None:
            deck = self.shuffled(s, slot)
        else:
            given = self._deck_source(s, slot)
            if given is None:
                return None
            deck = list(given)
            if sorted(deck) != sorted(s.full_deck()):
                raise ValueError(f"deck {slot.k}: a deck source must give every card of the full deck once")
        s.deal(deck)
        return [CODES[c] for c in deck], new_round

    def _write_deck(self, deck: tuple[list[str], bool] | None) -> None:
        """Write a dealt deck into the record: a round entry is only ever
        written together with its deck, so the record always replays."""
        if deck is None:
            return
        codes, new_round = deck
        if new_round:
            self._record.rounds.append(RoundRecord([codes], []))
        else:
            self._record.rounds[-1].decks.append(codes)
        self._decks += 1

    # ------------------------------------------------------------------ view
    def view(self, seat: int | None) -> JSONDict:
        """What ``seat`` sees, as JSON-able values for an interface; ``None``
        shows every hand (replays, embeds). ``legal`` is given only to the
        seat to act (to every view when ``seat`` is None); ``claim`` is
        ``{"card", "seat"}`` when the seat to act may claim a missed capture
        now, else None (never revealing whether one was missed)."""
        v: JSONDict = dict(self.state.view(seat))
        v["last"] = self.last_move
        v["legal"] = self.legal() if seat is None or self.state.to_act() == seat else []
        return v


__all__ = ["Session", "DeckSlot", "DeckSource", "ChkobbaError", "InvalidRecord"]
