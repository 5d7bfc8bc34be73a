"""The checked edge of the facade: every call's name, the payload's size,
depth and shape, each field's type and range, and the one-line errors.

:func:`call` never raises: anything unexpected becomes a plain-words error
(``{"error", "code", "params"}``), and a call that fails changes nothing.
Each concern's module registers its calls here with :func:`api`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from .. import messages as M
from ..messages import Param
from .. import strictjson
from ..errors import ChkobbaError
from ..protocol import JSON
from ..registry import GAMES

LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = ("human", "computer")
DEFAULT_LEVEL = "medium"
DEFAULT_TABLE = "main"
PLAYABLE = GAMES
MAX_PAYLOAD = 1_000_000     # characters of payload text
MAX_DEPTH = 16              # nesting of objects and lists (a save needs 7)
MAX_ACTION = 64             # characters of an action text
SEED_LIMIT = 2**53
MAX_PARAM = 200             # characters of a text param in an error
MAX_LIST = 64               # items of a list param in an error
MAX_ERROR = 600             # characters of an error's text
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")

# The facade's own messages (codes under ``web.``), registered with the
# engine's (chkobba.messages), so ``messages`` answers them all. A param that
# holds a message (``{"code", "params"}``) renders as that message.
WEB_MESSAGES: dict[str, str] = {
    "web.internal": "Something went wrong at the table; nothing was changed",
    "web.call_name": "The call name must be a text, not {kind}",
    "web.unknown_call": 'There is no call named "{name}" (known: {known})',
    "web.payload_type": "The request must be JSON text, not {kind}",
    "web.payload_size": "The request is too large: {size} characters, at most {limit}",
    "web.payload_json": "The request is not valid JSON",
    "web.payload_depth": "The request is nested too deeply (at most {limit} levels)",
    "web.payload_object": "The request must be a JSON object, not {kind}",
    "web.unknown_field": 'The call {call} takes no field "{field}" (it takes: {known})',
    "web.missing_field": "The call {call} needs the field {field}",
    "web.table_id": "A table id is 1 to 40 letters, digits, _ or -, not {value}",
    "web.no_table": 'No game is being played at table "{table}"',
    "web.game": "There is no game called {value} (known: {known})",
    "web.game_unavailable": "{name} is not playable at this table yet",
    "web.options": "The table options must be a JSON object, not {kind}",
    "web.seats": "A {players}-player table needs a list of {players} seats, not {kind}",
    "web.seats_count": "A {players}-player table needs {players} seats, not {count}",
    "web.seat": "Seat {seat} must be an object with its kind, not {kind}",
    "web.seat_field": 'Seat {seat} has an unknown field "{field}" (known: kind, level)',
    "web.seat_kind": "Seat {seat} must be human or computer, not {value}",
    "web.seat_level": "The level of seat {seat} must be easy, medium or hard, not {value}",
    "web.human_first": "The first seat must be yours (human), and only the first",
    "web.no_human": "At least one seat must be played by a person (human)",
    "web.hidden": "Pass the device to {seat} first: their hand is hidden",
    "web.seed": "The seed must be a whole number from 0 to 2^53, not {value}",
    "web.coach": "The hints setting must be true or false, not {value}",
    "web.seat_index": "The seat must be a whole number from 0 to {last}, not {value}",
    "web.action": "An action is a short text such as 7D or keep, not {value}",
    "web.game_over": "The match is over",
    "web.not_turn": "It is not seat {seat}'s turn: seat {to_act} is to act",
    "web.not_computer": "Seat {seat} is not a computer seat",
    "web.hints_off": "Hints are off at this table",
    "web.hints_own_seat": "Hints are only for your own seat",
    "web.not_your_turn": "It is not your turn",
    "web.save": "The saved game could not be resumed: {reason}",
    "web.save_broken": "The move was not played: the game could not be saved safely ({reason})",
    "web.save.type": "a save is a JSON object, not {kind}",
    "web.save.version": "it is not a save this table knows (version {value}; known: 1, 2)",
    "web.save.unknown_key": 'it has an unknown key "{key}"',
    "web.save.missing_key": "it has no {key}",
    "web.save.record": "its record is not a JSON object but {kind}",
    "web.save.game": "its game {value} is not the game of its record",
    "web.save.seed": "its seed is not a whole number from 0 to 2^53 ({value})",
    "web.save.coach": "its hints setting is not true or false ({value})",
    "web.save.seats": "its seats are wrong: {reason}",
    "web.save.replay": "it does not replay: {reason}",
    "web.save.elsewhere": "it replays to another position",
    "web.hint.reason": "{reason}",
}

# Results in words: who won what, said to the reader's seat. "you"/"computer"
# at a two-player table ("opponent" when a person sits across), "your_side"/"other_side" at four; "side" to a
# spectator (a replay), who is neither.
_WHO = {"you": ("You win", "You"), "computer": ("The computer wins", "The computer"),
        "opponent": ("Your opponent wins", "Your opponent"),
        "your_side": ("Your side wins", "Your side"), "other_side": ("The other side wins", "The other side"),
        "side": ("Side {side_number} wins", "Side {side_number}")}
for _w, (_wins, _subject) in _WHO.items():
    WEB_MESSAGES[f"web.result.game_{_w}"] = _wins + " the game {winner_points}-{loser_points}"
    WEB_MESSAGES[f"web.result.match_game_{_w}"] = (
        _wins + " game {game} {winner_points}-{loser_points}; games {your_games}-{their_games}")
    WEB_MESSAGES[f"web.result.match_{_w}"] = _wins + " the match {winner_games}-{loser_games}"
    WEB_MESSAGES[f"web.result.diamonds_{_w}"] = (
        _wins + " the game with all ten diamonds ({winner_points}-{loser_points})")
    WEB_MESSAGES[f"web.result.match_diamonds_{_w}"] = (
        _wins + " game {game} with all ten diamonds; games {your_games}-{their_games}")


M.register(WEB_MESSAGES)

# The codes of embeds, links, lessons and statistics (docs/facade.md names them apart).
M.register({
    "web.embed.no_table": 'No link is open at table "{table}"',
    "web.embed.mode": "This link is a {mode}, which cannot do that",
    "web.embed.index": "The position must be a whole number from 0 to {last}, not {value}",
    "web.embed.not_reader": "It is not your turn",
    "web.embed.not_computer": "It is not the computer's turn",
    "web.embed.right": "Well found: that is the best move here",
    "web.embed.wrong": "That move is allowed, but there is a better one",
    "web.embed.reveal": "reveal is true or false, not {value}",
    "web.lesson.data": "The lesson could not be read: {reason}",
    "web.lesson.unknown": "There is no open lesson {lesson} with a step {step}",
    "web.share.table": "The link could not be made: {reason}",
    "web.share.last_round": "last_round is true or false, not {value}",
    "web.stats.at": "The time must be a whole number of milliseconds from 0 to 2^53, not {value}",
    "web.stats.text": "The file's text must be a text, not {kind}",
})


def render(code: str, params: Mapping[str, object]) -> str:
    return M.render(code, params)


class WebError(ChkobbaError):
    """A request the facade refuses: a ``web.*`` code and its params."""


def quote(text: str, limit: int = 40) -> str:
    """Outside text for a message: shortened, control characters escaped."""
    return M.quote(text, limit)


kind = M.kind_of   # what a JSON value is, in words (chkobba.messages)


def show(value: object) -> str:
    """Any outside value, shown briefly in a message."""
    if isinstance(value, str):
        return '"' + quote(value) + '"'
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else "a huge number"
    if isinstance(value, float):
        return quote(repr(value))
    return kind(value)


def as_message(exc: ChkobbaError) -> dict[str, Param]:
    """An error as a message param: ``{"code", "params"}``."""
    return {"code": exc.code, "params": dict(exc.params)}


def label(code: str, **params: object) -> dict[str, object]:
    """A message with its English text: ``{"code", "params", "text"}``."""
    return {"code": code, "params": params, "text": render(code, params)}


# ------------------------------------------------------------------ the calls

Args = dict[str, object]
"""A call's fields as the page sent them: each checked before use."""
Handler = Callable[[Args], object]


@dataclass(frozen=True)
class Spec:
    fn: Handler
    required: tuple[str, ...]
    optional: tuple[str, ...]


API: dict[str, Spec] = {}


F = TypeVar("F", bound=Handler)


def api(*required: str, optional: tuple[str, ...] = (), name: str | None = None) -> Callable[[F], F]:
    """Register a call: its required and optional fields (``table`` is always
    optional); the call's name is the function's without the underscore."""
    def wrap(fn: F) -> F:
        API[name or fn.__name__.lstrip("_")] = Spec(fn, required, ("table",) + optional)
        return fn
    return wrap


def parse(payload: object) -> Args:
    """A call's payload text as a JSON object, read strictly
    (chkobba.strictjson: size, real depth, no key twice, no NaN)."""
    if not isinstance(payload, str):
        raise WebError("web.payload_type", kind=kind(payload))
    try:
        args = strictjson.loads(payload or "{}", max_chars=MAX_PAYLOAD, max_depth=MAX_DEPTH)
    except strictjson.JsonError as e:
        if e.code == "json.too_large":
            raise WebError("web.payload_size", size=len(payload), limit=MAX_PAYLOAD) from None
        if e.code == "json.too_deep":
            raise WebError("web.payload_depth", limit=MAX_DEPTH) from None
        raise WebError("web.payload_json") from None
    if not isinstance(args, dict):
        raise WebError("web.payload_object", kind=kind(args))
    return args


def _answer(name: object, payload: object) -> dict[str, object]:
    if not isinstance(name, str):
        raise WebError("web.call_name", kind=kind(name))
    spec = API.get(name)
    if spec is None:
        raise WebError("web.unknown_call", name=quote(name), known=", ".join(sorted(API)))
    args = parse(payload)
    known = spec.required + spec.optional
    for key in args:
        if key not in known:
            raise WebError("web.unknown_field", call=name, field=quote(key), known=", ".join(known))
    for key in spec.required:
        if key not in args:
            raise WebError("web.missing_field", call=name, field=key)
    return {"ok": spec.fn(args)}


def safe(value: object, depth: int = 0) -> JSON:
    """A param made safe to answer: every text shortened and with control
    characters escaped (a short plain text is left as it is)."""
    if isinstance(value, str):
        return M.quote(value, MAX_PARAM)
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, (list, tuple)):
        return [safe(v, depth + 1) for v in value[:MAX_LIST]]
    if isinstance(value, dict):
        return {str(k): safe(v, depth + 1) for k, v in list(value.items())[:MAX_LIST]}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return M.quote(repr(value), MAX_PARAM)


def safe_params(params: Mapping[str, object]) -> dict[str, JSON]:
    """A message's params made safe to answer, as :func:`safe` makes an object."""
    return {str(k): safe(v, 1) for k, v in list(params.items())[:MAX_LIST]}


def error_answer(exc: ChkobbaError) -> dict[str, JSON]:
    """``{"error", "code", "params"}`` of a refusal, in one short line even
    when the refusal quotes outside text at length."""
    params = safe_params(exc.params)
    try:
        text = M.render(exc.code, params)
    except (KeyError, IndexError, ValueError):
        text = str(exc)
    if len(text) > MAX_ERROR or not text.isprintable():
        text = M.quote(text, MAX_ERROR)
    return {"error": text, "code": exc.code, "params": params}


def call(name: object, payload: object = "{}") -> str:
    """Answer one call from the page as JSON text; never raises."""
    try:
        try:
            answer: Mapping[str, object] = _answer(name, payload)
        except ChkobbaError as exc:   # the engine's refusals and the facade's own
            answer = error_answer(exc)
        return json.dumps(answer, allow_nan=False)
    except Exception:  # noqa: BLE001 - the page gets words, never a traceback
        return json.dumps({"error": WEB_MESSAGES["web.internal"], "code": "web.internal", "params": {}})


# ------------------------------------------------------------- field checks

def table_id(args: Args) -> str:
    tid = args.get("table", DEFAULT_TABLE)
    if not isinstance(tid, str) or not TABLE_ID.match(tid):
        raise WebError("web.table_id", value=show(tid))
    return tid


def game_name(value: object) -> str:
    if not isinstance(value, str) or value not in GAMES:
        raise WebError("web.game", value=show(value), known=", ".join(GAMES))
    return value


def seed(value: object, code: str = "web.seed") -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= SEED_LIMIT:
        raise WebError(code, value=show(value))
    return value


def flag(value: object, code: str = "web.coach") -> bool:
    if not isinstance(value, bool):
        raise WebError(code, value=show(value))
    return value


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a person, or a computer at a level."""

    kind: str
    level: str | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind} if self.level is None else {"kind": self.kind, "level": self.level}


def seats(value: object, players: int) -> list[Seat]:
    if not isinstance(value, list):
        raise WebError("web.seats", players=players, kind=kind(value))
    if len(value) != players:
        raise WebError("web.seats_count", players=players, count=len(value))
    out: list[Seat] = []
    for i, seat in enumerate(value):
        if not isinstance(seat, dict):
            raise WebError("web.seat", seat=i, kind=kind(seat))
        for key in seat:
            if key not in ("kind", "level"):
                raise WebError("web.seat_field", seat=i, field=quote(key))
        what = seat.get("kind")
        if what == "human":
            if "level" in seat:
                raise WebError("web.seat_field", seat=i, field=quote("level"))
            out.append(Seat("human"))
        elif what == "computer":
            level = seat.get("level", DEFAULT_LEVEL)
            if not isinstance(level, str) or level not in LEVELS:
                raise WebError("web.seat_level", seat=i, value=show(level))
            out.append(Seat("computer", level))
        else:
            raise WebError("web.seat_kind", seat=i, value=show(what))
    if not any(x.human for x in out):
        raise WebError("web.no_human")
    return out


def seat_index(value: object, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise WebError("web.seat_index", last=players - 1, value=show(value))
    return value


def action(value: object) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ACTION:
        raise WebError("web.action", value=show(value))
    return value
