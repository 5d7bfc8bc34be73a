// Make a Pyodide memory snapshot of the page's interpreter after
// `import chkobba.web`, with the very Pyodide the site ships, under Node.
// The page restores it (loadPyodide({_loadSnapshot})) instead of starting
// CPython and importing the package again (docs/boot.md).
//
// usage: node scripts/make_snapshot.mjs PYODIDE_DIR PACKAGE_ZIP OUT [gzip|runs]
// The snapshot is a 31 MB memory image, mostly zeros. OUT is written
//   gzip: gzip-compressed (the page inflates it with DecompressionStream);
//   runs: without its all-zero 4 kB pages: "CSNP", u32 total length, u32 n,
//         n x (u32 offset, u32 length), then the n runs of bytes, all
//         little-endian (the page copies the runs into a zeroed buffer).
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const [pyodideDir, packageZip, out, format = "gzip"] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(pyodideDir, "pyodide.mjs"));
// The site ships no lock file: its `info` is passed inline, as the page does.
const lock = JSON.parse(readFileSync(require.resolve("pyodide/pyodide-lock.json"), "utf8"));
const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep, _makeSnapshot: true,
                               lockFileContents: { info: lock.info, packages: {} } });
py.unpackArchive(new Uint8Array(readFileSync(packageZip)), "zip", { extractDir: "/home/pyodide" });
// Every module the page can reach is imported now, so the restored interpreter
// never needs the package's files: the page unpacks the zip only after
// "ready" (web/shell/py.js). The command line (chkobba.cli, __main__) is not
// part of the page.
py.runPython(`
import importlib, pkgutil, chkobba, chkobba.web
for m in pkgutil.walk_packages(chkobba.__path__, "chkobba."):
    if not m.name.startswith(("chkobba.cli", "chkobba.__main__")):
        importlib.import_module(m.name)
`);
const snap = py.makeMemorySnapshot();

function withoutZeroPages(mem, page = 4096) {
  const runs = [];
  for (let off = 0; off < mem.length; off += page) {
    const end = Math.min(off + page, mem.length);
    let zero = true;
    for (let i = off; i < end; i++) if (mem[i]) { zero = false; break; }
    if (zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === off) last[1] += end - off;
    else runs.push([off, end - off]);
  }
  const head = new DataView(new ArrayBuffer(12 + 8 * runs.length));
  [..."CSNP"].forEach((c, i) => head.setUint8(i, c.charCodeAt(0)));
  head.setUint32(4, mem.length, true);
  head.setUint32(8, runs.length, true);
  runs.forEach(([o, n], i) => { head.setUint32(12 + 8 * i, o, true); head.setUint32(16 + 8 * i, n, true); });
  return Buffer.concat([new Uint8Array(head.buffer), ...runs.map(([o, n]) => mem.subarray(o, o + n))]);
}

const data = format === "runs" ? withoutZeroPages(snap) : gzipSync(snap, { level: 9 });
writeFileSync(out, data);
console.log(`snapshot: ${snap.length} bytes, ${data.length} as ${format}`);
