"""Game records (RECORDS.md): load, check, replay, save and summarise.

A record replays a whole match: options, the first dealer, each round's decks
and every decision as action text. :func:`replay` rebuilds the state and
refuses a malformed or illegal record with one :class:`InvalidRecord` whose
message names the round, the action's index in that round (from 0), the
action text and the reason, e.g.
``round 1, action 7 "QHx7D": QH is worth 8 and 7D is worth 7``.

Records are data that strangers hand us, so they are read strictly and one
way only (RECORDS.md, "Strict reading"): required keys, one canonical text
per action, every round entry deals exactly the decks it uses, no empty or
trailing round, options of the record's game only, at most 16 MB and no
nesting deeper than a record has. Every error is one line: text quoted from
the record is shortened and its control characters escaped
(:func:`chkobba.messages.quote`), and every error has a `record.*` code.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from dataclasses import dataclass, field, fields
from typing import Mapping, NamedTuple, Sequence, TypedDict, Union

from . import strictjson
from .cards import CODES, card
from .errors import ChkobbaError, InvalidRecord
from .messages import Message, Param, message, quote
from .protocol import JSON, GameState, JSONDict, Observation
from .registry import Facts, game_class
from .registry import game as registered

State = GameState[Observation]

#: Records larger than this (in UTF-8 bytes) are refused unread.
MAX_BYTES = 16 * 1024 * 1024
#: The deepest nesting a record has: record > rounds > round > decks > deck.
MAX_DEPTH = 5

# A table option's value: a whole number, a text, true or false, or the
# timers (``{"call": seconds, "card": seconds}``, or null for none).
OptionValue = Union[bool, int, str, None, dict[str, int]]
Options = dict[str, OptionValue]


def players_of(options: Options) -> int:
    """The number of players of a full option set (every game has it, a whole number)."""
    players = options["players"]
    if type(players) is not int:
        raise TypeError(f"the option players is not a whole number: {players!r}")
    return players


def of_side(pair: JSON, side: int) -> int:
    """One side's whole number in a pair of a score sheet (``points``,
    ``chkobba``: :func:`summary`'s rounds)."""
    if not isinstance(pair, Sequence) or isinstance(pair, str):
        raise TypeError(f"a score sheet's pair is not a list: {pair!r}")
    value = pair[side]
    if type(value) is not int:
        raise TypeError(f"a score sheet's count is not a whole number: {value!r}")
    return value


class RoundDict(TypedDict):
    """A round of a record as JSON: its decks (card codes) and action texts."""
    decks: list[list[str]]
    actions: list[str]


class RecordDict(TypedDict):
    """A record as JSON (RECORDS.md); ``options`` always the full option set."""
    game: str
    options: Options
    first_dealer: int
    rounds: list[RoundDict]


class Summary(TypedDict):
    """The replay output of RECORDS.md: each round's score sheet (the game's
    own fields, with ``points`` per side), the match so far."""
    game: str
    rounds: list[JSONDict]
    score: list[int]
    games: list[int]
    winner: int | None
    complete: bool


_KEYS = ("game", "options", "first_dealer", "rounds")
_REQUIRED = ("game", "first_dealer", "rounds")
_GAME_NAMES: Mapping[str, str] = Facts(lambda g: g.title)
_CARD = "[A2-9TJQK][DHSC]"
_ACTION = re.compile(
    "keep|table|propose|pass|accept|refuse|double|triple|timeout"
    f"|{_CARD}(?:x(?:{_CARD})+)?|claim {_CARD}x(?:{_CARD})+")


def show(value: object) -> str:
    """A short, one-line description of any value read from a record
    (a text in quotes, shortened and escaped by :func:`~chkobba.messages.quote`)."""
    if isinstance(value, str):
        return '"' + quote(value) + '"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**15 else "a very large number"
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else "a number that is not finite"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a " + type(value).__name__


def one_line(message: str, limit: int = 300) -> str:
    """A message made safe as one line: non-printing characters escaped, cut
    to about ``limit`` characters. A last guard for text built elsewhere."""
    if len(message) <= limit and message.isprintable():
        return message
    return quote(message, limit)


@dataclass
class RoundRecord:
    decks: list[list[str]] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def to_dict(self) -> RoundDict:
        return {"decks": [list(d) for d in self.decks], "actions": list(self.actions)}


@dataclass
class Record:
    game: str
    options: Options
    first_dealer: int
    rounds: list[RoundRecord] = field(default_factory=list)

    @property
    def players(self) -> int:
        return players_of(self.options)

    def to_json(self) -> RecordDict:
        return {"game": self.game, "options": dict(self.options), "first_dealer": self.first_dealer,
                "rounds": [r.to_dict() for r in self.rounds]}

    def to_dict(self) -> RecordDict:
        """The record as a JSON object (:meth:`to_json`)."""
        return self.to_json()

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(", ", ": "))

    def copy(self) -> "Record":
        return Record(self.game, dict(self.options), self.first_dealer,
                      [RoundRecord([list(d) for d in r.decks], list(r.actions)) for r in self.rounds])


def _fail(code: str, **params: Param) -> InvalidRecord:
    return InvalidRecord(code, **params)


def _key(key: object) -> str:
    """A key read from a record, for a message (quoted by the template)."""
    return quote(key if isinstance(key, str) else show(key))


def too_large() -> InvalidRecord:
    return _fail("record.too_large", mb=MAX_BYTES // (1024 * 1024))


def too_deep() -> InvalidRecord:
    return _fail("record.too_deep", levels=MAX_DEPTH)


def loads(text: str | bytes) -> JSON:
    """Read a record's JSON text (UTF-8 only, at most 16 MB, no duplicate
    keys, no NaN or Infinity, no deep nesting) with the one strict reader,
    :mod:`chkobba.strictjson`; raises :class:`InvalidRecord`."""
    if len(text) > MAX_BYTES:
        raise too_large()
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("record.not_utf8") from None
    elif len(text) > MAX_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise too_large()
    try:
        value: JSON = strictjson.loads(text, max_chars=MAX_BYTES, max_depth=MAX_DEPTH)
        return value
    except strictjson.JsonError as e:
        raise _from_json(e) from None


def _from_json(e: strictjson.JsonError) -> InvalidRecord:
    """The strict JSON reader's refusal in a record's words (``record.*``)."""
    p = e.params
    if e.code == "json.duplicate_key":
        return _fail("record.duplicate_key", key=p["key"])
    if e.code == "json.constant":
        return _fail("record.json_constant", value=p["value"])
    if e.code == "json.syntax":
        return _fail("record.json", problem=p["problem"], line=p["line"], column=p["column"])
    if e.code == "json.too_deep":
        return too_deep()
    if e.code == "json.too_large":
        return too_large()
    if e.code == "json.not_utf8":
        return _fail("record.not_utf8")
    return _fail("record.json_long_number")


def _check_depth(data: dict[str, object]) -> None:
    """Refuse nesting deeper than a record has, without recursion."""
    stack: list[tuple[dict[str, object] | list[object], int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, (dict, list)):
                if depth >= MAX_DEPTH:
                    raise too_deep()
                stack.append((child, depth + 1))


def _big_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**15


def _options(game: str, options: object) -> Options:
    """The record's options checked for its game, as the full option set."""
    if not isinstance(options, dict):
        raise _fail("record.options_form", value=show(options))
    cls = game_class(game)
    opts_cls = cls.options_class()
    known = sorted(f.name for f in fields(opts_cls))
    name = _GAME_NAMES[game]
    for key, v in options.items():
        if not isinstance(key, str) or key not in known:
            other = [g for g in _GAME_NAMES if g != game and isinstance(key, str)
                     and key in {f.name for f in fields(game_class(g).options_class())}]
            if other:
                raise _fail("record.option_other_game", option=_key(key), other=_GAME_NAMES[other[0]], game=name,
                            known=known)
            raise _fail("record.option_unknown", option=_key(key), game=name, known=known)
        if _big_int(v):
            raise _fail("record.option_huge", option=key)
        if key == "timers" and isinstance(v, dict):
            for k, t in v.items():
                if not isinstance(k, str) or k not in ("call", "card"):
                    raise _fail("record.timers_key", key=_key(k))
                if _big_int(t):
                    raise _fail("record.option_huge", option=f"timers.{k}")
    try:
        opts = opts_cls.from_dict(options)
    except ChkobbaError as e:
        raise _fail("record.options", reason=_safe(e)) from None
    result: Options = opts.to_dict()
    return result


def _safe(e: ChkobbaError) -> dict[str, Param]:
    """An error as a message to nest in a record error, its text params made
    safe (one short line) whoever raised it."""
    params: dict[str, Param] = {k: (quote(v) if isinstance(v, str) and (len(v) > 80 or not v.isprintable()) else v)
                                for k, v in e.params.items()}
    return Message(e.code, params).to_json()


def _action_problem(text: str) -> dict[str, Param]:
    """Why a text that is not one canonical action text is refused."""
    if not text:
        return message("record.action_empty").to_json()
    if text != text.strip():
        return message("record.action_spaces").to_json()
    if text.startswith("claim") and not text.startswith("claim ") or text.startswith("claim  "):
        return message("record.action_claim").to_json()
    return message("record.action_unknown").to_json()


def parse_record(data: object) -> Record:
    """Check a record's shape (a dict, or JSON text) and return it as a :class:`Record`."""
    if isinstance(data, (str, bytes)):
        data = loads(data)
    if not isinstance(data, dict):
        raise _fail("record.not_object", value=show(data))
    _check_depth(data)
    for key in data:
        if key not in _KEYS:
            raise _fail("record.unknown_key", key=_key(key))
    for key in _REQUIRED:
        if key not in data:
            raise _fail("record.missing_key", key=key)
    game = data["game"]
    if not isinstance(game, str) or game not in _GAME_NAMES:
        raise _fail("record.game", value=show(game), known=list(_GAME_NAMES))
    options = _options(game, data.get("options", {}))
    players = players_of(options)
    fd = data["first_dealer"]
    if type(fd) is not int or not 0 <= fd < players:
        raise _fail("record.first_dealer", last=players - 1, value=show(fd))
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise _fail("record.rounds_form", value=show(rounds))
    out: list[RoundRecord] = []
    for r, rnd in enumerate(rounds, 1):
        if not isinstance(rnd, dict):
            raise _fail("record.round_form", round=r, value=show(rnd))
        for key in rnd:
            if key not in ("decks", "actions"):
                raise _fail("record.round_key", round=r, key=_key(key))
        for key in ("decks", "actions"):
            if key not in rnd:
                raise _fail("record.round_missing", round=r, key=key)
        decks = rnd["decks"]
        actions = rnd["actions"]
        if not isinstance(decks, list):
            raise _fail("record.decks_form", round=r, value=show(decks))
        for k, deck in enumerate(decks, 1):
            if not isinstance(deck, list):
                raise _fail("record.deck_form", round=r, deck=k, value=show(deck))
            for c in deck:
                if not isinstance(c, str) or len(c) != 2 or c not in CODES:
                    raise _fail("record.deck_code", round=r, deck=k, value=show(c))
        if not isinstance(actions, list):
            raise _fail("record.actions_form", round=r, value=show(actions))
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise _fail("record.action_type", round=r, index=i, value=show(a))
            if not _ACTION.fullmatch(a):
                raise _at(r, i, a, _action_problem(a))
        out.append(RoundRecord([list(d) for d in decks], list(actions)))
    return Record(game, options, fd, out)


def _deck(r: int, k: int, codes: list[str]) -> list[int]:
    try:
        return [card(c) for c in codes]
    except ChkobbaError:
        bad = next(c for c in codes if c not in CODES)
        raise _fail("record.deck_code", round=r, deck=k, value=show(bad)) from None


def _at(r: int, i: int, text: str, why: dict[str, Param]) -> InvalidRecord:
    """The error of action ``i`` (from 0) of round ``r`` (from 1)."""
    return _fail("record.action_refused", round=r, index=i, action=quote(text), reason=why)


# Errors reading an action's text that name the text again: in a record's
# error (which names it already) the same reason without it.
# (Each game says its own: its ``unechoed``.)
_UNECHOED = {"action.duplicate": "record.card_named_twice", "action.takes_itself": "record.takes_itself"}
_GAMES_UNECHOED: Mapping[str, Mapping[str, str]] = Facts(lambda g: g.unechoed)


def _reason(e: ChkobbaError) -> dict[str, Param]:
    """An action's refusal as the reason of a record error."""
    code = _UNECHOED.get(e.code) or next((own[e.code] for own in _GAMES_UNECHOED.values() if e.code in own), None)
    if code is not None:
        return message(code, **{k: v for k, v in e.params.items() if k != "action"}).to_json()
    return _safe(e)


# (game, options as (name, repr) pairs, first dealer, ((decks, actions), ...))
RoundKey = tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]
RecordKey = tuple[str, tuple[tuple[str, str], ...], int, tuple[RoundKey, ...]]


class _Kept(NamedTuple):
    end: State              # the state at the end of the record
    starts: list[State]     # the state right after each round's first deal


_REPLAYED: "OrderedDict[RecordKey, _Kept]" = OrderedDict()
_HEADS: dict[RecordKey, RecordKey] = {}     # a kept record's key without its last round -> its key
REPLAY_CACHE = 8        # records kept (a page's open tables and embeds)


def content_key(rec: Record) -> RecordKey:
    """A record's whole content as a hashable value (equal records, equal
    keys): what a replay's result is kept under."""
    return (rec.game, tuple(sorted((k, repr(v)) for k, v in rec.options.items())), rec.first_dealer,
            tuple((tuple(map(tuple, r.decks)), tuple(r.actions)) for r in rec.rounds))


def _head(key: RecordKey) -> RecordKey:
    """The key of the same record without its last round."""
    return key[:3] + (key[3][:-1],)


def _keep(key: RecordKey, end: State, starts: list[State]) -> None:
    _REPLAYED[key] = _Kept(end.copy(), starts)
    _REPLAYED.move_to_end(key)
    if key[3]:
        _HEADS[_head(key)] = key
    if len(_REPLAYED) > REPLAY_CACHE:
        while len(_REPLAYED) > REPLAY_CACHE:
            _REPLAYED.popitem(last=False)
        for head in [h for h, k in _HEADS.items() if k not in _REPLAYED]:
            del _HEADS[head]


def forget() -> None:
    """Forget every kept replay (for benchmarks and tests)."""
    _REPLAYED.clear()
    _HEADS.clear()


def replay(record: Record | Mapping[str, object] | str) -> State:
    """The state a record leads to (the position after its last action).

    The end states (and round starts) of the last few records replayed are
    kept, by their content, so resuming or stepping through the same long
    record again costs a copy, not a replay (a long link would otherwise
    be replayed on every step). A record that does not replay is never kept."""
    rec = record if isinstance(record, Record) else parse_record(record)
    key = content_key(rec)
    kept = _REPLAYED.get(key)
    if kept is not None:
        _REPLAYED.move_to_end(key)
        return kept.end.copy()
    starts: list[State] = []
    state = _replay(rec, starts)
    _keep(key, state, starts)
    return state


def remember(rec: Record, end: State, starts: list[State]) -> None:
    """Keep ``end`` as the end of ``rec`` and ``starts`` as its rounds'
    starts, for a caller that has just replayed it with the engine its own
    way (a link's decoder). The states are copied."""
    if len(starts) == len(rec.rounds):
        _keep(content_key(rec), end, [st.copy() for st in starts])


def round_starts(rec: Record) -> list[State]:
    """The state right after each round's first deal of a checked record
    (each round deals), to copy before playing on: kept, or made from a
    kept record that is this one without its last round (a session that
    dealt the next round) or that differs only after its last round's first
    deal (a table playing on), or else by a replay."""
    key = content_key(rec)
    kept = _REPLAYED.get(key)
    if kept is not None:
        return kept.starts
    if key[3]:
        head = _head(key)
        before = _REPLAYED.get(head)
        if before is not None and before.end.needs_deal and not before.end.is_over:
            st = before.end.copy()
            st.deal([card(c) for c in rec.rounds[-1].decks[0]])
            return before.starts + [st]
        sibling = _HEADS.get(head)
        other = _REPLAYED.get(sibling) if sibling is not None else None
        if sibling is not None and other is not None and sibling[3][-1][0][0] == key[3][-1][0][0]:
            return other.starts
    replay(rec)
    return _REPLAYED[key].starts


def _replay(rec: Record, starts: list[State]) -> State:
    """The replay itself; ``starts`` gets the state after each round's first deal."""
    cls = game_class(rec.game)
    state = cls.new(rec.options, rec.first_dealer)
    for r, rnd in enumerate(rec.rounds, 1):
        if state.is_over:
            raise _fail("record.after_match", round=r, previous=r - 1)
        if not state.needs_deal:
            raise _fail("record.after_unfinished", round=r, previous=r - 1)
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
                raise _fail("record.deck_refused", round=r, deck=k, reason=_safe(e)) from None
            return True

        if not deal():
            raise _fail("record.no_deck", round=r)
        starts.append(state.copy())
        for i, text in enumerate(rnd.actions):
            if state.needs_deal and state.deal_continues_round():
                if not deal():
                    raise _at(r, i, text, message("record.redeal_deck_missing").to_json())
            if state.is_over:
                raise _at(r, i, text, message("match.over").to_json())
            if state.needs_deal:
                raise _at(r, i, text, message("record.round_over").to_json())
            if not _ACTION.fullmatch(text):
                raise _at(r, i, text, _action_problem(text))
            try:
                a = state.parse(text)
                state.verify_action(a)
            except ChkobbaError as e:
                raise _at(r, i, text, _reason(e)) from None
            state.play(a)
        if state.needs_deal and state.deal_continues_round():
            if not deal():
                raise _fail("record.redeal_unlisted", round=r)
        extra = next(decks, None)
        if extra is not None:
            raise _fail("record.deck_unused", round=r, deck=extra[0])
    result: State = state
    return result


def summary(state: State) -> Summary:
    """The replay output of RECORDS.md for a state. A match before its first
    deal is complete: no round of it is cut off."""
    return {"game": state.game, "rounds": [res.to_dict() for res in state.results],
            "score": list(state.score), "games": list(state.games), "winner": state.winner,
            "complete": state.round_over() or state.round_index < 0}

