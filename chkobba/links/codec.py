"""Links: a game record or a position as a short, URL-safe, versioned text.

``encode(link)`` writes a :class:`Link` (a record, where to stop, and how an
embed shows it) as ``c1.`` followed by base64url text without padding;
``decode(text)`` reads it back, so ``decode(encode(link)) == link`` for every
valid link (actions come back in their canonical text). The grammar is in
``docs/links.md``; in short, a bit stream of:

- the game, the options that differ from their defaults, the first dealer;
- the number of rounds and where the last one stops;
- each deck as its permutation rank (160 bits for Chkobba's 40 cards, 118
  for Seven Diamonds' 32), each action as its index among the legal actions
  at that point sorted by their text (0 bits when only one is legal): the
  decoder replays the game with the engine while it reads;
- the view: mode (replay, play, puzzle), where to stop, whose hands are
  shown, whether a puzzle may show the coach's reasons;
- a CRC-32 over all of it, so a cut or altered link is refused.

Decoding is hostile input: whatever the text, it either returns a valid
link or raises a :class:`~chkobba.errors.ChkobbaError` with a ``link.*`` code
(or the strict record reader's own) and a one-line message. The record a
link gives is checked by the strict record reader, so it always replays.
"""

from __future__ import annotations

import base64
import math
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import messages as M
from ..cards import CODES, card
from ..errors import ChkobbaError, InvalidRecord
from ..messages import message, quote
from ..positions import check_at, position
from ..protocol import GameState, Observation
from ..records import Options, Record, RoundRecord, parse_record, remember, replay
from ..options_base import LinkField
from ..registry import GAMES as REGISTERED_GAMES
from ..registry import Facts, GameClass
from ..registry import game as registered
from ..registry import game_class
from ..session import Session

State = GameState[Observation]

VERSION = 1
PREFIX = "c1."
MAX_LENGTH = 6000  # characters of a link; longer text is refused before it is read (docs/links.md: the budget)
MODES = ("replay", "play", "puzzle")
LEVELS = ("easy", "medium", "hard")   # the computer's, in play (written 1 to 3; 0: not named)

LINK_MESSAGES: dict[str, str] = {
    "link.not_text": "a link is a text, not {kind}",
    "link.empty": "the link is empty",
    "link.too_long": "this link is {length} characters long; a link holds at most {limit}",
    "link.prefix": 'this is not a game link of this site (a game link starts with "c1.")',
    "link.version": 'this link was made by another version of the site ("{version}"); this page reads version 1 links ("c1.")',
    "link.characters": "the link has a character no link holds, at position {position}",
    "link.damaged": "the link is damaged or cut short: part of it is missing or changed",
    "link.short": "the link ends too early",
    "link.form": "the link is not written the one way this site writes links",
    "link.number": "the link holds a number too large to be read",
    "link.game": "the link names a game this site does not know (number {value})",
    "link.option": 'the link gives option "{option}" a value it cannot have',
    "link.first_dealer": "the link names seat {value} as the first dealer, but the table has seats 0 to {last}",
    "link.deck": "round {round}, deck {deck} of the link is not a shuffle of the cards",
    "link.action": "round {round}, action {index} of the link is not one of the {count} legal moves",
    "link.after_end": "the link goes on after the end of the match (round {round})",
    "link.redeal_deck": "the record stops after an accepted re-deal without listing the new deck",
    "link.mode": "a link's mode is replay, play or puzzle, not {value}",
    "link.seat": "the link shows seat {seat}, but the table has seats 0 to {last}",
    "link.reasons": "only a puzzle may show the coach's reasons",
    "link.level": "only play from here names the computer's level (easy, medium or hard), not {value}",
    "link.puzzle_turn": "a puzzle needs a seat to play at its position, and nobody is to act there",
    "link.puzzle_seat": "a puzzle is solved by the seat to act (seat {seat}), not seat {show}",
    "link.play_over": "the match is over at this position: there is nothing left to play",
    "link.record": "the link's game does not replay: {reason}",
    "link.internal": "the link could not be read",
}
M.register(LINK_MESSAGES)


class InvalidLink(ChkobbaError):
    """A link cannot be read, or a link cannot be made of what was given."""


@dataclass(frozen=True, eq=True)
class Link:
    """A record, where to stop, and how an embed shows it.

    - ``at``: ``(round, ply)`` as ``Session.from_record`` takes it, or None
      for the end of the record;
    - ``mode``: ``"replay"`` (step through the record), ``"play"`` (the
      reader takes a seat at the position against the computer) or
      ``"puzzle"`` (the reader finds the move of the seat to act);
    - ``show``: the seat whose hand is shown (in play and puzzle modes the
      reader's seat), or None for every hand (in play mode the reader then
      plays the seat to act);
    - ``reasons``: a puzzle may show the coach's reasons (puzzles only);
    - ``level``: the computer's level in play (``easy``, ``medium`` or
      ``hard``, the game's own), or None (the embed's default).
    """

    record: Record
    at: tuple[int, int] | None = None
    mode: str = "replay"
    show: int | None = None
    reasons: bool = False
    level: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.at, list):  # [round, ply] as JSON gives it
            object.__setattr__(self, "at", tuple(self.at))

    def session(self, seed: int | None = None) -> Session:
        """A session at the link's position (later decks from ``seed``)."""
        return Session.from_record(self.record, seed, at=self.at)

    def reader_seat(self) -> int | None:
        """The seat the reader plays (play and puzzle), else ``show``."""
        if self.show is not None or self.mode == "replay":
            return self.show
        return self.session().to_act()


# --------------------------------------------------------------- the v1 table
# Frozen for version 1: a later engine that adds an option or a game needs a
# new version (tests/test_links.py checks this table against the engine).
GAMES: Sequence[str] = REGISTERED_GAMES      # a game is written as its index here
# (name, kind, default, choices or (min, max)), each game's own (its options module)
OPTIONS_V1: Mapping[str, tuple[LinkField, ...]] = Facts(lambda g: g.link_fields)


def _width(count: int) -> int:
    """Bits that write a number from 0 to count - 1."""
    return (count - 1).bit_length() if count > 1 else 0


def _fail(code: str, **params: M.Param) -> InvalidLink:
    return InvalidLink(code, **params)


# ------------------------------------------------------------------ bit I/O
class _Writer:
    def __init__(self) -> None:
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def write(self, value: int, width: int) -> None:
        if width == 0:
            return
        assert 0 <= value < 1 << width, (value, width)
        self.acc = (self.acc << width) | value
        self.n += width
        while self.n >= 8:
            self.n -= 8
            self.out.append((self.acc >> self.n) & 0xFF)
        self.acc &= (1 << self.n) - 1

    def number(self, value: int) -> None:
        """Exp-Golomb (order 0): n + 1 in binary after as many zeros as it has bits less one."""
        v = value + 1
        self.write(0, v.bit_length() - 1)
        self.write(v, v.bit_length())

    def finish(self) -> bytes:
        if self.n:
            self.write(0, 8 - self.n)
        return bytes(self.out)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        self.size = len(data) * 8

    def read(self, width: int) -> int:
        if width == 0:
            return 0
        if self.pos + width > self.size:
            raise _fail("link.short")
        start = self.pos >> 3
        end = (self.pos + width + 7) >> 3
        chunk = int.from_bytes(self.data[start:end], "big")
        shift = end * 8 - self.pos - width
        self.pos += width
        return (chunk >> shift) & ((1 << width) - 1)

    def number(self, limit_bits: int = 40) -> int:
        zeros = 0
        while self.read(1) == 0:
            zeros += 1
            if zeros > limit_bits:
                raise _fail("link.number")
        return ((1 << zeros) | self.read(zeros)) - 1

    def left(self) -> int:
        return self.size - self.pos


# ---------------------------------------------------------------- decks
def _base(state_cls: GameClass) -> list[int]:
    """The v1 reference order of a game's cards: card ids ascending (D H S C, A to K)."""
    return sorted(state_cls.full_deck())


def _deck_bits(n: int) -> int:
    return _width(math.factorial(n))


def _rank(deck: list[int], base: list[int]) -> int:
    rest = list(base)
    r = 0
    for c in deck:
        i = rest.index(c)
        r = r * len(rest) + i
        rest.pop(i)
    return r


def _unrank(r: int, base: list[int]) -> list[int]:
    n = len(base)
    digits = []
    for k in range(1, n + 1):  # the last card's digit first (radix 1, 2, ...)
        r, d = divmod(r, k)
        digits.append(d)
    rest = list(base)
    return [rest.pop(d) for d in reversed(digits)]


# --------------------------------------------------------------- options
def _write_options(w: _Writer, game: str, options: Mapping[str, object]) -> None:
    table = OPTIONS_V1[game]
    for name, _kind, default, _c in table:
        w.write(int(options[name] != default), 1)
    for name, kind, default, choices in table:
        value = options[name]
        if value == default:
            continue
        if kind == "choice":
            others = [c for c in choices if c != default]
            w.write(others.index(value), _width(len(others)))
        elif kind == "number":
            lo, hi = choices
            if type(value) is not int:
                raise TypeError(f"the option {name} is not a whole number: {value!r}")
            w.write(value - lo, _width(hi - lo + 1))
        elif kind == "timers":
            lo, hi = choices
            if value is False:
                w.write(0, 1)
            elif isinstance(value, Mapping):
                w.write(1, 1)
                w.write(value["call"] - lo, _width(hi - lo + 1))
                w.write(value["card"] - lo, _width(hi - lo + 1))
            else:
                raise TypeError(f"the timers are neither false nor an object: {value!r}")
        # bool: differing from the default says it all


def _read_options(rd: _Reader, game: str) -> Options:
    table = OPTIONS_V1[game]
    present = [rd.read(1) for _ in table]
    out: Options = {}
    for flag, (name, kind, default, choices) in zip(present, table):
        if not flag:
            out[name] = default
            continue
        if kind == "choice":
            others = [c for c in choices if c != default]
            if not others:
                raise _fail("link.option", option=name)
            i = rd.read(_width(len(others)))
            if i >= len(others):
                raise _fail("link.option", option=name)
            out[name] = others[i]
        elif kind == "bool":
            out[name] = not default
        elif kind == "number":
            lo, hi = choices
            v = rd.read(_width(hi - lo + 1)) + lo
            if v > hi or v == default:
                raise _fail("link.option", option=name)
            out[name] = v
        else:
            lo, hi = choices
            if rd.read(1) == 0:
                out[name] = False
            else:
                call = rd.read(_width(hi - lo + 1)) + lo
                card = rd.read(_width(hi - lo + 1)) + lo
                if call > hi or card > hi or {"call": call, "card": card} == default:
                    raise _fail("link.option", option=name)
                out[name] = {"call": call, "card": card}
    return out


# --------------------------------------------------------------- actions
def _choices(state: State) -> list[str]:
    """The legal actions' texts in the v1 order: sorted by text."""
    return sorted(str(a) for a in state.legal_actions())


def _record_of(x: Record | Mapping[str, object] | str) -> Record:
    if isinstance(x, Record):
        return parse_record(x.to_dict())  # the strict reader's own reading
    return parse_record(x)


# ---------------------------------------------------------------- encode
def encode(link: Link | Record | Mapping[str, object] | str) -> str:
    """The link's text (``c1.`` + base64url). A record alone is a replay link
    of the whole record. Raises ChkobbaError if the record does not replay
    or the view settings do not fit the position."""
    if not isinstance(link, Link):
        link = Link(_record_of(link))
    rec = _record_of(link.record)
    end = replay(rec)  # the whole record is checked first, by the strict reader
    _check_view(rec, link, end)
    cls = game_class(rec.game)
    base = _base(cls)
    dbits = _deck_bits(len(base))
    w = _Writer()
    w.write(GAMES.index(rec.game), 2)
    _write_options(w, rec.game, rec.options)
    players = rec.players
    w.write(rec.first_dealer, _width(players))
    w.number(len(rec.rounds))
    state: State = cls.new(rec.options, rec.first_dealer)
    if rec.rounds:
        # where the last round stops: complete, or after how many actions
        full = end.round_over()
        w.write(int(full), 1)
        if not full:
            w.number(len(rec.rounds[-1].actions))
    for rnd in rec.rounds:
        decks = iter(rnd.decks)

        def deal() -> bool:
            d = next(decks, None)
            if d is None:
                return False
            ids = [card(c) for c in d]
            w.write(_rank(ids, base), dbits)
            state.deal(ids)
            return True

        deal()
        for text in rnd.actions:
            if state.needs_deal and state.deal_continues_round():
                deal()
            choices = _choices(state)
            a = state.parse(text)
            w.write(choices.index(str(a)), _width(len(choices)))
            state.play(a)
        if state.needs_deal and state.deal_continues_round():
            if not deal():
                raise _fail("link.redeal_deck")
        if (len(w.out) + 4) * 4 // 3 + len(PREFIX) > MAX_LENGTH:   # too long already: stop here
            raise _fail("link.too_long", length=_length_at_least(len(w.out)), limit=MAX_LENGTH)
    _write_view(w, rec, link)
    body = w.finish()
    crc = zlib.crc32(PREFIX.encode() + body)
    text = PREFIX + base64.urlsafe_b64encode(body + crc.to_bytes(4, "big")).decode().rstrip("=")
    if len(text) > MAX_LENGTH:  # never hand out a link that decode() would refuse
        raise _fail("link.too_long", length=len(text), limit=MAX_LENGTH)
    return text


def _length_at_least(body_bytes: int) -> int:
    """The length of a link whose body has at least ``body_bytes`` bytes."""
    return len(PREFIX) + -(-(body_bytes + 4) * 4 // 3)


def _write_view(w: _Writer, rec: Record, link: Link) -> None:
    w.write(MODES.index(link.mode), 2)
    if link.at is None:
        w.write(0, 1)
    else:
        w.write(1, 1)
        w.number(link.at[0] - 1)
        w.number(link.at[1])
    if link.show is None:
        w.write(1, 1)
    else:
        w.write(0, 1)
        w.write(link.show, _width(rec.players))
    if link.mode == "puzzle":
        w.write(int(link.reasons), 1)
    if link.mode == "play" and link.level is not None:
        # added after version 1 was out: an older play link ends in zero
        # padding here, read as "not named" (and nothing is written for it)
        w.write(LEVELS.index(link.level) + 1, 2)


def _check_view(rec: Record, link: Link, end: State | None = None) -> None:
    """The view settings fit the record and the position, or InvalidLink.
    ``end``: the state at the end of the record, when the caller has it."""
    if link.mode not in MODES:
        raise _fail("link.mode", value=quote(link.mode))
    players = rec.players
    if link.show is not None and (type(link.show) is not int or not 0 <= link.show < players):
        raise _fail("link.seat", seat=quote(link.show), last=players - 1)
    if type(link.reasons) is not bool or (link.reasons and link.mode != "puzzle"):
        raise _fail("link.reasons")
    if link.level is not None and (link.mode != "play" or link.level not in LEVELS):
        raise _fail("link.level", value=quote(link.level))
    if link.at is not None:
        try:
            check_at(rec, link.at)
        except InvalidRecord as e:
            raise _fail("link.record", reason=e.message.to_json()) from None
    if link.mode == "replay":
        return
    if link.at is None:
        state = end if end is not None else replay(rec)
    else:
        state = position(rec, (link.at[0], link.at[1]))[1]
    if link.mode == "puzzle":
        turn = state.to_act()
        if turn is None:
            raise _fail("link.puzzle_turn")
        if link.show is not None and link.show != turn:
            raise _fail("link.puzzle_seat", seat=turn, show=link.show)
    elif state.is_over:
        raise _fail("link.play_over")


# ---------------------------------------------------------------- decode
_TEXT = re.compile(r"[A-Za-z0-9_-]*")
_VERSIONED = re.compile(r"c[0-9]{1,6}\.")


def decode(text: object) -> Link:
    """The link a text holds; raises ChkobbaError (``link.*`` codes, or the
    strict record reader's) for anything else, whatever the text."""
    try:
        return _decode(text)
    except ChkobbaError:
        raise
    except Exception:  # a bug must still give one plain line, never a traceback
        raise _fail("link.internal") from None


def decode_record(text: object) -> Record:
    """The record a link holds (its view settings are checked, then left out)."""
    return decode(text).record


def _decode(text: object) -> Link:
    if not isinstance(text, str):
        raise _fail("link.not_text", kind=type(text).__name__)
    if len(text) > MAX_LENGTH:
        raise _fail("link.too_long", length=len(text), limit=MAX_LENGTH)
    if not text:
        raise _fail("link.empty")
    if not text.startswith(PREFIX):
        m = _VERSIONED.match(text)
        if m:
            raise _fail("link.version", version=quote(m.group(0)[:-1]))
        raise _fail("link.prefix")
    data = text[len(PREFIX):]
    ok = _TEXT.match(data)
    assert ok is not None
    if ok.end() != len(data):
        raise _fail("link.characters", position=len(PREFIX) + ok.end() + 1)
    if len(data) % 4 == 1:
        raise _fail("link.damaged")
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != data or len(raw) < 5:
        raise _fail("link.damaged")
    body, crc = raw[:-4], int.from_bytes(raw[-4:], "big")
    if zlib.crc32(PREFIX.encode() + body) != crc:
        raise _fail("link.damaged")
    return _read_body(body)


def _read_body(body: bytes) -> Link:
    """The link of a body whose check matched (still hostile: checked field by field)."""
    rd = _Reader(body)
    g = rd.read(2)
    if g >= len(GAMES):
        raise _fail("link.game", value=g)
    game = GAMES[g]
    options = _read_options(rd, game)
    cls = game_class(game)
    try:
        opts = cls.options_class().from_dict(options).to_dict()
    except ChkobbaError as e:
        raise _fail("link.record", reason=e.message.to_json()) from None
    players = opts["players"]
    fd = rd.read(_width(players))
    if fd >= players:
        raise _fail("link.first_dealer", value=fd, last=players - 1)
    base = _base(cls)
    dbits = _deck_bits(len(base))
    n = rd.number()
    if n * dbits > rd.left():
        raise _fail("link.short")
    full = True
    last_ply = 0
    if n:
        full = bool(rd.read(1))
        if not full:
            last_ply = rd.number()
    state: State = cls.new(opts, fd)
    rounds: list[RoundRecord] = []
    starts: list[State] = []          # each round right after its first deal
    for r in range(1, n + 1):
        if state.is_over:
            raise _fail("link.after_end", round=r)
        rnd = RoundRecord([], [])
        rounds.append(rnd)

        def deal() -> None:
            k = len(rnd.decks) + 1
            rank = rd.read(dbits)
            if rank >= math.factorial(len(base)):
                raise _fail("link.deck", round=r, deck=k)
            ids = _unrank(rank, base)
            state.deal(ids)
            if not rnd.decks:
                starts.append(state.copy())
            rnd.decks.append([CODES[c] for c in ids])

        deal()
        last = r == n
        while True:
            if state.needs_deal and state.deal_continues_round():
                deal()
                continue
            if state.needs_deal or state.is_over:
                break  # the round is over
            if last and not full and len(rnd.actions) == last_ply:
                break
            legal = state.legal_actions()          # played as they are: no text to parse back
            texts = [str(a) for a in legal]
            order = sorted(range(len(legal)), key=texts.__getitem__)
            i = rd.read(_width(len(order)))
            if i >= len(order):
                raise _fail("link.action", round=r, index=len(rnd.actions), count=len(order))
            state.play(legal[order[i]])
            rnd.actions.append(texts[order[i]])
        if last and not full and (len(rnd.actions) != last_ply or state.round_over()):
            raise _fail("link.form")  # a cut round that is over, or shorter than it says
    mode_i = rd.read(2)
    if mode_i >= len(MODES):
        raise _fail("link.mode", value=mode_i)
    at: tuple[int, int] | None = None
    if rd.read(1):
        at = (rd.number() + 1, rd.number())
    show: int | None = None
    if not rd.read(1):
        show = rd.read(_width(players))
        if show >= players:
            raise _fail("link.seat", seat=show, last=players - 1)
    mode = MODES[mode_i]
    reasons = bool(rd.read(1)) if mode == "puzzle" else False
    level: str | None = None
    if mode == "play" and rd.left() >= 2:
        level_i = rd.read(2)
        level = LEVELS[level_i - 1] if level_i else None
    if rd.left() >= 8 or rd.read(rd.left()) != 0:
        raise _fail("link.form")
    rec = Record(game, opts, fd, rounds)
    try:
        # the strict reader checks the record's form; its replay is the one
        # just done above (every deck a full deck, every action chosen among
        # the legal ones, a deck wherever the engine waited for one, nothing
        # after the end), so it is not done twice (issue 21: a long link)
        checked = parse_record(rec.to_dict())
    except ChkobbaError as e:
        raise _fail("link.record", reason=e.message.to_json()) from None
    link = Link(checked, at, mode, show, reasons, level)
    _check_view(checked, link, state)
    # opening the link replays it, and stepping through it reaches a position:
    # from here, a copy, and a round played from its start
    remember(checked, state, starts)
    return link
