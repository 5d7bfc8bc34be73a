"""web/examples/tutorial.html: the engine in a page written with PyScript
(docs/pyscript.md), served from a plain static folder as a blog's host would
serve it (no _headers, no brotli copies, Python's own file server).

PyScript starts on the site's own Pyodide, the page's four Python blocks
run in one Python, and each live table answers a wrong and a right move,
picked by clicks, with the engine's words in the page's language (Arabic
right to left, French, English); no request leaves the origin (every other
one is aborted and fails the test), nothing is logged as a warning or an
error, and the page fits 360x640, 320x568 and 640x360 without sideways
scrolling (sideways, each table with its verdict fits the screen's height).
After one visit the site's service worker has it: it comes up offline."""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

import catalogs
from conftest import console_problem
from e2e_driver import ARTIFACTS, PHONE

SMALL = {"width": 320, "height": 568}
LANDSCAPE = {"width": 640, "height": 360}
PAGE = "examples/tutorial.html"
READY = "() => document.querySelectorAll('[data-chkobba=ready]').length === 4"
# each live table of the tutorial: its element, a wrong move and the code of
# the engine's reason for it, the move the tutorial asks for
TABLES = [
    ("by-value", "7Dx4S", "capture.value_mismatch", "7Dx7H"),
    ("by-sum", "7Dx3SJH", "capture.sum_mismatch", "7Dx3S4C"),
    ("value-first", "5Dx2C3H", "capture.value_first", "5Dx5S"),
    ("chkobba", "7H", "lesson.not_this", "7Hx3S4C"),
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Shared(_Quiet):
    """A host that lets other sites' pages use its files (the site's _headers
    asks so of hosts that read it)."""

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


def serve(folder: Path, handler: type = _Quiet) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def static_url(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The built site copied to a plain folder (what a writer uploads),
    served by Python's own static file server."""
    folder = tmp_path_factory.mktemp("blog") / "site"
    shutil.copytree(site, folder, ignore=shutil.ignore_patterns("*.br", "_headers"))
    server = serve(folder)
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


class Watch:
    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.foreign: list[str] = []
        self.requests: list[str] = []
        self.problems: list[str] = []

    def mine(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("blob", "data") or f"{parts.scheme}://{parts.netloc}" == self.origin

    def on_request(self, r: Any) -> None:
        self.requests.append(r.url)
        if not self.mine(r.url):
            self.foreign.append(r.url)

    def route(self, route: Any) -> None:
        if self.mine(route.request.url):
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()

    def on_console(self, msg: Any) -> None:
        problem = console_problem(msg)
        if problem:
            self.problems.append(problem)

    def check(self) -> None:
        assert not self.foreign, f"requests to another origin: {self.foreign}"
        assert not self.problems, self.problems


def open_context(browser: Any, static_url: str, viewport: dict[str, int], **kw: Any) -> tuple[Any, Watch]:
    ctx = browser.new_context(viewport=viewport, **kw)
    watch = Watch(static_url.rstrip("/"))
    ctx.on("request", watch.on_request)
    return ctx, watch


def new_page(ctx: Any, watch: Watch) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    page.on("console", watch.on_console)
    page.on("pageerror", lambda e: watch.problems.append(f"uncaught: {e}"))
    return page


def literal_parts(template: str) -> list[str]:
    """The words of a catalog text, without its {placeholders}."""
    parts = (p.strip(" .:،,") for p in re.split(r"\{[a-z_]+\}", template))
    return [p for p in parts if len(p) >= 2]


def play(page: Any, where: str, action: str) -> None:
    """``action`` by clicks: the hand's card, the table's cards, Take (or Lay)."""
    card, _, take = action.partition("x")
    page.click(f'#{where} .hand-you .card[data-card="{card}"]')
    for i in range(0, len(take), 2):
        page.click(f'#{where} .table-cards .card[data-card="{take[i:i + 2]}"]')
    page.click(f'#{where} .controls [data-act="{"take" if take else "lay"}"]')


def verdict(page: Any, where: str, n: int) -> dict[str, str]:
    """The table's n-th verdict, once it is shown."""
    page.wait_for_function("([w, n]) => chkobbaPage.tables.find((t) => t.element.id === w).verdicts.length >= n",
                           arg=[where, n])
    return dict(page.evaluate("([w, n]) => chkobbaPage.tables.find((t) => t.element.id === w).verdicts[n - 1]",
                              [where, n]))


def fits(page: Any, where_all: tuple[str, ...] = tuple(t[0] for t in TABLES)) -> None:
    width = page.evaluate("() => innerWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    for where in where_all:
        box = page.locator(f"#{where}").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (where, box, width)


@pytest.mark.parametrize("lang", ["ar", "fr", "en"])
def test_each_table_answers_in_the_pages_language(browser: Any, site: Path, static_url: str, lang: str) -> None:
    words = catalogs.load(lang)
    english = catalogs.load("en")
    ctx, watch = open_context(browser, static_url, PHONE, service_workers="block")
    ctx.route("**/*", watch.route)
    try:
        page = new_page(ctx, watch)
        page.goto(f"{static_url}{PAGE}?lang={lang}")
        page.wait_for_function(READY)
        if lang == "en":
            write_costs(page, site, static_url, watch.requests)
        # PyScript ran the four blocks in one Python, on the site's Pyodide
        assert page.evaluate("() => chkobbaPage.tables.length") == 4
        assert page.evaluate("() => document.documentElement.lang") == lang
        direction = "rtl" if lang == "ar" else "ltr"
        assert page.evaluate("() => document.documentElement.dir") == direction
        assert page.locator("h1").inner_text() == words["examples.title"]
        for where, *_ in TABLES:
            assert page.get_attribute(f"#{where}", "dir") == direction
        for where, wrong, code, right in TABLES:
            v = verdict_after(page, where, wrong, 1)
            assert v["cls"] == "wrong", (where, v)
            for part in literal_parts(words[f"msg.{code}"]) + literal_parts(words["learn.not_this"]):
                assert part in v["text"], (where, part, v["text"])
            if lang != "en":
                assert not any(p in v["text"] for p in literal_parts(english[f"msg.{code}"])), v["text"]
            assert page.locator(f'#{where} .hand-you .card[data-card="{wrong[:2]}"]').count() == 1
            v = verdict_after(page, where, right, 2)
            assert v["cls"] == "right", (where, v)
            for part in literal_parts(words["msg.lesson.right"]):
                assert part in v["text"], (where, part, v["text"])
            card, _, take = right.partition("x")
            assert page.locator(f'#{where} .hand-you .card[data-card="{card}"]').count() == 0
            for i in range(0, len(take), 2):
                assert page.locator(f'#{where} .table-cards .card[data-card="{take[i:i + 2]}"]').count() == 0
        # the chkobba: the table is empty
        assert page.locator("#chkobba .table-cards .card").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"pyscript-tutorial-{lang}-360.png"), full_page=True)
        fits(page)
        page.set_viewport_size(SMALL)
        page.wait_for_timeout(100)   # (one layout after the resize)
        fits(page)
        page.screenshot(path=str(ARTIFACTS / f"pyscript-tutorial-{lang}-320.png"), full_page=True)
        # a phone held sideways: each table, with its verdict, fits the screen's height
        page.set_viewport_size(LANDSCAPE)
        page.wait_for_timeout(100)
        fits(page)
        for where, *_ in TABLES:
            height = page.locator(f"#{where}").bounding_box()["height"]
            assert height <= LANDSCAPE["height"], (where, height)
        # PyScript's own files: its core and its error plugin, none of the optional ones
        fetched = {re.sub(r"-[\w-]{8}\.js$", ".js", u.rsplit("/", 1)[1]) for u in watch.requests if "/pyscript/" in u}
        assert fetched == {"core.js", "error.js"}, fetched
        assert any(u.endswith("/pyodide.asm.wasm") for u in watch.requests)
        watch.check()
    finally:
        ctx.close()


def write_costs(page: Any, site: Path, static_url: str, requests: list[str]) -> None:
    """What the first visit cost (docs/pyscript.md): each file the page
    fetched, its bytes as stored and as brotli (the build's .br copy), and
    the time from the page's start to its four tables drawn."""
    files: dict[str, list[int]] = {}
    for url in requests:
        rel = urlsplit(url).path.lstrip("/")
        if url.startswith(static_url) and (site / rel).is_file():
            br = site / f"{rel}.br"
            raw = (site / rel).stat().st_size
            files[rel] = [raw, br.stat().st_size if br.is_file() else raw]
    ready_ms = page.evaluate("() => performance.now()")
    total = [sum(v[0] for v in files.values()), sum(v[1] for v in files.values())]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "pyscript-costs.json").write_text(json.dumps(
        {"files": files, "bytes": total[0], "brotli_bytes": total[1], "ready_ms": round(ready_ms)}, indent=1) + "\n")


def verdict_after(page: Any, where: str, action: str, n: int) -> dict[str, str]:
    play(page, where, action)
    return verdict(page, where, n)


def test_offline_after_one_visit(browser: Any, static_url: str) -> None:
    """The example registers the site's service worker (the site's pages
    do too): after one visit, PyScript, the engine and the page come from
    its cache with no network."""
    ctx, watch = open_context(browser, static_url, PHONE, service_workers="allow")
    failed: list[str] = []
    ctx.on("requestfailed", lambda r: failed.append(r.url))
    try:
        page = new_page(ctx, watch)
        page.goto(f"{static_url}{PAGE}?lang=en")
        page.wait_for_function(READY)
        page.wait_for_function("""async () => { const r = await navigator.serviceWorker.ready;
            return !!r.active && !!navigator.serviceWorker.controller; }""")
        cached = page.evaluate("""async () => { const keys = await caches.keys();
            const c = await caches.open(keys.find(k => k.startsWith('chkobba-')));
            return (await c.keys()).map(r => new URL(r.url).pathname); }""")
        for needed in ("/examples/tutorial.html", "/page/pyscript.js", "/page/bridge.js", "/page/page.css"):
            assert needed in cached, (needed, cached)
        assert any(p.startswith("/pyscript/") and p.endswith("/core.js") for p in cached), cached

        ctx.set_offline(True)
        page.goto(f"{static_url}{PAGE}?lang=fr")
        page.wait_for_function(READY)
        assert page.evaluate("() => navigator.onLine") is False
        v = verdict_after(page, "by-value", "7Dx4S", 1)
        assert v["cls"] == "wrong" and "vaut" in v["text"], v
        assert not failed, failed
        watch.check()
    finally:
        ctx.close()


BLOG = """<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mon blog</title>
<style>body {{ background: rgb(250, 240, 200); color: rgb(20, 20, 20); font-family: serif; }}</style>
<script type="module" src="{site}page/pyscript.js"></script></head>
<body><h1>La prise par la valeur</h1><div id="t"></div><div id="bad"></div>
<script type="py">
from chkobba import page
page.table("#t", page.setup(hands=["7D 3C KH", "QS 2H 5C"], table="7H 4S JC"), right=["7Dx7H"])
page.table("#bad", lambda: page.setup(hands=["7D 9D", "KH"]))
</script></body></html>"""


def test_a_writers_page_on_another_site(browser: Any, site: Path, tmp_path: Path) -> None:
    """A blog on its own origin includes the one module from the engine's
    site (which lets other origins use its files): the table answers in the
    blog's language, a bad position says why in one line, and the blog's
    own look, language and direction stay its own."""
    engine = serve(site, _Shared)
    site_url = f"http://127.0.0.1:{engine.server_port}/"
    (tmp_path / "post.html").write_text(BLOG.format(site=site_url))
    blog = serve(tmp_path)
    blog_url = f"http://localhost:{blog.server_port}/"
    ctx, watch = open_context(browser, blog_url, PHONE, service_workers="block")
    watch.origin = blog_url.rstrip("/")
    extra = site_url.rstrip("/")
    watch.mine = lambda url: Watch.mine(watch, url) or url.startswith(extra)  # type: ignore[method-assign]
    ctx.route("**/*", watch.route)
    words = catalogs.load("fr")
    try:
        page = new_page(ctx, watch)
        page.goto(f"{blog_url}post.html")
        page.wait_for_function("() => document.querySelector('#t[data-chkobba=ready]')"
                               " && document.querySelector('#bad[data-chkobba=error]')")
        bad = page.inner_text("#bad")
        assert all(p in bad for p in literal_parts(words["page.error"])), bad
        assert "9D" in bad or "9♦" in bad, bad
        v = verdict_after(page, "t", "7Dx4S", 1)
        assert v["cls"] == "wrong" and "vaut" in v["text"], v
        v = verdict_after(page, "t", "7Dx7H", 2)
        assert v["cls"] == "right" and words["msg.lesson.right"] in v["text"], v
        assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["fr", ""]
        look = page.evaluate("() => { const s = getComputedStyle(document.body); return [s.backgroundColor, s.fontFamily]; }")
        assert look == ["rgb(250, 240, 200)", "serif"], look
        assert page.evaluate("() => getComputedStyle(document.querySelector('h1')).fontFamily") == "serif"
        assert any(u.startswith(extra) for u in watch.requests)
        fits(page, ("t", "bad"))
        page.screenshot(path=str(ARTIFACTS / "pyscript-blog-fr-360.png"), full_page=True)
        watch.check()
    finally:
        ctx.close()
        for server in (engine, blog):
            server.shutdown()
            server.server_close()


MODES_PAGE = "examples/modes.html"


def controller(page: Any, where: str, prop: str) -> Any:
    return page.evaluate("([w, p]) => chkobbaPage.tables.find((t) => t.element.id === w)[p]", [where, prop])


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_the_embeds_modes_on_a_writers_page(browser: Any, static_url: str, lang: str) -> None:
    """web/examples/modes.html: one game asked three ways from Python
    (``page.table(..., mode=...)``), each table answering through the
    embeds' facade calls in the page's language: the replay steps forward,
    a move played on gets the computer's answer, the puzzle says why a move
    is not the best and then that the best one is."""
    words = catalogs.load(lang)
    ctx, watch = open_context(browser, static_url, PHONE, service_workers="block")
    ctx.route("**/*", watch.route)
    try:
        page = new_page(ctx, watch)
        page.goto(f"{static_url}{MODES_PAGE}?lang={lang}")
        page.wait_for_function("() => document.querySelectorAll('[data-chkobba=ready]').length === 3")
        assert page.locator("h1").inner_text() == words["examples.modes.title"]
        for where in ("replay", "play", "puzzle"):
            assert page.get_attribute(f"#{where}", "data-mode") == where
            assert page.inner_text(f"#{where} .chkobba-page-mode") == words[f"embed.mode.{where}"]
        # replay: the deal, then forward one move (the record's first: the dealer keeps the deal)
        assert page.get_attribute("#replay", "data-index") == "0"
        deal = words["embed.status.replay_deal"].replace("{round}", "1")
        assert page.inner_text("#replay .turn") == deal
        assert page.locator("#replay [data-go=back]").is_disabled()
        page.click("#replay [data-go=forward]")
        page.wait_for_function("() => document.querySelector('#replay').dataset.index === '1'")
        assert page.inner_text("#replay .chkobba-page-pos") == words["embed.replay.position"].replace(
            "{n}", "2").replace("{count}", "4")
        assert page.inner_text("#replay .turn") != deal
        # play from here: the reader's capture, then the computer's answer
        assert page.get_attribute("#play", "data-to-act") == "1"
        play(page, "play", "6Sx6H")
        page.wait_for_function("() => chkobbaPage.tables.find((t) => t.element.id === 'play').moves.length === 1"
                               " && document.querySelector('#play').dataset.toAct === '1'")
        assert page.locator('#play .hand-you .card[data-card="6S"]').count() == 0
        assert not controller(page, "play", "busy")
        # puzzle: a legal move that is not the best, then the best one
        v = verdict_after(page, "puzzle", "QS", 1)
        assert v["cls"] == "wrong" and words["msg.web.embed.wrong"] in v["text"], v
        assert words["embed.try_again"] in v["text"]
        assert page.locator('#puzzle .hand-you .card[data-card="QS"]').count() == 1
        v = verdict_after(page, "puzzle", "6Sx6H", 2)
        assert v["cls"] == "right" and words["msg.web.embed.right"] in v["text"], v
        assert controller(page, "puzzle", "solved") is True
        assert page.inner_text("#puzzle .turn") == words["embed.status.puzzle_solved"]
        direction = "rtl" if lang == "ar" else "ltr"
        for where in ("replay", "play", "puzzle"):
            assert page.get_attribute(f"#{where}", "dir") == direction
        fits(page, ("replay", "play", "puzzle"))
        page.set_viewport_size(SMALL)
        page.wait_for_timeout(100)
        fits(page, ("replay", "play", "puzzle"))
        page.screenshot(path=str(ARTIFACTS / f"pyscript-modes-{lang}-320.png"), full_page=True)
        watch.check()
    finally:
        ctx.close()
