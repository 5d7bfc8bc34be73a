"""The messages a friend's phone sends to the host: one strict reading.

Every message is a small flat JSON object ``{"v": 1, "type": ..., ...}``
with exactly the fields of its type (no more, no fewer), at most
:data:`MAX_BYTES` bytes of UTF-8, no duplicate key, no NaN, no nesting.
Anything else raises :class:`OnlineError` with a message code
(``online.*``, :mod:`chkobba.messages`) and one line of English; reading a
message never changes anything.

>>> read('{"v": 1, "type": "act", "action": "7D", "round": 1, "ply": 3}')
Act(action='7D', round=1, ply=3)
>>> read('{"v": 1, "type": "act", "action": "7D", "round": 1, "round": 2, "ply": 3}')
Traceback (most recent call last):
...
chkobba.online.wire.OnlineError: a message names "round" twice
"""

from __future__ import annotations

import dataclasses

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Union

from ..errors import ChkobbaError
from ..messages import kind_of, quote

VERSION = 1
MAX_BYTES = 1024
MAX_ACTION = 64
MAX_ROUND = 10_000
MAX_PLY = 10_000
MAX_TIME = 2**53
MAX_NAME = 16   # a player's name, in characters (web/online/common.js cleanName: the same rule)
NAME_MARKS = frozenset(" -'._")   # besides letters (with their marks) and digits
# The fixed set of quick reactions (no free text): the page translates each.
REACTIONS = ("well_played", "bravo", "oops", "hurry", "thanks", "rematch")

# what a friend's phone may report of a round that does not check out on it
AUDIT_CODES = ("online.audit_seats", "online.audit_seed", "online.audit_own", "online.audit_deck",
               "online.audit_moves", "online.audit_replay", "online.audit_round", "online.audit_commits",
               "online.audit_not_asked", "online.audit_restart", "online.audit_missing")

HEX32 = re.compile(r"[0-9a-f]{32}")  # a 128-bit secret or seed, lowercase hex
HEX64 = re.compile(r"[0-9a-f]{64}")  # a SHA-256 digest, lowercase hex


class OnlineError(ChkobbaError):
    """A message from a peer that the table refuses (nothing changes)."""


@dataclass(frozen=True)
class Join:
    """Claim a seat (first time) or take it back (rejoin) with its secret;
    ``name``: the player's short name ("" for none: the seat's usual words)."""
    seat: int
    secret: str
    name: str = ""


@dataclass(frozen=True)
class Act:
    """An action text for the sender's seat, answering (round, ply)."""
    action: str
    round: int
    ply: int


@dataclass(frozen=True)
class Commit:
    """The SHA-256 (hex) of the sender's seed for a round."""
    round: int
    hash: str


@dataclass(frozen=True)
class Reveal:
    """The sender's seed for a round (32 hex digits: 128 bits)."""
    round: int
    seed: str


@dataclass(frozen=True)
class Heartbeat:
    t: int


@dataclass(frozen=True)
class Reaction:
    reaction: str


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class AuditFailed:
    """Round ``round`` does not check out on the sender's phone (one of :data:`AUDIT_CODES`)."""
    round: int
    code: str


Message = Union[Join, Act, Commit, Reveal, Heartbeat, Reaction, Leave, AuditFailed]

# type -> its fields (besides "v" and "type"), each with a check and its wording
_INT = "a whole number from {lo} to {hi}"
FIELDS: dict[str, dict[str, str]] = {
    "join": {"seat": "seat", "secret": "hex32"},
    "act": {"action": "action", "round": "round", "ply": "ply"},
    "commit": {"round": "round", "hash": "hex64"},
    "reveal": {"round": "round", "seed": "hex32"},
    "heartbeat": {"t": "time"},
    "reaction": {"reaction": "reaction"},
    "leave": {},
    "audit_failed": {"round": "round", "code": "audit_code"},
}
# fields a message may leave out (a join without a name)
OPTIONAL: dict[str, dict[str, str]] = {"join": {"name": "name"}}
_RANGES = {"seat": (0, 3), "round": (1, MAX_ROUND), "ply": (0, MAX_PLY), "time": (0, MAX_TIME)}


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise OnlineError("online.duplicate_key", key=quote(key, 30))
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise OnlineError("online.json", problem=f"{name} is not a number")


def _want(kind: str) -> str:
    if kind in _RANGES:
        lo, hi = _RANGES[kind]
        return _INT.format(lo=lo, hi=hi)
    return {
        "hex32": "32 lowercase hexadecimal digits",
        "hex64": "64 lowercase hexadecimal digits",
        "action": f"a text of 1 to {MAX_ACTION} characters",
        "reaction": "one of " + ", ".join(REACTIONS),
        "audit_code": "an audit's code (online.audit_...)",
        "name": f"at most {MAX_NAME} letters, digits, spaces or - ' . _ (no space first or last)",
    }[kind]


def valid_name(value: object) -> bool:
    """A player's name as the table takes it: text of at most :data:`MAX_NAME`
    characters (checked first: O(1) for any length), each a letter (any
    script, with its combining marks), a decimal digit or one of
    :data:`NAME_MARKS`, no space first or last nor two in a row, so no
    control, format (bidi override, zero-width) or markup character. ""
    is no name.

    >>> [valid_name(x) for x in ("Sami", "سامي", "Anne-Marie 2", "", " Sami", "A\u202eB", "<img>", 7)]
    [True, True, True, True, False, False, False, False]
    """
    if not isinstance(value, str) or len(value) > MAX_NAME:
        return False
    if value != value.strip(" ") or "  " in value:
        return False
    return all(c in NAME_MARKS or unicodedata.category(c) in _NAME_CATEGORIES for c in value)


_NAME_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd"})


def check_name(value: object, where: str = "join") -> str:
    """``value`` if it is a name :func:`valid_name` takes, else ``online.field``."""
    if not valid_name(value):
        raise OnlineError("online.field", field="name", type=where, want=_want("name"))
    assert isinstance(value, str)
    return value


def _valid(kind: str, value: object) -> bool:
    if kind in _RANGES:
        lo, hi = _RANGES[kind]
        return type(value) is int and lo <= value <= hi
    if not isinstance(value, str):
        return False
    if kind == "hex32":
        return HEX32.fullmatch(value) is not None
    if kind == "hex64":
        return HEX64.fullmatch(value) is not None
    if kind == "action":
        return 1 <= len(value) <= MAX_ACTION and value.isprintable()
    if kind == "audit_code":
        return value in AUDIT_CODES
    if kind == "name":
        return valid_name(value)
    return value in REACTIONS  # reaction


def decode(text: object) -> dict[str, Any]:
    """The JSON object of a message, read strictly (no check of its fields).

    Anything but text (or its UTF-8 bytes) is refused as ``online.json``;
    the size is checked first, on the length alone for a long text (no
    encoding of a flood's megabytes)."""
    if not isinstance(text, (str, bytes)):
        raise OnlineError("online.json", problem="not text")
    if len(text) > MAX_BYTES:
        raise OnlineError("online.too_large", limit=MAX_BYTES, size=len(text))
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise OnlineError("online.too_large", limit=MAX_BYTES, size=size)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise OnlineError("online.json", problem="not UTF-8") from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except OnlineError:
        raise
    except json.JSONDecodeError as e:
        raise OnlineError("online.json", problem=quote(e.msg, 40)) from None
    except (RecursionError, ValueError):
        raise OnlineError("online.json", problem="too deep or a number too long") from None
    if not isinstance(data, dict):
        raise OnlineError("online.not_object", value=kind_of(data))
    return data


def check(data: dict[str, Any]) -> Message:
    """A decoded object as a message, or :class:`OnlineError`."""
    version = data.get("v")
    if version != VERSION or type(version) is not int:
        raise OnlineError("online.version", want=VERSION,
                          value=quote(version, 12) if type(version) is int else kind_of(version))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise OnlineError("online.type", value=quote(kind, 20) if isinstance(kind, str) else kind_of(kind),
                          known=", ".join(FIELDS))
    fields, optional = FIELDS[kind], OPTIONAL.get(kind, {})
    if not {"v", "type", *fields} <= set(data) <= {"v", "type", *fields, *optional}:
        if optional:
            raise OnlineError("online.fields_optional", type=kind, want=", ".join(["v", "type", *fields]),
                              optional=", ".join(optional))
        raise OnlineError("online.fields", type=kind, want=", ".join(["v", "type", *fields]))
    for name, check_kind in (fields | optional).items():
        if name in data and not _valid(check_kind, data[name]):
            raise OnlineError("online.field", field=name, type=kind, want=_want(check_kind))
    if kind == "join":
        return Join(data["seat"], data["secret"], data.get("name", ""))
    if kind == "act":
        return Act(data["action"], data["round"], data["ply"])
    if kind == "commit":
        return Commit(data["round"], data["hash"])
    if kind == "reveal":
        return Reveal(data["round"], data["seed"])
    if kind == "heartbeat":
        return Heartbeat(data["t"])
    if kind == "reaction":
        return Reaction(data["reaction"])
    if kind == "audit_failed":
        return AuditFailed(data["round"], data["code"])
    return Leave()


def read(text: object) -> Message:
    """Read one message (strictly); raises :class:`OnlineError`."""
    return check(decode(text))


def encode(msg: Message) -> str:
    """The one text of a message (what a guest's phone sends)."""
    kind = {Join: "join", Act: "act", Commit: "commit", Reveal: "reveal", Heartbeat: "heartbeat",
            Reaction: "reaction", Leave: "leave", AuditFailed: "audit_failed"}[type(msg)]
    body: dict[str, Any] = {"v": VERSION, "type": kind}
    fields = dataclasses.asdict(msg)
    body.update({name: fields[name] for name in FIELDS[kind]})
    body.update({name: fields[name] for name in OPTIONAL.get(kind, {}) if fields[name]})
    return json.dumps(body, separators=(",", ":"))
