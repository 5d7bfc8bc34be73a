"""PyScript worker: the computer seats' thinking, off the page's main thread.

The page calls ``choose(json) -> json`` asynchronously; the worker never touches
the DOM, so it needs no cross-origin-isolation headers.
"""

from chkobba import web


def choose(payload: str) -> str:
    return web.call("choose", str(payload))


def hint(payload: str) -> str:
    # Only ever called when the player presses Hint at a table with hints on.
    return web.call("hint", str(payload))


def ping(payload: str) -> str:
    return web.call("ping", str(payload))


__export__ = ["choose", "hint", "ping"]
