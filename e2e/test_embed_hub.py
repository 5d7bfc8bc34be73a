"""embed/host.js with several embeds on one page: ONE interpreter (the hidden
hub.html frame) answers every frame (docs/embeds.md "Many embeds on one
page"). Each mode of both games works through it, only one Pyodide starts,
a frame reaches only its own table, the hub reads only its parent, it keeps
a table per frame beyond the facade's 32, a hub that does not answer lets
the frames boot their own one at a time, and the plain <iframe> still boots
its own. Screenshots of the host page at 360 and 1280 px."""

from __future__ import annotations

from typing import Any

from e2e_driver import ARTIFACTS
from embed_util import AT, LINKS, READY, RECORD, ROOT, SD_LINKS, SD_RECORD, WORDS, legal_at, point


# Every CSP violation in every frame (the hub's too) is kept.
WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push([e.effectiveDirective, e.blockedURI].join(' '));
});"""

# frame number: (link, what it is)
EMBEDS = [
    (LINKS["replay"], "chkobba replay"),
    (LINKS["puzzle"], "chkobba puzzle"),
    (LINKS["play"], "chkobba play"),
    (SD_LINKS["replay"], "seven replay"),
    (SD_LINKS["puzzle"], "seven puzzle"),
    (SD_LINKS["play"], "seven play"),
]

PAGE = """<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>A lesson with six positions</title>
<script src="{base}embed/host.js" {attrs}></script>
<style>body{{margin:0;font:16px/1.4 sans-serif}} .grid{{display:flex;flex-wrap:wrap;gap:8px}}
.grid>div{{flex:1 1 400px;min-width:0}} p{{margin:8px}}</style></head>
<body><p>Six positions from my lesson, on one page.</p>
<div class="grid">{divs}</div>
</body></html>"""


def lesson_page(make_page: Any, width: int = 1280, height: int = 2000, embeds: list[tuple[str, str]] | None = None,
                attrs: str = "") -> Any:
    page = make_page(viewport={"width": width, "height": height})
    page.add_init_script(WATCH)
    page.add_init_script(HOLD_INIT)
    base = page.base_url
    divs = "".join(f'<div data-chkobba-embed="{link}" data-title="{what}"></div>' for link, what in embeds or EMBEDS)
    html = PAGE.format(base=base, divs=divs, attrs=attrs)
    page.route(f"{base}lesson.html", lambda r: r.fulfill(status=200, content_type="text/html", body=html))
    page.goto(f"{base}lesson.html")
    return page


def frames_of(page: Any) -> list[Any]:
    loc = page.locator("iframe[data-chkobba-frame]")
    return [loc.nth(i).element_handle().content_frame() for i in range(loc.count())]


def hub_frame(page: Any) -> Any:
    return page.locator("iframe[data-chkobba-hub]").element_handle().content_frame()


def counts(page: Any) -> tuple[int, int]:
    """Requests for Pyodide's WebAssembly and for the chkobba package zip."""
    reqs = page.watch.requests
    wasm = sum(1 for u in reqs if u.endswith("/pyodide.asm.wasm"))
    zips = sum(1 for u in reqs if "/chkobba-" in u and u.endswith(".zip"))
    return wasm, zips


# A raw call from inside a frame, as embed.js makes them (transport.js).
RAW_CALL = """([name, payload]) => new Promise((resolve) => {
  const id = 1e6 + Math.floor(Math.random() * 1e6);
  const on = (e) => {
    if (e.source !== window.parent || !e.data || e.data.type !== 'chkobba:answer' || e.data.id !== id) return;
    removeEventListener('message', on);
    resolve(JSON.parse(e.data.answer));
  };
  addEventListener('message', on);
  parent.postMessage({type: 'chkobba:call', id, name, payload: JSON.stringify(payload)}, '*');
})"""


def call_from(frame: Any, name: str, payload: dict[str, Any]) -> dict[str, Any]:
    return dict(frame.evaluate(RAW_CALL, [name, payload]))


# The host page holds the hub's answers back (a listener that runs before
# host.js's), then hands them on: what a frame shows while a call is out.
HOLD_INIT = """if (window.top === window) {
  window.__held = null;
  addEventListener('message', (e) => {
    if (window.__held && e.data && e.data.type === 'chkobba:answer') { e.stopImmediatePropagation(); window.__held.push([e.data, e.source]); }
  });
}"""
HOLD = "() => { window.__held = []; }"
RELEASE = """() => {
  const held = window.__held;
  window.__held = null;
  for (const [data, source] of held) dispatchEvent(new MessageEvent('message', {data, source}));
}"""


def ck_policy(frame: Any, script: str) -> list[str]:
    got = list(frame.evaluate(script))
    assert len(got) == 1 and "'unsafe-eval'" not in got[0], got
    return got


def no_violations(page: Any) -> None:
    for f in page.frames:
        assert f.evaluate("() => window.__csp || []") == [], f.url[:80]


def test_six_embeds_of_both_games_share_one_interpreter(make_page: Any) -> None:
    page = lesson_page(make_page)
    frames = frames_of(page)
    assert len(frames) == 6
    for f in frames:
        f.wait_for_selector(READY, timeout=240_000)
    # ONE interpreter: one hub, one download of Pyodide and of the package
    assert page.locator("iframe[data-chkobba-hub]").count() == 1
    hub_el = page.locator("iframe[data-chkobba-hub]")
    assert hub_el.get_attribute("sandbox") == "allow-scripts"
    hub = hub_frame(page)
    assert hub.evaluate("() => window.chkobbaHub.boots") == 1
    # the hub page carries the embed's policy (docs/embeds.md "Content-Security-Policy")
    policy = """() => [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')].map((m) => m.content)"""
    assert hub.evaluate(policy) == ck_policy(frames[0], policy)
    assert counts(page) == (1, 1), counts(page)
    for f in frames:
        assert f.evaluate("() => window.chkobbaEmbed.via") == "hub"
        assert f.evaluate("() => typeof window.chkobbaPy") == "undefined"     # no Python of its own
    log = page.evaluate("() => window.chkobbaHost.log")
    assert [e for e in log if e[0] in ("go", "started")] == [], log
    assert sorted(i for kind, i in log if kind == "hub-frame") == list(range(6)), log
    ck_replay, ck_puzzle, ck_play, sd_replay, sd_puzzle, sd_play = frames
    assert [f.evaluate("() => window.chkobbaEmbed.info.game") for f in frames] == ["chkobba"] * 3 + ["seven_diamonds"] * 3

    # replay: forward and back, by button and key
    for f in (ck_replay, sd_replay):
        f.click('.embed-controls [data-go="forward"]')
        f.wait_for_selector("body[data-index='1']")
        f.focus("body")
        f.press("body", "ArrowRight")
        f.wait_for_selector("body[data-index='2']")
        f.wait_for_selector("body[data-pending='0']", state="attached")
        assert f.is_enabled('.embed-controls [data-go="back"]')

    # while a call is out the table waits: the hub's answer held back in the frame
    page.evaluate(HOLD)
    ck_replay.click('.embed-controls [data-go="forward"]')
    page.wait_for_function("() => window.__held.length === 1")
    assert ck_replay.get_attribute("body", "data-pending") == "1"
    assert ck_replay.get_attribute("body", "data-index") == "2"
    assert ck_replay.inner_text(f"{ROOT} .turn").endswith("\u2026")
    for go in ("first", "back", "forward", "last", "play"):
        assert ck_replay.is_disabled(f'.embed-controls [data-go="{go}"]'), go
    ck_replay.press("body", "ArrowRight")            # ignored: one step at a time
    page.evaluate(RELEASE)
    ck_replay.wait_for_selector("body[data-index='3'][data-pending='0']")
    assert not ck_replay.inner_text(f"{ROOT} .turn").endswith("\u2026")
    assert ck_replay.is_enabled('.embed-controls [data-go="forward"]')

    # puzzle: a wrong answer, then the right one (verdicts asked through the hub)
    seat, legal = legal_at(RECORD, AT)
    cards = [a for a in legal if a not in WORDS]
    verdicts = {a: call_from(ck_puzzle, "link_judge", {"action": a})["ok"]["right"] for a in cards}
    right = [a for a, ok in verdicts.items() if ok]
    wrong = [a for a, ok in verdicts.items() if not ok]
    assert right and wrong, verdicts
    point(ck_puzzle, ROOT, wrong[0])
    ck_puzzle.wait_for_selector("body[data-verdict=wrong]")
    assert "better" in ck_puzzle.inner_text(".embed-verdict")
    point(ck_puzzle, ROOT, right[0])
    ck_puzzle.wait_for_selector("body[data-verdict=right]")
    assert ck_puzzle.inner_text(f"{ROOT} .turn") == "Puzzle solved: that was the best move"

    # a Seven Diamonds puzzle: an illegal card gets the engine's reason
    sd_at = tuple(int(x) for x in SD_LINKS["at"].split(","))
    sd_seat, sd_legal = legal_at(SD_RECORD, sd_at)
    hand = sd_puzzle.evaluate("() => window.chkobbaEmbed.info.state.view.hand")
    illegal = [c for c in hand if c not in sd_legal]
    assert illegal
    got = call_from(sd_puzzle, "link_judge", {"action": illegal[0]})["ok"]
    assert got["legal"] is False and got["code"]
    sd_puzzle.click(f'{ROOT} .hand-you .card[data-card="{illegal[0]}"]')
    sd_puzzle.wait_for_selector("body[data-verdict=illegal]")
    assert "Not allowed: " in sd_puzzle.inner_text(".embed-verdict")

    # play from here: the reader's move, then the computer's, through the hub
    before = len(ck_play.evaluate("() => window.chkobbaEmbed.info.state.view.history"))
    point(ck_play, ROOT, cards[0])
    ck_play.wait_for_function("(n) => window.chkobbaEmbed.info.state.view.history.length >= n + 2", arg=before,
                              timeout=120_000)
    sd_cards = [a for a in sd_legal if a not in ("timeout", "pass", "double", "triple")]
    before = len(sd_play.evaluate("() => window.chkobbaEmbed.info.state.view.history"))
    sd_play.click(f'{ROOT} .hand-you .card[data-card="{sd_cards[0]}"]')
    sd_play.wait_for_function("(n) => window.chkobbaEmbed.info.state.view.history.length >= n + 2", arg=before,
                              timeout=120_000)

    # a frame reaches only its own table: whatever table it names
    index = ck_replay.evaluate("() => window.chkobbaEmbed.info.index")
    for table in ("f0", "embed", "main"):
        out = call_from(ck_puzzle, "link_step", {"table": table, "index": 0})
        assert out.get("code") == "web.embed.mode", out           # its own table is a puzzle
    out = call_from(ck_play, "link_open", {"table": "f0", "link": LINKS["replay"]})
    assert out["ok"]["table"] == "f2"
    assert call_from(ck_replay, "link_step", {"index": index})["ok"]["mode"] == "replay"
    # only the embed's calls: anything else is the facade's refusal, in words
    out = call_from(ck_replay, "start", {"game": "chkobba"})
    assert out["code"] == "web.unknown_call" and "error" in out
    refused = hub.evaluate("() => window.chkobbaHub.refused")
    assert refused >= 1

    # the hub reads only its parent: a frame posting to it straight is ignored
    calls = hub.evaluate("() => window.chkobbaHub.calls")
    ignored = hub.evaluate("() => window.chkobbaHub.ignored")
    ck_puzzle.evaluate("""() => { const hub = parent.frames[parent.frames.length - 1];
        hub.postMessage({type: 'chkobba:call', id: 7, frame: 0, name: 'link_step', payload: '{"index": 5}'}, '*'); }""")
    hub.wait_for_function("(n) => window.chkobbaHub.ignored > n", arg=ignored)
    assert hub.evaluate("() => window.chkobbaHub.calls") == calls
    assert ck_replay.evaluate("() => window.chkobbaEmbed.info.index") == index
    # ... and the host relays nothing from a window it did not mount: a frame's
    # call posted after it reaches the hub after it, and is the only one counted
    refused = hub.evaluate("() => window.chkobbaHub.refused")
    page.evaluate("""() => window.postMessage({type: 'chkobba:call', id: 8, name: 'link_step', payload: '{}'}, '*')""")
    assert call_from(ck_replay, "link_step", {"index": index})["ok"]["mode"] == "replay"
    assert hub.evaluate("() => [window.chkobbaHub.calls, window.chkobbaHub.refused]") == [calls + 1, refused]

    assert counts(page) == (1, 1), counts(page)
    no_violations(page)


def test_hub_keeps_a_table_for_every_frame_it_serves(make_page: Any) -> None:
    """The facade keeps 32 tables; the hub keeps one per frame it serves (64):
    40 frames' tables all stay open. A frame number past that is refused."""
    page = lesson_page(make_page, embeds=[(LINKS["replay"], "one")])
    frames_of(page)[0].wait_for_selector(READY, timeout=240_000)
    hub = hub_frame(page)
    # the host page is the hub's parent: it may call for any frame number
    script = """([frames, link]) => new Promise((resolve) => {
      const hub = document.querySelector('iframe[data-chkobba-hub]').contentWindow;
      const out = {};
      let left = frames.length;
      const on = (e) => {
        if (e.source !== hub || !e.data || e.data.type !== 'chkobba:answer' || !(e.data.id >= 5000)) return;
        out[e.data.id - 5000] = JSON.parse(e.data.answer);
        if (--left === 0) { removeEventListener('message', on); resolve(out); }
      };
      addEventListener('message', on);
      for (const [k, name, payload] of frames)
        hub.postMessage({type: 'chkobba:call', id: 5000 + k, frame: k, name, payload: JSON.stringify(payload)}, '*');
    })"""
    opened = page.evaluate(script, [[[k, "link_open", {"link": LINKS["replay"]}] for k in range(1, 41)], None])
    assert all("ok" in a for a in opened.values()), opened
    stepped = page.evaluate(script, [[[k, "link_step", {"index": 1}] for k in range(1, 41)]
                                     + [[64, "link_step", {"index": 1}]], None])
    assert all(stepped[str(k)]["ok"]["index"] == 1 for k in range(1, 41)), stepped
    assert stepped["64"]["code"] == "web.unknown_call"
    assert hub.evaluate("() => window.chkobbaHub.boots") == 1


def test_a_hub_that_does_not_answer_lets_frames_boot_their_own_one_at_a_time(make_page: Any) -> None:
    page = make_page(viewport={"width": 1280, "height": 1400})
    base = page.base_url
    # hub.html answers nothing (a page with no script): after data-hub-wait
    page.route(f"{base}hub.html", lambda r: r.fulfill(status=200, content_type="text/html",
                                                       body="<!doctype html><title>x</title>"))
    divs = "".join(f'<div data-chkobba-embed="{link}"></div>' for link in (LINKS["replay"], SD_LINKS["replay"]))
    html = PAGE.format(base=base, divs=divs, attrs='data-hub-wait="3000"')
    page.route(f"{base}lesson.html", lambda r: r.fulfill(status=200, content_type="text/html", body=html))
    page.goto(f"{base}lesson.html")
    a, b = frames_of(page)
    for f in (a, b):
        f.wait_for_selector(READY, timeout=240_000)
        assert f.evaluate("() => window.chkobbaEmbed.via") == "own"
    a.click('.embed-controls [data-go="forward"]')
    a.wait_for_selector("body[data-index='1']")
    log = page.evaluate("() => window.chkobbaHost.log")
    assert ["hub-failed", -1] in log and ["hub-ready", -1] not in log, log
    assert page.locator("iframe[data-chkobba-hub]").count() == 0     # removed
    gos = [i for kind, i in log if kind == "go"]
    assert sorted(gos) == [0, 1], log
    for n, (kind, i) in enumerate(log):
        if kind == "go":
            assert log[n + 1] == ["started", i], log
    assert counts(page)[0] == 2


def test_lesson_page_screenshots(make_page: Any) -> None:
    """The host page of six embeds at 360 and 1280 px: every frame fits the
    width, the hidden hub takes no room."""
    for width, height in ((1280, 800), (360, 640)):
        page = lesson_page(make_page, width=width, height=height)
        frames = frames_of(page)
        first = frames[0]
        first.wait_for_selector(READY, timeout=240_000)
        page.eval_on_selector("iframe[data-chkobba-frame]", "e => e.scrollIntoView()")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        hub = page.locator("iframe[data-chkobba-hub]").bounding_box()
        assert hub is None or hub["width"] == 0 and hub["height"] == 0
        ARTIFACTS.mkdir(exist_ok=True)
        for i, f in enumerate(frames):
            el = page.locator("iframe[data-chkobba-frame]").nth(i)
            el.evaluate("e => e.scrollIntoView()")
            f.wait_for_selector(READY, timeout=240_000)
            box = el.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
            if width < 640 and i in (1, 4):      # a phone: one frame at a time
                page.screenshot(path=str(ARTIFACTS / f"embed-hub-lesson-{width}-{i}.png"))
        if width >= 640:
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(ARTIFACTS / f"embed-hub-lesson-{width}.png"), full_page=True)
        assert counts(page) == (1, 1)


def test_a_frame_past_what_the_hub_serves_boots_its_own(make_page: Any) -> None:
    """A page of 65 embeds: the hub serves the first 64 (a table each); the
    65th, scrolled to, starts an interpreter of its own (the old way)."""
    embeds = [(LINKS["replay"], f"position {i}") for i in range(65)]
    page = lesson_page(make_page, width=1280, height=800, embeds=embeds)
    frames = page.locator("iframe[data-chkobba-frame]")
    assert frames.count() == 65
    first = frames.nth(0).element_handle().content_frame()
    first.wait_for_selector(READY, timeout=240_000)
    assert first.evaluate("() => window.chkobbaEmbed.via") == "hub"
    frames.nth(64).evaluate("e => e.scrollIntoView()")
    last = frames.nth(64).element_handle().content_frame()
    last.wait_for_selector(READY, timeout=240_000)
    assert last.evaluate("() => window.chkobbaEmbed.via") == "own"
    log = page.evaluate("() => window.chkobbaHost.log")
    assert ["go", 64] in log and ["started", 64] in log, log
    assert counts(page)[0] == 2      # the hub's and the 65th frame's
