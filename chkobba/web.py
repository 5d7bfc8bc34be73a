"""Browser facade: the one module the page talks to (JSON in, JSON out)."""

from __future__ import annotations

import json
from typing import Any, Callable

from .errors import ChkobbaError

API: dict[str, Callable[..., Any]] = {}


def _api(fn: Callable[..., Any]) -> Callable[..., Any]:
    API[fn.__name__] = fn
    return fn


@_api
def ping() -> dict[str, Any]:
    import sys
    return {"python": sys.version.split()[0]}


def call(name: str, payload: str) -> str:
    fn = API.get(name)
    if fn is None:
        return json.dumps({"error": f"unknown call {name!r}"})
    try:
        return json.dumps({"ok": fn(**json.loads(payload or "{}"))})
    except ChkobbaError as exc:
        return json.dumps({"error": str(exc)})
