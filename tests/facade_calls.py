"""Calling the browser facade (chkobba.web) as the page does, for tests:
JSON in, JSON out, every answer checked against the contract's shape
(``{"ok": ...}`` or ``{"error", "code", "params"}``, docs/facade.md)."""

from __future__ import annotations

import json
from typing import Any

from chkobba import web


def call(name: str, **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(web.call(name, json.dumps(args)))
    assert set(out) in ({"ok"}, {"error", "code", "params"}), out
    return out


def ok(name: str, **args: Any) -> Any:
    out = call(name, **args)
    assert "ok" in out, out
    return out["ok"]


def err(name: str, **args: Any) -> dict[str, Any]:
    """A refusal: one line of plain words with its message code."""
    out = call(name, **args)
    assert "error" in out, out
    assert out["error"] and "\n" not in out["error"]
    assert out["code"] in ok("messages")["messages"] or "." in out["code"]
    return out
