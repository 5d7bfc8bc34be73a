// Compile Python sources inside zips to bytecode with the very Pyodide that
// the site ships (same CPython version, so the same magic number), under Node.
//
// usage: node scripts/precompile_pyc.mjs JOBS.json
// JOBS.json: [{"src": "in.zip", "dst": "out.zip", "mode": "sourceless"|"cache",
//              "prefix": "/lib/python314.zip/"}]
//   sourceless: every .py becomes a .pyc next to where it was (the .py is dropped);
//               zipimport loads these directly. Used for the standard library.
//   cache:      the .py files stay and __pycache__/NAME.cpython-3XY.pyc files are
//               added (unchecked-hash pycs, so no mtime checks in the browser).
//               Used for our own package, so tracebacks keep their source lines.
// `prefix` becomes the start of every code object's co_filename, so tracebacks
// name the path the module has in the browser.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const { loadPyodide } = require("pyodide");

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
const indexURL = path.dirname(require.resolve("pyodide/package.json")) + path.sep;
const py = await loadPyodide({ indexURL });

const compiler = `
import importlib.util, importlib._bootstrap_external as be, io, zipfile

def convert(data, mode, prefix):
    src = zipfile.ZipFile(io.BytesIO(bytes(data)))
    buf = io.BytesIO()
    out = zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9)
    seen = set()
    compiled = failed = 0
    for info in src.infolist():
        raw = src.read(info)
        name = info.filename
        if not name.endswith(".py") or info.is_dir():
            if name not in seen:
                seen.add(name)
                out.writestr(info, raw)
            continue
        try:
            code = compile(raw, prefix + name, "exec", dont_inherit=True, optimize=0)
        except SyntaxError:
            # Some stdlib files are templates or tests that never compile;
            # keep their source as it was.
            failed += 1
            out.writestr(info, raw)
            continue
        pyc = be._code_to_hash_pyc(code, importlib.util.source_hash(raw), checked=False)
        compiled += 1
        if mode == "sourceless":
            target = name + "c"
        else:
            out.writestr(info, raw)
            target = importlib.util.cache_from_source(name)
        zi = zipfile.ZipInfo(target, date_time=info.date_time)
        zi.compress_type = zipfile.ZIP_DEFLATED
        out.writestr(zi, bytes(pyc))
        seen.add(target)
    out.close()
    return buf.getvalue(), compiled, failed
`;
py.runPython(compiler);
const convert = py.globals.get("convert");
for (const job of jobs) {
  const t0 = performance.now();
  const result = convert(new Uint8Array(readFileSync(job.src)), job.mode, job.prefix || "");
  const [data, compiled, failed] = result.toJs();
  result.destroy();
  writeFileSync(job.dst, data);
  console.log(`${path.basename(job.dst)}: ${compiled} modules compiled, ${failed} kept as source, ` +
              `${readFileSync(job.src).length} -> ${data.length} bytes in ${Math.round(performance.now() - t0)} ms`);
}
