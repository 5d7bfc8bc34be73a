// Precompressed copies of the site's files, for hosts that serve FILE.br to
// browsers that accept brotli (scripts/serve.py does; README "Hosting").
// Python's standard library has no brotli; Node's zlib has.
//
// usage: node scripts/brotli.mjs JOBS.json
// JOBS.json: [{"src": "file", "dst": "file.br"}]
// Quality 11 with a 16 MB window: the wasm goes from 9.6 MB to 2.77 MB
// (gzip -9: 3.59 MB). It takes a while (about a minute for the wasm), so
// scripts/build_site.py keeps the results in build/cache/ by content hash.
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import zlib from "node:zlib";

const jobs = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const { src, dst } of jobs) {
  const data = readFileSync(src);
  const t0 = Date.now();
  const out = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(dst + ".tmp", out);
  renameSync(dst + ".tmp", dst);
  console.log(`brotli: ${src.split("/").pop()} ${(data.length / 1e6).toFixed(2)} MB -> ${(out.length / 1e6).toFixed(2)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
