"""embed.html: three sandboxed iframes on one host page (replay, play from
here, puzzle) driven by clicks and keys; lazy loading; the height message;
hostile fragments; screenshots of each mode at 360 and 640 px."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from chkobba.session import Session
from e2e_driver import ARTIFACTS, shot
from embed_util import (AT, LINKS, READY, RECORD, ROOT, SD_AT, SD_LINKS, SD_RECORD, WORDS, illegal_move_link,
                        legal_at, links, point)

HOST = """<!doctype html><html><head><meta charset="utf-8"><title>A blog post</title></head>
<body style="margin:0">
<h1>My Chkobba post</h1>
<iframe name="replay" sandbox="allow-scripts" src="{base}embed.html#{replay}" style="width:620px;height:560px;border:0"></iframe>
<iframe name="play" sandbox="allow-scripts" src="{base}embed.html#{play}" style="width:620px;height:560px;border:0"></iframe>
<div style="height:1600px">Lots of words in between.</div>
<iframe id="puzzle" name="puzzle" sandbox="allow-scripts" src="{base}embed.html#{puzzle}" style="width:620px;height:560px;border:0"></iframe>
<script>
window.heights = [];
addEventListener("message", (e) => {{
  if (e.data && e.data.type === "chkobba:height") {{
    const f = [...document.querySelectorAll("iframe")].find((x) => x.contentWindow === e.source);
    window.heights.push([f ? f.name : "?", e.data.height]);
  }}
}});
</script></body></html>"""


def host_page(make_page: Any) -> Any:
    page = make_page()
    base = page.base_url
    html = HOST.format(base=base, **LINKS)
    page.route(f"{base}blog-post.html", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.goto(f"{base}blog-post.html")
    return page


def embed_state(frame: Any) -> dict[str, Any]:
    return dict(frame.evaluate("() => window.chkobbaEmbed.info"))


def test_three_embeds_on_a_host_page(make_page: Any) -> None:
    page = host_page(make_page)
    replay, play, puzzle = (page.frame(name=n) for n in ("replay", "play", "puzzle"))
    replay.wait_for_selector(READY, timeout=180_000)
    play.wait_for_selector(READY, timeout=180_000)
    # lazy: the third frame, below the fold, has loaded no Python yet
    assert puzzle.evaluate("() => document.body.dataset.state || null") is None
    assert puzzle.is_visible(".embed-wait")
    assert puzzle.evaluate("() => typeof window.chkobbaPy") == "undefined"

    # a plain <iframe> (no embed/host.js): each frame boots its own Python
    assert replay.evaluate("() => window.chkobbaEmbed.via") == "own"
    # sandboxed: storage throws in these frames, and nothing broke
    assert replay.evaluate("() => { try { localStorage.length; return 'storage'; } catch (e) { return 'throws'; } }") == "throws"

    # --- replay: buttons and keys, every hand shown, log, round breakdown
    assert embed_state(replay)["index"] == 0
    assert replay.inner_text(f"{ROOT} .turn").startswith("Replay \u00b7 round 1: the deal")
    replay.click('.embed-controls [data-go="forward"]')
    replay.wait_for_selector("body[data-index='1']")
    first = RECORD["rounds"][0]["actions"]
    status = replay.inner_text(f"{ROOT} .turn")
    assert status.startswith(f"Replay \u00b7 round 1, move 1 of {len(first)}, by "), status
    # nobody at a replayed table is the reader: seats are named by where they sit
    assert status.endswith(("by Player at the bottom", "by Player at the top")), status
    replay.focus("body")
    replay.press("body", "ArrowRight")
    replay.wait_for_selector("body[data-index='2']")
    replay.press("body", "End")
    last = embed_state(replay)["count"] - 1
    replay.wait_for_selector(f"body[data-index='{last}']")
    assert replay.is_visible(".embed-rounds")
    replay.click(".embed-rounds summary")
    assert replay.is_visible(".embed-rounds table.breakdown")
    assert not re.search(r"\bYou\b", replay.inner_text("body")), replay.inner_text("body")
    replay.press("body", "Home")
    replay.wait_for_selector("body[data-index='0']")
    for _ in range(4):
        replay.click('.embed-controls [data-go="forward"]')
    replay.wait_for_selector("body[data-index='4']")
    # every hand face up: the other seat's cards are drawn, not backs
    opp = Session.from_record(RECORD, seed=0, at=(1, 4)).view(None)["hands"][1]
    shown = replay.eval_on_selector_all(f"{ROOT} .open-hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(opp)
    assert replay.eval_on_selector_all(f"{ROOT} .log-moves li", "els => els.length") >= 1
    replay.click('.embed-controls [data-go="play"]')
    replay.wait_for_selector("body[data-index='6']")
    replay.click('.embed-controls [data-go="play"]')   # pause
    # a replay never invites a move, whoever is to act
    assert "Your" not in replay.inner_text(f"{ROOT} .status")
    assert replay.locator(f"{ROOT} .hand-you button.card").count() == 0

    # --- play from here: the reader's move, then the computer answers
    seat, legal = legal_at(RECORD, AT)
    cards = [a for a in legal if a not in WORDS]
    before = len(embed_state(play)["state"]["view"]["history"])
    point(play, ROOT, cards[0])
    play.wait_for_function("(n) => window.chkobbaEmbed.info.state.view.history.length >= n + 2", arg=before)
    info = embed_state(play)
    assert info["state"]["view"]["history"][before] == cards[0] or "x" in cards[0]

    # --- puzzle: scrolled into view, it loads; wrong, illegal and right answers
    page.eval_on_selector("#puzzle", "e => e.scrollIntoView()")
    puzzle.wait_for_selector(READY, timeout=180_000)
    assert puzzle.inner_text(f"{ROOT} .turn") == "Puzzle: find the best move for your hand"
    verdicts = {a: puzzle.evaluate("(a) => JSON.parse(chkobbaPy('link_judge', JSON.stringify({table: 'embed', action: a}))).ok.right", a)
                for a in cards}
    right = [a for a, ok in verdicts.items() if ok]
    wrong = [a for a, ok in verdicts.items() if not ok]
    assert right, verdicts
    if wrong:
        point(puzzle, ROOT, wrong[0])
        puzzle.wait_for_selector("body[data-verdict=wrong]")
        assert "better" in puzzle.inner_text(".embed-verdict")
    point(puzzle, ROOT, right[0])
    puzzle.wait_for_selector("body[data-verdict=right]")
    assert "Well found" in puzzle.inner_text(".embed-verdict")
    assert puzzle.inner_text(f"{ROOT} .turn") == "Puzzle solved: that was the best move"

    # each frame told the host its height
    names = {n for n, h in page.evaluate("() => window.heights") if h > 100}
    assert names >= {"replay", "play", "puzzle"}


def test_puzzle_refuses_an_illegal_move_with_the_engines_reason(make_page: Any) -> None:
    page = make_page()
    page.goto(page.base_url + "embed.html#" + LINKS["puzzle"])
    page.wait_for_selector(READY, timeout=180_000)
    seat, legal = legal_at(RECORD, AT)
    s = Session.from_record(RECORD, seed=0, at=AT)
    hand = s.view(seat)["hand"]
    table = s.view(seat)["table"]
    # a capture the rules refuse: a hand card taking a table card of another value
    bad = next(f"{h}x{t}" for h in hand for t in table if f"{h}x{t}" not in legal)
    point(page, ROOT, bad)
    page.wait_for_selector("body[data-verdict=illegal]")
    text = page.inner_text(".embed-verdict")
    assert "Not allowed" in text and len(text.splitlines()) == 1


HOSTILE = {
    "empty": "",
    "version": "c9.AAAAAAAA",
    "script": "<script>window.__xss=1</script>",
    "markup": "%3Cimg%20src%3Dx%20onerror%3D%22window.__xss%3D1%22%3E",
    "bad_escape": "%E0%A4%A",
    "truncated": LINKS["replay"][:-6],
    "altered": LINKS["replay"][:20] + ("A" if LINKS["replay"][20] != "A" else "B") + LINKS["replay"][21:],
    "huge": "c1." + "A" * 1_000_000,
}


def test_hostile_fragments_show_one_line_and_run_nothing(make_page: Any) -> None:
    page = make_page()
    cases = dict(HOSTILE)
    cases["illegal_move"] = illegal_move_link(LINKS["replay"])[0]
    for name, frag in cases.items():
        page.goto("about:blank")
        page.goto(page.base_url + "embed.html#" + frag)
        page.wait_for_selector("body[data-state]", state="attached", timeout=180_000)
        assert page.evaluate("() => document.body.dataset.state") == "error", name
        msg = page.inner_text(".embed-msg")
        assert msg and "\n" not in msg and len(msg) < 300, (name, msg)
        assert page.evaluate("() => window.__xss") is None, name
        assert page.eval_on_selector_all(".embed img, .embed script", "els => els.length") == 0, name
    page.screenshot(path=str(ARTIFACTS / "embed-hostile.png"))


def test_csp_on_the_embed_page_allows_only_the_site(make_page: Any) -> None:
    page = make_page()
    page.goto(page.base_url + "embed.html#" + LINKS["replay"])
    csp = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "default-src 'self'" in csp and "script-src 'self' 'wasm-unsafe-eval';" in csp
    assert "http" not in csp and "*" not in csp and "'unsafe-eval'" not in csp
    page.wait_for_selector(READY, timeout=180_000)   # Pyodide runs under it
    # an inline script is refused by the policy
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__inline = 1'; document.body.append(s); }""")
    assert page.evaluate("() => window.__inline") is None
    page.watch.console[:] = [c for c in page.watch.console if "Content Security Policy" not in c]


WIDTHS = (320, 360, 640, 1280)


@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
@pytest.mark.parametrize("mode", ["replay", "play", "puzzle"])
def test_embed_screenshots(make_page: Any, mode: str, game: str) -> None:
    """Each mode of each game at 320, 360, 640 and 1280 px wide: nothing
    scrolls sideways, the controls and the status line are on screen."""
    lk = LINKS if game == "chkobba" else SD_LINKS
    page = make_page(viewport={"width": WIDTHS[0], "height": 720})
    page.goto(page.base_url + "embed.html#" + lk[mode])
    page.wait_for_selector(READY, timeout=180_000)
    if mode == "replay":
        for _ in range(5):
            page.click('.embed-controls [data-go="forward"]')
        page.wait_for_selector("body[data-index='5']")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 720})
        page.wait_for_function("(w) => document.documentElement.clientWidth === w", arg=width)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{game} {mode} at {width} px scrolls sideways by {overflow} px"
        # the status line and every control fit the frame's width
        for sel in (f"{ROOT} .turn", ".embed-controls", ".embed-bar"):
            box = page.locator(sel).first.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (sel, width, box)
        shot(page, f"embed-{game}-{mode}-{width}")


def _link_of(url: str) -> Any:
    from chkobba.links import decode
    assert "/embed.html#" in url, url
    return decode(url.split("#", 1)[1])


def test_share_dialog_and_round_replay(make_page: Any) -> None:
    from chkobba.records import parse_record
    from e2e_driver import open_table, play_until_summary, point_and_play, pick_action, settle, start_game, state

    page = make_page(viewport={"width": 360, "height": 640})
    open_table(page)
    start_game(page)
    for _ in range(3):
        assert settle(page) == "you"
        point_and_play(page, pick_action(state(page)["save"]))
    settle(page)
    page.click("#share-button")
    page.wait_for_selector("#share[open]")
    shot(page, "share-dialog-360")
    game = page.input_value("#share-game")
    pos = page.input_value("#share-position")
    snippet = page.input_value("#share-iframe")
    record = parse_record(state(page)["save"]["record"])
    g = _link_of(game)
    assert g.mode == "replay" and g.record == record and g.show is None
    p = _link_of(pos)
    assert p.mode == "play" and p.record == record
    assert snippet.startswith("<iframe ") and 'sandbox="allow-scripts"' in snippet and game in snippet
    page.click('#share [data-copy="game"]')
    page.wait_for_function("() => document.querySelector('.share-copied').textContent")
    page.click("#share-close")
    assert not page.evaluate("() => document.getElementById('share').open")

    # the game link opens as a replay
    other = make_page()
    other.goto(game)
    other.wait_for_selector(READY, timeout=180_000)
    assert other.evaluate("() => window.chkobbaEmbed.info.mode") == "replay"

    # after the round: replay it with every hand shown
    played = play_until_summary(page)
    href = page.get_attribute("#summary .replay-round a", "href")
    r = _link_of(href)
    rounds = played["save"]["record"]["rounds"]
    done = max(i for i, x in enumerate(rounds, 1) if x["actions"] and i <= len(played["sheet"]["rounds"]))
    assert r.mode == "replay" and r.show is None and r.at == (done, 0)


SD_HOST = """<!doctype html><html><head><meta charset="utf-8"><title>Seven Diamonds</title></head>
<body style="margin:0;display:flex;gap:4px">
<iframe name="replay" sandbox="allow-scripts" src="{base}embed.html#{replay}" style="width:425px;height:760px;border:0"></iframe>
<iframe name="play" sandbox="allow-scripts" src="{base}embed.html#{play}" style="width:425px;height:760px;border:0"></iframe>
<iframe name="puzzle" sandbox="allow-scripts" src="{base}embed.html#{puzzle}" style="width:425px;height:760px;border:0"></iframe>
</body></html>"""


def test_seven_diamonds_embeds_replay_play_puzzle(make_page: Any) -> None:
    """The three modes of a Seven Diamonds link, drawn by the Seven Diamonds
    table renderer (the main table's look) in sandboxed frames, each driven."""
    page = make_page(viewport={"width": 1290, "height": 780})
    base = page.base_url
    html = SD_HOST.format(base=base, **SD_LINKS)
    page.route(f"{base}sd-post.html", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.goto(f"{base}sd-post.html")
    replay, play, puzzle = (page.frame(name=n) for n in ("replay", "play", "puzzle"))
    for f in (replay, play, puzzle):
        f.wait_for_selector(READY, timeout=240_000)
        assert f.locator(f"{ROOT} .ck.ck-seven .sd-rows").count() == 1
        assert f.locator(".sd-simple").count() == 0

    # --- replay: the deal, then moves with whose they were; every hand face up
    assert replay.inner_text(f"{ROOT} .turn").startswith("Replay \u00b7 round 1: the deal")
    ply = 9
    for _ in range(ply):
        replay.click('.embed-controls [data-go="forward"]')
    replay.wait_for_selector(f"body[data-index='{ply}']")
    actions = SD_RECORD["rounds"][0]["actions"]
    status = replay.inner_text(f"{ROOT} .turn")
    assert status.startswith(f"Replay \u00b7 round 1, move {ply} of {len(actions)}, by "), status
    assert "Your" not in replay.inner_text(f"{ROOT} .status")
    assert not re.search(r"\bYou\b", replay.inner_text("body")), replay.inner_text("body")
    view = Session.from_record(SD_RECORD, seed=0, at=(1, ply)).view(None)
    for seat in (1, 2, 3):
        shown = replay.eval_on_selector_all(f'{ROOT} .seat[data-seat="{seat}"] .open-hand .card',
                                            "els => els.map(e => e.dataset.card)")
        assert shown == view["hands"][seat], seat
    mine = replay.eval_on_selector_all(f"{ROOT} .hand-you .card", "els => els.map(e => e.dataset.card)")
    assert mine == view["hands"][0]
    assert replay.locator(f"{ROOT} .hand-you button.card").count() == 0      # nothing to play
    laid = replay.eval_on_selector_all(f"{ROOT} .sd-rows .card", "els => els.map(e => e.dataset.card)")
    assert sorted(laid) == sorted(c for cs in view["table"].values() for c in cs)
    replay.focus("body")
    replay.press("body", "End")
    last = embed_state(replay)["count"] - 1
    replay.wait_for_selector(f"body[data-index='{last}']")
    replay.click(".embed-rounds summary")
    assert replay.is_visible(".embed-rounds-body table")

    # --- play from here: the cards the reader may lay are marked; an illegal
    # card gets the engine's reason; a legal one, then the computer answers
    seat, legal = legal_at(SD_RECORD, SD_AT)
    cards = [a for a in legal if a != "timeout"]
    assert play.inner_text(f"{ROOT} .turn") == "Your turn: lay a card"
    marked = play.eval_on_selector_all(f'{ROOT} .hand-you .card[data-playable="yes"]', "els => els.map(e => e.dataset.card)")
    assert sorted(marked) == sorted(cards)
    hand = embed_state(play)["state"]["view"]["hand"]
    bad = next(c for c in hand if c not in cards)
    play.click(f'{ROOT} .hand-you .card[data-card="{bad}"]')
    play.wait_for_function(f"() => document.querySelector('{ROOT} .message').textContent.length > 10")
    assert "not allowed" in play.inner_text(f"{ROOT} .message")
    before = len(embed_state(play)["state"]["view"]["history"])
    play.click(f'{ROOT} .hand-you .card[data-card="{cards[0]}"]')
    play.wait_for_function("(n) => window.chkobbaEmbed.info.state.view.history.length >= n + 2", arg=before)
    assert embed_state(play)["state"]["view"]["history"][before] == cards[0]

    # --- puzzle: no card marked (finding it is the puzzle); illegal, wrong, right
    assert puzzle.inner_text(f"{ROOT} .turn") == "Puzzle: find the best move for your hand"
    assert puzzle.locator(f"{ROOT} .hand-you.mark-playable").count() == 0
    puzzle.click(f'{ROOT} .hand-you .card[data-card="{bad}"]')
    puzzle.wait_for_selector("body[data-verdict=illegal]")
    assert "Not allowed" in puzzle.inner_text(".embed-verdict")
    verdicts = {a: puzzle.evaluate("(a) => JSON.parse(chkobbaPy('link_judge', JSON.stringify({table: 'embed', action: a}))).ok.right", a)
                for a in cards}
    right = [a for a, ok in verdicts.items() if ok]
    wrong = [a for a, ok in verdicts.items() if not ok]
    assert right, verdicts
    if wrong:
        puzzle.click(f'{ROOT} .hand-you .card[data-card="{wrong[0]}"]')
        puzzle.wait_for_selector("body[data-verdict=wrong]")
    puzzle.click(f'{ROOT} .hand-you .card[data-card="{right[0]}"]')
    puzzle.wait_for_selector("body[data-verdict=right]")
    assert puzzle.inner_text(f"{ROOT} .turn") == "Puzzle solved: that was the best move"
    shot(page, "embed-seven-diamonds-three-1290")


def test_share_dialog_of_a_seven_diamonds_game(make_page: Any) -> None:
    """The Share dialog of a Seven Diamonds game: its links open in the
    embed with the Seven Diamonds table (replay and play from here)."""
    from chkobba.records import parse_record
    from e2e_driver import open_table, state
    from test_seven_table import human_turn, settle as sd_settle, start_seven

    page = make_page(viewport={"width": 360, "height": 640})
    open_table(page)
    start_seven(page)
    calls: list[str] = []
    for _ in range(3):
        assert sd_settle(page) == "you"
        human_turn(page, calls)
    assert sd_settle(page) == "you"
    page.click("#share-button")
    page.wait_for_selector("#share[open]")
    game, pos = page.input_value("#share-game"), page.input_value("#share-position")
    record = parse_record(state(page)["save"]["record"])
    g, p = _link_of(game), _link_of(pos)
    assert record.game == "seven_diamonds"
    assert g.mode == "replay" and g.record == record
    assert p.mode == "play" and p.record == record
    page.click("#share-close")
    for url, mode in ((game, "replay"), (pos, "play")):
        other = make_page(viewport={"width": 360, "height": 640})
        other.goto(url)
        other.wait_for_selector(READY, timeout=180_000)
        assert other.evaluate("() => window.chkobbaEmbed.info.mode") == mode
        assert other.locator(f"{ROOT} .ck-seven .sd-rows").count() == 1


HOST_JS_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>A lesson post</title>
<script src="{base}embed/host.js"></script></head>
<body style="margin:0;width:1280px">
<p>Three positions from my lesson.</p>
<div data-chkobba-embed="#{replay}" data-title="A game" style="display:inline-block;width:420px"></div>
<div data-chkobba-embed="{sd}" style="display:inline-block;width:420px"></div>
<div data-chkobba-embed="c1.&lt;img src=x onerror=window.__xss=1&gt;" style="display:inline-block;width:420px"></div>
<div style="height:2000px">More words.</div>
<div id="far" data-chkobba-embed="{puzzle}"></div>
</body></html>"""


# The host page notes each frame's last reported height (a listener beside host.js's).
HEIGHTS_INIT = """if (window.top === window) {
  window.__heights = new Map();
  addEventListener('message', (e) => {
    if (e.data && e.data.type === 'chkobba:height') window.__heights.set(e.source, Number(e.data.height));
  });
}"""
FITTED_TO_LAST_REPORT = """() => {
  const f = document.querySelectorAll('iframe[data-chkobba-frame]')[0];
  const last = window.__heights.get(f.contentWindow);
  return last > 0 && Math.abs(f.getBoundingClientRect().height - Math.ceil(last)) <= 1;
}"""


def test_host_script_mounts_frames_that_share_the_hub(make_page: Any) -> None:
    """embed/host.js: divs become sandboxed lazy frames fitted to their
    height; the frames on screen use the page's one interpreter (the hub,
    e2e/test_embed_hub.py; without it they boot their own one at a time);
    a hostile link is refused in its frame; a frame off screen starts nothing."""
    page = make_page(viewport={"width": 1280, "height": 900})
    base = page.base_url
    html = HOST_JS_PAGE.format(base=base, replay=LINKS["replay"], sd=SD_LINKS["replay"], puzzle=LINKS["puzzle"])
    page.route(f"{base}lesson-post.html", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    page.add_init_script(HEIGHTS_INIT)
    page.goto(f"{base}lesson-post.html")
    frames = page.locator("iframe[data-chkobba-frame]")
    assert frames.count() == 4
    for i in range(4):
        f = frames.nth(i)
        assert f.get_attribute("sandbox") == "allow-scripts" and f.get_attribute("loading") == "lazy"
    a, b, bad, far = (frames.nth(i).element_handle().content_frame() for i in range(4))
    for f in (a, b):
        f.wait_for_selector(READY, timeout=240_000)
    bad.wait_for_selector("body[data-state=error]", state="attached", timeout=60_000)
    assert page.evaluate("() => window.__xss") is None and bad.evaluate("() => window.__xss") is None
    assert a.evaluate("() => window.chkobbaEmbed.info.game") == "chkobba"
    assert b.evaluate("() => window.chkobbaEmbed.info.game") == "seven_diamonds"
    # one interpreter: the hub's, for both frames on screen (no frame booted its own)
    log = page.evaluate("() => window.chkobbaHost.log")
    assert log[:2] == [["hub", -1], ["hub-ready", -1]], log
    assert sorted(i for kind, i in log if kind == "hub-frame") == [0, 1], log
    assert not [e for e in log if e[0] in ("go", "started")], log
    assert a.evaluate("() => window.chkobbaEmbed.via") == "hub"
    assert sum(1 for u in page.watch.requests if u.endswith("/pyodide.asm.wasm")) == 1
    # fitted: each frame's height is the height its page reported
    page.wait_for_function("""() => [...document.querySelectorAll('iframe[data-chkobba-frame]')].slice(0, 2)
        .every((f) => f.style.height !== '560px')""")
    # the frame reports its height after each change: the host follows its last report...
    page.wait_for_function(FITTED_TO_LAST_REPORT, timeout=30_000)
    h = page.evaluate("() => document.querySelectorAll('iframe[data-chkobba-frame]')[0].getBoundingClientRect().height")
    # ... and that report is the frame's own height
    a.wait_for_function("(h) => Math.abs(Math.ceil(document.documentElement.getBoundingClientRect().height) - h) <= 1",
                        arg=h, timeout=30_000)
    # the frame far below has not started Python
    assert far.evaluate("() => typeof window.chkobbaPy") == "undefined"
