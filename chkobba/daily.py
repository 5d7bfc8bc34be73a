"""The daily deal: the same cards and the same computer players for everyone, every day.

A daily deal is one round, named by a calendar date in **Tunisia's time**
(``Africa/Tunis``: UTC+1 all year, no daylight saving time since 2009; this
module adds one hour to UTC and needs no time-zone database, which Pyodide
may lack), and a game:

- ``chkobba``: Chkobba one against one, the player in seat 0 against the
  hard computer in seat 1, default table options;
- ``seven_diamonds``: Seven Diamonds, the player in seat 0 with a hard
  computer partner (seat 2) against two hard computers (seats 1 and 3),
  default table options but **no timers** (a daily deal is played at the
  player's pace; the computers never time out).

Everything is drawn from the deal's seed (:func:`deal_seed`: the date and
the game), so every phone deals the same cards offline: the first dealer and
every deck (re-deals included) come from the session's seeded decks
(``Random(f"{seed}/{k}")``, :mod:`chkobba.session`).

**Everyone meets the same opponent.** A computer's choice in a daily deal
depends only on the deal and the position: the agent sees its seat's
observation and gets an rng seeded from the deal, the round, the number of
actions played in it and the seat (:func:`computer_rng`), and it thinks for a
fixed number of rollouts (:data:`DAILY_BUDGETS`), never for a time (the
page's hard stops at ``PAGE_SEARCH_MS`` of thinking, which makes a slow phone
meet a weaker opponent). What that costs is in ``docs/daily.md``.

**Par** is what the computer scores in the player's seat with the same cards:
the whole round played by the computers (:func:`par`), deterministic, so it
is computed once per date and game and may be kept. :func:`result` compares a
finished round with par, and :func:`share` words it without the cards, as
message codes (``daily.*``) a page renders in its language.

    >>> deal = daily("2026-12-01", "chkobba")
    >>> deal.date, deal.game, deal.seats
    ('2026-12-01', 'chkobba', (None, 'hard'))
    >>> tunis_date(0)              # 1970-01-01T00:00Z is 01:00 in Tunis
    '1970-01-01'
    >>> tunis_date(23 * 3600)      # 23:00 UTC is already tomorrow in Tunis
    '1970-01-02'
"""

from __future__ import annotations

import functools
import json
import random
import re
import zlib
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime, timedelta, timezone
from collections.abc import Mapping, Sequence
from typing import Any, Callable, TypedDict

from .actions import Action
from .agents import Budget, make_agent
from .errors import ChkobbaError
from .messages import Message, Param, quote
from .protocol import JSON, JSONDict
from .registry import DailyDeal, Facts, Names
from .registry import game as registered
from .records import RecordDict
from .session import Session

__all__ = ["TUNIS", "GAMES", "DAILY_BUDGETS", "HUMAN_SEAT", "FIRST_DAY", "DailyError", "Daily", "daily",
           "tunis_date", "parse_date", "day_over", "day_before", "playable", "deal_seed", "computer_rng",
           "computer_choice", "play_computers", "round_over", "round_result", "par", "result", "share",
           "Rederivation"]

#: Africa/Tunis: UTC+1 all year (no daylight saving time since 2009).
TUNIS = timezone(timedelta(hours=1), "Africa/Tunis")

#: The daily games, in the order a page shows them: each registered game
#: that declares a daily deal (its ``daily``, :class:`~chkobba.registry.DailyDeal`).
GAMES: Sequence[str] = Names(lambda g: g.daily is not None)

#: The player's seat in every daily deal.
HUMAN_SEAT = 0

#: A fixed amount of search for the daily computers: rollouts only, no time
#: cap, so a decision is the same on every device (each game's daily deal
#: says how many; docs/daily.md measures it: hard's strength against medium
#: is flat from about 150 rollouts on, docs/agents.md "Strength against
#: thinking time").
DAILY_BUDGETS: Mapping[str, Budget] = Facts(lambda g: None if g.daily is None
                                            else Budget(rollouts=g.daily.rollouts, ms=None))
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

#: The first daily deal: a result link writes its date as days after this
#: one (chkobba/links/challenge.py), so no deal is played before it.
FIRST_DAY = "2000-01-01"



class DailyError(ChkobbaError):
    """A date or a game that names no daily deal, or a round used wrongly."""


def parse_date(text: object) -> Date:
    """A calendar date written ``YYYY-MM-DD`` (the only form read).

    >>> parse_date("2026-02-28")
    datetime.date(2026, 2, 28)
    """
    if not isinstance(text, str) or not _DATE.fullmatch(text):
        raise DailyError("daily.date", value=quote(text))
    try:
        return Date.fromisoformat(text)
    except ValueError:
        raise DailyError("daily.date", value=quote(text)) from None


def tunis_date(instant: datetime | float | int) -> str:
    """The calendar date in Tunisia at a moment: an aware ``datetime`` or
    POSIX seconds (the page's ``Date.now() / 1000``). A naive datetime says
    no moment and is refused."""
    if isinstance(instant, datetime):
        if instant.tzinfo is None or instant.utcoffset() is None:
            raise DailyError("daily.instant")
        moment = instant
    elif isinstance(instant, (int, float)) and not isinstance(instant, bool):
        if instant != instant or instant in (float("inf"), float("-inf")):
            raise DailyError("daily.instant")   # NaN and infinities name no moment
        try:
            moment = datetime.fromtimestamp(instant, timezone.utc)
        except (OverflowError, OSError, ValueError):
            raise DailyError("daily.calendar") from None
    else:
        raise DailyError("daily.instant")
    offset = moment.utcoffset()
    assert offset is not None
    try:   # one step, never through UTC: 0001-01-01 01:30+02:00 is in year 0 in UTC but not in Tunis
        return (moment.replace(tzinfo=None) + (timedelta(hours=1) - offset)).date().isoformat()
    except OverflowError:   # 9999-12-31 23:00 UTC is already the year 10000 in Tunis
        raise DailyError("daily.calendar") from None


def day_before(day: str) -> str | None:
    """The calendar day before ``day`` (None before 0001-01-01, which has none).

    >>> day_before("2026-03-01"), day_before("0001-01-01")
    ('2026-02-28', None)
    """
    d = parse_date(day)
    return None if d == Date.min else (d - timedelta(days=1)).isoformat()


def playable(day: str, today: str) -> str:
    """``day`` if its deal can be played when it is ``today`` in Tunisia
    (both ``YYYY-MM-DD``): refused ``daily.future`` for a later day (saying
    when it opens), ``daily.before`` before :data:`FIRST_DAY`.

    >>> playable("2026-12-01", "2026-12-01")
    '2026-12-01'
    >>> playable("2026-12-02", "2026-12-01")
    Traceback (most recent call last):
    ...
    chkobba.daily.DailyError: The deal of 2026-12-02 is not out yet: it can be played from 2026-12-02 at 00:00 in Tunisia (today is 2026-12-01 there)
    """
    text, now = parse_date(day).isoformat(), parse_date(today).isoformat()
    if text > now:
        raise DailyError("daily.future", date=text, today=now)
    if text < FIRST_DAY:
        raise DailyError("daily.before", date=text)
    return text


def day_over(day: str, instant: datetime | float | int) -> bool:
    """Whether the calendar day ``day`` is over in Tunisia at ``instant``: from
    then on its deal may be shown with every hand (par's record, a replay).

    >>> day_over("1970-01-01", 22 * 3600), day_over("1970-01-01", 23 * 3600)
    (False, True)
    """
    return tunis_date(instant) > parse_date(day).isoformat()


def deal_seed(day: str, game: str) -> int:
    """The session seed of a daily deal (31 bits, the same everywhere)."""
    return zlib.crc32(f"chkobba-daily/{game}/{day}".encode()) & 0x7FFFFFFF


@dataclass(frozen=True)
class Daily:
    """One daily deal: a date, a game, the seed its cards come from, the
    table options and who sits where (``None``: the player; else a level)."""

    date: str
    game: str
    seed: int
    options: dict[str, JSON]
    seats: tuple[str | None, ...]

    def session(self) -> Session:
        """A new session of this deal, dealt and ready for the first action
        (computers to act first have not played yet: see :func:`play_computers`)."""
        return Session.new(self.game, dict(self.options), seed=self.seed)

    def budget(self) -> Budget:
        return DAILY_BUDGETS[self.game]

    def to_json(self) -> JSONDict:
        return {"date": self.date, "game": self.game, "seed": self.seed, "options": dict(self.options),
                "seats": list(self.seats)}


def daily(day: object, game: object) -> Daily:
    """The daily deal of ``game`` for a date (``"YYYY-MM-DD"`` or a ``date``,
    taken as Tunisia's calendar day) or for a moment (an aware datetime or POSIX
    seconds: the day it is in Tunisia then)."""
    if not isinstance(game, str) or game not in GAMES:
        raise DailyError("daily.game", value=quote(game), known=list(GAMES))
    if isinstance(day, datetime) or (isinstance(day, (int, float)) and not isinstance(day, bool)):
        text = tunis_date(day)
    elif isinstance(day, Date):
        text = day.isoformat()
    else:
        text = parse_date(day).isoformat()
    deal = _deal(game)
    return Daily(text, game, deal_seed(text, game), dict(deal.options), deal.seats)


def _deal(game: object) -> DailyDeal:
    """The daily deal a game declares (``daily.game`` if it has none)."""
    if not isinstance(game, str) or game not in GAMES:
        raise DailyError("daily.game", value=quote(game), known=list(GAMES))
    deal = registered(game).daily
    assert deal is not None
    return deal


# ------------------------------------------------------------------ computers

def _round_and_ply(session: Session) -> tuple[int, int]:
    rounds = session.record_data()["rounds"]
    return len(rounds), len(rounds[-1]["actions"]) if rounds else 0


def computer_rng(deal: Daily, session: Session, seat: int) -> random.Random:
    """The rng a computer seat decides with at the session's position: seeded
    from the deal, the round (from 1), the actions played in it and the seat,
    never from the clock."""
    rnd, ply = _round_and_ply(session)
    return random.Random(f"chkobba-daily/{deal.game}/{deal.date}/{rnd}/{ply}/{seat}")


def computer_choice(deal: Daily, session: Session, seat: int | None = None) -> Action:
    """The daily computer's action for the seat to act (or ``seat``, which must
    be the seat to act): hard with the daily budget; the same on every device."""
    to_act = session.to_act()
    if to_act is None or round_over(session):
        raise DailyError("daily.round_over")
    if seat is None:
        seat = to_act
    if seat != to_act:
        raise DailyError("daily.not_turn", seat=seat, to_act=to_act)
    obs = session.observation(seat)
    agent = make_agent(deal.game, "hard", deal.budget())
    return agent.choose(obs, obs.legal_actions(), computer_rng(deal, session, seat))


def round_over(session: Session) -> bool:
    """Whether the daily round (the session's first round) has ended."""
    return bool(session.summary()["rounds"]) or session.is_over


def play_computers(deal: Daily, session: Session, seats: frozenset[int] | None = None) -> list[str]:
    """Play the computer seats (by default every seat but the player's) until a
    seat not among them is to act or the round is over; the actions played."""
    computers = seats if seats is not None else frozenset(
        i for i, level in enumerate(deal.seats) if level is not None)
    played: list[str] = []
    while not round_over(session):
        seat = session.to_act()
        if seat is None or seat not in computers:
            break
        played.append(str(session.apply(computer_choice(deal, session, seat))))
    return played


# ----------------------------------------------------------------- par, result

def round_result(deal: Daily, summary_round: Mapping[str, JSON], seat: int = HUMAN_SEAT) -> JSONDict:
    """One finished round, from the engine's round summary, for ``seat``'s
    side: ``points``, ``other`` (the other side's points), and per game
    ``categories`` (Chkobba: karta, dinari, barmila, haya won) and
    ``chkobbas``; Seven Diamonds: ``won`` (the side went out first),
    ``multiplier``, ``bonus``, ``cards`` (the points of the cards left)."""
    side = seat % 2
    points = summary_round["points"]
    if not isinstance(points, Sequence):
        raise TypeError("a round summary's points are a list")
    out: JSONDict = {"points": _int(points[side]), "other": _int(points[1 - side])}
    out.update(_deal(deal.game).round(summary_round, side))
    return out


def _finished_round(session: Session) -> JSONDict:
    rounds = session.summary()["rounds"]
    if not rounds:
        raise DailyError("daily.not_over")
    first: JSONDict = rounds[0]
    return first


@functools.lru_cache(maxsize=16)
def _par(day: str, game: str) -> tuple[str, str]:
    deal = daily(day, game)
    session = deal.session()
    every_seat = frozenset(range(len(deal.seats)))
    play_computers(deal, session, every_seat)
    import json
    return session.record_json(), json.dumps(round_result(deal, _finished_round(session)))


class Par(TypedDict):
    """Par of a daily deal (:func:`par`)."""

    date: str
    game: str
    result: JSONDict
    record: JSONDict


class Result(TypedDict):
    """How the player did against par (:func:`result`)."""

    date: str
    game: str
    you: JSONDict
    par: JSONDict
    points: int
    par_points: int
    margin: int


def _int(value: JSON) -> int:
    """Points read from a round summary or result: a number."""
    if not isinstance(value, (int, float)):
        raise TypeError(f"points are a number, not {value!r}")
    return int(value)


def par(day: str, game: str) -> Par:
    """Par of a daily deal: the round played by the daily computers in every
    seat, the player's included. ``{"date", "game", "result"
    (:func:`round_result` for the player's seat), "record" (the round: it
    shows every card, so a page keeps it until the day is over)}``. The same
    every time (computed once per date and game, then cached)."""
    import json
    deal = daily(day, game)
    record, res = _par(deal.date, deal.game)
    return {"date": deal.date, "game": deal.game, "result": json.loads(res), "record": json.loads(record)}


def result(deal: Daily, session: Session, par_result: JSONDict | None = None) -> Result:
    """How the player did against par in a finished daily round:
    ``{"date", "game", "you": round_result, "par": round_result,
    "points", "par_points", "margin" (points - par points)}``."""
    you = round_result(deal, _finished_round(session))
    theirs = par_result if par_result is not None else par(deal.date, deal.game)["result"]
    points, par_points = _int(you["points"]), _int(theirs["points"])
    return {"date": deal.date, "game": deal.game, "you": you, "par": theirs, "points": points,
            "par_points": par_points, "margin": points - par_points}


def _margin(margin: int) -> Message:
    if margin > 0:
        return Message("daily.margin.above", {"count": margin})
    if margin < 0:
        return Message("daily.margin.below", {"count": -margin})
    return Message("daily.margin.level", {})


def share(res: Mapping[str, Any]) -> Message:
    """The share text of a result (:func:`result`): how the player did, never
    the cards. A message (code and params) a page renders in its language;
    ``str()`` is the English."""
    you = res["you"]
    margin = _margin(int(res["margin"])).to_json()
    code, params = _deal(res["game"]).share(res, you, margin)
    return Message(code, params)


# ------------------------------------------------------------ re-derivation

class Rederivation:
    """A saved game played again from its seed, one computer decision per
    :meth:`step`: each action of the saved ``record`` is applied to ``fresh``
    (a new session dealt from the right seed and options: the day's, or the
    challenge link's); an action of a computer seat must be the one
    ``choose(session, seat)`` (the fixed-budget computer, the same on every
    device) makes at that position; at the end the record made must be the
    saved one (the same decks, dealer, options and actions).

    ``error`` is then None, or ``(code, params)``: ``web.check.move`` (a
    computer's move that is not the computer's), ``web.check.replay`` (an
    action that does not apply), ``web.check.cards`` (the cards differ). A
    decision's search may be handed out and finished elsewhere (web/ai.py)
    before the step applies it: nothing of the decision changes here until
    it is made."""

    def __init__(self, fresh: Session, record: RecordDict, computers: frozenset[int],
                 choose: Callable[[Session, int], Action]) -> None:
        self.session = fresh
        self.record = record
        self.computers = computers
        self.choose = choose
        self.actions = [(r + 1, k + 1, str(a)) for r, rnd in enumerate(record.get("rounds", []))
                        for k, a in enumerate(rnd.get("actions", []))]
        self.next = 0
        self.decisions = 0
        self.error: tuple[str, dict[str, Param]] | None = None
        self.done = False

    def _fail(self, code: str, **params: Param) -> bool:
        self.error = (code, params)
        self.done = True
        return True

    def step(self) -> bool:
        """The players' actions up to the next computer decision, then that
        decision (one search at most); whether the check is over."""
        while not self.done:
            if self.next == len(self.actions):
                if json.dumps(self.session.record_data(), sort_keys=True) != json.dumps(self.record, sort_keys=True):
                    return self._fail("web.check.cards")
                self.done = True
                break
            rnd, ply, text = self.actions[self.next]
            seat = self.session.to_act()
            if seat is not None and seat in self.computers:
                try:
                    expected = str(self.choose(self.session, seat))   # may hand its search out
                except ChkobbaError as exc:
                    return self._fail("web.check.replay", round=rnd, ply=ply, action=quote(text),
                                      reason={"code": exc.code, "params": dict(exc.params)})
                self.decisions += 1
                if expected != text:
                    return self._fail("web.check.move", round=rnd, ply=ply, action=quote(text), expected=expected)
                self.session.apply(expected)
                self.next += 1
                break       # one decision a step
            try:
                self.session.apply(text)
            except ChkobbaError as exc:
                return self._fail("web.check.replay", round=rnd, ply=ply, action=quote(text),
                                  reason={"code": exc.code, "params": dict(exc.params)})
            self.next += 1
        return self.done
