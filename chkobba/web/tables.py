"""The game tables' calls: describe the games, start, resume, act, reveal
(pass-and-play), state, and the computer seats' ``choose`` and the coach's
``hint`` (both run in the page's interpreter, from a save, in slices:
web/shell/py.js ``think``).

A table's state answer is :func:`chkobba.web.answer.answer` for its human
seat, with the save; ``act`` plays on a copy of the session, so a move that
fails halfway changes nothing.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Mapping
from typing import TypedDict

from .. import messages as M
from ..actions import TIMEOUT
from ..agents import Budget, make_agent
from ..agents import hint as coach_hint
from ..daily import GAMES as DAILY_GAMES
from ..options import check as check_options
from ..options import describe as describe_options
from ..registry import GAMES, PLAYERS, Facts
from ..registry import game as registered
from ..protocol import JSONDict
from ..session import Session
from .answer import Reader, answer
from .modes import check_daily_act, status, timers_status
from .edge import (DEFAULT_LEVEL, LEVELS, PLAYABLE, SEAT_KINDS, Args, Seat, WebError, action, api, flag,
                   game_name, kind, quote, seat_index, seats, seed, table_id)
from .saves import (SAVE_VERSION, SAVE_VERSIONS, STORE, Table, challenge_of, check_replays, clock_off_of, daily_of,
                    load, save_object, takebacks_of)

HUMAN_SEAT = 0
HINT_TOP = 3
# Small on purpose: a hint answers in well under a second in the browser.
HINT_ROLLOUTS = 150
HINT_MS = 400
#: Each registered game's English title, by name.
GAME_NAMES: Mapping[str, str] = Facts(lambda g: g.title)
WORD_LABELS = {w: M.MESSAGES[f"word.{w}"] for w in ("keep", "table", "propose", "pass", "accept", "refuse")}


class GameFacts(TypedDict):
    """One game in ``describe``: its name, seats and options, and what the
    page shows of it besides its table: whether it has a daily deal, whether
    its statistics count chkobbas (sweeps), and its online turn timers."""

    game: str
    name: str
    available: bool
    players: list[int]
    options: list[JSONDict]
    daily: bool
    sweeps: bool
    timers: list[int]


class Described(TypedDict):
    """``describe``: the games, the levels, the seat kinds, the save versions."""

    games: list[GameFacts]
    levels: list[str]
    default_level: str
    seat_kinds: list[str]
    save_version: int
    save_versions: list[int]


class Choice(TypedDict):
    """``choose``: a computer's action and its level."""

    action: str
    level: str


class Reason(TypedDict):
    """A coach reason as a message."""

    code: str
    params: dict[str, object]


class HintLine(TypedDict):
    """One of the coach's best actions."""

    action: str
    rank: object
    label: str
    label_code: str | None
    reason: str
    code: str
    params: dict[str, object]


class Hints(TypedDict):
    actions: list[HintLine]


def state_of(table: Table) -> dict[str, object]:
    """What the page draws for the table's human seat, and the save."""
    humans = table.humans
    # the result is worded for the player holding the device (the only one at one-human tables)
    reader = Reader(seat=table.viewer, speaks_to=table.viewer, hidden=table.hidden)
    out = answer(table.session, reader, table.seats, table=table.id, humans=humans, coach=table.coach,
                 save=table.save())
    out["takeback"] = status(table)
    out["timers"] = timers_status(table)
    return out


def _table(args: Args) -> Table:
    tid = table_id(args)
    table = STORE.tables.get(tid)
    if table is None:
        raise WebError("web.no_table", table=quote(tid))
    return table


@api(optional=("game",))
def _describe(args: Args) -> Described:
    """The games, their options and allowed values, levels, seat kinds."""
    table_id(args)
    games = [game_name(args["game"])] if "game" in args else list(GAMES)
    out: list[GameFacts] = []
    for g in games:
        facts = registered(g)
        out.append({"game": g, "name": GAME_NAMES[g], "available": g in PLAYABLE,
                    "players": list(PLAYERS[g]), "options": describe_options(g),
                    "daily": g in DAILY_GAMES, "sweeps": facts.counts_sweeps,
                    "timers": list(facts.online_timers)})
    return {"games": out, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
            "seat_kinds": list(SEAT_KINDS), "save_version": SAVE_VERSION, "save_versions": list(SAVE_VERSIONS)}


@api()
def _messages(args: Args) -> dict[str, dict[str, str]]:
    """Every message code and its English template."""
    table_id(args)
    return {"messages": dict(M.MESSAGES)}


@api(optional=("game", "options", "seats", "seed", "coach"))
def _start(args: Args) -> dict[str, object]:
    """Start a new match at a table and return its state."""
    tid = table_id(args)
    game = game_name(args.get("game", "chkobba"))
    options = args.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise WebError("web.options", kind=kind(options))
    opts = check_options(game, options)   # InvalidOptions in words
    players = int(opts.to_dict()["players"])
    seat_list = args.get("seats")
    if seat_list is None:
        seat_list = [{"kind": "human"}] + [{"kind": "computer", "level": DEFAULT_LEVEL} for _ in range(players - 1)]
    checked = seats(seat_list, players)
    session = Session.new(game, opts.to_dict(), seed=seed(args.get("seed")))
    coach = flag(args.get("coach", False))
    check_replays(session)
    table = Table.seated(tid, session, checked, coach)
    out = state_of(table)
    STORE.tables.put(tid, table)
    return out


@api("save")
def _resume(args: Args) -> dict[str, object]:
    """Resume a save (v1 of the v0.1 site or v2) at a table."""
    tid = table_id(args)
    save = save_object(args["save"])
    session, seat_list, coach = load(save, again=True)
    table = Table.seated(tid, session, seat_list, coach)
    table.takebacks = takebacks_of(save)
    table.daily = daily_of(save)
    table.clock_off = clock_off_of(save)
    table.challenge = challenge_of(save)
    out = state_of(table)
    STORE.tables.put(tid, table)
    return out


@api("action", "seat")
def _act(args: Args) -> dict[str, object]:
    """Play an action (RECORDS.md text) for the seat to act."""
    table = _table(args)
    s = table.session
    text = action(args["action"])
    seat = seat_index(args["seat"], s.players)
    to_act = s.to_act()
    if to_act is None:
        raise WebError("web.game_over")
    if seat != to_act:
        raise WebError("web.not_turn", seat=seat, to_act=to_act)
    if table.seats[seat].human and (table.hidden or seat != table.viewer):
        # a person plays only once the device is theirs (hand_off, then reveal)
        raise WebError("web.hidden", seat=seat)
    if table.daily is not None:
        check_daily_act(table)
    if table.clock_off and text == TIMEOUT:
        raise WebError("web.timers.off")   # timers turned off during the match (chkobba/web/clock.py)
    fork = s.copy()
    decks = fork.decks_dealt
    fork.apply(text)                    # ChkobbaError in words; nothing changed
    if fork.decks_dealt != decks:       # a new deal: the save must still replay
        check_replays(fork)
    viewer, hidden = table.viewer, table.hidden
    after = fork.to_act()
    ended = len(fork.state.results) > len(s.state.results)
    if after is not None and after in table.humans and after != viewer and not ended:
        viewer, hidden = after, True      # pass the device: hide the hand until the player taps
    # A move that ends a round keeps the mover's view: the round's end and its
    # summary are read by the player holding the device, from their seat; the
    # page hands off (``hand_off``) once the summary is closed.
    out = state_of(dataclasses.replace(table, session=fork, viewer=viewer, hidden=hidden))
    table.session = fork
    table.viewer, table.hidden = viewer, hidden
    return out


@api()
def _reveal(args: Args) -> dict[str, object]:
    """Pass-and-play: the player the device was handed to tapped; show their view."""
    table = _table(args)
    table.hidden = False
    return state_of(table)


@api()
def _hand_off(args: Args) -> dict[str, object]:
    """Pass-and-play, after a round's summary: when a person other than the
    one holding the device is to act, hand the device to them (their view
    hidden until they tap, ``reveal``); otherwise the state as it is."""
    table = _table(args)
    to_act = table.session.to_act()
    if to_act is not None and to_act in table.humans and to_act != table.viewer:
        table.viewer, table.hidden = to_act, True
    return state_of(table)


@api(name="state")
def _state_call(args: Args) -> dict[str, object]:
    """The state of a table."""
    return state_of(_table(args))


# ------------------------------------------------------------ computer seats

def computer_to_act(value: object, session: Session, seat_list: list[Seat]) -> tuple[int, str]:
    """The seat a computer's ``choose`` call names and its level, checked: a
    seat of the table, a computer's, and the one to act (``web.seat_index``,
    ``web.not_computer``, ``web.game_over``, ``web.not_turn``)."""
    seat = seat_index(value, session.players)
    level = seat_list[seat].level
    if level is None:
        raise WebError("web.not_computer", seat=seat)
    to_act = session.to_act()
    if to_act is None:
        raise WebError("web.game_over")
    if to_act != seat:
        raise WebError("web.not_turn", seat=seat, to_act=to_act)
    return seat, level


@api("save", "seat")
def _choose(args: Args) -> Choice:
    """The action of computer ``seat`` in the position of ``save``."""
    table_id(args)
    session, seat_list, _ = load(args["save"])
    seat, level = computer_to_act(args["seat"], session, seat_list)
    history = session.state.history()
    rng = random.Random(f"{session.seed}/{session.state.round_index}/{len(history)}/{seat}")
    obs = session.observation(seat)
    agent = make_agent(session.game, level)
    return {"action": str(agent.choose(obs, obs.legal_actions(), rng)), "level": level}


def reason_message(item: Mapping[str, object]) -> Reason:
    """A coach reason as a message (code and params), so a page words it in
    its own language; English reasons without a code are wrapped as text."""
    code, params = item.get("code"), item.get("params")
    if isinstance(code, str) and code in M.MESSAGES and isinstance(params, dict):
        return {"code": code, "params": dict(params)}
    return {"code": "web.hint.reason", "params": {"reason": str(item.get("reason") or "")}}


@api("save", optional=("seat",))
def _hint(args: Args) -> Hints:
    """The coach: the best few legal actions of the human seat, with reasons."""
    table_id(args)
    session, seat_list, coach = load(args["save"])
    seat = seat_index(args.get("seat", HUMAN_SEAT), session.players)
    if not coach:
        raise WebError("web.hints_off")
    if not seat_list[seat].human:
        raise WebError("web.hints_own_seat")
    if session.to_act() != seat:
        raise WebError("web.not_your_turn")
    history = session.state.history()
    rng = random.Random(f"hint/{session.seed}/{session.state.round_index}/{len(history)}")
    ranking = coach_hint(session.observation(seat), rng, Budget(rollouts=HINT_ROLLOUTS, ms=HINT_MS))
    out: list[HintLine] = []
    for item in ranking["actions"][:HINT_TOP]:
        text = str(item["action"])
        said = reason_message(item)
        out.append({"action": text, "rank": item.get("rank", len(out) + 1),
                    "label": WORD_LABELS.get(text, text),
                    "label_code": f"word.{text}" if text in WORD_LABELS else None,
                    "reason": str(item.get("reason") or ""), "code": said["code"], "params": said["params"]})
    return {"actions": out}


def choose(save: object, seat: int) -> Choice:
    """``choose`` for Python callers (tests, tools): raises WebError in words."""
    return _choose({"save": save, "seat": seat})


def hint(save: object, seat: int = HUMAN_SEAT) -> Hints:
    """``hint`` for Python callers: raises WebError in words."""
    return _hint({"save": save, "seat": seat})


@api()
def _defaults(args: Args) -> dict[str, object]:
    """Superseded by ``describe``; kept for the v0.1 page."""
    table_id(args)
    return defaults()


def defaults() -> dict[str, object]:
    """Default table options of each playable game and the computer levels."""
    return {"chkobba": registered("chkobba").options_class().from_dict(None).to_dict(), "levels": list(LEVELS)}


@api()
def _ping(args: Args) -> dict[str, str]:
    table_id(args)
    return {"python": sys.version.split()[0]}


__all__ = ["state_of", "choose", "hint", "defaults", "reason_message", "Seat", "HUMAN_SEAT"]
