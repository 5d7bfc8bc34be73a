"""Challenge links and result links: a friend plays the same cards and sees both results.

Two link kinds, written like the game links of :mod:`chkobba.links.codec`
(a versioned prefix, base64url of a bit stream, a CRC-32; grammar in
``docs/links.md``, "Challenge and result links"):

- **A challenge** (``x2.``; ``x1.`` read still): after a match against the
  computer, the same match for a friend: the game, its options, the session
  seed (every deck of the match comes from it: deck ``k`` is
  ``Random(f"{seed}/{k}")``, the first dealer ``Random(f"{seed}/dealer")``),
  who sits where (the player's seat and each computer's level), the sender's
  result (won or lost, the final score, games, rounds, chkobbas) and how many
  moves the sender took back (``x2.`` only): never the sender's moves. The
  friend plays the whole match against computers that decide from the
  position and the seed only (:func:`computer_choice`: hard with a fixed
  number of rollouts, as the daily deal's), and sees both results at its end.
- **A result** (``r1.``): the sender's result in a daily deal
  (``daily.result``'s ``you``), carried by the daily deal's link, so the
  friend sees both results (and par) side by side.

Decoding is hostile input: :func:`decode_challenge` and
:func:`decode_result` return a valid value or raise one :class:`InvalidLink`
(``link.*`` codes) with a one-line message.

    >>> c = Challenge("chkobba", {"players": 2}, 7, (None, "hard"),
    ...               {"won": True, "score": [11, 6], "games": [1, 0], "rounds": 4, "chkobbas": 2})
    >>> text = encode_challenge(c)
    >>> text[:3], len(text) < 40, decode_challenge(text) == c
    ('x2.', True, True)
"""

from __future__ import annotations

import base64
import random
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date as Date
from datetime import timedelta
from typing import TypeVar, Union

from .. import messages as M
from ..actions import Action
from ..agents import Budget, make_agent
from ..errors import ChkobbaError
from ..messages import quote
from ..registry import Facts, ResultField, game_class
from ..registry import game as registered
from ..records import Options, of_side
from ..session import Session
from .codec import GAMES, InvalidLink, _choices, _read_options, _Reader, _width, _write_options, _Writer

__all__ = ["CHALLENGE_PREFIX", "RESULT_PREFIX", "CHALLENGE_MOVES_PREFIX", "RESULT_MOVES_PREFIX", "MAX_MOVES", "MAX_LINK", "SEED_LIMIT", "LEVELS", "CHALLENGE_ROLLOUTS",
           "Challenge", "encode_challenge", "decode_challenge", "encode_result", "decode_result",
           "match_result", "compare", "computer_choice", "computer_rng"]

CHALLENGE_PREFIX = "x2."
CHALLENGE_PREFIX_V1 = "x1."   # read still: a challenge made before the take-backs were written (takebacks None)
RESULT_PREFIX = "r1."
CHALLENGE_MOVES_PREFIX = "x3."   # an x2. challenge and the sender's moves (checked by replaying them)
RESULT_MOVES_PREFIX = "r2."      # an r1. result and the sender's moves
MAX_LINK = 200            # characters; a longer text is refused before it is read (links hold 20 to 60)
MAX_MOVES_LINK = 1200     # the same for a link with its moves (a round about 25 more characters)
MAX_MOVES = 4000          # the most moves a link may say it holds (more: link.number)
SEED_LIMIT = 2**53        # the largest session seed a table takes (the facade's)
MAX_NUMBER = 1_000_000    # the largest score, count or number of rounds a result may say
LEVELS = ("easy", "medium", "hard")   # a computer seat's level, written 1 to 3 (0: the player)
#: The challenge computers' search at hard: rollouts only, no time cap (the
#: daily deal's budget, docs/daily.md), so every phone meets the same player.
CHALLENGE_ROLLOUTS = 200
_EPOCH = Date(2000, 1, 1)  # a result's date is written as days after this one

#: One field of a result (a game declares its own: :class:`chkobba.registry.ResultField`).
Field = ResultField


# A result's value: a flag, a number, a pair of numbers, or the names of a set.
ResultValue = Union[bool, int, list[int], list[str]]
Result = dict[str, ResultValue]

#: A result's fields per game, in the order written: a challenge's (each
#: game's ``result_fields``) and a daily result's (its daily deal's).
_MATCH_FIELDS: Mapping[str, tuple[Field, ...]] = Facts(lambda g: g.result_fields)
_DAILY_FIELDS: Mapping[str, tuple[Field, ...]] = Facts(lambda g: None if g.daily is None else g.daily.result_fields)

M.register({
    "link.challenge.prefix": 'this is not a challenge link of this site (a challenge starts with "x2.")',
    "link.challenge.version": 'this challenge was made by another version of the site ("{version}"); '
                              'this page reads challenges of versions 1 to 3 ("x1.", "x2.", "x3.")',
    "link.result.prefix": 'this is not a result of this site (a result starts with "r1.")',
    "link.result.version": 'this result was made by another version of the site ("{version}"); '
                           'this page reads results of versions 1 and 2 ("r1.", "r2.")',
    "link.seed": "the link's deal number is larger than {limit}",
    "link.seats": "a challenge needs one player's seat and computers in the others",
    "link.result": "the result in the link is not one a game can have ({field})",
    "link.result_deal": "the result in the link is for another deal ({date}, {game})",
    "link.result_moves": "the moves in the link do not give the result it claims ({field})",
})


@dataclass(frozen=True)
class Challenge:
    """A match to play again: ``game``, its ``options`` (all of them), the
    session ``seed``, ``seats`` (``None``: the player; else a computer's
    level), the sender's ``result`` (:func:`match_result`) and how many
    moves the sender took back (``takebacks``; None: an ``x1.`` link, made
    before the count was written, says nothing)."""

    game: str
    options: Options
    seed: int
    seats: tuple[str | None, ...]
    result: Result = field(default_factory=dict)
    takebacks: int | None = 0
    #: the sender's moves (every action of the match, computers' too), or None:
    #: a link without them (``x1.``, ``x2.``) is not checked
    moves: tuple[str, ...] | None = None

    @property
    def seat(self) -> int:
        """The player's seat."""
        return self.seats.index(None)

    def session(self) -> Session:
        """The challenge's match, dealt from its seed: the sender's cards."""
        return Session.new(self.game, dict(self.options), seed=self.seed)


# ------------------------------------------------------------------ results

def _flag(res: Mapping[str, object], name: str) -> bool:
    """A result's flag (``link.result`` if it is not one: a result is checked before it is read)."""
    value = res[name]
    if type(value) is not bool:
        raise InvalidLink("link.result", field=name)
    return value


def _int(res: Mapping[str, object], name: str) -> int:
    """A result's number (``link.result`` if it is not one)."""
    value = res[name]
    if type(value) is not int:
        raise InvalidLink("link.result", field=name)
    return value


def _pair(res: Mapping[str, object], name: str) -> tuple[int, int]:
    """A result's pair of numbers (``link.result`` if it is not one)."""
    value = res[name]
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        raise InvalidLink("link.result", field=name)
    return value[0], value[1]


def _names(res: Mapping[str, object], name: str) -> list[str]:
    """A result's set of names (``link.result`` if it is not one)."""
    value = res[name]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidLink("link.result", field=name)
    return [str(v) for v in value]


def _option(options: Mapping[str, object], name: str, default: int | None = None) -> int:
    """A whole-number table option (``match``, ``target``; ``default`` for a game without it)."""
    value = options[name] if default is None else options.get(name, default)
    if type(value) is not int:
        raise TypeError(f"the option {name} is not a whole number: {value!r}")
    return value


def match_result(session: Session, seat: int) -> Result:
    """A finished match for ``seat``'s side: ``won``, the last game's
    ``score`` and the ``games`` won (the side first), the ``rounds`` played
    and (Chkobba) the side's ``chkobbas``."""
    summary = session.summary()
    if not session.is_over:
        raise InvalidLink("link.result", field="complete")
    side = seat % 2
    out: Result = {"won": summary["winner"] == side,
                   "score": [int(summary["score"][side]), int(summary["score"][1 - side])],
                   "games": [int(summary["games"][side]), int(summary["games"][1 - side])],
                   "rounds": len(summary["rounds"])}
    if any(f.name == "chkobbas" for f in _MATCH_FIELDS[session.game]):
        out["chkobbas"] = sum(of_side(r["chkobba"], side) for r in summary["rounds"])
    return out


def compare(yours: Mapping[str, object], theirs: Mapping[str, object]) -> int:
    """1 when ``yours`` is the better match result, -1 when ``theirs`` is, 0 level:
    won beats lost, then the games' margin, then the last game's margin."""
    def key(r: Mapping[str, object]) -> tuple[int, int, int]:
        games, score = _pair(r, "games"), _pair(r, "score")
        return int(_flag(r, "won")), games[0] - games[1], score[0] - score[1]
    a, b = key(yours), key(theirs)
    return (a > b) - (a < b)


def _write_result(w: _Writer, fields: tuple[Field, ...], res: Mapping[str, object],
                  options: Mapping[str, object] | None = None, daily: str | None = None) -> None:
    _check_result(fields, res, options, daily)
    for f in fields:
        if f.kind == "flag":
            w.write(int(_flag(res, f.name)), 1)
        elif f.kind == "pair":
            first, second = _pair(res, f.name)
            w.number(first)
            w.number(second)
        elif f.kind == "set":
            value = _names(res, f.name)
            for item in f.names:
                w.write(int(item in value), 1)
        elif f.kind == "range":
            w.write(_int(res, f.name) - f.low, _width(f.high - f.low + 1))
        else:
            w.number(_int(res, f.name))


def _number(rd: _Reader, name: str) -> int:
    value = rd.number(limit_bits=24)
    if value > MAX_NUMBER:
        raise InvalidLink("link.result", field=name)
    return value


def _read_result(rd: _Reader, fields: tuple[Field, ...], options: Mapping[str, object] | None = None,
                 daily: str | None = None) -> Result:
    out: Result = {}
    for f in fields:
        if f.kind == "flag":
            out[f.name] = bool(rd.read(1))
        elif f.kind == "pair":
            out[f.name] = [_number(rd, f.name), _number(rd, f.name)]
        elif f.kind == "set":
            out[f.name] = [item for item in f.names if rd.read(1)]
        elif f.kind == "range":
            value = rd.read(_width(f.high - f.low + 1)) + f.low
            if value > f.high:
                raise InvalidLink("link.result", field=f.name)
            out[f.name] = value
        else:
            out[f.name] = _number(rd, f.name)
    _check_result(fields, out, options, daily)
    return out


def _is_number(value: object) -> bool:
    return type(value) is int and 0 <= value <= MAX_NUMBER


def _check_result(fields: tuple[Field, ...], res: object, options: Mapping[str, object] | None = None,
                  daily: str | None = None) -> None:
    """A result of exactly these fields, each in its range, and one a game
    can have (``link.result``): a match of ``options``, or the daily round of
    the game ``daily``."""
    if not isinstance(res, dict) or set(res) != {f.name for f in fields}:
        raise InvalidLink("link.result", field="fields")
    for f in fields:
        value = res[f.name]
        ok = (type(value) is bool if f.kind == "flag"
              else isinstance(value, list) and len(value) == 2 and all(map(_is_number, value)) if f.kind == "pair"
              else isinstance(value, list) and value == [x for x in f.names if x in value] if f.kind == "set"
              else type(value) is int and f.low <= value <= f.high if f.kind == "range"
              else _is_number(value))
        if not ok:
            raise InvalidLink("link.result", field=f.name)
    if "games" in res:   # a match result: the winner won more games, and at least one
        games = _pair(res, "games")
        if _flag(res, "won") != (games[0] > games[1]) or max(games) < 1 or _int(res, "rounds") < sum(games):
            raise InvalidLink("link.result", field="games")
    if options is not None:
        _check_match(options, res)
    elif daily is not None:
        _check_daily(daily, res)


#: Chkobba, one round: 36 cards are played (40 less the 4 dealt to the
#: table); after the first sweep, a sweep needs two plays at least (a card
#: laid on the empty table, then the one that takes it), so at most 18 sweeps
#: between both sides (one more is allowed, never to refuse a real round).
MAX_SWEEPS = 19
#: Chkobba, one side's points in one round: the four categories and its sweeps.
MAX_ROUND_POINTS = 4 + MAX_SWEEPS


def _check_daily(game: str, res: Mapping[str, object]) -> None:
    """A daily round's result (``link.result``) only a round can have, as
    the game's daily deal checks it (its table options are the deal's)."""
    deal = registered(game).daily
    bad = "game" if deal is None else deal.check(res)
    if bad is not None:
        raise InvalidLink("link.result", field=bad)


def _check_match(options: Mapping[str, object], res: Mapping[str, object]) -> None:
    """A match's result (``link.result``) only a match of these options can
    have: the winner won the games a match needs (best of ``match``; Seven
    Diamonds: one game) and the loser fewer; the winner of the last game (the
    match's winner) reached the target with more points (unless Chkobba's
    ``all_diamonds_wins`` ended it); no more points or sweeps than the
    rounds played can give."""
    need = (_option(options, "match", 1) + 1) // 2
    games, score, rounds = _pair(res, "games"), _pair(res, "score"), _int(res, "rounds")
    if max(games) != need or min(games) >= need:
        raise InvalidLink("link.result", field="games")
    mine, theirs = (score[0], score[1]) if _flag(res, "won") else (score[1], score[0])
    target = _option(options, "target")
    if "chkobbas" in res:
        if _int(res, "chkobbas") > MAX_SWEEPS * rounds:
            raise InvalidLink("link.result", field="chkobbas")
        if max(score) > MAX_ROUND_POINTS * rounds:
            raise InvalidLink("link.result", field="score")
        if options.get("all_diamonds_wins"):
            return
    elif theirs >= target:   # Seven Diamonds: only the round's winners score, the first to the target wins
        raise InvalidLink("link.result", field="score")
    if mine < target or mine <= theirs:
        raise InvalidLink("link.result", field="score")


# ---------------------------------------------------------------- framing

_TEXT = re.compile(r"[A-Za-z0-9_-]*")


def _seal(prefix: str, w: _Writer, limit: int = MAX_LINK) -> str:
    body = w.finish()
    crc = zlib.crc32(prefix.encode() + body)
    text = prefix + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")
    if len(text) > limit:   # never hand out a link decode would refuse
        raise InvalidLink("link.too_long", length=len(text), limit=limit)
    return text


def _open(prefix: str, kind: str, text: object, limit: int = MAX_LINK) -> _Reader:
    """The checked body of a ``prefix`` link (hostile text: one InvalidLink)."""
    if not isinstance(text, str):
        raise InvalidLink("link.not_text", kind=type(text).__name__)
    if len(text) > limit:
        raise InvalidLink("link.too_long", length=len(text), limit=limit)
    if not text:
        raise InvalidLink("link.empty")
    if not text.startswith(prefix):
        m = re.match(rf"{prefix[0]}[0-9]{{1,6}}\.", text)
        if m:
            raise InvalidLink(f"link.{kind}.version", version=quote(m.group(0)[:-1]))
        raise InvalidLink(f"link.{kind}.prefix")
    data = text[len(prefix):]
    ok = _TEXT.match(data)
    assert ok is not None
    if ok.end() != len(data):
        raise InvalidLink("link.characters", position=len(prefix) + ok.end() + 1)
    if len(data) % 4 == 1:
        raise InvalidLink("link.damaged")
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != data or len(raw) < 5:
        raise InvalidLink("link.damaged")
    body, crc = raw[:-4], int.from_bytes(raw[-4:], "big")
    if zlib.crc32(prefix.encode() + body) != crc:
        raise InvalidLink("link.damaged")
    return _Reader(body)


def _close(rd: _Reader) -> None:
    """Nothing but zero padding may follow the last field."""
    if rd.left() >= 8 or rd.read(rd.left()) != 0:
        raise InvalidLink("link.form")


_T = TypeVar("_T")

#: A finished round's (or match's) session -> its result; None while not over.
Derive = Callable[[Session], Mapping[str, object] | None]


def _guarded(fn: Callable[[object], _T], text: object) -> _T:
    try:
        return fn(text)
    except ChkobbaError:
        raise
    except Exception:  # a bug must still give one plain line, never a traceback
        raise InvalidLink("link.internal") from None


# --------------------------------------------------------------- challenges

def encode_challenge(c: Challenge) -> str:
    """The challenge's text (``x2.`` + base64url). Raises InvalidLink for a
    challenge no link can hold (seats, seed, result)."""
    if c.game not in GAMES:
        raise InvalidLink("link.game", value=quote(c.game))
    opts = game_class(c.game).options_class().from_dict(dict(c.options)).to_dict()
    players = opts["players"]
    _check_seats(c.seats, players)
    if type(c.seed) is not int or not 0 <= c.seed <= SEED_LIMIT:
        raise InvalidLink("link.seed", limit=SEED_LIMIT)
    w = _Writer()
    w.write(GAMES.index(c.game), 2)
    _write_options(w, c.game, opts)
    w.number(c.seed)
    for level in c.seats:
        w.write(0 if level is None else LEVELS.index(level) + 1, 2)
    _write_result(w, _MATCH_FIELDS[c.game], c.result, options=opts)
    takebacks = c.takebacks
    if takebacks is None or not _is_number(takebacks):
        raise InvalidLink("link.result", field="takebacks")
    w.number(takebacks)
    if c.moves is None:
        return _seal(CHALLENGE_PREFIX, w)
    played = _write_moves(w, c.session(), c.moves)
    _claimed(played, c.result, lambda s: match_result(s, c.seat) if s.is_over else None)
    return _seal(CHALLENGE_MOVES_PREFIX, w, MAX_MOVES_LINK)


def _write_moves(w: _Writer, fresh: Session, moves: tuple[str, ...] | list[str]) -> Session:
    """The moves as a game link writes its actions (``chkobba.links.codec``:
    each the index of the action among the legal ones sorted by text), after
    their number; played on ``fresh`` (dealt from the seed as they go), which
    is returned. A move that is not legal there: ``link.result_moves``."""
    if len(moves) > MAX_MOVES:
        raise InvalidLink("link.number")
    w.number(len(moves))
    for text in moves:
        if fresh.is_over:
            raise InvalidLink("link.result_moves", field="moves")
        choices = _choices(fresh.state)
        try:
            action = fresh.state.parse(text)
            index = choices.index(str(action))
        except (ChkobbaError, ValueError):
            raise InvalidLink("link.result_moves", field="moves") from None
        w.write(index, _width(len(choices)))
        fresh.apply(action)
    return fresh


def _read_moves(rd: _Reader, fresh: Session) -> tuple[Session, tuple[str, ...]]:
    """The moves :func:`_write_moves` wrote, played on ``fresh``: the session
    they give and their texts; a move past the end or out of the legal ones:
    ``link.result_moves``."""
    count = rd.number(limit_bits=13)
    if count > MAX_MOVES:
        raise InvalidLink("link.number")
    texts: list[str] = []
    for _ in range(count):
        if fresh.is_over:
            raise InvalidLink("link.result_moves", field="moves")
        choices = _choices(fresh.state)
        index = rd.read(_width(len(choices)))
        if index >= len(choices):
            raise InvalidLink("link.result_moves", field="moves")
        fresh.apply(choices[index])
        texts.append(choices[index])
    return fresh, tuple(texts)


def _claimed(session: Session, claim: Mapping[str, object], derive: Derive) -> None:
    """The result the moves give (``derive(session)``; None: not finished)
    must be the one the link claims, field by field (``link.result_moves``)."""
    got = derive(session)
    if got is None:
        raise InvalidLink("link.result_moves", field="complete")
    for name in claim:
        if got.get(name) != claim[name]:
            raise InvalidLink("link.result_moves", field=name)


def _check_seats(seats: object, players: int) -> None:
    if (not isinstance(seats, tuple) or len(seats) != players or seats.count(None) != 1
            or any(s is not None and s not in LEVELS for s in seats)):
        raise InvalidLink("link.seats")


def decode_challenge(text: object) -> Challenge:
    """The challenge a text holds, or one InvalidLink (``link.*``), whatever the text."""
    return _guarded(_decode_challenge, text)


def _decode_challenge(text: object) -> Challenge:
    v1 = isinstance(text, str) and text.startswith(CHALLENGE_PREFIX_V1)
    v3 = isinstance(text, str) and text.startswith(CHALLENGE_MOVES_PREFIX)
    rd = (_open(CHALLENGE_MOVES_PREFIX, "challenge", text, MAX_MOVES_LINK) if v3
          else _open(CHALLENGE_PREFIX_V1 if v1 else CHALLENGE_PREFIX, "challenge", text))
    g = rd.read(2)
    if g >= len(GAMES):
        raise InvalidLink("link.game", value=g)
    game = GAMES[g]
    options = _read_options(rd, game)
    try:
        opts = game_class(game).options_class().from_dict(options).to_dict()
    except ChkobbaError as e:
        raise InvalidLink("link.record", reason=e.message.to_json()) from None
    seed = rd.number(limit_bits=54)
    if seed > SEED_LIMIT:
        raise InvalidLink("link.seed", limit=SEED_LIMIT)
    seats: list[str | None] = []
    for _ in range(opts["players"]):
        v = rd.read(2)
        seats.append(None if v == 0 else LEVELS[v - 1])
    _check_seats(tuple(seats), opts["players"])
    result = _read_result(rd, _MATCH_FIELDS[game], options=opts)
    takebacks = None if v1 else _number(rd, "takebacks")
    c = Challenge(game, opts, seed, tuple(seats), result, takebacks)
    if v3:   # the sender's moves: replayed from the seed, they must give the result claimed
        played, moves = _read_moves(rd, c.session())
        _claimed(played, result, lambda s: match_result(s, c.seat) if s.is_over else None)
        c = Challenge(game, opts, seed, tuple(seats), result, takebacks, moves)
    _close(rd)
    return c


# ------------------------------------------------------------ daily results

def encode_result(day: str, game: str, res: Mapping[str, object], fresh: Session | None = None,
                  moves: tuple[str, ...] | list[str] | None = None, derive: Derive | None = None) -> str:
    """A daily deal's result (``daily.result``'s ``you``) as ``r1.`` text, bound to its date and game.
    Given the round's ``moves``, the deal's ``fresh`` session and ``derive``
    (a finished round's session -> its result, None while not over): an
    ``r2.`` text that carries the moves too, which must give ``res``."""
    if game not in _DAILY_FIELDS:
        raise InvalidLink("link.game", value=quote(game))
    days = (Date.fromisoformat(day) - _EPOCH).days
    if days < 0:
        raise InvalidLink("link.result_deal", date=quote(day), game=quote(game))
    w = _Writer()
    w.write(GAMES.index(game), 2)
    w.number(days)
    _write_result(w, _DAILY_FIELDS[game], res, daily=game)
    if moves is None:
        return _seal(RESULT_PREFIX, w)
    if fresh is None or derive is None:
        raise InvalidLink("link.result_moves", field="deal")
    _claimed(_write_moves(w, fresh, moves), res, derive)
    return _seal(RESULT_MOVES_PREFIX, w, MAX_MOVES_LINK)


def decode_result(text: object, day: str, game: str) -> Result:
    """The daily result a text holds, which must be for the deal of ``day``
    and ``game``; or one InvalidLink (``link.*``), whatever the text. An
    ``r2.`` text's moves are read with :func:`decode_result_moves` only."""
    return decode_result_moves(text, day, game)[0]


def decode_result_moves(text: object, day: str, game: str, fresh: Session | None = None,
                        derive: Derive | None = None) -> tuple[Result, Session | None]:
    """The daily result a text holds and, for an ``r2.`` text, the session its
    moves give when played on ``fresh`` (the deal's new session), checked to
    give the result claimed (``derive``, as :func:`encode_result`'s;
    ``link.result_moves`` otherwise); None for an ``r1.`` text (no moves: not
    checked). Without ``fresh``, an ``r2.`` text's moves are not read."""
    return _guarded(lambda t: _decode_result(t, day, game, fresh, derive), text)


def _decode_result(text: object, day: str, game: str, fresh: Session | None,
                   derive: Derive | None) -> tuple[Result, Session | None]:
    v2 = isinstance(text, str) and text.startswith(RESULT_MOVES_PREFIX)
    rd = _open(RESULT_MOVES_PREFIX, "result", text, MAX_MOVES_LINK) if v2 else _open(RESULT_PREFIX, "result", text)
    g = rd.read(2)
    if g >= len(GAMES) or GAMES[g] not in _DAILY_FIELDS:
        raise InvalidLink("link.game", value=g)
    days = rd.number(limit_bits=20)
    try:
        written = (_EPOCH + timedelta(days=days)).isoformat()
    except OverflowError:
        raise InvalidLink("link.number") from None
    res = _read_result(rd, _DAILY_FIELDS[GAMES[g]], daily=GAMES[g])
    if written != day or GAMES[g] != game:
        raise InvalidLink("link.result_deal", date=written, game=GAMES[g])
    played: Session | None = None
    if v2:
        if fresh is None or derive is None:
            return res, None
        played, _moves = _read_moves(rd, fresh)
        _claimed(played, res, derive)
    _close(rd)
    return res, played


# ---------------------------------------------------------------- computers

def computer_rng(c: Challenge, session: Session, seat: int) -> random.Random:
    """The rng a challenge computer decides with: seeded from the seed, the
    round, the actions played and the seat (the page's own computers' seeding,
    so easy and medium are the very players the sender met)."""
    history = session.state.history()
    return random.Random(f"{session.seed}/{session.state.round_index}/{len(history)}/{seat}")


def computer_choice(c: Challenge, session: Session, seat: int) -> Action:
    """The challenge computer's action for ``seat`` (the seat to act): its
    level, and at hard a fixed number of rollouts with no time cap, so the
    same on every device."""
    level = c.seats[seat]
    if level is None:
        raise InvalidLink("link.seats")
    obs = session.observation(seat)
    budget = Budget(rollouts=CHALLENGE_ROLLOUTS, ms=None) if level == "hard" else None
    agent = make_agent(c.game, level, budget)
    return agent.choose(obs, obs.legal_actions(), computer_rng(c, session, seat))
