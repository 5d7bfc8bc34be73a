"""Errors raised where text comes in: a small hierarchy of ``ValueError``.

Every message is written for a player: it names the offending text and says why
in plain words. An operation that raises leaves the game as it was.

Every error carries a message code and its parameters (:mod:`chkobba.messages`):
``err.code``, ``err.params``, and ``str(err)`` is the English text::

    >>> from chkobba.errors import IllegalAction
    >>> err = IllegalAction("play.not_in_hand", card="7D")
    >>> err.code, err.params, str(err)
    ('play.not_in_hand', {'card': '7D'}, '7D is not in your hand')

A plain text in place of a code is kept as the message ``error.text``
(``{"text": ...}``), so older callers keep working while they move to codes.
"""

from __future__ import annotations

from .messages import MESSAGES, Message, Param, Params, render


class ChkobbaError(ValueError):
    """Base class of every error the package raises on bad input."""

    code: str
    params: Params

    def __init__(self, code: "str | Message", /, **params: Param) -> None:
        if isinstance(code, Message):
            params = dict(code.params)
            code = code.code
        if code not in MESSAGES:
            params = {"text": code}
            code = "error.text"
        self.code = code
        self.params = params
        super().__init__(render(code, params))

    @property
    def message(self) -> Message:
        return Message(self.code, self.params)

    def to_json(self) -> dict[str, object]:
        """``{"error": English text, "code", "params"}``, as the facade answers."""
        return {"error": str(self), "code": self.code, "params": self.params}


class InvalidOptions(ChkobbaError):
    """A table option is unknown or has a value the rules do not allow."""


class InvalidAction(ChkobbaError):
    """An action's text cannot be read (bad syntax, unknown card)."""


class IllegalAction(ChkobbaError):
    """A well-formed action that the rules do not allow in this position."""


class InvalidRecord(ChkobbaError):
    """A game record is malformed or describes an impossible game."""


class StatsError(ChkobbaError):
    """A statistics file refused (``stats.file``), or a match that cannot count
    (:mod:`chkobba.stats`, and the daily results it holds: :mod:`chkobba.daily_results`)."""
