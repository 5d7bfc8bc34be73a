"""Updates never break a game.

Two builds of the site (different build ids) are served from the same folder,
one after the other, to a browser with the service worker running: the new
version installs in the background, is offered only when no round is in
progress (never mid-round, withdrawn when a round starts), and after the
player accepts, the page runs the new version and the saved game resumes.

Also: a save written by the v0.1 site ({"v": 1, "record", "seed", "seats",
"coach"} under localStorage key chkobba.save.v1) resumes."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

from chkobba.session import Session
from conftest import LONGTASK_SCRIPT, PageWatch, run_build
from e2e_driver import (PHONE, ROOT, load_save, open_table, pick_action, point_and_play, saved, settle, shot,
                        start_game, state)
import serve
from serve import start_server

BUILD_INFO = "async () => (await (await fetch('build-info.json')).json()).build_id"
# wait_for_function does not wait for a promise: these predicates are plain.
WAITING = "() => document.documentElement.classList.contains('update-waiting')"
CONTROLLED = "() => !!navigator.serviceWorker.controller"
CHECK_NOW = """async () => { const r = await navigator.serviceWorker.getRegistration();
    await r.update().catch(() => {}); }"""
REGISTRATION = """async () => { const r = await navigator.serviceWorker.getRegistration();
    const s = (w) => w && new URL(w.scriptURL).pathname;
    return {waiting: s(r.waiting), active: r.active && r.active.state}; }"""


def build(out: Path, build_id: str) -> None:
    run_build("--out", str(out), "--build-id", build_id)


def goes_on_from(record: dict[str, Any], before: dict[str, Any]) -> bool:
    """``record`` is ``before`` or the same game played further in its last round."""
    rounds, prev = record["rounds"], before["rounds"]
    if {k: v for k, v in record.items() if k != "rounds"} != {k: v for k, v in before.items() if k != "rounds"}:
        return False
    if len(rounds) != len(prev) or rounds[:-1] != prev[:-1]:
        return False
    last, was = rounds[-1], prev[-1]
    return bool(last["decks"] == was["decks"] and last["actions"][:len(was["actions"])] == was["actions"])


def offer_shown(page: Any) -> bool:
    return bool(page.locator("#update").is_visible())


def play_round_checking_no_offer(page: Any, max_turns: int = 80) -> None:
    """Play the human seat until the round summary; the offer never shows meanwhile."""
    for _ in range(max_turns):
        where = settle(page)
        if where == "summary":
            return
        assert where == "you", where
        assert not offer_shown(page), "an update was offered in the middle of a round"
        point_and_play(page, pick_action(saved(page)))
    raise AssertionError("the round did not end")


def test_update_is_offered_between_rounds_only_and_the_save_resumes(browser: Any, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build(site, "e2e-v1")
    server = start_server(site)
    port = server.server_address[1]
    # What reaches this server, in order (the service worker's downloads too).
    served: list[str] = []
    original_log = serve.Handler.log_request

    def log_request(self: Any, code: Any = "-", size: Any = "-") -> None:
        if self.server.server_address[1] == port:
            served.append(self.path)

    serve.Handler.log_request = log_request  # type: ignore[method-assign]
    ctx = browser.new_context(viewport=PHONE, service_workers="allow")
    watch = PageWatch(server.url.rstrip("/"))
    console: list[str] = []
    ctx.on("request", lambda r: watch.requests.append(r.url))
    ctx.add_init_script(LONGTASK_SCRIPT)
    try:
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda e: watch.errors.append(str(e)))
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        page.base_url = server.url
        page.goto(server.url + "?seed=21")
        page.wait_for_selector("html.ready")
        page.wait_for_selector("html.ai-ready")
        page.wait_for_function(CONTROLLED)
        assert page.evaluate(BUILD_INFO) == "e2e-v1"

        # Mid-round, with a save.
        start_game(page, players=2, levels=("easy",))
        for _ in range(3):
            assert settle(page) == "you"
            point_and_play(page, pick_action(saved(page)))
        assert settle(page) == "you"
        before = saved(page)

        # The next version goes up while the game is open; the player reloads.
        # While it is built, the page keeps asking for a new version, as its
        # update check may at any moment (the browser does not always send
        # them during the build): the build puts the new site in place whole,
        # so no check finds a half-built one (web/sw.js's template was once
        # installed as an "update" that cached nothing; tests/test_build_in_place.py
        # and the test below check each half of the fix).
        since_v2 = len(served)
        failed: list[BaseException] = []

        def build_v2() -> None:
            try:
                build(site, "e2e-v2")
            except BaseException as exc:  # (raised again below, in the test's thread)
                failed.append(exc)

        building = threading.Thread(target=build_v2)
        building.start()
        while building.is_alive():
            page.evaluate(CHECK_NOW)
            page.wait_for_timeout(100)
        building.join()
        if failed:
            raise failed[0]
        v2 = json.loads((site / "build-info.json").read_text())["version"]
        page.reload()
        page.wait_for_selector("html.ready")
        assert saved(page)["record"] == before["record"], "the reload lost the game"
        assert page.evaluate(BUILD_INFO) == "e2e-v1", "the new version took over mid-round"
        page.wait_for_function(WAITING)
        assert page.evaluate(REGISTRATION) == {"waiting": "/sw.js", "active": "activated"}
        # The version waiting is the new build's (its cache is filled before it waits).
        caches = page.evaluate("async () => (await caches.keys()).filter(k => k.startsWith('chkobba-'))")
        assert f"chkobba-{v2}" in caches and len(caches) == 2, caches
        # The new version downloaded only what changed (its build id is in
        # build-info.json and sw.js); everything else was copied from the
        # cache of the version before.
        fetched = {p.split("?")[0] for p in served[since_v2:]}
        assert "/build-info.json" in fetched and "/sw.js" in fetched, fetched
        assert not {p for p in fetched if p.startswith("/pyodide/") or p.endswith((".zip", ".js", ".html"))
                    and p != "/sw.js"}, fetched
        assert settle(page) == "you"
        assert not offer_shown(page), "an update was offered in the middle of a round"
        shot(page, "update-mid-round-phone")

        # Between rounds it is offered; when the next round starts it is withdrawn.
        play_round_checking_no_offer(page)
        page.wait_for_selector("#update", state="visible")
        shot(page, "update-offered-phone")
        assert page.evaluate(BUILD_INFO) == "e2e-v1"
        page.click("#summary-next")
        page.wait_for_selector("#update", state="hidden")
        play_round_checking_no_offer(page)
        page.wait_for_selector("#update", state="visible")
        between = saved(page)

        # Accepted: the page reloads into the new version and the game goes on.
        with page.expect_navigation():
            page.click("#update-reload")
        page.wait_for_selector("html.ready")
        page.wait_for_function(CONTROLLED)
        assert page.evaluate(BUILD_INFO) == "e2e-v2"
        # The game resumes where it was; the computer may already have played on.
        assert goes_on_from(saved(page)["record"], between["record"])
        assert goes_on_from(state(page)["save"]["record"], between["record"])
        caches = page.evaluate("async () => (await caches.keys()).filter(k => k.startsWith('chkobba-'))")
        assert len(caches) == 1, caches
        assert not offer_shown(page)
        where = settle(page)
        assert where in ("you", "summary"), where
        if where == "you":
            point_and_play(page, pick_action(saved(page)))
        assert not watch.foreign(), watch.foreign()
        assert not watch.errors, watch.errors
        assert not console, console
    finally:
        serve.Handler.log_request = original_log  # type: ignore[method-assign]
        ctx.close()
        server.shutdown()
        server.server_close()


# Registers ./sw.js and waits for its install to end: the worker's last state
# (activated, or redundant when its install failed) and the site's caches.
INSTALL_OUTCOME = """async () => {
    const r = await navigator.serviceWorker.register('./sw.js');
    const w = r.installing || r.waiting || r.active;
    const done = () => !w || w.state === 'activated' || w.state === 'redundant';
    const until = Date.now() + 20000;
    while (!done() && Date.now() < until) await new Promise((ok) => setTimeout(ok, 50));
    return { state: w ? w.state : null, caches: (await caches.keys()).filter((k) => k.startsWith('chkobba-')) };
  }"""


def test_the_service_worker_template_is_never_installed(browser: Any, tmp_path: Path) -> None:
    """web/sw.js as it is (its file list not filled by the build: a site
    half-built in place, or served unbuilt) refuses to install: no version
    with an empty cache ever takes over or waits as an update."""
    site = tmp_path / "site"
    build(site, "e2e-template")
    shutil.copy2(ROOT / "web" / "sw.js", site / "sw.js")
    for copy in site.glob("sw.js.*"):   # (the build's brotli copy would be sent instead)
        copy.unlink()
    server = start_server(site)
    ctx = browser.new_context(viewport=PHONE, service_workers="allow")
    try:
        page = ctx.new_page()
        page.goto(server.url + "?seed=3")
        page.wait_for_selector("html.ready")
        assert page.evaluate(INSTALL_OUTCOME) == {"state": "redundant", "caches": []}
        # what the browser was sent is the template (not served from any copy)
        assert "__PRECACHE_FILES__" in page.evaluate("async () => (await fetch('sw.js', {cache: 'no-store'})).text()")
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()


def test_a_save_of_the_v01_site_resumes(make_page: Any) -> None:
    session = Session.new("chkobba", {"players": 2, "target": 21, "faces": "JQK"}, seed=99)
    for _ in range(6):
        session.apply(session.legal()[0] if session.to_act() != 0 else session.legal()[-1])
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    v01 = {"v": 1, "record": session.record(), "seed": session.seed, "seats": seats, "coach": False}
    page = make_page(PHONE)
    open_table(page)
    load_save(page, v01)
    st = state(page)
    assert st["save"]["record"]["rounds"] == v01["record"]["rounds"]
    assert st["save"]["record"]["options"]["faces"] == "JQK" and st["view"]["target"] == 21
    assert [s.get("level") for s in st["seats"]] == [None, "easy"]
    assert page.locator("#notice").is_hidden(), page.inner_text("#notice")
    # ... and play goes on from there.
    page.select_option("#pace", "instant")
    where = settle(page)
    if where == "you":
        point_and_play(page, pick_action(saved(page)))
        assert len(saved(page)["record"]["rounds"][-1]["actions"]) > len(v01["record"]["rounds"][-1]["actions"])
