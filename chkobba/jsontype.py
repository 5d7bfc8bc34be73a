"""The type of a JSON value, as json.loads reads and json.dumps writes it."""

from __future__ import annotations

from typing import Union

Json = Union[None, bool, int, float, str, list["Json"], dict[str, "Json"]]
"""Any JSON value: a scalar, a list of values, an object of values."""
