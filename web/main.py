"""PyScript entry point on the page's main thread.

Hands the page one function, ``chkobbaPy(name, json) -> json``, that forwards to
``chkobba.web.call``; the page's JavaScript holds no rules and only renders what
comes back. Computer seats think in a worker (ai.py), never here.
"""

from pyodide.ffi import create_proxy
from pyscript import window

from chkobba import web


def _call(name: str, payload: str) -> str:
    return web.call(str(name), str(payload))


window.chkobbaPy = create_proxy(_call)
window.dispatchEvent(window.CustomEvent.new("chkobba:python-ready"))
