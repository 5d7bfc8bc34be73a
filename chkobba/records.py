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
the record is shortened and its control characters escaped (:func:`quote`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from typing import Any

from .cards import CODES, card
from .errors import ChkobbaError, InvalidRecord
from .protocol import GameState
from .registry import game_class

#: Records larger than this (in UTF-8 bytes) are refused unread.
MAX_BYTES = 16 * 1024 * 1024
#: The deepest nesting a record has: record > rounds > round > decks > deck.
MAX_DEPTH = 5
#: Quoted outside text is cut to about this many characters.
QUOTE_CHARS = 40

_KEYS = ("game", "options", "first_dealer", "rounds")
_REQUIRED = ("game", "first_dealer", "rounds")
_GAME_NAMES = {"chkobba": "Chkobba", "seven_diamonds": "Seven Diamonds"}
_CARD = "[A2-9TJQK][DHSC]"
_ACTION = re.compile(
    "keep|table|propose|pass|accept|refuse|double|triple|timeout"
    f"|{_CARD}(?:x(?:{_CARD})+)?|claim {_CARD}x(?:{_CARD})+")
_EXAMPLES = 'examples: "keep", "7D", "QHx7DAS", "claim QHx7DAS", "pass"'


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` in double quotes, safe to put in a one-line message: cut to
    about ``limit`` characters (with an ellipsis) and every control or
    non-printing character, quote and backslash escaped (``\\n``, ``\\x00``,
    ``\\u2028``)."""
    out: list[str] = []
    size = 0
    for i, ch in enumerate(text):
        if size >= limit:
            out.append("\u2026")
            break
        if ch == '"' or ch == "\\":
            piece = "\\" + ch
        elif ch == "\n":
            piece = "\\n"
        elif ch == "\r":
            piece = "\\r"
        elif ch == "\t":
            piece = "\\t"
        elif ch.isprintable():
            piece = ch
        else:
            o = ord(ch)
            piece = f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"
        out.append(piece)
        size += len(piece)
    return '"' + "".join(out) + '"'


def show(value: Any) -> str:
    """A short, one-line description of any value read from a record."""
    if isinstance(value, str):
        return quote(value)
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
    return quote(message, limit)[1:-1]


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


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _fail(f"record: the key {quote(k)} appears twice in one object")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise _fail(f"record: not valid JSON ({name} is not a JSON number)")


def too_large_message() -> str:
    return f"record: the input is over {MAX_BYTES // (1024 * 1024)} MB, larger than any record can be"


def too_deep_message() -> str:
    return f"record: the input is nested deeper than any record can be (at most {MAX_DEPTH} levels)"


def loads(text: str | bytes) -> Any:
    """Read a record's JSON text (UTF-8 only, at most 16 MB, no duplicate
    keys, no NaN or Infinity, no deep nesting); raises :class:`InvalidRecord`."""
    if len(text) > MAX_BYTES:
        raise _fail(too_large_message())
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail("record: not UTF-8 text (a record is JSON)") from None
    elif len(text) > MAX_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise _fail(too_large_message())
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except InvalidRecord:
        raise
    except json.JSONDecodeError as e:
        raise _fail(f"record: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except RecursionError:
        raise _fail(too_deep_message()) from None
    except MemoryError:
        raise _fail(too_large_message()) from None
    except ValueError:
        # the only other ValueError: an integer of thousands of digits
        raise _fail("record: not valid JSON (a number has too many digits)") from None


def _check_depth(data: Any) -> None:
    """Refuse nesting deeper than a record has, without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, (dict, list)):
                if depth >= MAX_DEPTH:
                    raise _fail(too_deep_message())
                stack.append((child, depth + 1))


def _big_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**15


def _options(game: str, options: Any) -> dict[str, Any]:
    """The record's options checked for its game, as the full option set."""
    if not isinstance(options, dict):
        raise _fail(f'record: "options" must be a JSON object, not {show(options)}')
    cls = game_class(game)
    opts_cls = cls.options_class()
    known = sorted(f.name for f in fields(opts_cls))
    name = _GAME_NAMES[game]
    for key, v in options.items():
        if not isinstance(key, str) or key not in known:
            shown = quote(key) if isinstance(key, str) else show(key)
            other = [g for g in _GAME_NAMES if g != game and isinstance(key, str)
                     and key in {f.name for f in fields(game_class(g).options_class())}]
            if other:
                raise _fail(f"record: option {shown} is a {_GAME_NAMES[other[0]]} option, not a {name} one "
                            f"({name} options: {', '.join(known)})")
            raise _fail(f"record: unknown option {shown} ({name} options: {', '.join(known)})")
        if _big_int(v):
            raise _fail(f'record: option "{key}" cannot be {show(v)}')
        if key == "timers" and isinstance(v, dict):
            for k, t in v.items():
                if not isinstance(k, str) or k not in ("call", "card"):
                    raise _fail(f'record: option "timers" has an unknown key {show(k)} (its keys: call, card)')
                if _big_int(t):
                    raise _fail(f'record: option "timers.{k}" cannot be {show(t)}')
    try:
        opts = opts_cls.from_dict(options)
    except ChkobbaError as e:
        msg = str(e)
        for v in options.values():
            if isinstance(v, str):
                msg = msg.replace(repr(v), quote(v))
        raise _fail(f"record: {one_line(msg)}") from None
    result: dict[str, Any] = opts.to_dict()
    return result


def _action_problem(text: str) -> str:
    """Why a text that is not one canonical action text is refused."""
    if not text:
        return "an action cannot be empty"
    if text != text.strip():
        return "no space or line break may surround an action"
    if text.startswith("claim") and not text.startswith("claim ") or text.startswith("claim  "):
        return 'write "claim", one space, then the capture, like "claim QHx7DAS"'
    return f"not an action ({_EXAMPLES})"


def parse_record(data: Any) -> Record:
    """Check a record's shape (a dict, or JSON text) and return it as a :class:`Record`."""
    if isinstance(data, (str, bytes)):
        data = loads(data)
    if not isinstance(data, dict):
        raise _fail(f"record: a game record is a JSON object, not {show(data)}")
    _check_depth(data)
    for key in data:
        if key not in _KEYS:
            raise _fail(f"record: unknown key {show(key)} (known: {', '.join(_KEYS)})")
    for key in _REQUIRED:
        if key not in data:
            raise _fail(f'record: "{key}" is missing (a record has "game", "first_dealer" and "rounds")')
    game = data["game"]
    if not isinstance(game, str) or game not in _GAME_NAMES:
        raise _fail(f'record: "game" must be "chkobba" or "seven_diamonds", not {show(game)}')
    options = _options(game, data.get("options", {}))
    players = options["players"]
    fd = data["first_dealer"]
    if type(fd) is not int or not 0 <= fd < players:
        raise _fail(f'record: "first_dealer" must be a seat from 0 to {players - 1}, not {show(fd)}')
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise _fail(f'record: "rounds" must be a list, not {show(rounds)}')
    out: list[RoundRecord] = []
    for r, rnd in enumerate(rounds, 1):
        if not isinstance(rnd, dict):
            raise _fail(f'round {r}: a round is an object with "decks" and "actions", not {show(rnd)}')
        for key in rnd:
            if key not in ("decks", "actions"):
                raise _fail(f'round {r}: unknown key {show(key)} (a round has "decks" and "actions")')
        for key in ("decks", "actions"):
            if key not in rnd:
                raise _fail(f'round {r}: "{key}" is missing (a round has "decks" and "actions")')
        decks = rnd["decks"]
        actions = rnd["actions"]
        if not isinstance(decks, list):
            raise _fail(f'round {r}: "decks" must be a list of decks, each a list of card codes, not {show(decks)}')
        for k, deck in enumerate(decks, 1):
            if not isinstance(deck, list):
                raise _fail(f"round {r}, deck {k}: a deck is a list of card codes, not {show(deck)}")
            for c in deck:
                if not isinstance(c, str) or len(c) != 2 or c not in CODES:
                    raise _fail(f"round {r}, deck {k}: {show(c)} is not a card code (a rank A 2 3 4 5 6 7 8 9 T J Q K "
                                "and a suit D H S C, like 7D)")
        if not isinstance(actions, list):
            raise _fail(f'round {r}: "actions" must be a list of action texts, not {show(actions)}')
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise _fail(f'round {r}, action {i}: an action is a text such as "7D" or "keep", not {show(a)}')
            if not _ACTION.fullmatch(a):
                raise _at(r, i, a, _action_problem(a))
        out.append(RoundRecord([list(d) for d in decks], list(actions)))
    return Record(game, options, fd, out)


def _deck(r: int, k: int, codes: list[str]) -> list[int]:
    try:
        return [card(c) for c in codes]
    except ChkobbaError:
        bad = next(c for c in codes if c not in CODES)
        raise _fail(f"round {r}, deck {k}: {show(bad)} is not a card code") from None


def _at(r: int, i: int, text: str, why: str) -> InvalidRecord:
    """The error of action ``i`` (from 0) of round ``r`` (from 1)."""
    return _fail(f"round {r}, action {i} {quote(text)}: {why}")


def _reason(e: ChkobbaError, text: str) -> str:
    """An error's message without the action text it may start with (the
    record error names the action already)."""
    msg = str(e)
    prefix = f'"{text}": '
    if msg.startswith(prefix):
        msg = msg[len(prefix):]
    return one_line(msg)


def replay(record: Record | dict[str, Any] | str) -> GameState:
    """The state a record leads to (the position after its last action)."""
    rec = record if isinstance(record, Record) else parse_record(record)
    cls = game_class(rec.game)
    state = cls.new(rec.options, rec.first_dealer)
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
                raise _fail(f"round {r}, deck {k}: {one_line(str(e))}") from None
            return True

        if not deal():
            raise _fail(f"round {r}: the round lists no deck (each round entry holds the decks it deals)")
        for i, text in enumerate(rnd.actions):
            if state.needs_deal and getattr(state, "redeal_next", False):
                if not deal():
                    raise _at(r, i, text, "a re-deal was accepted but the round lists no further deck")
            if state.is_over:
                raise _at(r, i, text, "the match is over")
            if state.needs_deal:
                raise _at(r, i, text, "the round is over")
            if not _ACTION.fullmatch(text):
                raise _at(r, i, text, _action_problem(text))
            try:
                a = state.parse(text)
            except ChkobbaError as e:
                raise _at(r, i, text, _reason(e, text)) from None
            if a not in state.legal_actions():
                raise _at(r, i, text, one_line(state.explain(a)))
            state.play(a)
        if state.needs_deal and getattr(state, "redeal_next", False):
            if not deal():
                raise _fail(f"round {r}: a re-deal was accepted but the round lists no further deck")
        extra = next(decks, None)
        if extra is not None:
            raise _fail(f"round {r}, deck {extra[0]}: the round never uses this deck")
    result: GameState = state
    return result


def summary(state: GameState) -> dict[str, Any]:
    """The replay output of RECORDS.md for a state. A match before its first
    deal is complete: no round of it is cut off."""
    return {"game": state.game, "rounds": [res.to_dict() for res in state.results],
            "score": list(state.score), "games": list(state.games), "winner": state.winner,
            "complete": state.round_over() or state.round_index < 0}


def deck_codes(deck: list[int] | tuple[int, ...]) -> list[str]:
    return [CODES[c] for c in deck]
