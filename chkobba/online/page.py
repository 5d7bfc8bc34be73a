"""The online page's edge: what ``web/online/*.js`` asks of its Python.

The page calls :func:`call` with a call name and a JSON payload text and gets
JSON text back, ``{"ok": value}`` or ``{"error": text, "code": code,
"params": {...}}``, checked and worded as the table's facade
(:mod:`chkobba.web.edge`: the same payload reader, the same refusals). It
never raises, and a call that fails changes nothing.

One page plays one role: the host's calls (``host_*``) keep one
:class:`~chkobba.online.host.HostTable`, the friend's (``guest_*``) one
:class:`~chkobba.online.guest.Guest`. No browser import: the host's clock is
the ``now`` (seconds, the page's ``performance.now() / 1000``) each host call
carries, so the same calls run under CPython (tests/test_online_page.py).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from typing import Any

from ..errors import ChkobbaError
from ..records import RecordDict
from ..web import edge
from ..web.edge import WebError, show
from . import wire
from .guest import Guest
from .host import COMPUTER, HOST, REMOTE, HostTable, SeatSpec

Args = dict[str, Any]
MAX_PEER = 2**31        # the page numbers its connections from 1
MAX_THINK_MS = 1000     # one slice of the computer's thinking, at most
MAX_TEXT = 1_000_000    # characters of a peer's message (wire.py refuses long ones itself)
TABLE = "online"        # the name a refusal gives this page's table


class Page:
    """One page's Python: its table (the host's) or its guest (a friend's),
    and the host's clock. :meth:`call` is its edge."""

    def __init__(self) -> None:
        self.table: HostTable | None = None
        self.guest: Guest | None = None
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def call(self, name: Any, payload: Any = "{}") -> str:
        """Answer one call from the online page as JSON text; never raises."""
        try:
            try:
                answer = _answer(self, name, payload)
            except ChkobbaError as exc:   # the table's refusals and the edge's own
                answer = edge.error_answer(exc)
            return json.dumps(answer, allow_nan=False)
        except Exception:  # noqa: BLE001 - the page gets words, never a traceback
            return json.dumps({"error": edge.WEB_MESSAGES["web.internal"], "code": "web.internal", "params": {}})


# ------------------------------------------------------------------ field checks

def _table(page: Page) -> HostTable:
    if page.table is None:
        raise WebError("web.no_table", table=TABLE)
    return page.table


def _guest(page: Page) -> Guest:
    if page.guest is None:
        raise WebError("web.no_table", table=TABLE)
    return page.guest


def _whole(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise WebError("web.seat_index", last=high, value=show(value))
    return value


def _seat(value: Any) -> int:
    return _whole(value, 0, 3)


def _peer(value: Any) -> int:
    return _whole(value, 1, MAX_PEER)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise WebError("web.payload_type", kind=edge.kind(value))
    if len(value) > MAX_TEXT:
        raise WebError("web.payload_size", size=len(value), limit=MAX_TEXT)
    return value


def _object(value: Any, code: str = "web.options") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise WebError(code, kind=edge.kind(value))
    return value


def _now(page: Page, args: Args) -> None:
    """The host's clock moves on to the call's ``now`` (never back)."""
    if "now" in args:
        now = args["now"]
        if isinstance(now, bool) or not isinstance(now, (int, float)) or not 0 <= now <= edge.SEED_LIMIT:
            raise WebError("web.stats.at", value=show(now))
        page.now = max(page.now, float(now))


def _seats(value: Any, players: int) -> list[SeatSpec]:
    if not isinstance(value, list):
        raise WebError("web.seats", players=players, kind=edge.kind(value))
    if len(value) != players:
        raise WebError("web.seats_count", players=players, count=len(value))
    out: list[SeatSpec] = []
    for i, seat in enumerate(value):
        if not (isinstance(seat, list) and len(seat) == 2 and all(isinstance(x, str) for x in seat)):
            raise WebError("web.seat", seat=i, kind=edge.kind(seat))
        kind, level = seat
        if kind not in (HOST, REMOTE, COMPUTER):
            raise WebError("web.seat_kind", seat=i, value=show(kind))
        if level not in edge.LEVELS:
            raise WebError("web.seat_level", seat=i, value=show(level))
        out.append(SeatSpec(kind, level))
    if [s.kind for s in out].count(HOST) != 1:
        raise WebError("web.human_first")
    return out


def _timers(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2
            and all(not isinstance(x, bool) and isinstance(x, (int, float)) and 0 < x <= 600 for x in value)):
        raise WebError("web.options", kind=edge.kind(value))
    return float(value[0]), float(value[1])


# ------------------------------------------------------------------ the host's calls

Handler = Callable[["Page", Args], Any]
CALLS: dict[str, tuple[Handler, tuple[str, ...], tuple[str, ...]]] = {}


def _call(*required: str, optional: tuple[str, ...] = ()) -> Callable[[Handler], Handler]:
    def wrap(fn: Handler) -> Handler:
        host = fn.__name__.startswith("host_")
        CALLS[fn.__name__] = (fn, required, optional + (("now",) if host else ()))
        return fn
    return wrap


@_call("game", "options", "seats", optional=("timers", "name"))
def host_new(page: Page, args: Args) -> None:
    """A new table: the game, its options, each seat ``[kind, level]``, the
    timers, the host's own name (checked as a friend's: wire.check_name)."""
    from ..registry import game_class
    game = edge.game_name(args["game"])
    options = _object(args["options"])
    players = game_class(game).options_class().from_dict(options).players
    seats = _seats(args["seats"], players)
    name = wire.check_name(args.get("name", ""), "host_new")
    seats = [SeatSpec(s.kind, s.level, name) if s.kind == HOST else s for s in seats]
    table = HostTable(game, options, seats, page.clock,
                      timers=_timers(args.get("timers")), sliced=True)
    page.table, page.guest = table, None


@_call("save")
def host_resume(page: Page, args: Args) -> None:
    """The table of a save (a reload of the host's page)."""
    save = _object(args["save"], "web.save.type")
    try:
        table = HostTable.resume(save, page.clock, sliced=True)
    except ChkobbaError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise WebError("web.save", reason=edge.quote(f"{type(e).__name__}: {e}", 80)) from None
    page.table, page.guest = table, None


@_call("peer", optional=("seat",))
def host_connect(page: Page, args: Args) -> None:
    """A friend's connection opened: the invitation's seat is the only one it may take
    (without a seat, any friend's seat: the test bench, web/online/test.js)."""
    seat = args.get("seat")
    _table(page).connect(_peer(args["peer"]), None if seat is None else _seat(seat))


@_call()
def host_version(page: Page, args: Args) -> int:
    """Grows only when a message (or time) changed the table."""
    return _table(page).version


@_call("seat")
def host_reissue(page: Page, args: Args) -> list[Any]:
    t = _table(page)
    return t.reissue(_seat(args["seat"])) + t.tick()


@_call("peer", "text")
def host_receive(page: Page, args: Args) -> list[Any]:
    """One message from a friend's connection; once every friend sits, round 1's seeds are asked."""
    t = _table(page)
    out = t.receive(_peer(args["peer"]), _text(args["text"]))
    if not t.started and all(s.peer is not None for s in t.seats if s.spec.kind == REMOTE):
        out += t.start()
    return out + t.tick()


@_call()
def host_start(page: Page, args: Args) -> list[Any]:
    t = _table(page)
    return t.start() + t.tick()


@_call("peer")
def host_disconnect(page: Page, args: Args) -> list[Any]:
    t = _table(page)
    return t.disconnect(_peer(args["peer"])) + t.tick()


@_call()
def host_tick(page: Page, args: Args) -> list[Any]:
    return _table(page).tick()


@_call()
def host_tidy(page: Page, args: Args) -> None:
    """What the last decision left, collected before the next one (as web/ai.py's
    tidy): a collection would otherwise land in the middle of a slice."""
    gc.collect()
    gc.freeze()


@_call("ms")
def host_think(page: Page, args: Args) -> bool | None:
    ms = args["ms"]
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0 < ms <= MAX_THINK_MS:
        raise WebError("web.options", kind=edge.kind(ms))
    return _table(page).think(float(ms))


@_call()
def host_computer_turn(page: Page, args: Args) -> int | None:
    return _table(page).computer_turn()


@_call()
def host_computer_move(page: Page, args: Args) -> list[Any]:
    return _table(page).computer_move()


@_call("action")
def host_act(page: Page, args: Args) -> list[Any]:
    t = _table(page)
    return t.host_act(edge.action(args["action"])) + t.tick()


@_call("reaction")
def host_react(page: Page, args: Args) -> list[Any]:
    return _table(page).host_react(_text(args["reaction"]))


@_call()
def host_rematch(page: Page, args: Args) -> list[Any]:
    t = _table(page)
    return t.rematch() + t.tick()


@_call()
def host_state(page: Page, args: Args) -> dict[str, Any]:
    """What the host's page draws: its seat's answer, the presence, its legal moves, the clock, the reactions."""
    t = _table(page)
    s = t.session
    legal = s.legal() if s is not None and not s.is_over and s.to_act() == t.host_seat else []
    left = t.time_left()
    return {"answer": t.host_view(), "presence": t.presence(), "started": t.started, "legal": legal,
            "position": list(t.position()), "seat": t.host_seat,
            "time_left": None if left is None else int(left + 0.999),
            "over": t.over, "match": t.match,
            "reactions": [[n, seat, r] for n, (_, seat, r) in enumerate(t.reactions, t.reacted - len(t.reactions))]}


@_call()
def host_save(page: Page, args: Args) -> dict[str, Any]:
    return _table(page).save()


@_call()
def host_record(page: Page, args: Args) -> str | None:
    """The match's record as its JSON text, or None before the first deal."""
    s = _table(page).session
    return s.record_json() if s is not None else None


# ------------------------------------------------------------------ both: statistics, replay links

def _stats_in(value: Any) -> Any:
    from .. import stats
    return stats.empty() if value is None else stats.from_file(value)


def _at(value: Any) -> int:
    from .. import stats
    if type(value) is not int or not 0 <= value <= stats.MAX_AT:
        raise WebError("web.stats.at", value=show(value))
    return value


def _counted(record: RecordDict | None, seat: int, args: Args) -> dict[str, Any] | None:
    """This phone's statistics (the stored file object, or None: none yet)
    with the finished match of ``record`` added from ``seat``'s side:
    ``{stats, added}`` (``added`` false: it was counted already); None when
    there is no finished match to count."""
    from .. import stats
    if record is None:
        return None
    kept = _stats_in(args.get("stats"))
    try:
        new = stats.add_online(kept, record, seat, _at(args["at"]))
    except ChkobbaError as e:
        if e.code == "stats.not_over":
            return None
        raise
    return {"stats": stats.to_file(new), "added": new is not kept}


def _round_link(record: RecordDict | None, number: object) -> str:
    """The replay link of round ``number`` of ``record`` (its finished rounds
    only: nothing dealt after them), with every hand shown; a round not over,
    or one this phone cannot show (not audited here): ``online.audit_round``."""
    from .. import links
    from ..records import parse_record, replay
    n = _whole(number, 1, 10**6)
    if record is None or n > len(record["rounds"]):
        raise wire.OnlineError("online.audit_round", round=n)
    rec = parse_record({**record, "rounds": record["rounds"][:n]})
    if not replay(rec).round_over():
        raise wire.OnlineError("online.audit_round", round=n)
    return links.encode(links.Link(rec, (n, 0), "replay", None, False))


def _host_record(t: HostTable) -> RecordDict | None:
    s = t.session
    return None if s is None else s.record()


@_call("at", optional=("stats",))
def host_stats(page: Page, args: Args) -> dict[str, Any] | None:
    """The host's finished match added to its phone's statistics, from its
    seat's side (level ``online``); None while the match goes on."""
    t = _table(page)
    if t.session is None or not t.session.is_over:
        return None
    return _counted(_host_record(t), t.host_seat, args)


@_call("round")
def host_replay(page: Page, args: Args) -> str:
    """The replay link of a finished round, cut there: never the next round's deck."""
    t = _table(page)
    return _round_link(_host_record(t), args["round"])


@_call("at", optional=("stats",))
def guest_stats(page: Page, args: Args) -> dict[str, Any] | None:
    """The friend's finished match added to its phone's statistics, from its
    seat's side: only a match whose every round this phone audited and none
    failed, and once (the match is kept as counted in the guest's save).
    None when there is nothing to count."""
    guest = _guest(page)
    if guest.counted == guest.match:
        return None
    answer = _counted(guest.record(), guest.seat, args)
    if answer is not None:
        guest.counted = guest.match
    return answer


@_call("round")
def guest_replay(page: Page, args: Args) -> str:
    """The replay link of a round this phone audited (and every round before it)."""
    guest = _guest(page)
    return _round_link(guest.record(_whole(args["round"], 1, 10**6)), args["round"])


# ------------------------------------------------------------------ the friend's calls

@_call("seat", optional=("saved",))
def guest_sit(page: Page, args: Args) -> None:
    """The friend's phone sits at its invitation's seat, with the secret and seeds it kept."""
    seat = _seat(args["seat"])
    saved = args.get("saved")
    if saved is None:
        guest = Guest(seat)
    else:
        try:
            guest = Guest.resume(_object(saved, "web.save.type"))
        except ChkobbaError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise WebError("web.save", reason=edge.quote(f"{type(e).__name__}: {e}", 80)) from None
    page.guest, page.table = guest, None


@_call(optional=("name",))
def guest_join(page: Page, args: Args) -> str:
    """The join message, with the player's name (refused here as the host would refuse it)."""
    return _guest(page).join(args.get("name", ""))


@_call("action")
def guest_act(page: Page, args: Args) -> str:
    return _guest(page).act(edge.action(args["action"]))


@_call("reaction")
def guest_react(page: Page, args: Args) -> str:
    return _guest(page).react(_text(args["reaction"]))


@_call("message")
def guest_receive(page: Page, args: Args) -> list[str]:
    """One message from the host (its JSON object); the texts to send back."""
    return _guest(page).receive(_object(args["message"], "web.payload_object"))


@_call()
def guest_save(page: Page, args: Args) -> dict[str, Any]:
    return _guest(page).save()


@_call()
def guest_status(page: Page, args: Args) -> dict[str, Any]:
    """What the friend's page shows (:meth:`Guest.status`), and the codes of the refusals it got."""
    guest = _guest(page)
    return {**guest.status(), "errors": [e.get("code") for e in guest.errors]}


@_call()
def guest_leave(page: Page, args: Args) -> str:
    """The message that says this phone leaves the table (its audit failed)."""
    _guest(page)
    return wire.encode(wire.Leave())


# ------------------------------------------------------------------ the edge

def _answer(page: Page, name: Any, payload: Any) -> dict[str, Any]:
    if not isinstance(name, str):
        raise WebError("web.call_name", kind=edge.kind(name))
    spec = CALLS.get(name)
    if spec is None:
        raise WebError("web.unknown_call", name=edge.quote(name), known=", ".join(sorted(CALLS)))
    fn, required, optional = spec
    args = edge.parse(payload)
    known = required + optional
    for key in args:
        if key not in known:
            raise WebError("web.unknown_field", call=name, field=edge.quote(key), known=", ".join(known) or "none")
    for key in required:
        if key not in args:
            raise WebError("web.missing_field", call=name, field=key)
    _now(page, args)
    return {"ok": fn(page, args)}


PAGE = Page()   # the browser page's own (one page, one role)
call = PAGE.call
