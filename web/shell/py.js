// The one way to Python of every page (the table, the embeds, the tutorial,
// the hub): Pyodide loaded here on the page's main thread (bootPython() sets
// window.chkobbaPy), and the computer players and the coach thinking in that
// same interpreter in short slices (web/ai.py): one Python per tab.
export const timings = [];   // [what, start ms, duration ms] of facade calls and renders

/** Everything the page does on its main thread in a round is timed here. */
export function timed(what, fn) {
  const t0 = performance.now();
  const out = fn();
  timings.push([what, Math.round(t0), Math.round(performance.now() - t0)]);
  if (timings.length > 1000) timings.splice(0, 500);
  return out;
}

/** A refusal from the facade: the English text plus its code and params. */
export class FacadeError extends Error {
  constructor(answer) {
    super(answer.error);
    this.code = answer.code || null;
    this.params = answer.params || {};
  }
  get msg() { return { code: this.code, params: this.params, error: this.message }; }
}

export function py(name, args = {}) {
  const answer = timed(name, () => JSON.parse(window.chkobbaPy(name, JSON.stringify(args))));
  if ("error" in answer) throw new FacadeError(answer);
  return answer.ok;
}

// ------------------------------------------------------------------ boot

/** What the boot is doing, for the page to show (chkobba:boot-progress events). */
export const bootState = { phase: "download", loaded: 0, total: 0, snapshot: false };
window.chkobbaBoot = bootState;   // for tests and the curious

function progress(phase) {
  if (phase) bootState.phase = phase;
  window.dispatchEvent(new CustomEvent("chkobba:boot-progress", { detail: { ...bootState } }));
}

/**
 * Count the bytes of the boot's downloads as they arrive (the runtime fetches
 * the wasm and the standard library itself): a clone of each response is read
 * alongside, the response itself is left as it is (so the browser still caches
 * the wasm's compiled code). Sizes are the build's (<meta name="chkobba-boot">).
 * Returns the function that stops counting.
 */
function countDownloads(sizes) {
  const plain = window.fetch;
  const seen = new Set();
  bootState.total = Object.values(sizes).reduce((a, b) => a + b, 0);
  window.fetch = function (input, init) {
    const p = plain.call(this, input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
    if (url in sizes && !seen.has(url)) {
      seen.add(url);
      p.then(async (res) => {
        if (!res.ok || !res.body) return;
        const reader = res.clone().body.getReader();
        let got = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          got += value.length;
          bootState.loaded += value.length;
          if (bootState.phase === "download") progress();
        }
        bootState.loaded += Math.max(0, sizes[url] - got);   // never short of 100 %
      }).catch(() => {});
    }
    return p;
  };
  return () => { window.fetch = plain; };
}

/** The build's boot information (scripts/build_site.py writes it into the page). */
function bootInfo() {
  const meta = document.querySelector('meta[name="chkobba-boot"]');
  if (!meta) throw new Error("this page has no <meta name=\"chkobba-boot\"> (built by scripts/build_site.py)");
  return JSON.parse(meta.content);
}

/**
 * The memory snapshot, if this browser already keeps it (restoring it skips
 * CPython's start and every import). A first visit never downloads it: it is
 * 13.8 MB (5.3 MB gzip), more than it saves on a phone's network. Where it
 * comes from is the build's `snapshotFrom` (scripts/build_site.py,
 * docs/boot.md): "browser" = made in this browser after a first visit
 * (keepSnapshotForLater), "cache" = the build's file, fetched by the offline
 * copy (sw.js), "network" = the build's file, always fetched. Null when it is
 * not at hand without a download.
 */
async function cachedSnapshot(boot) {
  if (!boot.snapshot || (boot.snapshotFormat !== "runs" && typeof DecompressionStream !== "function")) return null;
  const url = new URL(boot.snapshot, location.href);
  if (boot.snapshotFrom === "network") return fetch(url).then((r) => (r.ok ? r : null), () => null);
  try {
    // The offline copy (sw.js's cache). Not the HTTP cache: asking it
    // without the network (`only-if-cached`) logs an error on a miss.
    const hit = self.caches ? await caches.match(url.href) : null;
    if (hit) return hit;
  } catch { /* no Cache Storage here (an opaque origin) */ }
  return null;
}

let pyodide = null;

/**
 * The page's interpreter. Sets window.chkobbaPy and fires
 * "chkobba:python-ready", or "py:error" if Python cannot start.
 */
async function bootPython() {
  const boot = bootInfo();
  const indexURL = new URL(boot.pyodide, location.href).href;
  const abs = (u) => new URL(u, location.href).href;
  const snapRes = await cachedSnapshot(boot);
  const sizes = { [abs(boot.package)]: boot.sizes.package };
  if (!snapRes) {
    sizes[indexURL + "pyodide.asm.wasm"] = boot.sizes.wasm;
    sizes[indexURL + "python_stdlib.zip"] = boot.sizes.stdlib;
  }
  const stopCounting = countDownloads(sizes);
  progress("download");
  const zip = fetch(abs(boot.package)).then((r) => {
    if (!r.ok) throw new Error(`${boot.package}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  zip.catch(() => {});   // handled where it is used (a failure before then is not "uncaught")
  // `loader`: bench/boot.py's PyScript copy of the page only (bench/pyscript_loader.js)
  const { loadPyodide } = await import(boot.loader ? abs(boot.loader) : indexURL + "pyodide.mjs");
  const opts = { indexURL, lockFileContents: { info: boot.lock || {}, packages: {} } };
  let snapshotted = false;
  if (snapRes) {
    // The interpreter as it was after importing every module of the package
    // at build time: no CPython start-up, no imports here.
    const snapshot = (boot.snapshotFormat === "runs" ? snapRes.arrayBuffer().then(fromRuns)
      : new Response(snapRes.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    // Handled below when loadPyodide awaits it; without this a snapshot that
    // fails before loadPyodide gets to it is reported as an uncaught rejection.
    snapshot.catch(() => {});
    try {
      pyodide = await loadPyodide({ ...opts, _loadSnapshot: snapshot });
      bootState.snapshot = true;
    } catch (err) {
      console.info("Starting Python without its snapshot:", err);
    }
  }
  const unpack = (buf) => pyodide.unpackArchive(buf, "zip", { extractDir: "/home/pyodide" });
  if (!pyodide) pyodide = await loadPyodide(opts);
  else snapshotted = true;
  performance.mark("chkobba:runtime");   // the boot's steps, for bench/boot.py (docs/boot.md)
  fallBackOnTheRest(indexURL + "python_stdlib_rest.zip", boot.stdlibRest || []);
  if (snapshotted) {
    // The snapshot holds every module the page can import, so the package's
    // files are unpacked after "ready", in a later task (they cost tens of
    // ms): only tracebacks and the command line read them.
    zip.then((buf) => new Promise((resolve) => setTimeout(resolve, 0, buf))).then(unpack)
      .catch((err) => console.error("The chkobba package could not be unpacked:", err));
    // A snapshot holds the random state it was made with.
    pyodide.runPython("import random; random.seed()");
  } else {
    const buf = await zip;
    progress("start");
    await nextTask();   // the "starting" words are drawn before the imports
    unpack(buf);
    performance.mark("chkobba:package");
  }
  stopCounting();
  progress("start");
  const call = pyodide.pyimport("chkobba.web").call;
  performance.mark("chkobba:imported");
  // The facade answers any name or payload in words (it never raises).
  window.chkobbaPy = (name, payload = "{}") => call(name, payload);
  progress("ready");
  window.dispatchEvent(new CustomEvent("chkobba:python-ready"));
}

/**
 * The standard library ships only the modules the page imports
 * (scripts/build_site.py, stdlib_needed); the others are in
 * python_stdlib_rest.zip, fetched (synchronously: an import cannot wait) the
 * first time an import asks for one of them. Not expected to happen: it says
 * so on the console when it does.
 */
function fallBackOnTheRest(url, modules) {
  if (!modules.length) return;
  const ns = pyodide.toPy({ url, modules });
  pyodide.runPython(`
import sys, zipimport
class _Rest:
    """Finds the standard-library modules left out of the page's zip."""
    def __init__(self, url, modules):
        self.url, self.modules, self.path = url, set(modules), None
    def find_spec(self, name, path=None, target=None):
        if name not in self.modules:
            return None
        if self.path is None:
            import js
            js.console.info(f"Fetching the rest of the standard library for {name}")
            xhr = js.XMLHttpRequest.new()
            xhr.open("GET", self.url, False)
            xhr.overrideMimeType("text/plain; charset=x-user-defined")
            xhr.send(None)
            if xhr.status != 200:
                return None
            with open("/lib/python_stdlib_rest.zip", "wb") as fh:
                fh.write(bytes(ord(c) & 0xFF for c in xhr.responseText))
            self.path = "/lib/python_stdlib_rest.zip"
        folder = "/".join(name.split(".")[:-1])
        return zipimport.zipimporter(self.path + ("/" + folder + "/" if folder else "")).find_spec(name, target)
sys.meta_path.append(_Rest(url, modules))
`, { globals: ns });
  ns.destroy();
}

/** A snapshot stored without its zero pages (scripts/make_snapshot.mjs "runs"). */
function fromRuns(buf) {
  const v = new DataView(buf);
  if (String.fromCharCode(...new Uint8Array(buf, 0, 4)) !== "CSNP") throw new Error("not a snapshot");
  const mem = new Uint8Array(v.getUint32(4, true));
  const n = v.getUint32(8, true);
  let at = 12 + 8 * n;
  for (let i = 0; i < n; i++) {
    const off = v.getUint32(12 + 8 * i, true), len = v.getUint32(16 + 8 * i, true);
    mem.set(new Uint8Array(buf, at, len), off);
    at += len;
  }
  return mem;
}

let started = null;

/** Start the page's interpreter once; resolves when window.chkobbaPy answers. */
export function startPython() {
  if (window.chkobbaPy) return Promise.resolve();
  if (!started) started = bootPython();
  return started;
}

/** A module of the package in the page's interpreter (the online page's edge, chkobba.online.page). */
export function pyImport(name) {
  if (!pyodide) throw new Error("Python is not loaded");
  return pyodide.pyimport(name);
}

/** Run Python in the page's interpreter (the hub's set-up). */
export function runPython(code) {
  if (!pyodide) throw new Error("Python is not loaded");
  return pyodide.runPython(code);
}

// ------------------------------------------------------------------ the snapshot for later visits

/** The Cache Storage cache of the browser-made snapshot (not "chkobba-*": sw.js deletes those). */
const SNAPSHOT_CACHE = "py-snapshot";

/**
 * With `snapshotFrom: "browser"` (the build's choice, docs/boot.md): when this
 * visit booted without a snapshot, make one in a worker (web/shell/snapshot.js)
 * from the files the browser already has, and keep it in Cache Storage under
 * the build's snapshot URL, where the next visit finds it. Resolves true when
 * one was kept; never rejects (a failure is said on the console, and the next
 * visit simply boots without).
 */
export async function keepSnapshotForLater() {
  let boot, url;
  try {
    boot = bootInfo();
    if (boot.snapshotFrom !== "browser" || !boot.snapshot || bootState.snapshot || !self.caches) return false;
    url = new URL(boot.snapshot, location.href).href;
    if (await caches.match(url)) return false;
  } catch {
    return false;   // no Cache Storage here (an opaque origin)
  }
  const worker = new Worker(new URL("./snapshot.js", import.meta.url), { type: "module" });
  try {
    const msg = await new Promise((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message || "the snapshot worker failed"));
      // the snapshot's worker (web/shell/snapshot.js) keeps it in Cache Storage itself (14 MB wrapped on the page was one long task)
      worker.postMessage({ indexURL: new URL(boot.pyodide, location.href).href, lock: boot.lock || {},
                           packageURL: new URL(boot.package, location.href).href, cacheName: SNAPSHOT_CACHE, url });
    });
    if (!msg.ok) throw new Error(msg.error);
    document.documentElement.classList.add("snapshot-kept");
    return true;
  } catch (err) {
    console.info("No snapshot for the next visit:", err);
    return false;
  } finally {
    worker.terminate();
  }
}

/**
 * A task after the next frame is drawn, when the page is shown: the browser
 * has laid out what was drawn before, so reading places (a move's flight)
 * forces no layout of its own. A hidden page draws no frames: a task.
 */
export function afterFrame() {
  if (document.visibilityState !== "visible") return nextTask();
  return new Promise((resolve) => requestAnimationFrame(() => nextTask().then(resolve)));
}

// ------------------------------------------------------------------ the players

/**
 * A task of its own, queued behind what is already waiting (a message the
 * page sends itself: no setTimeout 4 ms clamp). The browser's frames take
 * their turn between two such tasks, and so does input. Not
 * `scheduler.yield()`: its continuations go before frames, so a search
 * resumed with it held a drawn move off the screen until Chromium's guard
 * against starved frames let one through, about 100 ms later, with all the
 * work since in one long frame (docs/main-thread.md).
 */
export function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  });
}

/** Milliseconds of thinking per slice (the page's tasks stay well under 50 ms). */
export const SLICE_MS = 12;

let players = null;

/**
 * The computer players and the coach (web/ai.py) in the page's interpreter:
 * loaded once, after Python is ready.
 */
export function startPlayers() {
  if (!players) {
    players = startPython()
      .then(() => fetch(new URL("../ai.py", import.meta.url)))
      .then((r) => {
        if (!r.ok) throw new Error(`ai.py: HTTP ${r.status}`);
        return r.text();
      })
      .then(async (src) => {
        pyodide.FS.writeFile("/home/pyodide/chkobba_ai.py", src);
        const ai = timed("players", () => pyodide.pyimport("chkobba_ai"));
        // The players' modules, imported now, one per task (a first visit
        // boots without the snapshot, where they are not imported yet): the
        // first computer move would otherwise import them all in one task
        // of about 100 ms (docs/main-thread.md).
        for (const name of ai.WARM) {
          await nextTask();
          timed(`warm ${name}`, () => ai.warm(name));
        }
        // everything alive now (the modules) out of the collector's sight,
        // without a collection (cheap: a full one here took 110-170 ms at 4x)
        await nextTask();
        timed("warm gc.freeze", () => ai.freeze());
        // a practice run of the players' first moves and slices, one piece a
        // task: a first run of any Python costs several times the next ones
        // in the browser, and would otherwise land in a computer's first move
        do await nextTask();
        while (timed("warm rehearsal", () => ai.rehearse(SLICE_MS)));
        await nextTask();
        timed("warm tidy", () => ai.tidy());
        return ai;
      });
  }
  return players;
}

/**
 * `choose` or `hint`, thought about in slices of SLICE_MS between which the
 * page runs; answers like py(), asynchronously.
 */
export async function think(name, args) {
  const ai = await startPlayers();
  // Every piece of thinking is a task of its own: not after the page's work
  // that asked for it (a move, its save and its drawing), nor before the
  // work that uses the answer. The first comes after a frame: the drawing
  // that asked is on the screen before any thinking.
  await afterFrame();
  // what the last decision left, collected in a task of its own (web/ai.py)
  timed("think tidy", () => ai.tidy());
  await nextTask();
  const task = timed("think start", () => ai.start(name, JSON.stringify(args)));
  try {
    let out = task.answer;
    while (out == null) {
      await nextTask();
      const t0 = performance.now();
      out = timed("think", () => task.step(SLICE_MS));
      // a long slice says what it did (bench/main_thread.py prints it with the long task)
      if (performance.now() - t0 > 40) timings.push([`think: ${task.note}`, Math.round(t0), 0]);
    }
    await nextTask();
    const answer = JSON.parse(out);
    if ("error" in answer) throw new FacadeError(answer);
    return answer.ok;
  } finally {
    task.destroy();
  }
}

// The table page starts at once (its <html> is "booting"): app.js listens for
// "chkobba:python-ready" (or finds window.chkobbaPy) before this first await
// resolves. The other pages start when they need Python (web/embed/python.js).
if (document.documentElement.classList.contains("booting") && document.querySelector('meta[name="chkobba-boot"]')) {
  startPython().catch((err) => {
    console.error("Python could not start:", err);
    window.dispatchEvent(new CustomEvent("py:error", { detail: err }));
  });
}
