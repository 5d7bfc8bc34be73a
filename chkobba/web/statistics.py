"""Player statistics (issue 12; docs/stats.md). The page keeps the
statistics (:mod:`chkobba.stats`' file object) in its storage and hands
them in; every call checks them as strictly as a file from outside (a
damaged stored value answers ``stats.file``, like any bad file), and
answers the new statistics. Only a finished match counts, once (by its
record's id)."""

from __future__ import annotations

import time
from typing import Any

from .. import stats
from ..registry import game as registered
from .edge import Args, WebError, api, kind, label, show, table_id
from .saves import load

STATS_AT_LIMIT = stats.MAX_AT


def _stats_in(value: Any) -> stats.Stats:
    """The stored statistics a call was given (null: none yet)."""
    return stats.empty() if value is None else stats.from_file(value)


def _stats_at(args: Args) -> int:
    at = args.get("at")
    if at is None:
        return int(time.time() * 1000)
    if type(at) is not int or not 0 <= at <= STATS_AT_LIMIT:
        raise WebError("web.stats.at", value=show(at))
    return at


def _rows(kept: stats.Stats) -> list[dict[str, Any]]:
    rows = []
    for t in stats.totals(kept):
        game = registered(t["game"])
        t["game_label"] = label(f"stats.game.{t['game']}")
        t["variant_labels"] = [label(code, **params) for code, params in game.stats_labels(t["variant"])]
        t["level_label"] = label(f"stats.level.{t['level']}")
        if not game.counts_sweeps:
            t["chkobbas"] = None
        rows.append(t)
    return rows


def _answer(kept: stats.Stats, **extra: Any) -> dict[str, Any]:
    return {"stats": stats.to_file(kept), "rows": _rows(kept), **extra}


@api("save", optional=("stats", "at"))
def _stats_add(args: Args) -> dict[str, Any]:
    """A finished match (its save, checked and replayed) added to the
    statistics: ``{stats, rows, added}``; ``added`` is false when the
    match was already counted (a reload at the end of a match)."""
    table_id(args)
    kept = _stats_in(args.get("stats"))
    at = _stats_at(args)
    session, seats, _ = load(args["save"])
    new = stats.add_match(kept, session, [s.to_json() for s in seats], at)
    return _answer(new, added=new is not kept)


@api(optional=("stats",))
def _stats_view(args: Args) -> dict[str, Any]:
    """The rows of the statistics table: ``{stats, rows}``; each row is a
    group's totals with its labels as messages (``game_label``,
    ``variant_labels``, ``level_label``)."""
    table_id(args)
    return _answer(_stats_in(args.get("stats")))


@api("text", optional=("stats",))
def _stats_import(args: Args) -> dict[str, Any]:
    """A file's text merged into the statistics (every match counted once):
    ``{stats, rows, added}`` (how many matches were new). A bad file answers
    ``stats.file`` and the page keeps what it had."""
    table_id(args)
    kept = _stats_in(args.get("stats"))
    text = args["text"]
    if not isinstance(text, str):
        raise WebError("web.stats.text", kind=kind(text))
    incoming = stats.from_text(text)
    before = {m[0] for m in kept["matches"]}
    merged = stats.merge(kept, incoming)
    added = sum(1 for m in incoming["matches"] if m[0] not in before)
    return _answer(merged, added=added)


@api(optional=("stats",))
def _stats_export(args: Args) -> dict[str, Any]:
    """The statistics as a file's text: ``{text}``."""
    table_id(args)
    return {"text": stats.to_text(_stats_in(args.get("stats")))}
