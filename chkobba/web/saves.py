"""Saves: what resumes a game table (format v2; v1 of the v0.1 site is read
too), checked as strictly as any outside input, and the one table store.

The store (:data:`STORE`) is the facade's only module-level mutable state:
the game tables, the open embeds and the open lessons, each kept by id, at
most :attr:`Store.limit` of each (the least recently used is dropped), and
the last few replayed saves (:meth:`Store.replayed`): a computer's
``choose``, the coach's ``hint`` or ``share`` pass the save the table just
wrote, and finding its session there spares replaying the whole match on
every call (a copy is handed out; the checks of the save still run).
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from ..errors import ChkobbaError
from ..messages import Param
from ..session import Session
from .edge import Seat, WebError, as_message, flag, kind, quote, seats, seed, show

if TYPE_CHECKING:  # types only: those modules use the store
    from ..links.lessons import Lesson
    from .embeds import Embed

SAVE_VERSION = 2
SAVE_VERSIONS = (1, 2)
SAVE_KEYS = {1: ("v", "record", "seed", "seats", "coach"),
             2: ("v", "game", "record", "seed", "seats", "coach", "takebacks", "daily", "clock_off", "challenge")}
MAX_TAKEBACKS = 1_000_000   # take-backs counted in one save (chkobba/web/takebacks.py)
MAX_TABLES = 32
MAX_REPLAYED = 4   # replayed saves kept (Store.replayed)


# ------------------------------------------------------------------- tables

@dataclass
class Table:
    """One game on the page: a session, who sits where, and (pass-and-play)
    the human seat whose view the page shows and whether that view is
    hidden until the player taps (``reveal``)."""

    id: str
    session: Session
    seats: list[Seat]
    coach: bool = False
    viewer: int = 0
    hidden: bool = False
    takebacks: int = 0      # take-backs made in this game (chkobba/web/takebacks.py)
    daily: str | None = None  # the date of a daily deal's table (chkobba/web/daily.py)
    clock_off: bool = False   # timers turned off after a timeout was played (chkobba/web/clock.py)
    challenge: str | None = None  # the challenge link a challenge's table plays (chkobba/web/challenge.py)

    @classmethod
    def seated(cls, tid: str, session: Session, seat_list: list[Seat], coach: bool = False) -> "Table":
        """A table as it opens: the view of the human seat to act (else the
        first human's), hidden when several people share the device."""
        humans = [i for i, x in enumerate(seat_list) if x.human]
        to_act = session.to_act()
        viewer = to_act if to_act is not None and to_act in humans else humans[0]
        return cls(tid, session, seat_list, coach, viewer, len(humans) > 1)

    @property
    def humans(self) -> list[int]:
        return [i for i, x in enumerate(self.seats) if x.human]

    def save(self) -> dict[str, object]:
        """Format v2: what resumes this game (the table id is not in it)."""
        out: dict[str, object] = {"v": SAVE_VERSION, "game": self.session.game, "record": self.session.record_data(),
                               "seed": self.session.seed, "seats": [s.to_json() for s in self.seats], "coach": self.coach}
        if self.takebacks:
            out["takebacks"] = self.takebacks
        if self.daily is not None:
            out["daily"] = self.daily
        if self.clock_off:
            out["clock_off"] = True
        if self.challenge is not None:
            out["challenge"] = self.challenge
        STORE.keep_replayed(out["record"], self.session.seed, self.session)
        return out


T = TypeVar("T")


@dataclass
class Shelf(Generic[T]):
    """Things kept by id, the least recently used dropped past the store's limit."""

    store: "Store"
    items: "OrderedDict[str, T]" = field(default_factory=OrderedDict)

    def get(self, key: str) -> T | None:
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
        return item

    def put(self, key: str, item: T) -> None:
        self.items[key] = item
        self.items.move_to_end(key)
        while len(self.items) > self.store.limit:
            self.items.popitem(last=False)


class Store:
    """The one table store: game tables, open embeds, open lessons."""

    def __init__(self, limit: int = MAX_TABLES) -> None:
        self.limit = limit
        self.tables: Shelf[Table] = Shelf(self)
        self.embeds: Shelf["Embed"] = Shelf(self)
        self.lessons: Shelf["Lesson"] = Shelf(self)
        self._replayed: "OrderedDict[str, Session]" = OrderedDict()

    @staticmethod
    def _replay_key(record: object, seed_value: int | None) -> str | None:
        """The record in one canonical text (and the seed), or None when it is
        not plain JSON (such a record is replayed, and refused, as before)."""
        try:
            text = json.dumps(record, sort_keys=True, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            return None
        return f"{seed_value}|{text}"

    def replayed(self, record: object, seed_value: int | None) -> Session | None:
        """A copy of the session a save with this record and seed replays to,
        if one of the last few; None otherwise."""
        key = self._replay_key(record, seed_value)
        if key is None or key not in self._replayed:
            return None
        self._replayed.move_to_end(key)
        return self._replayed[key].copy()

    def keep_replayed(self, record: object, seed_value: int | None, session: Session) -> None:
        """Remember that this record and seed replay to ``session`` (a copy is kept)."""
        key = self._replay_key(record, seed_value)
        if key is None:
            return
        self._replayed[key] = session.copy()
        self._replayed.move_to_end(key)
        while len(self._replayed) > MAX_REPLAYED:
            self._replayed.popitem(last=False)


STORE = Store()


#: What else a fresh page forgets (chkobba/web/daily.py: the computers'
#: decisions remembered and the re-derivations in progress).
ON_RESET: list[Callable[[], object]] = []


def reset_tables() -> None:
    """Close every game table, embed and lesson (a fresh page; tests)."""
    for forget in ON_RESET:
        forget()
    STORE.tables.items.clear()
    STORE.embeds.items.clear()
    STORE.lessons.items.clear()
    STORE._replayed.clear()


def table_ids() -> list[str]:
    """The ids of the open game tables, the least recently used first."""
    return list(STORE.tables.items)


def table_session(tid: str) -> Session:
    """The session played at an open game table (KeyError if none)."""
    return STORE.tables.items[tid].session


def close_table(tid: str) -> None:
    """Close a game table if it is open."""
    STORE.tables.items.pop(tid, None)


def allow_tables(count: int) -> None:
    """Keep at least ``count`` of each (a page whose embeds share one Python)."""
    STORE.limit = max(STORE.limit, int(count))


# -------------------------------------------------------------------- saves

def _save_error(code: str, /, **params: Param) -> WebError:
    """``web.save`` with its reason, a ``web.save.*`` message."""
    return WebError("web.save", reason={"code": code, "params": params})


def save_object(save: object) -> dict[str, object]:
    """A save as an object (``web.save.type`` for anything else)."""
    if not isinstance(save, dict):
        raise _save_error("web.save.type", kind=kind(save))
    return save


def load(value: object, again: bool = False) -> tuple[Session, list[Seat], bool]:
    """Check a save (v1 of the v0.1 site, or v2) and replay it: the session,
    its seats and its hints setting. Raises WebError("web.save") in words.
    ``again``: also check that a deck the resumed game dealt replays (for a
    game that goes on and will be saved; ``choose`` and ``hint`` save nothing)."""
    save = save_object(value)
    version = save.get("v")
    if type(version) is not int or version not in SAVE_VERSIONS:
        raise _save_error("web.save.version", value=show(version))
    for key in save:
        if key not in SAVE_KEYS[version]:
            raise _save_error("web.save.unknown_key", key=quote(str(key)))
    if "record" not in save:
        raise _save_error("web.save.missing_key", key="record")
    if "seats" not in save:
        raise _save_error("web.save.missing_key", key="seats")
    record = save["record"]
    if not isinstance(record, dict):
        raise _save_error("web.save.record", kind=kind(record))
    game = record.get("game")
    if "game" in save and save["game"] != game:
        raise _save_error("web.save.game", value=show(save["game"]))
    try:
        seed_value = seed(save.get("seed"), "web.save.seed")
        coach = flag(save.get("coach", False), "web.save.coach")
        takebacks_of(save)
        daily_of(save, game, seed_value)
        clock_off_of(save)
    except WebError as exc:
        raise _save_error(exc.code, **exc.params) from None
    session = STORE.replayed(record, seed_value)
    if session is None:
        try:
            session = Session.from_record(record, seed=seed_value)
        except ChkobbaError as exc:
            raise _save_error("web.save.replay", reason=as_message(exc)) from None
        STORE.keep_replayed(record, seed_value, session)
    try:
        seat_list = seats(save["seats"], session.players)
    except WebError as exc:
        raise _save_error("web.save.seats", reason=as_message(exc)) from None
    try:
        challenge_of(save, session, seat_list)
    except WebError as exc:
        raise _save_error(exc.code, **exc.params) from None
    if again:
        try:
            check_replays(session)
        except WebError as exc:
            raise _save_error("web.save.replay", reason=exc.params["reason"]) from None
    return session, seat_list, coach


def takebacks_of(save: Mapping[str, object]) -> int:
    """How many take-backs a save's game had (0 when it says nothing)."""
    value = save.get("takebacks", 0)
    if type(value) is not int or not 0 <= value <= MAX_TAKEBACKS:
        raise WebError("web.save.takebacks", value=show(value), limit=MAX_TAKEBACKS)
    return value


def clock_off_of(save: Mapping[str, object]) -> bool:
    """Whether a save's timers were turned off after a timeout was played
    (chkobba/web/clock.py); false when it says nothing."""
    return flag(save.get("clock_off", False), "web.save.clock_off")


def daily_of(save: Mapping[str, object], game: object = None, seed_value: int | None = None) -> str | None:
    """The date of a daily deal's save (None for any other game): a date
    whose deal is the record's game and seed (``web.save.daily`` otherwise),
    and not after today (``daily.future``, ``daily.before``)."""
    from .. import daily   # the daily deal's rules (chkobba/daily.py)
    value = save.get("daily")
    if value is None:
        return None
    try:
        deal = daily.daily(value, game if isinstance(game, str) else save.get("game", ""))
    except ChkobbaError:
        raise WebError("web.save.daily", value=show(value)) from None
    if seed_value is not None and seed_value != deal.seed:
        raise WebError("web.save.daily", value=show(value))
    try:   # a deal dated after today (the facade's clock) never opens, not even from a save
        daily.playable(deal.date, daily.tunis_date(int(time.time())))
    except ChkobbaError as exc:
        raise WebError(exc.code, **exc.params) from None
    return deal.date


def challenge_of(save: Mapping[str, object], session: Session | None = None, seat_list: list[Seat] | None = None) -> str | None:
    """The challenge link of a challenge's save (None for any other game): a
    link that reads, whose game, options, seed and seats are the save's
    (``web.save.challenge`` otherwise)."""
    from ..links.challenge import decode_challenge   # chkobba/web/challenge.py
    value = save.get("challenge")
    if value is None:
        return None
    try:
        c = decode_challenge(value)
    except ChkobbaError as exc:
        raise WebError("web.save.challenge", reason=as_message(exc)) from None
    if session is not None and seat_list is not None and (
            (c.game, c.options, c.seed) != (session.game, session.record_data()["options"], session.seed)
            or list(c.seats) != [None if s.human else s.level for s in seat_list]):
        raise WebError("web.save.challenge", reason={"code": "web.save.challenge_deal", "params": {}})
    return str(value)   # a text: decode_challenge reads nothing else


def check_replays(session: Session) -> None:
    """The session's latest step replays (the steps before it were checked
    when they were made, or by the replay that opened the session); raises
    ``web.save_broken``."""
    if not session.latest_step_replays():
        raise WebError("web.save_broken", reason={"code": "web.save.elsewhere", "params": {}})


__all__ = ["SAVE_VERSION", "SAVE_VERSIONS", "MAX_TABLES", "STORE", "Store", "Table", "load",
           "takebacks_of", "daily_of", "clock_off_of", "challenge_of", "check_replays", "allow_tables"]
