"""End-to-end fixtures: the built site, a local server, headless Chromium.

* The site is built once per session with ``scripts/build_site.py`` unless
  ``build/site`` is newer than every source it is made from (set
  ``E2E_REBUILD=1`` to force a build).
* The server is ``scripts/serve.py`` on an ephemeral port, in a thread.
* Chromium is Debian's ``chromium`` when on PATH, else Playwright's own.
* Every request of every page is recorded; a test fails if any goes to
  another origin (only the server's origin, ``blob:`` and ``data:`` pass), if
  the page throws an uncaught error, or if anything logs a console warning or
  error (only the few known messages of PyScript and of the test browser
  itself in ``KNOWN_CONSOLE`` pass).
* No page makes the snapshot for a next visit (``NO_SNAPSHOT_WORKER``)
  unless its test asks for it; a test's pages open in contexts all tests
  share, which keep their HTTP cache but not what the site stored
  (``ContextPool``, ``SharedContext``); the first page restores the build's
  snapshot as a returning visitor's does. Why: docs/tests.md.
* Tests wait on ready markers (``html.ready``, state predicates), never on
  sleeps. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.append(str(ROOT / "tests"))   # helpers shared with the unit tests (hidden_cards.py)

if os.environ.get("CI"):
    # In CI a missing browser driver is a broken environment, not a reason to
    # skip: fail loudly so a green run always means the browser tests ran.
    try:
        import playwright.sync_api as playwright_sync
    except ImportError as exc:
        raise pytest.UsageError(
            f"CI is set but playwright cannot be imported ({exc}); the e2e tests must run in CI. "
            "Install the test packages (pip install --require-hashes -r requirements-test.lock, "
            "as scripts/test.sh does) and Chromium."
        ) from None
else:
    playwright_sync = pytest.importorskip("playwright.sync_api")

from browser import launch, launch_persistent  # noqa: E402
from serve import start_server  # noqa: E402

from e2e_driver import DESKTOP  # noqa: E402


def _site_is_fresh() -> bool:
    info = SITE / "build-info.json"
    if not info.exists():
        return False
    try:
        if not json.loads(info.read_text()).get("brotli", True):
            return False   # scripts/serve.sh's build (--no-brotli): the tests read the .br copies too
    except ValueError:
        return False
    built = info.stat().st_mtime
    sources = [ROOT / "web", ROOT / "chkobba", ROOT / "scripts", ROOT / "lessons", ROOT / "package-lock.json"]
    for src in sources:
        paths = [src] if src.is_file() else [p for p in src.rglob("*") if "__pycache__" not in p.parts]
        if any(p.stat().st_mtime > built for p in paths if p.is_file()):
            return False
    return True


def run_build(*args: str) -> None:
    """scripts/build_site.py --strict ARGS: a build that fails, or went
    without a step (its snapshot, say), fails the test with the build's words."""
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--strict", *args],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"the site's build failed (exit {proc.returncode}):\n"
                    + "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:]))


@pytest.fixture(scope="session")
def site() -> Path:
    # With pytest-xdist each worker has its own session: one builds while the
    # others wait on the lock, then find the site fresh (or, with
    # E2E_REBUILD, already rebuilt for this run).
    (ROOT / "build").mkdir(exist_ok=True)
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    done = ROOT / "build" / ".e2e-rebuilt-for"
    with open(ROOT / "build" / ".e2e-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        forced = bool(os.environ.get("E2E_REBUILD")) and not (
            run and done.exists() and done.read_text() == run)
        if forced or not _site_is_fresh():
            if not (ROOT / "node_modules" / "pyodide").exists():
                pytest.fail("node_modules/ is missing: run `npm ci` before the e2e tests")
            run_build()
            done.write_text(run)
    return SITE


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    server = start_server(site)
    yield server.url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    b = launch(playwright)
    yield b
    b.close()


# Console messages that are not ours and say nothing is wrong: PyScript's note
# that its worker runs without SharedArrayBuffer (the site needs no
# cross-origin isolation: the worker never touches the DOM), and Playwright's
# own note when a test context blocks service workers.
KNOWN_CONSOLE = (
    ("/pyodide.asm.mjs", "Unable to use `window` or `document` in worker."),  # pyodide/<hash>/
    ("", "Service Worker registration blocked by Playwright"),
)


def console_problem(msg: Any) -> str | None:
    """The text of a console warning or error that should fail a test, else None."""
    if msg.type not in ("warning", "error"):
        return None
    url = (msg.location or {}).get("url", "") or ""
    for where, start in KNOWN_CONSOLE:
        if msg.text.startswith(start) and (not where or where in url):
            return None
    return f"{msg.type}: {msg.text[:300]} ({url})"


class PageWatch:
    """Requests, uncaught errors and console warnings of one browser context."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.allowed: set[str] = set()   # a test's own local server (the online relay test's tracker)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.console: list[str] = []

    def on_console(self, msg: Any) -> None:
        problem = console_problem(msg)
        if problem:
            self.console.append(problem)

    def foreign(self) -> list[str]:
        bad = []
        for url in self.requests:
            parts = urlsplit(url)
            if parts.scheme in ("blob", "data"):
                continue
            if f"{parts.scheme}://{parts.netloc}" not in {self.origin, *self.allowed}:
                bad.append(url)
        return bad


# Installed before any page script runs: window.__longTasks lists long tasks
# and when <html> got its `ready` (window.__readyAt) and `ai-ready`
# (window.__aiReadyAt) classes, so a test can check that the table never
# freezes during play (tasks that *start* later).
LONGTASK_SCRIPT = """
window.__longTasks = [];
window.__readyAt = null;
window.__aiReadyAt = null;
new MutationObserver((records, obs) => {
  const html = document.documentElement;
  if (html && window.__readyAt === null && html.classList.contains('ready')) {
    window.__readyAt = performance.now();
  }
  if (html && html.classList.contains('ai-ready')) {
    window.__aiReadyAt = performance.now();
    obs.disconnect();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['class']});
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__longTasks.push({start: e.startTime, duration: e.duration});
    }
  }).observe({type: 'longtask', buffered: true});
} catch (e) {}
"""


# In place of web/shell/snapshot.js, the worker that makes the snapshot for a
# visitor's next visit (web/shell/py.js, keepSnapshotForLater): every test
# page is a first visit, and making that snapshot (a second Python started in
# a worker, 14 MB written to Cache Storage) took 1.6-1.8 s of CPU a page, a
# quarter of what a page cost, for a snapshot no test page used. The page
# hears that none was made, as when a phone's worker fails (a console.info).
# The test that checks the snapshot is made and restored asks for the real
# worker (``make_page(snapshot_worker=True)``).
NO_SNAPSHOT_WORKER = """
(() => {
  const RealWorker = self.Worker;
  if (!RealWorker) return;
  function Worker(url, options) {
    if (!String(url).endsWith("/shell/snapshot.js")) return new RealWorker(url, options);
    const fake = { onmessage: null, onerror: null, terminate() {}, postMessage() {
      setTimeout(() => fake.onmessage && fake.onmessage({ data: { ok: false, error: "no snapshot in this e2e test" } }), 0);
    } };
    return fake;
  }
  Worker.prototype = RealWorker.prototype;
  self.Worker = Worker;
})();
"""


# What a failed test's pages showed when it failed: which dialogs were open,
# what was inert, what was stored (printed in the test's report, so a failure
# seen only on a loaded CI machine says why an element was inert or hidden).
PAGE_DIAGNOSIS = """() => {
  const a = window.chkobbaApp, s = a && a.state;
  return {
    url: location.href, html: document.documentElement.className,
    dialogs: [...document.querySelectorAll("dialog[open]")].map((d) => d.id || d.className),
    inert: [...document.querySelectorAll("[inert]")].map((e) => e.id || e.className || e.tagName),
    stored: Object.keys(localStorage),
    handoff: !!(a && a.handoff && a.handoff.open), busy: !!(a && a.busy), paused: !!(a && a.paused),
    state: s ? { game: s.game, to_act: s.to_act, phase: s.view && s.view.phase } : null,
  };
}"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed


CALL_FAILED = pytest.StashKey[bool]()


def diagnose(pages: list[Any]) -> None:
    """Print what each open page showed (for a failed test's report)."""
    for page in pages:
        try:
            if not page.is_closed():
                print(f"page at failure: {page.evaluate(PAGE_DIAGNOSIS)}")
        except Exception as e:  # a crashed or navigating page: say so, never fail the teardown
            print(f"page at failure: not readable ({type(e).__name__}: {str(e)[:200]})")


class SharedContext:
    """One browser context (a profile of its own) kept for the whole session,
    where one page of each test opens (one phone). Its HTTP cache, and the
    WebAssembly compiled from it, is kept from test to test: a page there
    costs about 2.6 s of CPU against 4.6 s in a new context (docs/tests.md).
    Before each test the page's origin loses all it stored (local storage,
    IndexedDB, Cache Storage), so nothing of the game is saved; with
    ``snapshot`` the build's snapshot is then put back in Cache Storage, as
    a returning visitor's offline copy holds it, and the page restores it
    instead of starting CPython. A test that changes the
    context itself (an init script, a route, closing it) asks for a context
    of its own, ``make_page(fresh=True)``; on this one such calls fail."""

    REFUSED = ("add_init_script", "close", "route", "unroute", "route_from_har", "set_offline",
               "add_cookies", "clear_cookies", "grant_permissions", "clear_permissions",
               "expose_binding", "expose_function", "set_extra_http_headers", "set_geolocation",
               "set_default_timeout", "set_default_navigation_timeout")

    def __init__(self, ctx: Any, snapshot: str | None = None) -> None:
        self.ctx = ctx
        self.snapshot = snapshot   # the build's snapshot URL, put back in Cache Storage for each test
        self.watch: PageWatch | None = None   # the running test's
        self.pages: list[Any] = []            # its pages (tabs it opened too)
        ctx.add_init_script(LONGTASK_SCRIPT)
        ctx.add_init_script(NO_SNAPSHOT_WORKER)
        ctx.on("request", self._request)
        ctx.on("page", self._page)
        for name in self.REFUSED:
            setattr(ctx, name, self._refuse(name))

    @staticmethod
    def _refuse(name: str) -> Any:
        def refused(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError(f"context.{name}() on the context all tests share: "
                               "make the page with make_page(..., fresh=True)")
        return refused

    def _request(self, r: Any) -> None:
        if self.watch is not None:
            self.watch.requests.append(r.url)

    def _page(self, p: Any) -> None:
        if self.watch is not None:
            self.pages.append(p)
            watch = self.watch
            p.on("websocket", lambda ws: watch.requests.append(ws.url))

    def new_page(self, origin: str, watch: PageWatch, snapshot: bool = True) -> Any:
        """A tab whose origin has nothing stored. The last test's pages may
        still have writes to local storage on their way when they close (a
        closed renderer's last messages can reach the browser after the
        clearing, on a loaded machine: a pass-and-play save came back, its
        hand-off screen made the next test's page inert), so the tab opens a
        blank page of the origin first (answered by the test, with an icon:
        a document without one, the site's icon.svg say, makes the browser
        ask for /favicon.ico, whose 404 is a console error that could reach
        the test's watch late on a loaded machine) and clears again until it
        sees local storage empty. That visit is not the test's: its requests
        are dropped from the watch."""
        self.watch = watch
        page = self.ctx.new_page()
        cdp = self.ctx.new_cdp_session(page)
        cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        asked = len(watch.requests)
        blank = origin + "/e2e-blank.html"
        page.route(blank, lambda r: r.fulfill(status=200, content_type="text/html",
                                              body='<!doctype html><link rel="icon" href="data:,">'))
        page.goto(blank)
        page.unroute(blank)   # (while a page routes, its HTTP cache is off)
        for _ in range(50):
            if page.evaluate("() => localStorage.length") == 0:
                break
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            page.wait_for_timeout(100)
        else:
            raise RuntimeError("the shared context's local storage would not stay empty")
        if self.snapshot and snapshot:
            # the visitor's offline copy holds the build's snapshot (sw.js precaches it): the page
            # restores it instead of starting CPython and importing the package (docs/tests.md)
            page.evaluate("async (u) => { const r = await fetch(u); if (!r.ok) throw new Error(u + ': ' + r.status);"
                          " await (await caches.open('e2e-snapshot')).put(u, r); }", self.snapshot)
        del watch.requests[asked:]
        cdp.detach()
        return page

    def end_test(self) -> None:
        self.watch = None
        pages, self.pages = self.pages, []
        for p in pages:
            if not p.is_closed():
                p.close()


def _snapshot_url(site: Path, base_url: str) -> str | None:
    """The build's snapshot, as the table page's boot hints name it (None: built without one)."""
    m = re.search(r"<meta name=\"chkobba-boot\" content='([^']+)'", (site / "index.html").read_text())
    snap = json.loads(m.group(1)).get("snapshot") if m else None
    return base_url.rstrip("/") + "/" + snap.removeprefix("./") if snap else None


class ContextPool:
    """The contexts all tests share, each a profile of its own kept for the
    whole session: the first for a test's first page, the others for its
    other pages (a friend's phone, up to ``SIZE - 1``), so every phone of a
    test keeps its HTTP cache and compiled WebAssembly from test to test.
    Launched when first needed."""

    SIZE = 4

    def __init__(self, playwright: Any, root: Path, snapshot: str | None) -> None:
        self.playwright = playwright
        self.root = root
        self.snapshot = snapshot
        self.contexts: list[SharedContext] = []

    def get(self, i: int) -> SharedContext:
        while len(self.contexts) <= i:
            ctx = launch_persistent(self.playwright, str(self.root / f"profile{len(self.contexts)}"),
                                    viewport=DESKTOP, service_workers="block")
            self.contexts.append(SharedContext(ctx, self.snapshot))
        return self.contexts[i]

    def close(self) -> None:
        for c in self.contexts:
            type(c.ctx).close(c.ctx)


@pytest.fixture(scope="session")
def context_pool(playwright: Any, site: Path, base_url: str,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[ContextPool]:
    snapshot = None if os.environ.get("E2E_NO_SNAPSHOT") else _snapshot_url(site, base_url)
    pool = ContextPool(playwright, tmp_path_factory.mktemp("profiles"), snapshot)
    yield pool
    pool.close()


@pytest.fixture()
def make_page(browser: Any, context_pool: ContextPool, base_url: str,
              request: pytest.FixtureRequest) -> Iterator[Any]:
    """``make_page(viewport=PHONE)`` -> a page with a ``.watch``, its origin's
    storage empty. A test's pages open in the contexts all tests share
    (:class:`ContextPool`: the first page in the first, each other page, a
    friend's phone, in the next), unless ``fresh`` or ``snapshot_worker``
    (a new context of its own). The first page opens as a visit whose
    offline copy holds the build's snapshot, so it restores that instead of
    starting CPython (``E2E_NO_SNAPSHOT=1``: not); the other phones' pages
    are first visits."""
    contexts: list[tuple[Any, PageWatch]] = []
    origin = base_url.rstrip("/")
    shared: list[tuple[SharedContext, PageWatch]] = []

    def factory(viewport: dict[str, int] | None = None, reduced_motion: str = "no-preference",
                snapshot_worker: bool = False, fresh: bool = False) -> Any:
        if not (fresh or snapshot_worker) and len(shared) < ContextPool.SIZE:
            watch = PageWatch(origin)
            shared_context = context_pool.get(len(shared))
            shared.append((shared_context, watch))
            # the test's first page restores the build's snapshot; other phones are first visits, as a
            # friend opening an invitation usually is
            page = shared_context.new_page(origin, watch, snapshot=len(shared) == 1)
            page.set_viewport_size(viewport or DESKTOP)
            if reduced_motion != "no-preference":
                page.emulate_media(reduced_motion=reduced_motion)
            page.on("pageerror", lambda e: watch.errors.append(str(e)))
            page.on("console", watch.on_console)
            page.watch = watch
            page.base_url = base_url
            page.set_default_timeout(60_000)
            return page
        ctx = browser.new_context(viewport=viewport or DESKTOP, reduced_motion=reduced_motion,
                                  service_workers="block")
        if not snapshot_worker:
            ctx.add_init_script(NO_SNAPSHOT_WORKER)
        watch = PageWatch(origin)
        ctx.on("request", lambda r: watch.requests.append(r.url))
        # WebSockets are no "request" to Playwright: counted too (only online.html may open one, once agreed)
        ctx.on("page", lambda p: p.on("websocket", lambda ws: watch.requests.append(ws.url)))
        ctx.add_init_script(LONGTASK_SCRIPT)
        page = ctx.new_page()
        page.on("pageerror", lambda e: watch.errors.append(str(e)))
        page.on("console", watch.on_console)
        page.watch = watch
        page.base_url = base_url
        page.set_default_timeout(60_000)
        contexts.append((ctx, watch))
        return page

    yield factory
    if request.node.stash.get(CALL_FAILED, False):
        diagnose([pg for sc, _ in shared for pg in sc.pages] + [pg for ctx, _ in contexts for pg in ctx.pages])
    failures = []
    for ctx, watch in [(None, w) for _, w in shared] + contexts:
        if watch.foreign():
            failures.append(f"requests left the origin: {watch.foreign()}")
        if watch.errors:
            failures.append(f"uncaught page errors: {watch.errors}")
        if watch.console:
            failures.append(f"console warnings or errors: {watch.console}")
        if ctx is not None:
            ctx.close()
    for sc, _ in shared:
        sc.end_test()
    if failures:
        pytest.fail("; ".join(failures))


@pytest.fixture()
def page(make_page: Any) -> Any:
    return make_page(DESKTOP)
