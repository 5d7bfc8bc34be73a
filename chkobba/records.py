"""Game records (RECORDS.md): load, check, replay, save and summarise.

A record replays a whole match: options, the first dealer, each round's decks
and every decision as action text. :func:`replay` rebuilds the state and
refuses a malformed or illegal record with one :class:`InvalidRecord` whose
message names the round, the action's index in that round (from 0), the
action text and the reason, e.g.
``round 1, action 7 "QHx7D": QH is worth 8 and 7D is worth 7``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .cards import card
from .errors import ChkobbaError, InvalidRecord
from .messages import quote
from .protocol import GameState, Observation
from .registry import game_class


@dataclass
class RoundRecord:
    decks: list[list[str]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"decks": [list(d) for d in self.decks], "actions": list(self.actions)}


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    first_dealer: int
    rounds: list[RoundRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "first_dealer": self.first_dealer,
                "rounds": [r.to_dict() for r in self.rounds]}

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), separators=(", ", ": "))

    def copy(self) -> "Record":
        return Record(self.game, dict(self.options), self.first_dealer,
                      [RoundRecord([list(d) for d in r.decks], list(r.actions)) for r in self.rounds])


def _fail(msg: str) -> InvalidRecord:
    return InvalidRecord(msg)


def parse_record(data: Any) -> Record:
    """Check a record's shape (a dict, or JSON text) and return it as a :class:`Record`."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise _fail(f"record: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise _fail("record: a game record is a JSON object")
    for key in data:
        if key not in ("game", "options", "first_dealer", "rounds"):
            raise _fail(f'record: unknown key "{key}" (known: game, options, first_dealer, rounds)')
    game = data.get("game")
    if game not in ("chkobba", "seven_diamonds"):
        raise _fail(f'record: "game" must be "chkobba" or "seven_diamonds", not {json.dumps(game)}')
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _fail('record: "options" must be a JSON object')
    cls = game_class(game)
    try:
        opts = cls.options_class().from_dict(options)
    except ChkobbaError as e:
        raise _fail(f"record: {e}") from None
    fd = data.get("first_dealer")
    if type(fd) is not int or not 0 <= fd < opts.players:
        raise _fail(f'record: "first_dealer" must be a seat from 0 to {opts.players - 1}, not {json.dumps(fd)}')
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise _fail('record: "rounds" must be a list')
    out: list[RoundRecord] = []
    for r, rnd in enumerate(rounds, 1):
        if not isinstance(rnd, dict) or set(rnd) - {"decks", "actions"}:
            raise _fail(f'round {r}: a round is an object with "decks" and "actions"')
        decks = rnd.get("decks", [])
        actions = rnd.get("actions", [])
        if not isinstance(decks, list) or not all(isinstance(d, list) and all(isinstance(c, str) for c in d)
                                                  for d in decks):
            raise _fail(f'round {r}: "decks" must be a list of decks, each a list of card codes')
        if not isinstance(actions, list):
            raise _fail(f'round {r}: "actions" must be a list of action texts')
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise _fail(f"round {r}, action {i} {json.dumps(a)}: an action is a text such as \"7D\" or \"keep\"")
        out.append(RoundRecord([list(d) for d in decks], list(actions)))
    return Record(game, opts.to_dict(), fd, out)


def _deck(r: int, k: int, codes: list[str]) -> list[int]:
    try:
        return [card(c) for c in codes]
    except ChkobbaError as e:
        raise _fail(f"round {r}, deck {k}: {e}") from None


def replay(record: Record | dict[str, Any] | str) -> GameState[Observation]:
    """The state a record leads to (the position after its last action)."""
    rec = record if isinstance(record, Record) else parse_record(record)
    cls = game_class(rec.game)
    state = cls.new(rec.options, rec.first_dealer)
    last = len(rec.rounds)
    for r, rnd in enumerate(rec.rounds, 1):
        if state.is_over:
            raise _fail(f"round {r}: the match was already over after round {r - 1}")
        if not state.needs_deal:
            raise _fail(f"round {r}: round {r - 1} stops before its end, yet round {r} follows")
        decks = iter(enumerate(rnd.decks, 1))

        def deal() -> bool:
            """Deal the round's next deck; False when it lists no more."""
            nxt = next(decks, None)
            if nxt is None:
                return False
            k, codes = nxt
            cards = _deck(r, k, codes)
            try:
                state.deal(cards)
            except ChkobbaError as e:
                raise _fail(f"round {r}, deck {k}: {e}") from None
            return True

        if not deal():
            if r == last and not rnd.actions:
                continue
            raise _fail(f"round {r}: the round lists no deck")
        for i, text in enumerate(rnd.actions):
            if state.needs_deal and state.deal_continues_round():
                if not deal():
                    raise _fail(f'round {r}, action {i} "{text}": a re-deal was accepted but the round lists no further deck')
            where = f'round {r}, action {i} "{text}"'
            if state.is_over:
                raise _fail(f"{where}: the match is over")
            if state.needs_deal:
                raise _fail(f"{where}: the round is over")
            try:
                a = state.parse(text)
            except ChkobbaError as e:
                raise _fail(f"{where}: {e}") from None
            try:
                state.verify_action(a)
            except ChkobbaError as e:
                raise InvalidRecord("record.action_refused", round=r, index=i, action=quote(text),
                                    reason=e.message.to_json()) from None
            state.play(a)
        if state.needs_deal and state.deal_continues_round():
            deal()
        extra = next(decks, None)
        if extra is not None:
            raise _fail(f"round {r}, deck {extra[0]}: the round never uses this deck")
    result: GameState[Observation] = state
    return result


def summary(state: GameState[Observation]) -> dict[str, Any]:
    """The replay output of RECORDS.md for a state."""
    return {"game": state.game, "rounds": [res.to_dict() for res in state.results],
            "score": list(state.score), "games": list(state.games), "winner": state.winner,
            "complete": state.round_over()}
