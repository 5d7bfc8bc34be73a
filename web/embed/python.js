// Python for the embed and tutorial pages, loaded only when asked for: the
// PyScript core, then web/main.py (which sets window.chkobbaPy, the facade).
// Nothing heavy is fetched before loadPython() is called.

let ready = null;

export function loadPython() {
  if (window.chkobbaPy) return Promise.resolve();
  if (!ready) {
    ready = new Promise((resolve, reject) => {
      window.addEventListener("chkobba:python-ready", () => resolve(), { once: true });
      // The page holds <script type="py" src="main.py" config="pyscript.json">,
      // inert until the PyScript core is imported here.
      import("../pyscript/core.js").catch(reject);
    });
  }
  return ready;
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
