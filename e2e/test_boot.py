"""The boot path (docs/boot.md): every page loads Pyodide itself
(web/shell/py.js), no PyScript; a first visit boots without the 13.8 MB
memory snapshot, a visit whose offline copy holds it restores it; a broken
snapshot still starts; the player reads what is happening, in the page's
language, before the table is ready."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from e2e_driver import DESKTOP, PHONE, ROOT, open_table, pick_action, point_and_play, saved, settle, start_game

READY_AT = """
window.__readyAt = null;
new MutationObserver((r, obs) => {
  if (document.documentElement.classList.contains('ready')) { window.__readyAt = performance.now(); obs.disconnect(); }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['class']});
"""

SNAPSHOT = re.compile(r".*/snapshot-[0-9a-f]{12}\.bin$")


def _boot(page: Any, infos: list[str], reload: bool = False) -> list[str]:
    """Open (or reload) the page; the paths of the resources it asked for before "ready"."""
    if not infos:
        page.on("console", lambda m: infos.append(m.text) if m.type == "info" else None)
        page.context.add_init_script(READY_AT)
    if reload:
        page.reload()
    else:
        page.goto(page.base_url)
    page.wait_for_function("() => window.__readyAt !== null")
    return page.evaluate("""() => performance.getEntriesByType('resource')
        .filter((e) => e.startTime < window.__readyAt).map((e) => new URL(e.name).pathname)""")


def _snapshot_url(page: Any) -> str:
    """The build's snapshot URL, from the page's boot hints (web/shell/py.js)."""
    url = page.evaluate("() => JSON.parse(document.querySelector('meta[name=\"chkobba-boot\"]').content).snapshot")
    if not url:
        warnings = json.loads((ROOT / "build" / "site" / "build-info.json").read_text()).get("warnings")
        raise AssertionError(f"the site was built without a snapshot; the build's warnings: {warnings}")
    return str(url)


def _keep_snapshot(page: Any, body: bytes | None = None) -> None:
    """Put the build's snapshot (or `body` in its place) into Cache Storage, as
    the offline copy (sw.js) does; the e2e contexts block service workers."""
    url = _snapshot_url(page)
    page.evaluate("""async ([url, body]) => {
        const cache = await caches.open('chkobba-e2e');
        if (body === null) await cache.add(url);
        else await cache.put(url, new Response(body));
    }""", [url, None if body is None else body.decode()])


def test_first_visit_boots_without_the_snapshot_and_without_pyscript(make_page: Any) -> None:
    page = make_page(DESKTOP, fresh=True)
    infos: list[str] = []
    before = _boot(page, infos)
    assert any(p.endswith("/pyodide.asm.wasm") for p in before), before
    assert any(p.endswith("/python_stdlib.zip") for p in before), before
    assert not [p for p in before if SNAPSHOT.match(p)], before
    assert not [p for p in before if "/pyscript" in p or p.endswith(("main.py", "pyodide-lock.json"))], before
    assert page.evaluate("() => window.chkobbaBoot.snapshot") is False
    assert page.evaluate("() => JSON.parse(window.chkobbaPy('ping', '{}')).ok.python").startswith("3.")
    page.wait_for_selector("html.ai-ready")
    # One Python per tab: the computer players are the page's interpreter.
    after = page.evaluate("() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    assert sum(p.endswith("/pyodide.asm.wasm") for p in after) == 1, after
    assert not [p for p in after if "/pyscript" in p], after


def test_page_boots_from_the_snapshot_in_its_offline_copy(make_page: Any) -> None:
    page = make_page(DESKTOP, fresh=True)
    infos: list[str] = []
    _boot(page, infos)
    _keep_snapshot(page)
    _boot(page, infos, reload=True)
    assert page.evaluate("() => window.chkobbaBoot.snapshot") is True
    assert not [t for t in infos if "without its snapshot" in t], infos
    # The restored interpreter answers, and the computer players start in it.
    assert page.evaluate("() => JSON.parse(window.chkobbaPy('ping', '{}')).ok.python").startswith("3.")
    page.wait_for_selector("html.ai-ready")


def test_page_starts_without_a_broken_snapshot(make_page: Any) -> None:
    page = make_page(DESKTOP, fresh=True)
    infos: list[str] = []
    _boot(page, infos)
    _keep_snapshot(page, b"not a snapshot")
    _boot(page, infos, reload=True)
    assert [t for t in infos if "without its snapshot" in t], infos
    assert page.evaluate("() => window.chkobbaBoot.snapshot") is False
    assert page.evaluate("() => JSON.parse(window.chkobbaPy('ping', '{}')).ok.python").startswith("3.")


def test_the_snapshot_needs_no_package_files_before_ready(make_page: Any) -> None:
    """The snapshot holds every module the page can import, so "ready" does
    not wait for the package zip (unpacked afterwards, docs/boot.md): with the
    zip held back, a game starts, the coach (the search modules, imported
    lazily) answers and a move is played."""
    page = make_page(DESKTOP, fresh=True)
    infos: list[str] = []
    _boot(page, infos)
    _keep_snapshot(page)
    held: list[Any] = []
    page.route(re.compile(r".*/chkobba-[0-9a-f]{12}\.zip$"), lambda route: held.append(route))
    open_table(page, "?seed=11")
    assert held, "the page did not ask for the package zip"
    assert page.evaluate("() => window.chkobbaBoot.snapshot") is True
    start_game(page, players=2, levels=("hard",), coach=True)
    assert settle(page) == "you"
    page.click("#table .btn-hint")
    page.wait_for_selector("#table .hints li[data-action]")
    point_and_play(page, pick_action(saved(page)))
    held[0].continue_()
    assert settle(page) == "you"
    assert page.evaluate("() => window.chkobbaApp.workerChoices") > 0


def test_progress_in_the_pages_language_before_ready(make_page: Any, tmp_path: Path) -> None:
    """Never a blank page: from the first paint, before any of the page's
    modules has arrived (held back here), the table's frame says in the page's
    language that the game is downloading (web/shell/first-paint.js); while
    the standard library is held back, it says so with a percentage (French
    and Arabic here); then it gets ready."""
    for lang, words in (("fr", "Téléchargement du jeu"), ("ar", "نحمّلو في اللعبة")):
        page = make_page(PHONE, fresh=True)
        modules: list[Any] = []
        held: list[Any] = []
        released: list[bool] = []

        def holder(held: list[Any], released: list[bool]) -> Any:
            def hold(route: Any) -> None:
                # held until the progress is seen; a request after that goes through
                if released:
                    route.continue_()
                else:
                    held.append(route)
            return hold
        page.route(re.compile(r".*/python_stdlib\.zip$"), holder(held, released))
        page.route(re.compile(r".*/(app|shell/py)\.js$"), lambda route: modules.append(route))
        page.goto(page.base_url + f"?lang={lang}", wait_until="commit")
        page.wait_for_selector("#table", state="attached")
        first = page.evaluate("""() => ({lang: document.documentElement.lang, dir: document.documentElement.dir,
            table: document.querySelector('#table').innerText, frame: !!document.querySelector('#table .ck'),
            brand: document.querySelector('.brand-text').textContent, ready: document.readyState})""")
        page.screenshot(path=str(tmp_path / f"first-paint-{lang}.png"))
        assert words in first["table"] and first["frame"], first
        assert (first["lang"], first["dir"]) == (lang, "rtl" if lang == "ar" else "ltr"), first
        assert first["brand"].strip(), first
        assert not page.evaluate("() => window.chkobbaBoot"), "the modules were held back"
        box = page.locator("#table .loading-indicator").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        for route in modules:
            route.continue_()
        page.unroute(re.compile(r".*/(app|shell/py)\.js$"))
        page.wait_for_function("() => window.chkobbaBoot && window.chkobbaBoot.loaded > 0")
        # the table, mounted over the first paint's frame, counts the download
        page.wait_for_function("(w) => (document.querySelector('#table .ck:not(.first-paint) .loading-text') || {})"
                               ".textContent?.includes(w)", arg=words)
        text = page.inner_text("#table .loading-text")
        assert re.search(r"[0-9٠-٩]", text), text
        assert page.evaluate("() => document.documentElement.classList.contains('ready')") is False
        assert page.evaluate("() => document.documentElement.lang") == lang
        # on screen, in Arabic (right to left) too: nothing pushed sideways
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        box = page.locator("#table .loading-indicator").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert held, "the page did not ask for the standard library"
        released.append(True)
        for route in held:   # every request held (a second one would wait for ever)
            route.continue_()
        page.wait_for_selector("html.ready")


def test_a_module_left_out_of_the_standard_library_still_imports(make_page: Any) -> None:
    """The page's standard-library zip holds only what the page imports
    (scripts/build_site.py); any other module comes from the rest zip the
    first time it is imported."""
    page = make_page(DESKTOP, fresh=True)
    infos: list[str] = []
    _boot(page, infos)
    assert "calendar" in page.evaluate(
        "() => JSON.parse(document.querySelector('meta[name=\"chkobba-boot\"]').content).stdlibRest")
    got = page.evaluate("""async () => (await import('./shell/py.js')).runPython(
        'import calendar, encodings.cp1252\\ncalendar.isleap(2028) and b"\\\\x80".decode("cp1252") == "\\u20ac"')""")
    assert got is True
    assert [t for t in infos if "rest of the standard library" in t], infos
    page.watch.console[:] = [c for c in page.watch.console if "Synchronous XMLHttpRequest" not in c]


def test_the_browser_makes_the_snapshot_for_the_next_visit(make_page: Any) -> None:
    """A first visit downloads no snapshot; once the table and its players are
    up, a worker makes one from the files the browser has and keeps it
    (Cache Storage); the next visit restores it and plays."""
    page = make_page(DESKTOP, snapshot_worker=True)
    infos: list[str] = []
    _boot(page, infos)
    _snapshot_url(page)
    for _ in range(600):   # up to 5 minutes; a failure the page reports ends the wait
        if page.evaluate("() => document.documentElement.classList.contains('snapshot-kept')"):
            break
        assert not [t for t in infos if "No snapshot for the next visit" in t], infos
        page.wait_for_timeout(500)
    else:
        raise AssertionError("no snapshot kept after 5 minutes")
    asked = page.evaluate("() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    assert not [p for p in asked if SNAPSHOT.match(p)], asked
    _boot(page, infos, reload=True)
    assert page.evaluate("() => window.chkobbaBoot.snapshot") is True
    assert not [t for t in infos if "snapshot" in t.lower()], infos
    start_game(page, players=2, levels=("hard",))
    settle(page)
    point_and_play(page, pick_action(saved(page)))
    assert settle(page) == "you"
