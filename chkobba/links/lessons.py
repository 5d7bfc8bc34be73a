"""The rule tutorial's lessons, read from ``lessons/*.json`` (data an author
adds without code; the format is in ``docs/links.md``).

Each step is a position (a full record and ``at``), the seat the reader
plays, a sentence and a hint (each with a stable ``key`` for translation and
its English ``text``), the accepted right move(s), and ``expect``: what the
right move brings about (checked by ``tests/test_lessons.py``). A wrong move
needs no text: :meth:`Step.judge` gives the engine's reason for an illegal
move, and ``lesson.not_this`` with the hint for a legal move the step does
not ask for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from .. import messages as M
from .. import strictjson
from ..errors import ChkobbaError, InvalidRecord
from ..messages import Message, message, quote
from ..protocol import JSONDict
from ..records import Record, parse_record
from ..registry import game as registered
from ..session import Session
from .codec import Link

M.register({
    "lesson.right": "Well played",
    "lesson.not_this": "That move is allowed, but it is not what this step asks",
    "lesson.file": "lesson {lesson}: {problem}",
})

LESSONS_DIR = Path(__file__).resolve().parent.parent.parent / "lessons"
MAX_STEPS = 30              # steps of one lesson (the tutorial's have 6 to 9): each is replayed when opened
MAX_FILE = 400_000          # characters of a lesson file
MAX_DEPTH = 8               # lesson > steps > step > record > rounds > round > decks > deck


@dataclass(frozen=True)
class Text:
    """A sentence with its stable translation key and its English text."""

    key: str
    text: str


@dataclass(frozen=True)
class Verdict:
    right: bool
    message: Message
    hint: Text | None


@dataclass(frozen=True)
class Step:
    id: str
    record: Record
    at: tuple[int, int]
    seat: int
    text: Text
    hint: Text
    moves: tuple[str, ...]
    expect: JSONDict
    wrong: tuple[dict[str, str], ...]

    def session(self) -> Session:
        return Session.from_record(self.record, seed=0, at=self.at)

    def link(self) -> Link:
        """The step as an embed: a puzzle for the reader's seat."""
        return Link(self.record, self.at, "puzzle", self.seat, False)

    def judge(self, move: str) -> Verdict:
        """A reader's move: right, or wrong with the engine's reason (an
        illegal move) or ``lesson.not_this`` and the hint (a legal one)."""
        s = self.session()
        try:
            a = s.state.parse(move)
            s.state.verify_action(a)
        except ChkobbaError as e:
            return Verdict(False, e.message, self.hint)
        if str(a) in {str(s.state.parse(m)) for m in self.moves}:
            return Verdict(True, message("lesson.right"), None)
        return Verdict(False, message("lesson.not_this"), self.hint)

    def outcome(self, move: str) -> JSONDict:
        """What a legal move brings about, in the terms ``expect`` uses:
        ``taken`` (cards into the mover's pile), ``chkobba`` (a chkobba
        scored), ``table`` (after the move), ``round_over``, ``result``
        (the round's scoring when the move ends it), ``events`` (Seven
        Diamonds' public events of the move: forced passes...), ``multiplier``."""
        s = self.session()
        before = s.state
        s.apply(move)
        after = s.state
        out: JSONDict = {"round_over": after.round_over() or len(after.results) > len(before.results)}
        if len(after.results) > len(before.results):
            out["result"] = after.results[-1].details()
        out.update(registered(before.game).lesson_outcome(before, after, self.seat))
        return out


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Text
    game: str
    steps: tuple[Step, ...]


def _bad(lesson: str, problem: str) -> InvalidRecord:
    return InvalidRecord("lesson.file", lesson=lesson, problem=problem)


_SUIT_SYMBOLS = {"D": "\u2666\ufe0e", "H": "\u2665\ufe0e", "S": "\u2660\ufe0e", "C": "\u2663\ufe0e"}
_CARD = r"(?:10|[A2-9TJQK])[DHSC]"
_CAPTURE_TEXT = re.compile(rf"\b({_CARD})x((?:{_CARD})+)\b")
_CARD_CODE = re.compile(rf"\b({_CARD})\b")


def _symbol(code: str) -> str:
    rank = code[:-1]
    return ("10" if rank == "T" else rank) + _SUIT_SYMBOLS[code[-1]]


def cards_as_symbols(text: str) -> str:
    """A lesson sentence as players read it: authors write card codes (5H) and
    action texts (4Cx4H); readers see 5\u2665 and "4\u2663 takes 4\u2665".
    """
    def capture(m: re.Match[str]) -> str:
        taken = re.findall(_CARD, m.group(2))
        return f"{m.group(1)} takes " + " ".join(taken)
    return _CARD_CODE.sub(lambda m: _symbol(m.group(1)), _CAPTURE_TEXT.sub(capture, text))


def _text(name: str, data: object, where: str) -> Text:
    if not isinstance(data, dict) or set(data) != {"key", "text"} or not all(
            isinstance(data[k], str) and data[k] for k in ("key", "text")):
        raise _bad(name, f'{where} must be {{"key": ..., "text": ...}}')
    return Text(data["key"], cards_as_symbols(data["text"]))


def parse_lesson(data: object, name: str = "?") -> Lesson:
    """A lesson from its JSON data; raises ChkobbaError naming the problem."""
    if not isinstance(data, dict) or set(data) - {"id", "title", "game", "steps"}:
        raise _bad(name, 'a lesson is an object with "id", "title", "game" and "steps"')
    steps_data = data.get("steps")
    if not isinstance(data.get("id"), str) or not isinstance(steps_data, list) or not steps_data:
        raise _bad(name, 'a lesson needs an "id" and a list of "steps"')
    if len(steps_data) > MAX_STEPS:
        raise _bad(name, f"a lesson has at most {MAX_STEPS} steps, not {len(steps_data)}")
    ids: set[str] = set()
    game = data.get("game")
    steps: list[Step] = []
    keys = {"id", "record", "at", "seat", "text", "hint", "moves", "expect", "wrong"}
    for i, sd in enumerate(steps_data, 1):
        where = f"step {i}"
        if not isinstance(sd, dict) or set(sd) - keys or not {"id", "record", "at", "seat", "text", "hint",
                                                                  "moves"} <= set(sd):
            raise _bad(name, f"{where} needs id, record, at, seat, text, hint and moves")
        sid = sd["id"]
        if not isinstance(sid, str) or not sid:
            raise _bad(name, f"{where}: its id is a text, not {M.kind_of(sid)}")
        if sid in ids:
            raise _bad(name, f'{where}: the id "{quote(sid, 40)}" is already the id of another step')
        ids.add(sid)
        rec = parse_record(sd["record"])
        if rec.game != game:
            raise _bad(name, f"{where}: its record is not a {game} record")
        at = sd["at"]
        if not (isinstance(at, list) and len(at) == 2 and all(type(x) is int for x in at)):
            raise _bad(name, f"{where}: at is [round, ply]")
        moves = sd["moves"]
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise _bad(name, f"{where}: moves is a list of action texts")
        seat = sd["seat"]
        if type(seat) is not int:
            raise _bad(name, f"{where}: seat is a seat number")
        wrong = sd.get("wrong", [])
        if not isinstance(wrong, list) or not all(isinstance(w, dict) and set(w) == {"move", "code"}
                                                  for w in wrong):
            raise _bad(name, f'{where}: wrong is a list of {{"move", "code"}}')
        expect = sd.get("expect", {})
        if not isinstance(expect, dict):
            raise _bad(name, f"{where}: expect is an object")
        try:
            session = Session.from_record(rec, seed=0, at=(at[0], at[1]))
        except ChkobbaError as e:
            raise _bad(name, f"{where}: {e}") from None
        if session.to_act() != seat:
            raise _bad(name, f"{where}: seat {seat} is not to act at that position")
        legal = session.legal()
        for m in moves:
            try:
                ok = str(session.state.parse(m)) in legal
            except ChkobbaError:
                ok = False
            if not ok:
                raise _bad(name, f'{where}: the move "{quote(m)}" is not legal there')
        steps.append(Step(sid, rec, (at[0], at[1]), seat, _text(name, sd["text"], f"{where} text"),
                          _text(name, sd["hint"], f"{where} hint"), tuple(moves), expect,
                          tuple(wrong)))
    return Lesson(data["id"], _text(name, data.get("title"), "title"), str(game), tuple(steps))


def read(path: Path) -> object:
    """A lesson file's JSON, read strictly (:mod:`chkobba.strictjson`);
    raises ``lesson.file`` naming the file and the problem."""
    try:
        return strictjson.loads(path.read_bytes(), max_chars=MAX_FILE, max_depth=MAX_DEPTH)
    except strictjson.JsonError as e:
        raise _bad(path.name, str(e)) from None
    except OSError as e:
        raise _bad(path.name, f"it cannot be read ({quote(e.strerror or str(e))})") from None


def load(path: Path) -> Lesson:
    return parse_lesson(read(path), path.name)


def load_all(folder: Path = LESSONS_DIR) -> list[Lesson]:
    """Every lesson of the folder, in the order of the file names."""
    return [load(p) for p in sorted(folder.glob("*.json"))]
