"""The boot path (docs/boot.md): the page loads Pyodide itself, from the
build's memory snapshot, with no PyScript before it is ready; without the
snapshot it still starts."""

from __future__ import annotations

import re
from typing import Any

from e2e_driver import DESKTOP, open_table, pick_action, point_and_play, saved, settle, start_game

READY_AT = """
window.__readyAt = null;
new MutationObserver((r, obs) => {
  if (document.documentElement.classList.contains('ready')) { window.__readyAt = performance.now(); obs.disconnect(); }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['class']});
"""


def _boot(page: Any, infos: list[str]) -> list[str]:
    """Open the page; the paths of the resources it asked for before "ready"."""
    page.on("console", lambda m: infos.append(m.text) if m.type == "info" else None)
    page.context.add_init_script(READY_AT)
    page.goto(page.base_url)
    page.wait_for_function("() => window.__readyAt !== null")
    return page.evaluate("""() => performance.getEntriesByType('resource')
        .filter((e) => e.startTime < window.__readyAt).map((e) => new URL(e.name).pathname)""")


def test_page_boots_from_the_snapshot_without_pyscript(make_page: Any) -> None:
    page = make_page(DESKTOP)
    infos: list[str] = []
    before = _boot(page, infos)
    assert any(re.search(r"/snapshot-[0-9a-f]{12}\.bin$", p) for p in before), before
    assert any(p.endswith("/pyodide.asm.wasm") for p in before), before
    # PyScript is the computer players' worker only, started after "ready".
    assert not [p for p in before if "/pyscript" in p or p.endswith(("main.py", "pyodide-lock.json"))], before
    assert not [t for t in infos if "without its snapshot" in t], infos
    # The restored interpreter answers.
    assert page.evaluate("() => JSON.parse(window.chkobbaPy('ping', '{}')).ok.python").startswith("3.")
    page.wait_for_selector("html.ai-ready")


def test_page_starts_without_its_snapshot(make_page: Any) -> None:
    page = make_page(DESKTOP)
    # A broken snapshot (a failed request would log a console error).
    page.route(re.compile(r".*/snapshot-[0-9a-f]{12}\.bin$"),
               lambda route: route.fulfill(status=200, body=b"not a snapshot"))
    infos: list[str] = []
    _boot(page, infos)
    assert [t for t in infos if "without its snapshot" in t], infos
    assert page.evaluate("() => JSON.parse(window.chkobbaPy('ping', '{}')).ok.python").startswith("3.")


def test_the_snapshot_needs_no_package_files_before_ready(make_page: Any) -> None:
    """The snapshot holds every module the page can import, so "ready" does
    not wait for the package zip (unpacked afterwards, docs/boot.md): with the
    zip held back, a game starts, the coach (the search modules, imported
    lazily) answers and a move is played."""
    page = make_page(DESKTOP)
    held: list[Any] = []

    def hold_first(route: Any) -> None:   # the page's request; the AI worker's passes
        if held:
            route.continue_()
        else:
            held.append(route)
    page.route(re.compile(r".*/chkobba-[0-9a-f]{12}\.zip$"), hold_first)
    infos: list[str] = []
    page.on("console", lambda m: infos.append(m.text) if m.type == "info" else None)
    open_table(page, "?seed=11")
    assert held, "the page did not ask for the package zip"
    assert not [t for t in infos if "without its snapshot" in t], infos
    start_game(page, players=2, levels=("hard",), coach=True)
    assert settle(page) == "you"
    page.click("#table .btn-hint")
    page.wait_for_selector("#table .hints li[data-action]")
    # The same coach on the page's own interpreter (the button asks the worker).
    hint = page.evaluate("""() => JSON.parse(window.chkobbaPy('hint', JSON.stringify(
        {save: JSON.parse(localStorage.getItem('chkobba.save.v1')), seat: 0})))""")
    assert "ok" in hint and hint["ok"]["actions"], hint
    point_and_play(page, pick_action(saved(page)))
    held[0].continue_()
    assert settle(page) == "you"
