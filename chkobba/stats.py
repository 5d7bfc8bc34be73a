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
``earlier`` totals, so nothing is lost and the file stays small; a folded
match is still known by a short digest of its id (``earlier.ids``, at most
:data:`MAX_FOLDED` of them), so it is never counted again (version 2 of the
file; a file with nothing folded is written as version 1).

Version 3 adds two things, and is written only when a file holds one of
them: a match row may have an eighth field, ``takebacks`` (how many
take-backs the player made in that game, at least 1; a row without it had
none), so games with take-backs are counted apart; and the file may have a
``"daily"`` key, the daily deal's results (:mod:`chkobba.daily_results`,
``{"days": [[date, game, points, par points], ...]}``). Folded totals then
also count ``takeback_matches`` and ``takeback_wins``. Older files read as
having neither.

Version 4 adds the level ``online`` (a match played with friends on their
own phones, web/online/, seen from this phone's seat); it is written only
when a group has that level, and older files read as having none.

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

import base64
import functools
import hashlib
import json
import re
from typing import TYPE_CHECKING, Iterable, Literal, Mapping, NotRequired, Sequence, TypedDict

from . import messages as M
from . import strictjson
from .daily_results import Results
from .errors import StatsError
from .messages import Param
from .records import Summary, of_side
from .registry import Facts
from .registry import game as registered

if TYPE_CHECKING:
    from .session import Session

FORMAT = "chkobba-stats"
VERSION = 1                 # the version of a file with nothing folded
VERSIONS = (1, 2, 3, 4)     # 2: ``earlier`` also remembers the folded matches (ids, last, horizon)
#                             3: take-backs per match, the daily results (``daily``)
#                             4: the level "online" (friends on their own phones)
MAX_MATCHES = 5000          # kept one by one; older ones are folded into totals
MAX_FOLDED = 5000           # digests of folded matches remembered (all groups)
MAX_GROUPS = 500
MAX_TEXT = 700_000          # characters of a file's text (the fullest store is about 640,000)
MAX_DEPTH = 6               # nesting of a file (it needs 4)
MAX_AT = 2**53              # ms since 1970
MAX_ROUNDS = 100_000        # rounds of one match
MAX_POINTS = 10**9          # points of one match
MAX_TOTAL = 10**12          # any folded total
MAX_TAKEBACKS = 1_000_000   # take-backs of one game (chkobba/web/saves.py's limit)
LEVELS = ("easy", "medium", "hard", "mixed", "none", "online")
ONLINE = "online"           # the level of a match played online (version 4)
ID = re.compile(r"[0-9a-f]{24}\Z")
ID_CHARS = 24

# The table options that make a variant, per game, with their allowed values
# (a range: a whole number in it): each game's ``stats_variant``.
VARIANTS: Mapping[str, Mapping[str, tuple[int | str, ...] | range]] = Facts(lambda g: g.stats_variant)
Count = Literal["matches", "wins", "rounds", "points", "chkobbas", "best_streak", "streak",
                "takeback_matches", "takeback_wins"]
EARLIER: tuple[Count, ...] = ("matches", "wins", "rounds", "points", "chkobbas", "best_streak", "streak")
# version 2: ``last`` the latest time of a folded match; ``horizon`` the time
# up to which folded matches may have been forgotten (0: none); ``ids`` the
# digests of the folded matches remembered, DIGEST characters each
FOLDED: tuple[Literal["last", "horizon", "ids"], ...] = ("last", "horizon", "ids")
# version 3: the folded games with take-backs, and how many of them were won
TAKEBACK_EARLIER: tuple[Count, ...] = ("takeback_matches", "takeback_wins")
SUMMED: tuple[Count, ...] = ("matches", "wins", "rounds", "points", "chkobbas") + TAKEBACK_EARLIER   # by a merge
DIGEST = 8
DIGEST_CHARS = re.compile(r"(?:[A-Za-z0-9_-]{%d})*\Z" % DIGEST)

STATS_MESSAGES: dict[str, str] = {
    "stats.file": "This is not a statistics file that can be read: {reason}. Nothing was changed",
    "stats.file.json": "it is not JSON text",
    "stats.full": "The statistics already hold {limit} kinds of table: this match is not counted",
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
    "stats.level.online": "Online, with friends on their phones",
}
M.register(STATS_MESSAGES)

# A variant's option values (``true`` and 1 differ: bool is kept as bool).
Variant = dict[str, int | str]
# A match row: [id, group, at, won, rounds, points, chkobbas(, takebacks)]
# (id a str, won a bool, the rest whole numbers).
MatchRow = list[str | int]


class Counts(TypedDict):
    """A group's counts, as folded (:class:`Earlier`) and as shown (:class:`Total`)."""
    matches: int
    wins: int
    rounds: int
    points: int
    chkobbas: int
    best_streak: int
    streak: int
    takeback_matches: int
    takeback_wins: int


class Earlier(Counts):
    """A group's folded totals (all of them once read: a version 1 file's
    ``last`` and ``horizon`` are made up, its take-back totals are 0)."""
    last: int
    horizon: int
    ids: str


class Group(TypedDict):
    game: str
    variant: Variant
    level: str
    earlier: NotRequired[Earlier]


class Stats(TypedDict):
    """The statistics as kept (:func:`to_file` makes the JSON of a file)."""
    format: str
    version: int
    groups: list[Group]
    matches: list[MatchRow]
    daily: NotRequired[Results]


class FileGroup(TypedDict):
    """A group as a file writes it (``earlier`` with the fields of the file's version)."""
    game: str
    variant: Variant
    level: str
    earlier: NotRequired[dict[str, int | str]]


class StatsFile(TypedDict):
    """The JSON object of a file (and of storage): :func:`to_file`."""
    format: str
    version: int
    groups: list[FileGroup]
    matches: list[MatchRow]
    daily: NotRequired[Results]


class Total(Counts):
    """One row of :func:`totals`."""
    game: str
    variant: Variant
    level: str
    avg_points: float | None


GroupKey = tuple[str, tuple[tuple[str, str, int | str], ...], str]


def _mid(m: MatchRow) -> str:
    """A row's id (rows are checked where they come in: :func:`from_file`, :func:`match_entry`)."""
    v = m[0]
    if not isinstance(v, str):
        raise TypeError(f"a match row's id is not a text: {v!r}")
    return v


def _num(m: MatchRow, i: int) -> int:
    """A row's whole number (or bool, ``won``) field ``i``."""
    v = m[i]
    if not isinstance(v, int):
        raise TypeError(f"a match row's field {i} is not a number: {v!r}")
    return v


def _bad(code: str, /, **params: Param) -> StatsError:
    return StatsError("stats.file", reason={"code": code, "params": params})


def _where(kind: str, index: int | None = None, field: str | None = None) -> dict[str, Param]:
    """Where in a file something is wrong, as a message (``field`` is a key of the file)."""
    params: dict[str, Param] = {}
    if index is not None:
        params["index"] = index
    if field is not None:
        params["field"] = field
    return {"code": f"stats.where.{kind}{'_field' if field else ''}", "params": params}


def _daily_empty() -> Results:
    return {"days": []}


def empty() -> Stats:
    """No statistics yet."""
    return {"format": FORMAT, "version": VERSION, "groups": [], "matches": [], "daily": _daily_empty()}


def daily_of(stats: Stats) -> Results:
    """The daily results kept in the statistics (:mod:`chkobba.daily_results`)."""
    return stats.get("daily") or _daily_empty()


def with_daily(stats: Stats, results: Results) -> Stats:
    """The statistics with their daily results replaced (a new object)."""
    return {**stats, "daily": {"days": [list(r) for r in results["days"]]}}


def add_daily(stats: Stats, result: Mapping[str, object]) -> Stats:
    """The statistics with one daily round's result added
    (:func:`chkobba.daily_results.add`: the first result of a deal counts)."""
    from . import daily_results
    return with_daily(stats, daily_results.add(daily_of(stats), dict(result)))


@functools.lru_cache(maxsize=2 * MAX_MATCHES + 1000)
def digest(mid: str) -> str:
    """The short digest a folded match is remembered by: 48 bits of the
    SHA-256 of its id, in 8 URL-safe characters (a new match looks folded
    already with odds of about 1 in 5 * 10^10 against the digests kept)."""
    return base64.urlsafe_b64encode(hashlib.sha256(mid.encode()).digest()[:6]).decode()


def _digests(e: Earlier | None) -> list[str]:
    ids = e["ids"] if e else ""
    return [ids[i:i + DIGEST] for i in range(0, len(ids), DIGEST)]


def folded_ids(stats: Stats) -> set[str]:
    """The digests of every folded match remembered, all groups."""
    out: set[str] = set()
    for g in stats["groups"]:
        out.update(_digests(g.get("earlier")))
    return out


def counts(stats: Stats, mid: str, group: Group | None = None, at: int | None = None) -> bool:
    """Whether a match id is counted in ``stats`` already, or cannot be
    told apart from one that is: kept, folded and remembered, or (given its
    ``group`` and time ``at``) older than what that group still remembers."""
    if any(m[0] == mid for m in stats["matches"]) or digest(mid) in folded_ids(stats):
        return True
    if group is not None and at is not None:
        key = _group_key(group)
        for g in stats["groups"]:
            e = g.get("earlier")
            if e and _group_key(g) == key and at <= e["horizon"]:
                return True
    return False


# ---------------------------------------------------------------- a match

def match_id(record: Mapping[str, object]) -> str:
    """The id of a finished match: made from its whole record, so the same
    match always has the same id and two matches (their shuffled decks
    differ) never share one."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:ID_CHARS]


def level_of(seats: Sequence[Mapping[str, object]]) -> str:
    """The computer level of a table: the computers' level, ``mixed`` when
    they differ, ``none`` with no computer (pass and play)."""
    levels = {str(s.get("level")) for s in seats if s.get("kind") == "computer"}
    if not levels:
        return "none"
    return levels.pop() if len(levels) == 1 else "mixed"


def variant_of(game: str, options: Mapping[str, object]) -> Variant:
    """The variant of a table: the options that make a player's numbers
    comparable (docs/stats.md)."""
    out: Variant = {}
    for name in VARIANTS[game]:
        value = options[name]
        if not isinstance(value, (int, str)):
            raise TypeError(f"the table option {name} is not a number or a text: {value!r}")
        out[name] = value
    return out


def match_entry(game: str, options: Mapping[str, object], seats: Sequence[Mapping[str, object]],
                summary: Summary, side: int, record: Mapping[str, object], at: int, takebacks: int = 0,
                level: str | None = None) -> tuple[Group, MatchRow]:
    """The group and the ``[id, group, at, won, rounds, points, chkobbas]``
    row (group left 0) of a finished match, from the engine's summary (the
    replay output) and the player's ``side``; with ``takebacks`` (more than
    0) an eighth field counts the take-backs made in it; ``level`` (else
    the seats' :func:`level_of`) names the group's level."""
    if summary.get("winner") is None:
        raise StatsError("stats.not_over")
    rounds = summary["rounds"]
    points = sum(of_side(r["points"], side) for r in rounds)
    chkobbas = sum(of_side(r.get("chkobba", [0, 0]), side) for r in rounds) if registered(game).counts_sweeps else 0
    group: Group = {"game": game, "variant": variant_of(game, options), "level": level or level_of(seats)}
    row: MatchRow = [match_id(record), 0, int(at), summary["winner"] == side, len(rounds), points, chkobbas]
    if takebacks:
        row.append(min(int(takebacks), MAX_TAKEBACKS))
    return group, row


def add_match(stats: Stats, session: Session, seats: Sequence[Mapping[str, object]], at: int,
              takebacks: int = 0) -> Stats:
    """The statistics with a finished match (a :class:`~chkobba.session.Session`
    and its seats) added, seen from the first human seat's side, with the
    number of take-backs the player made in it. A match
    already counted changes nothing. Raises ``stats.not_over`` for a match
    in progress."""
    if not session.is_over:
        raise StatsError("stats.not_over")
    me = next((i for i, s in enumerate(seats) if s.get("kind") == "human"), 0)
    side = int(session.observation(me).side)
    record = session.record_data()
    group, row = match_entry(session.game, record["options"], seats, session.summary(), side, record, at, takebacks)
    return add_row(stats, group, row)


def add_online(stats: Stats, record: Mapping[str, object], seat: int, at: int) -> Stats:
    """The statistics with a finished online match added (level ``online``),
    seen from ``seat``'s side: ``record`` is the match as this phone knows
    it (the host's session, or every round a friend's phone audited), read
    and replayed strictly. Its id is its record's, as at the table, so the
    same match added again changes nothing. Raises ``stats.not_over`` for a
    match in progress, the record's own refusal for one that does not replay."""
    from .session import Session
    session = Session.from_record(record)
    if not session.is_over:
        raise StatsError("stats.not_over")
    side = int(session.observation(seat).side)
    rec = session.record_data()
    group, row = match_entry(session.game, rec["options"], [], session.summary(), side, rec, at, level=ONLINE)
    return add_row(stats, group, row)


def _group_key(group: Group) -> GroupKey:
    """What tells groups apart: the game, the variant and the level (the
    values' types too: ``true`` is not 1)."""
    return (group["game"], tuple(sorted((k, type(v).__name__, v) for k, v in group["variant"].items())),
            group["level"])


def add_row(stats: Stats, group: Group, row: MatchRow) -> Stats:
    """The statistics with one match row added to ``group``: the very same
    object, unchanged, if the match is counted already (:func:`counts`:
    kept, or folded and remembered, or older than what its group still
    remembers). Raises ``stats.full`` for a new group past MAX_GROUPS."""
    if counts(stats, _mid(row), group, _num(row, 2)):
        return stats
    groups = [g.copy() for g in stats["groups"]]
    keys = [_group_key(g) for g in groups]
    key = _group_key(group)
    if key in keys:
        index = keys.index(key)
    else:
        if len(groups) >= MAX_GROUPS:
            raise StatsError("stats.full", limit=MAX_GROUPS)
        groups.append({"game": group["game"], "variant": dict(group["variant"]), "level": group["level"]})
        index = len(groups) - 1
    matches = [list(m) for m in stats["matches"]] + [[row[0], index] + list(row[2:])]
    return _fold({"format": FORMAT, "version": VERSION, "groups": groups, "matches": matches,
                  "daily": daily_of(stats)})


# ------------------------------------------------------------ folding, order

def _order(m: MatchRow) -> tuple[int, str]:
    return _num(m, 2), _mid(m)


def _run(start: int, best: int, wins: Iterable[bool]) -> tuple[int, int]:
    """(current winning streak, best streak) after ``wins``, from ``start``."""
    streak = start
    for won in wins:
        streak = streak + 1 if won else 0
        best = max(best, streak)
    return streak, best


def _new_earlier() -> Earlier:
    return {"matches": 0, "wins": 0, "rounds": 0, "points": 0, "chkobbas": 0, "best_streak": 0, "streak": 0,
            "takeback_matches": 0, "takeback_wins": 0, "last": 0, "horizon": 0, "ids": ""}


def _takebacks(m: MatchRow) -> int:
    """The take-backs of a match row (0 for a row of 7 fields)."""
    return _num(m, 7) if len(m) > 7 else 0


def _fold(stats: Stats) -> Stats:
    """Past MAX_MATCHES rows, the oldest are folded into their group's
    ``earlier`` totals (each total saturates at MAX_TOTAL, so a store that
    was read stays readable); their ids are remembered as digests, the
    oldest digests forgotten past MAX_FOLDED (the group's ``horizon`` then
    says up to when matches can no longer be told apart)."""
    matches = sorted(stats["matches"], key=_order)
    if len(matches) > MAX_MATCHES:
        old, matches = matches[:len(matches) - MAX_MATCHES], matches[len(matches) - MAX_MATCHES:]
        groups = stats["groups"]
        for m in old:
            g = groups[_num(m, 1)]
            e = (g.get("earlier") or _new_earlier()).copy()
            won = int(_num(m, 3))
            tb = 1 if _takebacks(m) else 0
            added: tuple[tuple[Count, int], ...] = (
                ("matches", 1), ("wins", won), ("rounds", _num(m, 4)), ("points", _num(m, 5)),
                ("chkobbas", _num(m, 6)), ("takeback_matches", tb), ("takeback_wins", tb * won))
            for k, v in added:
                e[k] = min(e[k] + v, MAX_TOTAL)
            streak, best = _run(e["streak"], e["best_streak"], [bool(won)])
            e["streak"], e["best_streak"] = min(streak, MAX_TOTAL), min(best, MAX_TOTAL)
            e["last"] = max(e["last"], _num(m, 2))
            e["ids"] += digest(_mid(m))
            g["earlier"] = e
    stats["matches"] = matches
    _forget(stats)
    return stats


def _forget(stats: Stats) -> None:
    """At most MAX_FOLDED digests: the oldest folded of the groups that hold
    the most are forgotten first, and their group's horizon moves to the
    latest folded match of that group."""
    held = [len(e["ids"]) // DIGEST if (e := g.get("earlier")) else 0 for g in stats["groups"]]
    excess = sum(held) - MAX_FOLDED
    while excess > 0:
        i = max(range(len(held)), key=lambda j: held[j])
        drop = min(excess, held[i])
        group = stats["groups"][i]
        if "earlier" not in group:
            raise TypeError("a group holding folded matches has no folded totals")
        e = group["earlier"].copy()
        e["ids"] = e["ids"][drop * DIGEST:]
        e["horizon"] = e["last"]
        group["earlier"] = e
        held[i] -= drop
        excess -= drop


# ------------------------------------------------------------------ totals

def totals(stats: Stats) -> list[Total]:
    """One row per group: ``game``, ``variant``, ``level``, ``matches``,
    ``wins``, ``rounds``, ``points``, ``chkobbas``, ``best_streak``,
    ``streak`` (the winning streak now), ``avg_points`` (points per round,
    or None before any round), ``takeback_matches`` and ``takeback_wins``
    (the games with take-backs among ``matches`` and ``wins``). Ordered by
    game, then most played."""
    out = []
    by_group: dict[int, list[MatchRow]] = {}
    for m in stats["matches"]:          # in the order they ended
        by_group.setdefault(_num(m, 1), []).append(m)
    for i, g in enumerate(stats["groups"]):
        e = g.get("earlier") or _new_earlier()
        rows = by_group.get(i, [])
        streak, best = _run(e["streak"], e["best_streak"], (bool(m[3]) for m in rows))
        t: Total = {
            "game": g["game"], "variant": dict(g["variant"]), "level": g["level"],
            "matches": e["matches"] + len(rows), "wins": e["wins"] + sum(1 for m in rows if m[3]),
            "rounds": e["rounds"] + sum(_num(m, 4) for m in rows),
            "points": e["points"] + sum(_num(m, 5) for m in rows),
            "chkobbas": e["chkobbas"] + sum(_num(m, 6) for m in rows), "best_streak": best, "streak": streak,
            "takeback_matches": e["takeback_matches"] + sum(1 for m in rows if _takebacks(m)),
            "takeback_wins": e["takeback_wins"] + sum(1 for m in rows if _takebacks(m) and m[3]),
            "avg_points": None}
        t["avg_points"] = round(t["points"] / t["rounds"], 2) if t["rounds"] else None
        if t["matches"]:
            out.append(t)
    games = list(VARIANTS)
    out.sort(key=lambda t: (games.index(t["game"]), -t["matches"], json.dumps(t["variant"], sort_keys=True),
                            LEVELS.index(t["level"])))
    return out


# ------------------------------------------------------------------ merge

def _moved(e: Earlier, last: int, horizon: int) -> Earlier:
    """Folded totals with their ``last`` and ``horizon`` replaced (a new object)."""
    out = e.copy()
    out["last"], out["horizon"] = last, horizon
    return out


def _merge_earlier(mine: Earlier | None, theirs: Earlier | None) -> tuple[Earlier | None, str]:
    """The folded totals of one group on both sides, as one: ``(earlier,
    side)``, side ``a``, ``b`` or ``both`` (summed). Folded matches cannot
    be told apart one by one, so: when one side's remembered matches hold
    the other's, that side's totals; when they share none and neither has
    forgotten any, the sum; otherwise the side with more matches (a count
    may then come out short, never double)."""
    if not theirs:
        return mine, "a"
    if not mine:
        return theirs.copy(), "b"
    fa, fb = set(_digests(mine)), set(_digests(theirs))
    last, horizon = max(mine["last"], theirs["last"]), max(mine["horizon"], theirs["horizon"])
    if fb <= fa and theirs["horizon"] <= mine["horizon"]:
        return _moved(mine, last, horizon), "a"
    if fa <= fb and mine["horizon"] <= theirs["horizon"]:
        return _moved(theirs, last, horizon), "b"
    if not fa & fb and not mine["horizon"] and not theirs["horizon"]:
        later = mine if mine["last"] >= theirs["last"] else theirs
        out = _new_earlier()
        for k in SUMMED:
            out[k] = min(mine[k] + theirs[k], MAX_TOTAL)
        out["best_streak"] = max(mine["best_streak"], theirs["best_streak"])
        out["streak"] = later["streak"]
        out["last"], out["horizon"], out["ids"] = last, 0, mine["ids"] + theirs["ids"]
        return out, "both"
    if theirs["matches"] > mine["matches"]:
        return _moved(theirs, last, horizon), "b"
    return _moved(mine, last, horizon), "a"


def merge(a: Stats, b: Stats) -> Stats:
    """Both histories in one: every match of either counted once (by its id,
    kept or folded and remembered). See :func:`_merge_earlier` for the
    totals of matches both sides folded. The daily results are merged by
    :func:`chkobba.daily_results.merge`."""
    return merge_count(a, b)[0]


def merge_count(a: Stats, b: Stats) -> tuple[Stats, int]:
    """:func:`merge`, and how many matches of ``b`` are counted now that
    were not counted in ``a`` (what an import says it added)."""
    from . import daily_results
    out: Stats = {"format": FORMAT, "version": VERSION, "groups": [g.copy() for g in a["groups"]],
                  "matches": [], "daily": daily_results.merge(daily_of(a), daily_of(b))}
    keys = [_group_key(g) for g in out["groups"]]
    side = ["a"] * len(keys)
    remap: dict[int, int] = {}
    for j, g in enumerate(b["groups"]):
        key = _group_key(g)
        if key in keys:
            i = keys.index(key)
            earlier, side[i] = _merge_earlier(out["groups"][i].get("earlier"), g.get("earlier"))
            if earlier:
                out["groups"][i]["earlier"] = earlier
        else:
            out["groups"].append(g.copy())
            keys.append(key)
            side.append("b")
            i = len(keys) - 1
        remap[j] = i
    if len(out["groups"]) > MAX_GROUPS:
        raise _bad("stats.file.count", what="groups", count=len(out["groups"]), limit=MAX_GROUPS)
    folded = folded_ids(out)
    before = {_mid(m) for m in a["matches"]} | folded_ids(a)
    seen: set[str] = set()
    added = 0
    for who, rows, index in (("a", a["matches"], None), ("b", b["matches"], remap)):
        for m in rows:
            mid = _mid(m)
            group = _num(m, 1) if index is None else index[_num(m, 1)]
            e = out["groups"][group].get("earlier")
            if mid in seen or digest(mid) in folded:
                continue                # kept on both sides, or in the folded totals
            if e and _num(m, 2) <= e["horizon"] and side[group] not in (who, "both"):
                continue                # as old as what the totals may have forgotten
            seen.add(mid)
            row: MatchRow = [mid, group]
            out["matches"].append(row + m[2:])
    merged = _fold(out)
    now = {_mid(m) for m in merged["matches"]}
    now_folded = folded_ids(merged)
    added = sum(1 for m in b["matches"] if _mid(m) not in before and digest(_mid(m)) not in before
                and (_mid(m) in now or digest(_mid(m)) in now_folded))
    return merged, added


# ------------------------------------------------------------------ files

def to_file(stats: Stats) -> StatsFile:
    """The statistics as the JSON object of a file (and of storage): version
    1 when nothing is folded (older pages read it), version 2 when some
    matches are folded, version 3 when it holds daily results or games with
    take-backs (then ``daily`` is written), version 4 when a group is
    of the level ``online``."""
    days = daily_of(stats)["days"]
    v4 = any(g["level"] == ONLINE for g in stats["groups"])
    v3 = v4 or bool(days) or any(len(m) > 7 for m in stats["matches"]) or any(
        e[k] for g in stats["groups"] if (e := g.get("earlier")) for k in TAKEBACK_EARLIER)
    groups = []
    for g in stats["groups"]:
        d: FileGroup = {"game": g["game"], "variant": dict(g["variant"]), "level": g["level"]}
        if "earlier" in g:
            fields = EARLIER + FOLDED + (TAKEBACK_EARLIER if v3 else ())
            e = g["earlier"]
            d["earlier"] = {k: e[k] for k in fields}
        groups.append(d)
    version = 4 if v4 else 3 if v3 else 2 if any("earlier" in g for g in groups) else 1
    out: StatsFile = {"format": FORMAT, "version": version, "groups": groups,
                      "matches": [list(m) for m in stats["matches"]]}
    if v3:
        out["daily"] = {"days": [list(r) for r in days]}
    return out


def to_text(stats: Stats) -> str:
    """A file's text."""
    return json.dumps(to_file(stats), separators=(",", ":"))


_kind = M.kind_of   # what a JSON value is, in words (chkobba.messages)


def _show(value: object) -> str:
    if isinstance(value, str):
        return '"' + M.quote(value, 40) + '"'
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else "a huge number"
    if isinstance(value, float):
        return M.quote(repr(value), 40)
    return _kind(value)


def _whole(value: object, low: int, high: int, where: dict[str, Param]) -> int:
    if type(value) is not int or not low <= value <= high:
        raise _bad("stats.file.value", where=where, value=_show(value))
    return value


def _keys(obj: object, required: tuple[str, ...], optional: tuple[str, ...],
          where: dict[str, Param]) -> dict[str, object]:
    if not isinstance(obj, dict):
        raise _bad("stats.file.value", where=where, value=_show(obj))
    for key in obj:
        if key not in required + optional:
            raise _bad("stats.file.key", key=M.quote(str(key), 40), where=where)
    for key in required:
        if key not in obj:
            raise _bad("stats.file.missing", key=key, where=where)
    return obj


def _depth_ok(value: object, limit: int) -> bool:
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > limit:
                return False
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return True


def from_text(text: object) -> Stats:
    """A file's text read strictly (:mod:`chkobba.strictjson`, then
    :func:`from_file`)."""
    if not isinstance(text, str):
        raise _bad("stats.file.type", kind=_kind(text))
    try:
        data = strictjson.loads(text, max_chars=MAX_TEXT, max_depth=MAX_DEPTH)
    except strictjson.JsonError as e:
        if e.code == "json.too_large":
            raise _bad("stats.file.size", size=len(text), limit=MAX_TEXT) from None
        if e.code == "json.too_deep":
            raise _bad("stats.file.depth") from None
        if e.code == "json.syntax":
            raise _bad("stats.file.json") from None
        # a key twice, NaN, a number of thousands of digits: the reader's own words
        raise StatsError("stats.file", reason=strictjson.message_of(e)) from None
    return from_file(data, _measured=True)


def from_file(data: object, _measured: bool = False) -> Stats:
    """The statistics of a file's JSON object, read strictly: the format and
    version, no unknown key, every value of the right type and in range,
    group indexes that exist, ids that are unique. Raises :class:`StatsError`
    (``stats.file``) and nothing else."""
    try:
        return _from_file(data, _measured)
    except StatsError:
        raise
    except Exception:  # noqa: BLE001 - a hostile file gets the one plain error
        raise _bad("stats.file.format") from None


def _bad_match(m: object, i: int, ids: set[str], groups: list[Group], version: int) -> None:
    """Raise the refusal of match ``i`` (0-based) of a file, which is wrong."""
    where = _where("match", i + 1)
    if not isinstance(m, list) or len(m) not in ((7, 8) if version >= 3 else (7,)):
        raise _bad("stats.file.value", where=where, value=_show(m))
    mid, group, at, won, rounds, points, chkobbas = m[:7]
    if len(m) == 8:
        _whole(m[7], 1, MAX_TAKEBACKS, _where("match", i + 1, "takebacks"))
    if not isinstance(mid, str) or not ID.match(mid):
        raise _bad("stats.file.value", where=_where("match", i + 1, "id"), value=_show(mid))
    if mid in ids:
        raise _bad("stats.file.twice", where=_where("match", i + 1, "id"))
    index = _whole(group, 0, len(groups) - 1, _where("match", i + 1, "group"))
    _whole(at, 0, MAX_AT, _where("match", i + 1, "time"))
    if not isinstance(won, bool):
        raise _bad("stats.file.value", where=_where("match", i + 1, "won"), value=_show(won))
    _whole(rounds, 1, MAX_ROUNDS, _where("match", i + 1, "rounds"))
    _whole(points, 0, MAX_POINTS, _where("match", i + 1, "points"))
    most = MAX_ROUNDS * 40 if registered(groups[index]["game"]).counts_sweeps else 0
    _whole(chkobbas, 0, most, _where("match", i + 1, "chkobbas"))
    raise _bad("stats.file.value", where=where, value=_show(m))   # not reached: one check above failed


def _variant(value: object, game: str, i: int) -> Variant:
    """Group ``i``'s (0-based) variant of ``game``, read strictly."""
    spec = VARIANTS[game]
    variant = _keys(value, tuple(spec), (), _where("group", i + 1, "variant"))
    out: Variant = {}
    for name, allowed in spec.items():
        v = variant[name]
        if isinstance(allowed, range):
            ok = type(v) is int and v in allowed
        else:
            ok = any(type(v) is type(a) and v == a for a in allowed)
        if not ok or not isinstance(v, (int, str)):
            raise _bad("stats.file.value", where=_where("group", i + 1, f"variant.{name}"), value=_show(v))
        out[name] = v
    return out


def _earlier(value: object, i: int, version: int) -> Earlier:
    """Group ``i``'s (0-based) folded totals, read strictly (a version 1
    file's ``last`` and ``horizon`` are -1 here: see :func:`_from_file`)."""
    fields = EARLIER + (FOLDED if version >= 2 else ()) + (TAKEBACK_EARLIER if version >= 3 else ())
    e = _keys(value, fields, (), _where("group", i + 1, "earlier"))
    n = {k: _whole(e[k], 0, MAX_TOTAL, _where("group", i + 1, f"earlier.{k}")) for k in EARLIER}
    if n["wins"] > n["matches"] or n["streak"] > n["best_streak"] or n["best_streak"] > n["wins"]:
        raise _bad("stats.file.totals", where=_where("group", i + 1, "earlier"))
    for k in TAKEBACK_EARLIER:
        n[k] = _whole(e[k], 0, MAX_TOTAL, _where("group", i + 1, f"earlier.{k}")) if version >= 3 else 0
    if n["takeback_matches"] > n["matches"] or n["takeback_wins"] > min(n["takeback_matches"], n["wins"]):
        raise _bad("stats.file.totals", where=_where("group", i + 1, "earlier"))
    if version >= 2:
        last = _whole(e["last"], 0, MAX_AT, _where("group", i + 1, "earlier.last"))
        horizon = _whole(e["horizon"], 0, last, _where("group", i + 1, "earlier.horizon"))
        digests = e["ids"]
        if (not isinstance(digests, str) or not DIGEST_CHARS.match(digests)
                or len(digests) > MAX_FOLDED * DIGEST):
            raise _bad("stats.file.value", where=_where("group", i + 1, "earlier.ids"), value=_show(digests))
        if len(digests) // DIGEST > n["matches"]:
            raise _bad("stats.file.totals", where=_where("group", i + 1, "earlier"))
    else:               # version 1: which matches were folded is not known
        last, horizon, digests = -1, -1, ""
    return {"matches": n["matches"], "wins": n["wins"], "rounds": n["rounds"], "points": n["points"],
            "chkobbas": n["chkobbas"], "best_streak": n["best_streak"], "streak": n["streak"],
            "takeback_matches": n["takeback_matches"], "takeback_wins": n["takeback_wins"],
            "last": last, "horizon": horizon, "ids": digests}


def _from_file(data: object, measured: bool = False) -> Stats:
    if not isinstance(data, dict):
        raise _bad("stats.file.type", kind=_kind(data))
    if not measured and not _depth_ok(data, MAX_DEPTH):     # an object handed in, not read from text
        raise _bad("stats.file.depth")
    if data.get("format") != FORMAT:
        raise _bad("stats.file.format")
    version = data.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise _bad("stats.file.version", value=_show(version))
    _keys(data, ("format", "version", "groups", "matches"), ("daily",) if version >= 3 else (), _where("file"))
    groups_in, matches_in = data["groups"], data["matches"]
    if not isinstance(groups_in, list):
        raise _bad("stats.file.value", where=_where("file", field="groups"), value=_show(groups_in))
    if not isinstance(matches_in, list):
        raise _bad("stats.file.value", where=_where("file", field="matches"), value=_show(matches_in))
    if len(groups_in) > MAX_GROUPS:
        raise _bad("stats.file.count", what="groups", count=len(groups_in), limit=MAX_GROUPS)
    if len(matches_in) > MAX_MATCHES:
        raise _bad("stats.file.count", what="matches", count=len(matches_in), limit=MAX_MATCHES)
    groups: list[Group] = []
    keys: set[GroupKey] = set()
    for i, g_in in enumerate(groups_in):
        where = _where("group", i + 1)
        g = _keys(g_in, ("game", "variant", "level"), ("earlier",), where)
        game = g["game"]
        if not isinstance(game, str) or game not in VARIANTS:
            raise _bad("stats.file.value", where=_where("group", i + 1, "game"), value=_show(game))
        variant = _variant(g["variant"], game, i)
        level = g["level"]
        if not isinstance(level, str) or level not in LEVELS or (level == ONLINE and version < 4):
            raise _bad("stats.file.value", where=_where("group", i + 1, "level"), value=_show(level))
        out: Group = {"game": game, "variant": variant, "level": level}
        if "earlier" in g:
            out["earlier"] = _earlier(g["earlier"], i, version)
        key = _group_key(out)
        if key in keys:
            raise _bad("stats.file.twice", where=where)
        keys.add(key)
        groups.append(out)
    matches: list[MatchRow] = []
    ids: set[str] = set()
    last_group = len(groups) - 1
    sizes = (7, 8) if version >= 3 else (7,)
    for i, m in enumerate(matches_in):
        # the common case checked first, cheaply; the words of a refusal are made only then
        if type(m) is list and len(m) in sizes:
            mid, group, at, won, rounds, points, chkobbas = m[:7]
            tb = m[7] if len(m) == 8 else 1
            if (type(mid) is str and ID.match(mid) and mid not in ids and type(group) is int
                    and 0 <= group <= last_group and type(at) is int and 0 <= at <= MAX_AT
                    and type(won) is bool and type(rounds) is int and 1 <= rounds <= MAX_ROUNDS
                    and type(points) is int and 0 <= points <= MAX_POINTS and type(chkobbas) is int
                    and 0 <= chkobbas <= (MAX_ROUNDS * 40 if registered(groups[group]["game"]).counts_sweeps else 0)
                    and type(tb) is int and 1 <= tb <= MAX_TAKEBACKS):
                ids.add(mid)
                row: MatchRow = [mid, group, at, won, rounds, points, chkobbas]
                if len(m) == 8:
                    row.append(tb)
                matches.append(row)
                continue
        _bad_match(m, i, ids, groups, version)
    folded: set[str] = set()
    for i, group_out in enumerate(groups):
        folds = group_out.get("earlier")
        if folds and folds["horizon"] == -1:
            # a version 1 file: its folded matches all ended before its kept ones
            folds["last"] = folds["horizon"] = min((_num(m, 2) for m in matches), default=0)
        for d in _digests(folds):
            if d in folded:
                raise _bad("stats.file.twice", where=_where("group", i + 1, "earlier.ids"))
            folded.add(d)
    if len(folded) > MAX_FOLDED:
        raise _bad("stats.file.count", what="folded matches", count=len(folded), limit=MAX_FOLDED)
    for i, m_out in enumerate(matches):
        if digest(_mid(m_out)) in folded:
            raise _bad("stats.file.twice", where=_where("match", i + 1, "id"))
    days = _daily_empty()
    if "daily" in data:
        from . import daily_results
        days = daily_results.from_file(data["daily"])
    return _fold({"format": FORMAT, "version": VERSION, "groups": groups, "matches": matches, "daily": days})


__all__ = ["FORMAT", "VERSION", "Stats", "StatsFile", "StatsError", "empty", "add_match", "add_row", "match_entry",
           "match_id", "add_online", "ONLINE", "totals", "merge", "merge_count", "counts", "digest", "to_file",
           "to_text", "from_file", "from_text", "level_of", "variant_of", "MAX_MATCHES", "daily_of", "with_daily",
           "add_daily"]
