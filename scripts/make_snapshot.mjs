// Make a Pyodide memory snapshot of the page's interpreter after
// `import chkobba.web`, with the very Pyodide the site ships, under Node.
// The page restores it (loadPyodide({_loadSnapshot})) instead of starting
// CPython and importing the package again (docs/boot.md).
//
// usage: node scripts/make_snapshot.mjs PYODIDE_DIR PACKAGE_ZIP OUT
// OUT is written gzip-compressed (the snapshot is a 31 MB memory image, mostly
// zeros; the page inflates it with DecompressionStream).
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const [pyodideDir, packageZip, out] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(pyodideDir, "pyodide.mjs"));
const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep, _makeSnapshot: true });
py.unpackArchive(new Uint8Array(readFileSync(packageZip)), "zip", { extractDir: "/home/pyodide" });
py.runPython("import chkobba.web");
const snap = py.makeMemorySnapshot();
const gz = gzipSync(snap, { level: 9 });
writeFileSync(out, gz);
console.log(`snapshot: ${snap.length} bytes, ${gz.length} gzip-compressed`);
