"""Player statistics: what a player has won, kept across matches, exported
to a file and imported from one (docs/stats.md).

Statistics are made only from what the engine says about a FINISHED match
(its replay output: rounds, points, chkobbas, the winner). A match counts
once: each is kept with an id made from its whole record, so the same match
added twice, or a file imported twice, counts once. Abandoned matches do not
count; the rounds of a match count when the match ends.

The statistics are a JSON object, the same in storage and in a file::

    {"format": "chkobba-stats", "version": 1,
     "groups": [{"game": "chkobba", "variant": {"players": 2, "capture": "optional",
                 "target": 11, "match": 1}, "level": "easy"}],
     "matches": [["<24 hex digits>", 0, 1764500000000, true, 3, 12, 2]]}

A group is a game, its variant (the table options a player compares by) and
the computer level; each match is ``[id, group, at (ms since 1970), won,
rounds, points, chkobbas]`` seen from the player's side. Past
:data:`MAX_MATCHES` matches the oldest are folded into their group's
``earlier`` totals, so nothing is lost and the file stays small.

A file from outside is read strictly (:func:`from_file`): anything wrong is
refused with one :class:`StatsError` (code ``stats.file``, its ``reason`` a
``stats.file.*`` message) and nothing else is ever raised.

>>> s = empty()
>>> totals(s)
[]
>>> from_file(to_file(s)) == s
True
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Iterable

from . import messages as M
from .errors import ChkobbaError
from .registry import game as registered

FORMAT = "chkobba-stats"
VERSION = 1
MAX_MATCHES = 5000          # kept one by one; older ones are folded into totals
MAX_GROUPS = 500
MAX_TEXT = 600_000          # characters of a file's text
MAX_DEPTH = 6               # nesting of a file (it needs 4)
MAX_AT = 2**53              # ms since 1970
MAX_ROUNDS = 100_000        # rounds of one match
MAX_POINTS = 10**9          # points of one match
MAX_TOTAL = 10**12          # any folded total
LEVELS = ("easy", "medium", "hard", "mixed", "none")
ID = re.compile(r"[0-9a-f]{24}\Z")
ID_CHARS = 24

# The table options that make a variant, per game, with their allowed values
# (None: a whole number in a range).
VARIANTS: dict[str, dict[str, tuple[Any, ...] | range]] = {
    "chkobba": {"players": (2, 4), "capture": ("optional", "compulsory"), "target": (11, 21, 31),
                "match": (1, 3, 5)},
    "seven_diamonds": {"players": (4,), "calls": (True, False), "target": range(1, 100_001)},
}
EARLIER = ("matches", "wins", "rounds", "points", "chkobbas", "best_streak", "streak")

STATS_MESSAGES: dict[str, str] = {
    "stats.file": "This is not a statistics file that can be read: {reason}. Nothing was changed",
    "stats.file.json": "it is not JSON text",
    "stats.file.size": "it is too large ({size} characters, at most {limit})",
    "stats.file.depth": "it is nested too deeply",
    "stats.file.type": "it is {kind}, not a JSON object",
    "stats.file.format": "it is not a Chkobba statistics file",
    "stats.file.version": "it is of a version this page does not know ({value})",
    "stats.file.key": 'it has an unknown key "{key}" in {where}',
    "stats.file.missing": "{where} has no {key}",
    "stats.file.value": "{where} has a wrong value ({value})",
    "stats.file.count": "it holds too many {what} ({count}, at most {limit})",
    "stats.file.totals": "{where} has totals that do not add up",
    "stats.file.twice": "{where} is there twice",
    "stats.where.file": "the file",
    "stats.where.file_field": "its {field}",
    "stats.where.group": "group {index}",
    "stats.where.group_field": "group {index} ({field})",
    "stats.where.match": "match {index}",
    "stats.where.match_field": "match {index} ({field})",
    "stats.not_over": "The match is not over: only finished matches count in the statistics",
    # labels of the statistics table
    "stats.game.chkobba": "Chkobba",
    "stats.game.seven_diamonds": "Seven Diamonds",
    "stats.players": "{players} players",
    "stats.capture.optional": "capture optional",
    "stats.capture.compulsory": "capture compulsory",
    "stats.target": "to {target}",
    "stats.match.1": "one game",
    "stats.match.3": "best of 3",
    "stats.match.5": "best of 5",
    "stats.calls.true": "with calls",
    "stats.calls.false": "no calls",
    "stats.level.easy": "Computer: easy",
    "stats.level.medium": "Computer: medium",
    "stats.level.hard": "Computer: hard",
    "stats.level.mixed": "Computers of several levels",
    "stats.level.none": "No computer (pass and play)",
}
M.register(STATS_MESSAGES)

Stats = dict[str, Any]


class StatsError(ChkobbaError):
    """A statistics file refused (``stats.file``), or a match that cannot count."""


def _bad(code: str, /, **params: Any) -> StatsError:
    return StatsError("stats.file", reason={"code": code, "params": params})


def _where(kind: str, index: int | None = None, field: str | None = None) -> dict[str, Any]:
    """Where in a file something is wrong, as a message (``field`` is a key of the file)."""
    params: dict[str, Any] = {}
    if index is not None:
        params["index"] = index
    if field is not None:
        params["field"] = field
    return {"code": f"stats.where.{kind}{'_field' if field else ''}", "params": params}


def empty() -> Stats:
    """No statistics yet."""
    return {"format": FORMAT, "version": VERSION, "groups": [], "matches": []}


# ---------------------------------------------------------------- a match

def match_id(record: dict[str, Any]) -> str:
    """The id of a finished match: made from its whole record, so the same
    match always has the same id and two matches (their shuffled decks
    differ) never share one."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:ID_CHARS]


def level_of(seats: list[dict[str, Any]]) -> str:
    """The computer level of a table: the computers' level, ``mixed`` when
    they differ, ``none`` with no computer (pass and play)."""
    levels = {str(s.get("level")) for s in seats if s.get("kind") == "computer"}
    if not levels:
        return "none"
    return levels.pop() if len(levels) == 1 else "mixed"


def variant_of(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The variant of a table: the options that make a player's numbers
    comparable (docs/stats.md)."""
    return {name: options[name] for name in VARIANTS[game]}


def match_entry(game: str, options: dict[str, Any], seats: list[dict[str, Any]], summary: dict[str, Any],
                side: int, record: dict[str, Any], at: int) -> tuple[dict[str, Any], list[Any]]:
    """The group and the ``[id, group, at, won, rounds, points, chkobbas]``
    row (group left 0) of a finished match, from the engine's summary (the
    replay output) and the player's ``side``."""
    if summary.get("winner") is None:
        raise StatsError("stats.not_over")
    rounds = summary["rounds"]
    points = sum(int(r["points"][side]) for r in rounds)
    chkobbas = sum(int(r.get("chkobba", [0, 0])[side]) for r in rounds) if registered(game).counts_sweeps else 0
    group = {"game": game, "variant": variant_of(game, options), "level": level_of(seats)}
    return group, [match_id(record), 0, int(at), summary["winner"] == side, len(rounds), points, chkobbas]


def add_match(stats: Stats, session: Any, seats: list[dict[str, Any]], at: int) -> Stats:
    """The statistics with a finished match (a :class:`~chkobba.session.Session`
    and its seats) added, seen from the first human seat's side. A match
    already counted changes nothing. Raises ``stats.not_over`` for a match
    in progress."""
    if not session.is_over:
        raise StatsError("stats.not_over")
    me = next((i for i, s in enumerate(seats) if s.get("kind") == "human"), 0)
    side = int(session.observation(me).side)
    record = session.record()
    group, row = match_entry(session.game, record["options"], seats, session.summary(), side, record, at)
    return add_row(stats, group, row)


def _group_key(group: dict[str, Any]) -> str:
    return json.dumps([group["game"], group["variant"], group["level"]], sort_keys=True)


def add_row(stats: Stats, group: dict[str, Any], row: list[Any]) -> Stats:
    """The statistics with one match row added to ``group`` (unchanged if
    its id is already there)."""
    if any(m[0] == row[0] for m in stats["matches"]):
        return stats
    groups = [dict(g) for g in stats["groups"]]
    keys = [_group_key(g) for g in groups]
    key = _group_key(group)
    if key in keys:
        index = keys.index(key)
    else:
        groups.append({"game": group["game"], "variant": dict(group["variant"]), "level": group["level"]})
        index = len(groups) - 1
    matches = [list(m) for m in stats["matches"]] + [[row[0], index] + list(row[2:])]
    return _fold({"format": FORMAT, "version": VERSION, "groups": groups, "matches": matches})


# ------------------------------------------------------------ folding, order

def _order(m: list[Any]) -> tuple[int, str]:
    return m[2], m[0]


def _run(start: int, best: int, wins: Iterable[bool]) -> tuple[int, int]:
    """(current winning streak, best streak) after ``wins``, from ``start``."""
    streak = start
    for won in wins:
        streak = streak + 1 if won else 0
        best = max(best, streak)
    return streak, best


def _fold(stats: Stats) -> Stats:
    """Past MAX_MATCHES rows, the oldest are folded into their group's
    ``earlier`` totals (ids forgotten; counts kept)."""
    matches = sorted(stats["matches"], key=_order)
    if len(matches) <= MAX_MATCHES:
        stats["matches"] = matches
        return stats
    old, keep = matches[:len(matches) - MAX_MATCHES], matches[len(matches) - MAX_MATCHES:]
    groups = stats["groups"]
    for m in old:
        g = groups[m[1]]
        e = dict(g.get("earlier") or dict.fromkeys(EARLIER, 0))
        e["matches"] += 1
        e["wins"] += int(m[3])
        e["rounds"] += m[4]
        e["points"] += m[5]
        e["chkobbas"] += m[6]
        e["streak"], e["best_streak"] = _run(e["streak"], e["best_streak"], [m[3]])
        g["earlier"] = e
    stats["matches"] = keep
    return stats


# ------------------------------------------------------------------ totals

def totals(stats: Stats) -> list[dict[str, Any]]:
    """One row per group: ``game``, ``variant``, ``level``, ``matches``,
    ``wins``, ``rounds``, ``points``, ``chkobbas``, ``best_streak``,
    ``streak`` (the winning streak now), ``avg_points`` (points per round,
    or None before any round). Ordered by game, then most played."""
    out = []
    by_group: dict[int, list[list[Any]]] = {}
    for m in stats["matches"]:          # in the order they ended
        by_group.setdefault(m[1], []).append(m)
    for i, g in enumerate(stats["groups"]):
        e = g.get("earlier") or dict.fromkeys(EARLIER, 0)
        rows = by_group.get(i, [])
        streak, best = _run(e["streak"], e["best_streak"], (bool(m[3]) for m in rows))
        t = {"game": g["game"], "variant": dict(g["variant"]), "level": g["level"],
             "matches": e["matches"] + len(rows), "wins": e["wins"] + sum(1 for m in rows if m[3]),
             "rounds": e["rounds"] + sum(m[4] for m in rows), "points": e["points"] + sum(m[5] for m in rows),
             "chkobbas": e["chkobbas"] + sum(m[6] for m in rows), "best_streak": best, "streak": streak}
        t["avg_points"] = round(t["points"] / t["rounds"], 2) if t["rounds"] else None
        if t["matches"]:
            out.append(t)
    games = list(VARIANTS)
    out.sort(key=lambda t: (games.index(t["game"]), -t["matches"], json.dumps(t["variant"], sort_keys=True),
                            LEVELS.index(t["level"])))
    return out


# ------------------------------------------------------------------ merge

def merge(a: Stats, b: Stats) -> Stats:
    """Both histories in one: every match of either counted once (by its id).
    Folded totals of a group cannot be told apart, so the larger is kept."""
    out: Stats = {"format": FORMAT, "version": VERSION, "groups": [dict(g) for g in a["groups"]],
                  "matches": [list(m) for m in a["matches"]]}
    keys = [_group_key(g) for g in out["groups"]]
    seen = {m[0] for m in out["matches"]}
    remap: dict[int, int] = {}
    for j, g in enumerate(b["groups"]):
        key = _group_key(g)
        if key in keys:
            i = keys.index(key)
            mine, theirs = out["groups"][i].get("earlier"), g.get("earlier")
            if theirs and (not mine or theirs["matches"] > mine["matches"]):
                out["groups"][i]["earlier"] = dict(theirs)
        else:
            out["groups"].append(dict(g))
            keys.append(key)
            i = len(keys) - 1
        remap[j] = i
    for m in b["matches"]:
        if m[0] not in seen:
            seen.add(m[0])
            out["matches"].append([m[0], remap[m[1]]] + list(m[2:]))
    if len(out["groups"]) > MAX_GROUPS:
        raise _bad("stats.file.count", what="groups", count=len(out["groups"]), limit=MAX_GROUPS)
    return _fold(out)


# ------------------------------------------------------------------ files

def to_file(stats: Stats) -> dict[str, Any]:
    """The statistics as the JSON object of a file (and of storage)."""
    groups = []
    for g in stats["groups"]:
        d = {"game": g["game"], "variant": dict(g["variant"]), "level": g["level"]}
        if g.get("earlier"):
            d["earlier"] = {k: g["earlier"][k] for k in EARLIER}
        groups.append(d)
    return {"format": FORMAT, "version": VERSION, "groups": groups, "matches": [list(m) for m in stats["matches"]]}


def to_text(stats: Stats) -> str:
    """A file's text."""
    return json.dumps(to_file(stats), separators=(",", ":"))


_kind = M.kind_of   # what a JSON value is, in words (chkobba.messages)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return '"' + M.quote(value, 40) + '"'
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else "a huge number"
    if isinstance(value, float):
        return M.quote(repr(value), 40)
    return _kind(value)


def _whole(value: Any, low: int, high: int, where: dict[str, Any]) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _bad("stats.file.value", where=where, value=_show(value))
    return value


def _keys(obj: Any, required: tuple[str, ...], optional: tuple[str, ...], where: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _bad("stats.file.value", where=where, value=_show(obj))
    for key in obj:
        if key not in required + optional:
            raise _bad("stats.file.key", key=M.quote(str(key), 40), where=where)
    for key in required:
        if key not in obj:
            raise _bad("stats.file.missing", key=key, where=where)
    return obj


def _depth_ok(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > limit:
                return False
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return True


_DEEP = re.compile(r"[\[{](?:\s*[\[{]){%d}" % MAX_DEPTH)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is not finite")
    return value


def from_text(text: Any) -> Stats:
    """A file's text read strictly (see :func:`from_file`)."""
    if not isinstance(text, str):
        raise _bad("stats.file.type", kind=_kind(text))
    if len(text) > MAX_TEXT:
        raise _bad("stats.file.size", size=len(text), limit=MAX_TEXT)
    if _DEEP.search(text):
        raise _bad("stats.file.depth")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise _bad("stats.file.depth") from None
    except ValueError:          # includes UnicodeDecodeError and bad numbers
        raise _bad("stats.file.json") from None
    return from_file(data)


def from_file(data: Any) -> Stats:
    """The statistics of a file's JSON object, read strictly: the format and
    version, no unknown key, every value of the right type and in range,
    group indexes that exist, ids that are unique. Raises :class:`StatsError`
    (``stats.file``) and nothing else."""
    try:
        return _from_file(data)
    except StatsError:
        raise
    except Exception:  # noqa: BLE001 - a hostile file gets the one plain error
        raise _bad("stats.file.format") from None


def _bad_match(m: Any, i: int, ids: set[str], groups: list[dict[str, Any]]) -> None:
    """Raise the refusal of match ``i`` (0-based) of a file, which is wrong."""
    where = _where("match", i + 1)
    if not isinstance(m, list) or len(m) != 7:
        raise _bad("stats.file.value", where=where, value=_show(m))
    mid, group, at, won, rounds, points, chkobbas = m
    if not isinstance(mid, str) or not ID.match(mid):
        raise _bad("stats.file.value", where=_where("match", i + 1, "id"), value=_show(mid))
    if mid in ids:
        raise _bad("stats.file.twice", where=_where("match", i + 1, "id"))
    _whole(group, 0, len(groups) - 1, _where("match", i + 1, "group"))
    _whole(at, 0, MAX_AT, _where("match", i + 1, "time"))
    if not isinstance(won, bool):
        raise _bad("stats.file.value", where=_where("match", i + 1, "won"), value=_show(won))
    _whole(rounds, 1, MAX_ROUNDS, _where("match", i + 1, "rounds"))
    _whole(points, 0, MAX_POINTS, _where("match", i + 1, "points"))
    most = MAX_ROUNDS * 40 if registered(groups[group]["game"]).counts_sweeps else 0
    _whole(chkobbas, 0, most, _where("match", i + 1, "chkobbas"))
    raise _bad("stats.file.value", where=where, value=_show(m))   # not reached: one check above failed


def _from_file(data: Any) -> Stats:
    if not isinstance(data, dict):
        raise _bad("stats.file.type", kind=_kind(data))
    if not _depth_ok(data, MAX_DEPTH):
        raise _bad("stats.file.depth")
    if data.get("format") != FORMAT:
        raise _bad("stats.file.format")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise _bad("stats.file.version", value=_show(version))
    _keys(data, ("format", "version", "groups", "matches"), (), _where("file"))
    groups_in, matches_in = data["groups"], data["matches"]
    if not isinstance(groups_in, list):
        raise _bad("stats.file.value", where=_where("file", field="groups"), value=_show(groups_in))
    if not isinstance(matches_in, list):
        raise _bad("stats.file.value", where=_where("file", field="matches"), value=_show(matches_in))
    if len(groups_in) > MAX_GROUPS:
        raise _bad("stats.file.count", what="groups", count=len(groups_in), limit=MAX_GROUPS)
    if len(matches_in) > MAX_MATCHES:
        raise _bad("stats.file.count", what="matches", count=len(matches_in), limit=MAX_MATCHES)
    groups = []
    keys: set[str] = set()
    for i, g in enumerate(groups_in):
        where = _where("group", i + 1)
        _keys(g, ("game", "variant", "level"), ("earlier",), where)
        game = g["game"]
        if not isinstance(game, str) or game not in VARIANTS:
            raise _bad("stats.file.value", where=_where("group", i + 1, "game"), value=_show(game))
        spec = VARIANTS[game]
        variant = _keys(g["variant"], tuple(spec), (), _where("group", i + 1, "variant"))
        for name, allowed in spec.items():
            v = variant[name]
            ok = (type(v) is int and v in allowed) if isinstance(allowed, range) else any(
                type(v) is type(a) and v == a for a in allowed)
            if not ok:
                raise _bad("stats.file.value", where=_where("group", i + 1, f"variant.{name}"), value=_show(v))
        level = g["level"]
        if not isinstance(level, str) or level not in LEVELS:
            raise _bad("stats.file.value", where=_where("group", i + 1, "level"), value=_show(level))
        out: dict[str, Any] = {"game": game, "variant": {k: variant[k] for k in spec}, "level": level}
        if "earlier" in g:
            e = _keys(g["earlier"], EARLIER, (), _where("group", i + 1, "earlier"))
            ea = {k: _whole(e[k], 0, MAX_TOTAL, _where("group", i + 1, f"earlier.{k}")) for k in EARLIER}
            out["earlier"] = ea
            if ea["wins"] > ea["matches"] or ea["streak"] > ea["best_streak"] or ea["best_streak"] > ea["wins"]:
                raise _bad("stats.file.totals", where=_where("group", i + 1, "earlier"))
        key = _group_key(out)
        if key in keys:
            raise _bad("stats.file.twice", where=where)
        keys.add(key)
        groups.append(out)
    matches = []
    ids: set[str] = set()
    last_group = len(groups) - 1
    for i, m in enumerate(matches_in):
        # the common case checked first, cheaply; the words of a refusal are made only then
        if type(m) is list and len(m) == 7:
            mid, group, at, won, rounds, points, chkobbas = m
            if (type(mid) is str and ID.match(mid) and mid not in ids and type(group) is int
                    and 0 <= group <= last_group and type(at) is int and 0 <= at <= MAX_AT
                    and type(won) is bool and type(rounds) is int and 1 <= rounds <= MAX_ROUNDS
                    and type(points) is int and 0 <= points <= MAX_POINTS and type(chkobbas) is int
                    and 0 <= chkobbas <= (MAX_ROUNDS * 40 if registered(groups[group]["game"]).counts_sweeps else 0)):
                ids.add(mid)
                matches.append([mid, group, at, won, rounds, points, chkobbas])
                continue
        _bad_match(m, i, ids, groups)
    return _fold({"format": FORMAT, "version": VERSION, "groups": groups, "matches": matches})


__all__ = ["FORMAT", "VERSION", "Stats", "StatsError", "empty", "add_match", "add_row", "match_entry",
           "match_id", "totals", "merge", "to_file", "to_text", "from_file", "from_text", "level_of",
           "variant_of", "MAX_MATCHES"]
