"""The installable, offline site: its manifest and icons, and a table that
comes up with no network once the service worker has cached the site.

The only test that lets service workers run (every other context blocks
them, see conftest.make_page)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urljoin

from conftest import LONGTASK_SCRIPT, PageWatch
from e2e_driver import PHONE, settle, shot, start_game, state


def test_manifest_and_icons(make_page: Any) -> None:
    page = make_page(PHONE)
    page.goto(page.base_url)
    href = page.get_attribute('link[rel="manifest"]', "href")
    resp = page.request.get(urljoin(page.base_url, href))
    assert resp.ok and resp.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(resp.text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    sizes = {i["sizes"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    for icon in manifest["icons"]:
        got = page.request.get(urljoin(page.base_url, icon["src"]))
        assert got.ok and got.headers["content-type"] == icon["type"], icon


def test_offline_reload_after_one_visit(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport=PHONE, service_workers="allow")
    watch = PageWatch(base_url.rstrip("/"))
    failed: list[str] = []
    ctx.on("request", lambda r: watch.requests.append(r.url))
    ctx.on("requestfailed", lambda r: failed.append(r.url))
    ctx.add_init_script(LONGTASK_SCRIPT)
    try:
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda e: watch.errors.append(str(e)))
        page.on("console", watch.on_console)
        page.goto(base_url + "?seed=11")
        page.wait_for_selector("html.ready")
        page.wait_for_selector("html.ai-ready")
        # Installed (every file precached) and in control of this page.
        page.wait_for_function("""async () => { const r = await navigator.serviceWorker.ready;
            return !!r.active && !!navigator.serviceWorker.controller; }""")
        cached = page.evaluate("""async () => { const keys = await caches.keys();
            const c = await caches.open(keys.find(k => k.startsWith('chkobba-')));
            return (await c.keys()).map(r => new URL(r.url).pathname); }""")
        assert any(p.endswith("/pyodide.asm.wasm") for p in cached) and "/index.html" in cached, cached

        ctx.set_offline(True)
        page.reload()
        page.wait_for_selector("html.ready")
        # No network: the engine, the start screen and the computer players
        # all come from the cache.
        assert page.evaluate("() => navigator.onLine") is False
        page.wait_for_selector("html.ai-ready")
        page.base_url = base_url
        start_game(page, players=2, levels=("easy",))
        assert settle(page) == "you"
        assert state(page)["view"]["hand"]
        shot(page, "offline-phone")
        assert not failed, failed
        assert not watch.foreign(), watch.foreign()
        assert not watch.errors, watch.errors
        assert not watch.console, watch.console
    finally:
        ctx.close()
