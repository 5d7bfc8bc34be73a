"""Content-Security-Policy on every page (index, rules, learn, embed): the
meta tag is there, allows only the site's own scripts (no inline script; no
'unsafe-eval': no PyScript since the computer players moved into the page's
interpreter, docs/boot.md), and no
securitypolicyviolation fires while each page is used
(docs/embeds.md "Content-Security-Policy")."""

from __future__ import annotations

from typing import Any

import pytest

from e2e_driver import open_table, pick_action, point_and_play, settle, start_game, state
from embed_util import LINKS, READY, RECORD, SD_LINKS, SD_RECORD, legal_at, links, point

# Every violation (a blocked script, eval, worker, style, image...) is kept.
WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push([e.effectiveDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(' '));
});"""


def csp_page(make_page: Any, **kw: Any) -> Any:
    page = make_page(**kw)
    page.add_init_script(WATCH)
    return page


def policy(page: Any) -> dict[str, list[str]]:
    metas = page.eval_on_selector_all('meta[http-equiv="Content-Security-Policy"]', "els => els.map(e => e.content)")
    assert len(metas) == 1, metas
    out: dict[str, list[str]] = {}
    for part in metas[0].split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def check_policy(page: Any, wasm: bool) -> None:
    """The page's policy: the site's own scripts, WebAssembly where Python runs, never 'unsafe-eval'."""
    p = policy(page)
    assert p["default-src"] == ["'self'"]
    script = ["'self'"] + (["'wasm-unsafe-eval'"] if wasm else [])
    assert p["script-src"] == script
    assert p["object-src"] == ["'none'"] and p["base-uri"] == ["'none'"]
    for directive, sources in p.items():
        assert "'unsafe-eval'" not in sources, directive
        assert not any(s.startswith("http") or s == "*" for s in sources), (directive, sources)


def no_violations(page: Any) -> None:
    for frame in page.frames:
        got = frame.evaluate("() => window.__csp || []")
        assert got == [], (frame.url[:80], got)


def inline_script_is_refused(scope: Any) -> None:
    scope.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__inline = 1'; document.body.append(s); }""")
    assert scope.evaluate("() => window.__inline") is None
    assert any("script-src" in v for v in scope.evaluate("() => window.__csp"))
    scope.evaluate("() => { window.__csp.length = 0; }")


def forget_refused_inline(page: Any) -> None:
    page.watch.console[:] = [c for c in page.watch.console if "Content Security Policy" not in c]


def test_main_table_under_its_policy(make_page: Any) -> None:
    page = csp_page(make_page)
    open_table(page)
    check_policy(page, wasm=True)
    start_game(page)
    page.wait_for_selector("html.ai-ready", state="attached", timeout=180_000)   # the computer players run
    for _ in range(3):
        if settle(page) != "you":
            break
        point_and_play(page, pick_action(state(page)["save"]))
    settle(page)
    no_violations(page)
    inline_script_is_refused(page)
    forget_refused_inline(page)


def test_rules_page_under_its_policy(make_page: Any) -> None:
    page = csp_page(make_page)
    page.goto(page.base_url + "rules.html")
    check_policy(page, wasm=False)
    page.click('a[href="#seven_diamonds"]') if page.locator('a[href="#seven_diamonds"]').count() else None
    page.mouse.wheel(0, 4000)
    no_violations(page)


def test_learn_page_under_its_policy(make_page: Any) -> None:
    from chkobba.links.lessons import load_all
    lesson = load_all()[0]
    step = lesson.steps[0]
    page = csp_page(make_page, viewport={"width": 640, "height": 900})
    page.goto(page.base_url + "learn.html")
    page.wait_for_selector(READY, timeout=180_000)
    check_policy(page, wasm=True)
    point(page, ".learn-table", step.moves[0])
    page.wait_for_selector("body[data-verdict=right]")
    no_violations(page)


@pytest.mark.parametrize("game", ["chkobba", "seven_diamonds"])
def test_embed_modes_under_their_policy(make_page: Any, game: str) -> None:
    lk, record = (LINKS, RECORD) if game == "chkobba" else (SD_LINKS, SD_RECORD)
    at = tuple(int(x) for x in lk["at"].split(","))
    page = csp_page(make_page)
    base = page.base_url
    html = "".join(f'<iframe name="{m}" sandbox="allow-scripts" src="{base}embed.html#{lk[m]}" '
                   'style="width:420px;height:700px;border:0"></iframe>' for m in ("replay", "play", "puzzle"))
    page.route(f"{base}host.html", lambda r: r.fulfill(status=200, content_type="text/html",
                                                        body=f"<!doctype html><title>host</title><body style='margin:0;display:flex'>{html}"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{base}host.html")
    frames = {m: page.frame(name=m) for m in ("replay", "play", "puzzle")}
    for f in frames.values():
        f.wait_for_selector(READY, timeout=240_000)
        check_policy(f, wasm=True)
    frames["replay"].click('.embed-controls [data-go="forward"]')
    frames["replay"].wait_for_selector("body[data-index='1']")
    seat, legal = legal_at(record, at)
    move = next(a for a in legal if a not in ("timeout", "keep", "table", "propose", "pass", "accept", "refuse", "double", "triple"))
    before = len(frames["play"].evaluate("() => window.chkobbaEmbed.info.state.view.history"))
    if game == "chkobba":
        point(frames["play"], ".embed-table", move)
        point(frames["puzzle"], ".embed-table", move)
    else:
        frames["play"].click(f'.embed-table .hand-you .card[data-card="{move}"]')
        frames["puzzle"].click(f'.embed-table .hand-you .card[data-card="{move}"]')
    frames["play"].wait_for_function("(n) => window.chkobbaEmbed.info.state.view.history.length >= n + 2", arg=before)
    frames["puzzle"].wait_for_selector("body[data-verdict]", state="attached")
    no_violations(page)
    inline_script_is_refused(frames["replay"])
    forget_refused_inline(page)


def test_online_page_connects_only_to_its_relays(make_page: Any) -> None:
    """web/online/signal.js narrows the online page's policy to exactly its
    relays before one is contacted: a WebSocket to another address is a
    violation; one to a named relay is not (docs/online.md)."""
    import socket
    ports = []
    for _ in range(2):   # two closed ports on this machine: X, the relay named, and Y, any other
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
    x, y = (f"ws://127.0.0.1:{p}" for p in ports)
    page = csp_page(make_page)
    page.watch.allowed.update({x, y})
    page.goto(page.base_url + "online.html")
    page.wait_for_selector(".ready", state="attached")
    policy(page)   # the static policy alone until a relay is used
    assert page.evaluate("""async (x) => { const m = await import('./online/signal.js');
        return m.limitConnections([x]) && m.limitConnections([x]) && !m.limitConnections([x + '/other']); }""", x)
    metas = page.eval_on_selector_all('meta[http-equiv="Content-Security-Policy"]', "els => els.map(e => e.content)")
    assert metas[1:] == [f"connect-src 'self' {x}"]
    opened = """(url) => new Promise((done) => { try { const ws = new WebSocket(url);
        ws.onerror = ws.onclose = () => done('tried'); } catch (e) { done('refused'); } })"""
    page.evaluate(opened, y)
    page.wait_for_function("(y) => window.__csp.some(v => v.startsWith('connect-src') && v.includes(y))",
                           arg=y.replace("ws://", ""))
    page.evaluate("() => { window.__csp.length = 0; }")
    page.evaluate(opened, x)   # the named relay: tried (its port is closed), not refused by the policy
    no_violations(page)
    page.watch.console[:] = [c for c in page.watch.console
                             if "Content Security Policy" not in c and "WebSocket connection" not in c]
