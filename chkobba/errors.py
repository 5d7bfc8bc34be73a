"""Errors raised where text comes in: a small hierarchy of ``ValueError``.

Every message is written for a player: it names the offending text and says why
in plain words. An operation that raises leaves the game as it was.
"""

from __future__ import annotations


class ChkobbaError(ValueError):
    """Base class of every error the package raises on bad input."""


class InvalidOptions(ChkobbaError):
    """A table option is unknown or has a value the rules do not allow."""


class InvalidAction(ChkobbaError):
    """An action's text cannot be read (bad syntax, unknown card)."""


class IllegalAction(ChkobbaError):
    """A well-formed action that the rules do not allow in this position."""


class InvalidRecord(ChkobbaError):
    """A game record is malformed or describes an impossible game."""
