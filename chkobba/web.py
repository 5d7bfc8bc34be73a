"""Browser facade: the one module the web table talks to (docs/facade.md).

The page calls :func:`call` with a call name and a JSON payload text and gets
JSON text back: ``{"ok": value}`` or ``{"error": text, "code": code,
"params": {...}}``. :func:`call` never raises: every call is checked at this
edge (its name, the payload's size, depth and shape, each field's type and
range) and anything unexpected becomes a plain-words error. A call that fails
changes nothing, and the next good call works.

The facade keeps one table per id (``"table"`` in any payload, default
``"main"``; at most :data:`MAX_TABLES`, the least recently used is dropped), so
several tables can live on one page. A table is a
:class:`~chkobba.session.Session` plus who sits where, and its state answer is
everything the page draws: the human seat's view, the words it may say, the
claim window, the moves of the round, the score sheet and the result in words,
and a save that is known to replay. The page computes no rule, score or
winner.

On purpose the facade never hands the page the list of legal card plays: the
player points at what they take, the page builds the action text, and the
engine accepts it or says why not. Only the non-card decisions (keep/table
the cut card, propose/pass/accept/refuse a re-deal) are offered as words.

Computer seats think in a separate interpreter (a PyScript worker) through
``choose``, which rebuilds the position from the save and returns an action
text; the page then plays it here with ``act``. Hints (the coach) are a table
option, off by default and kept in the save; with it off ``hint`` refuses, so
nothing points out a better or missed play to a player who did not opt in.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from . import messages as M
from .errors import ChkobbaError
from .options import check as check_options
from .options import describe as describe_options
from .registry import GAMES, PLAYERS
from .session import Session

SAVE_VERSION = 2
SAVE_VERSIONS = (1, 2)
LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = ("human", "computer")
HUMAN_SEAT = 0
DEFAULT_LEVEL = "medium"
DEFAULT_TABLE = "main"
PLAYABLE = ("chkobba", "seven_diamonds")
GAME_NAMES = {"chkobba": "Chkobba", "seven_diamonds": "Seven Diamonds"}
MAX_TABLES = 32
MAX_PAYLOAD = 1_000_000     # characters of payload text
MAX_DEPTH = 16              # nesting of objects and lists (a save needs 7)
MAX_ACTION = 64             # characters of an action text
SEED_LIMIT = 2**53
MAX_PARAM = 200             # characters of a text param in an error
MAX_LIST = 64               # items of a list param in an error
MAX_ERROR = 600             # characters of an error's text
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")
HINT_TOP = 3
# Small on purpose: a hint answers in well under a second in the browser.
HINT_ROLLOUTS = 150
HINT_MS = 400

# The non-card decisions offered as words; each is labelled by ``word.<action>``.
WORDS = ("keep", "table", "propose", "pass", "accept", "refuse")
WORD_LABELS = {w: M.MESSAGES[f"word.{w}"] for w in WORDS}

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

# Results in words: who won what. "you"/"computer" at a two-player table,
# "your_side"/"other_side" at four.
_WHO = {"you": ("You win", "You"), "computer": ("The computer wins", "The computer"),
        "your_side": ("Your side wins", "Your side"), "other_side": ("The other side wins", "The other side")}
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


def _render(code: str, params: dict[str, Any]) -> str:
    return M.render(code, params)


class WebError(ChkobbaError):
    """A request the facade refuses: a ``web.*`` code and its params."""


def _quote(text: str, limit: int = 40) -> str:
    """Outside text for a message: shortened, control characters escaped."""
    return M.quote(text, limit)


def _show(value: Any) -> str:
    """Any outside value, shown briefly in a message."""
    if isinstance(value, str):
        return '"' + _quote(value) + '"'
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else "a huge number"
    if isinstance(value, float):
        return _quote(repr(value))
    return _kind(value)


_kind = M.kind_of   # what a JSON value is, in words (chkobba.messages)


def _message(exc: ChkobbaError) -> dict[str, Any]:
    """An error as a message param: ``{"code", "params"}``."""
    return {"code": exc.code, "params": dict(exc.params)}


# ------------------------------------------------------------------- the edge

@dataclass(frozen=True)
class _Spec:
    fn: Callable[[dict[str, Any]], Any]
    required: tuple[str, ...]
    optional: tuple[str, ...]


API: dict[str, _Spec] = {}


_Handler = Callable[[dict[str, Any]], Any]


def _api(*required: str, optional: tuple[str, ...] = (), name: str | None = None) -> Callable[[_Handler], _Handler]:
    """Register a call: its required and optional fields (``table`` is always
    optional); the call's name is the function's without the underscore."""
    def wrap(fn: _Handler) -> _Handler:
        API[name or fn.__name__.lstrip("_")] = _Spec(fn, required, ("table",) + optional)
        return fn
    return wrap


def _reject_constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is too large")
    return value


# Many opening brackets in a row: refused before the parser recurses into them.
_DEEP = re.compile(r"[\[{](?:\s*[\[{]){%d}" % MAX_DEPTH)


def _depth_ok(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            items: Any = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        if d > limit:
            return False
        stack.extend((x, d + 1) for x in items)
    return True


def _parse(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, str):
        raise WebError("web.payload_type", kind=_kind(payload))
    if len(payload) > MAX_PAYLOAD:
        raise WebError("web.payload_size", size=len(payload), limit=MAX_PAYLOAD)
    if _DEEP.search(payload):
        raise WebError("web.payload_depth", limit=MAX_DEPTH)
    try:
        args = json.loads(payload or "{}", parse_constant=_reject_constant, parse_float=_finite)
    except RecursionError:
        raise WebError("web.payload_depth", limit=MAX_DEPTH) from None
    except ValueError:
        raise WebError("web.payload_json") from None
    if not _depth_ok(args, MAX_DEPTH):
        raise WebError("web.payload_depth", limit=MAX_DEPTH)
    if not isinstance(args, dict):
        raise WebError("web.payload_object", kind=_kind(args))
    return args


def _answer(name: Any, payload: Any) -> dict[str, Any]:
    if not isinstance(name, str):
        raise WebError("web.call_name", kind=_kind(name))
    spec = API.get(name)
    if spec is None:
        raise WebError("web.unknown_call", name=_quote(name), known=", ".join(sorted(API)))
    args = _parse(payload)
    known = spec.required + spec.optional
    for key in args:
        if key not in known:
            raise WebError("web.unknown_field", call=name, field=_quote(key), known=", ".join(known))
    for key in spec.required:
        if key not in args:
            raise WebError("web.missing_field", call=name, field=key)
    return {"ok": spec.fn(args)}


def _safe(value: Any, depth: int = 0) -> Any:
    """A param made safe to answer: every text shortened and with control
    characters escaped (a short plain text is left as it is)."""
    if isinstance(value, str):
        return M.quote(value, MAX_PARAM)
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, (list, tuple)):
        return [_safe(v, depth + 1) for v in value[:MAX_LIST]]
    if isinstance(value, dict):
        return {str(k): _safe(v, depth + 1) for k, v in list(value.items())[:MAX_LIST]}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return M.quote(repr(value), MAX_PARAM)


def _error_answer(exc: ChkobbaError) -> dict[str, Any]:
    """``{"error", "code", "params"}`` of a refusal, in one short line even
    when the refusal quotes outside text at length."""
    params = _safe(exc.params)
    try:
        text = M.render(exc.code, params)
    except (KeyError, IndexError, ValueError):
        text = str(exc)
    if len(text) > MAX_ERROR or not text.isprintable():
        text = M.quote(text, MAX_ERROR)
    return {"error": text, "code": exc.code, "params": params}


def call(name: Any, payload: Any = "{}") -> str:
    """Answer one call from the page as JSON text; never raises."""
    try:
        try:
            answer = _answer(name, payload)
        except ChkobbaError as exc:   # the engine's refusals and the facade's own
            answer = _error_answer(exc)
        return json.dumps(answer, allow_nan=False)
    except Exception:  # noqa: BLE001 - the page gets words, never a traceback
        return json.dumps({"error": WEB_MESSAGES["web.internal"], "code": "web.internal", "params": {}})


# ------------------------------------------------------------- field checks

def _table_id(args: dict[str, Any]) -> str:
    tid = args.get("table", DEFAULT_TABLE)
    if not isinstance(tid, str) or not TABLE_ID.match(tid):
        raise WebError("web.table_id", value=_show(tid))
    return tid


def _game(value: Any) -> str:
    if not isinstance(value, str) or value not in GAMES:
        raise WebError("web.game", value=_show(value), known=", ".join(GAMES))
    return value


def _playable(game: str) -> None:
    if game not in PLAYABLE:
        raise WebError("web.game_unavailable", game=game, name=GAME_NAMES.get(game, game))


def _seed(value: Any, code: str = "web.seed") -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= SEED_LIMIT:
        raise WebError(code, value=_show(value))
    return value


def _coach(value: Any, code: str = "web.coach") -> bool:
    if not isinstance(value, bool):
        raise WebError(code, value=_show(value))
    return value


def _seats(value: Any, players: int) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise WebError("web.seats", players=players, kind=_kind(value))
    if len(value) != players:
        raise WebError("web.seats_count", players=players, count=len(value))
    out: list[dict[str, Any]] = []
    for i, seat in enumerate(value):
        if not isinstance(seat, dict):
            raise WebError("web.seat", seat=i, kind=_kind(seat))
        for key in seat:
            if key not in ("kind", "level"):
                raise WebError("web.seat_field", seat=i, field=_quote(key))
        kind = seat.get("kind")
        if kind == "human":
            if "level" in seat:
                raise WebError("web.seat_field", seat=i, field=_quote("level"))
            out.append({"kind": "human"})
        elif kind == "computer":
            level = seat.get("level", DEFAULT_LEVEL)
            if not isinstance(level, str) or level not in LEVELS:
                raise WebError("web.seat_level", seat=i, value=_show(level))
            out.append({"kind": "computer", "level": level})
        else:
            raise WebError("web.seat_kind", seat=i, value=_show(kind))
    if not any(x["kind"] == "human" for x in out):
        raise WebError("web.no_human")
    return out


def _seat_index(value: Any, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise WebError("web.seat_index", last=players - 1, value=_show(value))
    return value


def _action(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ACTION:
        raise WebError("web.action", value=_show(value))
    return value


# ------------------------------------------------------------------- saves

SAVE_KEYS = {1: ("v", "record", "seed", "seats", "coach"),
             2: ("v", "game", "record", "seed", "seats", "coach")}


def _save_error(code: str, /, **params: Any) -> WebError:
    """``web.save`` with its reason, a ``web.save.*`` message."""
    return WebError("web.save", reason={"code": code, "params": params})


def _load(save: Any, again: bool = False) -> tuple[Session, list[dict[str, Any]], bool]:
    """Check a save (v1 of the v0.1 site, or v2) and replay it: the session,
    its seats and its hints setting. Raises WebError("web.save") in words.
    ``again``: also check that the resumed game's own record replays (for a
    game that goes on and will be saved; ``choose`` and ``hint`` save nothing)."""
    if not isinstance(save, dict):
        raise _save_error("web.save.type", kind=_kind(save))
    version = save.get("v")
    if type(version) is not int or version not in SAVE_VERSIONS:
        raise _save_error("web.save.version", value=_show(version))
    for key in save:
        if key not in SAVE_KEYS[version]:
            raise _save_error("web.save.unknown_key", key=_quote(str(key)))
    if "record" not in save:
        raise _save_error("web.save.missing_key", key="record")
    if "seats" not in save:
        raise _save_error("web.save.missing_key", key="seats")
    record = save["record"]
    if not isinstance(record, dict):
        raise _save_error("web.save.record", kind=_kind(record))
    game = record.get("game")
    if "game" in save and save["game"] != game:
        raise _save_error("web.save.game", value=_show(save["game"]))
    if isinstance(game, str) and game in GAMES:
        _playable(game)
    try:
        seed = _seed(save.get("seed"), "web.save.seed")
        coach = _coach(save.get("coach", False), "web.save.coach")
    except WebError as exc:
        raise _save_error(exc.code, **exc.params) from None
    try:
        session = Session.from_record(record, seed=seed)
    except ChkobbaError as exc:
        raise _save_error("web.save.replay", reason=_message(exc)) from None
    try:
        seats = _seats(save["seats"], session.players)
    except WebError as exc:
        raise _save_error("web.save.seats", reason=_message(exc)) from None
    _playable(session.game)
    if again:
        try:
            _check_replays(session)
        except WebError as exc:
            raise _save_error("web.save.replay", reason=exc.params["reason"]) from None
    return session, seats, coach


def _check_replays(session: Session) -> None:
    """The session's record replays to the session's position (raises WebError)."""
    try:
        again = Session.from_record(session.record(), seed=session.seed)
    except ChkobbaError as exc:
        raise WebError("web.save_broken", reason=_message(exc)) from None
    if again.state.history() != session.state.history() or again.to_act() != session.to_act():
        raise WebError("web.save_broken", reason={"code": "web.save.elsewhere", "params": {}})


def _deck_count(session: Session) -> int:
    return sum(len(r["decks"]) for r in session.record()["rounds"])


# ------------------------------------------------------------------- tables

class Table:
    """One game on the page: a session and the seats around it."""

    def __init__(self, tid: str, session: Session, seats: list[dict[str, Any]], coach: bool = False,
                 viewer: int | None = None, hidden: bool | None = None) -> None:
        self.id = tid
        self.session = session
        self.seats = seats
        self.coach = coach
        self.sides = _sides(session)
        # Pass-and-play: the human seat whose view the page shows, and whether
        # that view is hidden until the player taps (``reveal``).
        self.humans = [i for i, x in enumerate(seats) if x["kind"] == "human"]
        to_act = session.to_act()
        if viewer is None:
            viewer = to_act if to_act is not None and to_act in self.humans else self.humans[0]
        self.viewer = viewer
        self.hidden = len(self.humans) > 1 if hidden is None else hidden

    def save(self) -> dict[str, Any]:
        """Format v2: what resumes this game (the table id is not in it)."""
        return {"v": SAVE_VERSION, "game": self.session.game, "record": self.session.record(),
                "seed": self.session.seed, "seats": [dict(s) for s in self.seats], "coach": self.coach}


_tables: "OrderedDict[str, Table]" = OrderedDict()


def _table(args: dict[str, Any]) -> Table:
    tid = _table_id(args)
    table = _tables.get(tid)
    if table is None:
        raise WebError("web.no_table", table=_quote(tid))
    _tables.move_to_end(tid)
    return table


def _install(table: Table) -> None:
    _tables[table.id] = table
    _tables.move_to_end(table.id)
    while len(_tables) > MAX_TABLES:
        _tables.popitem(last=False)


def _fork(session: Session) -> Session:
    """A copy of the session to try a move on, so that a move that fails
    halfway changes nothing. A move replaces the state object (never changes
    it in place) and touches only the record's last round, its list of rounds
    and the session's cache of moves, so those are what is copied."""
    clone = copy.copy(session)
    record = session._record
    rounds = list(record.rounds)
    if rounds:
        last = rounds[-1]
        rounds[-1] = dataclasses.replace(last, decks=list(last.decks), actions=list(last.actions))
    clone._record = dataclasses.replace(record, rounds=rounds)
    clone._moves = dict(session._moves)
    return clone


# -------------------------------------------------------------- the answer

def _sides(session: Session) -> list[list[int]]:
    """The seats of each side, as the game's observations say."""
    sides: list[list[int]] = [[], []]
    for seat in range(session.players):
        sides[session.observation(seat).side].append(seat)
    return sides


def _words(session: Session, legal: list[str], to_act: int | None, viewer: int = HUMAN_SEAT) -> list[dict[str, Any]]:
    if to_act != viewer:
        return []
    if session.game == "seven_diamonds":
        return _seven_words(session, legal)
    return [{"action": a, "label": WORD_LABELS[a], "code": f"word.{a}", "params": {}}
            for a in legal if a in WORD_LABELS]


def _human_side(session: Session, me: int = HUMAN_SEAT) -> int:
    side: int = session.observation(me).side
    return side


def _who(session: Session, side: int, me: int = HUMAN_SEAT) -> str:
    mine = side == _human_side(session, me)
    if session.players == 2:
        return "you" if mine else "computer"
    return "your_side" if mine else "other_side"


def _sheet(session: Session, moves_now: int, me: int = HUMAN_SEAT) -> dict[str, Any]:
    """The score sheet across rounds, and the result in words (decided here)."""
    st = session.state
    opts = st.options
    rounds: list[dict[str, Any]] = []
    running = [0, 0]
    ended: list[dict[str, Any]] = []    # the games that ended, in order
    results = list(st.results)
    for i, res in enumerate(results):
        if i and results[i - 1].game != res.game:
            running = [0, 0]
        points = [int(res.points[0]), int(res.points[1])]
        running = [running[0] + points[0], running[1] + points[1]]
        game_over = (i + 1 < len(results) and results[i + 1].game != res.game) or (
            i + 1 == len(results) and (st.game_index != res.game or st.winner is not None))
        entry = {"round": i + 1, "game": res.game + 1, "points": points, "running": list(running),
                 "breakdown": res.to_dict(), "game_over": game_over, "game_winner": None}
        rounds.append(entry)
        if game_over:
            # The engine keeps no per-game winner: the round that ended a game
            # tells it (all ten diamonds where that wins, else the higher total;
            # tests check these add up to the engine's games count).
            diamonds = getattr(res, "all_diamonds", None)
            by_diamonds = bool(getattr(opts, "all_diamonds_wins", False)) and diamonds is not None
            winner = diamonds if by_diamonds else (0 if running[0] > running[1] else 1)
            if i + 1 == len(results) and st.winner is not None:
                winner = st.winner
            entry["game_winner"] = winner
            ended.append({"game": res.game + 1, "winner": winner, "running": list(running),
                          "by_diamonds": by_diamonds, "round": i + 1})
    result: dict[str, Any] | None = None
    last_round_ended_game = bool(rounds) and rounds[-1]["game_over"]
    if ended and last_round_ended_game and (st.is_over or moves_now == 0):
        result = _result(session, ended, me)
    return {"rounds": rounds, "score": list(st.score), "games": list(st.games),
            "target": getattr(opts, "target", None), "match": getattr(opts, "match", 1), "over": st.is_over,
            "winner": st.winner, "result": result}


def _result(session: Session, ended: list[dict[str, Any]], me: int = HUMAN_SEAT) -> dict[str, Any]:
    st = session.state
    last = ended[-1]
    w = last["winner"]
    who = _who(session, w, me)
    mine = _human_side(session, me)
    games = [0, 0]
    for g in ended:
        games[g["winner"]] += 1
    pts = last["running"]
    params: dict[str, Any] = {"winner_points": pts[w], "loser_points": pts[1 - w], "game": last["game"],
                              "your_games": games[mine], "their_games": games[1 - mine],
                              "winner_games": games[w], "loser_games": games[1 - w], "side": w}
    match = getattr(st.options, "match", 1)
    if st.is_over and match > 1:
        code = f"web.result.match_{who}"
    elif st.is_over:
        code = f"web.result.{'diamonds' if last['by_diamonds'] else 'game'}_{who}"
    else:
        code = f"web.result.{'match_diamonds' if last['by_diamonds'] else 'match_game'}_{who}"
    return {"code": code, "params": params, "text": _render(code, params)}


def _moves(session: Session) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The moves to show (this round, or the one just finished while the new
    one has none: ``Session.moves()``) and the moves of the round before."""
    shown = session.moves()
    rounds = session.record()["rounds"]
    index = len(rounds) - 1
    while index > 0 and not rounds[index]["actions"]:
        index -= 1
    return shown, (session.moves(index - 1) if index > 0 else [])


def _state(table: Table) -> dict[str, Any]:
    """What the page draws for the human seat, and the save."""
    s = table.session
    me = table.viewer
    view = s.view(me)
    legal = view.pop("legal", [])
    to_act = s.to_act()
    if table.hidden:
        # The hand-off screen is up: nothing of the next player's hand is sent.
        legal = []
        view["hand"] = []
        for key in ("cut_card", "playable", "legal"):
            if key in view:
                view[key] = None if key == "cut_card" else []
        if "cut_visible" in view:
            view["cut_visible"] = False
    moves, last_round_moves = _moves(s)
    moves_now = len(s.state.history())
    claim = view.get("claim")
    return {
        "table": table.id,
        "game": s.game,
        "view": view,
        "seats": [dict(x) for x in table.seats],
        "sides": table.sides,
        "human": me,
        "humans": list(table.humans),
        # pass-and-play: the seat to hand the device to, while its view is hidden
        "handoff": me if table.hidden else None,
        "to_act": to_act,
        "to_act_kind": table.seats[to_act]["kind"] if to_act is not None else None,
        # Non-card decisions only; card plays are never listed (see module doc).
        "words": _words(s, legal, to_act, me),
        "claim": claim,
        "moves": moves,
        "last_round_moves": last_round_moves,
        "sheet": _sheet(s, moves_now, table.humans[0]),
        "summary": s.summary(),
        "coach": table.coach,
        "save": table.save(),
        **({"seven": _seven(table, legal, to_act)} if s.game == "seven_diamonds" else {}),
    }


# ------------------------------------------------------------------- calls

@_api(optional=("game",))
def _describe(args: dict[str, Any]) -> dict[str, Any]:
    """The games, their options and allowed values, levels, seat kinds."""
    _table_id(args)
    games = [_game(args["game"])] if "game" in args else list(GAMES)
    out = []
    for g in games:
        out.append({"game": g, "name": GAME_NAMES.get(g, g), "available": g in PLAYABLE,
                    "players": list(PLAYERS[g]), "options": describe_options(g)})
    return {"games": out, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
            "seat_kinds": list(SEAT_KINDS), "save_version": SAVE_VERSION, "save_versions": list(SAVE_VERSIONS)}


@_api()
def _messages(args: dict[str, Any]) -> dict[str, Any]:
    """Every message code and its English template."""
    _table_id(args)
    return {"messages": dict(M.MESSAGES)}


@_api(optional=("game", "options", "seats", "seed", "coach"))
def _start(args: dict[str, Any]) -> dict[str, Any]:
    """Start a new match at a table and return its state."""
    tid = _table_id(args)
    game = _game(args.get("game", "chkobba"))
    _playable(game)
    options = args.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise WebError("web.options", kind=_kind(options))
    opts = check_options(game, options)   # InvalidOptions in words
    players = int(opts.to_dict()["players"])
    seats = args.get("seats")
    if seats is None:
        seats = [{"kind": "human"}] + [{"kind": "computer", "level": DEFAULT_LEVEL} for _ in range(players - 1)]
    checked = _seats(seats, players)
    seed = _seed(args.get("seed"))
    coach = _coach(args.get("coach", False))
    session = Session.new(game, opts.to_dict(), seed=seed)
    _check_replays(session)
    table = Table(tid, session, checked, coach)
    answer = _state(table)
    _install(table)
    return answer


@_api("save")
def _resume(args: dict[str, Any]) -> dict[str, Any]:
    """Resume a save (v1 of the v0.1 site or v2) at a table."""
    tid = _table_id(args)
    session, seats, coach = _load(args["save"], again=True)
    table = Table(tid, session, seats, coach)
    answer = _state(table)
    _install(table)
    return answer


@_api("action", "seat")
def _act(args: dict[str, Any]) -> dict[str, Any]:
    """Play an action (RECORDS.md text) for the seat to act."""
    table = _table(args)
    s = table.session
    action = _action(args["action"])
    seat = _seat_index(args["seat"], s.players)
    to_act = s.to_act()
    if to_act is None:
        raise WebError("web.game_over")
    if seat != to_act:
        raise WebError("web.not_turn", seat=seat, to_act=to_act)
    if table.hidden and seat == table.viewer and table.seats[seat]["kind"] == "human":
        raise WebError("web.hidden", seat=seat)
    fork = _fork(s)
    decks = _deck_count(fork)
    fork.apply(action)                  # ChkobbaError in words; nothing changed
    if _deck_count(fork) != decks:      # a new deal: the save must still replay
        _check_replays(fork)
    viewer, hidden = table.viewer, table.hidden
    after = fork.to_act()
    if after is not None and after in table.humans and after != viewer:
        viewer, hidden = after, True      # pass the device: hide the hand until the player taps
    trial = Table(table.id, fork, table.seats, table.coach, viewer, hidden)
    answer = _state(trial)
    table.session = fork
    table.viewer, table.hidden = viewer, hidden
    return answer


@_api()
def _reveal(args: dict[str, Any]) -> dict[str, Any]:
    """Pass-and-play: the player the device was handed to tapped; show their view."""
    table = _table(args)
    table.hidden = False
    return _state(table)


@_api(name="state")
def _state_call(args: dict[str, Any]) -> dict[str, Any]:
    """The state of a table."""
    return _state(_table(args))


# ------------------------------------------------------------ computer seats

@_api("save", "seat")
def _choose(args: dict[str, Any]) -> dict[str, Any]:
    """The action of computer ``seat`` in the position of ``save`` (in the worker)."""
    _table_id(args)
    session, seats, _ = _load(args["save"])
    seat = _seat_index(args["seat"], session.players)
    if seats[seat]["kind"] != "computer":
        raise WebError("web.not_computer", seat=seat)
    to_act = session.to_act()
    if to_act is None:
        raise WebError("web.game_over")
    if to_act != seat:
        raise WebError("web.not_turn", seat=seat, to_act=to_act)
    level = seats[seat]["level"]
    history = session.state.history()
    rng = random.Random(f"{session.seed}/{session.state.round_index}/{len(history)}/{seat}")
    from .agents import make_agent
    obs = session.observation(seat)
    agent = make_agent(session.game, level)
    return {"action": str(agent.choose(obs, obs.legal_actions(), rng)), "level": level}


@_api("save", optional=("seat",))
def _hint(args: dict[str, Any]) -> dict[str, Any]:
    """The coach: the best few legal actions of the human seat, with reasons."""
    _table_id(args)
    session, seats, coach = _load(args["save"])
    seat = _seat_index(args.get("seat", HUMAN_SEAT), session.players)
    if not coach:
        raise WebError("web.hints_off")
    if seats[seat]["kind"] != "human":
        raise WebError("web.hints_own_seat")
    if session.to_act() != seat:
        raise WebError("web.not_your_turn")
    from .agents import Budget
    from .agents import hint as coach_hint
    history = session.state.history()
    rng = random.Random(f"hint/{session.seed}/{session.state.round_index}/{len(history)}")
    ranking = coach_hint(session.observation(seat), rng, Budget(rollouts=HINT_ROLLOUTS, ms=HINT_MS))
    out: list[dict[str, Any]] = []
    for item in ranking["actions"][:HINT_TOP]:
        action = str(item["action"])
        reason = str(item.get("reason") or "")
        code, params = item.get("code"), item.get("params")
        if not (isinstance(code, str) and code in M.MESSAGES and isinstance(params, dict)):
            code, params = "web.hint.reason", {"reason": reason}
        out.append({"action": action, "rank": item.get("rank", len(out) + 1),
                    "label": WORD_LABELS.get(action, action),
                    "label_code": f"word.{action}" if action in WORD_LABELS else None,
                    "reason": reason, "code": code, "params": params})
    return {"actions": out}


def choose(save: Any, seat: int) -> dict[str, Any]:
    """``choose`` for Python callers (tests, tools): raises WebError in words."""
    result: dict[str, Any] = _choose({"save": save, "seat": seat})
    return result


def hint(save: Any, seat: int = HUMAN_SEAT) -> dict[str, Any]:
    """``hint`` for Python callers: raises WebError in words."""
    result: dict[str, Any] = _hint({"save": save, "seat": seat})
    return result


@_api()
def _defaults(args: dict[str, Any]) -> dict[str, Any]:
    """Superseded by ``describe``; kept for the v0.1 page."""
    _table_id(args)
    return defaults()


def defaults() -> dict[str, Any]:
    """Default table options of each playable game and the computer levels."""
    from .registry import game_class
    return {"chkobba": game_class("chkobba").options_class()().to_dict(), "levels": list(LEVELS)}


@_api()
def _ping(args: dict[str, Any]) -> dict[str, Any]:
    import sys
    _table_id(args)
    return {"python": sys.version.split()[0]}


# ------------------------------------------------------------ Seven Diamonds
# What the Seven Diamonds table draws besides the view (docs/facade.md): the
# calls offered as words (with the Arabic the Sahrat table uses), which of the
# acting human's cards may be laid (the page never works it out), the order
# of speaking, the timer of the seat to act and the round's breakdown.

SEVEN_CALLS = {"pass": ("word.call_pass", ""), "double": ("word.double", "\u062f\u0628\u0644"),
               "triple": ("word.triple", "\u062b\u0631\u064a")}
SEVEN_ARABIC = {"double": "\u062f\u0628\u0644", "triple": "\u062b\u0631\u064a",
                "forced_pass": "\u062c\u0644\u0651\u0629", "last_card": "\u0622\u062e\u0631 \u0648\u0631\u0642\u0629"}


def _seven_words(session: Session, legal: list[str]) -> list[dict[str, Any]]:
    """The calls the human may say now (only the legal ones); never ``timeout``."""
    out = []
    for a in legal:
        if a in SEVEN_CALLS:
            code, arabic = SEVEN_CALLS[a]
            out.append({"action": a, "label": M.MESSAGES[code], "code": code, "params": {}, "arabic": arabic})
    return out


def _seven(table: Table, legal: list[str], to_act: int | None) -> dict[str, Any]:
    st: Any = table.session.state
    view: dict[str, Any] = dict(st.view(table.viewer))
    mine = to_act == table.viewer and view["phase"] == "play" and not table.hidden
    first = (st.dealer + 1) % 4
    results: list[dict[str, Any]] = list(view["results"])
    return {
        # the human's cards that may be laid now (in the hand's order)
        "playable": [c for c in view["hand"] if c in legal] if mine else [],
        "speaking_order": [(first + i) % 4 for i in range(4)] if view["phase"] == "calls" else [],
        "timer": view["timer"] if to_act is not None else None,
        "timeout": "timeout" in legal,
        "arabic": dict(SEVEN_ARABIC),
        "last_result": _seven_result(results[-1]) if results else None,
    }


def _seven_result(res: dict[str, Any]) -> dict[str, Any]:
    """The round's result with each hand left and the points of its cards
    (only the losing team's count: A 20, K Q J 10, others 0)."""
    from .cards import CODES
    from .games.seven_diamonds.constants import POINTS
    out = dict(res)
    hands = []
    for seat, cards in enumerate(res["left"]):
        losing = seat & 1 != res["winner_team"]
        pts = [POINTS[CODES.index(c)] if losing else 0 for c in cards]
        hands.append({"seat": seat, "cards": list(cards), "points": pts, "total": sum(pts), "losing": losing})
    out["hands"] = hands
    out["before_multiplier"] = res["cards"] + res["bonus"]
    return out


# ======================================================================
# Embeds, shared links and lessons (issue 14; docs/facade.md "Embeds").
# A link (chkobba.links, docs/links.md) opened at an embed table: replay
# steps through its record, play seats the reader at its position against
# the computer (thinking here, on the page's thread: an embed starts no
# worker), puzzle judges the reader's move with the coach. Lessons come as
# the data of lessons/*.json (the page fetches them) and are judged with
# chkobba.links.lessons. Embed tables are kept apart from the game tables.

from . import links as _links                       # noqa: E402  (registers link.* codes)
from .links import lessons as _lessons              # noqa: E402

M.register({
    "web.embed.no_table": 'No link is open at table "{table}"',
    "web.embed.mode": "This link is a {mode}, which cannot do that",
    "web.embed.index": "The position must be a whole number from 0 to {last}, not {value}",
    "web.embed.not_reader": "It is not your turn",
    "web.embed.not_computer": "It is not the computer's turn",
    "web.embed.right": "Well found: that is the best move here",
    "web.embed.wrong": "That move is allowed, but there is a better one",
    "web.lesson.data": "The lesson could not be read: {reason}",
    "web.lesson.unknown": "There is no open lesson {lesson} with a step {step}",
    "web.share.table": "The link could not be made: {reason}",
    "web.share.last_round": "last_round is true or false, not {value}",
})

EMBED_LEVEL = "medium"
PUZZLE_ROLLOUTS = 300
_embeds: "OrderedDict[str, dict[str, Any]]" = OrderedDict()
_open_lessons: "OrderedDict[str, _lessons.Lesson]" = OrderedDict()


def _embed(args: dict[str, Any], mode: str) -> dict[str, Any]:
    """The open embed table of the call, whose link must be in ``mode``."""
    tid = _table_id(args)
    e = _embeds.get(tid)
    if e is None:
        raise WebError("web.embed.no_table", table=_quote(tid))
    _embeds.move_to_end(tid)
    if e["link"].mode != mode:
        raise WebError("web.embed.mode", mode=e["link"].mode)
    return e


def _positions(record: dict[str, Any]) -> list[tuple[int, int]]:
    """Every position of a record, (round, ply), in order of play."""
    out: list[tuple[int, int]] = []
    for r, rnd in enumerate(record["rounds"], 1):
        out.extend((r, p) for p in range(len(rnd["actions"]) + 1))
    return out


def _embed_state(e: dict[str, Any], session: Session) -> dict[str, Any]:
    """A state answer shaped as ``_state``'s for the table renderer, seen from
    the embed's seat: its hand, or every hand (``view.hands``) when shown."""
    base = e["seat"]
    view = session.view(None if e["every"] else base)
    view.pop("legal", None)
    if e["every"]:
        view["hand"] = list(view["hands"][base])
        view["seat"] = base
        view["side"] = session.observation(base).side
    to_act = session.to_act()
    moves, last_round_moves = _moves(session)
    # The computer's level is named only where it plays (play from here): the
    # players of a replayed record, a puzzle or a lesson were whoever they were.
    level = e.get("level")
    seats = [{"kind": "human"} if i == e["reader"] else {"kind": "computer", **({"level": level} if level else {})}
             for i in range(session.players)]
    claim = view.get("claim")
    legal = session.view(to_act)["legal"] if to_act is not None else []
    return {
        "table": e["id"], "game": session.game, "view": view, "seats": seats,
        "sides": _sides(session), "human": base, "to_act": to_act,
        # a replay is watched, not played: seats are named by where they sit, never "You"
        "spectator": e["reader"] is None,
        "to_act_kind": None if to_act is None else seats[to_act]["kind"],
        "words": [{"action": a, "label": WORD_LABELS[a], "code": f"word.{a}", "params": {}}
                  for a in legal if a in WORD_LABELS] if to_act == e["reader"] else [],
        "claim": claim, "moves": moves, "last_round_moves": last_round_moves,
        "sheet": _sheet(session, len(session.state.history())), "summary": session.summary(),
        "coach": False,
        **(_embed_seven(e, session, legal, to_act, seats) if session.game == "seven_diamonds" else {}),
    }


def _embed_seven(e: dict[str, Any], session: Session, legal: list[str], to_act: int | None,
                 seats: list[dict[str, Any]]) -> dict[str, Any]:
    """What the Seven Diamonds renderer draws besides the view, as the main
    table's ``_state`` gives it: the calls as words and the ``seven`` block.
    The cards that may be laid are listed only when the reader is to act in
    a game of their own (play); a puzzle or a lesson does not give them away,
    and a replay has no reader."""
    reader = e["reader"]
    mine = reader is not None and to_act == reader
    table = Table(e["id"], session, seats, viewer=e["seat"],
                  hidden=not (mine and e.get("mark_playable", False)))
    return {"words": _seven_words(session, legal) if mine else [], "seven": _seven(table, legal, to_act)}


def _embed_answer(e: dict[str, Any]) -> dict[str, Any]:
    link = e["link"]
    return {"table": e["id"], "mode": link.mode, "game": link.record.game,
            "players": e["session"].players, "show": link.show, "reasons": link.reasons,
            "reader": e["reader"], "index": e["index"], "count": len(e["positions"]),
            "over": e["session"].to_act() is None, "state": _embed_state(e, e["session"]),
            # where the replay stands: (round, ply) and the actions of that round
            "at": list(e["positions"][e["index"]]) if link.mode == "replay" else None,
            "plies": max(p for r, p in e["positions"] if r == e["positions"][e["index"]][0])}


@_api("link")
def _link_open(args: dict[str, Any]) -> dict[str, Any]:
    """Open a link (a ``c1.`` text) at an embed table: its mode, the view
    settings and the state at its position."""
    tid = _table_id(args)
    link = _links.decode(args["link"])          # link.* refusals in words
    session = link.session(seed=0)
    full = session.record()
    positions = _positions(Session.from_record(link.record, seed=0).record())
    at = link.at
    here = len(full["rounds"]), len(full["rounds"][-1]["actions"]) if full["rounds"] else 0
    if at is None and link.mode == "replay":
        index = 0                       # a whole game replays from its start
    else:
        index = positions.index(at) if at in positions else (
            positions.index(here) if here in positions else len(positions) - 1)
    reader = link.reader_seat() if link.mode != "replay" else None
    base = reader if reader is not None else (link.show if link.show is not None else 0)
    e = {"id": tid, "link": link, "positions": positions, "index": index, "session": session,
         "reader": reader, "seat": base, "every": link.show is None and link.mode == "replay",
         "ranking": None, "mark_playable": link.mode == "play",
         "level": EMBED_LEVEL if link.mode == "play" else None}
    _embeds[tid] = e
    _embeds.move_to_end(tid)
    while len(_embeds) > MAX_TABLES:
        _embeds.popitem(last=False)
    return _embed_answer(e)


@_api("index")
def _link_step(args: dict[str, Any]) -> dict[str, Any]:
    """Replay: the state at position ``index`` of the record (0 to count - 1)."""
    e = _embed(args, "replay")
    last = len(e["positions"]) - 1
    index = args["index"]
    if type(index) is not int or not 0 <= index <= last:
        raise WebError("web.embed.index", last=last, value=_show(index))
    e["session"] = Session.from_record(e["link"].record, seed=0, at=e["positions"][index])
    e["index"] = index
    return _embed_answer(e)


@_api("action")
def _link_act(args: dict[str, Any]) -> dict[str, Any]:
    """Play: the reader's move at the embed table (the engine's reason if illegal)."""
    e = _embed(args, "play")
    action = _action(args["action"])
    s = e["session"]
    if s.to_act() is None:
        raise WebError("web.game_over")
    if s.to_act() != e["reader"]:
        raise WebError("web.embed.not_reader")
    fork = _fork(s)
    fork.apply(action)
    e["session"] = fork
    return _embed_answer(e)


@_api()
def _link_computer(args: dict[str, Any]) -> dict[str, Any]:
    """Play: the computer's move at the embed table; answers the state and the action."""
    e = _embed(args, "play")
    s = e["session"]
    seat = s.to_act()
    if seat is None:
        raise WebError("web.game_over")
    if seat == e["reader"]:
        raise WebError("web.embed.not_computer")
    from .agents import make_agent
    history = s.state.history()
    rng = random.Random(f"embed/{s.state.round_index}/{len(history)}/{seat}")
    obs = s.observation(seat)
    action = str(make_agent(s.game, EMBED_LEVEL).choose(obs, obs.legal_actions(), rng))
    fork = _fork(s)
    fork.apply(action)
    e["session"] = fork
    answer = _embed_answer(e)
    answer["action"] = action
    return answer


@_api("action", optional=("reveal",))
def _link_judge(args: dict[str, Any]) -> dict[str, Any]:
    """Puzzle: is the reader's move the best one? The engine's reason for an
    illegal move; the coach's ranking (kept for the table) for a legal one;
    the coach's reasons only when the link allows them."""
    e = _embed(args, "puzzle")
    link = e["link"]
    action = _action(args["action"])
    s = e["session"]
    try:
        a = s.state.parse(action)
        s.state.verify_action(a)
    except ChkobbaError as exc:
        return {"right": False, "legal": False, "code": exc.code, "params": _safe(exc.params),
                "text": _error_answer(exc)["error"], "best": None}
    if e["ranking"] is None:
        from .agents import Budget
        from .agents import hint as coach_hint
        rng = random.Random("puzzle")
        e["ranking"] = coach_hint(s.observation(e["reader"]), rng,
                                  Budget(rollouts=PUZZLE_ROLLOUTS, ms=10_000))["actions"]
    ranking = e["ranking"]
    best = [str(i["action"]) for i in ranking if i.get("rank", 1) == ranking[0].get("rank", 1)] or \
        [str(ranking[0]["action"])]
    right = str(a) in {str(s.state.parse(b)) for b in best}
    code = "web.embed.right" if right else "web.embed.wrong"
    out: dict[str, Any] = {"right": right, "legal": True, "code": code, "params": {},
                           "text": _render(code, {}), "best": None}
    if link.reasons:
        mine = next((i for i in ranking if str(i["action"]) == str(a)), None)
        top = ranking[0]
        out["reason"] = str((mine or {}).get("reason") or "")
        out["reason_message"] = _reason_message(mine) if mine else None
        if right or args.get("reveal"):
            out["best"] = {"action": str(top["action"]), "reason": str(top.get("reason") or ""),
                           "message": _reason_message(top)}
    return out


def _reason_message(item: dict[str, Any]) -> dict[str, Any]:
    """A coach reason as a message (code and params), so a page words it in
    its own language; English reasons without a code are wrapped as text."""
    code, params = item.get("code"), item.get("params")
    if isinstance(code, str) and code in M.MESSAGES and isinstance(params, dict):
        return {"code": code, "params": _safe(dict(params))}
    return {"code": "web.hint.reason", "params": {"reason": str(item.get("reason") or "")}}


@_api("lesson")
def _lesson_open(args: dict[str, Any]) -> dict[str, Any]:
    """A lesson's data (a lessons/*.json file the page fetched): checked, kept
    for judging, and answered as its steps, each with its state and link."""
    try:
        lesson = _lessons.parse_lesson(args["lesson"], "page")
    except ChkobbaError as exc:
        raise WebError("web.lesson.data", reason=_message(exc)) from None
    _open_lessons[lesson.id] = lesson
    while len(_open_lessons) > MAX_TABLES:
        _open_lessons.popitem(last=False)
    steps = []
    for st in lesson.steps:
        e = {"id": f"lesson-{lesson.id}-{st.id}"[:40], "reader": st.seat, "seat": st.seat, "every": False}
        steps.append({"id": st.id, "seat": st.seat, "text": st.text.text, "text_key": st.text.key,
                      "hint": st.hint.text, "hint_key": st.hint.key,
                      "link": _links.encode(st.link()), "state": _embed_state(e, st.session())})
    return {"id": lesson.id, "title": lesson.title.text, "title_key": lesson.title.key,
            "game": lesson.game, "steps": steps}


@_api("lesson", "step", "move")
def _lesson_judge(args: dict[str, Any]) -> dict[str, Any]:
    """A reader's move in a lesson step: right, or the engine's reason / the hint."""
    lesson = _open_lessons.get(args["lesson"]) if isinstance(args["lesson"], str) else None
    step = next((s for s in lesson.steps if s.id == args["step"]), None) if lesson else None
    if step is None:
        raise WebError("web.lesson.unknown", lesson=_show(args["lesson"]), step=_show(args["step"]))
    move = _action(args["move"])
    verdict = step.judge(move)
    msg = verdict.message
    return {"right": verdict.right, "code": msg.code, "params": _safe(dict(msg.params)),
            "text": M.render(msg.code, _safe(dict(msg.params))),
            "hint": verdict.hint.text if verdict.hint else None}


@_api("save", optional=("last_round",))
def _share(args: dict[str, Any]) -> dict[str, Any]:
    """Links of a saved game (the Share dialog): the game so far (replay),
    its current position, and each round replayed with every hand shown
    (with ``last_round: true``, only the latest round's: the round summary
    asks for that one, and a long match's links cost time per round)."""
    _table_id(args)
    last_only = _coach(args.get("last_round", False), "web.share.last_round")
    session, _, _ = _load(args["save"])
    from .records import parse_record
    data = session.record()
    record = parse_record(data)
    try:
        game = _links.encode(_links.Link(record, None, "replay", None, False))
        rounds = data["rounds"]
        position = game
        if session.to_act() is not None and rounds:
            at = (len(rounds), len(rounds[-1]["actions"]))
            position = _links.encode(_links.Link(record, at, "play", None, False))
        per_round = []
        played = [r for r, rnd in enumerate(rounds, 1) if rnd["actions"]]
        for r in played[-1:] if last_only else played:
            per_round.append(_links.encode(_links.Link(record, (r, 0), "replay", None, False)))
    except ChkobbaError as exc:
        raise WebError("web.share.table", reason=_message(exc)) from None
    return {"game": game, "position": position, "rounds": per_round}


# ======================================================================
# Player statistics (issue 12; docs/stats.md). The page keeps the
# statistics (chkobba.stats' file object) in its storage and hands them in;
# every call checks them as strictly as a file from outside (a damaged
# stored value answers ``stats.file``, like any bad file), and answers the
# new statistics. Only a finished match counts, once (by its record's id).

from . import stats as _stats                       # noqa: E402  (registers stats.* codes)

STATS_AT_LIMIT = _stats.MAX_AT


def _stats_in(value: Any) -> _stats.Stats:
    """The stored statistics a call was given (null: none yet)."""
    return _stats.empty() if value is None else _stats.from_file(value)


def _stats_at(args: dict[str, Any]) -> int:
    import time
    at = args.get("at")
    if at is None:
        return int(time.time() * 1000)
    if type(at) is not int or not 0 <= at <= STATS_AT_LIMIT:
        raise WebError("web.stats.at", value=_show(at))
    return at


M.register({
    "web.stats.at": "The time must be a whole number of milliseconds from 0 to 2^53, not {value}",
    "web.stats.text": "The file's text must be a text, not {kind}",
})


def _label(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params, "text": _render(code, params)}


def _stats_rows(stats: _stats.Stats) -> list[dict[str, Any]]:
    rows = []
    for t in _stats.totals(stats):
        v = t["variant"]
        if t["game"] == "chkobba":
            parts = [_label("stats.players", players=v["players"]), _label(f"stats.capture.{v['capture']}"),
                     _label("stats.target", target=v["target"]), _label(f"stats.match.{v['match']}")]
        else:
            parts = [_label("stats.calls." + str(v["calls"]).lower()), _label("stats.target", target=v["target"])]
        t["game_label"] = _label(f"stats.game.{t['game']}")
        t["variant_labels"] = parts
        t["level_label"] = _label(f"stats.level.{t['level']}")
        if t["game"] != "chkobba":
            t["chkobbas"] = None
        rows.append(t)
    return rows


def _stats_answer(stats: _stats.Stats, **extra: Any) -> dict[str, Any]:
    return {"stats": _stats.to_file(stats), "rows": _stats_rows(stats), **extra}


@_api("save", optional=("stats", "at"))
def _stats_add(args: dict[str, Any]) -> dict[str, Any]:
    """A finished match (its save, checked and replayed) added to the
    statistics: ``{stats, rows, added}``; ``added`` is false when the
    match was already counted (a reload at the end of a match)."""
    _table_id(args)
    stats = _stats_in(args.get("stats"))
    at = _stats_at(args)
    session, seats, _ = _load(args["save"])
    new = _stats.add_match(stats, session, seats, at)
    return _stats_answer(new, added=new is not stats)


@_api(optional=("stats",))
def _stats_view(args: dict[str, Any]) -> dict[str, Any]:
    """The rows of the statistics table: ``{stats, rows}``; each row is a
    group's totals with its labels as messages (``game_label``,
    ``variant_labels``, ``level_label``)."""
    _table_id(args)
    return _stats_answer(_stats_in(args.get("stats")))


@_api("text", optional=("stats",))
def _stats_import(args: dict[str, Any]) -> dict[str, Any]:
    """A file's text merged into the statistics (every match counted once):
    ``{stats, rows, added}`` (how many matches were new). A bad file answers
    ``stats.file`` and the page keeps what it had."""
    _table_id(args)
    stats = _stats_in(args.get("stats"))
    text = args["text"]
    if not isinstance(text, str):
        raise WebError("web.stats.text", kind=_kind(text))
    incoming = _stats.from_text(text)
    before = {m[0] for m in stats["matches"]}
    merged = _stats.merge(stats, incoming)
    added = sum(1 for m in incoming["matches"] if m[0] not in before)
    return _stats_answer(merged, added=added)


@_api(optional=("stats",))
def _stats_export(args: dict[str, Any]) -> dict[str, Any]:
    """The statistics as a file's text: ``{text}``."""
    _table_id(args)
    return {"text": _stats.to_text(_stats_in(args.get("stats")))}
