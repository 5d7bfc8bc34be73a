// bench/pyscript_loader.js: the table page's Python started through
// PyScript instead of Pyodide's own loadPyodide() (bench/boot.py's
// "site-pyscript" page, docs/boot.md, "Time to ready against a bare Pyodide page, and on PyScript").
//
// web/shell/py.js imports the module named by its boot information's
// `loader` (bench/boot.py sets it in that page's copy only; the site has
// none) and calls its loadPyodide() with the options it would give
// Pyodide's. Here PyScript's main-thread runtime (pyscript/<version>/core.js,
// the site's own copy) starts the site's own Pyodide, with its config
// inline and every optional plugin off, as page/pyscript.js configures a
// writer's page, plus the few standard-library modules PyScript's own Python
// imports that the site's trimmed standard library leaves out. PyScript has
// no memory snapshot for Pyodide, so the page's copy carries none either.
// The interpreter PyScript made is handed back to py.js, which then does
// exactly what it does after its own loadPyodide(): unpack the package,
// import chkobba.web, start the computer players.

const SITE = /* __BENCH_PYSCRIPT__ */ {};
const base = new URL("./", document.baseURI);
const abs = (path) => new URL(path, base).href;

export async function loadPyodide() {
  const config = {
    interpreter: abs(SITE.interpreter),
    files: { [abs(SITE.stdlib)]: "./*" },
    packages_cache: "never",
    plugins: ["!codemirror", "!deprecations-manager", "!donkey", "!py-editor", "!py-game", "!py-terminal", "!error"],
  };
  const mpy = document.createElement("mpy-config");
  mpy.hidden = true;
  mpy.textContent = JSON.stringify({ plugins: config.plugins });
  document.head.append(mpy);
  // the block is in the page before PyScript starts: PyScript reads the
  // page's config from the blocks it finds then
  const block = document.createElement("script");
  block.type = "py";
  block.setAttribute("config", JSON.stringify(config));
  block.textContent = "pass";
  document.body.append(block);
  const { hooks } = await import(abs(SITE.pyscript));
  return new Promise((resolve) => {
    hooks.main.onReady.add((wrap) => resolve(wrap.interpreter));
  });
}
