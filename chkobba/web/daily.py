"""The daily deal at a game table (docs/daily.md): start the date's deal,
the daily computers' choices (a fixed budget, the same on every device), par,
and the result against par with its share text and the daily results.

A daily table is an ordinary table whose save says ``"daily": date``: it
replays like any save, refuses take-backs (mode ``daily``) and stops after
its one round. ``daily_choose``, ``daily_par`` and ``daily_result`` run in the
worker (par plays a whole round: seconds on a slow phone).
"""

from __future__ import annotations

from typing import Any

from .. import daily as D
from .. import daily_results as R
from .. import messages as M
from ..links.challenge import decode_result, encode_result
from ..session import Session
from .edge import SEED_LIMIT
from .edge import Args, Seat, WebError, api, show, table_id
from .saves import STORE, Table, check_replays, daily_of, load
from .tables import state_of

M.register({
    "web.save.daily": "its daily deal {value} is not the deal of its cards",
    "web.daily.at": "The moment must be a whole number of seconds from 0 to 2^53, not {value}",
    "web.daily.not_daily": "This game is not a daily deal",
})


def _at(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= SEED_LIMIT:
        raise WebError("web.daily.at", value=show(value))
    return value


def _deal(args: Args) -> D.Daily:
    """The deal named by ``date`` (``YYYY-MM-DD``) or, without it, by the
    moment ``at`` (POSIX seconds: the page's clock) in Tunisia."""
    game = args.get("game", "chkobba")
    if "date" in args:
        return D.daily(D.parse_date(args["date"]).isoformat(), game)   # DailyError in words (a text only)
    return D.daily(_at(args.get("at")), game)


def _friend(args: Args, deal: D.Daily) -> dict[str, Any] | None:
    """The sender's result a shared link carries (``vs``: an ``r1.`` text of
    this deal, chkobba/links/challenge.py), checked strictly; None without one."""
    if "vs" not in args:
        return None
    return decode_result(args["vs"], deal.date, deal.game)   # one link.* error in words


@api(optional=("date", "at", "game", "vs"))
def _daily_start(args: Args) -> dict[str, Any]:
    """Start the daily deal of a date (or of the moment ``at``) and game at a
    table: its state (the save says ``daily``). ``vs``: the sender's result
    from a shared link, checked here (the page keeps it for the end)."""
    tid = table_id(args)
    deal = _deal(args)
    _friend(args, deal)
    session = deal.session()
    check_replays(session)
    seat_list = [Seat("human") if level is None else Seat("computer", level) for level in deal.seats]
    table = Table.seated(tid, session, seat_list)
    table.daily = deal.date
    out = state_of(table)
    STORE.tables.put(tid, table)
    return out


@api(optional=("at",))
def _daily_today(args: Args) -> dict[str, Any]:
    """The date in Tunisia at the moment ``at`` (POSIX seconds), the daily games."""
    table_id(args)
    return {"date": D.tunis_date(_at(args.get("at"))), "games": list(D.GAMES)}


def _daily_save(save: Any) -> tuple[D.Daily, Session, list[Seat]]:
    session, seat_list, _ = load(save)
    date = daily_of(save)
    if date is None:
        raise WebError("web.daily.not_daily")
    return D.daily(date, session.game), session, seat_list


@api("save", "seat")
def _daily_choose(args: Args) -> dict[str, Any]:
    """The daily computer's action for ``seat`` in the save's position (in the
    worker): hard with the daily budget, seeded from the deal, never the clock."""
    table_id(args)
    deal, session, seat_list = _daily_save(args["save"])
    seat = args["seat"]
    if type(seat) is not int or not 0 <= seat < session.players:
        raise WebError("web.seat_index", last=session.players - 1, value=show(seat))
    if seat_list[seat].level is None:
        raise WebError("web.not_computer", seat=seat)
    return {"action": str(D.computer_choice(deal, session, seat)), "level": "hard"}


@api(optional=("date", "at", "game"))
def _daily_par(args: Args) -> dict[str, Any]:
    """Par of a daily deal (in the worker; the page keeps it per date and game)."""
    table_id(args)
    deal = _deal(args)
    return D.par(deal.date, deal.game)


@api("save", optional=("results", "at", "vs"))
def _daily_result(args: Args) -> dict[str, Any]:
    """A finished daily round against par: ``result`` (daily.result),
    ``share`` (a message the page words in its language), ``results`` (the
    daily results with this one added: the first result of a deal counts) and
    ``summary`` (streaks, best) as of the moment ``at``; ``vs`` (this
    result as a link's ``r1.`` text, for the shared link) and, given the
    sender's ``vs``, ``friend`` (their result, shown side by side)."""
    table_id(args)
    deal, session, _ = _daily_save(args["save"])
    friend = _friend(args, deal)
    res = D.result(deal, session)                         # daily.not_over in words
    kept = R.from_file(args.get("results") or R.empty())  # stats.file in words
    kept = R.add(kept, res)
    today = D.tunis_date(_at(args["at"])) if "at" in args else deal.date
    return {"result": res, "share": D.share(res).to_json(), "results": kept, "summary": R.summary(kept, today),
            "vs": encode_result(deal.date, deal.game, res["you"]), "friend": friend}
