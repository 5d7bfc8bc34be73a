"""PyScript worker: the computer seats' thinking, off the page's main thread.

The page calls ``choose(json) -> json`` asynchronously (docs/facade.md;
the payload goes to ``chkobba.web.call`` as it comes, which answers in words); the worker never touches
the DOM, so it needs no cross-origin-isolation headers.
"""

from chkobba import web


def choose(payload: object) -> str:
    return web.call("choose", payload)


def hint(payload: object) -> str:
    # Only ever called when the player presses Hint at a table with hints on.
    return web.call("hint", payload)


def ping(payload: object) -> str:
    return web.call("ping", payload)


def daily_choose(payload: object) -> str:
    # The daily deal's computers (chkobba/web/daily.py): a fixed budget, the same on every device.
    return web.call("daily_choose", payload)


def daily_par(payload: object) -> str:
    return web.call("daily_par", payload)


def daily_result(payload: object) -> str:
    return web.call("daily_result", payload)


__export__ = ["choose", "hint", "ping", "daily_choose", "daily_par", "daily_result"]
