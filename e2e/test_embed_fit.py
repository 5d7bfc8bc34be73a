"""The Share dialog's <iframe> snippet fits its content at 320-1280 px wide (issue 22).

The snippet the dialog gives is pasted, as is, into a blog page of the same
site's origin; at host widths of 320, 640, 1024 and 1280 px the frame's
height follows the embed's own page height (the embed posts it, the snippet's
few words of script set it), so the frame never cuts the table: nothing in
the frame scrolls and its last control is inside the frame.
"""

from __future__ import annotations

from typing import Any

from e2e_driver import open_table, pick_action, point_and_play, settle, shot, start_game, state
from embed_util import READY

WIDTHS = (320, 640, 1024, 1280)

POST = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>A blog post</title></head>
<body style="margin:0;padding:8px;font-family:sans-serif">
<h1>My game of Chkobba</h1>
<p>Here is how it went:</p>
{snippet}
<p>The end of the post.</p>
</body></html>"""

# the frame's height against the height of the page inside it
FIT = """() => { const f = document.querySelector('iframe');
  return { frame: f.getBoundingClientRect().height, width: f.getBoundingClientRect().width }; }"""
INNER = """() => ({ height: Math.ceil(document.documentElement.getBoundingClientRect().height),
  scroll: document.scrollingElement.scrollHeight, view: window.innerHeight,
  last: Math.max(...[...document.querySelectorAll('.embed-controls .btn, #table .card, .ck .actions')]
    .filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect().bottom)) })"""


def test_the_share_snippet_sizes_its_frame_at_every_width(make_page: Any) -> None:
    page = make_page({"width": 360, "height": 640})
    open_table(page, "?seed=8")
    start_game(page)
    for _ in range(2):
        assert settle(page) == "you"
        point_and_play(page, pick_action(state(page)["save"]))
    settle(page)
    page.click("#share-button")
    page.wait_for_selector("#share[open]")
    snippet = page.input_value("#share-iframe")
    assert snippet.startswith("<iframe ") and 'sandbox="allow-scripts"' in snippet

    host = make_page({"width": WIDTHS[0], "height": 800})
    base = host.base_url
    host.route(f"{base}post.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=POST.format(snippet=snippet)))
    host.goto(f"{base}post.html")
    frame = host.locator("iframe").element_handle().content_frame()
    frame.wait_for_selector(READY, timeout=240_000)
    for width in WIDTHS:
        host.set_viewport_size({"width": width, "height": 800})
        # the frame follows the embed's height after each change
        fit = None
        for _ in range(100):
            fit = host.evaluate(FIT)
            inner = frame.evaluate(INNER)
            if abs(fit["frame"] - inner["height"]) <= 1 and inner["scroll"] <= inner["view"] + 1:
                break
            host.wait_for_timeout(100)
        assert fit is not None
        assert host.evaluate("() => document.querySelector('iframe').style.height"), \
            f"at {width} px the snippet never set the frame's height from its content"
        assert fit["width"] <= 640 and fit["width"] >= min(width - 16, 640) - 1, (width, fit)
        assert abs(fit["frame"] - inner["height"]) <= 1, (width, fit, inner)
        # nothing inside the frame is cut or needs scrolling
        assert inner["scroll"] <= inner["view"] + 1, (width, inner)
        assert 0 < inner["last"] <= inner["view"] + 1, (width, inner)
        host.evaluate("() => document.querySelector('iframe').scrollIntoView()")
        shot(host, f"embed-fit-{width}")
