// A module worker that makes the page's memory snapshot in the browser
// (docs/boot.md): the same steps as scripts/make_snapshot.mjs at
// build time (a fresh interpreter, the package unpacked, every module the
// page can reach imported, Pyodide's makeMemorySnapshot), then the image
// without its all-zero 4 kB pages ("runs", what web/shell/py.js restores).
// Started by py.js once, after the table and its offline copy are ready, when
// no snapshot is at hand; its files come from the browser's cache, so it
// costs CPU on a background thread, not a download; it ends when done.
//
//   page -> worker  {indexURL, lock, packageURL, cacheName, url}
//   worker -> page  {ok: true} (kept in Cache Storage `cacheName` under `url`) or {ok: false, error}
// The worker keeps it itself: wrapping 14 MB in a Response on the page took
// 440-490 ms of the main thread at 4x CPU (docs/main-thread.md).

const IMPORT_ALL = `
import importlib, pkgutil, chkobba, chkobba.web
for m in pkgutil.walk_packages(chkobba.__path__, "chkobba."):
    if not m.name.startswith(("chkobba.cli", "chkobba.__main__")):
        importlib.import_module(m.name)
`;

function withoutZeroPages(mem, page = 4096) {
  const runs = [];
  const words = new Uint32Array(mem.buffer, mem.byteOffset, mem.length >> 2);
  for (let off = 0; off < mem.length; off += page) {
    const end = Math.min(off + page, mem.length);
    let zero = true;
    for (let i = off >> 2; i < end >> 2; i++) if (words[i]) { zero = false; break; }
    if (zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === off) last[1] += end - off;
    else runs.push([off, end - off]);
  }
  const size = 12 + 8 * runs.length + runs.reduce((a, r) => a + r[1], 0);
  const out = new Uint8Array(size);
  const head = new DataView(out.buffer);
  [..."CSNP"].forEach((c, i) => head.setUint8(i, c.charCodeAt(0)));
  head.setUint32(4, mem.length, true);
  head.setUint32(8, runs.length, true);
  let at = 12 + 8 * runs.length;
  runs.forEach(([o, n], i) => {
    head.setUint32(12 + 8 * i, o, true);
    head.setUint32(16 + 8 * i, n, true);
    out.set(mem.subarray(o, o + n), at);
    at += n;
  });
  return out;
}

self.onmessage = async (event) => {
  const { indexURL, lock, packageURL, cacheName, url } = event.data;
  try {
    const { loadPyodide } = await import(indexURL + "pyodide.mjs");
    const [py, zip] = await Promise.all([
      loadPyodide({ indexURL, lockFileContents: { info: lock, packages: {} }, _makeSnapshot: true }),
      fetch(packageURL).then((r) => {
        if (!r.ok) throw new Error(`${packageURL}: HTTP ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
    py.runPython(IMPORT_ALL);
    const snap = py.makeMemorySnapshot();
    if (snap.length % 4) throw new Error("unexpected snapshot size");
    const runs = withoutZeroPages(snap);
    const cache = await caches.open(cacheName);
    for (const old of await cache.keys()) await cache.delete(old);   // another build's
    await cache.put(url, new Response(runs.buffer, { headers: { "Content-Type": "application/octet-stream" } }));
    self.postMessage({ ok: true });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err && err.stack || err) });
  }
};
