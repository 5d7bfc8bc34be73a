// Python for the embed and tutorial pages, loaded only when asked for.
// These pages start Pyodide themselves (no PyScript): PyScript always opens
// an IndexedDB store, which throws in a sandboxed iframe, and the embed needs
// nothing of it. The same files as the main page's (pyscript.json names the
// interpreter and the chkobba package zip), so they are cached once.
// window.chkobbaPy(name, json) -> json is then chkobba.web.call, as web/main.py
// gives the main page.

let ready = null;
let interpreter = null;

async function boot() {
  const base = new URL("../", import.meta.url);
  const cfg = await (await fetch(new URL("pyscript.json", base))).json();
  const interp = new URL(cfg.interpreter, base);
  const zips = Object.keys(cfg.files || {}).filter((u) => u.endsWith(".zip"));
  const [{ loadPyodide }, ...archives] = await Promise.all([
    import(interp.href),
    ...zips.map((u) => fetch(new URL(u, base)).then((r) => {
      if (!r.ok) throw new Error(`${u}: ${r.status}`);
      return r.arrayBuffer();
    })),
  ]);
  const pyodide = await loadPyodide({ indexURL: new URL("./", interp).href, stdout: () => {}, stderr: () => {} });
  for (const buf of archives) pyodide.unpackArchive(buf, "zip", { extractDir: "/home/pyodide" });
  pyodide.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
  interpreter = pyodide;
  const web = pyodide.pyimport("chkobba.web");
  window.chkobbaPy = (name, payload = "{}") => web.call(name, payload);
  window.dispatchEvent(new CustomEvent("chkobba:python-ready"));
}

export function loadPython() {
  if (window.chkobbaPy) return Promise.resolve();
  if (!ready) ready = boot();
  return ready;
}

/** Run a line of Python in the interpreter loadPython() started (the hub's set-up). */
export function runPython(code) {
  if (!interpreter) throw new Error("Python is not loaded");
  return interpreter.runPython(code);
}

/** Resolve once `el` is on screen (at once where IntersectionObserver is missing). */
export function whenVisible(el) {
  if (!("IntersectionObserver" in window)) return Promise.resolve();
  return new Promise((resolve) => {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        resolve();
      }
    }, { rootMargin: "200px" });
    io.observe(el);
  });
}

/** Storage that may throw (a sandboxed iframe) or be missing: never throws. */
export const store = {
  get(key) {
    try { return window.localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { window.localStorage.setItem(key, value); return true; } catch { return false; }
  },
};
