// Python for the embed, tutorial and hub pages, started only when asked for,
// by the one boot path of every page (web/shell/py.js: Pyodide on the page,
// from the build's snapshot when the browser has it; no PyScript, which opens
// an IndexedDB store that throws in a sandboxed iframe). The same files as the
// table's, so they are downloaded and cached once.
// window.chkobbaPy(name, json) -> json is then chkobba.web.call.

import { runPython as run, startPython } from "../shell/py.js";

export function loadPython() {
  return startPython();
}

/** Run a line of Python in the interpreter loadPython() started (the hub's set-up). */
export function runPython(code) {
  return run(code);
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
