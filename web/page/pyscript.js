// page/pyscript.js: PyScript with the chkobba engine, for any page
// (docs/pyscript.md). A writer's page includes this one module and writes
// Python:
//
//   <script type="module" src="https://SITE/page/pyscript.js"></script>
//   <div id="t"></div>
//   <script type="py">
//   from chkobba import page
//   page.table("#t", page.setup(hands=["7D 3C KH", "QS 2H 5C"], table="7H 4S JC"), right=["7Dx7H"])
//   </script>
//
// It gives every <script type="py"> of the page (not the workers) one
// config: the site's own Pyodide (never a CDN), the chkobba package zip and
// the few standard-library modules PyScript's own Python needs that the
// site's trimmed standard library leaves out, both unpacked into Python's
// working directory; page/bridge.js (the live tables) as a JS module;
// PyScript's optional plugins off. Every URL is this site's, found from
// this module's own address, so the files can live on any host and path.
// Then it starts PyScript (pyscript/<version>/core.js). The blocks share one
// Python, as PyScript's blocks on the main thread always do.
//
// scripts/pyscript_site.py fills in the names of this build's files.

const SITE = /* __PYSCRIPT_SITE__ */ {};
const base = new URL("../", import.meta.url);
const abs = (path) => new URL(path, base).href;

export const config = {
  interpreter: abs(SITE.interpreter),
  files: { [abs(SITE.package)]: "./*", [abs(SITE.stdlib)]: "./*" },
  js_modules: { main: { [abs("page/bridge.js")]: "chkobba_page" } },
  // no package is installed: no cache of packages either
  packages_cache: "never",
  // the error plugin stays: a Python error in a block is shown on the page
  plugins: ["!codemirror", "!deprecations-manager", "!donkey", "!py-editor", "!py-game", "!py-terminal"],
};

const text = JSON.stringify(config);
for (const s of document.querySelectorAll('script[type="py"]:not([worker]), py-script:not([worker])')) {
  if (!s.hasAttribute("config")) s.setAttribute("config", text);
}
// PyScript loads its plugins once for each of its two Pythons, whether the
// page uses it or not: MicroPython's config turns them off too (no
// MicroPython is started unless the page has a <script type="mpy">).
if (!document.querySelector('mpy-config, script[type="mpy"][config]')) {
  const mpy = document.createElement("mpy-config");
  mpy.hidden = true;
  mpy.textContent = JSON.stringify({ plugins: config.plugins });
  document.head.append(mpy);
}
await import(abs(SITE.pyscript));
