"""PyScript entry point on a page's main thread, for a page that boots through
PyScript (`<script type="py" src="main.py" config="pyscript.json">`). The
table (index.html) no longer does: web/shell/py.js loads Pyodide itself from a
memory snapshot (docs/boot.md); this stays for other pages until they switch.

Hands the page one function, ``chkobbaPy(name, json) -> json``, that forwards to
``chkobba.web.call`` (docs/facade.md); the page's JavaScript holds no rules and only renders what
comes back. Computer seats think in a worker (ai.py), never here.
"""

from pyodide.ffi import create_proxy
from pyscript import window

from chkobba import web


def _call(name: object, payload: object = "{}") -> str:
    # Passed on as they come: the facade answers a name or payload that is not
    # a text with an error in words (it never raises).
    return web.call(name, payload)


window.chkobbaPy = create_proxy(_call)
window.dispatchEvent(window.CustomEvent.new("chkobba:python-ready"))
