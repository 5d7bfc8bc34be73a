"""The player's daily results: one row per daily deal played, the streak and the best.

Kept beside the statistics (``chkobba/stats.py``) and made to be folded into
its file later as one more key, ``"daily"`` (see ``docs/daily.md``): the same
JSON in storage and in an exported file::

    {"days": [["2026-12-01", "chkobba", 3, 2], ["2026-12-01", "seven_diamonds", 0, 80]]}

Each row is ``[date (Tunisia's calendar day), game, points, par points]`` for
the player's side, sorted by date then game. A deal counts once: the first
result of a date and game is kept, a replay of it adds nothing. Merging two
files (two phones) keeps every day of both; where both played the same deal,
the lower result (by margin to par, then points) is kept, so a merge gives
the same whatever its order and never improves a result.

A file from outside is read strictly (:func:`from_file`) with the statistics
file's error (``stats.file`` and its ``stats.file.*`` reasons), nothing else
raised.

>>> r = add(empty(), {"date": "2026-12-01", "game": "chkobba", "points": 3, "par_points": 1})
>>> r
{'days': [['2026-12-01', 'chkobba', 3, 1]]}
>>> summary(r, "2026-12-02")["chkobba"]["streak"]
1
>>> summary(r, "2026-12-03")["chkobba"]["streak"]
0
"""

from __future__ import annotations

from datetime import date as Date
from datetime import timedelta
from typing import Any

from . import messages as M
from .daily import GAMES, DailyError, parse_date
from .errors import StatsError

__all__ = ["MAX_DAYS", "MAX_POINTS", "empty", "add", "merge", "summary", "from_file", "no_later_than"]

MAX_DAYS = 40_000        # rows (both games every day for more than 50 years)
MAX_POINTS = 100_000     # points of one round (Seven Diamonds: at most a few thousand)

Results = dict[str, Any]
Row = list[Any]


def empty() -> Results:
    """No daily deal played yet."""
    return {"days": []}


def _key(row: Row) -> tuple[str, str]:
    return row[0], row[1]


def _rank(row: Row) -> tuple[int, int]:
    return row[2] - row[3], row[2]


def add(results: Results, result: dict[str, Any]) -> Results:
    """The results with one more daily round (``chkobba.daily.result``'s
    ``date``, ``game``, ``points``, ``par_points``). A deal already there is
    kept as it was (the first result counts). Returns a new object."""
    row = [result["date"], result["game"], int(result["points"]), int(result["par_points"])]
    _check_row(row, len(results["days"]))
    if any(_key(r) == _key(row) for r in results["days"]):
        return {"days": [list(r) for r in results["days"]]}
    return {"days": sorted([list(r) for r in results["days"]] + [row], key=_key)}


def merge(a: Results, b: Results) -> Results:
    """Every deal of both; for a deal in both, the lower result."""
    out: dict[tuple[str, str], Row] = {}
    for row in a["days"] + b["days"]:
        k = _key(row)
        if k not in out or _rank(row) < _rank(out[k]) or (_rank(row) == _rank(out[k]) and row < out[k]):
            out[k] = list(row)
    if len(out) > MAX_DAYS:
        raise _bad("stats.file.count", what={"code": "daily.where.rows", "params": {}}, count=len(out), limit=MAX_DAYS)
    return {"days": [out[k] for k in sorted(out)]}


def _runs(days: list[Date]) -> list[tuple[Date, int]]:
    """Runs of consecutive days in a sorted list: (last day, length)."""
    runs: list[tuple[Date, int]] = []
    for d in days:
        if runs and d - runs[-1][0] == timedelta(days=1):
            runs[-1] = (d, runs[-1][1] + 1)
        elif not runs or d != runs[-1][0]:
            runs.append((d, 1))
    return runs


def _streaks(days: list[Date], today: Date) -> tuple[int, int]:
    """The streak up to ``today`` and the best streak, of the days up to
    ``today`` only: a row dated later (a phone's clock set back, an old file)
    neither ends nor makes a streak."""
    runs = _runs(sorted({d for d in days if d <= today}))
    best = max((n for _, n in runs), default=0)
    current = 0
    yesterday = today - timedelta(days=1) if today > Date.min else today
    if runs and runs[-1][0] in (today, yesterday):
        current = runs[-1][1]   # played today, or yesterday and today's deal is still to play
    return current, best


def summary(results: Results, today: str) -> dict[str, Any]:
    """Per game, and for ``any`` game: ``played``, ``streak`` (days in a row up
    to today, or up to yesterday while today's deal is not played yet),
    ``best_streak`` (both of the days up to ``today``: a later row counts
    for neither); per game also ``at_par`` (rounds at or above par),
    ``best_margin``, ``best_points`` (None before any) and ``last`` (the
    latest row)."""
    now = parse_date(today)
    out: dict[str, Any] = {}
    for game in GAMES:
        rows = [r for r in results["days"] if r[1] == game]
        current, best = _streaks([Date.fromisoformat(r[0]) for r in rows], now)
        out[game] = {"played": len(rows), "streak": current, "best_streak": best,
                     "at_par": sum(1 for r in rows if r[2] >= r[3]),
                     "best_margin": max((r[2] - r[3] for r in rows), default=None),
                     "best_points": max((r[2] for r in rows), default=None),
                     "last": list(rows[-1]) if rows else None}
    current, best = _streaks([Date.fromisoformat(r[0]) for r in results["days"]], now)
    out["any"] = {"played": len({r[0] for r in results["days"]}), "streak": current, "best_streak": best}
    return out


# ------------------------------------------------------------- strict reading

def _bad(code: str, /, **params: M.Param) -> StatsError:
    return StatsError("stats.file", reason={"code": code, "params": params})


def _where(index: int | None = None) -> dict[str, M.Param]:
    if index is None:
        return {"code": "daily.where.file", "params": {}}
    return {"code": "daily.where.row", "params": {"index": index + 1}}


def _show(value: object) -> str:
    if isinstance(value, str):
        return '"' + M.quote(value, 40) + '"'
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else "a huge number"
    return M.kind_of(value)


def _check_row(row: object, index: int) -> None:
    where = _where(index)
    if not isinstance(row, list) or len(row) != 4:
        raise _bad("stats.file.value", where=where, value=_show(row))
    day, game, points, par = row
    try:
        parse_date(day)
    except DailyError:
        raise _bad("stats.file.value", where=where, value=_show(day)) from None
    if not isinstance(game, str) or game not in GAMES:
        raise _bad("stats.file.value", where=where, value=_show(game))
    for value in (points, par):
        if type(value) is not int or not 0 <= value <= MAX_POINTS:
            raise _bad("stats.file.value", where=where, value=_show(value))


M.register({"stats.file.daily_future": "{where} is the deal of {date}, a day after today ({today} in Tunisia): "
                                        "a daily deal is played on its day or later"})


def no_later_than(results: Results, today: str) -> Results:
    """``results`` if no row is dated after ``today`` (Tunisia's date): a
    file from outside with a later row is refused (``stats.file``, reason
    ``stats.file.daily_future`` naming the row), whatever the rows before."""
    now = parse_date(today).isoformat()
    for i, row in enumerate(results["days"]):
        if row[0] > now:
            raise _bad("stats.file.daily_future", where=_where(i), date=row[0], today=now)
    return results


def from_file(data: object) -> Results:
    """Daily results from a file's JSON value, read strictly: an object with
    ``days`` only, each row well formed, each deal once, at most
    :data:`MAX_DAYS` rows. Raises :class:`~chkobba.stats.StatsError` and
    nothing else."""
    try:
        return _from_file(data)
    except StatsError:
        raise
    except Exception:  # noqa: BLE001 - a hostile file gets the one plain error
        raise _bad("stats.file.format") from None


def _from_file(data: object) -> Results:
    where = _where()
    if not isinstance(data, dict):
        raise _bad("stats.file.value", where=where, value=_show(data))
    for key in data:
        if key != "days":
            raise _bad("stats.file.key", key=M.quote(str(key), 40), where=where)
    if "days" not in data:
        raise _bad("stats.file.missing", key="days", where=where)
    days = data["days"]
    if not isinstance(days, list):
        raise _bad("stats.file.value", where=where, value=_show(days))
    if len(days) > MAX_DAYS:
        raise _bad("stats.file.count", what={"code": "daily.where.rows", "params": {}}, count=len(days), limit=MAX_DAYS)
    seen: set[tuple[str, str]] = set()
    for i, row in enumerate(days):
        _check_row(row, i)
        if _key(row) in seen:
            raise _bad("stats.file.twice", where=_where(i))
        seen.add(_key(row))
    return {"days": sorted(([*r] for r in days), key=_key)}
