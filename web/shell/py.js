// The bridge to Python: the facade on the page's main thread (Pyodide loaded
// here, bootPython() sets window.chkobbaPy) and the computer players'
// PyScript worker (ai.py).

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

/**
 * The page's own interpreter: Pyodide loaded directly (no PyScript on the main
 * thread, docs/boot.md). scripts/build_site.py writes the file names into
 * <meta name="chkobba-boot"> (and modulepreload hints for Pyodide's modules),
 * so nothing waits on a config request. Sets window.chkobbaPy and fires
 * "chkobba:python-ready", or "py:error" if Python cannot start.
 */
async function bootPython() {
  const boot = JSON.parse(document.querySelector('meta[name="chkobba-boot"]').content);
  const indexURL = new URL(boot.pyodide, location.href).href;
  const zip = fetch(new URL(boot.package, location.href)).then((r) => {
    if (!r.ok) throw new Error(`${boot.package}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  zip.catch(() => {});   // handled where it is used (a failure before then is not "uncaught")
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const opts = { indexURL, lockFileContents: { info: boot.lock || {}, packages: {} } };
  let pyodide;
  const runs = boot.snapshotFormat === "runs";
  if (boot.snapshot && (runs || typeof DecompressionStream === "function")) {
    // The interpreter as it was after `import chkobba.web` at build time
    // (scripts/make_snapshot.mjs): no CPython start-up, no imports here.
    const snapshot = fetch(new URL(boot.snapshot, location.href)).then((r) => {
      if (!r.ok) throw new Error(`${boot.snapshot}: HTTP ${r.status}`);
      if (runs) return r.arrayBuffer().then(fromRuns);
      return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    });
    // Handled below when loadPyodide awaits it; without this a snapshot that
    // fails before loadPyodide gets to it is reported as an uncaught rejection.
    snapshot.catch(() => {});
    try {
      pyodide = await loadPyodide({ ...opts, _loadSnapshot: snapshot });
    } catch (err) {
      console.info("Starting Python without its snapshot:", err);
    }
  }
  const unpack = (buf) => pyodide.unpackArchive(buf, "zip", { extractDir: "/home/pyodide" });
  if (pyodide) {
    // The snapshot holds every module the page can import
    // (scripts/make_snapshot.mjs), so the package's files are unpacked after
    // "ready" (they cost tens of ms): only tracebacks and the command line
    // read them.
    // (In a later task: not in the microtasks that end the "ready" one.)
    zip.then((buf) => new Promise((resolve) => setTimeout(resolve, 0, buf))).then(unpack)
      .catch((err) => console.error("The chkobba package could not be unpacked:", err));
    // A snapshot holds the random state it was made with.
    pyodide.runPython("import random; random.seed()");
  } else {
    pyodide = await loadPyodide(opts);
    unpack(await zip);
  }
  const call = pyodide.pyimport("chkobba.web").call;
  // The facade answers any name or payload in words (it never raises).
  window.chkobbaPy = (name, payload = "{}") => call(name, payload);
  window.dispatchEvent(new CustomEvent("chkobba:python-ready"));
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

let worker = null;

/** The computer players' interpreter, started once. */
export function startWorker(onReady) {
  if (!worker) {
    // The worker runs from a blob: URL, so every URL in its config must be
    // absolute, or PyScript falls back to its CDN defaults.
    const abs = (u) => new URL(u, location.href).href;
    worker = Promise.all([import("../pyscript/core.js"), fetch("./pyscript.json").then((r) => r.json())])
      .then(([{ PyWorker }, cfg]) => {
        cfg.interpreter = abs(cfg.interpreter);
        cfg.files = Object.fromEntries(Object.entries(cfg.files || {}).map(([k, v]) => [abs(k), v]));
        return PyWorker(abs("./ai.py"), { config: cfg, type: "pyodide", version: cfg.interpreter });
      })
      .then((w) => { if (onReady) onReady(w); return w; });
  }
  return worker;
}

/** Ask the worker (`choose` or `hint`); answers like py() but asynchronously. */
export async function askWorker(name, args) {
  const w = await startWorker();
  const answer = JSON.parse(await w.sync[name](JSON.stringify(args)));
  if ("error" in answer) throw new FacadeError(answer);
  return answer.ok;
}

// Start at once on the table page (the build gives it the boot meta):
// app.js listens for "chkobba:python-ready" (or finds window.chkobbaPy) before
// this first await resolves. Pages that only import py() (embed.html,
// learn.html) start their own interpreter (web/embed/python.js).
if (document.querySelector('meta[name="chkobba-boot"]')) {
  bootPython().catch((err) => {
    console.error("Python could not start:", err);
    window.dispatchEvent(new CustomEvent("py:error", { detail: err }));
  });
}
