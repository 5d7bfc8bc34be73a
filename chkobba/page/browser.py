"""The browser edge of :mod:`chkobba.page`: the only part of it that
touches the page, imported when a table is mounted (never in CPython).

It hands web/page/bridge.js (loaded by PyScript's ``js_modules`` before any
Python block runs, docs/pyscript.md) the facade's state answer and a
:class:`chkobba.page.Question`'s ``call``, which judges the reader's moves,
or a :class:`chkobba.page.Live`'s, which passes a replay's, a play's or a
puzzle's calls to the facade as an embed makes them.
Everything crosses as JSON text, as between the site's pages and the facade. The browser's
modules (``js``, ``pyodide.ffi``) are looked up by name at run time: the
package imports and type-checks without them.
"""

from __future__ import annotations

import json
from importlib import import_module
from typing import TYPE_CHECKING, Callable, Protocol

from ..errors import ChkobbaError

if TYPE_CHECKING:
    from . import Live, Question

# What crosses from the page: opaque JavaScript objects (elements, proxies,
# table controllers), handed back to the page as they came.
JsObject = object


class Bridge(Protocol):
    """web/page/bridge.js's API: every argument a JavaScript object or JSON text."""

    def words(self, code: str, params: str, english: str) -> object: ...
    def language(self) -> object: ...
    def mount(self, element: JsObject, first: str, call: JsObject) -> JsObject: ...
    def mountLive(self, element: JsObject, first: str, call: JsObject) -> JsObject: ...
    def fail(self, element: JsObject, message: str) -> None: ...


class _Document(Protocol):
    def querySelector(self, selector: str) -> JsObject | None: ...


_keep: list[JsObject] = []     # the proxies handed to the page live as long as the page


def _document() -> _Document:
    doc: _Document = import_module("js").document
    return doc


def _proxy(fn: Callable[[str, str], str]) -> JsObject:
    p: JsObject = import_module("pyodide.ffi").create_proxy(fn)
    _keep.append(p)
    return p


def bridge() -> Bridge:
    """web/page/bridge.js's API (``globalThis.chkobbaPage``)."""
    b: Bridge | None = getattr(import_module("js"), "chkobbaPage", None)
    if b is None:
        raise RuntimeError("chkobba's page bridge is not loaded: start PyScript with chkobba's "
                           "page/pyscript.js (docs/pyscript.md)")
    return b


def words(code: str, params: object, english: str) -> str:
    """A message in the page's language (web/i18n's catalogs, as every page of the site)."""
    return str(bridge().words(code, json.dumps(params), english))


def language() -> str:
    return str(bridge().language())


def element(target: JsObject) -> JsObject:
    """An element of the page: ``target`` itself, or the one a CSS selector names."""
    if not isinstance(target, str):
        return target
    el = _document().querySelector(target)
    if el is None:
        raise ValueError(f"no element of the page matches {target!r}")
    return el


def mount_question(target: JsObject, spec: Question) -> JsObject:
    b = bridge()
    return b.mount(element(target), json.dumps(spec.first()), _proxy(spec.call))


def mount_live(target: JsObject, spec: Live) -> JsObject:
    """A replay, play or puzzle table: the facade's ``link_open`` answer and
    the mode's calls (:meth:`chkobba.page.Live.call`)."""
    b = bridge()
    el = element(target)
    return b.mountLive(el, json.dumps(spec.first()), _proxy(spec.call))


def fail(target: JsObject, exc: Exception) -> None:
    """The one line a table that could not be made shows instead (its
    reason in the page's language); the rest of the page goes on."""
    if isinstance(exc, ChkobbaError):
        msg = {"code": exc.code, "params": exc.params, "text": str(exc)}
    else:
        msg = {"code": "error.text", "params": {"text": str(exc)}, "text": str(exc)}
    bridge().fail(element(target), json.dumps(msg))
