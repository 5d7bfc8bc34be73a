"""Browser facade: the one module the web table talks to.

The page (web/app.js) holds no rules. It calls :func:`call` with a function
name and a JSON payload and gets JSON back: ``{"ok": value}`` or
``{"error": "plain words"}``. Everything returned is JSON-able.

The facade keeps the one game being played on the page (a
:class:`~chkobba.session.Session` plus who sits where) and gives the page what
the human seat may see. On purpose it never hands the page the list of legal
card plays: the player points at what they take, the page builds the action
text from the pointing, and the engine accepts it or says why not. Only the
non-card decisions (keep/table the cut card, propose/pass/accept/refuse a
re-deal) are offered as choices.

Computer seats think in a separate interpreter (a PyScript worker) through
:func:`choose`, which rebuilds the position from the saved record and returns
an action text; the page then plays it here with :func:`act`.

Hints (the coach) are a table option of the page, off by default and kept in
the save (``"coach": true``). Only then does :func:`hint` (also run in the
worker, and only when the player asks) rank the human's legal actions; with
the coach off it refuses, so nothing can ever point out a better or missed
play to a player who did not opt in (RULES.md).
"""

from __future__ import annotations

import inspect
import json
import random
from typing import Any, Callable, TypeVar

from .errors import ChkobbaError
from .session import Session

SAVE_VERSION = 1
LEVELS = ("easy", "medium", "hard")
HUMAN_SEAT = 0
HINT_TOP = 3
# Small on purpose: a hint answers in well under a second in the browser.
HINT_ROLLOUTS = 150
HINT_MS = 400
WORD_LABELS = {
    "keep": "Keep the cut card",
    "table": "Put the cut card on the table",
    "propose": "Propose a re-deal",
    "pass": "Play on",
    "accept": "Accept the re-deal",
    "refuse": "Refuse the re-deal",
}

API: dict[str, Callable[..., Any]] = {}


class WebError(ChkobbaError):
    """A request from the page that cannot be served (bad settings or save)."""


F = TypeVar("F", bound=Callable[..., Any])


def _api(fn: F) -> F:
    API[fn.__name__] = fn
    return fn


def call(name: str, payload: str = "{}") -> str:
    """Run ``API[name](**json.loads(payload))`` and return the JSON answer."""
    fn = API.get(name)
    if fn is None:
        return json.dumps({"error": f"unknown call {name!r}"})
    try:
        try:
            args = json.loads(payload or "{}")
        except ValueError:
            raise WebError("the request is not valid JSON") from None
        if not isinstance(args, dict):
            raise WebError("the request is not an object")
        try:
            inspect.signature(fn).bind(**args)
        except TypeError as exc:
            # wrong or missing arguments for the call: the page's mistake, in words
            raise WebError(f"bad request to {name}: {exc}") from None
        return json.dumps({"ok": fn(**args)})
    except ChkobbaError as exc:
        return json.dumps({"error": str(exc)})


class Table:
    """The game on the page: a session and the seats around it."""

    def __init__(self, session: Session, seats: list[dict[str, Any]], coach: bool = False) -> None:
        if len(seats) != session.players:
            raise WebError(f"{len(seats)} seats for a {session.players}-player game")
        self.session = session
        self.seats = seats
        self.coach = coach

    def save(self) -> dict[str, Any]:
        return {"v": SAVE_VERSION, "record": self.session.record(),
                "seed": self.session.seed, "seats": self.seats, "coach": self.coach}


_table: Table | None = None


def _current() -> Table:
    if _table is None:
        raise WebError("no game is being played")
    return _table


def _check_seats(seats: Any, players: int) -> list[dict[str, Any]]:
    if not isinstance(seats, list) or len(seats) != players:
        raise WebError(f"a {players}-player table needs {players} seats")
    out: list[dict[str, Any]] = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise WebError(f"seat {i} is not described")
        kind = seat.get("kind")
        if kind == "human":
            if i != HUMAN_SEAT:
                raise WebError("only the first seat can be yours")
            out.append({"kind": "human"})
        elif kind == "computer":
            level = seat.get("level", "medium")
            if level not in LEVELS:
                raise WebError(f"unknown level {level!r} (easy, medium or hard)")
            out.append({"kind": "computer", "level": level})
        else:
            raise WebError(f"seat {i} must be 'human' or 'computer'")
    if out[HUMAN_SEAT]["kind"] != "human":
        raise WebError("the first seat must be yours")
    return out


# ------------------------------------------------------------------ calls


@_api
def defaults() -> dict[str, Any]:
    """Default table options of each game and the computer levels, so the page
    can check its start form against the engine."""
    from .registry import game_class
    return {"chkobba": game_class("chkobba").options_class()().to_dict(), "levels": list(LEVELS)}


@_api
def start(game: str = "chkobba", options: dict[str, Any] | None = None,
          seats: list[dict[str, Any]] | None = None, seed: int | None = None,
          coach: bool = False) -> dict[str, Any]:
    """Start a new match and return its state. ``coach``: the player may ask
    for hints (off by default)."""
    global _table
    if game != "chkobba":
        raise WebError(f"{game!r} is not available at this table yet")
    opts = dict(options or {})
    players = opts.get("players", 2)
    if players not in (2, 4):
        raise WebError("Chkobba is played by 2 or 4 players")
    if seats is None:
        seats = [{"kind": "human"}] + [{"kind": "computer", "level": "medium"}] * (players - 1)
    checked = _check_seats(seats, players)
    if not isinstance(coach, bool):
        raise WebError("the hints option must be true or false")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**53):
        raise WebError(f"the seed must be a whole number from 0 to 2^53, not {seed!r}")
    session = Session.new(game, opts, seed=seed)
    _table = Table(session, checked, coach)
    return state()


@_api
def resume(save: Any) -> dict[str, Any]:
    """Resume a saved match (the value :func:`state` returned under ``save``)."""
    global _table
    try:
        if not isinstance(save, dict) or save.get("v") != SAVE_VERSION:
            raise WebError("it is not a save of this version")
        record = save["record"]
        seed = save.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise WebError("its seed is not a number")
        coach = save.get("coach", False)
        if not isinstance(coach, bool):
            raise WebError("its hints option is not true or false")
        session = Session.from_record(record, seed=seed)
        table = Table(session, _check_seats(save.get("seats"), session.players), coach)
    except ChkobbaError as exc:
        raise WebError(f"the saved game could not be resumed: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise WebError(f"the saved game could not be resumed: {type(exc).__name__} {exc}") from None
    _table = table
    return state()


@_api
def act(action: str, seat: int) -> dict[str, Any]:
    """Play ``action`` (RECORDS.md text) for ``seat``, which must be the seat
    to act. An illegal action raises with the engine's reason; nothing changes."""
    table = _current()
    to_act = table.session.to_act()
    if to_act is None:
        raise WebError("the game is over")
    if seat != to_act:
        raise WebError("it is not that seat's turn")
    table.session.apply(str(action))
    return state()


@_api
def state() -> dict[str, Any]:
    """What the page needs to draw the table for the human seat, and the save."""
    table = _current()
    s = table.session
    view = s.view(HUMAN_SEAT)
    legal = view.pop("legal")
    to_act = s.to_act()
    words = [{"action": a, "label": WORD_LABELS.get(a, a)} for a in legal if a in WORD_LABELS]
    seat_kind = table.seats[to_act]["kind"] if to_act is not None else None
    return {
        "view": view,
        "seats": table.seats,
        "to_act": to_act,
        "to_act_kind": seat_kind,
        # Non-card decisions only; card plays are never listed (see module doc).
        "words": words if to_act == HUMAN_SEAT else [],
        "claim_window": _claim_window(s, to_act),
        "summary": s.summary(),
        "coach": table.coach,
        "save": table.save(),
    }


def _claim_window(s: Session, to_act: int | None) -> dict[str, Any] | None:
    """Whether the rules let the seat to act claim at all right now: the
    previous seat just laid a card and the table allows claims. Said after
    every lay, so it tells nothing about whether the lay missed a capture."""
    view_opts = s.state.options
    last = s.last_move
    if (to_act is None or not getattr(view_opts, "claims", False) or last is None
            or last.get("kind") != "lay" or last.get("round_ended")
            or getattr(s.state, "phase", None) != "play"
            or last.get("seat") != (to_act - 1) % s.players):
        return None
    if s.state.history() and str(s.state.history()[-1]) != last.get("action"):
        return None
    return {"card": last["card"], "seat": last["seat"]}


# ------------------------------------------------------------ computer seats


@_api
def choose(save: dict[str, Any], seat: int) -> dict[str, Any]:
    """Pick the action of computer ``seat`` in the position of ``save``.

    Runs in the worker: it rebuilds the match from the record (the agent then
    sees only that seat's observation) and returns ``{"action": text}``."""
    session = Session.from_record(save["record"], seed=save.get("seed"))
    if session.to_act() != seat:
        raise WebError("it is not that seat's turn")
    seats = save.get("seats") or []
    level = seats[seat].get("level", "medium") if seat < len(seats) else "medium"
    if level not in LEVELS:
        level = "medium"
    history = session.state.history()
    rng = random.Random(f"{session.seed}/{session.state.round_index}/{len(history)}/{seat}")
    return {"action": _agent_action(session, seat, level, rng), "level": level}


def _agent_action(session: Session, seat: int, level: str, rng: random.Random) -> str:
    # The worker has its own thread, so the whole search runs in one call
    # here; the page's main thread never waits on it.
    from .agents import make_agent
    obs = session.observation(seat)
    agent = make_agent(session.game, level)
    return str(agent.choose(obs, obs.legal_actions(), rng))


@_api
def hint(save: dict[str, Any], seat: int = HUMAN_SEAT) -> dict[str, Any]:
    """The coach: the best few legal actions of the human ``seat`` in the
    position of ``save``, each with a short reason. Runs in the worker, only
    when the player presses Hint, and only at a table with hints on."""
    if not isinstance(save, dict) or save.get("coach") is not True:
        raise WebError("hints are off at this table")
    if seat != HUMAN_SEAT:
        raise WebError("hints are only for your own seat")
    session = Session.from_record(save["record"], seed=save.get("seed"))
    if session.to_act() != seat:
        raise WebError("it is not your turn")
    from .agents import Budget
    from .agents import hint as coach
    history = session.state.history()
    rng = random.Random(f"hint/{session.seed}/{session.state.round_index}/{len(history)}")
    ranking = coach(session.observation(seat), rng, Budget(rollouts=HINT_ROLLOUTS, ms=HINT_MS))
    out: list[dict[str, Any]] = []
    for item in ranking["actions"][:HINT_TOP]:
        action = str(item["action"])
        out.append({"action": action, "rank": item.get("rank", len(out) + 1),
                    "label": WORD_LABELS.get(action, action),
                    "reason": str(item.get("reason") or "")})
    return {"actions": out}


@_api
def ping() -> dict[str, Any]:
    import sys
    return {"python": sys.version.split()[0]}
