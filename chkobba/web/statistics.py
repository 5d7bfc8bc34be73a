"""Player statistics (docs/stats.md). The page keeps the
statistics (:mod:`chkobba.stats`' file object) in its storage and hands
them in; every call checks them as strictly as a file from outside (a
damaged stored value answers ``stats.file``, like any bad file), and
answers the new statistics. Only a finished match counts, once (by its
record's id)."""

from __future__ import annotations

import time
from typing import TypedDict

from .. import daily as D
from .. import messages as M
from .. import daily_results as R
from .. import stats
from ..registry import game as registered
from .edge import Args, WebError, api, kind, label, show, table_id
from .saves import load, save_object, takebacks_of

STATS_AT_LIMIT = stats.MAX_AT


def _stats_in(value: object) -> stats.Stats:
    """The stored statistics a call was given (null: none yet)."""
    return stats.empty() if value is None else stats.from_file(value)


def _stats_at(args: Args) -> int:
    at = args.get("at")
    if at is None:
        return int(time.time() * 1000)
    if type(at) is not int or not 0 <= at <= STATS_AT_LIMIT:
        raise WebError("web.stats.at", value=show(at))
    return at


class Row(TypedDict):
    """A row of the statistics table: a group's :class:`~chkobba.stats.Total`
    (``chkobbas`` null for a game without sweeps) and its labels."""
    game: str
    variant: stats.Variant
    level: str
    matches: int
    wins: int
    rounds: int
    points: int
    chkobbas: int | None
    best_streak: int
    streak: int
    takeback_matches: int
    takeback_wins: int
    avg_points: float | None
    game_label: dict[str, object]
    variant_labels: list[dict[str, object]]
    level_label: dict[str, object]


def _rows(kept: stats.Stats) -> list[Row]:
    rows: list[Row] = []
    for t in stats.totals(kept):
        game = registered(t["game"])
        rows.append({**t, "chkobbas": t["chkobbas"] if game.counts_sweeps else None,
                     "game_label": label(f"stats.game.{t['game']}"),
                     "variant_labels": [label(code, **params) for code, params in game.stats_labels(t["variant"])],
                     "level_label": label(f"stats.level.{t['level']}")})
    return rows


def _today(args: Args) -> str:
    """Tunisia's date at ``now`` (POSIX seconds: the page's clock), or at the
    facade's clock without it: the day the daily streaks are counted to."""
    now = args.get("now")
    if now is None:
        return D.tunis_date(int(time.time()))
    if type(now) is not int or not 0 <= now <= STATS_AT_LIMIT // 1000:
        raise WebError("web.stats.now", value=show(now))
    return D.tunis_date(now)


def _answer(kept: stats.Stats, args: Args, **extra: object) -> dict[str, object]:
    """The statistics' file object, the table's rows, and the daily deal's
    summary (``daily``: per game played, streak, best streak, at par, best
    margin, best points; :func:`chkobba.daily_results.summary`)."""
    return {"stats": stats.to_file(kept), "rows": _rows(kept),
            "daily": R.summary(stats.daily_of(kept), _today(args)), **extra}


@api("save", optional=("stats", "at", "now"))
def _stats_add(args: Args) -> dict[str, object]:
    """A finished match (its save, checked and replayed) added to the
    statistics: ``{stats, rows, daily, added}``; ``added`` is false when the
    match was already counted (a reload at the end of a match). A game with
    take-backs (the save's ``takebacks``) is counted apart too. A
    challenge's match is re-derived first (chkobba/web/challenge.py): one
    that differs from what its link deals counts nowhere (``web.check.*``)."""
    table_id(args)
    kept = _stats_in(args.get("stats"))
    at = _stats_at(args)
    session, seats, _ = load(args["save"])
    save = save_object(args["save"])   # load has checked it is an object
    if save.get("challenge") is not None:
        from .challenge import check_challenge   # a challenge's match counts only as its link deals it
        check_challenge(save)
    new = stats.add_match(kept, session, [s.to_json() for s in seats], at, takebacks_of(save))
    return _answer(new, args, added=new is not kept)


@api(optional=("stats", "now"))
def _stats_view(args: Args) -> dict[str, object]:
    """The rows of the statistics table: ``{stats, rows, daily}``; each row is a
    group's totals with its labels as messages (``game_label``,
    ``variant_labels``, ``level_label``)."""
    table_id(args)
    return _answer(_stats_in(args.get("stats")), args)


@api("results", optional=("stats", "now"))
def _stats_daily_move(args: Args) -> dict[str, object]:
    """Daily results kept apart by an older page (``results``: the
    ``{"days": [...]}`` value, read strictly) merged into the statistics'
    ``daily`` key: ``{stats, rows, daily, added}`` (the deals that were new).
    A bad value answers ``stats.file`` and nothing changes."""
    table_id(args)
    kept = _stats_in(args.get("stats"))
    old = R.no_later_than(R.from_file(args["results"]), _today(args))
    before = {(r[0], r[1]) for r in stats.daily_of(kept)["days"]}
    new = stats.with_daily(kept, R.merge(stats.daily_of(kept), old))
    return _answer(new, args, added=sum(1 for r in old["days"] if (r[0], r[1]) not in before))


@api("text", optional=("stats", "now"))
def _stats_import(args: Args) -> dict[str, object]:
    """A file's text merged into the statistics (every match counted once):
    ``{stats, rows, daily, added, added_days}`` (how many matches, and how
    many daily deals, were new; the file's daily results are merged too). A bad file answers ``stats.file`` and the
    page keeps what it had; so does a file with a daily result dated after
    today (Tunisia's date at ``now``: ``stats.file.daily_future``)."""
    table_id(args)
    kept = _stats_in(args.get("stats"))
    text = args["text"]
    if not isinstance(text, str):
        raise WebError("web.stats.text", kind=kind(text))
    incoming = stats.from_text(text)
    R.no_later_than(stats.daily_of(incoming), _today(args))   # a deal of a later day: stats.file in words
    merged, added = stats.merge_count(kept, incoming)
    before = {(r[0], r[1]) for r in stats.daily_of(kept)["days"]}
    days = sum(1 for r in stats.daily_of(incoming)["days"] if (r[0], r[1]) not in before)
    return _answer(merged, args, added=added, added_days=days)


@api(optional=("stats",))
def _stats_export(args: Args) -> dict[str, object]:
    """The statistics as a file's text: ``{text}``."""
    table_id(args)
    return {"text": stats.to_text(_stats_in(args.get("stats")))}


M.register({"web.stats.now": "The moment must be a whole number of seconds from 0 to 2^53 / 1000, not {value}"})
