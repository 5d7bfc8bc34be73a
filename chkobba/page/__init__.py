"""The engine in a writer's page (PyScript): positions, the engine's
answers, and live tables (issue 39; docs/pyscript.md).

A ``<script type="py">`` block of a blog or a rule tutorial builds a
position from a record, a link or its parts, asks the engine what is legal
and why, and shows it on a live table::

    from chkobba import page

    p = page.setup(hands=["7D 3C KH", "QS 2H 5C"], table="7H 4S JC")
    p.legal()                 # ['7Dx7H', '7D', 'KH', '3C']
    p.why("7Dx4S").text       # the engine's reason, in the page's language
    page.table("#by-value", p, right=["7Dx7H"])

This module holds no rule: legality and its reasons are the engine's
(``State.parse``/``verify_action`` and their message codes, as
``chkobba.links.lessons.Step.judge``) and every state drawn is the facade's
one answer builder (:func:`chkobba.web.answer.answer`). A replay, a game
played on from a position or a puzzle (``table(..., mode=...)``) is an
embed table at the facade, asked with the embeds' own calls (docs/embeds.md). The browser is reached only from
:mod:`chkobba.page.browser`, imported when a table is mounted, so this
module imports and runs in CPython (tests/test_page.py).

Words: a :class:`Verdict`'s ``text`` is said in the page's language once the
page's tables are loaded (the browser edge installs the catalogs' renderer
with :func:`set_words`); in CPython it is the engine's English.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from .. import links
from .. import messages as M
from ..errors import ChkobbaError
from ..messages import Param, message
from ..protocol import GameState, Observation
from ..records import Record, parse_record
from ..registry import GAMES
from ..registry import game as registered
from ..session import Session
from ..web.answer import Reader, answer
from ..web.edge import Seat

__all__ = ["Position", "Verdict", "Question", "Live", "setup", "record", "link", "table", "tables", "language",
           "set_words", "words", "QUESTION", "MODES"]

QUESTION = "question"
MODES = links.MODES        # a live table's modes besides a question: the embeds' (docs/embeds.md)

WordsFn = Callable[[str, Mapping[str, object], str], str]


def _english(code: str, params: Mapping[str, object], english: str) -> str:
    return english


_words: list[WordsFn] = [_english]


def set_words(fn: WordsFn | None) -> None:
    """How a message is said: ``fn(code, params, english) -> text``; None
    restores the engine's English (the browser edge sets the page's language)."""
    _words[0] = fn or _english


def words(code: str, params: Mapping[str, object], english: str) -> str:
    """A message (its code, params and English text) in the page's
    language (the English outside a page)."""
    return _words[0](code, params, english)


def language() -> str:
    """The page's language (``ar``, ``fr`` or ``en``); ``en`` outside a page."""
    if _words[0] is _english:
        return "en"
    from . import browser
    return browser.language()


@dataclass(frozen=True)
class Verdict:
    """The engine's answer about a move.

    ``legal``: the engine accepts it there; ``right``: it is one of the
    moves the question asks for (None when no question was asked); ``code``
    and ``params``: the message (the engine's reason for an illegal move,
    ``lesson.right`` or ``lesson.not_this`` for a judged legal one, else
    ``page.legal``, a key of the pages' catalogs, not an engine code);
    ``english``: its English text. ``text``: the same words
    in the page's language."""

    legal: bool
    right: bool | None
    code: str
    params: dict[str, Param]
    english: str

    @property
    def text(self) -> str:
        return words(self.code, self.params, self.english)

    def to_json(self) -> dict[str, Param]:
        return {"legal": self.legal, "right": self.right, "code": self.code, "params": self.params,
                "text": self.english}

    def __str__(self) -> str:
        return self.text


def _empty_record(state: GameState[Observation]) -> Record:
    """The record of a position built from its parts: its game, its options,
    no round (such a position cannot be a link: docs/links.md)."""
    return Record(state.game, state.options.to_dict(), int(state.dealer), [])


@dataclass
class Position:
    """One position of a game, with the engine behind it.

    ``link_of``: the record and where to stop, when the position was reached
    by play (a record or a link): only those can be replayed, played on
    against the computer or be a puzzle (:meth:`link`)."""

    session: Session
    link_of: links.Link | None = None
    seat: int | None = None
    _parts: bool = field(default=False, repr=False)

    # ------------------------------------------------------------ queries
    @property
    def game(self) -> str:
        return self.session.game

    @property
    def players(self) -> int:
        return self.session.players

    @property
    def to_act(self) -> int | None:
        """The seat to act, None once the match is over."""
        return self.session.to_act()

    @property
    def reader(self) -> int:
        """The seat the reader sees and plays: the link's, else the seat to act."""
        if self.seat is not None:
            return self.seat
        to_act = self.to_act
        return to_act if to_act is not None else 0

    def legal(self) -> list[str]:
        """Every legal action of the seat to act, as action texts."""
        return self.session.legal()

    def why(self, move: str) -> Verdict:
        """Whether ``move`` is legal here and, if not, the engine's reason."""
        return self._verdict(move, None)

    def judge(self, move: str, right: Sequence[str]) -> Verdict:
        """``move`` against the moves a question asks for: the engine's
        reason for an illegal move, ``lesson.right`` for one of ``right``,
        ``lesson.not_this`` for another legal move (as the tutorial's steps)."""
        return self._verdict(move, right)

    def _verdict(self, move: str, right: Sequence[str] | None) -> Verdict:
        st = self.session.state
        if not isinstance(move, str):
            msg = message("action.not_text", value=M.quote(move))
            return Verdict(False, False if right is not None else None, msg.code, dict(msg.params), str(msg))
        try:
            a = st.parse(move)
            st.verify_action(a)
        except ChkobbaError as e:
            return Verdict(False, False if right is not None else None, e.code, dict(e.params), str(e))
        if right is None:
            return Verdict(True, None, "page.legal", {"action": str(a)}, f"{a} is a legal move here")
        ok = str(a) in {str(st.parse(m)) for m in right}
        msg = message("lesson.right" if ok else "lesson.not_this")
        return Verdict(True, ok, msg.code, dict(msg.params), str(msg))

    def play(self, move: str) -> "Position":
        """The position after ``move`` (the engine's error if it is illegal);
        this position is left as it was."""
        if self._parts:
            after = self.session.state.apply(move)
            return Position(Session(after, _empty_record(after), 0), None, self.seat, True)
        fork = self.session.copy()
        fork.apply(move)
        return Position(fork, None, self.seat)

    def state(self, seat: int | None = None, *, table: str = "page") -> dict[str, object]:
        """The facade's state answer of this position for ``seat`` (default:
        the reader), as a live table draws it; the cards that may be laid
        are not marked (finding them is the question)."""
        s = self.reader if seat is None else seat
        if type(s) is not int or not 0 <= s < self.players:
            raise ValueError(f"seat must be a whole number from 0 to {self.players - 1}, not {s!r}")
        seats = [Seat("human") if i == s else Seat("computer") for i in range(self.players)]
        return answer(self.session, Reader(seat=s, speaks_to=s, marks=False), seats, table=table)

    def link(self, mode: str = "puzzle", *, show: int | None = None, reasons: bool = False,
             level: str | None = None) -> str:
        """The position as a link (docs/links.md) for an embed or a live
        table: ``replay`` (from the record's start), ``play`` or ``puzzle``."""
        if self.link_of is None:
            raise ValueError("a position built from its parts has no record, so it cannot be a link "
                             "(replay, play or puzzle): ask it as a question")
        if mode not in links.MODES:
            raise ValueError(f"mode must be one of {', '.join(links.MODES)}, not {mode!r}")
        base = self.link_of
        at = None if mode == "replay" else base.at
        if show is None and mode != "replay":
            show = self.seat if self.seat is not None else base.show
        return links.encode(links.Link(base.record, at, mode, show, reasons and mode == "puzzle",
                                       level if mode == "play" else None))


# ------------------------------------------------------------------ builders

def setup(game: str = "chkobba", **parts: object) -> Position:
    """A position from its parts, like a chess position from its FEN: the
    game's own ``setup`` (Chkobba: ``hands``, ``table``, ``turn``, ``deck``,
    ``piles``, ``score``...; Seven Diamonds: ``hands``, ``laid``, ``calls``...).
    A wrong card or count raises the engine's error, in words."""
    maker = registered(game).setup if game in GAMES else None
    if maker is None:
        raise ValueError(f"game must be one of {', '.join(g for g in GAMES if registered(g).setup)}, "
                         f"not {M.quote(game)}")
    state = maker(**parts)
    return Position(Session(state, _empty_record(state), 0), None, None, True)


def record(data: Record | Mapping[str, object] | str, at: Sequence[int] | None = None,
           seat: int | None = None) -> Position:
    """A position reached by play: a record (a JSON object or its text) and
    where to stop, ``at=(round, ply)`` (round from 1, ply the actions of that
    round applied), else its end. ``seat``: the reader's (default: the seat
    to act). A bad record raises the engine's ``record.*`` error."""
    rec = data.copy() if isinstance(data, Record) else parse_record(data)
    where = None
    if at is not None:
        if not (isinstance(at, (tuple, list)) and len(at) == 2 and all(type(x) is int for x in at)):
            raise ValueError(f"at is (round, ply), two whole numbers, not {M.quote(at)}")
        where = (at[0], at[1])
    session = Session.from_record(rec, seed=0, at=where)
    return Position(session, links.Link(rec, where), seat)


def link(text: str, seat: int | None = None) -> Position:
    """The position of a link (a ``c1.`` text, with or without its ``#`` or
    the page address before it); a bad link raises the engine's ``link.*``
    error."""
    if isinstance(text, str) and "#" in text:
        text = text.rsplit("#", 1)[1]
    lk = links.decode(text)
    session = lk.session(seed=0)
    reader = seat if seat is not None else lk.reader_seat()
    return Position(session, lk, reader)


# ------------------------------------------------------------------ tables

_mounted: list[object] = []     # the page's table controllers (web/page/bridge.js's objects)


def tables() -> list[object]:
    """The live tables mounted on this page (for tests and the curious)."""
    return list(_mounted)


def table(target: object, position: Position | str | Callable[[], Position | str] | None = None,
          mode: str = QUESTION, *, right: Sequence[str] = (), hint: str | None = None, seat: int | None = None,
          show: int | None = None, reasons: bool = False, level: str | None = None) -> object:
    """Mount a live table into ``target`` (an element or a CSS selector of
    the writer's page). Returns its controller, or None when the table could
    not be made (the element then says why, in the page's language, and the
    rest of the page goes on).

    ``mode``: ``"question"`` (the default) asks the reader for a move:
    ``right``, the moves asked for (a wrong move gets the engine's reason,
    or ``hint`` for a legal one); with no ``right`` every legal move is
    accepted and played. ``"replay"``, ``"play"`` and ``"puzzle"`` are the
    embeds' modes (docs/embeds.md) on the writer's page: the record stepped
    through, the game played on against the computer (``level``), the best
    move to find (the coach's ``reasons`` if asked); ``position`` is then a
    position reached by play (:func:`record`, :func:`link`) or a link's
    text, and ``show`` the seat whose hand a replay shows (every hand when
    None).

    ``position`` may be a function that builds it, so that a bad record or
    link is caught here: ``table("#t", lambda: page.link("c1..."))``."""
    from . import browser
    set_words(browser.words)
    try:
        if mode != QUESTION and mode not in MODES:
            raise ValueError(f"mode must be one of {QUESTION}, {', '.join(MODES)}, not {M.quote(mode)}")
        p = position() if callable(position) else position
        if mode != QUESTION:
            if isinstance(p, str):
                p = link(p, seat)
            elif isinstance(p, Position) and seat is not None:
                p = Position(p.session, p.link_of, seat, p._parts)
            if not isinstance(p, Position):
                raise ValueError(f"a {mode} table needs a position reached by play (page.record or page.link) "
                                 f"or a link, not {p!r}")
            if right or hint is not None:
                raise ValueError(f"a {mode} table asks no question: right and hint are for question tables")
            live = Live(p.link(mode, show=show, reasons=reasons, level=level), mode, f"page-{len(_mounted) + 1}")
            out = browser.mount_live(target, live)
        else:
            if not isinstance(p, Position):
                raise ValueError(f"a table needs a position (page.setup, page.record or page.link), not {p!r}")
            for m in right:
                v = p.why(m)
                if not v.legal:
                    raise ValueError(f"the right move {m!r} is not legal there: {v.english}")
            out = browser.mount_question(target, Question(p, tuple(right), hint, seat))
    except (ChkobbaError, ValueError, TypeError) as e:
        browser.fail(target, e)
        return None
    _mounted.append(out)
    return out


@dataclass
class Live:
    """A live table in one of the embeds' modes: the link it shows, opened
    at the facade as an embed table (``link_open``); :meth:`call` passes the
    mode's calls to the facade (``link_step`` for a replay, ``link_act`` and
    ``link_computer`` for play, ``link_judge`` for a puzzle), so the page's
    table answers exactly as an embed's."""

    link: str
    mode: str
    id: str

    CALLS = {"replay": ("link_step",), "play": ("link_act", "link_computer"), "puzzle": ("link_judge",)}

    def first(self) -> dict[str, object]:
        """The facade's ``link_open`` answer (the engine's error if the link is refused)."""
        from .. import web
        web.allow_tables(len(_mounted) + 2)      # every table of the page stays open
        out: object = json.loads(web.call("link_open", json.dumps({"table": self.id, "link": self.link})))
        if not isinstance(out, dict):
            raise TypeError(f"the facade answered {out!r}")
        if "error" in out:
            raise ChkobbaError(out["code"], **out["params"])
        answer_ = out["ok"]
        if not isinstance(answer_, dict):
            raise TypeError(f"the facade's link_open answer is not an object: {answer_!r}")
        return answer_

    def call(self, name: str, payload: str) -> str:
        from .. import web
        known = self.CALLS[self.mode]
        try:
            args = json.loads(payload)
        except ValueError:
            args = None
        if name not in known:
            return json.dumps(ChkobbaError("web.unknown_call", name=M.quote(name), known=", ".join(known)).to_json())
        if not isinstance(args, dict):
            return web.call(name, payload)       # the facade's own refusal, in words
        return web.call(name, json.dumps({**args, "table": self.id}))


@dataclass
class Question:
    """A question table's position and what it asks for; :meth:`call`
    answers the bridge's calls as the facade does (``{"ok": ...}`` or
    ``{"error", "code", "params"}``, JSON text)."""

    position: Position
    right: tuple[str, ...]
    hint: str | None = None
    seat: int | None = None
    solved: bool = False

    def first(self) -> dict[str, object]:
        return {"mode": QUESTION, "state": self.position.state(self.seat), "hint": self.hint,
                "right": bool(self.right)}

    def call(self, name: str, payload: str) -> str:
        try:
            args = json.loads(payload)
        except ValueError:
            args = None
        if name != "judge" or not isinstance(args, dict) or not isinstance(args.get("action"), str):
            err = ChkobbaError("web.unknown_call", name=M.quote(name), known="judge") if name != "judge" else \
                ChkobbaError("action.not_text", value=M.quote(args))
            return json.dumps(err.to_json())
        move = args["action"]
        p = self.position
        v = p.judge(move, self.right) if self.right else p.why(move)
        out: dict[str, object] = {**v.to_json(), "hint": None if v.right or not self.right else self.hint}
        if v.legal and (v.right or not self.right):
            after = p.play(move)
            out["state"] = after.state(self.seat if self.seat is not None else p.reader)
            self.solved = bool(v.right)
        return json.dumps({"ok": out})
