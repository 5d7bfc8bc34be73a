"""A game being played: a state, its record, and where new decks come from.

The session is what the command line and the web table drive. It owns the
record (RECORDS.md) as it grows, shuffles each new deck from a seeded source
(deck ``k`` of a session comes from ``Random(f"{seed}/{k}")``, the same in
CPython and Pyodide), and applies action texts: an illegal or unreadable one
raises a :class:`~chkobba.errors.ChkobbaError` with a plain-words message and
changes nothing.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from . import cards as C
from .actions import Action
from .cards import CODES
from .errors import ChkobbaError, IllegalAction, InvalidRecord
from .protocol import GameState
from .registry import game_class
from .records import Record, RoundRecord, parse_record, replay, summary


class Session:
    """A match in progress, with its growing record."""

    def __init__(self, state: GameState, record: Record, seed: int) -> None:
        self.state = state
        self._record = record
        self.seed = seed
        self.last_move: dict[str, Any] | None = None
        hist = state.history()
        if hist and getattr(state, "last_actor", -1) >= 0:
            self.last_move = _describe_move(state.last_actor, hist[-1], None, state)
        self._deal_if_needed()

    # -------------------------------------------------------------- creation
    @classmethod
    def new(cls, game: str = "chkobba", options: dict[str, Any] | None = None, seed: int | None = None,
            first_dealer: int | None = None) -> "Session":
        """A new match. The first dealer is drawn from the seed unless given."""
        state_cls = game_class(game)
        opts = state_cls.options_class().from_dict(options or {})
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if first_dealer is None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(opts.players)
        state = state_cls.new(opts, first_dealer)
        return cls(state, Record(game, opts.to_dict(), first_dealer, []), seed)

    @classmethod
    def from_record(cls, record: Record | dict[str, Any] | str, seed: int | None = None) -> "Session":
        """Resume a record (a save, a shared game, a tutorial position).

        Without a seed, later decks come from one derived from the record itself,
        so resuming the same record twice gives the same game."""
        rec = record.copy() if isinstance(record, Record) else parse_record(record)
        state = replay(rec)
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

    def observation(self, seat: int) -> Any:
        return self.state.observation(seat)

    def record(self) -> dict[str, Any]:
        return self._record.to_dict()

    def record_json(self) -> str:
        return self._record.dumps()

    def summary(self) -> dict[str, Any]:
        """The replay output (RECORDS.md) of the game so far."""
        return summary(self.state)

    # --------------------------------------------------------------- actions
    def apply(self, action: str | Action) -> Action:
        """Play an action (text or value) for the seat to act; returns it.

        Raises ChkobbaError (and changes nothing) if it is unreadable or illegal."""
        s = self.state
        a = s.parse(action) if isinstance(action, str) else action
        if s.to_act() is None:
            raise IllegalAction("the match is over" if s.is_over else "the cards are not dealt yet")
        if a not in s.legal_actions():
            raise IllegalAction(s.explain(a))
        actor = s.to_act()
        new = s.copy()
        new.play(a)
        move = _describe_move(actor, a, s, new)
        deck = self._next_deck(new)
        # everything that can fail is done: the state and its record change together
        self._record.rounds[-1].actions.append(str(a))
        self._write_deck(deck)
        self.state, self.last_move = new, move
        return a

    def _next_deck(self, s: GameState) -> tuple[list[str], bool] | None:
        """Deal ``s`` its next deck if it waits for one; returns the deck's
        codes and whether it starts a new round entry (else it is a re-deal
        of the current round), for :meth:`_write_deck`."""
        if not s.needs_deal or s.is_over:
            return None
        k = sum(len(r.decks) for r in self._record.rounds)
        deck = list(s.full_deck())
        random.Random(f"{self.seed}/{k}").shuffle(deck)
        new_round = not getattr(s, "redeal_next", False) or not self._record.rounds
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

    def _deal_if_needed(self) -> None:
        self._write_deck(self._next_deck(self.state))

    # ------------------------------------------------------------------ view
    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, as JSON-able values for an interface."""
        if self.game == "chkobba":
            return chkobba_view(self, seat)
        from .games.seven_diamonds.state import seven_diamonds_view
        return seven_diamonds_view(self, seat)


def chkobba_view(session: Session, seat: int) -> dict[str, Any]:
    """The Chkobba table as ``seat`` sees it. Nothing here reveals a hidden card
    or a missed capture: ``legal`` is given only to the seat to act, and an
    interface must not use it to point at claimable cards."""
    from .games.chkobba.state import CUT, ChkobbaState
    s = session.state
    assert isinstance(s, ChkobbaState)
    obs = s.observation(seat)
    history = [str(a) for a in obs.history]
    results = [r.details() for r in s.results]
    return {
        "game": "chkobba",
        "options": s.options.to_dict(),
        "players": s.n,
        "seat": seat,
        "side": seat & 1,
        "phase": s.phase,
        "to_act": s.to_act(),
        "dealer": s.dealer,
        "cutter": s.cutter,
        "hand": C.codes(sorted(obs.hand, key=lambda c: (c // 13, c % 13))),
        "cut_card": CODES[obs.cut_card] if obs.cut_card >= 0 else None,
        "cut_visible": s.phase == CUT and seat == s.cutter,
        "table": C.codes(obs.table),
        "hand_counts": list(obs.hand_counts),
        "deck": obs.deck_left,
        "piles": [obs.piles[0].bit_count(), obs.piles[1].bit_count()],
        "chkobba_cards": [C.codes(obs.chkobbas[0]), C.codes(obs.chkobbas[1])],
        "score": list(s.score),
        "games": list(s.games),
        "game_index": s.game_index,
        "round_index": s.round_index,
        "target": s.options.target,
        "match": s.options.match,
        "winner": s.winner,
        "history": history,
        "last": session.last_move,
        "results": results,
        "legal": session.legal() if s.to_act() == seat else [],
    }


def _describe_move(seat: int | None, a: Action, before: Any, after: Any) -> dict[str, Any]:
    """A move for display: who, what, which cards, whether it ended the round
    and whether it swept (``after`` is the state right after the move, before
    any new deal; ``before`` is None when resuming a record)."""
    swept = (before is not None and seat is not None and hasattr(after, "chkobbas")
             and len(after.chkobbas[seat & 1]) > len(before.chkobbas[seat & 1]))
    return {"seat": seat, "action": str(a), "kind": a.kind,
            "card": CODES[a.card] if a.card >= 0 else None,
            "take": [CODES[c] for c in a.take],
            "round_ended": after.round_over(),
            "chkobba": swept}


__all__ = ["Session", "ChkobbaError", "InvalidRecord"]
