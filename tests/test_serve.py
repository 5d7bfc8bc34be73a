"""scripts/serve.py: the MIME types Pyodide needs and the caching rules of a
site's `_headers` file (files named by their content are cached for good,
everything else is revalidated), also when the site is a subfolder."""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from serve import start_server  # noqa: E402

IMMUTABLE = "public, max-age=31536000, immutable"


def fetch(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url) as r:
        return r.headers["Content-Type"], r.headers["Cache-Control"]


def test_mime_types_and_cache_rules(tmp_path: Path) -> None:
    site = tmp_path / "out" / "site"
    (site / "pyodide" / "abc123").mkdir(parents=True)
    (site / "pyodide" / "abc123" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (site / "pyodide" / "abc123" / "pyodide.mjs").write_text("export {}")
    (site / "index.html").write_text("<!doctype html>")
    (site / "pkg-1234.zip").write_bytes(b"PK")
    (site / "_headers").write_text(f"# rules\n\n/pyodide/abc123/*\n  Cache-Control: {IMMUTABLE}\n"
                                   f"/pkg-1234.zip\n  Cache-Control: {IMMUTABLE}\n")
    for served, prefix in ((site, ""), (tmp_path / "out", "site/")):
        server = start_server(served)
        try:
            base = server.url + prefix
            assert fetch(base + "pyodide/abc123/pyodide.asm.wasm") == ("application/wasm", IMMUTABLE)
            assert fetch(base + "pyodide/abc123/pyodide.mjs") == ("text/javascript", IMMUTABLE)
            assert fetch(base + "pkg-1234.zip") == ("application/zip", IMMUTABLE)
            assert fetch(base + "index.html")[1] == "no-cache"
            assert fetch(base + "?seed=3")[1] == "no-cache"
        finally:
            server.shutdown()
            server.server_close()


def test_gzip_is_optional_and_exact(tmp_path: Path) -> None:
    import gzip

    wasm = bytes(range(256)) * 64
    (tmp_path / "a.wasm").write_bytes(wasm)
    (tmp_path / "b.zip").write_bytes(b"PK" * 100)
    for compress in (False, True):
        server = start_server(tmp_path, compress=compress)
        try:
            req = urllib.request.Request(server.url + "a.wasm", headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(req) as r:
                body, enc, ctype = r.read(), r.headers["Content-Encoding"], r.headers["Content-Type"]
                etag = r.headers["ETag"]
            assert ctype == "application/wasm"
            if compress:
                assert enc == "gzip" and gzip.decompress(body) == wasm and len(body) < len(wasm)
                again = urllib.request.Request(server.url + "a.wasm",
                                               headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
                try:
                    urllib.request.urlopen(again)
                    raise AssertionError("expected 304")
                except urllib.error.HTTPError as e:
                    assert e.code == 304
            else:
                assert enc is None and body == wasm
            # Without Accept-Encoding the bytes are sent as they are; the
            # site's zips store their files uncompressed, so they are gzipped too.
            with urllib.request.urlopen(server.url + "a.wasm") as r:
                assert r.headers["Content-Encoding"] is None and r.read() == wasm
            req = urllib.request.Request(server.url + "b.zip", headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(req) as r:
                assert r.headers["Content-Encoding"] == ("gzip" if compress else None)
        finally:
            server.shutdown()
            server.server_close()


def test_the_builds_brotli_copy_goes_to_browsers_that_accept_it(tmp_path: Path) -> None:
    wasm = bytes(range(256)) * 64
    (tmp_path / "a.wasm").write_bytes(wasm)
    (tmp_path / "a.wasm.br").write_bytes(b"brotli bytes of a.wasm")   # sent as it is: the build made it
    server = start_server(tmp_path, compress=True)

    def get(accept: str, etag: str | None = None) -> tuple[int, str | None, bytes, str]:
        headers = {"Accept-Encoding": accept, **({"If-None-Match": etag} if etag else {})}
        try:
            with urllib.request.urlopen(urllib.request.Request(server.url + "a.wasm", headers=headers)) as r:
                return r.status, r.headers["Content-Encoding"], r.read(), r.headers["ETag"]
        except urllib.error.HTTPError as e:
            return e.code, None, b"", e.headers["ETag"]

    try:
        status, enc, body, etag = get("gzip, deflate, br, zstd")
        assert (status, enc, body) == (200, "br", b"brotli bytes of a.wasm")
        assert get("gzip, br", etag)[0] == 304
        status, enc, _, gz_etag = get("gzip, br;q=0")   # refused: gzip instead
        assert (status, enc) == (200, "gzip") and gz_etag != etag
        assert get("identity")[1:3] == (None, wasm)
    finally:
        server.shutdown()
        server.server_close()
