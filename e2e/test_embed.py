"""embed.html: three sandboxed iframes on one host page (replay, play from
here, puzzle) driven by clicks and keys; lazy loading; the height message;
hostile fragments; screenshots of each mode at 360 and 640 px."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chkobba.session import Session
from e2e_driver import ARTIFACTS, shot
from embed_util import WORDS, illegal_move_link, legal_at, links, point, sample_record


READY = "body[data-state=ready]"
ROOT = ".embed-table"
RECORD = sample_record()
LINKS = links(RECORD)
AT = tuple(int(x) for x in LINKS["at"].split(","))

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

    # sandboxed: storage throws in these frames, and nothing broke
    assert replay.evaluate("() => { try { localStorage.length; return 'storage'; } catch (e) { return 'throws'; } }") == "throws"

    # --- replay: buttons and keys, every hand shown, log, round breakdown
    assert embed_state(replay)["index"] == 0
    replay.click('.embed-controls [data-go="forward"]')
    replay.wait_for_selector("body[data-index='1']")
    replay.focus("body")
    replay.press("body", "ArrowRight")
    replay.wait_for_selector("body[data-index='2']")
    replay.press("body", "End")
    last = embed_state(replay)["count"] - 1
    replay.wait_for_selector(f"body[data-index='{last}']")
    assert replay.is_visible(".embed-rounds")
    replay.click(".embed-rounds summary")
    assert replay.is_visible(".embed-rounds table.breakdown")
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
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "http" not in csp and "*" not in csp
    page.wait_for_selector(READY, timeout=180_000)   # Pyodide runs under it
    # an inline script is refused by the policy
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__inline = 1'; document.body.append(s); }""")
    assert page.evaluate("() => window.__inline") is None
    page.watch.console[:] = [c for c in page.watch.console if "Content Security Policy" not in c]


@pytest.mark.parametrize("width", [360, 640])
@pytest.mark.parametrize("mode", ["replay", "play", "puzzle"])
def test_embed_screenshots(make_page: Any, mode: str, width: int) -> None:
    page = make_page(viewport={"width": width, "height": 720})
    page.goto(page.base_url + "embed.html#" + LINKS[mode])
    page.wait_for_selector(READY, timeout=180_000)
    if mode == "replay":
        for _ in range(5):
            page.click('.embed-controls [data-go="forward"]')
        page.wait_for_selector("body[data-index='5']")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{mode} at {width} px scrolls sideways by {overflow} px"
    shot(page, f"embed-{mode}-{width}")
    json.dumps(LINKS)


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
