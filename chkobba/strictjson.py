"""One strict JSON reader for every input that comes from outside: records,
statistics files, lessons, the facade's requests and saves.

``loads(text, max_chars=..., max_depth=...)`` reads JSON one way only:

- a text (``str``; ``bytes`` must be UTF-8) of at most ``max_chars``
  characters, measured before anything is parsed;
- nested at most ``max_depth`` levels of objects and lists, measured on the
  real structure BEFORE parsing (brackets inside strings do not count), so
  the parser never recurses deeper than that;
- no key twice in one object, no ``NaN``/``Infinity`` (and no number so
  large it would be infinite), no number of thousands of digits.

Anything else raises ONE :class:`JsonError` with a ``json.*`` code (below),
and nothing else is ever raised. A caller that has its own words for a
refusal wraps the error's message as a ``reason`` (``stats.file``,
``lesson.file``) or maps the code to its own (``record.*``).

>>> loads('{"a": [1, "[[[[[["]}', max_chars=100, max_depth=2)
{'a': [1, '[[[[[[']}
>>> loads('{"a": 1, "a": 2}', max_chars=100, max_depth=2)
Traceback (most recent call last):
...
chkobba.strictjson.JsonError: the key "a" appears twice in one object
>>> loads('[[[1]]]', max_chars=100, max_depth=2).__class__
Traceback (most recent call last):
...
chkobba.strictjson.JsonError: it is nested too deeply (at most 2 levels)
"""

from __future__ import annotations

import json
import math
from typing import Any

from . import messages as M
from .errors import ChkobbaError

JSON_MESSAGES: dict[str, str] = {
    "json.not_text": "it is {kind}, not a text",
    "json.not_utf8": "it is not UTF-8 text",
    "json.too_large": "it is too large ({size} characters, at most {limit})",
    "json.too_deep": "it is nested too deeply (at most {limit} levels)",
    "json.syntax": "it is not valid JSON ({problem} at line {line}, column {column})",
    "json.duplicate_key": 'the key "{key}" appears twice in one object',
    "json.constant": "{value} is not a JSON number",
    "json.long_number": "a number has too many digits",
}
M.register(JSON_MESSAGES)


class JsonError(ChkobbaError):
    """A JSON text refused by :func:`loads` (a ``json.*`` code)."""


_DROP = bytes(b for b in range(256) if b not in b'[]{}"')
_SAME = bytes.maketrans(b"{}", b"[]")   # the depth does not tell objects from lists


def depth(text: str, limit: int) -> int:
    """The nesting depth of a JSON text's objects and lists, counted on its
    real structure without parsing it, or ``limit + 1`` if deeper than
    ``limit``. Each pass drops the innermost pairs of brackets, so the
    cost is at most ``limit + 1`` scans of the brackets (done in C).
    Brackets that do not pair up (not JSON) count as if they all nested.

    >>> depth('{"a": "[[[[", "b": [[1], {}]}', 10)
    3
    >>> depth('[' * 50 + ']' * 50, 16)
    17
    """
    # The escaped backslashes and quotes dropped, then everything but
    # brackets and quotes (at C speed: the UTF-8 bytes of other characters
    # never look like them), then the strings: an adjacent pair of quotes is an empty
    # string or the end of one and the start of the next, and what is left
    # alternates outside/inside. A backslash outside a string is an error
    # the parser stops at, so both read the text the same way up to there.
    if "\\" in text:
        text = text.replace("\\\\", "").replace('\\"', "")
    data = text.encode("utf-8", "surrogatepass").translate(None, _DROP)
    if b'"' in data:
        data = data.replace(b'""', b"")
        data = b"".join(data.split(b'"')[0::2])
    return _peel(data.translate(_SAME), limit)


def _peel(brackets: bytes, limit: int) -> int:
    level = 0
    while brackets:
        shorter = brackets.replace(b"[]", b"")    # one pass: only the pairs already innermost
        if len(shorter) == len(brackets):
            # unpaired brackets (not JSON): count every opener left, at
            # worst refusing as too deep what the parser would refuse anyway
            return min(level + brackets.count(b"["), limit + 1)
        level += 1
        if level > limit:
            return limit + 1
        brackets = shorter
    return level


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonError("json.duplicate_key", key=M.quote(key, 40))
            seen.add(key)
    return out


def _constant(name: str) -> Any:
    raise JsonError("json.constant", value=name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError("json.constant", value=M.quote(text, 40))
    return value


def loads(text: Any, *, max_chars: int, max_depth: int) -> Any:
    """The value of a JSON text read strictly (see the module); raises
    :class:`JsonError` and nothing else."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > 4 * max_chars:
            raise JsonError("json.too_large", size=len(text), limit=max_chars)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise JsonError("json.not_utf8") from None
    if not isinstance(text, str):
        raise JsonError("json.not_text", kind=M.kind_of(text))
    if len(text) > max_chars:
        raise JsonError("json.too_large", size=len(text), limit=max_chars)
    if depth(text, max_depth) > max_depth:
        raise JsonError("json.too_deep", limit=max_depth)
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float)
    except JsonError:
        raise
    except json.JSONDecodeError as e:
        raise JsonError("json.syntax", problem=M.quote(e.msg, 60), line=e.lineno, column=e.colno) from None
    except RecursionError:      # not reached: the depth is measured first
        raise JsonError("json.too_deep", limit=max_depth) from None
    except MemoryError:
        raise JsonError("json.too_large", size=len(text), limit=max_chars) from None
    except ValueError:          # the only other one: an integer of thousands of digits
        raise JsonError("json.long_number") from None


def message_of(error: JsonError) -> dict[str, Any]:
    """The error as a message ``{code, params}``, to wrap as a ``reason``."""
    return {"code": error.code, "params": dict(error.params)}


__all__ = ["JsonError", "JSON_MESSAGES", "loads", "depth", "message_of"]
